"""The choices a player makes: a dash of some squares, confirming the racer's place."""

from __future__ import annotations

from kessen.core.records import record


@record
class Dash:
    """A dash of *squares* squares (TOY-1)."""

    squares: int


@record
class Confirm:
    """The racer's place on square 8 or beyond confirmed (TOY-2)."""
