"""Firing: a weapon profile's hit rolls at one target, then resolving the hits (LI-FIRE-1, §5.2, §5.3).

The procedures read a *question*: plain frozen values (hit dice, the summed hit modifier, the attack, the target's
models in list order with whether each may be allocated hits). The odds inputs (``FireInput``,
``ResolveHitsInput``) are turned into questions; the engine asks them directly, with each target model's own arc.
"""

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
from kessen.rulesets.legions.inputs import FireInput, ResolveHitsInput
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


@dataclass(frozen=True, slots=True)
class HitsQuestion:
    """Hits resolved against a Detachment (§5.1, R): the attack and T, the Detachment's models at the start of the
    attack in list order, each with whether it may be allocated hits (LI-ALLOC-2) and its own arc (LI-ARC-1)."""

    hits: int
    attack: Attack
    models: tuple[TargetProfile, ...]
    allocatable: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class FireQuestion:
    """One weapon profile's hit dice at a target, then R (§5.2): *modifier* is the sum of every hit modifier,
    the Engaged-target and obscuration penalties included (LI-HIT-4); the models as in :class:`HitsQuestion`."""

    dice: int
    to_hit: int
    modifier: int
    attack: Attack
    models: tuple[TargetProfile, ...]
    allocatable: tuple[bool, ...]


def resolve_hits_of(question: HitsQuestion) -> Dist[ResolveHitsOutcome]:
    """Automatic or already rolled hits resolved against a Detachment (LI-HIT-3, §5.3): R."""
    order = allocation_order(question.models, question.allocatable)
    size = len(question.models)
    return resolve(order, question.attack, question.hits).map(
        lambda r: ResolveHitsOutcome(r.wounds, r.destroyed, r.shields_lost, morale_threshold_reached(r.wounds, size))
    )


def fire_of(question: FireQuestion) -> Dist[FireOutcome]:
    """One weapon profile fired at one target: hit rolls, then R (LI-FIRE-1, LI-HIT, §5.2).

    The hits may go only to the allocatable models (LI-ALLOC-2, LI-OBSC-2); each hit's save uses the arc of the
    model it is allocated to (LI-ARC-1). One sweep of R's chain gives the result of every possible number of
    hits, each weighed by the chance of rolling that many (LI-FAST-1).
    """
    track = damage_track(allocation_order(question.models, question.allocatable), question.attack)
    size = len(question.models)
    results = [
        (r.wounds, r.destroyed, r.shields_lost, morale_threshold_reached(r.wounds, size)) for r in results_along(track)
    ]
    dice = question.dice
    losses = losses_after_each_hit(track, dice)
    # after h hits R's weights are out of 6**h: bring every hit count to the common 6**dice; each
    # (hits, losses taken) is a different outcome (wounds + shields_lost = losses), so none merge
    return Dist(
        {
            FireOutcome(hits, *results[p]): rolled * SIDES ** (dice - hits) * w
            for hits, rolled in hit_pool(dice, to_hit=question.to_hit, modifier=question.modifier).items()
            for p, w in enumerate(losses[hits])
            if w
        }
    )


def _attack(value: FireInput | ResolveHitsInput) -> Attack:
    return Attack(value.ap, value.light_at, value.armour_save_modifier)


def _expanded(value: FireInput | ResolveHitsInput) -> tuple[TargetProfile, ...]:
    """T: each entry's ``count`` copies next to each other, in entry order (§5.1 step 1), all hit from the rear arc
    when the input says so."""
    return tuple(p for e in value.target_models for p in [e.profile(rear_arc=value.rear_arc)] * e.count)


def resolve_hits_question(value: ResolveHitsInput) -> HitsQuestion:
    """The question of a ``resolve_hits`` input: every eligible model may be allocated hits (§5.3)."""
    allocatable = tuple(e.eligible for e in value.target_models for _ in range(e.count))
    return HitsQuestion(value.hits, _attack(value), _expanded(value), allocatable)


def fire_question(value: FireInput) -> FireQuestion:
    """The question of a ``fire`` input (§5.2): the hit modifier adds up the other modifiers, the Engaged-target
    penalty and the chosen obscuration penalty (LI-HIT-4, LI-TGT-5); hits may go only to eligible models hidden no
    more than that penalty (LI-ALLOC-2, LI-OBSC-2)."""
    modifier = value.hit_modifier - engaged_penalty(value.scale, value.target_engaged_with_scales) - value.penalty
    allocatable = tuple(
        may_receive_hits(eligible=e.eligible, own_penalty=e.penalty, chosen_penalty=value.penalty)
        for e in value.target_models
        for _ in range(e.count)
    )
    return FireQuestion(value.firing_models * value.dice, value.to_hit, modifier, _attack(value), _expanded(value), allocatable)


def resolve_hits(value: ResolveHitsInput) -> Dist[ResolveHitsOutcome]:
    """The ``resolve_hits`` procedure (§5.3)."""
    return resolve_hits_of(resolve_hits_question(value))


def fire(value: FireInput) -> Dist[FireOutcome]:
    """The ``fire`` procedure (§5.2)."""
    return fire_of(fire_question(value))
