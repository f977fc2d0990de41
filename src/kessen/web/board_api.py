"""The board routes (issue 24 §2, §5, §6): of a match in play, where a model may go, the ruler between two models, and
the language it is shown in (:mod:`kessen.web.reach`); and the scenario builder's, each change judged by the referee
(:mod:`kessen.web.builder`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from kessen.io.files import load_json
from kessen.io.validation import StrictModel
from kessen.web.match_api import _REFUSALS, _body, _matches
from kessen.web import builder
from kessen.web.limits import MAX_BODY_BYTES
from kessen.web.reach import measure, reach
from kessen.web.texts import check_language
from kessen.web.views import match_view

router = APIRouter(prefix="/api")



def _id(what: str) -> Any:
    return Query(min_length=1, max_length=200, description=f"{what}'s id, as the board gives it")


class LanguageRequest(StrictModel):
    lang: str = Field(max_length=10, description="the language the match is shown and narrated in: en or ja")


@router.get("/matches/{match_id}/reach", summary="Where a model may move now, as the referee accepts it", responses=_REFUSALS)
async def model_reach(match_id: str, request: Request, model: str = _id("the model")) -> dict[str, Any]:
    """On a grid, each square the model may end its move on with the notation that moves it there; on a table, the
    area reached along rays from its centre and the ring through its farthest point. 422 when no free decision is
    asked or no model has this id."""

    def found() -> dict[str, Any]:
        with _matches(request).using(match_id) as match:
            return reach(match, model)

    return await run_in_threadpool(found)


@router.get("/matches/{match_id}/measure", summary="The ruler: distance and line of sight between two models", responses=_REFUSALS)
async def model_measure(match_id: str, request: Request, a: str = _id("the measuring model"), b: str = _id("the model measured to")) -> dict[str, Any]:
    """``distance`` between centres and ``gap`` between bases (in the board's units), or squares between two
    footprints on a grid; ``sight`` whether *a* sees *b* by the rule ``sight_rule`` (null: the ruleset has no
    line-of-sight rule)."""

    def found() -> dict[str, Any]:
        with _matches(request).using(match_id) as match:
            return measure(match, a, b)

    return await run_in_threadpool(found)


@router.post("/matches/{match_id}/lang", summary="Show a match in another language from now on", responses=_REFUSALS, openapi_extra=_body(LanguageRequest))
async def match_language(match_id: str, request: Request) -> dict[str, Any]:
    """The match's prompts, options and battle report in *lang*; its save records the language."""
    body: LanguageRequest = load_json(LanguageRequest, await request.body(), None)

    def changed() -> dict[str, Any]:
        lang = check_language(body.lang)
        with _matches(request).using(match_id, change=True) as match:
            match.lang = lang
            return match_view(match_id, match)

    return await run_in_threadpool(changed)


class BuilderOpen(StrictModel):
    scenario: str = Field(max_length=200, description="a shipped scenario's name to start from")
    lang: str = Field(default="en", max_length=10)


class BuilderText(StrictModel):
    ruleset: str = Field(max_length=100)
    text: str = Field(max_length=MAX_BODY_BYTES, description="the scenario's TOML text")
    lang: str = Field(default="en", max_length=10)


class BuilderData(StrictModel):
    ruleset: str = Field(max_length=100)
    data: dict[str, Any] = Field(description="the scenario as its TOML reads in JSON")
    lang: str = Field(default="en", max_length=10)


class BuilderRectangle(BuilderData):
    box: tuple[float, float, float, float] = Field(description="two opposite corners, x0, y0, x1, y1, in the board's units")


@router.get("/builder/{ruleset}", summary="What the scenario builder opens with: the scenario JSON Schema, scenarios to start from", responses=_REFUSALS)
def builder_start(ruleset: str) -> dict[str, Any]:
    return builder.start(ruleset)


async def _judge(request: Request, model: type[Any], judge: Any) -> dict[str, Any]:
    body = load_json(model, await request.body(), None)
    lang = check_language(body.lang)
    return await run_in_threadpool(lambda: judge(body, lang))


_JUDGED = "The scenario's data, TOML text and the handles of its models; ``ok`` with its board at the start, or the line `kessen check` prints."


@router.post("/builder/open", summary="A shipped scenario in the builder", responses=_REFUSALS, openapi_extra=_body(BuilderOpen), description=_JUDGED)
async def builder_open(request: Request) -> dict[str, Any]:
    return await _judge(request, BuilderOpen, lambda body, lang: builder.from_shipped(body.scenario, lang))


@router.post("/builder/text", summary="A scenario's TOML text, judged", responses=_REFUSALS, openapi_extra=_body(BuilderText), description=_JUDGED)
async def builder_text(request: Request) -> dict[str, Any]:
    return await _judge(request, BuilderText, lambda body, lang: builder.from_text(body.ruleset, body.text, lang))


@router.post("/builder/data", summary="A scenario's data written as TOML, judged", responses=_REFUSALS, openapi_extra=_body(BuilderData), description=_JUDGED)
async def builder_data(request: Request) -> dict[str, Any]:
    return await _judge(request, BuilderData, lambda body, lang: builder.from_data(body.ruleset, dict(body.data), lang))


@router.post("/builder/rectangle", summary="A scenario with one more rectangle of terrain, judged", responses=_REFUSALS, openapi_extra=_body(BuilderRectangle), description=_JUDGED)
async def builder_rectangle(request: Request) -> dict[str, Any]:
    return await _judge(request, BuilderRectangle, lambda body, lang: builder.add_rectangle(body.ruleset, dict(body.data), list(body.box), lang))
