"""Commanders: the bonus action of Incite and Prepare, taking and giving up command (§5.6)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.options import Benefit
from kessen.rulesets.armies_clash.referee.pieces import commander_of
from kessen.rulesets.armies_clash.referee.state import AcState, Turn, push, replace_unit, set_turn, then
from kessen.rulesets.armies_clash.referee.steps import CommanderRoll, DeclareAction, JoinedMove
from kessen.rulesets.armies_clash.rules.commanders import CommanderCheckOutcome, CommanderCheckQuestion
from kessen.rulesets.armies_clash.rules.d20 import check_told


def commander_question(state: AcState, unit: str) -> CommanderCheckQuestion:
    """The commander's DC 15 Charisma check with its better of Intimidation and Persuasion (AC-CMD-3)."""
    commander = commander_of(state, unit)
    assert commander is not None
    c = state.creature(commander.creature)
    return CommanderCheckQuestion(check_bonus=max(c.skill("intimidation"), c.skill("persuasion")))


def spend_bonus(state: AcState, unit: str) -> AcState:
    """The unit's commander spends its bonus action (AC-CMD-2, AC-D20-9)."""
    commander = commander_of(state, unit)
    assert commander is not None and state.turn is not None
    return set_turn(state, bonus_used=state.turn.bonus_used | {commander.id})


def bonus(state: AcState, turn: Turn, choice: Benefit, out: list[Event]) -> AcState:
    """At the start of its unit's turn the commander may Incite or Prepare (AC-CMD-3, AC-CMD-4)."""
    state = then(state, DeclareAction())
    return state if choice.name == "none" else push(spend_bonus(state, turn.actor), CommanderRoll(turn.actor, choice.name))


def bonus_options(state: AcState, turn: Turn) -> tuple[Benefit, ...]:
    """A joined solo's bonus action at the start of its activation (AC-D20-9): the commander may Incite or Prepare
    (if it has not spent its bonus action yet; never while the unit is routed, whose Rally comes only at the start of
    the turn, AC-MORALE-6) or give up the post; a solo that may command, joined to a stand of a unit without a
    commander and commanding no other unit, may take the post, by default (AC-CMD-1, AC-CMD-2, AC-CMD-3)."""
    solo = state.solo_named(turn.piece)
    unit = state.unit(turn.actor)
    if solo.id in turn.bonus_used:
        return (Benefit("none"),)
    if unit.commander == solo.id:
        uses = () if unit.routed else (Benefit("incite"), Benefit("prepare"))
        return uses + (Benefit("none"), Benefit("resign"))
    if unit.commander is None and solo.can_command and not any(u.commander == solo.id for u in state.units):
        return (Benefit("command"), Benefit("none"))
    return (Benefit("none"),)


def solo_bonus(state: AcState, turn: Turn, choice: Benefit, out: list[Event]) -> AcState:
    """A joined solo's bonus action at the start of its activation (AC-CMD-1..3)."""
    state = then(state, JoinedMove())
    if choice.name == "none":
        return state
    state = set_turn(state, bonus_used=turn.bonus_used | {turn.piece})
    unit = state.unit(turn.actor)
    if choice.name == "command":
        out.append(ev.CommandTaken(commander=turn.piece, unit=unit.id))
        return replace_unit(state, replace(unit, commander=turn.piece))
    if choice.name == "resign":
        out.append(ev.CommandGivenUp(commander=turn.piece, unit=unit.id))
        return replace_unit(state, replace(unit, commander=None))
    return push(state, CommanderRoll(unit.id, choice.name))


def commander_result(state: AcState, step: CommanderRoll, outcome: CommanderCheckOutcome, out: list[Event]) -> AcState:
    """Incite gives advantage on the unit's attacks next turn; Prepare, advantage on its saves and morale (AC-CMD-3,
    AC-CMD-4)."""
    unit = state.unit(step.unit)
    commander = commander_of(state, unit.id)
    assert commander is not None
    out.append(ev.CommanderBenefit(commander=commander.id, unit=unit.id, benefit=step.benefit, success=outcome.success, **check_told(outcome.dice)))
    if outcome.success and step.benefit == "incite":
        return replace_unit(state, replace(unit, incite_next=True))
    if outcome.success and step.benefit == "prepare":
        return replace_unit(state, replace(unit, prepared=True, prepared_round=state.round))
    return state
