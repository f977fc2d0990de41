"""What a ruleset tells a searching AI (issue 23 §2): the decisions worth searching and what a position is worth.

A ruleset's ``ai.py`` gives one to its game (``StepGame(..., tactics=...)``); the search that uses it
(:mod:`kessen.ai.search`) knows no ruleset, and this protocol none either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from kessen.core.decisions import Decider
from kessen.core.engine import Decision


class Tactics(Protocol):
    """A ruleset's knowledge for the search AI."""

    def greedy(self, side: str) -> Decider:
        """The fast one-step AI for *side*: what ``--ai greedy`` plays, and the search's first candidate."""
        ...

    def candidates(self, state: Any, decision: Decision, limit: int) -> Sequence[Any]:
        """At most *limit* of *decision*'s suggested options worth searching, the most promising first. A move the
        search should weigh but the referee does not suggest (a path around a wall, a charge into a fight already
        joined) belongs among the suggested options: battles record a choice as its index among them."""
        ...

    def evaluate(self, state: Any, side: str) -> float:
        """What the position is worth to *side*, in the ruleset's own terms scaled to about -1 (all but lost) .. 1
        (all but won); with two sides, one side's worth is the other's negated."""
        ...


def first_then(first: Any, ranked: Sequence[Any], limit: int) -> list[Any]:
    """*first* (a greedy AI's choice), then the options of *ranked* other than it, at most *limit* in all: what a
    ruleset's ``candidates`` returns once it has ranked its options."""
    out = [first]
    for o in ranked:
        if len(out) >= limit:
            break
        if o != first:
            out.append(o)
    return out
