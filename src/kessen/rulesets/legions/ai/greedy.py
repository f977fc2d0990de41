"""The greedy AI for legions battles (``--ai greedy``): Orders from the targets each Detachment can reach, attacks
weighed with the exact ``fire`` odds."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.legions.referee.battlefield import closest_gap
from kessen.rulesets.legions.referee.firing import volley_dist, volley_question, volleys
from kessen.rulesets.legions.referee.state import Detachment, LiState
from kessen.rulesets.legions.referee.targeting import Fire, targets
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
    worth = 0.0
    for v in volleys(state, det, option):
        question = volley_question(state, v)
        if question is not None:
            worth += _volley_worth(question)
    return worth


@lru_cache(maxsize=WORTHS_KEPT)
def _volley_worth(question: FireQuestion) -> float:
    """One volley's expected Wounds and models destroyed and half its Void Shield levels, from its exact odds."""
    dist = volley_dist(question)
    return float(sum(p * (o.wounds + o.destroyed + o.shields_lost / 2) for o, p in dist.probabilities().items()))


def will_have_target(state: LiState, det: Detachment) -> bool:
    """Whether a First Fire order gives the Detachment something to shoot (LI-ACT-2, LI-ACT-5): an enemy in its sight
    and range now that is not Engaged already (an Engaged enemy is likely Engaged & Pinned by the time the First Fire
    stage comes, and then cannot be targeted, LI-TGT-4). Distance alone is not enough, nor is cover: a Detachment
    ordered to fire first at nothing idles the round, where an Advance order moves it up and fires as well."""
    return any(not state.detachment(t).engaged for t in targets(state, det))


def _longest_range(det: Detachment) -> int:
    return max((p.range for m in det.live for w in m.weapons for p in w.profiles), default=0)


def _fighting_worth(det: Detachment) -> float:
    return sum(m.caf * m.wounds_remaining for m in det.live) / max(1, len(det.live))


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
        det = state.detachment(decision.actor)
        gap, enemy = _nearest_enemy(state, det)
        options = decision.options
        if enemy is None:
            return "advance" if "advance" in options else str(options[0])
        reach = _longest_range(det)
        movement = min(m.movement for m in det.live)
        if "charge" in options and gap <= movement and _fighting_worth(det) >= _fighting_worth(enemy):
            return "charge"
        if "first_fire" in options and will_have_target(state, det):
            return "first_fire"  # a target to shoot first, without moving
        if "march" in options and gap > reach + 2 * movement:
            return "march"
        return "advance"
