"""legions cases: the exact ``fire`` procedure against the same question written directly in icepool (battles per
second for each shipped scenario come from the shared battles section).

The reference is written from the spec (§5.1, §5.2) in idiomatic icepool and shares no code with kessen: the hit
pool is ``n @`` a Bernoulli die of one hit roll, and the hits are resolved as a Markov chain over (current model,
its Wounds left, its shields left) with ``Die.map`` returning dice, one hit at a time.

    .venv/bin/python -m benchmarks --ruleset legions --section odds --section battles
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

import icepool

from benchmarks.harness import LimitCase, OddsCase, Suite, cold, same_probabilities
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset

RULESET = "legions"
_PACKAGES = ("kessen.rulesets.legions", "kessen.dice")
ARMOURED = {"vehicle", "super_heavy_vehicle", "knight", "titan"}


# --- the reference: §5.2 in icepool ----------------------------------------------------------------------


def icepool_fire(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§5.2 in icepool: Binomial hits, then R (§5.1) as a chain over the current model."""
    penalty = 1 if any(q["target_scale"] < s + 2 for s in q["target_engaged_with_scales"]) else 0
    modifier = q["hit_modifier"] - penalty - q["obscuration_penalty"]
    hit = icepool.d6.map(lambda f: f == 6 or (f != 1 and f + modifier >= q["to_hit"]))
    hits = (q["firing_models"] * q["dice"]) @ hit
    models = []
    for t in q["target_models"]:
        if t["eligible"] and {0: 0, 25: 1, 50: 2}[t["obscured"]] <= q["obscuration_penalty"]:
            models += [t] * t["count"]
    order = [t for t in models if t["wounds_remaining"] < t["wounds"]] + [t for t in models if t["wounds_remaining"] == t["wounds"]]
    size = sum(t["count"] for t in q["target_models"])

    def start(i: int) -> tuple[int, int, int]:
        return (i, order[i]["wounds_remaining"], order[i]["void_shields"]) if i < len(order) else (i, 0, 0)

    def save_target(t: Mapping[str, Any]) -> int | None:
        light = q["light_at"] and t["type"] in ARMOURED
        ap = (0 if light else q["ap"]) - (1 if q["rear_arc"] and t["type"] in ARMOURED else 0)
        found = [t["armour_save"] - ap - q["armour_save_modifier"]] if t["armour_save"] is not None else []
        found += [s for s in (t["special_save"], t["cover_save"]) if s is not None]
        return min(found) if found else None

    def one_hit(state: tuple[int, int, int]) -> Any:
        i, w, s = state
        if i == len(order):
            return state
        t = order[i]
        if s:
            ap = 0 if q["light_at"] and t["type"] in ARMOURED else q["ap"]
            return (i, w, s - 1) if ap <= -1 else state
        target = save_target(t)
        passes = 0 if target is None else max(0, min(6, 7 - target))
        failed = start(i + 1) if w == 1 else (i, w - 1, 0)
        return icepool.Die({state: passes, failed: 6 - passes}) if 0 < passes < 6 else (state if passes == 6 else failed)

    @cache
    def after(h: int) -> icepool.Die[Any]:
        return icepool.Die([start(0)]) if h == 0 else after(h - 1).map(one_hit)

    def result(h: int) -> icepool.Die[Any]:
        def fields(state: tuple[int, int, int]) -> tuple[int, int, int, int, bool]:
            i, w, s = state
            lost = sum(t["wounds_remaining"] for t in order[:i]) + (order[i]["wounds_remaining"] - w if i < len(order) else 0)
            shields = sum(t["void_shields"] for t in order[:i]) + (order[i]["void_shields"] - s if i < len(order) else 0)
            return (h, lost, i, shields, lost >= math.ceil(size / 2))

        return after(h).map(fields)

    return hits.map(result)


QUESTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("fire, 10 dice: 10 bolters at 10 infantry (4+, AP −1)", {
        "firing_models": 10, "to_hit": 4, "ap": -1, "target_models": [{"armour_save": 4, "count": 10}],
    }),
    ("fire, 30 dice: 10 × 3D6 at 3 wounded-first tanks", {
        "firing_models": 10, "dice": 3, "to_hit": 3, "ap": -2, "rear_arc": True,
        "target_models": [{"type": "vehicle", "wounds": 2, "armour_save": 3, "count": 2},
                          {"type": "vehicle", "wounds": 2, "wounds_remaining": 1, "armour_save": 3}],
    }),
    ("fire, 60 dice: 30 × 2D6, Engaged, 20 models in cover", {
        "firing_models": 30, "dice": 2, "to_hit": 4, "ap": -1, "target_engaged_with_scales": [2],
        "target_models": [{"armour_save": 5, "cover_save": 4, "count": 12}, {"armour_save": 6, "count": 8}],
    }),
    ("fire, 60 dice: a Titan with Void Shields", {
        "firing_models": 6, "dice": 10, "to_hit": 3, "ap": -2, "rear_arc": True,
        "target_models": [{"type": "titan", "wounds": 12, "armour_save": 2, "void_shields": 6}],
    }),
)


def _odds_case(name: str, data: dict[str, Any]) -> OddsCase:
    procedure = get_ruleset(RULESET).procedure("fire")
    value = validate_data(procedure.input_model, data)
    normalised = procedure.normalised(value)  # every default filled, as the reference reads it
    return OddsCase(
        ruleset=RULESET, name=name, kessen=cold(lambda: procedure.compute(value), *_PACKAGES),
        reference=lambda: icepool_fire(normalised), check=same_probabilities,
    )


LIMITS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("fire", "60 dice at 30 two-Wound models, each save different", {
        "firing_models": 30, "dice": 2, "to_hit": 2, "ap": -1,
        "target_models": [{"type": "vehicle", "wounds": 2, "armour_save": 2 + k % 5, "special_save": 6 if k % 3 else None} for k in range(30)],
    }),
    ("combat", "12 fights: two stars of 6, extra dice to the cap", {
        "models": [{"id": f"a{k}", "side": "a", "caf": 3, "wounds_remaining": 3, "extra_dice": 2} for k in range(7)]
        + [{"id": f"b{k}", "side": "b", "caf": 2, "wounds_remaining": 3, "extra_dice": 2} for k in range(7)],
        "fights": [["a0", f"b{k}"] for k in range(6)] + [[f"a{k}", "b6"] for k in range(1, 7)],
    }),
)


def suite() -> Suite:
    """Every legions benchmark case."""
    return Suite(
        ruleset=RULESET,
        odds=tuple(_odds_case(*q) for q in QUESTIONS),
        limits=tuple(LimitCase(RULESET, p, n, d) for p, n, d in LIMITS),
        references={"fire": icepool_fire},
        check=same_probabilities,
    )
