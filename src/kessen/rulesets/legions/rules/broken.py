"""Broken Formations: starting size, Break Point and losses (LI-BREAK-1..3, LI-BREAK-6, §5.9)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.legions.profiles import KNIGHTS_AND_TITANS, ModelType


@record
class FormationModels:
    """*count* models of one kind in a Formation at the start of the battle, *destroyed* of them since, and the
    Wounds lost by the surviving ones (§5.9)."""

    type: ModelType
    wounds: int = 1
    count: int = 1
    destroyed: int = 0
    wounds_lost: int = 0


@record
class BreakPointQuestion:
    """A Formation's models by kind, and whether it was already Broken (§5.9)."""

    models: tuple[FormationModels, ...]
    already_broken: bool = False


def counts_by_wounds(model_type: str) -> bool:
    """Knights and Titans count their Wounds for Break Points, every other model counts 1 (LI-BREAK-1, LI-BREAK-3).

    >>> counts_by_wounds("knight"), counts_by_wounds("super_heavy_vehicle")
    (True, False)
    """
    return model_type in KNIGHTS_AND_TITANS


def starting_size(models: Iterable[FormationModels]) -> int:
    """Every model counts 1, except that Knights and Titans count their starting Wounds (LI-BREAK-1)."""
    return sum(e.count * (e.wounds if counts_by_wounds(e.type) else 1) for e in models)


def break_point_of(size: int) -> int:
    """Half the starting size, rounded up (LI-BREAK-2).

    >>> break_point_of(28), break_point_of(27), break_point_of(37)
    (14, 14, 19)
    """
    return math.ceil(size / 2)


def losses(models: Iterable[FormationModels]) -> int:
    """Models destroyed, but every Wound lost for Knights and Titans, destroyed or not (LI-BREAK-3)."""
    return sum(e.destroyed * e.wounds + e.wounds_lost if counts_by_wounds(e.type) else e.destroyed for e in models)


def is_broken(*, losses: int, break_point: int, already_broken: bool) -> bool:
    """Broken once losses reach the Break Point [DECISION LI-BREAK-3], and Broken for good (LI-BREAK-6).

    >>> is_broken(losses=19, break_point=19, already_broken=False), is_broken(losses=0, break_point=5, already_broken=True)
    (True, True)
    """
    return already_broken or losses >= break_point


@record
class BreakPointOutcome:
    """The outcome fields of ``break_point`` (§5.9)."""

    break_point: int
    losses: int
    broken: bool


def break_point(question: BreakPointQuestion) -> Dist[BreakPointOutcome]:
    """A Formation's Break Point, losses and Broken state, with certainty (§5.9)."""
    point, lost = break_point_of(starting_size(question.models)), losses(question.models)
    broken = is_broken(losses=lost, break_point=point, already_broken=question.already_broken)
    return Dist.always(BreakPointOutcome(point, lost, broken))
