"""The two sides of a battle: Good and Evil (BH-DUEL-9, section 4)."""

from __future__ import annotations

from typing import Literal

Side = Literal["good", "evil"]

SIDES: tuple[Side, Side] = ("good", "evil")


def other_side(side: Side) -> Side:
    """The opposing side.

    >>> other_side("good")
    'evil'
    """
    return "evil" if side == "good" else "good"


def side_named(name: str) -> Side:
    """The side a decision's player names.

    >>> side_named("evil")
    'evil'
    """
    assert name in SIDES, name
    return "good" if name == "good" else "evil"
