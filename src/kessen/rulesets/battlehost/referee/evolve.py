"""Cheap copies of a record with some fields changed, for the steps a battle takes thousands of times.

``dataclasses.replace`` looks up every field by name and runs the frozen ``__init__`` (a ``setattr`` through
``object`` per field); a game state has about twenty fields and is copied at every step. Here a function is written
once per record class (and set of changed fields) that sets the slots of a new instance directly: :func:`evolve` is
``dataclasses.replace`` for slotted records (mypy checks its calls as ``replace``'s), :func:`evolver` a function
taking the new values of given fields in order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

_KEEP = object()


def evolver(cls: type[T], *changed: str) -> Callable[..., T]:
    """``f(value, *new)``: a copy of *value*, an instance of the slotted record class *cls*, with the fields named by
    *changed* set to *new* (in that order), the others kept; what ``dataclasses.replace(value, **dict(zip(changed,
    new)))`` gives, ``__post_init__`` included."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    settable = {f.name for f in fields if f.init}
    unknown = [name for name in changed if name not in settable]
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r} to change")
    return _written(cls, [f.name for f in fields], changed)


def _written(cls: type[T], names: list[str], changed: tuple[str, ...] | None) -> Callable[..., T]:
    """The copying function's text, executed: positional new values for *changed*, or keyword-only new values that
    default to the kept ones for every init field when *changed* is None."""
    if any(name.startswith("_") for name in names):
        raise TypeError(f"{cls.__name__}: fields whose names begin with _ would meet the copying function's own names")
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_KEEP": _KEEP}
    if changed is None:
        settable = [f.name for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
        head = f"def evolve(_value, *, {', '.join(f'{n}=_KEEP' for n in settable)}):"
    else:
        settable = []
        head = f"def evolve(_value, {', '.join(f'_new_{k}' for k in range(len(changed)))}):"
    lines = [head, "    _made = _new(_cls)"]
    for i, name in enumerate(names):
        scope[f"_set_{i}"] = getattr(cls, name).__set__  # the slot's own descriptor: no frozen __setattr__
        if changed is not None and name in changed:
            value = f"_new_{changed.index(name)}"
        elif name in settable:
            value = f"_value.{name} if {name} is _KEEP else {name}"
        else:
            value = f"_value.{name}"
        lines.append(f"    _set_{i}(_made, {value})")
    if hasattr(cls, "__post_init__"):
        lines.append("    _made.__post_init__()")
    lines.append("    return _made")
    exec("\n".join(lines), scope)  # noqa: S102 - the text is built from the class's own field names only
    made: Callable[..., T] = scope["evolve"]
    return made


_BY_CLASS: dict[type, Callable[..., Any]] = {}


def _evolve(value: T, /, **changes: Any) -> T:
    cls = type(value)
    copy = _BY_CLASS.get(cls)
    if copy is None:
        copy = _BY_CLASS[cls] = _written(cls, [f.name for f in dataclasses.fields(cls)], None)  # type: ignore[arg-type]
    made: T = copy(value, **changes)
    return made


if TYPE_CHECKING:
    from dataclasses import replace as evolve
else:
    evolve = _evolve

__all__ = ["evolve", "evolver"]
