"""Hit rolls: To Hit value, modifiers, natural 6s and 1s, and the hit pool (LI-HIT, LI-FAST-1)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from kessen.dice import Dist, binomial


def hit_roll_hits(face: int, *, to_hit: int, modifier: int) -> bool:
    """Whether one hit die scores a hit (LI-HIT-1, LI-HIT-2).

    The modified result must reach the To Hit value; whatever the modifiers, a natural 6 always
    hits and a natural 1 always misses.

    >>> [hit_roll_hits(f, to_hit=4, modifier=-3) for f in (1, 5, 6)]
    [False, False, True]
    >>> hit_roll_hits(1, to_hit=2, modifier=2)
    False
    """
    if face == 6:
        return True
    if face == 1:
        return False
    return face + modifier >= to_hit


def hit_chance(*, to_hit: int, modifier: int) -> Fraction:
    """The chance that one hit die hits (LI-HIT-1, LI-HIT-2): between 1/6 and 5/6."""
    return Fraction(sum(hit_roll_hits(face, to_hit=to_hit, modifier=modifier) for face in range(1, 7)), 6)


@lru_cache(maxsize=1024)
def hit_pool(dice: int, *, to_hit: int, modifier: int) -> Dist[int]:
    """The number of hits from *dice* hit dice rolled together (LI-HIT-1, LI-FAST-1): a binomial, not 6**dice rows."""
    return binomial(dice, hit_chance(to_hit=to_hit, modifier=modifier))
