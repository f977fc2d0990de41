"""The JSON API of simulations (issue 11): ask for N AI battles of a scenario, then follow their progress and read
the win rates with their 95% intervals and the casualty distributions; cancel one (issue 22)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from kessen.ai.levels import check_served, level_table
from kessen.core.errors import InputError
from kessen.io.files import load_json
from kessen.io.requests import AiField, ScenarioRequest
from kessen.sim.battles import check_seed
from kessen.web.limits import MAX_BODY_BYTES
from kessen.web.scenarios import choose_scenario
from kessen.web.simulations import (
    MAX_RUNS, SIMULATION_ROOM, SIMULATION_SECONDS, WAITING, SimulationRunner, UnknownSimulation, simulation_view,
)
from kessen.web.store import Store
from kessen.web.texts import check_language

router = APIRouter(prefix="/api")


class SimulationRequest(ScenarioRequest):
    """N battles of a scenario between its AI sides, seeded."""

    runs: int = Field(description=f"how many battles, 1 to {MAX_RUNS:,}")
    seed: int = Field(description="the seed the battles' own seeds are drawn from, 0 to 2^64 - 1")
    ai: AiField = Field(
        default=None,
        description="the AI level of every side (greedy, search, search:N, random), or side → level; default greedy",
    )


_REFUSALS: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such simulation: `{\"error\": line}`"},
    409: {"description": "the simulation has ended already: nothing to cancel"},
    413: {"description": f"body over {MAX_BODY_BYTES:,} bytes"},
    422: {"description": "bad input: `{\"error\": line}`"},
    429: {"description": f"{WAITING} simulations are waiting or running already"},
}


@router.post(
    "/simulations", status_code=201,
    summary=f"Ask for N AI battles of a scenario, played in the background (at most {SIMULATION_SECONDS / 60:g} minutes of them)",
    responses=_REFUSALS,
    openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": SimulationRequest.model_json_schema()}}}},
)
async def start_simulation(request: Request) -> dict[str, str]:
    body = load_json(SimulationRequest, await request.body(), None)
    store: Store = request.app.state.store
    runner: SimulationRunner = request.app.state.simulations

    def start() -> dict[str, str]:
        if not 1 <= body.runs <= MAX_RUNS:
            raise InputError("runs", body.runs, f"must be a whole number of battles from 1 to {MAX_RUNS:,}")
        check_seed(body.seed)
        chosen = choose_scenario(body.scenario, body.ruleset)
        game = chosen.ruleset.game
        state = game.load_scenario(chosen.text, chosen.source)  # refused now, not in the background
        check_served(body.ai)
        sides = tuple(game.sides(state))
        record = store.add_simulation(
            ruleset=chosen.ruleset.id, scenario=chosen.text, runs=body.runs, seed=body.seed, source=chosen.source,
            sides=sides, room=SIMULATION_ROOM, waiting=WAITING, ai=level_table(body.ai, sides),
        )
        runner.submit(record.id)
        return {"id": record.id}

    return await run_in_threadpool(start)


@router.get("/simulations/{simulation_id}", summary="A simulation's progress and, when done, its results", responses=_REFUSALS)
def simulation(simulation_id: str, request: Request, lang: str = "en") -> dict[str, Any]:
    """``status`` is queued, running, then done, stopped (its time ran out), cancelled or failed (then ``error`` says
    why); ``done`` counts the battles of its first chunks that all finished, ``seconds`` its running time. Once it has
    ended with battles, the result (of those ``done`` battles: the same numbers as a simulation of that many battles with
    the same seed) gives each side's wins and win rate with its 95% Wilson interval, the draws, and for every number of
    the battle summary (casualties and survivors by side, rounds, ...) its mean and distribution {value: battles}."""
    store: Store = request.app.state.store
    record = store.simulation(simulation_id)
    if record is None:
        raise UnknownSimulation(simulation_id)
    return simulation_view(record, check_language(lang))


@router.delete("/simulations/{simulation_id}", summary="Cancel a waiting or running simulation", responses=_REFUSALS)
def cancel_simulation(simulation_id: str, request: Request, lang: str = "en") -> dict[str, Any]:
    """The simulation ends as ``cancelled`` with the battles of its first chunks that finished, and its workers
    stop; the answer is the simulation as ``GET`` gives it."""
    runner: SimulationRunner = request.app.state.simulations
    return simulation_view(runner.cancel(simulation_id), check_language(lang))
