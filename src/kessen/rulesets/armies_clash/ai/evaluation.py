"""What an armies-clash position is worth to a side, for the search AI: the victory points that decide the battle
(AC-OBJ, AC-WIN), those half-earned on the way (enemy units worn down, a destroy objective battered, a caster's
area spells still to cast), and the HP each side still has to fight with."""

from __future__ import annotations

import math

from kessen.rulesets.armies_clash.referee.pieces import enemy_footprints, objective_footprint
from kessen.rulesets.armies_clash.referee.state import SIDES, AcState, other
from kessen.rulesets.armies_clash.rules.grid import distance
from kessen.rulesets.armies_clash.rules.ending import VICTORY_VP

ROUTED_WORN = 0.5
"""A routed unit (AC-MORALE-4: it may only Retreat) counts as this much more worn down toward its attrition VP."""

DEFEND_WORTH = 1.0
"""What holding a defended square now is worth, in VP: the 1 VP it scores at the end of the round (AC-OBJ-5)."""

SPELL_WORTH = 1.5
"""What each use left of a conscious solo's area spell is worth, in VP (AC-SPELL-1; a fireball burns a unit through
overflow, AC-DMG-2): the goblin-horde humans won 15 of 18 battles where the wizard cast both, 0 of 12 where it fell
first (issue 23 §5); counted, the search keeps the wizard to cast them (21-19 of 40 against greedy, from 15-25)."""

STRENGTH_WORTH = 3.0
"""What the whole difference in fighting strength (each side's share of the HP on the field) is worth, in VP."""


def attrition_vp(state: AcState, unit_side: str, own: int | None) -> int:
    """The VP the other side scores for eliminating a unit of *unit_side* (AC-OBJ-2): the unit's own, else the
    enemy attrition objective's, 0 when the enemy has none."""
    for o in state.static.objectives:
        if o.kind == "attrition" and o.side != unit_side:
            return own or o.vp_per_unit or 0
    return 0


def expected_vp(state: AcState, side: str) -> float:
    """*side*'s VP, with the VP it is on the way to: each enemy unit's attrition VP times how far it is worn down
    (HP lost of its starting stands, more if routed), each of its destroy objectives' VP times the share of the
    square's HP gone, and ``SPELL_WORTH`` for each use left of its standing solos' area spells."""
    vp = float(state.vp[SIDES.index(side)])
    for unit in state.units:
        if unit.side == side or unit.eliminated:
            continue
        worth = attrition_vp(state, unit.side, unit.attrition_vp)
        if not worth:
            continue
        stands = state.unit_stands(unit.id)
        full = sum(state.creature(s.creature).hp for s in stands)
        each = full / len(stands) if stands else 1
        left = sum(s.hp for s in stands) / max(1.0, each * unit.starting_stands)
        worn = 1.0 - left + (ROUTED_WORN * left if unit.routed else 0.0)
        vp += worth * worn * worn  # the last stands are the hardest to reach: a unit half down is a quarter of the way
    for o in state.static.objectives:
        if o.kind == "destroy" and o.side == side and o.hp and o.id not in state.scored:
            vp += (o.vp or 0) * (1.0 - state.hp_of(o.id) / o.hp)
        elif o.kind == "defend" and o.side == side:
            vp += DEFEND_WORTH * holding(state, side, o.protects or "")
    for solo in state.solos:
        if solo.side == side and solo.status == "up":
            used = dict(solo.spells_used)
            for sp in state.creature(solo.creature).spells:
                if sp.form == "area" and sp.uses is not None:
                    vp += SPELL_WORTH * (sp.uses - used.get(sp.id, 0))
    return vp


def holding(state: AcState, side: str, protects: str) -> float:
    """How far *side* holds the square of the objective *protects* as the defend objective scores it at the end of
    the round (AC-OBJ-5): 1 with two of its stands on or next to the square, the square standing and no enemy
    within 2 squares of it; half with one such stand and no enemy near; 0 otherwise."""
    if not protects or state.hp_of(protects) == 0:
        return 0.0
    square = objective_footprint(state.static.objective(protects))
    if any(distance(fp, square) <= 2 for fp in enemy_footprints(state, side)):
        return 0.0
    mine = sum(1 for s in state.side_stands(side) if distance(s.footprint, square) <= 1)
    return min(mine, 2) / 2


def strength(state: AcState, side: str) -> float:
    """The HP *side* has on the field: its stands' (casualties count nothing) and its conscious solos'."""
    total = float(sum(s.hp for s in state.side_stands(side)))
    total += sum(s.hp for s in state.solos if s.side == side and s.status == "up")
    return total


def worth(state: AcState, side: str) -> float:
    """The position's worth to *side*, -1 .. 1, zero-sum: the lead in expected VP (10 VP ends the battle), with the
    lead in fighting strength worth up to a few VP, pressed into -1 .. 1."""
    foe = other(side)
    mine, theirs = strength(state, side), strength(state, foe)
    power = (mine - theirs) / (mine + theirs) if mine + theirs else 0.0
    lead = expected_vp(state, side) - expected_vp(state, foe) + STRENGTH_WORTH * power
    return math.tanh(2.0 * lead / VICTORY_VP)
