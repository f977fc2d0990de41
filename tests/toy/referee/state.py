"""The race as the engine holds it: the sides, where each racer stands, the turn and the pending steps."""

from __future__ import annotations

from typing import Any

from kessen.core.records import evolve, record

GOAL, TURNS = 10, 12
"""The square that wins, and the turns after which the race is a draw (TOY-3)."""


@record
class ToyState:
    sides: tuple[str, str]
    position: tuple[int, int] = (0, 0)
    turn: int = 0
    pending: tuple[Any, ...] = ()
    confirmed: tuple[bool, bool] = (False, False)


def with_pending(state: ToyState, pending: tuple[Any, ...]) -> ToyState:
    return evolve(state, pending=pending)
