"""The greedy AI for legions battles (``--ai greedy``): Orders from the targets each Detachment can reach, attacks
weighed with the exact ``fire`` odds."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.legions.referee.battlefield import closest_gap, distances
from kessen.rulesets.legions.referee.firing import volley_dist, volley_question, volleys
from kessen.rulesets.legions.referee.state import Detachment, LiState
from kessen.rulesets.legions.referee.targeting import Fire, fire_options, targets
from kessen.rulesets.legions.rules.close_combat import fight_dice, fight_result
from kessen.rulesets.legions.rules.firing import FireQuestion

WORTHS_KEPT = 4096
"""How many volleys' worths the AI keeps (each a float beside its question) for the next time it weighs one."""


def _nearest_enemy(state: LiState, det: Detachment) -> tuple[float, Detachment | None]:
    best: tuple[float, Detachment | None] = (float("inf"), None)
    for enemy in state.detachments:
        if enemy.owner == det.owner or not enemy.on_battlefield:
            continue
        gap = closest_gap(det, enemy)
        if gap < best[0]:
            best = (gap, enemy)
    return best


def expected_damage(state: LiState, det: Detachment, option: Fire) -> float:
    """The AI's private worth of an attack: expected Wounds and models destroyed, and half of each Void Shield level,
    each volley weighed on the target as it stands (not the odds shown to a person: see ``text``)."""
    return sum(wounds + destroyed + shields / 2 for wounds, destroyed, shields in _volley_means(state, det, option))


def expected_wounds(state: LiState, det: Detachment, option: Fire) -> float:
    """An attack's expected Wounds and half its Void Shield levels: its worth counted as a fight's is (one Wound a
    fight lost, ``charge_gain``), not the models destroyed besides."""
    return sum(wounds + shields / 2 for wounds, _destroyed, shields in _volley_means(state, det, option))


def expected_destroyed(state: LiState, det: Detachment, option: Fire) -> float:
    """An attack's expected models destroyed."""
    return sum(destroyed for _wounds, destroyed, _shields in _volley_means(state, det, option))


_MEANS: dict[int, tuple[FireQuestion, tuple[float, float, float]]] = {}
"""``_volley_mean`` by the question object itself: the target keeps its volleys' questions while its models do not
change (``firing.volley_question``), so the same object comes back, found without hashing its models (issue 23 §2).
The question is kept beside its worth, so its id stays its own."""


def _volley_means(state: LiState, det: Detachment, option: Fire) -> list[tuple[float, float, float]]:
    found = []
    for v in volleys(state, det, option):
        question = volley_question(state, v)
        if question is not None:
            known = _MEANS.get(id(question))
            if known is None or known[0] is not question:
                if len(_MEANS) >= WORTHS_KEPT:
                    _MEANS.clear()
                known = _MEANS[id(question)] = (question, _volley_mean(question))
            found.append(known[1])
    return found


@lru_cache(maxsize=WORTHS_KEPT)
def _volley_mean(question: FireQuestion) -> tuple[float, float, float]:
    """One volley's expected Wounds, models destroyed and Void Shield levels lost, from its exact odds."""
    dist = volley_dist(question).probabilities()
    return (float(sum(p * o.wounds for o, p in dist.items())), float(sum(p * o.destroyed for o, p in dist.items())),
            float(sum(p * o.shields_lost for o, p in dist.items())))


def will_have_target(state: LiState, det: Detachment) -> bool:
    """Whether a First Fire order gives the Detachment something to shoot (LI-ACT-2, LI-ACT-5): an enemy in its sight
    and range now that is not Engaged already (an Engaged enemy is likely Engaged & Pinned by the time the First Fire
    stage comes, and then cannot be targeted, LI-TGT-4). Distance alone is not enough, nor is cover: a Detachment
    ordered to fire first at nothing idles the round, where an Advance order moves it up and fires as well."""
    return any(not state.detachment(t).engaged for t in targets(state, det))


def _fighting_worth(det: Detachment) -> float:
    return sum(m.caf * m.wounds_remaining for m in det.live) / max(1, len(det.live))


def longest_range(det: Detachment) -> int:
    """The longest range of the Detachment's live models' weapons (0 without one)."""
    return max((p.range for m in det.live for w in m.weapons for p in w.profiles), default=0)


