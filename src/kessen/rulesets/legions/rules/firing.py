"""Firing: a weapon profile's hit rolls at one target, then resolving the hits (LI-FIRE-1, §5.2, §5.3).

The procedures read a *question*: plain frozen values (hit dice, the summed hit modifier, the attack, the target's
models in list order with whether each may be allocated hits and from which arc). The odds inputs are turned
into questions (``procedures``); the engine asks them directly, with each target model's own arc.
"""

from __future__ import annotations

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw
from kessen.rulesets.legions.rules.allocation import (
    SIDES,
    allocation_order,
    damage_track,
    losses_after_each_hit,
    morale_threshold_reached,
    resolve,
    results_along,
)
from kessen.rulesets.legions.rules.faces import SaveShown, VolleyShown, hit_faces, saves_shown
from kessen.rulesets.legions.rules.hit_rolls import hit_pool
from kessen.rulesets.legions.rules.saves import Attack, TargetProfile


MAX_TARGET_MODELS = 30
"""The most target models an odds input holds (§5.1); no Detachment holds more."""
MAX_HIT_DICE = 60
"""The most hit dice a ``fire`` input rolls (§5.2): the engine splits a larger volley into several, which changes no
probability (LI-FAST-1), so that every volley is a question ``kessen odds`` can ask too."""


@record
class ResolveHitsOutcome:
    """The outcome fields of ``resolve_hits`` (§5.3); in a battle, *dice* are each hit's save (:func:`resolve_faces`)."""

    wounds: int
    destroyed: int
    shields_lost: int
    morale_threshold_reached: bool
    dice: tuple[SaveShown, ...] = dice_field()


@record
class FireOutcome:
    """The outcome fields of ``fire`` (§5.2); in a battle, *dice* are its hit dice and saves (:func:`fire_faces`)."""

    hits: int
    wounds: int
    destroyed: int
    shields_lost: int
    morale_threshold_reached: bool
    dice: VolleyShown | None = dice_field(None)


@record
class HitsQuestion:
    """Hits resolved against a Detachment (§5.1, R): the attack and T, the Detachment's models at the start of the
    attack in list order, each with whether it may be allocated hits (LI-ALLOC-2) and its own arc (LI-ARC-1)."""

    hits: int
    attack: Attack
    models: tuple[TargetProfile, ...]
    allocatable: tuple[bool, ...]


@record
class FireQuestion:
    """One weapon profile's hit dice at a target, then R (§5.2): *modifier* is the sum of every hit modifier,
    the Engaged-target and obscuration penalties included (LI-HIT-4); the models as in :class:`HitsQuestion`."""

    dice: int
    to_hit: int
    modifier: int
    attack: Attack
    models: tuple[TargetProfile, ...]
    allocatable: tuple[bool, ...]


def resolve_hits(question: HitsQuestion) -> Dist[ResolveHitsOutcome]:
    """Automatic or already rolled hits resolved against a Detachment (LI-HIT-3, §5.3): R."""
    order = allocation_order(question.models, question.allocatable)
    size = len(question.models)
    return resolve(order, question.attack, question.hits).map(
        lambda r: ResolveHitsOutcome(r.wounds, r.destroyed, r.shields_lost, morale_threshold_reached(r.wounds, size))
    )


def fire(question: FireQuestion) -> Dist[FireOutcome]:
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


def resolve_faces(question: HitsQuestion, outcome: ResolveHitsOutcome, draw: Draw) -> tuple[SaveShown, ...]:
    """The saves behind *outcome*, hit by hit; with :func:`resolve_hits`' result, exactly the odds of rolling them
    (§5.1 R)."""
    return saves_shown(
        draw, models=question.models, allocatable=question.allocatable, attack=question.attack, hits=question.hits,
        losses=outcome.wounds + outcome.shields_lost,
    )


def fire_faces(question: FireQuestion, outcome: FireOutcome, draw: Draw) -> VolleyShown:
    """The hit dice and saves behind *outcome*; with :func:`fire`'s result, exactly the odds of rolling them
    (LI-HIT-1, LI-HIT-2, §5.1 R)."""
    hits = hit_faces(draw, dice=question.dice, hits=outcome.hits, to_hit=question.to_hit, modifier=question.modifier)
    saves = saves_shown(
        draw, models=question.models, allocatable=question.allocatable, attack=question.attack, hits=outcome.hits,
        losses=outcome.wounds + outcome.shields_lost,
    )
    return VolleyShown(hits, saves)
