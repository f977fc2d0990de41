"""Broken Formations: starting size, Break Point and losses (LI-BREAK-1..3, LI-BREAK-6, §5.9)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from kessen.dice import Dist
from kessen.rulesets.legions.inputs import BreakPointInput, FormationEntry
from kessen.rulesets.legions.profiles import KNIGHTS_AND_TITANS


def starting_size(entries: tuple[FormationEntry, ...]) -> int:
    """Every model counts 1, except that Knights and Titans count their starting Wounds (LI-BREAK-1)."""
    return sum(e.count * (e.wounds if e.type in KNIGHTS_AND_TITANS else 1) for e in entries)


def break_point_of(size: int) -> int:
    """Half the starting size, rounded up (LI-BREAK-2).

    >>> break_point_of(28), break_point_of(27), break_point_of(37)
    (14, 14, 19)
    """
    return math.ceil(size / 2)


def losses(entries: tuple[FormationEntry, ...]) -> int:
    """Models destroyed, but every Wound lost for Knights and Titans, destroyed or not (LI-BREAK-3)."""
    return sum(
        e.destroyed * e.wounds + e.wounds_lost if e.type in KNIGHTS_AND_TITANS else e.destroyed for e in entries
    )


def is_broken(*, losses: int, break_point: int, already_broken: bool) -> bool:
    """Broken once losses reach the Break Point [DECISION LI-BREAK-3], and Broken for good (LI-BREAK-6).

    >>> is_broken(losses=19, break_point=19, already_broken=False), is_broken(losses=0, break_point=5, already_broken=True)
    (True, True)
    """
    return already_broken or losses >= break_point


@dataclass(frozen=True, slots=True)
class BreakPointOutcome:
    """The outcome fields of ``break_point`` (§5.9)."""

    break_point: int
    losses: int
    broken: bool


def break_point(value: BreakPointInput) -> Dist[BreakPointOutcome]:
    """A Formation's Break Point, losses and Broken state, with certainty (§5.9)."""
    point, lost = break_point_of(starting_size(value.models)), losses(value.models)
    return Dist.always(BreakPointOutcome(point, lost, is_broken(losses=lost, break_point=point, already_broken=value.already_broken)))
