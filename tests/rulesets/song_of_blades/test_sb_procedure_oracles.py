"""song-of-blades procedures against independent brute-force oracles written from the spec's text.

The oracles below re-read §6.1–§6.5 of rules/song-of-blades.md and enumerate every die face with
itertools.product; they share no code with kessen.rulesets.song_of_blades. Hypothesis draws valid
inputs (respecting §6's cross-field rules) and the exact distributions must agree.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import kessen

SB = "song-of-blades"
CHECK = settings(max_examples=80, deadline=None, database=None)
SLOW_CHECK = settings(max_examples=30, deadline=None, database=None)

SIZES = ["normal", "big", "huge", "gargantuan"]
STATES = ["standing", "fallen", "transfixed"]

MELEE_DEFAULTS: dict[str, Any] = {
    "attacker_state": "standing", "defender_state": "standing", "free_hack": False, "lethal": False,
    "power_blow": False, "ambush": False, "attack_number": 1, "attacker_mounted": False,
    "defender_mounted": False, "attacker_size": "normal", "defender_size": "normal",
    "attacker_high_ground": False, "defender_obstacle": False, "attacker_enemies_in_contact": 1,
    "attacker_transfixed_in_contact": 0, "defender_enemies_in_contact": 1,
    "defender_transfixed_in_contact": 0, "attacker_can_recoil": True, "defender_can_recoil": True,
}


# --- the oracle: §6.1 read afresh ------------------------------------------------------------


def spec_ladder(w: int, l: int, die: int, lethal: bool, can_recoil: bool) -> str:
    """§6.1 ladder(W, L, die, lethal, can_recoil)."""
    if w >= 3 * l:
        return "gruesome_kill"
    if w >= 2 * l or lethal:
        return "kill"
    if die % 2 == 0:
        return "fall"
    return "recoil" if can_recoil else "fall"


def spec_roll(m: dict[str, Any], da: int, dd: int) -> tuple[str, str, str]:
    """§6.1's computation of one combat roll for natural dice da, dd."""
    rank = {size: i for i, size in enumerate(SIZES)}
    mod_a = 0
    if m["defender_state"] in ("fallen", "transfixed"):
        mod_a += 2
    if m["ambush"] and m["attack_number"] == 1:
        mod_a += 1
    if m["attacker_mounted"] and not m["defender_mounted"]:
        mod_a += 1
    if rank[m["attacker_size"]] > rank[m["defender_size"]]:
        mod_a += 1
    if m["attacker_high_ground"]:
        mod_a += 1
    mod_a -= max(0, m["attacker_enemies_in_contact"] - m["attacker_transfixed_in_contact"] - 1)
    mod_d = 0
    if m["attacker_state"] == "fallen":
        mod_d += 2
    if m["defender_obstacle"]:
        mod_d += 1
    if m["power_blow"]:
        mod_d -= 1
    mod_d -= max(0, m["defender_enemies_in_contact"] - m["defender_transfixed_in_contact"] - 1)
    a = da + m["attacker_combat"] + mod_a
    d = dd + m["defender_combat"] + mod_d
    if a == d:
        return ("none", "nothing", "none")
    if a > d:
        lethal = m["lethal"] or m["defender_state"] != "standing"
        return ("attacker", spec_ladder(a, d, da, lethal, m["defender_can_recoil"]), "defender")
    if m["free_hack"] or m["defender_state"] == "transfixed":
        return ("defender", "nothing", "none")
    return ("defender", spec_ladder(d, a, dd, m["attacker_state"] == "fallen", m["attacker_can_recoil"]), "attacker")


def spec_melee(data: dict[str, Any]) -> dict[tuple[str, str, str], Fraction]:
    m = {**MELEE_DEFAULTS, **data}
    table: defaultdict[tuple[str, str, str], Fraction] = defaultdict(Fraction)
    for da, dd in product(range(1, 7), repeat=2):
        table[spec_roll(m, da, dd)] += Fraction(1, 36)
    return dict(table)


# --- the oracle: §6.2 by enumerating every hack's dice --------------------------------------


ENEMY_DEFAULTS: dict[str, Any] = {
    "state": "standing", "size": "normal", "mounted": False, "flying": False, "high_ground": False,
    "obstacle": False, "enemies_in_contact": 1, "transfixed_in_contact": 0, "can_recoil": True,
}


