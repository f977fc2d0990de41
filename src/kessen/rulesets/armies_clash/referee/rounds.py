"""The round: every unit and unattached solo takes its turn in initiative order (§5.11, §5.10)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.integrity import isolation
from kessen.rulesets.armies_clash.referee.pieces import commander_of
from kessen.rulesets.armies_clash.referee.state import AcState, Turn, replace_unit, set_turn, then
from kessen.rulesets.armies_clash.referee.steps import (
    END_OF_ROUND,
    ChooseActivation,
    ChooseBenefit,
    ChooseRally,
    DeclareAction,
    EndTurn,
    StartTurn,
)


def turn_side(state: AcState, turn: Turn) -> str:
    """The side whose turn it is."""
    return state.side_of(turn.actor) if turn.solo else state.unit(turn.actor).side


def new_round(state: AcState, out: list[Event]) -> AcState:
    """A round: every unit and unattached solo in initiative order (AC-ROUND-1); a solo acts on its unit's turn if it
    starts the round joined, on its own count otherwise (AC-INIT-4)."""
    state = evolve(
        state, round=state.round + 1, turn_index=-1, turn=None, acted=frozenset(), shifted=frozenset(),
        solos=tuple(replace(s, own_turn=s.joined_to is None) for s in state.solos),
    )
    out.append(ev.RoundStarted(round=state.round))
    return state


def next_turn(state: AcState, out: list[Event]) -> AcState:
    """The next in the initiative order with a turn to take; after the last, the end of the round (AC-END-*)."""
    index = state.turn_index + 1
    while index < len(state.order):
        who = state.order[index]
        solo = state.solo(who)
        if solo is not None:
            if solo.own_turn and solo.status == "up" and solo.joined_to is None and who not in state.acted:
                return then(evolve(state, turn_index=index, turn=Turn(who, True)), StartTurn())
        else:
            unit = state.unit(who)
            if not unit.eliminated and state.unit_stands(who):
                return then(evolve(state, turn_index=index, turn=Turn(who, False, formation=unit.formation)), StartTurn())
        index += 1
    return evolve(state, turn_index=index, turn=None, pending=state.pending + END_OF_ROUND)


def start_turn(state: AcState, turn: Turn, out: list[Event]) -> AcState:
    """A turn starts: a surprised side loses its first turn (AC-INIT-5); Incite's advantage begins (AC-CMD-3); a unit
    with a commander goes to Rally (routed) or to the commander's bonus action first."""
    side = turn_side(state, turn)
    out.append(ev.TurnStarted(who=turn.actor, side=side))
    if state.round == 1 and turn.actor in state.static.surprised:  # AC-INIT-5
        out.append(ev.Surprised(who=turn.actor))
        return then(state, EndTurn())
    if turn.solo:
        return then(state, DeclareAction())
    unit = state.unit(turn.actor)
    state = replace_unit(state, replace(unit, incited=unit.incite_next, incite_next=False))  # AC-CMD-3 Incite
    commander = commander_of(state, unit.id)
    if commander is None:
        return then(state, DeclareAction())
    return then(state, ChooseRally() if unit.routed else ChooseBenefit())


def piece_done(state: AcState) -> AcState:
    """The active piece has moved and acted: the solo's turn ends, or the unit activates its next piece (AC-MOVE-2)."""
    turn = state.turn
    assert turn is not None
    if turn.solo:
        return then(set_turn(state, piece=""), EndTurn())
    if state.solo(turn.piece) is not None:  # back to the unit's own action (AC-MOVE-2)
        return then(set_turn(state, piece="", action=turn.unit_action, unit_action="", piece_action=""), ChooseActivation())
    return then(set_turn(state, piece="", piece_action=""), ChooseActivation())


def end_turn(state: AcState, turn: Turn, out: list[Event]) -> AcState:
    """End of a turn: isolation is recomputed (AC-INTEG-6); Incite's advantage ends; Prepare set in an earlier
    round ends with the commander's (the unit's) turn (AC-CMD-3, AC-CMD-4)."""
    if turn.solo:
        state = evolve(state, acted=state.acted | {turn.actor})
    else:
        unit = state.unit(turn.actor)
        prepared = unit.prepared and unit.prepared_round >= state.round
        state = replace_unit(state, replace(unit, incited=False, prepared=prepared))
    state = evolve(state, turn=None)
    return isolation(state, out)
