"""Turns: activation, actions, turnover, rounds and the end of the game (SB-ACT-*, SB-ACTION-*, SB-TURN-*)."""

from __future__ import annotations

import functools
from typing import Any

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.moves import can_move, suggested_moves
from kessen.rulesets.song_of_blades.referee.options import Activate, Attack, BreakFree, EndActivation, EndTurn, StandUp
from kessen.rulesets.song_of_blades.referee.state import (
    SobState,
    push,
    with_activated,
    with_current,
    with_half,
    with_round,
    with_turn_current,
    with_turn_pending,
    with_turn_start,
)
from kessen.rulesets.song_of_blades.referee.steps import ActivationRoll, ChooseAction, ChooseActivation
from kessen.rulesets.song_of_blades.rules.priority import may_target
from kessen.rulesets.song_of_blades.rules.turns import RollOffDice, first_to_play, game_winner


def roll_off_winner(rolled: RollOffDice, sides: tuple[str, str]) -> tuple[str, str]:
    """Who takes the first turn and who the second (SB-TURN-1)."""
    return sides if first_to_play(rolled) == 0 else (sides[1], sides[0])


def rolled_off(state: SobState, rolled: RollOffDice, out: list[Event]) -> SobState:
    """The roll-off decides who plays first, every round (SB-TURN-1); the first round begins."""
    first, other = roll_off_winner(rolled, state.skirmish.sides)
    dice = (rolled.first_die, rolled.second_die) if first == state.skirmish.sides[0] else (rolled.second_die, rolled.first_die)
    out.append(ev.RollOff(first=first, first_die=dice[0], side=other, side_die=dice[1]))
    return start_turn(evolve(state, turn=evolve(state.turn, first=first, round=1, active=first, second_half=False)), out)


def activation_options(state: SobState) -> tuple[Activate | EndTurn, ...]:
    """Every model of the active side not yet activated this turn, with 1–3 dice; or end the turn (SB-ACT-3)."""
    ready = [f.id for f in state.side_figures(state.turn.active or "") if f.id not in state.turn.activated]
    return tuple(a for model in ready for a in _activations(model)) + (EndTurn(),)


@functools.lru_cache(maxsize=256)
def _activations(model: str) -> tuple[Activate, ...]:
    return tuple(Activate(model, n) for n in (1, 2, 3))


def action_options(state: SobState) -> tuple[Any, ...]:
    """What the activated model may do with its actions, suggested (SB-ACTION-1, SB-ACTION-2, SB-DOWN-*, SB-MOVE-*):
    its attacks, standing up or the suggested moves, ending the activation; a standing model may also move to any
    other point the rules allow (``moves.free_move``)."""
    act = state.current
    assert act is not None
    f = state.get(act.model)
    options: list[Any] = []
    if f.state == "transfixed":
        if act.actions >= 2:
            options.append(BreakFree())
        return tuple(options) + (EndActivation(),)
    contacts = state.here.contacts(f)
    if contacts and not act.attacked:
        allowed = may_target(
            [e.state for e in contacts], [e.points for e in contacts],
            melee_priority=state.melee_priority, special_rules=frozenset(f.special_rules),
        )
        for e, ok in zip(contacts, allowed):
            if ok:
                options.append(Attack(e.id))
                if act.actions >= 2:
                    options.append(Attack(e.id, power_blow=True))
    if f.state == "fallen":
        return tuple(options) + (StandUp(), EndActivation())
    moves, more = suggested_moves(state, f)
    # the moves suggested since free moves came go after the older options, which keep their places (v1 saves)
    return tuple(options) + moves + (EndActivation(),) + more


def has_action(state: SobState) -> bool:
    """Whether the activated model has any option of :func:`action_options` besides ending its activation."""
    act = state.current
    assert act is not None
    f = state.get(act.model)
    if f.state == "transfixed":
        return act.actions >= 2
    if not act.attacked and state.here.contacts(f):
        return True  # melee priority always leaves at least one target (SB-PRIO-4)
    return f.state == "fallen" or can_move(state, f)


def activate(state: SobState, choice: Activate | EndTurn, out: list[Event]) -> SobState:
    """The player activates a model with its dice (the roll comes next), or ends the turn (SB-ACT-1, SB-TURN-1)."""
    if isinstance(choice, EndTurn):
        return end_turn(state, out)
    turn = with_activated(state.turn, state.turn.activated | {choice.model})
    return with_turn_pending(state, turn, (ActivationRoll(choice.model, choice.dice),) + state.pending)