def charge_gain(state: LiState, det: Detachment, enemy: Detachment) -> float:
    """What charging *enemy* is worth to *det*'s side beyond what firing is: the fights its models expect to win less
    those they expect to lose (each a Wound or a model, LI-FIGHT-5), with the friendly Detachments whose nearest enemy
    is *enemy* and that can reach it this round charging beside it (they weigh the same charge, so they make the same
    choice) and the friendly models already touching it, less the Wounds those Detachments expect to cause by firing
    instead (a charging Detachment does not fire, LI-STAGE-2). The models are paired one to one (as many of the
    enemy's as charge: the others stand out of the fight), the others piled onto the enemy's, each pile fought
    weakest first, so that every fight after a model's first gives its opponent a die more (LI-PAIR-4, LI-FIGHT-4): a
    Titan that beats any one Legionary falls to a crowd. A charging model adds 1 (LI-FIGHT-3); a model lost stops
    fighting (its expected Wounds are used up)."""
    ours: list[int] = []
    firing = 0.0
    for friend in state.detachments_of(det.owner):
        if not friend.on_battlefield or friend.order == "fall_back":
            continue
        if friend.id != det.id:
            gap, near = _nearest_enemy(state, friend)
            if near is None or near.id != enemy.id or gap > min(m.movement for m in friend.live):
                continue
        joined = False
        for m in friend.live:
            reach = min(distances(m, enemy.live))
            if reach <= m.movement:
                ours.append(m.caf + (1 if reach > 0.0 else 0))
                joined = True
        if joined:
            firing += max((expected_wounds(state, friend, o) for o in fire_options(state, friend) if isinstance(o, Fire)),
                          default=0.0)
    if not ours:
        return -firing
    theirs = sorted((m.caf, m.wounds_remaining) for m in enemy.live)[: len(ours)]
    piles: list[list[int]] = [[] for _ in theirs]
    for i, caf in enumerate(sorted(ours)):
        piles[i % len(theirs)].append(caf)
    return sum(_pile_gain(pile, caf, wounds) for pile, (caf, wounds) in zip(piles, theirs, strict=True)) - firing


def _pile_gain(pile: list[int], caf: int, wounds: int) -> float:
    """Fights won less fights lost by the models of *pile* (their fight bonuses, weakest first) against one model of
    fight bonus *caf* and *wounds* Wounds left, each fight after its first giving the pile's model a die more."""
    gain, left = 0.0, float(wounds)
    for n, bonus in enumerate(sorted(pile)):
        alive = min(1.0, left)
        if alive <= 0.0:
            break
        dist = fight_result(fight_dice(opponent_fights_before=n, extra_dice=0), 2, bonus - caf).probabilities()
        won, lost = float(dist.get("a", 0)), float(dist.get("b", 0))
        gain += alive * (won - lost)
        left -= alive * won
    return gain


class LiAI:
    """Orders by the targets in reach and close-combat strength; fires at the target with the best expected damage from
    the exact odds; every other choice (movement order, activation order, pairing, fight order,
    allocation, Withdrawal order) by the default policy, which each decision lists first."""

    def __init__(self, side: str) -> None:
        self.side = side

    def decide(self, state: LiState, decision: Decision) -> Any:
        options = decision.options
        if decision.kind == "order":
            return self._order(state, decision)
        if decision.kind == "target":
            fires = [o for o in options if isinstance(o, Fire)]
            if not fires:
                return options[-1]
            det = state.detachment(decision.actor)
            return max(fires, key=lambda o: (expected_damage(state, det, o), -fires.index(o)))
        return options[0]

    def _order(self, state: LiState, decision: Decision) -> str:
        return order_for(state, decision)


def order_for(state: LiState, decision: Decision, *, crowd_only: bool = False) -> str:
    """Greedy's Order for the decision's Detachment: a Charge at the nearest enemy in reach when it fights better than
    that enemy (Close Assault Factor times Wounds, model for model) or its crowd's fights pay (``charge_gain``; with
    *crowd_only*, only then), else First Fire with a target, a March when far out of reach, an Advance."""
    det = state.detachment(decision.actor)
    gap, enemy = _nearest_enemy(state, det)
    options = decision.options
    if enemy is None:
        return "advance" if "advance" in options else str(options[0])
    reach = longest_range(det)
    movement = min(m.movement for m in det.live)
    if "charge" in options and gap <= movement and (
            (not crowd_only and _fighting_worth(det) >= _fighting_worth(enemy)) or charge_gain(state, det, enemy) > 0.0):
        return "charge"
    if "first_fire" in options and will_have_target(state, det):
        return "first_fire"  # a target to shoot first, without moving
    if "march" in options and gap > reach + 2 * movement:
        return "march"
    return "advance"
