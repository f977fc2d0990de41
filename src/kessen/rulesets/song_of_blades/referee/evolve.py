"""``evolve``: the next value of a record with some fields changed, at the cost of the hot path (issue 13 §2).

A record (``kessen.core.records``) is a frozen slotted dataclass; ``dataclasses.replace`` builds the next one through
the generated ``__init__``, which sets every field through ``object.__setattr__`` after collecting them by name. A
skirmish makes a new state at every step (each pending step popped or pushed, each action spent), so here the new
value is filled slot by slot through the slots' own descriptors: the same value, about twice as soon. A field that
is no init field is the record's own ``__post_init__``'s to fill, as ``dataclasses.replace`` leaves it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

_Slot = tuple[str, Callable[[Any], Any], Callable[[Any, Any], None]]
_PLANS: dict[type, tuple[frozenset[str], tuple[_Slot, ...], Callable[[Any], None] | None]] = {}


def evolve(value: R, **changes: Any) -> R:
    """``dataclasses.replace(value, **changes)`` for a record (a frozen slotted dataclass).

    >>> from kessen.core.geometry import Point
    >>> evolve(Point(1.0, 2.0), y=5.0)
    Point(x=1.0, y=5.0)
    """
    cls = type(value)
    names, plan, post_init = _PLANS.get(cls) or _plan(cls)
    if not changes.keys() <= names:
        raise TypeError(f"{cls.__name__} has no init field {min(changes.keys() - names)!r}")
    new = object.__new__(cls)
    for name, get, put in plan:
        put(new, changes[name] if name in changes else get(value))
    if post_init is not None:
        post_init(new)
    return new


def _plan(cls: type) -> tuple[frozenset[str], tuple[_Slot, ...], Callable[[Any], None] | None]:
    """The init fields' names, each with its slot's getter and setter, and the record's ``__post_init__``."""
    fields = [f for f in dataclasses.fields(cls) if f.init]
    slots = tuple((f.name, cls.__dict__[f.name].__get__, cls.__dict__[f.name].__set__) for f in fields)
    plan = frozenset(f.name for f in fields), slots, getattr(cls, "__post_init__", None)
    _PLANS[cls] = plan
    return plan
