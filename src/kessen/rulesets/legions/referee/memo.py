"""Cheap updates of the engine's frozen records, and the facts of a board worked out once.

A battle makes tens of thousands of new states, Detachments and models, each from the last with a field or two
changed; ``dataclasses.replace`` walks and checks every field each time. :func:`evolve` makes the same value with
the fields copied in one C-level pass.

A record may keep **memo slots**: private fields (``init=False``, ``compare=False``) that hold what is worked out
from its other fields (a Detachment's live models, a state's board facts). They never take part in equality,
hashing or the repr. Each memo slot names the fields it is worked out from (the class's ``MEMO_FROM``);
:func:`evolve` carries a memo slot over to the new value when none of those fields changed, and clears it
otherwise, so a memo always describes the value it is on. ``dataclasses.replace`` clears every memo slot.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

R = TypeVar("R")
T = TypeVar("T")

_set = object.__setattr__


class _Shape:
    """How to copy one record class: its constructor fields, read at once, and its memo slots with their sources."""

    __slots__ = ("puts", "read", "memos")

    def __init__(self, cls: type) -> None:
        memo_from: Mapping[str, frozenset[str]] = getattr(cls, "MEMO_FROM", {})
        names = tuple(f.name for f in fields(cls) if f.init)
        self.puts: tuple[Callable[[Any, Any], None], ...] = tuple(getattr(cls, name).__set__ for name in names)  # the slots' own setters
        many = attrgetter(*names) if names else (lambda value: ())
        self.read: Callable[[Any], tuple[Any, ...]] = many if len(names) != 1 else (lambda value: (many(value),))
        self.memos = tuple((f.name, memo_from.get(f.name, frozenset(names))) for f in fields(cls) if not f.init)


_SHAPES: dict[type, _Shape] = {}


def evolve(value: R, **changes: Any) -> R:
    """``dataclasses.replace(value, **changes)`` for the engine's records (any without a ``__post_init__``):
    the same value, made without calling ``__init__``; memo slots whose sources did not change are kept."""
    cls = type(value)
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = _Shape(cls)
    new = object.__new__(cls)
    for put, field_value in zip(shape.puts, shape.read(value)):
        put(new, field_value)
    for slot, sources in shape.memos:
        _set(new, slot, getattr(value, slot) if sources.isdisjoint(changes) else None)
    for name, field_value in changes.items():
        _set(new, name, field_value)
    return new


def remembered(memo: dict[Hashable, Any], key: Hashable, compute: Callable[[], T]) -> T:
    """``memo[key]``, computed by *compute* the first time it is asked for."""
    try:
        found: T = memo[key]
    except KeyError:
        found = memo[key] = compute()
    return found
