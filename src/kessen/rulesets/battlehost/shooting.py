"""Shoot phase: the hit roll, moved shooters, the natural 6 and the wound roll of a shot (BH-SHOOT-5..9)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from kessen.dice import Dist, d
from kessen.rulesets.battlehost.inputs import ShootInput
from kessen.rulesets.battlehost.wounding import wound_chart, wound_roll_dist

# BH-SHOOT-6: a model that moved this turn has its Shoot value worsened by 1.
MOVED_PENALTY = 1


def hit_roll_needed(shoot_value: int, *, moved: bool) -> int:
    """The score a hit roll needs: the Shoot value, one worse for a moved shooter (BH-SHOOT-5, BH-SHOOT-6).

    May be 7 (a moved 6+ shooter); a natural 6 still hits (BH-SHOOT-7).

    >>> hit_roll_needed(4, moved=True), hit_roll_needed(6, moved=True)
    (5, 7)
    """
    return shoot_value + (MOVED_PENALTY if moved else 0)


def hit_roll_succeeds(face: int, *, shoot_value: int, moved: bool) -> bool:
    """Whether a hit roll of natural *face* hits (BH-SHOOT-5, BH-SHOOT-6, BH-SHOOT-7).

    >>> hit_roll_succeeds(4, shoot_value=4, moved=True)
    False
    >>> hit_roll_succeeds(6, shoot_value=6, moved=True)
    True
    """
    if not 1 <= face <= 6:
        raise ValueError(f"a D6 shows 1 to 6 (got {face})")
    return face == 6 or face >= hit_roll_needed(shoot_value, moved=moved)


@functools.lru_cache(maxsize=64)
def hit_roll_dist(shoot_value: int, *, moved: bool) -> Dist[bool]:
    """Whether one hit roll hits, exactly (BH-SHOOT-5..7).

    >>> hit_roll_dist(6, moved=True).probability(True)
    Fraction(1, 6)
    """
    return d(6).map(lambda face: hit_roll_succeeds(face, shoot_value=shoot_value, moved=moved))


def shot_wounds(strength: int, defence: int) -> Dist[bool]:
    """The wound roll after a hit: the missile weapon's Strength against the target's Defence, no modifier (BH-SHOOT-8, BH-STRIKE-6)."""
    return wound_roll_dist(wound_chart(strength, defence), 0)


@dataclass(frozen=True, slots=True)
class ShootOutcome:
    """What one shot did (BH-PROC-2): ``wounded`` implies ``hit``; ``slain`` implies ``wounded``."""

    hit: bool
    wounded: bool
    slain: bool


MISSED = ShootOutcome(hit=False, wounded=False, slain=False)


def shoot(shot: ShootInput) -> Dist[ShootOutcome]:
    """One shot at one target: hit roll, then on a hit one To Wound roll; 1 wound slays a target with 1 left (BH-PROC-2, BH-SHOOT-9)."""
    wound = shot_wounds(shot.strength, shot.defence).map(
        lambda wounded: ShootOutcome(hit=True, wounded=wounded, slain=wounded and shot.wounds == 1)
    )
    return hit_roll_dist(shot.shoot_value, moved=shot.moved).bind(lambda hit: wound if hit else Dist.always(MISSED))
