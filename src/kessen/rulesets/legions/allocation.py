"""Allocating hits and resolving them one at a time: the shared routine R (LI-ALLOC, LI-SAVE, LI-VOID, §5.1).

Only the save dice are random and a passed save changes nothing, so the whole Detachment's state
after each hit is the *current model* (the first allocatable model not destroyed, LI-ALLOC-3) with
its Wounds and Void Shields left: every model before it is destroyed, every model after it
untouched. R is a Markov chain over that small state, one hit at a time, merging equal states.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

from kessen.dice import Dist
from kessen.rulesets.legions.profiles import TargetProfile
from kessen.rulesets.legions.saves import Attack, save_chance, save_target, shield_ap

State = tuple[int, int, int]
"""(index of the current model in the allocation order, its Wounds left, its Void Shields left)."""


@dataclass(frozen=True, slots=True)
class HitsResolved:
    """What R did to the target: Wounds lost, models destroyed, Void Shield levels removed (§5.1)."""

    wounds: int
    destroyed: int
    shields_lost: int


def allocation_order(models: Sequence[TargetProfile], allocatable: Sequence[bool]) -> tuple[TargetProfile, ...]:
    """The target controller's allocation order: allocatable wounded models first, then the rest (LI-ALLOC-2, LI-ALLOC-3).

    Within each group the list order is the controller's preference (§5.1 step 2); models that may
    not be allocated hits are left out (they can never lose Wounds to this attack).
    """
    return tuple(models[i] for i in allocation_indices(models, allocatable))


def allocation_indices(models: Sequence[TargetProfile], allocatable: Sequence[bool]) -> tuple[int, ...]:
    """The allocation order as indices into *models*: allocatable wounded models first, then the rest (LI-ALLOC-3).

    The engine uses it to know which model of the Detachment took each hit.

    >>> from kessen.rulesets.legions.profiles import TargetProfile
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


def _start(order: tuple[TargetProfile, ...], index: int) -> State:
    if index == len(order):
        return (index, 0, 0)
    return (index, order[index].wounds_remaining, order[index].void_shields)


def _next_states(order: tuple[TargetProfile, ...], attack: Attack, state: State) -> Dist[State]:
    """One hit allocated to the current model and resolved (§5.1 steps 3–6)."""
    index, wounds_left, shields_left = state
    if index == len(order):
        return Dist.always(state)  # LI-ALLOC-4: no eligible model left, the hit is discarded
    model = order[index]
    if shields_left:  # LI-VOID-2: the hit goes to the shields; no save is rolled
        if shield_ap(attack, model.type) <= -1:
            return Dist.always((index, wounds_left, shields_left - 1))
        return Dist.always(state)
    passed = save_chance(save_target(model, attack))
    failed = _start(order, index + 1) if wounds_left == 1 else (index, wounds_left - 1, 0)
    return Dist.bernoulli(passed, success=state, failure=failed)


@lru_cache(maxsize=4096)
def _states_after(order: tuple[TargetProfile, ...], attack: Attack, hits: int) -> Dist[State]:
    if hits == 0:
        return Dist.always(_start(order, 0))
    return _states_after(order, attack, hits - 1).bind(lambda state: _next_states(order, attack, state))


@lru_cache(maxsize=4096)
def _before(order: tuple[TargetProfile, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Wounds and Void Shields of the models before each index (all of them lost once it is current)."""
    return (
        tuple(accumulate((m.wounds_remaining for m in order), initial=0)),
        tuple(accumulate((m.void_shields for m in order), initial=0)),
    )


def _outcome(order: tuple[TargetProfile, ...], state: State) -> HitsResolved:
    index, wounds_left, shields_left = state
    wounds_before, shields_before = _before(order)
    if index == len(order):
        return HitsResolved(wounds_before[index], index, shields_before[index])
    current = order[index]
    return HitsResolved(
        wounds_before[index] + current.wounds_remaining - wounds_left,
        index,
        shields_before[index] + current.void_shields - shields_left,
    )


@lru_cache(maxsize=4096)
def resolve(order: tuple[TargetProfile, ...], attack: Attack, hits: int) -> Dist[HitsResolved]:
    """The exact result of *hits* hits allocated in *order* and resolved one at a time (§5.1, R).

    *order* is the allocation order (:func:`allocation_order`). Each hit goes to the first model
    not yet destroyed (LI-ALLOC-1, LI-ALLOC-3); active Void Shields take it without a save
    (LI-VOID-2, LI-ARC-3); otherwise one save with the best characteristic (LI-SAVE-1), a failure
    costing one Wound (LI-SAVE-3, LI-WOUND-1); hits left when no model is left are discarded
    (LI-ALLOC-4). Memoised per hit count, so every count up to 60 costs one step of the chain.
    """
    return _states_after(order, attack, hits).map(lambda state: _outcome(order, state))
