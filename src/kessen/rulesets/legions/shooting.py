"""Firing on the battlefield: targets, range, fire options, volleys and their results (LI-FIRE, LI-TGT, LI-ALLOC-2, LI-ARC).

A declared attack is split into **volleys**: the firing models of one weapon profile whose view of
the target is the same (which target models are in their range and sight, which they see from the
rear arc). Each volley is exactly one ``fire`` question (§5.2), so its dice are drawn from that
procedure's exact distribution; the volleys are resolved one after another in the declared weapon
order (LI-ALLOC-5), which the target's controlling player may change.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from kessen.dice import Dist
from kessen.rulesets.legions.allocation import allocation_indices
from kessen.rulesets.legions.battlefield import (
    can_see,
    distance,
    engaged_with,
    in_rear_arc,
)
from kessen.rulesets.legions.firing import FireOutcome, FireQuestion, fire_of
from kessen.rulesets.legions.inputs import MAX_HIT_DICE, MAX_TARGET_MODELS
from kessen.rulesets.legions.saves import Attack
from kessen.rulesets.legions.state import Detachment, LiState, Model, Profile
from kessen.rulesets.legions.targeting import engaged_penalty

Arc = Literal["front", "rear", "mixed"]


@dataclass(frozen=True, slots=True)
class Fire:
    """Fire every weapon in range at *target* (LI-FIRE-2), with a profile per multi-profile weapon (LI-FIRE-3)
    and the obscuration penalty chosen against obscured Knights and Titans (LI-OBSC-2)."""

    target: str
    profiles: tuple[tuple[str, int], ...] = ()
    penalty: int = 0


@dataclass(frozen=True, slots=True)
class HoldFire:
    """Do nothing with the activation (LI-ACT-5)."""


@dataclass(frozen=True, slots=True)
class Volley:
    """Some firing models of one weapon profile that see the target alike: one ``fire`` question."""

    attacker: str
    target: str
    weapon: str
    profile_index: int
    profile: Profile
    firing_models: int
    eligible: frozenset[str]
    rear: frozenset[str]
    penalty: int
    engaged_with_scales: tuple[int, ...]

    @property
    def key(self) -> tuple[str, int]:
        return (self.weapon, self.profile_index)


def closest_visible(state: LiState, firer: Model, target: Detachment) -> float | None:
    """The distance to the closest model of the target the firer can see, or None (LI-TGT-1, LI-TGT-2)."""
    seen = [distance(firer, m) for m in target.live if can_see(state, firer, m)]
    return min(seen) if seen else None


def weapons_in_range(firer: Model, reach: float) -> tuple[tuple[str, int], ...]:
    """The (weapon, profile) pairs of a model that reach a target at *reach* inches (LI-TGT-2)."""
    return tuple((w.name, i) for w in firer.weapons for i, p in enumerate(w.profiles) if p.range >= reach)


def can_fire(det: Detachment) -> bool:
    """A Detachment whose models made a Withdrawal move this round cannot fire (LI-WD-9)."""
    return not det.withdrew_this_round


def targets(state: LiState, det: Detachment) -> tuple[str, ...]:
    """The enemy Detachments it may fire at: on the battlefield, not Engaged & Pinned (LI-TGT-4), with at
    least one model in sight (LI-TGT-1) and in range of a weapon (LI-TGT-2, LI-TGT-3), nearest first."""
    if not can_fire(det):
        return ()
    found: list[tuple[float, int, str]] = []
    for k, enemy in enumerate(state.detachments):
        if enemy.owner == det.owner or not enemy.on_battlefield or enemy.pinned:
            continue
        reach = [r for f in det.live if (r := closest_visible(state, f, enemy)) is not None and weapons_in_range(f, r)]
        if reach:
            found.append((min(reach), k, enemy.id))
    return tuple(t for _, _, t in sorted(found))


def fire_options(state: LiState, det: Detachment) -> tuple[Fire | HoldFire, ...]:
    """Every attack the Detachment may declare, then holding fire (LI-FIRE-2, LI-FIRE-3, LI-OBSC-2).

    Default first [DECISION]: the nearest target, each weapon's first profile, the largest
    obscuration penalty present (the penalty that lets every model receive hits, §5.2).
    """
    options: list[Fire | HoldFire] = []
    for target_id in targets(state, det):
        target = state.detachment(target_id)
        multi: dict[str, int] = {}
        penalties: set[int] = set()
        for f in det.live:
            reach = closest_visible(state, f, target)
            if reach is None:
                continue
            for w in f.weapons:
                if len(w.profiles) > 1 and any(p.range >= reach for p in w.profiles):
                    multi[w.name] = len(w.profiles)
            for m in target.live:
                if can_see(state, f, m) and any(p.range >= distance(f, m) for w in f.weapons for p in w.profiles):
                    penalties.add(m.penalty)
        choices = list(itertools.product(*(range(n) for n in multi.values())))  # at most MAX_PROFILE_COMBINATIONS
        for penalty in sorted(penalties, reverse=True):
            for combo in choices:
                options.append(Fire(target_id, tuple(zip(multi, combo)), penalty))
    return tuple(options) + (HoldFire(),)


def volleys(state: LiState, det: Detachment, option: Fire) -> tuple[Volley, ...]:
    """The volleys of a declared attack, in the declared weapon order (LI-FIRE-2, LI-TGT-2, LI-TGT-3, LI-ALLOC-2, LI-ARC-1).

    A firing model fires each weapon whose chosen profile reaches the closest target model it can
    see; its hits may go only to target models in that profile's range and its sight, hidden no more
    than the chosen penalty. Models that see the target alike fire together (LI-FAST-1).
    """
    target = state.detachment(option.target)
    chosen = dict(option.profiles)
    scales = tuple(sorted({state.detachment(e).scale for e in engaged_with(state, target.id)}))
    weapon_order: list[str] = []
    for f in det.live:
        for w in f.weapons:
            if w.name not in weapon_order:
                weapon_order.append(w.name)
    found: list[Volley] = []
    for name in weapon_order:
        groups: dict[tuple[int, frozenset[str], frozenset[str]], int] = {}
        for f in det.live:
            reach = closest_visible(state, f, target)
            weapon = next((w for w in f.weapons if w.name == name), None)
            if reach is None or weapon is None:
                continue
            index = chosen.get(name, 0)  # a weapon name has the same profiles throughout the Detachment
            profile = weapon.profiles[index]
            if profile.range < reach:
                continue
            eligible = frozenset(
                m.id for m in target.live
                if can_see(state, f, m) and distance(f, m) <= profile.range and m.penalty <= option.penalty
            )
            if not eligible:
                continue
            rear = frozenset(m.id for m in target.live if m.id in eligible and in_rear_arc(m, f))
            groups[(index, eligible, rear)] = groups.get((index, eligible, rear), 0) + 1
        for (index, eligible, rear), count in groups.items():
            profile = _profile(det, name, index)
            per_volley = max(1, min(MAX_TARGET_MODELS, MAX_HIT_DICE // profile.dice))
            while count > 0:  # more than 60 dice: rolled as several volleys, which changes no probability (LI-FAST-1)
                n = min(count, per_volley)
                found.append(Volley(det.id, target.id, name, index, profile, n, eligible, rear, option.penalty, scales))
                count -= n
    return tuple(found)


def weapon_profiles(det: Detachment, weapon: str) -> tuple[Profile, ...]:
    """The profiles of the Detachment's weapon named *weapon* (LI-FIRE-3); none if no model carries it."""
    for m in det.models:
        for w in m.weapons:
            if w.name == weapon:
                return w.profiles
    return ()


