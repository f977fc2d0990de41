"""Objectives and victory points: attrition, destroy, defend and custom objectives (§5.26)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.options import Award
from kessen.rulesets.armies_clash.referee.pieces import enemy_footprints, objective_footprint
from kessen.rulesets.armies_clash.referee.state import AcState, add_vp, other, replace_unit
from kessen.rulesets.armies_clash.referee.steps import AwardCustom
from kessen.rulesets.armies_clash.rules.grid import distance


def eliminate_unit(state: AcState, unit_id: str, out: list[Event], *, score: bool = True) -> AcState:
    """A unit with no stands left is eliminated; the enemy's attrition objective scores it (AC-END-3, AC-OBJ-2)."""
    unit = state.unit(unit_id)
    if unit.eliminated:
        return state
    state = replace_unit(state, replace(unit, eliminated=True, commander=None))
    vp = 0
    if score:
        for o in state.static.objectives:
            if o.kind == "attrition" and o.side != unit.side:
                vp = unit.attrition_vp or o.vp_per_unit or 0
                state = add_vp(state, o.side, vp)
                break
    out.append(ev.UnitEliminated(unit=unit_id, scorer=other(unit.side), vp=vp))
    return state


def damage_objective(state: AcState, target: str, damage: int, out: list[Event]) -> AcState:
    """An objective square loses HP; at 0 its scorer gains its VP at once (AC-OBJ-3)."""
    hp = state.hp_of(target)
    if damage <= 0 or hp == 0:
        return state
    left = max(0, hp - damage)
    state = replace(state, objective_hp=tuple((i, left if i == target else h) for i, h in state.objective_hp))
    out.append(ev.ObjectiveDamaged(objective=target, damage=hp - left, hp=left))
    if left == 0:
        o = state.static.objective(target)
        out.append(ev.ObjectiveDestroyed(objective=target, scorer=o.side, vp=o.vp or 0))
        state = replace(add_vp(state, o.side, o.vp or 0), scored=state.scored | {target})
    return state


def defend(state: AcState, out: list[Event]) -> AcState:
    """Defend: 1 VP if at least 2 of the side's stands are on or next to the protected square, the square still
    stands, and no enemy stand or unattached enemy solo is within 2 squares of it (AC-OBJ-5)."""
    for o in state.static.objectives:
        if o.kind != "defend":
            continue
        target = state.static.objective(o.protects or "")
        square = objective_footprint(target)
        if state.hp_of(target.id) == 0:
            continue
        mine = sum(1 for s in state.side_stands(o.side) if distance(s.footprint, square) <= 1)
        threat = any(distance(fp, square) <= 2 for fp in enemy_footprints(state, o.side))
        if mine >= 2 and not threat:
            out.append(ev.DefendScored(objective=o.id, scorer=o.side))
            state = add_vp(state, o.side, 1)
    return state


def custom_steps(state: AcState) -> tuple[AwardCustom, ...]:
    """The custom objectives not yet scored, each put to the scorer's opponent at the end of the round."""
    return tuple(AwardCustom(o.id) for o in state.static.objectives if o.kind == "custom" and o.id not in state.scored)


def award_custom(state: AcState, step: AwardCustom, choice: Award, out: list[Event]) -> AcState:
    """A conceded custom objective scores its VP (AC-OBJ-6)."""
    if choice.award:
        o = state.static.objective(step.objective)
        out.append(ev.CustomScored(objective=o.id, scorer=o.side, vp=o.vp or 0))
        return replace(add_vp(state, o.side, o.vp or 0), scored=state.scored | {o.id})
    return state
