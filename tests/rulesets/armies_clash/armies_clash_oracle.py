"""Brute-force oracles for the armies-clash tests: every die enumerated with itertools.product.

Written straight from the spec's procedure text (§6.3–§6.5), independently of the package's code,
so that the clever distribution code can be checked against them on small inputs.
"""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction
from itertools import product
from typing import Any


def dice_terms(text: str) -> tuple[list[tuple[int, int]], int]:
    """``(count, sides)`` of each dice term and the signed constant total of a valid dice string."""
    dice, constant = [], 0
    for sign, term in re.findall(r"([+-]?)([0-9d]+)", text):
        if "d" in term:
            count, sides = term.split("d")
            dice.append((int(count), int(sides)))
        else:
            constant += -int(term) if sign == "-" else int(term)
    return dice, constant


def roll_value(text: str, faces: tuple[int, ...], *, critical: bool) -> int:
    """The value of a roll given the faces of all 2N dice (a normal roll uses the first N of each term)."""
    dice, constant = dice_terms(text)
    total, i = constant, 0
    for count, _ in dice:
        used = 2 * count if critical else count
        total += sum(faces[i : i + used])
        i += 2 * count
    return max(0, total)


def all_dice(text: str) -> list[range]:
    dice, _ = dice_terms(text)
    return [range(1, sides + 1) for count, sides in dice for _ in range(2 * count)]


def kept_d20(advantage: bool, disadvantage: bool) -> dict[int, Fraction]:
    """The kept d20 by listing both dice when two are rolled."""
    table: defaultdict[int, Fraction] = defaultdict(Fraction)
    if advantage == disadvantage:
        for n in range(1, 21):
            table[n] += Fraction(1, 20)
    else:
        for a, b in product(range(1, 21), repeat=2):
            table[max(a, b) if advantage else min(a, b)] += Fraction(1, 400)
    return dict(table)


def convolve_naive(a: dict[Any, Fraction], b: dict[Any, Fraction], add: Any) -> dict[Any, Fraction]:
    out: defaultdict[Any, Fraction] = defaultdict(Fraction)
    for x, p in a.items():
        for y, q in b.items():
            out[add(x, y)] += p * q
    return dict(out)


