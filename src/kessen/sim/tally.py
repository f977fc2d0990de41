"""What many battles came to: counts of winners and of every summary value, which add up exactly in any order.

A :class:`Tally` holds only integer counts (battles per value), so the tallies of chunks played on any number
of processes, in any order, or across an interrupted and resumed run, add up to the same tally, to the last
battle. Means and intervals are worked out from the counts at the end.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kessen.core.engine import Terminal

Value = int | float | str
"""A summary value as counted: a number, or a word (a result, an id)."""


@dataclass
class Tally:
    """Battles counted by winner and by every value of the battle summary (the ``Terminal.summary`` dict).

    ``numbers``: a number key (``rounds``) → {value: battles}; ``per_side``: a {side: value} key
    (``casualties``, ``survivors``, ``vp``) → side → {value: battles}; ``words``: a word key (``result``) →
    {word: battles}, and a list key (``broken``) → {id: battles whose list held it}.
    """

    battles: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    numbers: dict[str, Counter[Value]] = field(default_factory=dict)
    per_side: dict[str, dict[str, Counter[Value]]] = field(default_factory=dict)
    words: dict[str, Counter[Value]] = field(default_factory=dict)

    @property
    def draws(self) -> int:
        """Battles that no side won."""
        return self.battles - sum(self.wins.values())

    def add(self, terminal: Terminal) -> None:
        """Count one battle's end."""
        self.battles += 1
        if terminal.winner is not None:
            self.wins[terminal.winner] += 1
        for key, value in terminal.summary.items():
            if isinstance(value, Mapping):
                sides = self.per_side.setdefault(key, {})
                for side, n in value.items():
                    sides.setdefault(str(side), Counter())[_value(n)] += 1
            elif isinstance(value, (list, tuple)):
                self.words.setdefault(key, Counter()).update({_value(item) for item in value})
            elif _is_number(value):
                self.numbers.setdefault(key, Counter())[value] += 1
            else:
                self.words.setdefault(key, Counter())[_value(value)] += 1

    def merge(self, other: Tally) -> None:
        """Add another tally's battles to this one."""
        self.battles += other.battles
        self.wins.update(other.wins)
        for key, counts in other.numbers.items():
            self.numbers.setdefault(key, Counter()).update(counts)
        for key, sides in other.per_side.items():
            mine = self.per_side.setdefault(key, {})
            for side, counts in sides.items():
                mine.setdefault(side, Counter()).update(counts)
        for key, counts in other.words.items():
            self.words.setdefault(key, Counter()).update(counts)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data, keys and values in a fixed order (the results store keeps it)."""
        return {
            "battles": self.battles,
            "wins": dict(sorted(self.wins.items())),
            "numbers": {k: _pairs(c) for k, c in sorted(self.numbers.items())},
            "per_side": {k: {s: _pairs(c) for s, c in sorted(v.items())} for k, v in sorted(self.per_side.items())},
            "words": {k: _pairs(c) for k, c in sorted(self.words.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        """The tally :meth:`to_json` wrote."""
        return cls(
            battles=int(data["battles"]),
            wins=Counter({str(k): int(v) for k, v in data["wins"].items()}),
            numbers={k: _counter(p) for k, p in data["numbers"].items()},
            per_side={k: {s: _counter(p) for s, p in v.items()} for k, v in data["per_side"].items()},
            words={k: _counter(p) for k, p in data["words"].items()},
        )


def total(tallies: Iterable[Tally]) -> Tally:
    """The sum of *tallies*."""
    whole = Tally()
    for part in tallies:
        whole.merge(part)
    return whole


def mean(counts: Counter[Value]) -> float | None:
    """The mean of a {number: battles} count (None when it holds no numbers).

    >>> mean(Counter({0: 3, 2: 1}))
    0.5
    """
    numeric = [(v, n) for v, n in counts.items() if _is_number(v)]
    battles = sum(n for _, n in numeric)
    if not battles:
        return None
    return math.fsum(float(v) * n for v, n in sorted(numeric)) / battles


def distribution(counts: Counter[Value]) -> dict[str, int]:
    """A count as {value as text: battles}, numbers in ascending order, then words in alphabetical order.

    >>> distribution(Counter({2: 1, 0: 3, "decisive": 2}))
    {'0': 3, '2': 1, 'decisive': 2}
    """
    return {_text(v): n for v, n in sorted(counts.items(), key=_order)}


def _order(item: tuple[Value, int]) -> tuple[int, float, str]:
    value = item[0]
    return (0, float(value), "") if _is_number(value) else (1, 0.0, str(value))


def _pairs(counts: Counter[Value]) -> list[list[Value | int]]:
    return [[v, n] for v, n in sorted(counts.items(), key=_order)]


def _counter(pairs: Iterable[list[Any]]) -> Counter[Value]:
    return Counter({_value(v): int(n) for v, n in pairs})


def _value(value: Any) -> Value:
    if _is_number(value) or isinstance(value, str):
        return value  # type: ignore[no-any-return]
    return str(value).lower() if isinstance(value, bool) else str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value: Value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
