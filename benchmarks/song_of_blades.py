"""song-of-blades cases: kessen's procedures against an expert's icepool expressions of spec §6.

The references are written from the spec's pseudo-code (§6.1–§6.4) in idiomatic icepool, sharing
no code with kessen: modifiers are summed once outside the dice, ``icepool.map`` runs over the two
natural d6, a disengagement is a fold from the last hack backwards in which a hack with no effect
continues with the rest of the sequence (``Die.map`` whose replacement is a die), and quality rolls
are sums of Bernoulli dice (``n @ die``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import icepool
from rich.console import Console

from benchmarks.harness import LimitCase, OddsCase, SamplingCase, Suite, cold, console, same_probabilities, seconds, table
from kessen.dice import Dist
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset
from kessen.sim.play import play_battle

RULESET = "song-of-blades"
_PACKAGES = ("kessen.rulesets.song_of_blades", "kessen.dice")

_SIZE_RANK = {"normal": 0, "big": 1, "huge": 2, "gargantuan": 3}
_SIZES = tuple(_SIZE_RANK)
_STATES = ("standing", "fallen", "transfixed")


# --- the references: spec §6 in icepool --------------------------------------------------------


def _ladder(w: int, l: int, die: int, lethal: bool, can_recoil: bool) -> str:
    """§6.1 ladder(W, L, die, lethal, can_recoil)."""
    if w >= 3 * l:
        return "gruesome_kill"
    if w >= 2 * l or lethal:
        return "kill"
    if die % 2 == 0 or not can_recoil:
        return "fall"
    return "recoil"


def _combat_roll(q: Mapping[str, Any]) -> Callable[[int, int], tuple[str, str, str]]:
    """§6.1: the outcome of one combat roll as a function of the two natural dice."""
    mod_a = (
        2 * (q["defender_state"] in ("fallen", "transfixed"))
        + (q["ambush"] and q["attack_number"] == 1)
        + (q["attacker_mounted"] and not q["defender_mounted"])
        + (_SIZE_RANK[q["attacker_size"]] > _SIZE_RANK[q["defender_size"]])
        + q["attacker_high_ground"]
        - max(0, q["attacker_enemies_in_contact"] - q["attacker_transfixed_in_contact"] - 1)
    )
    mod_d = (
        2 * (q["attacker_state"] == "fallen")
        + q["defender_obstacle"]
        - q["power_blow"]
        - max(0, q["defender_enemies_in_contact"] - q["defender_transfixed_in_contact"] - 1)
    )
    base_a, base_d = q["attacker_combat"] + mod_a, q["defender_combat"] + mod_d
    attacker_lethal = q["lethal"] or q["defender_state"] != "standing"
    defender_lethal = q["attacker_state"] == "fallen"
    defensive = q["free_hack"] or q["defender_state"] == "transfixed"

    def roll(da: int, dd: int) -> tuple[str, str, str]:
        a, dscore = da + base_a, dd + base_d
        if a == dscore:
            return ("none", "nothing", "none")
        if a > dscore:
            return ("attacker", _ladder(a, dscore, da, attacker_lethal, q["defender_can_recoil"]), "defender")
        if defensive:
            return ("defender", "nothing", "none")
        return ("defender", _ladder(dscore, a, dd, defender_lethal, q["attacker_can_recoil"]), "attacker")

    return roll


def icepool_melee(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§6.1 in icepool: the 36 pairs of natural dice mapped to (winner, result, affected)."""
    return icepool.map(_combat_roll(q), icepool.d6, icepool.d6)