def _profile(det: Detachment, weapon: str, index: int) -> Profile:
    profiles = weapon_profiles(det, weapon)
    if not profiles:
        raise KeyError(weapon)
    return profiles[index]


def volley_question(state: LiState, v: Volley) -> FireQuestion | None:
    """The ``fire`` question of a volley against the target as it stands now, or None when no model it may hit is left.

    Every live model of the target is in T, in Detachment order; those in the volley's range and sight, hidden no
    more than the chosen penalty, may be allocated hits (LI-ALLOC-2, LI-OBSC-2). Each model carries its own arc
    toward the volley's firing models, so each hit is saved from the arc of the model it is allocated to
    (LI-ARC-1): the firing models of a volley see every target model from the same arc (they are grouped so).
    """
    target = state.detachment(v.target)
    live = target.live
    allocatable = tuple(m.id in v.eligible for m in live)
    if not any(allocatable):
        return None
    modifier = -engaged_penalty(target.scale, v.engaged_with_scales) - v.penalty  # LI-HIT-4, LI-TGT-5, LI-OBSC-2
    return FireQuestion(
        dice=v.firing_models * v.profile.dice,
        to_hit=v.profile.to_hit,
        modifier=modifier,
        attack=Attack(v.profile.ap, v.profile.light_at),
        models=tuple(m.target_profile(rear_arc=m.id in v.rear) for m in live),
        allocatable=allocatable,
    )


