"""Shoot phase: the hit roll, moved shooters, the natural 6 and the wound roll of a shot (BH-SHOOT-5..9)."""

from __future__ import annotations

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw, uniform_face
from kessen.rulesets.battlehost.rules.dice import FACES, raise_with_might, score
from kessen.rulesets.battlehost.rules.wounding import wound_chart, wound_roll_faces, wound_roll_weights

# BH-SHOOT-6: a model that moved this turn has its Shoot value worsened by 1.
MOVED_PENALTY = 1


def hit_roll_needed(shoot_value: int, *, moved: bool) -> int:
    """The score a hit roll needs: the Shoot value, one worse for a moved shooter (BH-SHOOT-5, BH-SHOOT-6).

    May be 7 (a moved 6+ shooter); a natural 6 still hits (BH-SHOOT-7).

    >>> hit_roll_needed(4, moved=True), hit_roll_needed(6, moved=True)
    (5, 7)
    """
    return shoot_value + (MOVED_PENALTY if moved else 0)


def hit_die_scores(face: int, *, needed: int, might: int = 0) -> bool:
    """Whether a hit roll of natural *face* hits: a natural 6 always hits (BH-SHOOT-7); any other face hits when
    its score, raised by *might* points but never above 6, reaches *needed* (BH-SHOOT-5, BH-SHOOT-6, BH-DICE-4).

    >>> hit_die_scores(6, needed=7), hit_die_scores(5, needed=7, might=2), hit_die_scores(3, needed=4, might=1)
    (True, False, True)
    """
    if not 1 <= face <= 6:
        raise ValueError(f"a D6 shows 1 to 6 (got {face})")
    return face == 6 or raise_with_might(score(face), might) >= needed


def hit_roll_succeeds(face: int, *, shoot_value: int, moved: bool) -> bool:
    """Whether a hit roll of natural *face* hits (BH-SHOOT-5, BH-SHOOT-6, BH-SHOOT-7).

    >>> hit_roll_succeeds(4, shoot_value=4, moved=True)
    False
    >>> hit_roll_succeeds(6, shoot_value=6, moved=True)
    True
    """
    return hit_die_scores(face, needed=hit_roll_needed(shoot_value, moved=moved))


def hit_roll_faces(shoot_value: int, *, moved: bool) -> int:
    """How many of the hit roll's six faces hit (BH-SHOOT-5..7).

    >>> hit_roll_faces(4, moved=False), hit_roll_faces(6, moved=True)
    (3, 1)
    """
    return sum(1 for face in FACES if hit_roll_succeeds(face, shoot_value=shoot_value, moved=moved))


def hit_roll_dist(shoot_value: int, *, moved: bool) -> Dist[bool]:
    """Whether one hit roll hits, exactly (BH-SHOOT-5..7).

    >>> hit_roll_dist(6, moved=True).probability(True)
    Fraction(1, 6)
    """
    hitting = hit_roll_faces(shoot_value, moved=moved)
    return Dist({True: hitting, False: 6 - hitting})


@record
class Shot:
    """One shot at one target (BH-PROC-2): the shooter's Shoot value, whether it moved this turn, the missile
    weapon's Strength, the target's Defence and remaining wounds."""

    shoot_value: int
    strength: int
    defence: int
    moved: bool = False
    wounds: int = 1


@record
class ShootOutcome:
    """What one shot did (BH-PROC-2): ``wounded`` implies ``hit``; ``slain`` implies ``wounded``. In a battle,
    *dice* are the natural faces rolled: the hit roll's die, then the To Wound roll's (:func:`shot_faces`)."""

    hit: bool
    wounded: bool
    slain: bool
    dice: tuple[int, ...] = dice_field()


MISSED = ShootOutcome(hit=False, wounded=False, slain=False)


def shoot(shot: Shot) -> Dist[ShootOutcome]:
    """One shot at one target: hit roll, then on a hit one To Wound roll; 1 wound slays a target with 1 left (BH-PROC-2, BH-SHOOT-9).

    Counted over the natural dice: 6 hit-roll faces times the wound roll's 6 (or 36) faces.
    """
    hitting = hit_roll_faces(shot.shoot_value, moved=shot.moved)
    wounding, rolls = wound_roll_weights(wound_chart(shot.strength, shot.defence), 0)
    return Dist({
        MISSED: (6 - hitting) * rolls,
        ShootOutcome(hit=True, wounded=False, slain=False): hitting * (rolls - wounding),
        ShootOutcome(hit=True, wounded=True, slain=shot.wounds == 1): hitting * wounding,
    })


def shot_faces(shot: Shot, outcome: ShootOutcome, draw: Draw) -> tuple[int, ...]:
    """The natural dice behind *outcome*: the hit roll's die (a hitting face on a hit), then on a hit the To Wound
    roll's one or two dice; with :func:`shoot`'s result, exactly the odds of rolling them (BH-SHOOT-5..9)."""
    needed = hit_roll_needed(shot.shoot_value, moved=shot.moved)
    hit = uniform_face(draw, (f for f in FACES if hit_die_scores(f, needed=needed) == outcome.hit))
    if not outcome.hit:
        return (hit,)
    return (hit, *wound_roll_faces(draw, wound_chart(shot.strength, shot.defence), outcome.wounded))