def spec_hack_inputs(data: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """§6.2 steps 1–2: (1-based position, melee input) of each hacker, in list order."""
    leaving = {"size": "normal", "mounted": False, "flying": False, "free_disengage": False,
               "failed_morale": False, "can_recoil": True, **data}
    enemies = [{**ENEMY_DEFAULTS, **e} for e in leaving["enemies"]]
    counted = sum(1 for e in enemies if e["state"] != "transfixed")
    hacks = []
    if leaving["free_disengage"]:
        return hacks
    for position, e in enumerate(enemies, start=1):
        if e["state"] != "standing":
            continue
        if leaving["mounted"] and not e["mounted"]:
            continue
        if leaving["flying"] and not e["flying"]:
            continue
        hacks.append((position, {
            **MELEE_DEFAULTS,
            "attacker_combat": e["combat"], "defender_combat": leaving["combat"],
            "attacker_size": e["size"], "defender_size": leaving["size"],
            "attacker_mounted": e["mounted"], "defender_mounted": leaving["mounted"],
            "attacker_high_ground": e["high_ground"], "defender_obstacle": e["obstacle"],
            "attacker_enemies_in_contact": e["enemies_in_contact"],
            "attacker_transfixed_in_contact": e["transfixed_in_contact"],
            "defender_enemies_in_contact": counted, "defender_transfixed_in_contact": 0,
            "defender_can_recoil": leaving["can_recoil"] and e["can_recoil"], "free_hack": True, "lethal": leaving["failed_morale"],
        }))
    return hacks


def spec_disengage(data: dict[str, Any]) -> dict[tuple[str, int, int], Fraction]:
    """§6.2 step 3 over every combination of all the hackers' dice (6**(2k) rows)."""
    hacks = spec_hack_inputs(data)
    k = len(hacks)
    weight = Fraction(1, 36**k)
    table: defaultdict[tuple[str, int, int], Fraction] = defaultdict(Fraction)
    for faces in product(range(1, 7), repeat=2 * k):
        outcome = ("disengaged", k, 0)
        for i, (position, m) in enumerate(hacks):
            _, result, _ = spec_roll(m, faces[2 * i], faces[2 * i + 1])
            if result != "nothing":
                outcome = (result, i + 1, position)
                break
        table[outcome] += weight
    return dict(table)


# --- the oracles of §6.3–§6.5 --------------------------------------------------------------


def spec_quality_success(face: int, quality: int) -> bool:
    return face != 1 and (face == 6 or face >= quality)


def spec_activation(quality: int, dice: int) -> dict[tuple[int, int, bool], Fraction]:
    table: defaultdict[tuple[int, int, bool], Fraction] = defaultdict(Fraction)
    for faces in product(range(1, 7), repeat=dice):
        actions = sum(spec_quality_success(f, quality) for f in faces)
        table[(actions, dice - actions, dice - actions >= 2)] += Fraction(1, 6**dice)
    return dict(table)


def spec_morale(quality: int) -> dict[tuple[int, str, int], Fraction]:
    table: defaultdict[tuple[int, str, int], Fraction] = defaultdict(Fraction)
    for faces in product(range(1, 7), repeat=3):
        failures = sum(not spec_quality_success(f, quality) for f in faces)
        result = "stands" if failures == 0 else "destroyed" if failures == 3 else "flees"
        table[(failures, result, failures if result == "flees" else 0)] += Fraction(1, 216)
    return dict(table)


def spec_targets(data: dict[str, Any]) -> tuple[bool, ...]:
    enemies = [{"state": "standing", **e} for e in data["enemies"]]
    exempt = {"opportunistic", "combat_master", "assassin"} & set(data.get("special_rules", []))
    upright = sum(e["points"] for e in enemies if e["state"] != "fallen")
    if not data.get("melee_priority", False) or exempt or all(e["state"] == "fallen" for e in enemies):
        return tuple(True for _ in enemies)
    return tuple(e["state"] != "fallen" or upright <= e["points"] for e in enemies)


# --- valid inputs --------------------------------------------------------------------------


@st.composite
def melee_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid `melee` input (§6.1's ranges and cross-field rules), with some fields left to defaults."""
    m: dict[str, Any] = {
        "attacker_combat": draw(st.integers(0, 12)),
        "defender_combat": draw(st.integers(0, 12)),
    }
    free_hack = draw(st.booleans())
    a_in = draw(st.integers(1, 8))
    d_in = draw(st.integers(1, 8))
    m["defender_state"] = "standing" if free_hack else draw(st.sampled_from(STATES))
    a_tr_low = 1 if m["defender_state"] == "transfixed" else 0
    m["attacker_enemies_in_contact"] = a_in
    m["attacker_transfixed_in_contact"] = draw(st.integers(a_tr_low, min(a_in, 7)))
    m["defender_enemies_in_contact"] = d_in
    m["defender_transfixed_in_contact"] = draw(st.integers(0, d_in - 1))
    m["free_hack"] = free_hack
    m["attacker_state"] = "standing" if free_hack else draw(st.sampled_from(["standing", "fallen"]))
    if not free_hack:
        m["power_blow"] = draw(st.booleans())
        m["ambush"] = draw(st.booleans())
    for flag in ("lethal", "attacker_mounted", "defender_mounted", "attacker_high_ground", "defender_obstacle",
                 "attacker_can_recoil", "defender_can_recoil"):
        if draw(st.booleans()):
            m[flag] = draw(st.booleans())
    m["attack_number"] = draw(st.integers(1, 6))
    m["attacker_size"] = draw(st.sampled_from(SIZES))
    m["defender_size"] = draw(st.sampled_from(SIZES))
    return m


@st.composite
def enemies(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 8))
    return {
        "combat": draw(st.integers(0, 12)),
        "state": draw(st.sampled_from(["standing", "standing", "fallen", "transfixed"])),
        "size": draw(st.sampled_from(SIZES)),
        "mounted": draw(st.booleans()),
        "flying": draw(st.booleans()),
        "high_ground": draw(st.booleans()),
        "obstacle": draw(st.booleans()),
        "enemies_in_contact": n,
        "transfixed_in_contact": draw(st.integers(0, n - 1)),
        "can_recoil": draw(st.booleans()),  # room to recoil away from this enemy (SB-RECOIL-5)
    }


@st.composite
def disengage_inputs(draw: st.DrawFn, max_enemies: int = 3) -> dict[str, Any]:
    return {
        "combat": draw(st.integers(0, 12)),
        "size": draw(st.sampled_from(SIZES)),
        "mounted": draw(st.sampled_from([False, False, False, True])),  # mostly hacked: a longer chain
        "flying": draw(st.sampled_from([False, False, False, True])),
        "free_disengage": draw(st.sampled_from([False, False, False, True])),
        "failed_morale": draw(st.booleans()),
        "can_recoil": draw(st.booleans()),
        "enemies": draw(st.lists(enemies(), min_size=1, max_size=max_enemies)),
    }


def kessen_table(procedure: str, data: dict[str, Any]) -> dict[tuple[Any, ...], Fraction]:
    result = kessen.odds(SB, procedure, data)
    got = {tuple(o.values()): p for o, p in result.outcomes}
    assert sum(got.values()) == 1
    return got


# --- the cross-checks ----------------------------------------------------------------------


@CHECK
@given(melee_inputs())
def test_sb_melee_3_melee_matches_the_brute_force_of_the_spec(data: dict[str, Any]) -> None:
    """SB-MELEE-3..10, SB-MOD-1..8, SB-OUT-1..3: `melee` equals §6.1 over all 36 pairs of dice."""
    assert kessen_table("melee", data) == spec_melee(data)


@SLOW_CHECK
@given(disengage_inputs())
def test_sb_dis_6_disengage_matches_an_enumeration_of_every_hack_die(data: dict[str, Any]) -> None:
    """SB-DIS-1..8: `disengage` (a chain of binds) equals the enumeration of all hackers' dice."""
    assert kessen_table("disengage", data) == spec_disengage(data)


@settings(max_examples=10, deadline=None, database=None)
@given(st.integers(0, 12), st.booleans(), st.lists(enemies(), min_size=2, max_size=3))
def test_sb_dis_5_chains_of_two_or_three_hackers_match_the_enumeration(
    combat: int, failed_morale: bool, entries: list[dict[str, Any]]
) -> None:
    """SB-DIS-5, SB-DIS-6, SB-DIS-8: every entry standing and able to hack, so the chain is 2–3 long."""
    entries = [{**e, "state": "standing", "mounted": False, "flying": False} for e in entries]
    data = {"combat": combat, "failed_morale": failed_morale, "enemies": entries}
    assert len(spec_hack_inputs(data)) == len(entries)
    assert kessen_table("disengage", data) == spec_disengage(data)


def test_sb_dis_6_disengage_brute_force_with_three_standing_hackers() -> None:
    """SB-DIS-2, SB-DIS-6, SB-DIS-8: three hackers of mixed Combat (36**3 dice rows)."""
    data = {"combat": 4, "enemies": [{"combat": 2}, {"combat": 5, "size": "big"}, {"combat": 3, "high_ground": True}]}
    assert kessen_table("disengage", data) == spec_disengage(data)


@SLOW_CHECK
@given(disengage_inputs(max_enemies=8))
def test_sb_dis_8_many_enemies_sum_to_one_and_stop_at_the_first_effect(data: dict[str, Any]) -> None:
    """SB-DIS-6: at the spec's limit of 8 enemies: distinct outcomes, free_hacks = by after an effect,
    and never more hacks than hackers (SB-DIS-2)."""
    result = kessen.odds(SB, "disengage", data)
    hackers = [position for position, _ in spec_hack_inputs(data)]
    assert sum(p for _, p in result.outcomes) == 1
    for outcome, _ in result.outcomes:
        if outcome["result"] == "disengaged":
            assert (outcome["free_hacks"], outcome["by"]) == (len(hackers), 0)
        else:
            assert outcome["by"] == hackers[outcome["free_hacks"] - 1]


@CHECK
@given(st.integers(2, 6), st.integers(1, 3))
def test_sb_act_1_activation_matches_the_brute_force(quality: int, dice: int) -> None:
    """SB-ACT-1, SB-ACT-2 over every face of every die."""
    assert kessen_table("activation", {"quality": quality, "dice": dice}) == spec_activation(quality, dice)


@CHECK
@given(st.integers(2, 6))
def test_sb_mor_2_morale_matches_the_brute_force(quality: int) -> None:
    """SB-MOR-2 over the 216 rolls of three dice."""
    assert kessen_table("morale", {"quality": quality}) == spec_morale(quality)


@CHECK
@given(
    st.fixed_dictionaries(
        {
            "melee_priority": st.booleans(),
            "special_rules": st.lists(
                st.sampled_from(["free_disengage", "opportunistic", "combat_master", "assassin"]), unique=True
            ),
            "enemies": st.lists(
                st.fixed_dictionaries({"state": st.sampled_from(STATES), "points": st.integers(1, 120)}),
                min_size=1, max_size=8,
            ),
        }
    )
)
def test_sb_prio_3_melee_targets_matches_the_spec(data: dict[str, Any]) -> None:
    """SB-PRIO-1..4 for any list of enemies."""
    assert kessen_table("melee_targets", data) == {spec_targets(data): Fraction(1)}


# --- properties ----------------------------------------------------------------------------


@CHECK
@given(melee_inputs())
def test_sb_melee_3_more_combat_never_hurts_the_attacker(data: dict[str, Any]) -> None:
    """SB-MELEE-3: one more attacker Combat never lowers its chance to win nor raises its chance to be hurt."""
    if data["attacker_combat"] == 12:
        return
    before = kessen.odds(SB, "melee", data)
    after = kessen.odds(SB, "melee", {**data, "attacker_combat": data["attacker_combat"] + 1})
    assert after.probability(winner="attacker") >= before.probability(winner="attacker")
    assert after.probability(affected="attacker") <= before.probability(affected="attacker")


@CHECK
@given(disengage_inputs(max_enemies=4))
def test_sb_dis_4_free_disengage_always_gets_away(data: dict[str, Any]) -> None:
    """SB-DIS-4: with Free Disengage the model always disengages without a hack."""
    got = kessen_table("disengage", {**data, "free_disengage": True})
    assert got == {("disengaged", 0, 0): Fraction(1)}
