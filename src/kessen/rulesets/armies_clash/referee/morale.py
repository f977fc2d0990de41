"""Morale: the end-of-round check after heavy losses, routing, and the commander's Rally (§5.25)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.commanders import spend_bonus
from kessen.rulesets.armies_clash.referee.options import Rally
from kessen.rulesets.armies_clash.referee.pieces import commander_of
from kessen.rulesets.armies_clash.referee.state import (
    AcState,
    Turn,
    push,
    replace_unit,
    then,
)
from kessen.rulesets.armies_clash.referee.steps import DeclareAction, MoraleRoll, RallyRoll
from kessen.rulesets.armies_clash.rules.d20 import check_told
from kessen.rulesets.armies_clash.rules.morale import MoraleOutcome, MoraleQuestion, must_check_morale


def _wisdom(state: AcState, unit: str) -> tuple[int, ...]:
    """Wisdom modifiers of the unit's stands and the solos joined to them (AC-MORALE-2)."""
    stands = state.unit_stands(unit)
    ids = {s.id for s in stands}
    mods = {state.creature(s.creature).abilities.wis for s in stands}
    mods |= {state.creature(s.creature).abilities.wis for s in state.solos if s.joined_to in ids and s.status == "up"}
    return tuple(sorted(mods))


def morale_question(state: AcState, unit: str) -> MoraleQuestion:
    """The unit's morale check after its losses, with advantage if Prepared (AC-MORALE-1, AC-MORALE-2, AC-CMD-4)."""
    u = state.unit(unit)
    on_grid = len(state.unit_stands(unit))
    return MoraleQuestion(
        mode="check", wisdom_modifiers=_wisdom(state, unit), starting_stands=u.starting_stands,
        stands_lost=u.starting_stands - on_grid, advantage=u.prepared,
    )


def rally_question(state: AcState, unit: str) -> MoraleQuestion:
    """The commander's Rally of a routed unit (AC-MORALE-6)."""
    commander = commander_of(state, unit)
    assert commander is not None
    return MoraleQuestion(
        mode="rally", wisdom_modifiers=_wisdom(state, unit),
        commander_cha_modifier=state.creature(commander.creature).abilities.cha, advantage=state.unit(unit).prepared,
    )


def rally(state: AcState, turn: Turn, choice: Rally, out: list[Event]) -> AcState:
    """At the start of a routed unit's turn its commander may spend its bonus action to Rally (AC-MORALE-6)."""
    state = then(state, DeclareAction())
    if not choice.rally:
        return state
    return push(spend_bonus(state, turn.actor), RallyRoll(turn.actor))


def rally_result(state: AcState, step: RallyRoll, outcome: MoraleOutcome, out: list[Event]) -> AcState:
    """A successful Rally ends the rout (AC-MORALE-6)."""
    unit = state.unit(step.unit)
    commander = commander_of(state, unit.id)
    out.append(ev.RallyRolled(commander=commander.id if commander else "", unit=unit.id, success=not outcome.routed, **check_told(outcome.dice)))
    return state if outcome.routed else replace_unit(state, replace(unit, routed=False))


def morale_steps(state: AcState, out: list[Event]) -> AcState:
    """Each unit that has lost enough stands and is not routed checks morale, in initiative order (AC-MORALE-1,
    AC-END-6)."""
    steps = []
    for who in state.order:
        if state.solo(who) is not None:
            continue
        unit = state.unit(who)
        stands = state.unit_stands(who)
        if unit.eliminated or unit.routed or not stands:
            continue
        if must_check_morale(starting_stands=unit.starting_stands, stands_lost=unit.starting_stands - len(stands)):
            steps.append(MoraleRoll(who))
    return push(state, *steps)


def morale_result(state: AcState, step: MoraleRoll, outcome: MoraleOutcome, out: list[Event]) -> AcState:
    """A failed check routs the unit (AC-MORALE-3)."""
    out.append(ev.MoraleChecked(unit=step.unit, routed=outcome.routed, **check_told(outcome.dice)))
    unit = state.unit(step.unit)
    return replace_unit(state, replace(unit, routed=True)) if outcome.routed else state
