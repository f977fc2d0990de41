"""Ending the battle: the end check, the result on VP, and the rout of the losers after a decisive victory (§5.27)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.core.engine import Rolled
from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.objectives import eliminate_unit
from kessen.rulesets.armies_clash.referee.rounds import new_round
from kessen.rulesets.armies_clash.referee.state import AcState, lost_plus, other
from kessen.rulesets.armies_clash.referee.steps import Finish, RoutRoll
from kessen.rulesets.armies_clash.rules.ending import DECISIVE_LEAD, VICTORY_VP


def verdict(vp_a: int, vp_b: int) -> tuple[str, str]:
    """Compare totals: a lead of 3 or more is decisive, 1–2 tactical, equal a draw (AC-WIN-2)."""
    if vp_a == vp_b:
        return "draw", ""
    winner = "a" if vp_a > vp_b else "b"
    return ("decisive" if abs(vp_a - vp_b) >= DECISIVE_LEAD else "tactical"), winner


def judge(state: AcState, out: list[Event]) -> AcState:
    """The battle ends when a side has 10 VP, or a side has no stands left, or the last round is over; judged on VP
    (AC-WIN-1, AC-WIN-2, AC-WIN-4); after a decisive victory each surviving losing unit flees on a d20 of 10+."""
    vp_a, vp_b = state.vp
    out.append(ev.RoundEnded(round=state.round, vp_a=vp_a, vp_b=vp_b))
    empty = not state.side_stands("a") or not state.side_stands("b")
    if max(vp_a, vp_b) < VICTORY_VP and not empty and state.round < state.static.max_rounds:
        return new_round(state, out)
    result, winner = verdict(vp_a, vp_b)
    if result == "draw" and state.static.extra_round_on_tie and not state.extra_round and not empty:
        return new_round(replace(state, extra_round=True), out)
    state = replace(state, result=result, winner=winner)
    if result == "decisive":
        loser = other(winner)
        survivors = [who for who in state.order if state.solo(who) is None and state.unit(who).side == loser and state.unit_stands(who)]
        if survivors:
            return replace(state, pending=tuple(RoutRoll(u) for u in survivors) + (Finish(),))
    return finish(state, out)


def rout_result(state: AcState, step: RoutRoll, rolled: Rolled, out: list[Event]) -> AcState:
    """A losing unit that fails its roll flees the field, eliminated without VP (AC-WIN-2, AC-WIN-3)."""
    eliminated = bool(rolled.value)
    out.append(ev.RoutRolled(unit=step.unit, eliminated=eliminated, die=rolled.dice[0] if rolled.dice else 0))
    if eliminated:
        unit = state.unit(step.unit)
        gone = state.unit_stands(unit.id)
        state = replace(state, stands=tuple(s for s in state.stands if s.unit != unit.id), lost=lost_plus(state, unit.side, len(gone)))
        state = eliminate_unit(state, unit.id, out, score=False)  # AC-WIN-3
    return state


def finish(state: AcState, out: list[Event]) -> AcState:
    """The battle is over."""
    vp_a, vp_b = state.vp
    out.append(ev.BattleEnded(result=state.result, winner=state.winner or "none", vp_a=vp_a, vp_b=vp_b))
    return replace(state, ended=True, pending=())


def summary(state: AcState) -> dict[str, Any]:
    """The result: the rounds fought, the stands each side lost (removed as casualties, fled or routed off the field)
    and has left on the grid, each side's VP and the kind of result (``decisive``, ``tactical`` or ``draw``)."""
    return {
        "rounds": state.round,
        "casualties": {"a": state.lost[0], "b": state.lost[1]},
        "survivors": {side: len(state.side_stands(side)) for side in ("a", "b")},
        "vp": {"a": state.vp[0], "b": state.vp[1]},
        "result": state.result,
    }
