"""Dice conventions: natural rolls, modified scores and Might (BH-DICE-1..4)."""

from __future__ import annotations

from kessen.dice import Dist, d

LOWEST_SCORE = 1
HIGHEST_SCORE = 6
FACES = range(1, 7)


def score(natural: int, modifier: int = 0) -> int:
    """A die's score: its natural roll plus modifiers, clamped to 1–6 (BH-DICE-1, BH-DICE-2).

    >>> score(6, -1), score(1, -1), score(5, 3)
    (5, 1, 6)
    """
    if not 1 <= natural <= 6:
        raise ValueError(f"a D6 shows 1 to 6 (got {natural})")
    return max(LOWEST_SCORE, min(HIGHEST_SCORE, natural + modifier))


def faces_scoring(needed: int, modifier: int = 0) -> int:
    """How many of a D6's six natural faces score *needed* or more with *modifier* (BH-DICE-1, BH-DICE-2).

    The procedures count faces like this to build their small distributions from integer weights.

    >>> faces_scoring(5), faces_scoring(5, 1), faces_scoring(7), faces_scoring(1, -3), faces_scoring(6, -1)
    (2, 3, 0, 6, 0)
    """
    return sum(1 for natural in FACES if score(natural, modifier) >= needed)


def faces_scoring_at_most(modifier: int = 0) -> tuple[int, ...]:
    """For each score s = 0..6, how many of a D6's natural faces score s or less with *modifier* (BH-DICE-2).

    >>> faces_scoring_at_most(-1)
    (0, 2, 3, 4, 5, 6, 6)
    """
    at_most = [0] * 7
    for natural in FACES:
        at_most[score(natural, modifier)] += 1
    for s in range(1, 7):
        at_most[s] += at_most[s - 1]
    return tuple(at_most)


def score_die(modifier: int = 0) -> Dist[int]:
    """The distribution of one D6's score with *modifier* applied (BH-DICE-2).

    >>> score_die(-1).probability(1)
    Fraction(1, 3)
    """
    return d(6).map(lambda natural: score(natural, modifier))


def raise_with_might(die_score: int, points: int) -> int:
    """The score of a die after spending *points* of Might on it: +1 each, never above 6 (BH-DICE-4).

    >>> raise_with_might(4, 1), raise_with_might(5, 3)
    (5, 6)
    """
    if points < 0:
        raise ValueError(f"Might points spent cannot be negative (got {points})")
    return min(HIGHEST_SCORE, die_score + points)


def useful_might(die_score: int, might: int) -> int:
    """The most Might that can still change a die: enough to reach 6, no more (BH-DICE-4).

    >>> useful_might(4, 3), useful_might(6, 2)
    (2, 0)
    """
    return max(0, min(might, HIGHEST_SCORE - die_score))
