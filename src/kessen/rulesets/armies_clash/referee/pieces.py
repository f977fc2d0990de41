"""The pieces on the battlefield as the rules look them up: their statistics and squares, whom they face,
their commanders, isolation and hiding (§5.3–§5.7, §5.20, §5.26)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.state import (
    AcState,
    Solo,
    other,
    per_state,
    replace_solo,
    replace_stand,
    replace_unit,
)
from kessen.rulesets.armies_clash.rules.attack import TargetKind
from kessen.rulesets.armies_clash.rules.damage import Condition
from kessen.rulesets.armies_clash.rules.grid import Footprint, Square, distance
from kessen.rulesets.armies_clash.rules.movement import Occupant
from kessen.rulesets.armies_clash.rules.spells import spell_uses_left
from kessen.rulesets.armies_clash.scenario import Creature, ObjectiveEntry, SpellRecord


def stats(state: AcState, piece: str) -> Creature:
    """The creature statistics of a stand or solo."""
    s = state.stand(piece)
    if s is not None:
        return state.creature(s.creature)
    solo = state.solo_named(piece)
    return state.creature(solo.creature)


def solo_condition(solo: Solo) -> Condition:
    """A solo's hit points, status and failed death saves as the rules of damage and dying read them (AC-DMG-5)."""
    return Condition(solo.hp, "dead" if solo.status == "gone" else solo.status, solo.failures)


def castable(state: AcState, piece: str) -> list[SpellRecord]:
    """The spells *piece* still has uses of (AC-SPELL-1)."""
    s = state.stand(piece)
    if s is not None:
        used = s.spells_used
    else:
        solo = state.solo_named(piece)
        used = solo.spells_used
    return [sp for sp in stats(state, piece).spells if spell_uses_left(used, sp.id, sp.uses)]


def spell_of(state: AcState, piece: str, spell: str) -> SpellRecord:
    return next(s for s in stats(state, piece).spells if s.id == spell)


def piece_footprint(state: AcState, piece: str) -> Footprint:
    """Where a piece acts from: its own squares, or its stand's for a joined solo (AC-JOIN-3)."""
    s = state.stand(piece)
    if s is not None:
        return s.footprint
    solo = state.solo_named(piece)
    if solo.joined_to is not None:
        stand = state.stand_named(solo.joined_to)
        return stand.footprint
    return solo.footprint


@per_state
def enemy_footprints(state: AcState, side: str, *, stands_only: bool = False) -> tuple[Footprint, ...]:
    out = [s.footprint for s in state.side_stands(other(side))]
    if not stands_only:
        out += [s.footprint for s in state.solos if s.side != side and s.on_grid]
    return tuple(out)


@per_state
def occupancy(state: AcState) -> dict[Square, Occupant]:
    """Who stands on each square: stands and unattached solos on the grid (joined solos have no footprint); one table
    per state, which its readers never change."""
    occ: dict[Square, Occupant] = {}
    types = {u.id: (u.type, u.side) for u in state.units}
    for s in state.stands:
        kind, side = types[s.unit]
        for sq in s.footprint.squares():
            occ[sq] = (kind, side, s.id)
    for solo in state.solos:
        if solo.on_grid:
            for sq in solo.footprint.squares():
                occ[sq] = ("solo", solo.side, solo.id)
    return occ


def routed_piece(state: AcState, piece: str) -> bool:
    """A stand of a routed unit (AC-MORALE-4)."""
    s = state.stand(piece)
    return s is not None and state.unit(s.unit).routed


def kind_of(state: AcState, target: str) -> TargetKind:
    if state.stand(target) is not None:
        return "stand"
    if state.solo(target) is not None:
        return "solo"
    return "objective"


@per_state
def objectives_to_destroy(state: AcState, side: str) -> tuple[ObjectiveEntry, ...]:
    """The side's destroy objectives whose squares still stand (AC-OBJ-3)."""
    return tuple(o for o in state.static.objectives if o.kind == "destroy" and o.side == side and state.hp_of(o.id) > 0)


def objective_footprint(objective: ObjectiveEntry) -> Footprint:
    """The one square of a destroy objective."""
    assert objective.square is not None
    return Footprint(objective.square[0], objective.square[1])


@per_state
def goals(state: AcState, side: str) -> tuple[Footprint, ...]:
    """What a side advances on: enemy pieces and the squares of its own destroy objectives still standing."""
    found = list(enemy_footprints(state, side))
    found += [objective_footprint(o) for o in objectives_to_destroy(state, side)]
    return tuple(found)


def commander_of(state: AcState, unit: str) -> Solo | None:
    """The unit's commander while it can lead: conscious and joined to a stand of the unit (AC-CMD-1, AC-CMD-2)."""
    ident = state.unit(unit).commander
    if ident is None:
        return None
    solo = state.solo(ident)
    if solo is None or solo.status != "up" or solo.joined_to is None:
        return None
    stand = state.stand(solo.joined_to)
    return solo if stand is not None and stand.unit == unit else None


def check_commander(state: AcState, unit_id: str, out: list[Event]) -> AcState:
    """A commander that falls or is no longer joined to a stand of its unit stops being commander (AC-CMD-2)."""
    unit = state.unit(unit_id)
    if unit.commander is not None and commander_of(state, unit_id) is None:
        out.append(ev.CommandLost(commander=unit.commander, unit=unit_id))
        state = replace_unit(state, replace(unit, commander=None))
    return state


def reveal_near(state: AcState, piece: str, out: list[Event]) -> AcState:
    """A hidden piece stops being hidden when an enemy stand or solo ends a move next to it (AC-HIDE-4)."""
    fp = piece_footprint(state, piece)
    side = state.side_of(piece)
    for s in state.side_stands(other(side)):
        if s.hidden and distance(s.footprint, fp) == 1:
            state = replace_stand(state, replace(s, hidden=False))
            out.append(ev.Revealed(piece=s.id))
    for solo in state.solos:
        if solo.side != side and solo.hidden and solo.on_grid and distance(solo.footprint, fp) == 1:
            state = replace_solo(state, replace(solo, hidden=False))
            out.append(ev.Revealed(piece=solo.id))
    return state


def unhide(state: AcState, piece: str, out: list[Event]) -> AcState:
    """Attacking or casting ends hiding (AC-HIDE-4)."""
    stand = state.stand(piece)
    if stand is not None and stand.hidden:
        out.append(ev.Revealed(piece=piece))
        return replace_stand(state, replace(stand, hidden=False))
    solo = state.solo(piece)
    if solo is not None and solo.hidden:
        out.append(ev.Revealed(piece=piece))
        return replace_solo(state, replace(solo, hidden=False))
    return state
