"""Helpers for the song-of-blades engine tests: scenario text, and driving the state machine by hand."""

from __future__ import annotations

from typing import Any

import tomli_w

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.dice import Dist
from kessen.rulesets.song_of_blades.referee import game as g
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.battlefield import Figure
from kessen.rulesets.song_of_blades.referee.setup import initial_state
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.referee.turns import roll_off_winner
from kessen.rulesets.song_of_blades.rules.melee import MeleeOutcome, combat_roll
from kessen.rulesets.song_of_blades.rules.quality import ActivationOutcome
from kessen.rulesets.song_of_blades.rules.turns import RollOffDice
from kessen.rulesets.song_of_blades.scenario import load_scenario
from tests.engine_support import apply_checked

TOL = 0.01  # mm: coordinates are asserted to 0.01 mm
SIDES = ("Red", "Blue")  # the sides of every scenario built here
GAME = g.GAME


def model(id: str, x: float, y: float, **profile: Any) -> dict[str, Any]:
    """A model entry of a scenario file: Q4 C3, 30 points, unless given."""
    entry: dict[str, Any] = {"id": id, "name": id, "points": 30, "quality": 4, "combat": 3, "x": float(x), "y": float(y)}
    entry.update(profile)
    return entry


def scenario_text(red: list[dict[str, Any]], blue: list[dict[str, Any]], **extra: Any) -> str:
    """The TOML text of a scenario with sides Red and Blue (900 × 900 mm table unless options say)."""
    data: dict[str, Any] = {"name": "test", **extra, "sides": [{"side": "Red", "models": red}, {"side": "Blue", "models": blue}]}
    return tomli_w.dumps(data)


def state_of(red: list[dict[str, Any]], blue: list[dict[str, Any]], **extra: Any) -> SobState:
    """The initial state of a scenario built from model entries (through the scenario loader)."""
    return initial_state(load_scenario(scenario_text(red, blue, **extra), "test"))


def rolled(node: Chance, choice: Any) -> Any:
    """The outcome of a chance node that *choice* stands for: itself when the node can draw it; else, for a result
    without its dice (a MeleeOutcome, an ActivationOutcome, a MoraleOutcome, or the side that wins the roll-off),
    the first roll of the dice in the node's distribution that gives that result."""
    if choice in node.dist:
        return choice
    for outcome in node.dist.outcomes():
        if isinstance(outcome, RollOffDice):
            if roll_off_winner(outcome, SIDES)[0] == choice:
                return outcome
        elif outcome.outcome == choice:
            return outcome
    raise AssertionError(f"{node.kind} cannot give {choice!r}: {node.dist.outcomes()}")


def results(node: Chance) -> Dist[Any]:
    """A chance node's distribution with the dice forgotten: the result of each roll (the winner of the roll-off),
    which must be exactly the procedure's distribution."""
    return node.dist.map(lambda o: roll_off_winner(o, SIDES)[0] if isinstance(o, RollOffDice) else o.outcome)


def step(state: SobState, choice: Any) -> tuple[SobState, tuple[Event, ...]]:
    """Apply *choice* after ``apply_checked`` has checked it is legal at the current node (a decision's option or
    free choice, or an outcome of the chance node's dist, given with or without its dice: see :func:`rolled`)."""
    node = g.GAME.node(state)
    if isinstance(node, Chance):
        choice = rolled(node, choice)
    return apply_checked(GAME, state, choice)


def play(state: SobState, *choices: Any) -> tuple[SobState, list[Event]]:
    """Apply several legal choices in a row; the events of all of them."""
    events: list[Event] = []
    for choice in choices:
        state, new = step(state, choice)
        events.extend(new)
    return state, events


def turn_of(state: SobState, side: str) -> SobState:
    """Win the roll-off for *side*: its first turn begins."""
    return step(state, side)[0]


def activated(state: SobState, model_id: str, actions: int, dice: int | None = None) -> SobState:
    """Activate a model and roll *actions* successes (no turnover unless two or more dice fail)."""
    dice = dice if dice is not None else max(actions, 1)
    failures = dice - actions
    state, _ = play(state, opt.Activate(model_id, dice), ActivationOutcome(actions, failures, failures >= 2))
    return state


def ready(state: SobState, side: str, model_id: str, actions: int = 1) -> SobState:
    """Roll-off for *side*, then activate *model_id* with *actions* actions."""
    return activated(turn_of(state, side), model_id, actions)


def decision(state: SobState, what: str) -> Decision:
    n = g.GAME.node(state)
    assert isinstance(n, Decision), n
    assert n.kind == what, (n.kind, what)
    return n


def chance(state: SobState, what: str) -> Chance:
    n = g.GAME.node(state)
    assert isinstance(n, Chance), n
    assert n.kind == what, (n.kind, what)
    return n


def nothing_pending(state: SobState) -> bool:
    """No step of a fight is left: the game stands at the turn's next action or activation (or its end)."""
    return all(isinstance(p, sp.ChooseAction | sp.ChooseActivation) for p in state.pending)


def pending_roll(state: SobState) -> sp.CombatRoll:
    top = state.pending[0]
    assert isinstance(top, sp.CombatRoll), top
    return top


def forced(state: SobState, attacker_die: int, defender_die: int) -> MeleeOutcome:
    """The outcome of the pending combat roll with these natural dice (the engine's own Melee input)."""
    return combat_roll(pending_roll(state).roll, attacker_die, defender_die)


def at(f: Figure | None, x: float, y: float) -> bool:
    assert f is not None
    return abs(f.x - x) <= TOL and abs(f.y - y) <= TOL


def types(events: list[Event] | tuple[Event, ...]) -> list[str]:
    return [e.type for e in events]
