"""The JSON API of matches (issue 11): start one, read its state, choose, undo, save, load, and replay it.

Every answer comes from :class:`kessen.Match`: the decision with its suggested options, notation and exact odds, the
board, the events narrated in the match's language, and the result. A match lives in the store as its save file.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from kessen.ai.levels import check_served
from kessen.core.errors import InputError
from kessen.io.files import load_json
from kessen.io.requests import ChoiceRequest, MatchRequest, ScenarioRequest
from kessen.match import Match
from kessen.web.limits import MAX_BODY_BYTES
from kessen.web.playing import Matches
from kessen.web.replays import check_events, replay_view
from kessen.web.scenarios import choose_scenario
from kessen.web.texts import check_language
from kessen.web.views import legend, match_view

router = APIRouter(prefix="/api")

class BoardRequest(ScenarioRequest):
    lang: str = Field(default="en", max_length=10)


class EventsRequest(ScenarioRequest):
    """An events file (JSON lines, as ``kessen battle --events`` writes) with the scenario and seed it came from."""

    seed: int
    events: str = Field(max_length=MAX_BODY_BYTES)
    lang: str = Field(default="en", max_length=10)


def _matches(request: Request) -> Matches:
    matches: Matches = request.app.state.matches
    return matches


def _body(model: type[Any]) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


_REFUSALS: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such match: `{\"error\": line}`"},
    409: {"description": "the AI is still playing this battle in the background"},
    413: {"description": f"body over {MAX_BODY_BYTES:,} bytes"},
    422: {"description": "bad input, or a refused choice: `{\"error\": line}` (a choice also gives `rule` and `reason`)"},
    429: {"description": "the server keeps as many matches as it may, all still in play (or plays as many AI battles as it may)"},
}


async def _read(request: Request, model: type[Any]) -> Any:
    return load_json(model, await request.body(), None)


@router.post("/scenarios/board", summary="A scenario's board at the start, its sides and its words", responses=_REFUSALS, openapi_extra=_body(BoardRequest))
async def scenario_board(request: Request) -> dict[str, Any]:
    body: BoardRequest = await _read(request, BoardRequest)
    return await run_in_threadpool(_scenario_board, body)


def _scenario_board(body: BoardRequest) -> dict[str, Any]:
    lang = check_language(body.lang)
    chosen = choose_scenario(body.scenario, body.ruleset)
    match = Match(chosen.ruleset, chosen.text, chosen.source, seed=0, lang=lang)
    board = match.board()
    return {
        "ruleset": chosen.ruleset.id, "scenario": chosen.source, "sides": list(match.sides), "board": board,
        "legend": legend(chosen.ruleset.id, lang, board["terrain"], board["models"]),
    }


@router.post(
    "/matches", status_code=201, responses=_REFUSALS, openapi_extra=_body(MatchRequest),
    summary="Start a match: the AI plays the sides no person plays (with no person, the whole battle, in the background)",
)
async def start_match(request: Request) -> dict[str, str]:
    body: MatchRequest = await _read(request, MatchRequest)
    matches = _matches(request)

    def start() -> dict[str, str]:
        chosen = choose_scenario(body.scenario, body.ruleset)
        check_served(body.ai)
        return {"id": matches.start(chosen, seed=body.seed, people=body.people, lang=check_language(body.lang), ai=body.ai)}

    return await run_in_threadpool(start)


@router.post(
    "/matches/load", status_code=201, summary="A new match from a save file's text, replayed to where it was saved",
    responses=_REFUSALS, openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}},
)
async def load_match(request: Request) -> dict[str, str]:
    """The body is the save file itself (``kessen-save/2`` or ``/1``, as ``GET /api/matches/{id}/save`` gives it)."""
    text = await request.body()
    matches = _matches(request)
    return await run_in_threadpool(lambda: {"id": matches.load(_text(text))})


@router.post(
    "/matches/from-events", status_code=201, summary="The AI battle an events file records, checked line by line",
    responses=_REFUSALS, openapi_extra=_body(EventsRequest),
)
async def match_from_events(request: Request) -> dict[str, str]:
    """The scenario and seed are played AI against AI; the events must be exactly that battle's (a battle with a
    person's decisions replays from its save file instead)."""
    body: EventsRequest = await _read(request, EventsRequest)
    matches = _matches(request)

    def played() -> dict[str, str]:
        chosen = choose_scenario(body.scenario, body.ruleset)
        match = Match(chosen.ruleset, chosen.text, chosen.source, seed=body.seed, lang=check_language(body.lang))
        match.run()
        check_events(match, body.events)
        return {"id": matches.keep_new(match)}

    return await run_in_threadpool(played)


@router.get("/matches/{match_id}", summary="A match: its status, pending decision, board, events and result", responses=_REFUSALS)
def match_state(match_id: str, request: Request) -> dict[str, Any]:
    """``status`` is ``playing`` while the AI plays an AI battle in the background (then only the match's request is
    given), ``waiting`` for a person's decision, or ``done``."""
    matches = _matches(request)
    playing = matches.playing_view(match_id)
    if playing is not None:
        return playing
    with matches.using(match_id) as match:
        return match_view(match_id, match)


@router.post(
    "/matches/{match_id}/choose", summary="Make the pending decision: a suggested option's notation or any legal one",
    responses=_REFUSALS, openapi_extra=_body(ChoiceRequest),
)
async def choose(match_id: str, request: Request) -> dict[str, Any]:
    body: ChoiceRequest = await _read(request, ChoiceRequest)

    def chosen() -> dict[str, Any]:
        with _matches(request).using(match_id, change=True) as match:
            match.choose(body.notation)
            return match_view(match_id, match)

    return await run_in_threadpool(chosen)


@router.post("/matches/{match_id}/undo", summary="Back to before the person's last decision", responses=_REFUSALS)
def undo(match_id: str, request: Request) -> dict[str, Any]:
    with _matches(request).using(match_id, change=True) as match:
        match.undo()
        return match_view(match_id, match)


@router.get("/matches/{match_id}/save", summary="The match's save file, as a download", responses=_REFUSALS)
def save(match_id: str, request: Request) -> Response:
    text = _matches(request).save_text(match_id)
    headers = {"content-disposition": f'attachment; filename="kessen-{match_id}.json"'}
    return Response(text, media_type="application/json", headers=headers)


@router.get("/matches/{match_id}/replay", summary="A match replayed: the board after every step, the events, the result", responses=_REFUSALS)
def replay(match_id: str, request: Request) -> dict[str, Any]:
    """``start`` is the board before the first step; each of ``frames`` holds the models a step changed (and the
    ids of those it took off the board), shown once the event at index ``at`` is."""
    return {"id": match_id, **replay_view(_matches(request).save_text(match_id))}


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("save", InputError.NOTHING, "not valid UTF-8 text") from None

