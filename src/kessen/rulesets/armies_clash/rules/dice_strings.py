"""Damage dice strings: the ``NdS+K`` notation, its limits and its damage ceiling (AC-PROC-DICE, AC-PROC-CEIL).

``parse_dice`` and ``format_dice`` are a pair: every valid string parses to a :class:`DiceExpression`
whose ``str`` is the same string, character for character (terms keep their order; ``+0`` stays).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from kessen.core.errors import InputError
from kessen.core.records import record

ALLOWED_SIDES = (2, 3, 4, 6, 8, 10, 12, 20)
MAX_DICE_PER_TERM = 20
MAX_DICE = 20
MAX_CONSTANT = 100
MAX_LENGTH = 120
MAX_TERMS = 40
"""[DECISION] A dice string has at most 120 characters and 40 terms, checked before it is read (the grammar of
AC-PROC-DICE bounds the dice, not the constants): 20 dice terms and as many constants fit."""

_NUMBER = re.compile(r"[0-9]+")


@record
class DiceTerm:
    """``count`` dice of ``sides`` faces, always added (``2d6``)."""

    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@record
class Constant:
    """A constant term: ``value`` (0..100) added, or subtracted when ``negative``."""

    value: int
    negative: bool = False

    @property
    def signed(self) -> int:
        return -self.value if self.negative else self.value

    def __str__(self) -> str:
        return str(self.value)


Term = DiceTerm | Constant


@record
class DiceExpression:
    """A parsed damage expression, its terms in the order written.

    >>> expr = parse_dice("1d10+1d6+2")
    >>> expr.dice, expr.modifier, str(expr)
    (((10, 1), (6, 1)), 2, '1d10+1d6+2')
    """

    terms: tuple[Term, ...]

    @property
    def dice(self) -> tuple[tuple[int, int], ...]:
        """``(sides, count)`` of every dice term, in order."""
        return tuple((t.sides, t.count) for t in self.terms if isinstance(t, DiceTerm))

    @property
    def dice_count(self) -> int:
        """The number of dice rolled on a normal hit."""
        return sum(count for _, count in self.dice)

    @property
    def modifier(self) -> int:
        """The sum of the signed constants (added once, even on a critical hit, AC-D20-4)."""
        return sum(t.signed for t in self.terms if isinstance(t, Constant))

    def highest(self, *, critical: bool) -> int:
        """The highest value a roll can show: every die on its top face, floored at 0 (AC-D20-5).

        >>> parse_dice("1d4-2").highest(critical=True)
        6
        """
        per_die = 2 if critical else 1
        return max(0, sum(per_die * count * sides for sides, count in self.dice) + self.modifier)

    def __str__(self) -> str:
        return format_dice(self)


class DiceStringError(InputError):
    """A dice string that breaks AC-PROC-DICE; the message quotes the string as written.

    >>> str(DiceStringError("attacks[0].damage", "2d7+1", "die size d7 not allowed"))
    'attacks[0].damage: die size d7 not allowed ("2d7+1")'
    """

    def __init__(self, field: str, text: str, reason: str) -> None:
        shown = text if len(text) <= 60 else text[:57] + "..."
        super().__init__(field, InputError.NOTHING, f"{reason} ({json.dumps(shown, ensure_ascii=False)})")
        self.value, self.reason = text, reason


def parse_dice(text: str, *, field: str = "damage") -> DiceExpression:
    """Read a dice string (AC-PROC-DICE); errors name *field* and quote the string.

    Grammar: ``term (("+" | "-") term)*``, a term being ``NdS`` (N 1..20, S one of 2 3 4 6 8 10 12 20,
    only ever added) or a constant 0..100; no spaces, lowercase ``d``, no leading zeros, no sign before
    the first term, at most 20 dice in all; at most 120 characters and 40 terms.

    >>> parse_dice("2d6-1")
    DiceExpression(terms=(DiceTerm(count=2, sides=6), Constant(value=1, negative=True)))
    >>> parse_dice("2d7+1", field="attacks[0].damage")
    Traceback (most recent call last):
    ...
    kessen.rulesets.armies_clash.rules.dice_strings.DiceStringError: attacks[0].damage: die size d7 not allowed ("2d7+1")
    """
    reader = _Reader(text, field)
    if not text:
        raise reader.error("empty dice string")
    if len(text) > MAX_LENGTH:
        raise reader.error(f"at most {MAX_LENGTH} characters, not {len(text)}")
    if text[0] in "+-":
        raise reader.error("no sign allowed before the first term")
    terms = [reader.term(negative=False)]
    while reader.pos < len(text):
        if len(terms) == MAX_TERMS:
            raise reader.error(f"at most {MAX_TERMS} terms")
        sign = text[reader.pos]
        if sign not in "+-":
            raise reader.error(f"unexpected character {sign!r} at position {reader.pos + 1}")
        reader.pos += 1
        if reader.pos == len(text):
            raise reader.error(f"missing term after {sign!r}")
        terms.append(reader.term(negative=sign == "-"))
    expression = DiceExpression(tuple(terms))
    if expression.dice_count > MAX_DICE:
        raise reader.error(f"at most {MAX_DICE} dice in all, not {expression.dice_count}")
    return expression


class _Reader:
    """A cursor over one dice string; builds the errors that quote it."""

    def __init__(self, text: str, field: str) -> None:
        self.text, self.field, self.pos = text, field, 0

    def error(self, reason: str) -> DiceStringError:
        return DiceStringError(self.field, self.text, reason)

    def term(self, *, negative: bool) -> Term:
        """The term at the cursor (a constant, or dice when a ``d`` follows the number)."""
        count = self.number("a dice term needs a count before 'd'")
        if self.pos == len(self.text) or self.text[self.pos] != "d":
            if count > MAX_CONSTANT:
                raise self.error(f"constant {count} above {MAX_CONSTANT}")
            return Constant(count, negative)
        self.pos += 1
        sides = self.number("a dice term needs a die size after 'd'")
        if negative:
            raise self.error(f"dice may only be added, not subtracted ('-{count}d{sides}')")
        if not 1 <= count <= MAX_DICE_PER_TERM:
            raise self.error(f"dice count {count} not allowed (1 to {MAX_DICE_PER_TERM})")
        if sides not in ALLOWED_SIDES:
            raise self.error(f"die size d{sides} not allowed")
        return DiceTerm(count, sides)

    def number(self, missing: str) -> int:
        """The whole number at the cursor: digits only, no leading zero, at most four of them."""
        found = _NUMBER.match(self.text, self.pos)
        if found is None:
            if self.pos == len(self.text) or self.text[self.pos] == "d":
                raise self.error(f"{missing} at position {self.pos + 1}")
            raise self.error(f"unexpected character {self.text[self.pos]!r} at position {self.pos + 1}")
        digits = found.group()
        if len(digits) > 1 and digits[0] == "0":
            raise self.error(f"leading zero not allowed ({digits!r})")
        if len(digits) > 4:
            raise self.error(f"number {digits[:6]}... too large")
        self.pos = found.end()
        return int(digits)


def format_dice(expression: DiceExpression) -> str:
    """Write an expression back in the notation of AC-PROC-DICE (the inverse of :func:`parse_dice`).

    >>> format_dice(DiceExpression((DiceTerm(1, 4), Constant(1, negative=True))))
    '1d4-1'
    """
    out = []
    for i, term in enumerate(expression.terms):
        if i:
            out.append("-" if isinstance(term, Constant) and term.negative else "+")
        out.append(str(term))
    return "".join(out)


def damage_ceiling(rolls: Iterable[DiceExpression]) -> int:
    """The damage ceiling of a list of attack rolls: each roll's critical maximum, summed (AC-PROC-CEIL).

    >>> damage_ceiling([parse_dice("1d8+5d8+5")] * 3)
    303
    """
    return sum(expression.highest(critical=True) for expression in rolls)
