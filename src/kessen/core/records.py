"""``@record``: the one way kessen declares an immutable value (a state, a step, an option, an event, an input), and
``evolve``: the next value with some fields changed, at the cost the hot path of a battle can pay.

A record is a frozen, slotted dataclass: fields are fixed at construction, and equal fields mean equal, hashable
values, which the step machine, the caches and the replays rely on.

A record the compiled engine reads at every step (a state and its parts, a model on the table) is declared with
the decorator ``record`` applies, written out: ``@dataclass(frozen=True, slots=True)``. mypyc recognises only that
spelling and compiles such a class as a native class, whose fields compiled code reads straight from a C struct,
about thirty times faster than from a Python class; ``@record`` classes stay Python classes there (issue 13 §3).

:func:`evolve` is ``dataclasses.replace`` for records (mypy checks its calls as ``replace``'s). ``replace`` collects
the fields by name and runs the frozen ``__init__`` (one ``object.__setattr__`` per field); a battle makes a new state
at every step, so here a copying function is written once per record class, as ``dataclasses`` writes an
``__init__``, and it fills the new value's slots through the slots' own setters (issue 13 §2). A field that is no
init field is either

- a **memo slot**, declared ``= memo("x", "y")`` with the fields it is worked out from: what is worked out from the
  other fields, kept on the new value when none of those fields changed and reset to None when one did; it never
  takes part in equality, hashing or the repr;
- or the record's own ``__post_init__``'s to fill again, which runs on the new value as ``replace`` runs it.

:func:`evolver` writes the same copy for a fixed list of changed fields, taking their new values in order: the
cheapest update for the few a battle makes most often.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar, dataclass_transform

T = TypeVar("T")


def memo(*sources: str, init: Literal[False] = False) -> Any:
    """A memo slot of a record, worked out from the init fields *sources* (every init field when none is named):
    None until it is filled (``object.__setattr__``), never compared, hashed or shown."""
    return dataclasses.field(default=None, init=init, compare=False, repr=False, metadata={"memo_from": frozenset(sources)})


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, memo))
def record(cls: type[T]) -> type[T]:
    """*cls* as a frozen, slotted dataclass, which pickles and copies as :func:`rebuilt` says."""
    made = dataclass(frozen=True, slots=True)(cls)
    picklable(made)
    return made


_INIT_NAMES: dict[type, tuple[str, ...]] = {}


def rebuilt(value: T) -> tuple[type[T], tuple[Any, ...]]:
    """How ``pickle`` and ``copy`` make a record again (its ``__reduce__``): its class called with its init fields.

    A memo slot is worked out again rather than carried (it may hold what cannot be pickled: a legions board fact is
    keyed by the function that answers it), and ``__post_init__`` fills again what it fills. The frozen dataclasses
    of the compiled engine need this: mypyc's own way sets each attribute, which a frozen class refuses, and a native
    class's ``__new__`` may call ``__init__`` (issue 22 §1).

    >>> import pickle
    >>> from kessen.core.geometry import Rect
    >>> pickle.loads(pickle.dumps(Rect(0.0, 0.0, 1.0, 2.0)))
    Rect(x0=0.0, y0=0.0, x1=1.0, y1=2.0)
    """
    cls = type(value)
    names = _INIT_NAMES.get(cls)
    if names is None:
        names = _INIT_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.init)  # type: ignore[arg-type]
    return cls, tuple(getattr(value, name) for name in names)


def picklable(*classes: type) -> None:
    """Make each record class of *classes* pickle and copy as :func:`rebuilt` says: ``@record`` does it for its own
    classes; a module that declares a record as ``@dataclass(frozen=True, slots=True)`` (the spelling mypyc compiles
    as a native class) names it here after it. A compiled class takes the method like any other class."""
    for cls in classes:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a record")
        cls.__reduce__ = rebuilt  # type: ignore[assignment]


_KEEP = object()
_COPIERS: dict[type, Callable[..., Any]] = {}


def _evolve(value: T, /, **changes: Any) -> T:
    """``dataclasses.replace(value, **changes)`` for a record, memo slots kept where their fields did not change.

    >>> from kessen.core.geometry import Rect
    >>> _evolve(Rect(0.0, 0.0, 1.0, 2.0), y1=5.0)
    Rect(x0=0.0, y0=0.0, x1=1.0, y1=5.0)
    """
    cls = type(value)
    copy = _COPIERS.get(cls)
    if copy is None:
        copy = _COPIERS[cls] = _written(cls, None)
    try:
        made: T = copy(value, **changes)
    except TypeError:
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(cls) if f.init})  # type: ignore[arg-type]
        if unknown:
            raise TypeError(f"{cls.__name__} has no init field {unknown[0]!r}") from None
        raise
    return made


if TYPE_CHECKING:
    from dataclasses import replace as evolve
else:
    evolve = _evolve


def equal(a: object, b: object) -> bool:
    """``a == b``, asked so that the compiled engine asks it too. mypyc compiles ``==`` and ``!=`` between two values
    of one ``@record`` class declared in a compiled module as ``is`` and ``is not`` (it does not see the ``__eq__`` the
    decorator adds); here the operands are objects, so the records' own ``__eq__`` answers. ``mypy`` reports every
    comparison that needs it (the plugin ``mypyc_checks.py``).

    >>> from kessen.core.geometry import Rect
    >>> equal(Rect(0.0, 0.0, 1.0, 1.0), Rect(0.0, 0.0, 1.0, 1.0))
    True
    """
    return a == b


def evolver(cls: type[T], *changed: str) -> Callable[..., T]:
    """``f(value, *new)``: a copy of *value*, a record of class *cls*, with the init fields named by *changed* set to
    *new* (in that order): what ``evolve(value, **dict(zip(changed, new)))`` gives."""
    settable = {f.name for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
    unknown = [name for name in changed if name not in settable]
    if unknown:
        raise TypeError(f"{cls.__name__} has no init field {unknown[0]!r} to change")
    return _written(cls, changed)


def _written(cls: type[T], changed: tuple[str, ...] | None) -> Callable[..., T]:
    """The copying function of *cls*, its text executed: positional new values of the fields *changed*, or (None)
    keyword-only new values that default to the kept ones for every init field."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    init = [f.name for f in fields if f.init]
    if any(name.startswith("_") for name in init):
        raise TypeError(f"{cls.__name__}: an init field whose name begins with _ would meet the copier's own names")
    memo_from: Mapping[str, frozenset[str]] = {f.name: f.metadata["memo_from"] for f in fields if "memo_from" in f.metadata}
    post_init = hasattr(cls, "__post_init__")
    scope: dict[str, Any] = {"_new": cls.__new__, "_cls": cls, "_KEEP": _KEEP}  # a native class refuses object.__new__
    if changed is None:
        lines = [f"def copy(_value, /, *, {', '.join(f'{n}=_KEEP' for n in init)}):"]
        new_value = {n: f"_value.{n} if {n} is _KEEP else {n}" for n in init}
        unchanged = {n: f"{n} is _KEEP" for n in init}
    else:
        lines = [f"def copy(_value, {', '.join(f'_new_{k}' for k in range(len(changed)))}):"]
        new_value = {n: f"_new_{changed.index(n)}" if n in changed else f"_value.{n}" for n in init}
        unchanged = {n: "False" if n in changed else "True" for n in init}
    lines.append("    _made = _new(_cls)")
    for i, f in enumerate(fields):
        scope[f"_set_{i}"] = getattr(cls, f.name).__set__  # the slot's own descriptor: no frozen __setattr__
        if f.init:
            lines.append(f"    _set_{i}(_made, {new_value[f.name]})")
        elif f.name in memo_from or not post_init:
            kept = " and ".join(unchanged[n] for n in sorted(memo_from.get(f.name) or init)) or "True"
            lines.append(f"    _set_{i}(_made, _value.{f.name} if {kept} else None)")
    if post_init:
        lines.append("    _made.__post_init__()")
    lines.append("    return _made")
    exec("\n".join(lines), scope)  # the text holds nothing but the record's own field names
    made: Callable[..., T] = scope["copy"]
    return made


__all__ = ["evolve", "evolver", "memo", "picklable", "rebuilt", "record"]