def volley_arc(question: FireQuestion) -> Arc:
    """From which arc the volley's firing models see the models it may hit: all front, all rear, or mixed (LI-ARC-1)."""
    rear = {m.rear_arc for m, ok in zip(question.models, question.allocatable, strict=True) if ok}
    return "mixed" if len(rear) > 1 else ("rear" if True in rear else "front")


@lru_cache(maxsize=16384)
def volley_dist(question: FireQuestion) -> Dist[FireOutcome]:
    """The exact distribution of a volley: the ``fire`` procedure itself (§5.2), cached, as a volley repeats."""
    return fire_of(question)


def apply_volley(state: LiState, question: FireQuestion, target_id: str, outcome: FireOutcome) -> tuple[LiState, tuple[str, ...]]:
    """The target after a volley's outcome: the hits went to the models in allocation order (§5.1 R).

    R's result fixes every model: the first ``destroyed`` models of the allocation order lost all
    their Wounds and Void Shields, the next one the rest of the Wounds and shields lost.
    Returns the new state and the ids of the models destroyed.
    """
    target = state.detachment(target_id)
    live = target.live
    order = allocation_indices(question.models, question.allocatable)
    wounds, shields = outcome.wounds, outcome.shields_lost
    dead: list[str] = []
    updated: dict[str, Model] = {}
    for k, i in enumerate(order):
        m = live[i]
        if k < outcome.destroyed:
            wounds -= m.wounds_remaining
            shields -= m.void_shields
            updated[m.id] = replace(m, wounds_remaining=0, void_shields=0)
            dead.append(m.id)
        else:
            updated[m.id] = replace(m, wounds_remaining=m.wounds_remaining - wounds, void_shields=m.void_shields - shields)
            break
    assert wounds >= 0 and shields >= 0
    det = replace(target, models=tuple(updated.get(m.id, m) for m in target.models))
    return state.with_detachment(det), tuple(dead)


@dataclass(frozen=True, slots=True)
class AttackDamage:
    """What a whole attack does to its target: Wounds lost, models destroyed, Void Shield levels removed."""

    wounds: int
    destroyed: int
    shields_lost: int

    @property
    def losses(self) -> int:
        """Every loss on the damage track: the Wounds and the Void Shield levels."""
        return self.wounds + self.shields_lost


def attack_damage(state: LiState, det: Detachment, option: Fire) -> Dist[AttackDamage]:
    """The exact distribution of what a declared attack does to its target (LI-FIRE-2, §5.2 chained).

    Its volleys are resolved one after another in the declared weapon order (the default of LI-ALLOC-5), each
    ``fire`` question asked of the target as the earlier volleys left it; the target's possible states are carried
    from volley to volley, equal ones merged.
    """
    target_id = option.target
    start = state.detachment(target_id)

    def after(v: Volley) -> Callable[[Detachment], Dist[Detachment]]:
        def resolve(target: Detachment) -> Dist[Detachment]:
            now = state.with_detachment(target)
            question = volley_question(now, v)
            if question is None:
                return Dist.always(target)
            taken = volley_dist(question).map(lambda o: replace(o, hits=0, morale_threshold_reached=False))
            return taken.map(lambda o: apply_volley(now, question, target_id, o)[0].detachment(target_id))

        return resolve

    targets: Dist[Detachment] = Dist.always(start)
    for v in volleys(state, det, option):
        targets = targets.bind(after(v))

    def damage(target: Detachment) -> AttackDamage:
        wounds = sum(a.wounds_remaining - b.wounds_remaining for a, b in zip(start.models, target.models, strict=True))
        shields = sum(a.void_shields - b.void_shields for a, b in zip(start.models, target.models, strict=True))
        return AttackDamage(wounds, len(start.live) - len(target.live), shields)

    return targets.map(damage)


def expected_damage(state: LiState, det: Detachment, option: Fire) -> float:
    """The AI's worth of an attack: expected Wounds and models destroyed, each volley on the target as it stands."""
    worth = 0.0
    for v in volleys(state, det, option):
        question = volley_question(state, v)
        if question is None:
            continue
        dist = volley_dist(question)
        worth += float(sum(p * (o.wounds + o.destroyed + o.shields_lost / 2) for o, p in dist.probabilities().items()))
    return worth


def describe_fire(option: Fire | HoldFire) -> str:
    """An attack option in words."""
    if isinstance(option, HoldFire):
        return "hold fire"
    extra = ", ".join(f"{w} profile {i + 1}" for w, i in option.profiles)
    penalty = f", obscuration -{option.penalty}" if option.penalty else ""
    return f"fire at {option.target}" + (f" ({extra})" if extra else "") + penalty
