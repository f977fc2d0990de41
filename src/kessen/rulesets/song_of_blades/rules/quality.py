"""Quality rolls: activation (SB-ACT-1, SB-ACT-2) and morale tests (SB-MOR-2).

Each roll is a number of d6 against Quality. The odds count successes (a binomial over the chance of one die);
a game draws the faces themselves, so that its report can show them. Both read each die with
``quality_die_succeeds`` and turn the count into a result with the same function, so they agree exactly.
"""

from __future__ import annotations

import functools
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Literal, NamedTuple

from kessen.core.records import record
from kessen.dice import Dist, binomial


def quality_die_succeeds(face: int, quality: int) -> bool:
    """A Quality die succeeds on ≥ Quality; a natural 1 always fails, a natural 6 always succeeds (SB-ACT-1).

    >>> [quality_die_succeeds(f, 4) for f in (1, 3, 4, 6)]
    [False, False, True, True]
    """
    return face == 6 or (face != 1 and face >= quality)


def success_chance(quality: int) -> Fraction:
    """The chance that one Quality die succeeds."""
    return Fraction(sum(1 for face in range(1, 7) if quality_die_succeeds(face, quality)), 6)


def quality_dice(n: int) -> Dist[tuple[int, ...]]:
    """*n* d6 as they fell, highest first (their order does not matter to a Quality roll): each multiset of
    faces weighted by the number of orders it can fall in."""
    return Dist(
        {
            faces: factorial(n) // prod(factorial(k) for k in Counter(faces).values())
            for faces in combinations_with_replacement(range(6, 0, -1), n)
        }
    )


def successes(faces: tuple[int, ...], quality: int) -> int:
    """How many of the dice succeed against Quality (SB-ACT-1)."""
    return sum(1 for face in faces if quality_die_succeeds(face, quality))


def faces_text(faces: tuple[int, ...]) -> str:
    """Dice faces as the battle report writes them.

    >>> faces_text((6, 3, 1))
    '6, 3, 1'
    """
    return ", ".join(str(face) for face in faces)


@record
class ActivationOutcome:
    """Actions earned, failures rolled, and whether the turn passes (§6.3)."""

    actions: int
    failures: int
    turnover: bool


def activation_result(actions: int, dice: int) -> ActivationOutcome:
    """Each success is an action; two failures or more is a turnover (SB-ACT-1, SB-ACT-2).

    >>> activation_result(1, 3)
    ActivationOutcome(actions=1, failures=2, turnover=True)
    """
    return ActivationOutcome(actions, dice - actions, dice - actions >= 2)


def activation(quality: int, dice: int) -> Dist[ActivationOutcome]:
    """An activation roll of 1–3 dice: each success is an action; two failures or more is a turnover (§6.3)."""
    return binomial(dice, success_chance(quality)).map(lambda actions: activation_result(actions, dice))


class ActivationDice(NamedTuple):
    """An activation roll as the dice fell (highest first) and what it earned."""

    faces: tuple[int, ...]
    outcome: ActivationOutcome


@functools.lru_cache(maxsize=64)
def activation_dice(quality: int, dice: int) -> Dist[ActivationDice]:
    """Every way the activation dice can fall, with what each earns: what a game draws (SB-ACT-1, SB-ACT-2)."""
    return quality_dice(dice).map(lambda faces: ActivationDice(faces, activation_result(successes(faces, quality), dice)))


@functools.lru_cache(maxsize=64)
def activation_odds(quality: int, dice: int) -> tuple[Fraction, Fraction]:
    """The expected number of actions and the chance of a turnover of an activation roll (§6.3), exactly."""
    dist = activation(quality, dice)
    expected = sum((p * o.actions for o, p in dist.probabilities().items()), Fraction(0))
    return expected, dist.probability(lambda o: o.turnover)


MoraleResult = Literal["stands", "flees", "destroyed"]


@record
class MoraleOutcome:
    """A morale test: failures, and whether the model stands, flees (1 or 2 moves) or is destroyed (§6.4)."""

    failures: int
    result: MoraleResult
    flee_moves: int


def morale_result(failures: int) -> MoraleOutcome:
    """0 failures: stands; 1 or 2: flees that many moves; 3: destroyed (SB-MOR-2)."""
    if failures == 0:
        return MoraleOutcome(0, "stands", 0)
    if failures == 3:
        return MoraleOutcome(3, "destroyed", 0)
    return MoraleOutcome(failures, "flees", failures)


def morale(quality: int) -> Dist[MoraleOutcome]:
    """A morale test: three Quality dice (SB-MOR-2)."""
    return binomial(3, 1 - success_chance(quality)).map(morale_result)


class MoraleDice(NamedTuple):
    """A morale test as its three dice fell (highest first) and its result."""

    faces: tuple[int, ...]
    outcome: MoraleOutcome


@functools.lru_cache(maxsize=64)
def morale_dice(quality: int) -> Dist[MoraleDice]:
    """Every way the three morale dice can fall, with the result of each: what a game draws (SB-MOR-2)."""
    return quality_dice(3).map(lambda faces: MoraleDice(faces, morale_result(3 - successes(faces, quality))))
