"""Notation: the short stable text of a choice, which a person types and a ruleset parses back.

Each ruleset writes its own forms (``attack orc-2``, ``move k1 to 312,440``); these are the pieces they share:
numbers and points written the same way everywhere (exactly in a choice's notation, to 0.001 in a message), and
finding a suggested option by its notation.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from kessen.core.errors import IllegalChoice, NotNotation

if TYPE_CHECKING:
    from kessen.core.engine import Decision

O = TypeVar("O")


def number(value: float) -> str:
    """A coordinate or a length as a person reads it in a message: an integer without a point, else at most three
    decimals (a choice's notation writes a coordinate exactly: :func:`exact_point`).

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


def coordinate(value: float) -> str:
    """A coordinate as a choice's notation writes it: exactly, in the fewest digits that read back as the very same
    number (an integer without a point), so that the point a notation names is the point applied (issue 22 §1).

    >>> coordinate(312.0), coordinate(290.5), coordinate(1 / 3), coordinate(-0.0), coordinate(0.00001)
    ('312', '290.5', '0.3333333333333333', '0', '0.00001')
    """
    value += 0.0  # never -0.0
    if value.is_integer():
        return str(int(value))
    return format(Decimal(repr(value)), "f")  # repr: the shortest that reads back; "f": never an exponent


def exact_point(x: float, y: float) -> str:
    """A point as a choice's notation writes it, ``x,y``, each coordinate exactly (:func:`coordinate`).

    >>> exact_point(312, 25.967123456)
    '312,25.967123456'
    """
    return f"{coordinate(float(x))},{coordinate(float(y))}"


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


@functools.lru_cache(maxsize=64)
def suggested_tables(decision: Decision, notation_of: Callable[[Decision, Any, Callable[[float, float], str]], str],
                     ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The suggested options of *decision* by their notation (``notation_of(decision, option, at)``), points written
    exactly and as kessen wrote them before issue 22 §1, made once per decision: ``exact.get(normalise(text))``, then
    ``rounded``, finds what :func:`find_suggested` finds with each (the first option of a notation wins), where the
    environments' candidate points parse up to 81 notations at one decision (issue 25 §2)."""
    exact: dict[str, Any] = {}
    rounded: dict[str, Any] = {}
    for option in decision.options:
        exact.setdefault(notation_of(decision, option, exact_point), option)
        rounded.setdefault(notation_of(decision, option, point), option)
    return exact, rounded


def unknown(text: str, examples: Iterable[str]) -> NotNotation:
    """The error for text that is no notation of this decision, showing a few of the forms it takes."""
    return NotNotation(text, tuple(e for _, e in zip(range(3), examples)))
