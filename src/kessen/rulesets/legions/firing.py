"""Firing: a weapon profile's hit rolls at one target, then resolving the hits (LI-FIRE-1, §5.2, §5.3)."""

from __future__ import annotations

from dataclasses import dataclass

from kessen.dice import Dist
from kessen.rulesets.legions.allocation import (
    SIDES,
    allocation_order,
    damage_track,
    losses_after_each_hit,
    morale_threshold_reached,
    resolve,
    results_along,
)
from kessen.rulesets.legions.hit_rolls import hit_pool
from kessen.rulesets.legions.inputs import FireInput, ResolveHitsInput, TargetModelInput
from kessen.rulesets.legions.profiles import TargetProfile
from kessen.rulesets.legions.saves import Attack
from kessen.rulesets.legions.targeting import engaged_penalty, may_receive_hits


@dataclass(frozen=True, slots=True)
class ResolveHitsOutcome:
    """The outcome fields of ``resolve_hits`` (§5.3)."""

    wounds: int
    destroyed: int
    shields_lost: int
    morale_threshold_reached: bool


@dataclass(frozen=True, slots=True)
class FireOutcome:
    """The outcome fields of ``fire`` (§5.2)."""

    hits: int
    wounds: int
    destroyed: int
    shields_lost: int
    morale_threshold_reached: bool


def _expanded(entries: FireInput | ResolveHitsInput) -> tuple[tuple[TargetProfile, ...], tuple[TargetModelInput, ...]]:
    """T: each entry's ``count`` copies next to each other, in entry order (§5.1 step 1), with their entries."""
    profiles: list[TargetProfile] = []
    sources: list[TargetModelInput] = []
    for entry in entries.target_models:
        profiles += [entry.profile()] * entry.count
        sources += [entry] * entry.count
    return tuple(profiles), tuple(sources)


def _attack(entries: FireInput | ResolveHitsInput) -> Attack:
    return Attack(entries.ap, entries.light_at, entries.rear_arc, entries.armour_save_modifier)


def resolve_hits(value: ResolveHitsInput) -> Dist[ResolveHitsOutcome]:
    """Automatic or already rolled hits resolved against a Detachment (LI-HIT-3, §5.3): R with eligible models."""
    models, sources = _expanded(value)
    order = allocation_order(models, [s.eligible for s in sources])
    return resolve(order, _attack(value), value.hits).map(
        lambda r: ResolveHitsOutcome(r.wounds, r.destroyed, r.shields_lost, morale_threshold_reached(r.wounds, len(models)))
    )


def fire(value: FireInput) -> Dist[FireOutcome]:
    """One weapon profile fired at one target: hit rolls, then R (LI-FIRE-1, LI-HIT, LI-TGT-5, LI-OBSC, §5.2).

    The hit modifier adds up the other modifiers, the Engaged-target penalty and the chosen
    obscuration penalty (LI-HIT-4); the hits may go only to eligible models hidden no more than
    that penalty (LI-ALLOC-2, LI-OBSC-2). One sweep of R's chain gives the result of every
    possible number of hits, each weighed by the chance of rolling that many (LI-FAST-1).
    """
    modifier = value.hit_modifier - engaged_penalty(value.scale, value.target_engaged_with_scales) - value.penalty
    models, sources = _expanded(value)
    allocatable = [
        may_receive_hits(eligible=s.eligible, own_penalty=s.penalty, chosen_penalty=value.penalty)
        for s in sources
    ]
    track = damage_track(allocation_order(models, allocatable), _attack(value))
    dice = value.firing_models * value.dice
    results = [
        (r.wounds, r.destroyed, r.shields_lost, morale_threshold_reached(r.wounds, len(models)))
        for r in results_along(track)
    ]
    losses = losses_after_each_hit(track, dice)
    # after h hits R's weights are out of 6**h: bring every hit count to the common 6**dice; each
    # (hits, losses taken) is a different outcome (wounds + shields_lost = losses), so none merge
    return Dist(
        {
            FireOutcome(hits, *results[p]): rolled * SIDES ** (dice - hits) * w
            for hits, rolled in hit_pool(dice, to_hit=value.to_hit, modifier=modifier).items()
            for p, w in enumerate(losses[hits])
            if w
        }
    )
