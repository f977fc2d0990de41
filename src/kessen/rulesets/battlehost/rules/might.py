"""Might on a Hero's own hit rolls and To Wound rolls, rolled die by die (BH-DICE-4, BH-SHOOT-7, BH-STRIKE-2).

The odds procedures of section 9 take no Might for these rolls (their inputs define none), so only the engine
uses this module: a Hero with Might left rolls its hit roll and each To Wound roll one die at a time, and after a
die fails its player may raise the die's score with Might. What each die needs, and which die follows which, is
the hit roll's and the wound roll's own rule (shooting.hit_die_scores, wounding.wound_dice and wound_die_scores).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import prod
from typing import Literal

from kessen.core.records import record
from kessen.rulesets.battlehost.rules.dice import faces_scoring, raise_with_might, score, useful_might
from kessen.rulesets.battlehost.rules.shooting import hit_die_scores, hit_roll_needed
from kessen.rulesets.battlehost.rules.wounding import WoundEntry, wound_dice, wound_die_scores

RollKind = Literal["hit_roll", "wound_roll", "second_die"]


@record
class HeroDie:
    """One die of a Hero's own hit or To Wound roll (BH-DICE-4).

    *needs* holds the score this die needs, then those of the dice that follow it when it succeeds (a 6/N
    entry's second die); a hit roll of a moved 6+ shooter needs 7 and hits on a natural 6 only, the wound chart's
    "-" needs 7 and never succeeds. *modifier* is added to the natural roll (+1 To Wound with a two-handed weapon,
    BH-STRIKE-6). *face* is the natural roll once rolled, while the Hero's player decides on Might.
    """

    hero: str
    kind: RollKind
    needs: tuple[int, ...]
    modifier: int = 0
    face: int | None = None

    @property
    def needed(self) -> int:
        """The score this die needs."""
        return self.needs[0]


def rolls_die_by_die(*, hero: bool, might_left: int) -> bool:
    """A Hero with Might left rolls its own hit and To Wound rolls one die at a time, so that it may spend
    Might on a failed die (BH-DICE-4); any other model's rolls are drawn whole from the procedures.

    >>> rolls_die_by_die(hero=True, might_left=1), rolls_die_by_die(hero=True, might_left=0)
    (True, False)
    """
    return hero and might_left > 0


def hit_die(hero: str, *, shoot_value: int, moved: bool) -> HeroDie:
    """A Hero's hit roll (BH-SHOOT-5, BH-SHOOT-6)."""
    return HeroDie(hero, "hit_roll", (hit_roll_needed(shoot_value, moved=moved),))


def wound_die(hero: str, entry: WoundEntry, *, modifier: int = 0) -> HeroDie:
    """The first die of a Hero's To Wound roll (BH-WOUND-1, BH-WOUND-3)."""
    return HeroDie(hero, "wound_roll", wound_dice(entry), modifier)


def next_die(die: HeroDie) -> HeroDie | None:
    """The die rolled after *die* succeeds: a 6/N entry's second die, or None when the roll is done (BH-WOUND-1).

    >>> next_die(HeroDie("h", "wound_roll", (6, 4)))
    HeroDie(hero='h', kind='second_die', needs=(4,), modifier=0, face=None)
    >>> next_die(HeroDie("h", "wound_roll", (5,))) is None
    True
    """
    return HeroDie(die.hero, "second_die", die.needs[1:], die.modifier) if len(die.needs) > 1 else None


def later_dice_chance(die: HeroDie) -> Fraction:
    """The chance that the dice still to come after *die* succeed, with no Might spent (BH-WOUND-1, BH-WOUND-3).

    >>> later_dice_chance(HeroDie("h", "wound_roll", (6, 4), modifier=1)), later_dice_chance(HeroDie("h", "hit_roll", (4,)))
    (Fraction(2, 3), Fraction(1, 1))
    """
    later = die.needs[1:]
    return Fraction(prod(faces_scoring(n, die.modifier) for n in later), 6 ** len(later))


def rolled(die: HeroDie, face: int) -> HeroDie:
    return replace(die, face=face)


def die_score(die: HeroDie, face: int, points: int = 0) -> int:
    """The die's score: natural roll plus modifier, clamped (BH-DICE-2), then raised by Might, never above 6 (BH-DICE-4).

    >>> die_score(HeroDie("h", "wound_roll", (5,), modifier=1), 3, points=1)
    5
    """
    return raise_with_might(score(face, die.modifier), points)


def die_succeeds(die: HeroDie, face: int, points: int = 0) -> bool:
    """Whether the die succeeds with *points* of Might on it, by the hit roll's or the wound roll's own rule
    (BH-SHOOT-5..7, BH-WOUND-1, BH-DICE-4).

    >>> die_succeeds(hit_die("h", shoot_value=4, moved=False), 3, points=1)
    True
    >>> die_succeeds(hit_die("h", shoot_value=6, moved=True), 5, points=1)
    False
    """
    if die.kind == "hit_roll":
        return hit_die_scores(face, needed=die.needed, might=points)
    return wound_die_scores(face, needed=die.needed, modifier=die.modifier, might=points)


def might_to_succeed(die: HeroDie, face: int, might: int) -> int | None:
    """The fewest Might points that turn a failed die into a success, or None when it succeeded
    already or no Might the Hero has left can save it (BH-DICE-4).

    >>> might_to_succeed(HeroDie("h", "wound_roll", (6, 4)), 4, 3)
    2
    >>> might_to_succeed(HeroDie("h", "wound_roll", (6, 4)), 4, 1) is None
    True
    """
    if die_succeeds(die, face):
        return None
    for points in range(1, useful_might(score(face, die.modifier), might) + 1):
        if die_succeeds(die, face, points):
            return points
    return None


def might_choices(die: HeroDie, face: int, might: int) -> tuple[int, ...]:
    """The Might a Hero may usefully spend on a failed die, the default policy's choice first (BH-DICE-4).

    [DECISION] The default policy spends the fewest points that make the die succeed, as the duel's
    policy spends the fewest that give the best chance (BH-PROC-4); the other choice is to spend none.
    Spending fewer points than that, or more, changes nothing but the Might left, so it is not offered.

    >>> might_choices(hit_die("h", shoot_value=5, moved=False), 4, 2), might_choices(hit_die("h", shoot_value=5, moved=False), 1, 2)
    ((1, 0), (0,))
    """
    points = might_to_succeed(die, face, might)
    return (0,) if points is None else (points, 0)
