"""``@record``: the one way kessen declares an immutable value (a state, a step, an option, an event, an input).

A record is a frozen, slotted dataclass: fields are fixed at construction, ``dataclasses.replace`` makes the next
value, and equal fields mean equal, hashable values, which the step machine, the caches and the replays rely on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """*cls* as a frozen, slotted dataclass."""
    return dataclass(frozen=True, slots=True)(cls)
