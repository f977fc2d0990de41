"""The faces behind a drawn result: exact conditional draws, given what the result already says.

A procedure's distribution holds results (hits, wounds, a best score), not faces; a battle draws the result from it
and then, to show the dice on the table, the faces that make that result, each from its exact conditional
distribution. A faces function takes a :data:`Draw` (one draw from a distribution, with the game's dice stream) so
that the same function is drawn in a battle and enumerated exactly in the tests. Knows nothing of any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from math import prod
from typing import Any

from kessen.dice.dist import Dist

Draw = Callable[[Dist[Any]], Any]
"""One outcome of a distribution, drawn (in a battle) or followed down every branch (in a test)."""


def uniform_face(draw: Draw, faces: Iterable[int]) -> int:
    """One die known to show one of *faces*, each equally likely."""
    return int(draw(Dist.uniform(sorted(set(faces)))))


def weighted(draw: Draw, weights: dict[Any, int]) -> Any:
    """One of the keys of *weights*, drawn by its weight (keys of weight 0 cannot come)."""
    return draw(Dist({k: w for k, w in weights.items() if w}))


def successes_placed(draw: Draw, rolls: int, successes: int) -> tuple[bool, ...]:
    """Which of *rolls* independent, equally likely rolls succeeded, given that *successes* of them did: every
    arrangement equally likely (each roll succeeds with the chance successes left / rolls left)."""
    if not 0 <= successes <= rolls:
        raise ValueError(f"{successes} successes among {rolls} rolls")
    placed: list[bool] = []
    left = successes
    for k in range(rolls, 0, -1):
        hit = left == k or (left > 0 and bool(draw(Dist({True: left, False: k - left}))))
        placed.append(hit)
        left -= hit
    return tuple(placed)


def at_least_count(draw: Draw, weights: dict[int, int], least: int) -> int:
    """A count known to be *least* or more, drawn from its weights restricted there (the rolls that slay a model
    with *least* wounds left are any count of *least* or more)."""
    return int(weighted(draw, {n: w for n, w in weights.items() if n >= least}))


class _Branch(Exception):
    def __init__(self, dist: Dist[Any]) -> None:
        self.dist = dist


def faces_dist(faces: Callable[[Draw], Any]) -> Dist[Any]:
    """The exact distribution of what *faces* returns, every draw it makes followed down each of its outcomes (for
    the checks that a faces function keeps the procedure's exact odds; its cost grows with the branches)."""
    found: dict[Any, Fraction] = {}
    prefixes: list[tuple[Any, ...]] = [()]
    while prefixes:
        prefix = prefixes.pop()
        taken: list[Fraction] = []

        def follow(dist: Dist[Any], prefix: tuple[Any, ...] = prefix, taken: list[Fraction] = taken) -> Any:
            if len(taken) == len(prefix):
                raise _Branch(dist)
            outcome = prefix[len(taken)]
            taken.append(dist.probability(outcome))
            return outcome

        try:
            value = faces(follow)
        except _Branch as branch:
            prefixes.extend(prefix + (o,) for o in branch.dist.outcomes())
            continue
        found[value] = found.get(value, Fraction(0)) + prod(taken, start=Fraction(1))
    return Dist.from_probabilities(found)
