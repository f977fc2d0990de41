"""The JSON API of the AI on the page (issue 23 §1, §3): the levels a request may ask for, and the advisor's win
chances at a person's pending decision, worked out in the background (:mod:`kessen.web.advice`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from kessen.ai.levels import DEFAULT, SERVED_NODES
from kessen.ai.search import Budget
from kessen.io.files import load_json
from kessen.io.validation import StrictModel
from kessen.web.advice import ADVICE_PLAYOUTS, ADVICE_WAITING, DEFAULT_PLAYOUTS, Advisor, advice_view
from kessen.web.limits import MAX_BODY_BYTES
from kessen.web.match_api import AiField

router = APIRouter(prefix="/api")

LEVELS = ("greedy", "search", "random")
"""The levels the page offers by name; ``search:N`` is search with N positions a decision."""


class AdviceRequest(StrictModel):
    """What the advisor plays on with, and how many playouts per option where it cannot work the chances out exactly."""

    playouts: int = Field(default=DEFAULT_PLAYOUTS, description=f"playouts per option, 1 to {ADVICE_PLAYOUTS:,}")
    ai: AiField = Field(
        default=None,
        description="the level both sides play on with (greedy, search, search:N, random), or side → level; by default the match's AI",
    )


_REFUSALS: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such match, or no such advice for it: `{\"error\": line}`"},
    409: {"description": "no person decides in this match now (it is over, or the AI is playing it), or the advice has ended already"},
    413: {"description": f"body over {MAX_BODY_BYTES:,} bytes"},
    422: {"description": "bad input: `{\"error\": line}`"},
    429: {"description": f"{ADVICE_WAITING} requests for advice are waiting or being worked out already"},
}


def _advisor(request: Request) -> Advisor:
    advisor: Advisor = request.app.state.advisor
    return advisor


@router.get("/ai", summary="The AI levels the server plays")
def levels() -> dict[str, Any]:
    """``levels`` by name, the ``default`` one, and the search budgets ``search:N`` may name (``nodes``: the plain
    search's budget and the most the server searches a decision)."""
    return {"levels": list(LEVELS), "default": DEFAULT, "nodes": {"search": Budget().nodes, "most": SERVED_NODES}}


@router.post(
    "/matches/{match_id}/advice", status_code=201, responses=_REFUSALS,
    summary="Ask for each option's chance to win at the person's pending decision, worked out in the background",
    openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": AdviceRequest.model_json_schema()}}}},
)
async def ask_advice(match_id: str, request: Request) -> dict[str, Any]:
    """The answer is the advice as ``GET`` gives it, ``queued``; a match's advice still waiting or being worked out
    is cancelled by its next request."""
    body: AdviceRequest = load_json(AdviceRequest, await request.body(), None)
    advisor = _advisor(request)
    return await run_in_threadpool(lambda: advice_view(advisor.ask(match_id, playouts=body.playouts, ai=body.ai)))


@router.get("/matches/{match_id}/advice/{advice_id}", summary="The advice's progress and, when done, each option's chances", responses=_REFUSALS)
def advice(match_id: str, advice_id: str, request: Request) -> dict[str, Any]:
    """``status`` is queued, running, then done, cancelled, stopped (out of its five minutes) or failed (then ``error``
    says why); ``done`` of ``total``
    counts the playouts (an option worked out exactly counts as its playouts). Once done, ``options`` gives each
    suggested option in order: its ``notation``, the chance to ``win`` and to ``draw`` (each ``p``, and its reduced
    ``fraction`` when ``exact``), and either the worth under ``best`` play for both sides (exact: a win 1, a draw
    1/2) or the ``playouts`` and the 95% Wilson interval ``low`` – ``high`` of the win chance."""
    return _advisor(request).view(match_id, advice_id)


@router.delete("/matches/{match_id}/advice/{advice_id}", summary="Cancel advice waiting or being worked out", responses=_REFUSALS)
def cancel_advice(match_id: str, advice_id: str, request: Request) -> dict[str, Any]:
    return _advisor(request).cancel(match_id, advice_id)
