"""Allocating hits and resolving them one at a time: the shared routine R (LI-ALLOC, LI-SAVE, LI-VOID, §5.1).

Only the save dice are random and a passed save changes nothing, so the hits always strip the
Detachment in the same order: the current model's Void Shields, then its Wounds one by one, then
the next model in allocation order (LI-ALLOC-3, LI-VOID-2). That order is the *damage track*;
the Detachment's whole state after any number of hits is how far along the track it is (the
losses taken so far). R is then a chain over one integer: each hit either stops where it is
(a passed save) or takes the next loss (a failed save, a shield struck down). The track ends
early where no hit can get through: shields the weapon cannot bring down, or a save that always
passes; every later hit changes nothing, as does every hit once no model is left (LI-ALLOC-4).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.legions.rules.saves import Attack, TargetProfile, save_faces, save_target, shield_ap

SIDES = 6
"""Every chance in R is counted in faces of one D6: a hit *stopped* on so many faces out of 6."""


@record
class HitsResolved:
    """What R did to the target: Wounds lost, models destroyed, Void Shield levels removed (§5.1)."""

    wounds: int
    destroyed: int
    shields_lost: int


@record
class Loss:
    """One loss on the damage track: a Void Shield level or one Wound of the current model.

    ``stopped`` is how many faces of 6 stop a hit allocated here (a passed save; 0 for a shield
    the hit always brings down); ``after`` is what R has done once this loss is taken; ``model`` is the place in
    the allocation order of the model that takes it, ``save`` the score its save needs (None for a Void Shield,
    which takes the hit without a save, or a model with no usable Save).
    """

    stopped: int
    after: HitsResolved
    model: int
    save: int | None


@record
class TrackEnd:
    """Where the hits past the end of the damage track go: the model (its place in the allocation order) whose save
    always passes, and the score it needs; none when they are discarded (no model left, or shields the weapon
    cannot bring down, LI-ALLOC-4, LI-VOID-2)."""

    model: int
    save: int


def allocation_order(models: Sequence[TargetProfile], allocatable: Sequence[bool]) -> tuple[TargetProfile, ...]:
    """The target controller's allocation order: allocatable wounded models first, then the rest (LI-ALLOC-2, LI-ALLOC-3).

    Within each group the list order is the controller's preference (§5.1 step 2); models that may
    not be allocated hits are left out (they can never lose Wounds to this attack).
    """
    return tuple(models[i] for i in allocation_indices(models, allocatable))


def allocation_indices(models: Sequence[TargetProfile], allocatable: Sequence[bool]) -> tuple[int, ...]:
    """The allocation order as indices into *models*: allocatable wounded models first, then the rest (LI-ALLOC-3).

    The engine uses it to know which model of the Detachment took each hit.

    >>> fresh, hurt = TargetProfile("vehicle", 2, 2, 4), TargetProfile("vehicle", 2, 1, 4)
    >>> allocation_indices([fresh, hurt, fresh], [True, True, False])
    (1, 0)
    """
    chosen = [i for i, ok in enumerate(allocatable) if ok]
    assert len(allocatable) == len(models)
    return tuple([i for i in chosen if models[i].is_wounded] + [i for i in chosen if not models[i].is_wounded])


def morale_threshold_reached(wounds: int, models_at_start: int) -> bool:
    """An attack that costs at least half the Detachment's models (rounded up) in Wounds triggers a check (LI-MORALE-1).

    >>> morale_threshold_reached(4, 8), morale_threshold_reached(3, 8), morale_threshold_reached(1, 2)
    (True, False, True)
    """
    return wounds >= math.ceil(models_at_start / 2)


def damage_track(order: Sequence[TargetProfile], attack: Attack) -> tuple[Loss, ...]:
    """Every loss the Detachment can take from this attack, in the order the hits take them (§5.1 steps 3–6).

    Each hit goes to the first model of *order* not destroyed (LI-ALLOC-1, LI-ALLOC-3). Its
    active Void Shields take the hit first, without a save: one level is lost if the hit's AP is
    −1 or better, else the hit is discarded and so is every later one (LI-VOID-2, LI-ARC-3), and
    the track ends. Then each of its Wounds is lost to a failed save with its best Save
    characteristic (LI-SAVE-1, LI-SAVE-3, LI-WOUND-1); a save that always passes ends the track.
    After the last model the track ends: further hits are discarded (LI-ALLOC-4).

    
    >>> [(loss.stopped, loss.after.wounds) for loss in damage_track([TargetProfile("vehicle", 2, 2, 4)], Attack())]
    [(3, 1), (3, 2)]
    """
    return damage_track_and_end(order, attack)[0]


def damage_track_and_end(order: Sequence[TargetProfile], attack: Attack) -> tuple[tuple[Loss, ...], TrackEnd | None]:
    """:func:`damage_track`, and where the hits past its end go (:class:`TrackEnd`)."""
    track: list[Loss] = []
    wounds = destroyed = shields = 0
    for place, model in enumerate(order):
        if model.void_shields and shield_ap(attack, model.type) > -1:
            return tuple(track), None
        for _ in range(model.void_shields):
            shields += 1
            track.append(Loss(0, HitsResolved(wounds, destroyed, shields), place, None))
        target = save_target(model, attack)
        stopped = save_faces(target)
        if stopped == SIDES:
            assert target is not None
            return tuple(track), TrackEnd(place, target)
        for wound in range(model.wounds_remaining, 0, -1):
            wounds += 1
            destroyed += wound == 1
            track.append(Loss(stopped, HitsResolved(wounds, destroyed, shields), place, target))
    return tuple(track), None


def results_along(track: Sequence[Loss]) -> tuple[HitsResolved, ...]:
    """What R has done after 0, 1, 2, … losses of *track*."""
    return (HitsResolved(0, 0, 0), *(loss.after for loss in track))


def losses_after_each_hit(track: Sequence[Loss], hits: int) -> list[list[int]]:
    """For every hit count h up to *hits*: the weights, out of 6**h, of having taken 0, 1, 2, … losses (§5.1, R).

    One sweep of the chain answers every hit count at once: the state after h + 1 hits is one
    more hit on the state after h. A hit at loss p stays there on ``track[p].stopped`` faces and
    moves on to p + 1 on the others; at the end of the track it always stays. Plain integer
    weights with a common denominator, so no fraction is built per step.

    >>> track = damage_track([TargetProfile("infantry", 1, 1, 4)], Attack())
    >>> losses_after_each_hit(track, 2)
    [[1], [3, 3], [9, 27]]
    """
    stays = [loss.stopped for loss in track] + [SIDES]
    moves = [SIDES - stay for stay in stays]
    weights = [1]
    rows = [weights]
    for _ in range(hits):
        taken = [w * stay for w, stay in zip(weights, stays)] + [0]
        for p, w in enumerate(weights):
            taken[p + 1] += w * moves[p]
        weights = taken[: len(stays)]
        rows.append(weights)
    return rows


def resolve(order: tuple[TargetProfile, ...], attack: Attack, hits: int) -> Dist[HitsResolved]:
    """The exact result of *hits* hits allocated in *order* and resolved one at a time (§5.1, R).

    *order* is the allocation order (:func:`allocation_order`); the hits run down the
    :func:`damage_track` (LI-ALLOC, LI-VOID-2, LI-SAVE-1, LI-SAVE-3, LI-WOUND-1, LI-ALLOC-4).
    """
    track = damage_track(order, attack)
    results = results_along(track)
    weights = losses_after_each_hit(track, hits)[hits]
    return Dist({results[p]: w for p, w in enumerate(weights) if w})