def icepool_disengage(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§6.2 in icepool: hacks in order, folded from the last; a hack with no effect goes on."""
    enemies = q["enemies"]
    hackers = [
        (position, e)
        for position, e in enumerate(enemies, start=1)
        if e["state"] == "standing"
        and not q["free_disengage"]
        and not (q["mounted"] and not e["mounted"])
        and not (q["flying"] and not e["flying"])
    ]
    counted = sum(e["state"] != "transfixed" for e in enemies)
    rest: icepool.Die[Any] = icepool.Die([("disengaged", len(hackers), 0)])
    for k in reversed(range(len(hackers))):
        position, e = hackers[k]
        roll = _combat_roll(
            {
                "attacker_combat": e["combat"], "defender_combat": q["combat"],
                "attacker_state": "standing", "defender_state": "standing",
                "free_hack": True, "lethal": q["failed_morale"], "power_blow": False, "ambush": False,
                "attack_number": 1, "attacker_mounted": e["mounted"], "defender_mounted": q["mounted"],
                "attacker_size": e["size"], "defender_size": q["size"],
                "attacker_high_ground": e["high_ground"], "defender_obstacle": e["obstacle"],
                "attacker_enemies_in_contact": e["enemies_in_contact"],
                "attacker_transfixed_in_contact": e["transfixed_in_contact"],
                "defender_enemies_in_contact": counted, "defender_transfixed_in_contact": 0,
                "attacker_can_recoil": True, "defender_can_recoil": q["can_recoil"] and e["can_recoil"],
            }
        )
        hack = icepool.map(_result_of(roll), icepool.d6, icepool.d6)
        rest = hack.map(_then(rest, k + 1, position), star=False)
    return rest


def _result_of(roll: Callable[[int, int], tuple[str, str, str]]) -> Callable[[int, int], str]:
    return lambda da, dd: roll(da, dd)[1]


def _then(rest: icepool.Die[Any], hacks: int, position: int) -> Callable[[str], Any]:
    """After a hack: no effect goes on with the remaining hacks, any other result ends the sequence (SB-DIS-6)."""
    return lambda result: rest if result == "nothing" else (result, hacks, position)


def _succeeds(face: int, quality: int) -> bool:
    """A Quality die: ≥ quality, a natural 1 fails and a natural 6 succeeds (SB-ACT-1)."""
    return face == 6 or (face != 1 and face >= quality)


def icepool_activation(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§6.3 in icepool: successes of n Quality dice → (actions, failures, turnover)."""
    n, quality = q["dice"], q["quality"]
    actions = n @ icepool.d6.map(lambda face: _succeeds(face, quality))
    return actions.map(lambda a: (a, n - a, n - a >= 2))


def icepool_morale(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§6.4 in icepool: failures of three Quality dice → (failures, result, flee_moves)."""
    quality = q["quality"]
    failures = 3 @ icepool.d6.map(lambda face: not _succeeds(face, quality))
    return failures.map(
        lambda f: (0, "stands", 0) if f == 0 else (3, "destroyed", 0) if f == 3 else (f, "flees", f)
    )


_ALWAYS_FALLEN = {"opportunistic", "combat_master", "assassin"}


def icepool_melee_targets(q: Mapping[str, Any]) -> icepool.Die[Any]:
    """§6.5 in icepool, a question that rolls no dice: one outcome, whether each enemy may be attacked
    (SB-PRIO-1..4)."""
    enemies = q["enemies"]
    upright = sum(e["points"] for e in enemies if e["state"] != "fallen")
    free = not q["melee_priority"] or bool(_ALWAYS_FALLEN & set(q["special_rules"])) or upright == 0
    return icepool.Die([tuple(free or e["state"] != "fallen" or upright <= e["points"] for e in enemies)])


# --- the questions --------------------------------------------------------------------------------


def _enemy(combat: int, **fields: Any) -> dict[str, Any]:
    return {"combat": combat, **fields}


_FOUR_ENEMIES = [
    _enemy(4, size="big", enemies_in_contact=2),
    _enemy(3, high_ground=True),
    _enemy(2, obstacle=True, enemies_in_contact=3, transfixed_in_contact=1),
    _enemy(5, size="huge"),
]

ODDS_QUESTIONS: tuple[tuple[str, str, Callable[[Mapping[str, Any]], Any], dict[str, Any]], ...] = (
    ("melee, 3 vs 3, no modifiers", "melee", icepool_melee, {"attacker_combat": 3, "defender_combat": 3}),
    (
        "melee, every modifier",
        "melee",
        icepool_melee,
        {
            "attacker_combat": 5, "defender_combat": 4, "defender_state": "fallen", "ambush": True,
            "power_blow": True, "attacker_mounted": True, "attacker_size": "huge", "attacker_high_ground": True,
            "defender_obstacle": True, "attacker_enemies_in_contact": 3, "attacker_transfixed_in_contact": 1,
            "defender_enemies_in_contact": 4, "defender_transfixed_in_contact": 1, "attacker_can_recoil": False,
        },
    ),
    ("disengage, 1 enemy", "disengage", icepool_disengage, {"combat": 3, "enemies": [_enemy(3)]}),
    ("disengage, 4 enemies", "disengage", icepool_disengage, {"combat": 6, "enemies": _FOUR_ENEMIES}),
    (
        "disengage, 8 enemies",
        "disengage",
        icepool_disengage,
        {"combat": 12, "can_recoil": False, "enemies": _FOUR_ENEMIES + [_enemy(c) for c in (6, 7, 8, 9)]},
    ),
    ("activation, 3 dice, Quality 4", "activation", icepool_activation, {"quality": 4, "dice": 3}),
    ("morale, Quality 4", "morale", icepool_morale, {"quality": 4}),
    ("melee_targets, priority, 3 enemies (no dice)", "melee_targets", icepool_melee_targets, {
        "melee_priority": True,
        "enemies": [{"points": 30}, {"state": "fallen", "points": 60}, {"state": "fallen", "points": 25}],
    }),
)


def _odds_case(name: str, procedure_name: str, reference: Callable[[Mapping[str, Any]], Any], data: dict[str, Any]) -> OddsCase:
    procedure = get_ruleset(RULESET).procedure(procedure_name)
    value = validate_data(procedure.input_model, data)
    # Both sides get the validated input with every default filled, so neither pays for validation.
    normalised = value.model_dump(mode="json")
    return OddsCase(
        ruleset=RULESET,
        name=name,
        kessen=cold(lambda: procedure.compute(value), *_PACKAGES),
        reference=lambda: reference(normalised),
        check=same_probabilities,
        procedure=procedure_name,
        data=data,
    )


# --- sampling and limits --------------------------------------------------------------------------


def _melee_dist() -> Dist[Any]:
    procedure = get_ruleset(RULESET).procedure("melee")
    return procedure.dist(validate_data(procedure.input_model, {"attacker_combat": 3, "defender_combat": 3}))


def _standing_hackers(combat: int, n: int, **fields: Any) -> list[dict[str, Any]]:
    """*n* standing hackers, each in contact with the leaving model only (no outnumbering penalty)."""
    return [_enemy(combat, **fields) for _ in range(n)]


_MOST = 50  # the most enemies in contact: the most models a side may field (profiles.MAX_MODELS_PER_SIDE)

LIMITS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("melee", f"combat 0 vs 12, {_MOST} in contact each", {
        "attacker_combat": 0, "defender_combat": 12, "attacker_enemies_in_contact": _MOST,
        "defender_enemies_in_contact": _MOST, "power_blow": True,
    }),
    ("melee", "combat 12 vs 0, all bonuses, both fallen", {
        "attacker_combat": 12, "defender_combat": 0, "attacker_state": "fallen", "defender_state": "fallen",
        "ambush": True, "attacker_mounted": True, "attacker_size": "gargantuan", "attacker_high_ground": True,
        "attacker_enemies_in_contact": _MOST, "attacker_transfixed_in_contact": _MOST - 1,
    }),
    ("disengage", f"{_MOST} hackers, even: each may tie or miss", {
        "combat": 12, "enemies": _standing_hackers(5, _MOST),
    }),
    ("disengage", f"{_MOST} hackers of combat 12, leaver 0", {
        "combat": 0, "enemies": _standing_hackers(12, _MOST),
    }),
    ("disengage", f"{_MOST} hackers of combat 0, leaver 12", {
        "combat": 12, "can_recoil": False, "enemies": _standing_hackers(0, _MOST),
    }),
    ("disengage", f"{_MOST} mixed hackers, failed morale", {
        "combat": 6, "size": "gargantuan", "failed_morale": True,
        "enemies": [
            _enemy(c, size=s, high_ground=c % 2 == 0, obstacle=c % 3 == 0, enemies_in_contact=1 + c % 8,
                   can_recoil=c % 5 != 0)
            for c, s in zip([12, 11, 9, 7, 5, 3, 1, 0] * 7, _SIZES * 14)
        ][:_MOST],
    }),
    ("activation", "3 dice, Quality 6", {"quality": 6, "dice": 3}),
    ("morale", "Quality 2", {"quality": 2}),
    ("melee_targets", f"{_MOST} enemies, priority, mixed states", {
        "melee_priority": True,
        "enemies": [{"state": _STATES[i % 3], "points": 10000 - i} for i in range(_MOST)],
    }),
)


def _random_enemy(rng: random.Random) -> dict[str, Any]:
    in_contact = rng.randint(1, 8)
    return {
        "combat": rng.randint(0, 12), "state": rng.choice(_STATES), "size": rng.choice(_SIZES),
        "mounted": rng.random() < 0.3, "flying": rng.random() < 0.2, "high_ground": rng.random() < 0.3,
        "obstacle": rng.random() < 0.3, "enemies_in_contact": in_contact,
        "transfixed_in_contact": rng.randint(0, in_contact - 1), "can_recoil": rng.random() < 0.7,
    }


def _random_melee(rng: random.Random) -> dict[str, Any]:
    a_in, d_in = rng.randint(1, 8), rng.randint(1, 8)
    attacker_state, defender_state = rng.choice(("standing", "fallen")), rng.choice(_STATES)
    free_hack = attacker_state == defender_state == "standing" and rng.random() < 0.3
    return {
        "attacker_combat": rng.randint(0, 12), "defender_combat": rng.randint(0, 12),
        "attacker_state": attacker_state, "defender_state": defender_state, "free_hack": free_hack,
        "lethal": rng.random() < 0.2, "power_blow": not free_hack and rng.random() < 0.3,
        "ambush": not free_hack and rng.random() < 0.3, "attack_number": rng.randint(1, 6),
        "attacker_mounted": rng.random() < 0.3, "defender_mounted": rng.random() < 0.3,
        "attacker_size": rng.choice(_SIZES), "defender_size": rng.choice(_SIZES),
        "attacker_high_ground": rng.random() < 0.3, "defender_obstacle": rng.random() < 0.3,
        "attacker_enemies_in_contact": a_in,
        # a transfixed defender is one of the attacker's transfixed enemies (§6.1 cross-field rules)
        "attacker_transfixed_in_contact": rng.randint(1 if defender_state == "transfixed" else 0, min(a_in, 7)),
        "defender_enemies_in_contact": d_in, "defender_transfixed_in_contact": rng.randint(0, d_in - 1),
        "attacker_can_recoil": rng.random() < 0.7, "defender_can_recoil": rng.random() < 0.7,
    }


def sweep(seed: int, n: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """*n* random valid disengagements with 8 enemies (a crowded melee; the largest inputs are among the limits),
    *n* random melee rolls, and every activation and morale input (there are only 20)."""
    rng = random.Random(seed)
    for _ in range(n):
        yield "disengage", {
            "combat": rng.randint(0, 12), "size": rng.choice(_SIZES), "mounted": rng.random() < 0.2,
            "flying": rng.random() < 0.2, "free_disengage": rng.random() < 0.1, "failed_morale": rng.random() < 0.3,
            "can_recoil": rng.random() < 0.7, "enemies": [_random_enemy(rng) for _ in range(8)],
        }
    for _ in range(n):
        yield "melee", _random_melee(rng)
    for quality in range(2, 7):
        yield "morale", {"quality": quality}
        for dice in range(1, 4):
            yield "activation", {"quality": quality, "dice": dice}


def suite() -> Suite:
    """Every song-of-blades benchmark case."""
    return Suite(
        ruleset=RULESET,
        odds=tuple(_odds_case(*question) for question in ODDS_QUESTIONS),
        sampling=(SamplingCase("melee 3 vs 3 outcome", _melee_dist()),),
        limits=tuple(LimitCase(RULESET, procedure, name, data) for procedure, name, data in LIMITS),
        sweep=sweep,
        references={
            "melee": icepool_melee, "disengage": icepool_disengage,
            "activation": icepool_activation, "morale": icepool_morale,
        },
        check=same_probabilities,
    )


# --- a whole game at the scenario limits (issue 14) ------------------------------------------------

AT_THE_LIMITS = Path(__file__).resolve().parent.parent / "tests" / "rulesets" / "song_of_blades" / "data" / "at-the-limits.toml"


def battles_at_the_limits(out: Console, seeds: tuple[int, ...] = (1, 2, 3)) -> None:
    """Time the AI battle of the scenario at every limit at once (50 models a side, 3000 mm, 30 rounds, 25 pieces
    of each terrain kind): loading it, and playing each seed to the end (``python -m benchmarks.song_of_blades``)."""
    ruleset = get_ruleset(RULESET)
    text = AT_THE_LIMITS.read_text(encoding="utf-8")
    started = time.perf_counter()
    ruleset.game.load_scenario(text, str(AT_THE_LIMITS))
    rows = [["load", "", seconds(time.perf_counter() - started)]]
    for seed in seeds:
        started = time.perf_counter()
        played = play_battle(ruleset, text, str(AT_THE_LIMITS), seed)
        rows.append([f"battle, seed {seed}", f"{len(played.events):,}", seconds(time.perf_counter() - started)])
    out.print(table("song-of-blades at the scenario limits, AI against AI, one core",
                    [("step", "left"), ("events", "right"), ("time", "right")], rows))


if __name__ == "__main__":
    battles_at_the_limits(console())
