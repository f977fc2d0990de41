"""What an area spell does where it is cast, for the AI's ranking of its origins (AC-AOE-7, AC-DMG-2): used by the
search's spell candidates (``tactics``) and the caster's shelter (``shelter``)."""

from __future__ import annotations

from kessen.rulesets.armies_clash.ai.greedy import mean_damage
from kessen.rulesets.armies_clash.referee.options import CastArea
from kessen.rulesets.armies_clash.referee.pieces import spell_of
from kessen.rulesets.armies_clash.referee.spells import area_squares, area_targets
from kessen.rulesets.armies_clash.referee.state import AcState


def area_harm(state: AcState, piece: str, option: CastArea) -> float:
    """What an area spell does (AC-AOE-7, AC-DMG-2), for ranking where to cast it: on each unit it reaches, the mean
    damage on its stands hit (half on one partly covered), at most the HP the unit has left (damage overflows from
    stand to stand of one unit, and no further); on each solo at most its HP; a friend's harm counts twice against,
    an objective square's twice for."""
    sp = spell_of(state, piece, option.spell)
    mean = float(mean_damage(sp.damage))
    side = state.side_of(piece)
    per_unit: dict[str, float] = {}
    value = 0.0
    for kind, target, partial in area_targets(state, piece, area_squares(state, piece, option)):
        share = 0.5 if partial else 1.0
        if kind == "objective":
            value += 2 * mean
            continue
        if kind == "stand":
            stand = state.stand(target)
            assert stand is not None
            per_unit[stand.unit] = per_unit.get(stand.unit, 0.0) + share * mean
            continue
        solo = state.solo_named(target)
        harm = min(share * mean, float(solo.hp))
        value += -2 * harm if solo.side == side else harm
    for unit, harm in per_unit.items():
        left = float(sum(s.hp for s in state.unit_stands(unit)))
        capped = min(harm, left)
        value += -2 * capped if state.unit(unit).side == side else capped
    return value