def refill(state: SobState, out: list[Event]) -> SobState:
    """What comes when nothing is pending: the activated model's next action, or the end of its activation (and on
    a turnover the end of the turn), then the next activation, or the end of a turn with no model left to activate
    (SB-ACT-2, SB-ACT-3, SB-TURN-1, SB-TURN-4)."""
    while not state.ended:
        act = state.current
        if act is not None:
            if act.actions > 0 and state.figure(act.model) is not None and has_action(state):
                return push(state, ChooseAction(act.model))
            state = with_current(state, None)
            if act.turnover:
                out.append(ev.Turnover(side=state.turn.active or ""))
                state = end_turn(state, out)
            continue
        if any(f.id not in state.turn.activated for f in state.side_figures(state.turn.active or "")):
            return push(state, ChooseActivation())
        state = end_turn(state, out)
    return state


def wiped_out(state: SobState, out: list[Event]) -> SobState | None:
    """A side with no model left ends the game at once (SB-TURN-4); None while both have models."""
    if state.ended or state.turn.round == 0 or len(state.here.by_side) == 2:
        return None
    return end_game(state, out)


def start_turn(state: SobState, out: list[Event]) -> SobState:
    """A new turn: ambushers are the models in cover at its start (SB-TERR-2)."""
    side = state.turn.active or ""
    hidden: set[tuple[str, str]] = set()
    for f in state.side_figures(side):
        cover = state.table.cover_at(f.centre)
        if cover is not None:
            rect = state.table.cover[cover]
            hidden |= {(f.id, e.id) for e in state.figures if e.side != side and not rect.contains(e.centre)}
    out.append(ev.TurnStarted(round=state.turn.round, side=side))
    return with_turn_current(state, with_turn_start(state.turn, frozenset(), frozenset(hidden), frozenset()), None)


def end_turn(state: SobState, out: list[Event]) -> SobState:
    """The turn passes: to the other side, or to the next round, or the game ends after its last round (SB-TURN-1,
    SB-TURN-4)."""
    nxt = state.other(state.turn.active or "")
    if not state.turn.second_half:
        return start_turn(with_turn_current(state, with_half(state.turn, nxt, True), None), out)
    if state.turn.round >= state.skirmish.turns:
        return end_game(state, out)
    return start_turn(with_turn_current(state, with_round(state.turn, nxt, False, state.turn.round + 1), None), out)


def end_game(state: SobState, out: list[Event]) -> SobState:
    """The end (SB-TURN-4): what each side lost, then who won."""
    state = evolve(state, ended=True, pending=(), current=None)
    for side, start in zip(state.skirmish.sides, state.skirmish.start_points):
        lost = sum(1 for c in state.casualties if c.side == side)
        out.append(ev.PointsLost(side=side, models=lost, points=points_lost(state, side), starting_points=start))
    won = winner(state)
    out.append(ev.GameEnded(side=won or "", result="won" if won is not None else "drawn"))
    return state


def winner(state: SobState) -> str | None:
    """The winning side, or None for a draw (SB-TURN-4)."""
    won = game_winner(
        models_left=(len(state.side_figures(state.skirmish.sides[0])), len(state.side_figures(state.skirmish.sides[1]))),
        points_lost=(points_lost(state, state.skirmish.sides[0]), points_lost(state, state.skirmish.sides[1])),
        starting_points=state.skirmish.start_points,
    )
    return None if won is None else state.skirmish.sides[won]


def points_lost(state: SobState, side: str) -> int:
    """The points of a side's models removed so far (killed, destroyed or fled off the table)."""
    return sum(c.points for c in state.casualties if c.side == side)


def summary(state: SobState) -> dict[str, Any]:
    """The battle summary: the common keys (rounds, casualties, survivors) and the points of SB-TURN-4."""
    return {
        "rounds": state.turn.round,
        "casualties": {s: sum(1 for c in state.casualties if c.side == s) for s in state.skirmish.sides},
        "survivors": {s: len(state.side_figures(s)) for s in state.skirmish.sides},
        "points_lost": {s: points_lost(state, s) for s in state.skirmish.sides},
        "starting_points": dict(zip(state.skirmish.sides, state.skirmish.start_points)),
    }
