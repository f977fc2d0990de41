"""Helpers for the battlehost engine tests: scenario text, and driving the state machine by hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tomli_w

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.events import Event
from kessen.dice import draw, stream
from kessen.rulesets.battlehost.ai import BattlehostAI
from kessen.rulesets.battlehost.referee.battlefield import Model
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee.game import GAME
from kessen.rulesets.battlehost.referee.turns import PriorityRoll
from tests.engine_support import apply_checked


TOL = 0.001  # inches: positions are compared to 0.001" (section 11)
CONTACT = 0.9842520  # centres of two 25 mm bases in contact


def model(id: str, x: float, y: float, **profile: Any) -> dict[str, Any]:
    """A model entry: an F3/4+ S3 D4 A1 W1 Mv6 warrior on a 25 mm base, unless given."""
    entry: dict[str, Any] = {"id": id, "name": id, "move": 6, "fight": 3, "strength": 3, "defence": 4, "x": float(x), "y": float(y)}
    entry.update(profile)
    return entry


def scenario_text(good: list[dict[str, Any]], evil: list[dict[str, Any]], **extra: Any) -> str:
    data: dict[str, Any] = {"name": "test", "turns": 3, **extra, "good": good, "evil": evil}
    return tomli_w.dumps(data)


def state_of(good: list[dict[str, Any]], evil: list[dict[str, Any]], **extra: Any) -> st.BhState:
    """The initial state of a scenario built from model entries (through the scenario loader), at its first
    step, the priority roll."""
    return GAME.load_scenario(scenario_text(good, evil, **extra), "test.toml")


def step(state: st.BhState, choice: Any) -> tuple[st.BhState, tuple[Event, ...]]:
    """Apply *choice*, first checking that it is legal here (an option, or an outcome of the distribution)."""
    return apply_checked(GAME, state, choice)


def play(state: st.BhState, *choices: Any) -> tuple[st.BhState, list[Event]]:
    events: list[Event] = []
    for choice in choices:
        state, new = step(state, choice)
        events.extend(new)
    return state, events


def started(state: st.BhState, priority: str = "good") -> st.BhState:
    """Turn 1 begins with *priority* (a forced priority roll)."""
    return step(state, PriorityRoll(6, 1) if priority == "good" else PriorityRoll(1, 6))[0]


def to_phase(state: st.BhState, phase: str) -> tuple[st.BhState, list[Event]]:
    """End every move and shooting until *phase* starts (the default at other decisions is not taken)."""
    events: list[Event] = []
    order = ("priority", "move", "shoot", "fight", "over")
    turn = state.turn
    while order.index(state.phase) < order.index(phase):
        if state.turn != turn or (state.phase == "priority" and turn > 0):
            break  # the turn ended first (nothing to fight)
        node = GAME.node(state)
        assert isinstance(node, Decision), node
        choice = op.EndMoves() if node.kind == "move" else op.EndShooting()
        state, new = step(state, choice)
        events.extend(new)
    return state, events


def fight_phase(good: list[dict[str, Any]], evil: list[dict[str, Any]], priority: str = "good", **extra: Any) -> st.BhState:
    """A scenario's first Fight phase, reached without moving or shooting."""
    return to_phase(started(state_of(good, evil, **extra), priority), "fight")[0]


def node(state: st.BhState) -> Any:
    return GAME.node(state)


def decision(state: st.BhState, kind: str) -> Decision:
    n = GAME.node(state)
    assert isinstance(n, Decision), n
    assert n.kind == kind, (n.kind, kind, n)
    return n


def chance(state: st.BhState, kind: str) -> Chance:
    n = GAME.node(state)
    assert isinstance(n, Chance), n
    assert n.kind == kind, (n.kind, kind)
    return n


def is_over(state: st.BhState) -> bool:
    return isinstance(GAME.node(state), Terminal)


def at(m: Model | None, x: float, y: float) -> bool:
    assert m is not None
    return abs(m.x - x) <= TOL and abs(m.y - y) <= TOL


def of_type(events: list[Event] | tuple[Event, ...], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def play_greedy(start: st.BhState, seed: int, looking: Callable[[st.BhState, Decision], None], *, steps: int) -> st.BhState:
    """A battle from *start* (the scenario's state before its first step), the greedy AI deciding for both sides and
    the dice drawn from the stream of *seed*; *looking* sees each decision before it is taken. The state it ends at,
    after at most *steps* steps."""
    state, _ = GAME.start(start)
    rng = stream(seed)
    for _ in range(steps):
        node = GAME.node(state)
        if isinstance(node, Terminal):
            break
        if isinstance(node, Chance):
            state, _ = GAME.apply(state, draw(node.dist, rng))
            continue
        looking(state, node)
        state, _ = GAME.apply(state, BattlehostAI(node.player).decide(state, node))
    return state
