"""The JSON API the page uses (issue 11): rulesets and their procedures, exact odds, shipped and pasted scenarios.

Every answer is computed by the functions a Python user calls (``kessen.odds.answer``, the ruleset's
``load_scenario``); every refusal is ``{"error": "<the CLI's one line>"}`` with a 4xx status. No path from a
request is ever opened: scenarios are shipped ones, listed by name, or sent as text.
"""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.files import load_json
from kessen.io.validation import StrictModel
from kessen.odds import answer
from kessen.rulesets import get_ruleset, ruleset_ids
from kessen.web.errors import NotFound
from kessen.web.limits import MAX_BODY_BYTES
from kessen.web.scenarios import PASTED, scenario_ruleset, shipped, shipped_text
from kessen.web.texts import check_language, page_words, ruleset_texts

router = APIRouter(prefix="/api")

_JSON_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}}
_REFUSALS: dict[int | str, dict[str, Any]] = {
    404: {"description": "unknown ruleset or procedure: `{\"error\": line}`"},
    413: {"description": f"body over {MAX_BODY_BYTES:,} bytes"},
    422: {"description": "bad input: `{\"error\": line}`, the line `kessen odds` prints on stderr"},
}


class ScenarioCheck(StrictModel):
    """A scenario to check: its TOML text and, unless the text names it (``ruleset = "..."``), its ruleset."""

    text: str = Field(max_length=MAX_BODY_BYTES)
    ruleset: str | None = None


@router.get("/texts/{lang}", summary="The page's own words in a language (en, ja)")
def texts(lang: str) -> dict[str, Any]:
    return page_words(check_language(lang))


@router.get("/rulesets", summary="The rulesets and their procedures")
def rulesets(lang: str = "en") -> dict[str, Any]:
    return _rulesets(check_language(lang))


@functools.cache
def _rulesets(lang: str) -> dict[str, Any]:
    listed = []
    for rid in ruleset_ids():
        ruleset, words = get_ruleset(rid), ruleset_texts(rid, lang)
        listed.append(
            {
                "id": rid,
                "title": words["title"],
                "prefix": ruleset.prefix,
                "plays_battles": ruleset.plays_battles,
                "procedures": [{"name": name, **_titled(words["procedures"][name])} for name in ruleset.procedures],
            }
        )
    return {"rulesets": listed}


@router.get("/rulesets/{ruleset}", summary="A ruleset's procedures with their input JSON Schemas", responses=_REFUSALS)
def ruleset(ruleset: str, lang: str = "en") -> dict[str, Any]:
    """Each procedure's ``schema`` is exactly what ``kessen odds RULESET PROCEDURE --schema`` prints; ``fields``
    gives each field path's label and description, ``outcomes`` the outcome labels, ``start`` the input the page's
    form opens with, and ``words`` the words of the values."""
    return _ruleset(get_ruleset(ruleset).id, check_language(lang))


@functools.cache
def _ruleset(ruleset: str, lang: str) -> dict[str, Any]:
    chosen = get_ruleset(ruleset)
    words = ruleset_texts(chosen.id, lang)
    return {
        "id": chosen.id,
        "title": words["title"],
        "prefix": chosen.prefix,
        "procedures": [
            {
                "name": name,
                **_titled(words["procedures"][name]),
                "schema": procedure.input_model.model_json_schema(),
                "fields": words["procedures"][name]["fields"],
                "outcomes": words["procedures"][name]["outcomes"],
                "start": words["procedures"][name]["start"],
            }
            for name, procedure in chosen.procedures.items()
        ],
        "words": words["words"],
    }


@router.post(
    "/odds/{ruleset}/{procedure}",
    summary="Exact odds of one procedure: the JSON object `kessen odds` prints",
    responses=_REFUSALS,
    openapi_extra=_JSON_BODY,
)
async def odds(ruleset: str, procedure: str, request: Request) -> Response:
    """The body is the procedure's input (its schema: `GET /api/rulesets/{ruleset}`)."""
    chosen = get_ruleset(ruleset)
    proc = chosen.procedure(procedure)
    text = _text(await request.body())
    result = await run_in_threadpool(lambda: answer(chosen.id, proc, load_json(proc.input_model, text, None)))
    return Response(result.to_json(indent=None), media_type="application/json")


@router.get("/scenarios", summary="The scenarios kessen ships")
def scenarios() -> dict[str, Any]:
    """Each by the name the match, board and simulation routes take (``battlehost/doorway``), with its sides."""
    return {
        "scenarios": [
            {"name": s.name, "ruleset": s.ruleset, "title": s.title, "description": s.description, "sides": list(s.sides)}
            for s in shipped().values()
        ]
    }


@router.get("/scenarios/{ruleset}/{name}", summary="A shipped scenario's text", responses=_REFUSALS)
def scenario(ruleset: str, name: str) -> dict[str, Any]:
    found = shipped().get(f"{ruleset}/{name}")
    if found is None:
        raise NotFound("scenario", f"{ruleset}/{name}", "no shipped scenario has this name (GET /api/scenarios lists them)")
    return {"name": found.name, "ruleset": found.ruleset, "title": found.title, "sides": list(found.sides), "text": shipped_text(found.name)}


@router.post(
    "/scenarios/check",
    summary="Check a scenario's text: its name and sides, or the error line",
    responses=_REFUSALS,
    openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": ScenarioCheck.model_json_schema()}}}},
)
async def check_scenario(request: Request) -> dict[str, Any]:
    body = load_json(ScenarioCheck, _text(await request.body()), None)
    return await run_in_threadpool(_check, body)


def _check(body: ScenarioCheck) -> dict[str, Any]:
    chosen = get_ruleset(scenario_ruleset(body.text, body.ruleset))
    if not chosen.plays_battles:
        raise InputError("ruleset", chosen.id, "this ruleset does not play whole battles yet")
    try:
        state = chosen.game.load_scenario(body.text, PASTED)
    except RecursionError:  # tomllib parses nested arrays recursively
        raise InputError("scenario", InputError.NOTHING, "nested too deeply") from None
    return {"ok": True, "ruleset": chosen.id, "sides": list(chosen.game.sides(state))}


def _titled(words: dict[str, Any]) -> dict[str, str]:
    return {"title": words["title"], "summary": words["summary"]}


def _text(body: bytes) -> str:
    """A body as the text the CLI would read from a file with the same bytes."""
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("input", InputError.NOTHING, "not valid UTF-8 text") from None
