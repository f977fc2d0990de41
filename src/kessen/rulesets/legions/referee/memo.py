"""Cheap updates of the engine's frozen records, and the facts of a board worked out once.

A battle makes tens of thousands of new states, Detachments and models, each from the last with a field or two
changed; ``dataclasses.replace`` walks and checks every field each time. :func:`evolve` makes the same value with
a copier written for its class, one line per field (as ``dataclasses`` writes a record's ``__init__``).

A record may keep **memo slots**: private fields (``init=False``, ``compare=False``) that hold what is worked out
from its other fields (a Detachment's live models, a state's board facts). They never take part in equality,
hashing or the repr. Each memo slot names the fields it is worked out from (the class's ``MEMO_FROM``);
:func:`evolve` carries a memo slot over to the new value when none of those fields changed, and clears it
otherwise, so a memo always describes the value it is on. ``dataclasses.replace`` clears every memo slot.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

R = TypeVar("R")
T = TypeVar("T")

Copier = Callable[[Any, Mapping[str, Any]], Any]

_COPIERS: dict[type, Copier] = {}


def evolve(value: R, **changes: Any) -> R:
    """``dataclasses.replace(value, **changes)`` for the engine's records (any without a ``__post_init__``):
    the same value, made without calling ``__init__``; memo slots whose sources did not change are kept."""
    cls = type(value)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    made: R = copier(value, changes)
    return made


def _copier(cls: type) -> Copier:
    """The copier of a record class: ``copy(value, changes)`` makes a new instance, sets every slot from *value*
    (through the slot's own setter, one line per field, as ``dataclasses`` writes its ``__init__``), then the
    changed fields.

    >>> from kessen.core.geometry import Point
    >>> _copier(Point)(Point(1.0, 2.0), {"y": 5.0})
    Point(x=1.0, y=5.0)
    """
    memo_from: Mapping[str, frozenset[str]] = getattr(cls, "MEMO_FROM", {})
    names = [f.name for f in fields(cls) if f.init]
    memos = [f.name for f in fields(cls) if not f.init]
    scope: dict[str, Any] = {"new": object.__new__, "put": object.__setattr__, "cls": cls}
    lines = ["def copy(value, changes):", "    made = new(cls)"]
    for i, name in enumerate(names):
        scope[f"put_{i}"] = getattr(cls, name).__set__
        lines.append(f"    put_{i}(made, value.{name})")
    for i, name in enumerate(memos):
        scope[f"memo_{i}"], scope[f"sources_{i}"] = getattr(cls, name).__set__, memo_from.get(name, frozenset(names))
        lines.append(f"    memo_{i}(made, value.{name} if sources_{i}.isdisjoint(changes) else None)")
    lines += ["    for name, field_value in changes.items():", "        put(made, name, field_value)", "    return made"]
    exec("\n".join(lines), scope)  # the source holds nothing but the record's own field names
    copier: Copier = scope["copy"]
    return copier


def remembered(memo: dict[Hashable, Any], key: Hashable, compute: Callable[[], T]) -> T:
    """``memo[key]``, computed by *compute* the first time it is asked for."""
    try:
        found: T = memo[key]
    except KeyError:
        found = memo[key] = compute()
    return found
