"""legions cases: the exact ``fire`` procedure against the same question written directly in icepool (battles per
second for each shipped scenario come from the shared battles section), and whole battles at the scenario limits.

The reference is written from the spec (§5.1, §5.2) in idiomatic icepool and shares no code with kessen: the hit
pool is ``n @`` a Bernoulli die of one hit roll, and the hits are resolved as a Markov chain over (current model,
its Wounds left, its shields left) with ``Die.map`` returning dice, one hit at a time.

    .venv/bin/python -m benchmarks --ruleset legions --section odds --section battles
    .venv/bin/python -m benchmarks.legions      # battles at the scenario limits (docs/scenarios/legions.md)
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Mapping
from functools import cache
from typing import Any

import icepool
import tomli_w

from benchmarks.harness import LimitCase, OddsCase, Suite, cold, console, same_probabilities, seconds, table
from kessen.core.replay import play
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset
from kessen.rulesets.legions.scenario import MAX_PLAYER_DETACHMENTS, MAX_PLAYER_MODELS

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
        procedure="fire", data=data,
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


# --- whole battles at the scenario limits ------------------------------------------------------------------


_PROFILES: dict[str, Any] = {
    "tactical": {"type": "infantry", "movement": 5, "armour_save": 5, "caf": 2, "morale": 3, "base_radius": 0.5, "weapons": [
        {"name": "bolters", "profiles": [{"range": 8, "dice": 1, "to_hit": 5}]},
        {"name": "missiles", "profiles": [{"range": 18, "dice": 1, "to_hit": 5},
                                         {"range": 18, "dice": 1, "to_hit": 5, "ap": -1, "traits": ["light_at"]}]},
    ]},
    "tank": {"type": "vehicle", "movement": 9, "armour_save": 3, "wounds": 2, "caf": 1, "morale": 3, "base_radius": 1.0, "weapons": [
        {"name": "cannon", "profiles": [{"range": 24, "dice": 2, "to_hit": 4, "ap": -1}]},
        {"name": "sponsons", "profiles": [{"range": 12, "dice": 2, "to_hit": 5}]},
    ]},
    "knight": {"type": "knight", "movement": 8, "armour_save": 3, "special_save": 5, "wounds": 3, "caf": 5, "morale": 3,
               "base_radius": 1.0, "weapons": [{"name": "thermal lance", "profiles": [{"range": 8, "dice": 2, "to_hit": 4, "ap": -3}]}]},
}


def open_battle_at_the_limits(rounds: int = 10) -> str:
    """Two armies at the limits, 200 models a side in 26 Detachments (infantry of up to 30, tanks, Knights), in
    lines 20 inches apart on a 200 × 60 inch table, from the Orders phase for *rounds* rounds."""
    kinds = ["tank" if k % 4 == 2 else "knight" if k % 8 == 7 else "tactical" for k in range(MAX_PLAYER_DETACHMENTS)]
    sizes = [5 if k == "tank" else 2 if k == "knight" else 0 for k in kinds]
    infantry = [i for i, k in enumerate(kinds) if k == "tactical"]
    left = MAX_PLAYER_MODELS - sum(sizes)
    for n, i in enumerate(infantry):
        sizes[i] = min(30, left // len(infantry) + (1 if n < left % len(infantry) else 0))
    assert sum(sizes) == MAX_PLAYER_MODELS

    def army(player: str, tag: str, y0: float, sign: int) -> list[dict[str, Any]]:
        detachments, x, row = [], 3.0, 0
        for k, (kind, count) in enumerate(zip(kinds, sizes, strict=True)):
            gap, columns = (1.1, 10) if kind == "tactical" else (2.2, 5)
            if x + columns * gap + 2 > 198:
                x, row = 3.0, row + 1
            models = [{"profile": kind, "x": x, "y": y0 + sign * (row * 8 + (r // columns) * gap), "dx": gap,
                       "count": min(columns, count - r)} for r in range(0, count, columns)]
            detachments.append({"id": f"{tag}{k + 1}", "models": models})
            x += columns * gap + 2
        return [{"id": f"{tag}-formation-{f // 10 + 1}", "player": player, "detachments": detachments[f:f + 10]}
                for f in range(0, len(detachments), 10)]

    return tomli_w.dumps({
        "name": "open battle at the limits", "rounds": rounds, "battlefield": {"width": 200, "height": 60},
        "players": [{"name": "red", "edge": "south"}, {"name": "blue", "edge": "north"}], "profiles": _PROFILES,
        "formations": army("red", "r", 20.0, -1) + army("blue", "b", 40.0, 1),
    })


def one_combat_at_the_limits() -> str:
    """Every model in one combat: a 20 × 20 checkerboard of infantry (200 a side), each touching its four
    neighbours, from the Combat phase."""
    cells: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    for i in range(20):
        for j in range(20):
            cells["red" if (i + j) % 2 == 0 else "blue"].append({"profile": "tactical", "x": 20.0 + i, "y": 20.0 + j})

    def army(player: str, tag: str) -> list[dict[str, Any]]:
        models = cells[player]
        detachments = [{"id": f"{tag}{k + 1}", "engaged": True, "order": "advance", "models": models[k * 25:(k + 1) * 25]}
                       for k in range(len(models) // 25)]
        return [{"id": f"{tag}-formation", "player": player, "detachments": detachments}]

    return tomli_w.dumps({
        "name": "one combat at the limits", "rounds": 10, "start": "combat", "initiative": "red",
        "battlefield": {"width": 72, "height": 72}, "players": [{"name": "red", "edge": "south"}, {"name": "blue", "edge": "north"}],
        "profiles": _PROFILES, "formations": army("red", "r") + army("blue", "b"),
    })


def battles_at_the_limits(seeds: int = 3) -> None:
    """Print the time of AI battles of the scenarios at the limits, to the end (CPU seconds: the machine may be busy)."""
    game = get_ruleset(RULESET).game
    rows = []
    for name, text in (("open battle, 10 rounds", open_battle_at_the_limits()), ("one combat, 10 rounds", one_combat_at_the_limits())):
        for seed in range(1, seeds + 1):
            cpu, wall = time.process_time(), time.perf_counter()
            state = game.load_scenario(text, name)
            played = play(game, state, {side: game.ai(side) for side in game.sides(state)}, seed)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            assert played.terminal is not None
            rows.append([name, str(seed), f"{MAX_PLAYER_MODELS} a side", seconds(cpu), seconds(wall), f"{len(played.events):,}"])
    console().print(table(
        "legions battles at the scenario limits, AI against AI, one core",
        [("scenario", "left"), ("seed", "right"), ("models", "right"), ("CPU", "right"), ("wall", "right"), ("events", "right")],
        rows,
    ))


if __name__ == "__main__":
    battles_at_the_limits(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
