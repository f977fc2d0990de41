"""Notation: the short stable text of a choice, which a person types and a ruleset parses back.

Each ruleset writes its own forms (``attack orc-2``, ``move k1 to 312,440``); these are the pieces they share:
numbers and points written the same way everywhere, and finding a suggested option by its notation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TypeVar

from kessen.core.errors import IllegalChoice, NotNotation

O = TypeVar("O")


def number(value: float) -> str:
    """A coordinate or a length as notation writes it: an integer without a point, else at most three decimals.

    >>> number(312.0), number(290.5), number(1 / 3)
    ('312', '290.5', '0.333')
    """
    rounded = round(value, 3)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.3f}".rstrip("0").rstrip(".")


def point(x: float, y: float) -> str:
    """A point as ``x,y``.

    >>> point(312, 440.25)
    '312,440.25'
    """
    return f"{number(x)},{number(y)}"


def parse_number(token: str, what: str) -> float:
    """A finite number written in notation, else IllegalChoice naming *what* was expected."""
    try:
        value = float(token)
    except ValueError:
        raise IllegalChoice(None, f"{what} must be a number (got {token!r})") from None
    if not math.isfinite(value):
        raise IllegalChoice(None, f"{what} must be a finite number (got {token!r})")
    return value


def parse_point(token: str, what: str = "the point") -> tuple[float, float]:
    """``x,y`` as two finite numbers, else IllegalChoice.

    >>> parse_point("290,455.5")
    (290.0, 455.5)
    """
    parts = token.split(",")
    if len(parts) != 2:
        raise IllegalChoice(None, f"{what} must be written x,y (got {token!r})")
    return parse_number(parts[0], what), parse_number(parts[1], what)


def normalise(text: str) -> str:
    """Notation as compared: surrounding and repeated spaces dropped (ids keep their case)."""
    return " ".join(text.split())


def words(text: str) -> list[str]:
    """The words of a notation."""
    return text.split()


def find_suggested(options: Iterable[O], notation_of: Callable[[O], str], text: str) -> O | None:
    """The suggested option whose notation is *text* (spacing aside), or None."""
    wanted = normalise(text)
    for option in options:
        if notation_of(option) == wanted:
            return option
    return None


def unknown(text: str, examples: Iterable[str]) -> NotNotation:
    """The error for text that is no notation of this decision, showing a few of the forms it takes."""
    return NotNotation(text, tuple(e for _, e in zip(range(3), examples)))
