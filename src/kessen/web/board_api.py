"""The board routes of a match in play (issue 24 §2, §5): where a model may go, the ruler between two models, and
the language a match is shown in. Each answer is the referee's (:mod:`kessen.web.reach`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from kessen.io.files import load_json
from kessen.io.validation import StrictModel
from kessen.web.match_api import _REFUSALS, _body, _matches
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
