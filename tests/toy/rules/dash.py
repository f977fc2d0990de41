"""A dash (TOY-1): a d6 of the squares declared or more makes it."""

from __future__ import annotations

from kessen.core.records import record
from kessen.dice import Dist, d


@record
class DashQuestion:
    """A dash of *squares* squares."""

    squares: int


@record
class DashOutcome:
    """Whether the racer made its dash."""

    made_it: bool


def dash(question: DashQuestion) -> Dist[DashOutcome]:
    """TOY-1: the racer moves on a d6 of ``squares`` or more.

    >>> dash(DashQuestion(3)).probability(DashOutcome(True))
    Fraction(2, 3)
    """
    return d(6).map(lambda face: DashOutcome(face >= question.squares))
