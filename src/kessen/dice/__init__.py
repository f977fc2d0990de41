"""Exact finite distributions, the dice algebra of the rules, and seeded random streams.

Knows nothing of any ruleset. Weights are integers; probabilities are ``Fraction``. The sampling half
(numpy) is imported on first use, so that exact odds start fast.
"""

from __future__ import annotations

from typing import Any

from kessen.dice.dist import Dist, binomial, d, highest, keep_highest, mixture, successes

SEED_LIMIT = 2**64
"""Seeds are 64-bit: from 0 to 2**64 - 1 (every battle of a sweep gets one, replayable with ``--seed``)."""

_SAMPLING = ("Sampler", "Stream", "child_streams", "dice_stream", "draw", "draw_many", "sampler", "stream")

__all__ = ["SEED_LIMIT", "Dist", "binomial", "d", "highest", "keep_highest", "mixture", "successes", *_SAMPLING]


def __getattr__(name: str) -> Any:
    if name in _SAMPLING:
        from kessen.dice import sampling

        return getattr(sampling, name)
    raise AttributeError(f"module 'kessen.dice' has no attribute {name!r}")
