"""One placement of the models on a table, and the facts about it worked out once each (issue 13 §1).

A skirmish changes its figures only when a model moves, falls, stands or leaves; between those changes every state
shares the same ``figures`` tuple, and the referee and the AI ask the same questions of it again and again (who
touches whom, whether a loser has room to recoil, where a model may move). :func:`placement` finds the one
:class:`Placement` of that tuple and table, and each fact is computed the first time it is asked, by the same rule
function that would answer it afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from kessen.rulesets.song_of_blades.referee.battlefield import Figure, Table, enemies_in_contact

T = TypeVar("T")

LIMIT = 64
"""Placements kept at once: a battle needs the last few; more than that only holds memory."""

_KEPT: dict[int, Placement] = {}
_MISSING: Any = object()


class Placement:
    """The figures on the table, by id and by side, and the facts worked out about them so far."""

    __slots__ = ("figures", "table", "by_id", "by_side", "_contacts", "_facts")

    def __init__(self, figures: tuple[Figure, ...], table: Table) -> None:
        self.figures, self.table = figures, table
        self.by_id = {f.id: f for f in figures}
        sides: dict[str, list[Figure]] = {}
        for f in figures:
            sides.setdefault(f.side, []).append(f)
        self.by_side = {side: tuple(found) for side, found in sides.items()}  # only the sides with a model left
        self._contacts: dict[str, tuple[Figure, ...]] = {}
        self._facts: dict[tuple[str, ...], Any] = {}

    def holds(self, f: Figure) -> bool:
        """Whether f is this placement's own figure of its id (not a copy moved elsewhere)."""
        return self.by_id.get(f.id) is f

    def side(self, side: str) -> tuple[Figure, ...]:
        """The side's figures, in table order."""
        return self.by_side.get(side, ())

    def contacts(self, f: Figure) -> tuple[Figure, ...]:
        """``battlefield.enemies_in_contact`` of f (SB-MELEE-1, SB-MELEE-2)."""
        if not self.holds(f):
            return enemies_in_contact(self.figures, f)
        found = self._contacts.get(f.id)
        if found is None:
            found = self._contacts[f.id] = enemies_in_contact(self.figures, f)
        return found

    def fact(self, name: str, compute: Callable[[], T], *about: Figure) -> T:
        """The fact *name* about the figures *about*, from *compute* the first time it is asked; a figure that is
        not this placement's own (:meth:`holds`) stands elsewhere, so its fact is computed afresh."""
        key: tuple[str, ...] = (name,)
        for f in about:
            if self.by_id.get(f.id) is not f:
                return compute()
            key += (f.id,)
        found: T = self._facts.get(key, _MISSING)
        if found is _MISSING:  # no KeyError: the compiled engine pays a traceback for each one raised
            found = self._facts[key] = compute()
        return found


def placement(figures: tuple[Figure, ...], table: Table) -> Placement:
    """The placement of *figures* on *table*: the one already made for this very tuple, else a new one.

    Kept by the tuple's identity (a tuple of figures is hashed field by field, too slow to look up each time);
    a kept placement holds its tuple, so no other tuple can take that identity while it is kept.
    """
    found = _KEPT.get(id(figures))
    if found is not None and found.figures is figures and found.table is table:
        return found
    if len(_KEPT) >= LIMIT:
        _KEPT.clear()  # the old placements are seldom asked about again; clearing is one step even across threads
    found = _KEPT[id(figures)] = Placement(figures, table)
    return found
