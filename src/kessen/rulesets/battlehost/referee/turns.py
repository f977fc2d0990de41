"""Turn sequence: priority, the phases in order, the end phase and victory (BH-TURN-1..3)."""

from __future__ import annotations

import functools
from typing import Any

from kessen.core.engine import Chance, Terminal
from kessen.core.events import Event
from kessen.core.records import evolve, record
from kessen.dice import Dist, d
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.battlefield import arrangement
from kessen.rulesets.battlehost.referee.state import BhState, fight_resolved
from kessen.rulesets.battlehost.referee.steps import FightPhase, MoveStep, PriorityStep, ShootPhase, ShootStep
from kessen.rulesets.battlehost.rules.sides import SIDES, Side, other_side


@record
class PriorityRoll:
    """Both players' priority dice (BH-TURN-2)."""

    good: int
    evil: int


@record
class GivenPriority:
    """The scenario gives the first turn's priority (section 4): a step with one certain outcome."""

    player: Side


def priority_dist(*, first_turn: bool) -> Dist[PriorityRoll]:
    """Both players' D6; in the first turn a tie is rolled again, so only unequal pairs remain (BH-TURN-2)."""
    return _priority_dist(first_turn)


@functools.cache
def _priority_dist(first_turn: bool) -> Dist[PriorityRoll]:
    pairs = d(6).combine(d(6), PriorityRoll)
    return pairs.filter_given(lambda r: r.good != r.evil) if first_turn else pairs


def priority_node(state: BhState, step: PriorityStep) -> Chance:
    """The first turn's priority as the scenario gives it (one certain outcome), else both players' dice (BH-TURN-2)."""
    if state.turn == 0 and state.first_priority is not None:
        return Chance(Dist.always(GivenPriority(state.first_priority)), "priority given")
    return Chance(priority_dist(first_turn=state.turn == 0), "priority roll")


def apply_priority(state: BhState, step: PriorityStep, roll: PriorityRoll | GivenPriority, out: list[Event]) -> BhState:
    """BH-TURN-2: the higher roll has priority; a later tie goes to the player who did not have it."""
    turn = state.turn + 1
    if isinstance(roll, GivenPriority):
        out.append(ev.PriorityGiven(turn=turn, player=roll.player))
        return _start_turn(state, turn, roll.player, out)
    if roll.good != roll.evil:
        side: Side = "good" if roll.good > roll.evil else "evil"
    else:
        side = other_side(state.priority or "good")
    out.append(ev.PriorityRolled(turn=turn, good_roll=roll.good, evil_roll=roll.evil, player=side))
    return _start_turn(state, turn, side, out)


def _start_turn(state: BhState, turn: int, side: Side, out: list[Event]) -> BhState:
    """The Move phase follows the priority roll, each player moving in turn, then the Shoot and the Fight phases;
    nothing has moved or shot yet this turn (BH-TURN-1, BH-MOVE-1, BH-SHOOT-1, BH-MOVE-8)."""
    out.append(ev.PhaseStarted(turn=turn, phase="move"))
    other = other_side(side)
    phases = (MoveStep(side), MoveStep(other), ShootPhase(), ShootStep(side), ShootStep(other), FightPhase())
    return evolve(state, turn=turn, priority=side, phase="move", moved=(), done=frozenset(), shot=frozenset(), pending=phases + state.pending)


def end_turn(state: BhState, out: list[Event]) -> BhState:
    """End phase: the battle ends after the last turn, else the next turn's priority roll (BH-TURN-1, BH-TURN-3)."""
    state = evolve(state, fights=(), fighting=None)
    if state.turn >= state.turns:
        return end_battle(state, out)
    return evolve(state, phase="priority")


def next_turn(state: BhState, out: list[Event]) -> BhState:
    """When a turn's steps are all played, the next turn begins with its priority roll (BH-TURN-1)."""
    return evolve(state, pending=(PriorityStep(),))


def wiped_out(state: BhState, out: list[Event]) -> BhState | None:
    """BH-TURN-3: a side with no models left loses at once, whatever step the battle is at; else None."""
    if state.turn > 0 and not arrangement(state.models).sides.issuperset(SIDES):
        return end_battle(state, out)
    return None


def result(state: BhState) -> Terminal | None:
    """The end of the battle, its winner and summary (BH-TURN-3), or None while it goes on."""
    return Terminal(winner(state), summary(state)) if state.ended else None


def end_battle(state: BhState, out: list[Event]) -> BhState:
    """The battle is over: the last fight still reports its result, then the casualties and the winner (BH-TURN-3)."""
    f = state.fighting
    if f is not None and f.winner is not None:
        out.append(fight_resolved(f))
    state = evolve(state, ended=True, phase="over", fighting=None, shooting=None, pending=())
    lost = casualties(state)
    out.append(ev.BattleEnded(
        winner=winner(state) or "draw", turn=state.turn,
        good_lost=f"{lost['good']}/{state.start[0]}", evil_lost=f"{lost['evil']}/{state.start[1]}",
    ))
    return state


def casualties(state: BhState) -> dict[str, int]:
    """The models each side has lost."""
    return {s: sum(1 for _, side in state.casualties if side == s) for s in SIDES}


def winner(state: BhState) -> Side | None:
    """BH-TURN-3: a side with no models left loses; else the smaller fraction of models lost wins; equal is a draw."""
    alive = [s for s in SIDES if state.side_models(s)]
    if len(alive) == 1:
        return alive[0]
    if not alive:
        return None
    lost = casualties(state)
    a, b = lost["good"] * state.start[1], lost["evil"] * state.start[0]
    if a == b:
        return None
    return "good" if a < b else "evil"


def summary(state: BhState) -> dict[str, Any]:
    """The Terminal node's summary: rounds (turns) played, casualties and survivors of each side, and the share of
    its starting models each side lost, which decides the winner at the end of the last turn (BH-TURN-3)."""
    lost = casualties(state)
    start = dict(zip(SIDES, state.start))
    return {
        "rounds": state.turn,
        "casualties": lost,
        "survivors": {s: len(state.side_models(s)) for s in SIDES},
        "percent_lost": {s: round(100 * lost[s] / start[s], 1) for s in SIDES},
    }
