"""Choosing a target: line of sight, range, and the attacks a Detachment may declare (LI-TGT-1..4, LI-FIRE-2,
LI-FIRE-3, LI-OBSC-2, LI-WD-9)."""

from __future__ import annotations

import itertools
from typing import Any

from kessen.core.records import record
from kessen.rulesets.legions.referee.battlefield import can_see, distances
from kessen.rulesets.legions.referee.memo import MISSING
from kessen.rulesets.legions.referee.state import Detachment, LiState, Model, board_fact


@record
class Fire:
    """Fire at *target* (LI-FIRE-2), with a profile per multi-profile weapon (LI-FIRE-3) and the obscuration penalty
    chosen against obscured Knights and Titans (LI-OBSC-2): every weapon in range of every model, or only the
    (model, weapon) pairs of *weapons* (a model may fire all or only some of its weapons, LI-FIRE-2)."""

    target: str
    profiles: tuple[tuple[str, int], ...] = ()
    penalty: int = 0
    weapons: frozenset[tuple[str, str]] | None = None


@record
class HoldFire:
    """Do nothing with the activation (LI-ACT-5)."""


Seen = tuple[tuple[Model, float], ...]
"""Models of a target in a firer's sight, each with its distance from the firer."""


def in_sight(state: LiState, firer: Model, target: Detachment) -> Seen:
    """The models of the target the firer can see, each with its distance, in the target's order (LI-TGT-1, §3.7)."""
    blocked = state.no_sight
    if blocked:
        seen = [m for m in target.live if can_see(state, firer, m)]
    else:  # ``can_see`` without a pair the scenario blocks: only what the model shows (read once, not per pair)
        seen = [m for m in target.live if m.obscured != 100]
    return tuple(zip(seen, distances(firer, seen)))


def closest_visible(state: LiState, firer: Model, target: Detachment) -> float | None:
    """The distance to the closest model of the target the firer can see, or None (LI-TGT-1, LI-TGT-2)."""
    return _closest(in_sight(state, firer, target))


def _closest(seen: Seen) -> float | None:
    return min(gap for _, gap in seen) if seen else None


@board_fact
def sightlines(state: LiState, det: Detachment, target: Detachment) -> tuple[tuple[Model, float | None, Seen], ...]:
    """Each model of *det* with ``closest_visible`` and ``in_sight`` of the target (LI-TGT-1, LI-TGT-2). Kept on
    *det* while neither Detachment's models change: a search's positions differ in a Detachment or two, and the
    others see each other as before (issue 23 §2)."""
    known = det.sights.get(target.id)
    blocked = state.no_sight
    if known is not None and known[0] is target.models and known[1] is blocked:
        found: tuple[tuple[Model, float | None, Seen], ...] = known[2]
        return found
    found = tuple((f, _closest(seen), seen) for f in det.live for seen in (in_sight(state, f, target),))
    det.sights[target.id] = (target.models, blocked, found)
    return found


def weapons_in_range(firer: Model, reach: float) -> tuple[tuple[str, int], ...]:
    """The (weapon, profile) pairs of a model that reach a target at *reach* inches (LI-TGT-2)."""
    return tuple((w.name, i) for w in firer.weapons for i, p in enumerate(w.profiles) if p.range >= reach)


def can_fire(det: Detachment) -> bool:
    """A Detachment whose models made a Withdrawal move this round cannot fire (LI-WD-9)."""
    return not det.withdrew_this_round


Enemies = tuple[tuple[int, tuple[Model, ...], bool, bool], ...]
"""What ``targets`` and ``fire_options`` read of the enemy Detachments of a state: each one's place among the
state's Detachments, its models, whether it is Pinned and whether it is in Reserve."""


def enemies_of(state: LiState, det: Detachment) -> Enemies:
    """What ``targets`` and ``fire_options`` read of the Detachments of the state not *det*'s owner's."""
    return tuple((k, e.models, e.pinned, e.in_reserve) for k, e in enumerate(state.detachments) if e.owner != det.owner)


def _aimed(state: LiState, det: Detachment, key: str, enemies: Enemies) -> Any:
    """What *det* kept under *key* (``Detachment.aims``) if it was worked out against the very same enemy models,
    statuses and blocked sight pairs, else MISSING: a search's positions differ in a Detachment or two, and the
    others aim as before (issue 23 §2)."""
    known = det.aims.get(key)
    if known is None or known[0] is not state.no_sight or len(known[1]) != len(enemies):
        return MISSING
    for (k, models, pinned, reserve), (j, now, pinned_now, reserve_now) in zip(known[1], enemies, strict=True):
        if models is not now or k != j or pinned != pinned_now or reserve != reserve_now:
            return MISSING
    return known[2]


@board_fact
def targets(state: LiState, det: Detachment) -> tuple[str, ...]:
    """The enemy Detachments it may fire at: on the battlefield, not Engaged & Pinned (LI-TGT-4), with at
    least one model in sight (LI-TGT-1) and in range of a weapon (LI-TGT-2, LI-TGT-3), nearest first."""
    if not can_fire(det):
        return ()
    enemies = enemies_of(state, det)
    known = _aimed(state, det, "targets", enemies)
    if known is not MISSING:
        kept: tuple[str, ...] = known
        return kept
    found: list[tuple[float, int, str]] = []
    for k, enemy in enumerate(state.detachments):
        if enemy.owner == det.owner or not enemy.on_battlefield or enemy.pinned:
            continue
        reach = [r for f, r, _ in sightlines(state, det, enemy) if r is not None and f.longest_range >= r]
        if reach:
            found.append((min(reach), k, enemy.id))
    result = tuple(t for _, _, t in sorted(found))
    det.aims["targets"] = (state.no_sight, enemies, result)
    return result


@board_fact
def fire_options(state: LiState, det: Detachment) -> tuple[Fire | HoldFire, ...]:
    """Every attack the Detachment may declare, then holding fire (LI-FIRE-2, LI-FIRE-3, LI-OBSC-2).

    Default first [DECISION]: the nearest target, each weapon's first profile, the largest
    obscuration penalty present (the penalty that lets every model receive hits, §5.2).
    """
    enemies = enemies_of(state, det)
    known = _aimed(state, det, "fire_options", enemies)
    if known is not MISSING:
        kept: tuple[Fire | HoldFire, ...] = known
        return kept
    options: list[Fire | HoldFire] = []
    for target_id in targets(state, det):
        target = state.detachment(target_id)
        multi: dict[str, int] = {}
        penalties: set[int] = set()
        for f, reach, seen in sightlines(state, det, target):
            if reach is None:
                continue
            for w in f.weapons:
                if len(w.profiles) > 1 and any(p.range >= reach for p in w.profiles):
                    multi[w.name] = len(w.profiles)
            longest = f.longest_range
            penalties.update(m.penalty for m, gap in seen if longest >= gap)
        choices = list(itertools.product(*(range(n) for n in multi.values())))  # at most MAX_PROFILE_COMBINATIONS
        for penalty in sorted(penalties, reverse=True):
            for combo in choices:
                options.append(Fire(target_id, tuple(zip(multi, combo)), penalty))
    result = tuple(options) + (HoldFire(),)
    det.aims["fire_options"] = (state.no_sight, enemies, result)
    return result
