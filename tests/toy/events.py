"""The toy's events."""

from __future__ import annotations

from dataclasses import dataclass

from kessen.core.events import Event


@dataclass(frozen=True, slots=True)
class Dashed(Event):
    """A side dashed (TOY-1)."""

    type = "dashed"
    side: str
    squares: int
    made_it: bool
