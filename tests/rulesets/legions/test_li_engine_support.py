"""Helpers for the legions engine tests (no tests here): scenario text, and driving the state machine by hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tomli_w

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.game import GAME
from kessen.rulesets.legions.referee.machine import RULES
from tests.engine_support import apply_checked
from kessen.rulesets.legions.referee.setup import initial_state
from kessen.rulesets.legions.scenario import load_scenario
from kessen.rulesets.legions.referee.state import LiState

RED, BLUE = "red", "blue"

PROFILES: dict[str, dict[str, Any]] = {
    "inf": {"type": "infantry", "movement": 5, "armour_save": 5, "caf": 2, "morale": 4, "base_radius": 0.5,
            "weapons": [{"name": "bolters", "profiles": [{"range": 1, "dice": 1, "to_hit": 5}]}]},
    "gun": {"type": "infantry", "movement": 5, "armour_save": 5, "caf": 2, "morale": 4, "base_radius": 0.5,
            "weapons": [{"name": "rifles", "profiles": [{"range": 30, "dice": 1, "to_hit": 4}]}]},
    "tough": {"type": "infantry", "movement": 5, "armour_save": 5, "wounds": 2, "caf": 2, "morale": 4, "base_radius": 0.5,
              "weapons": []},
    "tank": {"type": "vehicle", "movement": 8, "armour_save": 3, "wounds": 1, "caf": 0, "morale": 3, "base_radius": 1.0,
             "weapons": [{"name": "cannon", "profiles": [{"range": 24, "dice": 1, "to_hit": 4, "ap": -1}]}]},
    "knight": {"type": "knight", "movement": 8, "armour_save": 3, "wounds": 3, "caf": 5, "morale": 3, "base_radius": 1.0,
               "weapons": []},
    "titan": {"type": "titan", "movement": 8, "armour_save": 3, "wounds": 6, "caf": 8, "morale": 2, "base_radius": 2.0,
              "void_shields": 2, "weapons": []},
    "shk": {"type": "super_heavy_vehicle", "movement": 8, "armour_save": 2, "wounds": 3, "caf": 1, "morale": 3, "base_radius": 1.5,
            "weapons": []},
}


def det(id: str, *models: dict[str, Any], **status: Any) -> dict[str, Any]:
    """A detachment entry."""
    return {"id": id, **status, "models": list(models)}


def m(profile: str, x: float, y: float, **kw: Any) -> dict[str, Any]:
    """A model entry."""
    return {"profile": profile, "x": float(x), "y": float(y), **kw}


def scenario_text(red: list[dict[str, Any]], blue: list[dict[str, Any]], *, start: str = "combat", initiative: str | None = RED,
                  red_formations: list[list[dict[str, Any]]] | None = None, profiles: dict[str, Any] | None = None,
                  **extra: Any) -> str:
    """A 72 × 48 battle, red south, blue north; each side one formation unless *red_formations* splits red."""
    formations = []
    for i, dets in enumerate(red_formations or [red]):
        formations.append({"id": f"red-f{i + 1}", "player": RED, "detachments": dets})
    formations.append({"id": "blue-f1", "player": BLUE, "detachments": blue})
    data: dict[str, Any] = {
        "name": "test", "start": start, "players": [{"name": RED, "edge": "south"}, {"name": BLUE, "edge": "north"}],
        "profiles": {**PROFILES, **(profiles or {})}, "formations": formations, **extra,
    }
    if initiative is not None and start == "combat":
        data["initiative"] = initiative
    return tomli_w.dumps(data)


def state_of(red: list[dict[str, Any]], blue: list[dict[str, Any]], **kw: Any) -> LiState:
    """The battle's state, to be run up to its first chance or decision by the first ``node``, ``step`` or
    ``drive`` (which tells the events on the way)."""
    return raw_state_of(red, blue, **kw)


def raw_state_of(red: list[dict[str, Any]], blue: list[dict[str, Any]], **kw: Any) -> LiState:
    """The battle's state exactly as the scenario sets it, before any step is run."""
    return initial_state(load_scenario(scenario_text(red, blue, **kw), "test"))


def settled(state: LiState) -> bool:
    """Whether *state* stands at a chance, a decision or the end, as every state ``start`` and ``apply`` give does;
    a scenario's initial state (``raw_state_of``) stands at a step the rules settle alone (a round begins)."""
    return state.ended or (bool(state.pending) and RULES[type(state.pending[0])].node is not None)


def ready(state: LiState) -> LiState:
    """*state*, run up to its first chance or decision if it is not there yet."""
    return state if settled(state) else GAME.start(state)[0]


def node(state: LiState) -> Node:
    """The node *state* stands at (a state never started is started first)."""
    return GAME.node(ready(state))


def apply(state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
    """The state after *choice*; a state never started is started first, and the opening's events come with the
    first choice's."""
    if settled(state):
        return GAME.apply(state, choice)
    started, opening = GAME.start(state)
    after, events = GAME.apply(started, choice)
    return after, opening + events


def step(state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
    """Apply a choice, first checking it is legal at the current node."""
    return apply_checked(GAME, state, choice)


Chooser = Callable[[LiState, Node], Any]


def drive(
    state: LiState,
    *,
    choose: Chooser | None = None,
    roll: Chooser | None = None,
    until: Callable[[LiState, Node, list[Event]], bool] | None = None,
    limit: int = 5000,
) -> tuple[LiState, list[Event]]:
    """Play on: decisions by *choose* (default: the first option), chance outcomes by *roll* (default: the
    first outcome listed), until *until* holds or the battle ends. Returns the state and every event."""
    events: list[Event] = []
    if not settled(state):
        state, opening = GAME.start(state)
        events.extend(opening)
    for _ in range(limit):
        n = GAME.node(state)
        if isinstance(n, Terminal) or (until is not None and until(state, n, events)):
            return state, events
        if isinstance(n, Decision):
            choice = choose(state, n) if choose else None
            choice = n.options[0] if choice is None else choice
        else:
            assert isinstance(n, Chance)
            choice = roll(state, n) if roll else None
            choice = n.dist.outcomes()[0] if choice is None else choice
        state, new = step(state, choice)
        events.extend(new)
    raise AssertionError("did not stop")


def stage_started(name: str) -> Callable[[LiState, Node, list[Event]], bool]:
    """Stop once the named stage has started (and before anything of it is decided)."""
    return lambda state, n, events: any(isinstance(e, ev.StageStarted) and e.stage == name for e in events)


def phase_over(state: LiState, n: Node, events: list[Event]) -> bool:
    return any(isinstance(e, ev.PhaseStarted) and e.phase == "end_phase" for e in events)


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def outcome_where(n: Node, **fields: Any) -> Any:
    """The outcome of a chance node whose fields have these values."""
    assert isinstance(n, Chance), n
    for o in n.dist.outcomes():
        if all(getattr(o, k) == v for k, v in fields.items()):
            return o
    raise AssertionError(f"no outcome with {fields} in {n.kind}: {n.dist.outcomes()}")
