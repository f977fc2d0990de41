"""Exact finite distributions, the dice algebra of the rules, and seeded random streams.

Knows nothing of any ruleset. Weights are integers; probabilities are ``Fraction``.
"""

from kessen.dice.dist import Dist, binomial, d, highest, keep_highest, mixture, successes
from kessen.dice.sampling import Sampler, Stream, child_streams, draw, draw_many, sampler, stream

__all__ = [
    "Dist",
    "Sampler",
    "Stream",
    "binomial",
    "child_streams",
    "d",
    "draw",
    "draw_many",
    "highest",
    "keep_highest",
    "mixture",
    "sampler",
    "stream",
    "successes",
]
