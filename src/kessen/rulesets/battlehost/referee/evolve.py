"""Cheap copies of a record with some fields changed, for the steps a battle takes thousands of times.

``dataclasses.replace`` looks up every field by name and runs the frozen ``__init__`` (a ``setattr`` through
``object`` per field); a game state has about twenty fields and is copied at every step. :func:`evolver` writes,
once per record class and set of changed fields, a function that sets the slots of a new instance directly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def evolver(cls: type[T], *changed: str) -> Callable[..., T]:
    """``f(value, *new)``: a copy of *value*, an instance of the slotted record class *cls*, with the fields named by
    *changed* set to *new* (in that order), the others kept; as ``dataclasses.replace(value, **dict(zip(changed, new)))``
    gives, ``__post_init__`` included."""
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    unknown = set(changed) - set(names)
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines = [f"def evolve(value, {', '.join(f'new_{k}' for k in range(len(changed)))}):", "    made = new(cls)"]
    for i, name in enumerate(names):
        scope[f"set_{i}"] = getattr(cls, name).__set__  # the slot's own descriptor: no frozen __setattr__
        lines.append(f"    set_{i}(made, {f'new_{changed.index(name)}' if name in changed else 'value.' + name})")
    if hasattr(cls, "__post_init__"):
        lines.append("    made.__post_init__()")
    lines.append("    return made")
    exec("\n".join(lines), scope)  # noqa: S102 - the text is built from the class's own field names only
    made: Callable[..., T] = scope["evolve"]
    return made