def attack_roll_oracle(entry: dict[str, Any], situation: dict[str, Any], *, supported: bool, automatic: bool) -> dict[tuple[int, int, int], Fraction]:
    """(hits, crits, damage) of one roll, by listing the d20s and every damage die."""
    text = entry["damage"]
    faces = list(product(*all_dice(text)))
    resistance = situation.get("resistance", "none")
    isolated = situation.get("target_isolated", False)

    def after(value: int) -> int:
        value = value * 2 if isolated else value
        return {"none": value, "resistance": value // 2, "vulnerability": value * 2, "immunity": 0}[resistance]

    out: defaultdict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    if automatic:
        for f in faces:
            out[(1, 0, after(roll_value(text, f, critical=False)))] += Fraction(1, len(faces))
        return dict(out)
    melee = entry["kind"] == "melee"
    advantage = (
        isolated or situation.get("incited", False) or situation.get("extra_advantage", False)
        or (melee and (supported or situation.get("higher_ground", False)))
    )
    disadvantage = (
        situation.get("attacker_isolated", False) or situation.get("extra_disadvantage", False)
        or (not melee and (situation.get("long_range", False) or situation.get("adjacent_enemy", False)))
    )
    ac = situation["target_ac"] + (2 if situation.get("target_defensive") else 0)
    ac += {"none": 0, "half": 2, "three_quarters": 5}[situation.get("target_cover", "none")]
    for natural, p in kept_d20(advantage, disadvantage).items():
        if natural == 1 or (natural != 20 and natural + entry["attack_bonus"] < ac):
            out[(0, 0, 0)] += p
            continue
        critical = natural == 20
        for f in faces:
            out[(1, int(critical), after(roll_value(text, f, critical=critical)))] += p / len(faces)
    return dict(out)


def odds_table(procedure: str, data: dict[str, Any]) -> dict[tuple[Any, ...], Fraction]:
    """The package's answer as outcome-values tuple → probability."""
    import kessen

    return {tuple(o.values()): p for o, p in kessen.odds("armies-clash", procedure, data).outcomes}


def rolls_of(situation: dict[str, Any], *, reach_bonus: bool) -> list[dict[str, Any]]:
    entries = situation["attacks"]
    rolls = [e for e in entries for _ in range(e.get("count", 1))]
    long = [e for e in entries if e["kind"] == "melee" and e.get("reach_ft", 5) >= 10]
    return rolls + long[:1] if reach_bonus else rolls


def add3(x: tuple[int, int, int], y: tuple[int, int, int]) -> tuple[int, int, int]:
    return (x[0] + y[0], x[1] + y[1], x[2] + y[2])


def attack_oracle(situation: dict[str, Any]) -> dict[tuple[Any, ...], Fraction]:
    """The §6.3 outcome table (hits, crits, damage, reduced_to_zero, overflow) by brute force."""
    attacker, action, target = (situation.get(k, d) for k, d in (("attacker", "stand"), ("action", "attack"), ("target", "stand")))
    hp = situation["target_hp"]
    if target == "objective" and attacker == "solo" and action == "spell":
        return {(0, 0, 0, False, 0): Fraction(1)}
    total = {(0, 0, 0): Fraction(1)}
    for entry in rolls_of(situation, reach_bonus=attacker == "stand" and action == "attack"):
        automatic = target == "objective" and entry["kind"] == "melee"
        one = attack_roll_oracle(entry, situation, supported=situation.get("supported", False), automatic=automatic)
        total = convolve_naive(total, one, add3)
    return {(h, c, dmg, dmg >= hp, max(0, dmg - hp)): p for (h, c, dmg), p in total.items()}


def unit_attack_oracle(situation: dict[str, Any]) -> dict[int, Fraction]:
    """stands_reduced of §6.4 by brute force: each stand's rolls listed, the stands' damage summed uncapped."""
    stands, supporting = situation["stands"], situation.get("supporting_stands", 0)
    attackers = stands - supporting
    n_supported = min(supporting, attackers)
    total = {0: Fraction(1)}
    for index in range(attackers):
        stand = {0: Fraction(1)}
        for entry in rolls_of(situation, reach_bonus=True):
            one = attack_roll_oracle(entry, situation, supported=index < n_supported, automatic=False)
            stand = convolve_naive(stand, _damage_only(one), lambda a, b: a + b)
        total = convolve_naive(total, stand, lambda a, b: a + b)
    hp, chain = situation["target_hp"], situation.get("target_stands", 1)
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for damage, p in total.items():
        out[min(chain, damage // hp)] += p
    return {k: p for k, p in out.items() if p}


def _damage_only(one: dict[tuple[int, int, int], Fraction]) -> dict[int, Fraction]:
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for (_, _, damage), p in one.items():
        out[damage] += p
    return dict(out)


def save_oracle(situation: dict[str, Any]) -> dict[tuple[str, int], Fraction]:
    """The §6.5 outcome table by listing the d20s and every damage die."""
    s = {
        "target": "stand", "spell_form": "area", "caster": "stand", "damage": None, "on_success": "half",
        "resistance": "none", "target_isolated": False, "partial_coverage": False, "skirmisher": False,
        "prepared": False, "extra_advantage": False, "extra_disadvantage": False,
    } | situation
    if s["target"] == "objective" and s["spell_form"] == "targeted" and s["caster"] == "solo":
        return {("unaffected", 0): Fraction(1)}
    if s["partial_coverage"] and s["damage"] is None:
        return {("unaffected", 0): Fraction(1)}
    if s["target"] == "objective":
        naturals = {None: Fraction(1)}
    else:
        advantage = (s["skirmisher"] and s["ability"] == "dex") or s["prepared"] or s["extra_advantage"]
        disadvantage = s["extra_disadvantage"] or (
            s["target"] == "solo" and s["target_isolated"] and s["spell_form"] == "targeted" and s["caster"] == "stand"
        )
        naturals = kept_d20(advantage, disadvantage)  # type: ignore[assignment]
    out: defaultdict[tuple[str, int], Fraction] = defaultdict(Fraction)
    for natural, p in naturals.items():
        success = natural is not None and natural + s["save_bonus"] >= s["dc"]
        result = "success" if success else "failure"
        if s["damage"] is None or (success and s["on_success"] == "none"):
            out[(result, 0)] += p
            continue
        faces = list(product(*all_dice(s["damage"])))
        for f in faces:
            raw = roll_value(s["damage"], f, critical=False)
            up = int(s["spell_form"] == "area" and s["caster"] == "stand") + int(
                not success and s["spell_form"] == "targeted" and s["caster"] == "stand" and s["target"] == "solo" and s["target_isolated"]
            )
            down = int(success) + int(s["partial_coverage"])
            value = raw * 2**up // 2**down
            value = {"none": value, "resistance": value // 2, "vulnerability": value * 2, "immunity": 0}[s["resistance"]]
            out[(result, value)] += p / len(faces)
    return dict(out)
