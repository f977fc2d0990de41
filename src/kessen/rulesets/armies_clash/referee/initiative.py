"""Initiative: every unit and solo rolls once, ties are broken at random, then the first round begins (§5.10)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.rounds import new_round
from kessen.rulesets.armies_clash.referee.state import AcState, push
from kessen.rulesets.armies_clash.referee.steps import InitRoll, TieBreak
from kessen.rulesets.armies_clash.rules.initiative import initiative_modifier, tie_groups


def init_roll(state: AcState, who: str, roll: int, out: list[Event]) -> AcState:
    """Each unit rolls d20 + its initiative modifier, every solo d20 + Dexterity (AC-INIT-1, AC-INIT-2)."""
    solo = state.solo(who)
    if solo is not None:
        modifier = state.creature(solo.creature).abilities.dex
    else:
        unit = state.unit(who)
        stands = state.unit_stands(who)
        ids = {s.id for s in stands}
        mods = [state.creature(s.creature).abilities.dex for s in stands]
        mods += [state.creature(s.creature).abilities.dex for s in state.solos if s.joined_to in ids]
        modifier = initiative_modifier(unit.type, mods)
    out.append(ev.InitiativeRolled(who=who, roll=roll, total=roll + modifier))
    state = replace(state, rolls=state.rolls + ((who, modifier, roll + modifier),))
    if any(isinstance(p, InitRoll) for p in state.pending):
        return state
    groups = tie_groups(state.rolls)  # AC-INIT-3
    state = replace(state, order=tuple(i for g in groups for i in g))
    ties = [TieBreak(g) for g in groups if len(g) > 1]
    if ties:
        return push(state, *ties)
    return _start_battle(state, out)


def tie_break(state: AcState, group: tuple[str, ...], order: tuple[str, ...], out: list[Event]) -> AcState:
    """Tied units and solos take the order drawn at random (AC-INIT-3)."""
    start = state.order.index(group[0])
    state = replace(state, order=state.order[:start] + tuple(order) + state.order[start + len(group):])
    if any(isinstance(p, TieBreak) for p in state.pending):
        return state
    return _start_battle(state, out)


def _start_battle(state: AcState, out: list[Event]) -> AcState:
    out.append(ev.TurnOrder(order=",".join(state.order)))
    return new_round(state, out)
