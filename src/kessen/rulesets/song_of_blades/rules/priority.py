"""Melee priority: which enemies in contact a model may attack (optional rule, SB-PRIO-*)."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Collection, Sequence
from typing import Any, Protocol

from kessen.dice import Dist
from kessen.rulesets.song_of_blades.profiles import MAY_ALWAYS_TARGET_FALLEN


def may_target(
    states: Sequence[str], points: Sequence[int], *, melee_priority: bool, special_rules: Collection[str]
) -> tuple[bool, ...]:
    """For each enemy in contact, whether it may be the target of a melee attack (SB-PRIO-1..4).

    Transfixed enemies count as standing for this rule (SB-PRIO-1); each fallen enemy is compared
    on its own against the points of all non-fallen enemies (SB-PRIO-3).

    >>> may_target(["standing", "fallen"], [30, 40], melee_priority=True, special_rules=frozenset())
    (True, True)
    >>> may_target(["standing", "fallen"], [50, 40], melee_priority=True, special_rules=frozenset())
    (True, False)
    """
    upright = [p for s, p in zip(states, points) if s != "fallen"]
    if not melee_priority or not MAY_ALWAYS_TARGET_FALLEN.isdisjoint(special_rules) or not upright:
        return tuple(True for _ in states)  # SB-PRIO-2, SB-PRIO-4
    total = sum(upright)
    return tuple(s != "fallen" or total <= p for s, p in zip(states, points))


class Contact(Protocol):
    """An enemy in contact as melee priority reads it: its state and its points (the odds input's ``TargetEnemy``)."""

    @property
    def state(self) -> str: ...

    @property
    def points(self) -> int: ...


def melee_targets(enemies: Sequence[Contact], *, melee_priority: bool, special_rules: Collection[str]) -> Dist[Any]:
    """The one outcome: ``target_1`` … ``target_n``, whether each enemy in contact may be attacked (§6.5)."""
    states, points = [e.state for e in enemies], [e.points for e in enemies]
    allowed = may_target(states, points, melee_priority=melee_priority, special_rules=special_rules)
    return Dist.always(tuple.__new__(_targets_outcome(len(allowed)), allowed))  # the named tuple, made in C


_outcome_types: dict[int, Any] = {}


def _targets_outcome(n: int) -> Any:
    """The outcome type with fields target_1 … target_n, one per size: a named tuple (made and hashed in C)."""
    found = _outcome_types.get(n)
    if found is None:
        found = _outcome_types[n] = namedtuple(f"MeleeTargets{n}", [f"target_{i}" for i in range(1, n + 1)])
    return found
