"""The `attack` procedure (§6.3): worked examples E1–E5, rejects, and a brute-force cross-check."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from armies_clash_oracle import attack_oracle, odds_table
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError
from kessen.odds import OddsResult
from kessen.rulesets.armies_clash.rules.attack import Roll, action_rolls, effective_ac
from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
from kessen.rulesets.armies_clash.profiles import Attack


def odds(data: dict[str, Any]) -> OddsResult:
    return kessen.odds("armies-clash", "attack", data)


LONGSWORD = {"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}
E1 = {"attacks": [LONGSWORD], "target_ac": 13, "target_hp": 7}


def test_ac_d20_1_e1_plain_melee() -> None:
    """AC-ATTACK-4, AC-D20-1, AC-D20-3, AC-D20-4, E1: +3 against AC 13 hits on 10+; a 20 is critical (2d8+1)."""
    r = odds(E1)
    assert r.probability(hits=1) == Fraction(11, 20)
    assert r.probability(crits=1) == Fraction(1, 20)
    assert r.probability(reduced_to_zero=True) == Fraction(147, 640)  # 10/20·3/8 + 1/20·54/64
    assert sum(p for o, p in r.outcomes if o["overflow"] >= 1) == Fraction(209, 1280)
    assert len(r.outcomes) == 24
    assert r.probability(hits=0, crits=0, damage=0, reduced_to_zero=False, overflow=0) == Fraction(9, 20)
    assert r.probability(hits=1, crits=0, damage=9, reduced_to_zero=True, overflow=2) == Fraction(1, 16)
    assert r.probability(hits=1, crits=1, damage=10, reduced_to_zero=True, overflow=3) == Fraction(1, 160)
    assert r.probability(hits=1, crits=1, damage=17, reduced_to_zero=True, overflow=10) == Fraction(1, 1280)


def test_ac_integ_1_e2_isolated_target_advantage_and_double_damage() -> None:
    """AC-INTEG-1, E2: attacks on an isolated stand have advantage and each hit deals double."""
    r = odds({"attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "1d6+3"}], "target_ac": 12, "target_hp": 9, "target_isolated": True})
    assert r.probability(hits=1) == Fraction(91, 100)  # 1 − (6/20)²
    assert r.probability(crits=1) == Fraction(39, 400)
    assert r.probability(damage=8) == Fraction(13, 96)  # non-critical hit, d6 = 1, (1+3)×2
    assert r.probability(damage=24) == Fraction(13, 1200)  # critical, 2d6 = 9, (9+3)×2
    assert r.probability(reduced_to_zero=True) == Fraction(1859, 2400)


def test_ac_attack_8_e3_defensive_forest_and_cancelled_advantage() -> None:
    """AC-ATTACK-8, AC-FORM-3, AC-TERR-3, AC-D20-6, AC-D20-2, E3: AC 15 + 2 + 2 = 19; Incite and isolation cancel."""
    r = odds({
        "attacks": [{"kind": "melee", "attack_bonus": 4, "damage": "1d6+2"}], "target_ac": 15, "target_hp": 11,
        "target_defensive": True, "target_cover": "half", "incited": True, "attacker_isolated": True,
    })
    assert r.probability(hits=1) == Fraction(3, 10)
    assert r.probability(crits=1) == Fraction(1, 20)
    assert r.probability(damage=14) == Fraction(1, 720)


def test_ac_attack_3_e4_reach_gives_a_stand_one_bonus_roll() -> None:
    """AC-ATTACK-3, E4: a 10-ft reach melee attack gives a stand two rolls."""
    r = odds({"attacks": [{"kind": "melee", "attack_bonus": 6, "damage": "2d8+4", "reach_ft": 10}], "target_ac": 14, "target_hp": 30})
    assert r.probability(hits=2) == Fraction(169, 400)
    assert r.probability(hits=0) == Fraction(49, 400)
    assert r.probability(reduced_to_zero=True) == Fraction(459384491, 3355443200)


def test_ac_obj_4_e5_objective_melee_hits_automatically() -> None:
    """AC-OBJ-4, E5: melee on an objective square always hits and is never critical; damage 3..14 each 1/12."""
    r = odds({"attacks": [{"kind": "melee", "attack_bonus": 4, "damage": "1d12+2"}], "target": "objective", "target_ac": 15, "target_hp": 10})
    assert r.probability(hits=1) == 1
    assert r.probability(crits=0) == 1
    assert r.probability(reduced_to_zero=True) == Fraction(5, 12)
    assert [o["damage"] for o, _ in r.outcomes] == list(range(3, 15))
    assert all(p == Fraction(1, 12) for _, p in r.outcomes)


def test_ac_obj_4_solo_spell_attack_on_objective_does_nothing() -> None:
    """AC-OBJ-4 (step 2): a solo's spell attack on an objective square deals nothing."""
    r = odds({"attacker": "solo", "action": "spell", "attacks": [{"kind": "ranged", "attack_bonus": 7, "damage": "2d10"}], "target": "objective", "target_ac": 15, "target_hp": 10})
    assert r.outcomes == [({"hits": 0, "crits": 0, "damage": 0, "reduced_to_zero": False, "overflow": 0}, Fraction(1))]


def test_ac_attack_3_only_stands_only_attack_action_only_one() -> None:
    """AC-ATTACK-3: one bonus roll of the first long-reach attack, for a stand's Attack action only."""
    glaive = Roll(Attack("melee", 5, parse_dice("1d10+3"), 10))
    whip = Roll(Attack("melee", 5, parse_dice("1d4"), 15))
    bow = Roll(Attack("ranged", 5, parse_dice("1d8")))
    assert action_rolls([(bow, 1), (glaive, 2), (whip, 1)], reach_bonus=True) == (bow, glaive, glaive, whip, glaive)
    assert action_rolls([(bow, 1), (glaive, 2)], reach_bonus=False) == (bow, glaive, glaive)
    assert action_rolls([(bow, 2)], reach_bonus=True) == (bow, bow)
    solo = odds({"attacker": "solo", "attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "1d6", "reach_ft": 10}], "target_ac": 10, "target_hp": 5})
    assert max(o["hits"] for o, _ in solo.outcomes) == 1


def test_ac_attack_8_effective_ac() -> None:
    """AC-ATTACK-8, AC-D20-6: AC + 2 for a defensive regiment + 0/2/5 cover."""
    assert effective_ac(13, defensive=False, cover="none") == 13
    assert effective_ac(13, defensive=True, cover="three_quarters") == 20


def test_ac_attack_6_supported_melee_has_advantage_ranged_does_not() -> None:
    """AC-ATTACK-6: a supported stand's melee rolls have advantage; its ranged rolls do not."""
    base = {"attacker_formation": "support", "supported": True, "target_ac": 13, "target_hp": 50}
    melee = odds(base | {"attacks": [LONGSWORD]})
    ranged = odds(base | {"attacks": [LONGSWORD | {"kind": "ranged"}]})
    assert melee.probability(hits=1) == 1 - Fraction(9, 20) ** 2
    assert ranged.probability(hits=1) == Fraction(11, 20)


def test_ac_terr_6_higher_ground_helps_melee_only() -> None:
    """AC-TERR-6, AC-ATTACK-7: higher ground gives advantage on melee rolls, not ranged ones."""
    assert odds(E1 | {"higher_ground": True}).probability(hits=1) == 1 - Fraction(9, 20) ** 2
    bow = {"attacks": [LONGSWORD | {"kind": "ranged"}], "target_ac": 13, "target_hp": 7, "higher_ground": True}
    assert odds(bow).probability(hits=1) == Fraction(11, 20)


def test_ac_d20_8_long_range_and_adjacent_enemy_hinder_ranged_only() -> None:
    """AC-D20-8: long range or an adjacent enemy gives disadvantage on ranged rolls; melee is unaffected."""
    bow = {"attacks": [LONGSWORD | {"kind": "ranged"}], "target_ac": 13, "target_hp": 7}
    for flag in ("long_range", "adjacent_enemy"):
        assert odds(bow | {flag: True}).probability(hits=1) == Fraction(11, 20) ** 2
        assert odds(E1 | {flag: True}).probability(hits=1) == Fraction(11, 20)


def test_ac_cmd_3_incite_gives_advantage_on_every_roll() -> None:
    """AC-CMD-3, AC-ATTACK-7: an incited stand rolls with advantage, melee or ranged."""
    bow = {"attacks": [LONGSWORD | {"kind": "ranged"}], "target_ac": 13, "target_hp": 7, "incited": True}
    assert odds(bow).probability(hits=1) == 1 - Fraction(9, 20) ** 2


def test_ac_integ_7_stand_spell_attack_on_isolated_solo() -> None:
    """AC-INTEG-7, AC-SPELL-5: a stand's spell attack on an isolated solo has advantage and deals double."""
    r = odds({"action": "spell", "attacks": [{"kind": "ranged", "attack_bonus": 5, "damage": "1d10"}], "target": "solo", "target_ac": 15, "target_hp": 40, "target_isolated": True})
    assert r.probability(hits=1) == 1 - Fraction(9, 20) ** 2
    assert all(o["damage"] % 2 == 0 for o, _ in r.outcomes)
    assert max(o["damage"] for o, _ in r.outcomes) == 40  # critical 2d10 = 20, doubled


def test_ac_dmg_2_overflow_is_damage_beyond_hp() -> None:
    """AC-DMG-2, AC-DMG-1: overflow = max(0, damage − HP); reduced_to_zero when damage ≥ HP."""
    for o, _ in odds(E1).outcomes:
        assert o["overflow"] == max(0, o["damage"] - 7)
        assert o["reduced_to_zero"] == (o["damage"] >= 7)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"target_cover": "full"}, "target_cover"),
        ({"attacker": "solo", "attacker_formation": "march"}, "attacker_formation"),
        ({"attacker": "solo", "incited": True}, "incited"),
        ({"attacker": "solo", "supported": True}, "supported"),
        ({"attacker_formation": "defensive"}, "attacker_formation"),
        ({"supported": True, "attacker_formation": "march"}, "supported"),
        ({"supported": True, "attacker_formation": "support", "action": "spell"}, "supported"),
        ({"target": "objective", "target_isolated": True}, "target_isolated"),
        ({"target": "objective", "target_defensive": True}, "target_defensive"),
        ({"target": "solo", "target_defensive": True}, "target_defensive"),
        ({"attacks": [LONGSWORD | {"count": 3}, LONGSWORD | {"count": 2}]}, "attacks"),
        ({"attacks": [LONGSWORD | {"damage": "1d8+5d8+5", "count": 3}]}, "attacks"),
        ({"attacks": [LONGSWORD | {"damage": "2d7+1"}]}, "attacks[0].damage"),
        ({"attacks": [LONGSWORD | {"kind": "ranged", "reach_ft": 10}]}, "attacks[0].reach_ft"),
        ({"attacks": [LONGSWORD | {"reach_ft": 12}]}, "attacks[0].reach_ft"),
        ({"attacks": [LONGSWORD | {"reach_ft": None}]}, "attacks[0].reach_ft"),
        ({"attacks": []}, "attacks"),
        ({"target_ac": 13.0}, "target_ac"),
        ({"target_hp": True}, "target_hp"),
        ({"target_hp": 1001}, "target_hp"),
        ({"range": 3}, "range"),
        ({"attacks": [LONGSWORD | {"attack_bonus": 21}]}, "attacks[0].attack_bonus"),
    ],
)
def test_ac_proc_1_attack_rejects_name_the_field(patch: dict[str, Any], field: str) -> None:
    """AC-PROC-1, AC-PROC-2, AC-ATTACK-5, AC-PROC-CEIL: every reject of §6.3 is an InputError naming its field."""
    with pytest.raises(InputError) as caught:
        odds(E1 | patch)
    assert caught.value.field == field


def test_ac_proc_6_ceiling_300_includes_reach_roll() -> None:
    """AC-PROC-6, AC-PROC-CEIL: the reach bonus roll counts towards the ceiling of 300; a solo has none."""
    routine = {"attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "10d6+0", "count": 2, "reach_ft": 10}], "target_ac": 10, "target_hp": 5}
    with pytest.raises(InputError):  # 3 rolls × 120 = 360
        odds(routine)
    assert odds(routine | {"attacker": "solo"}).probability(hits=2) > 0  # 2 rolls × 120 = 240


_entry = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["melee", "ranged"]),
        "attack_bonus": st.integers(-2, 12),
        "damage": st.sampled_from(["1d4", "1d6+1", "2d3", "1d4-2", "3", "1d2+1d3"]),
        "count": st.integers(1, 2),
    }
)


@settings(max_examples=40, deadline=None)
@given(
    entries=st.lists(_entry, min_size=1, max_size=2),
    reach=st.sampled_from([5, 10]),
    flags=st.fixed_dictionaries(
        {},
        optional={
            name: st.booleans()
            for name in ("target_isolated", "attacker_isolated", "incited", "higher_ground", "long_range", "adjacent_enemy", "extra_advantage", "extra_disadvantage")
        },
    ),
    resistance=st.sampled_from(["none", "resistance", "vulnerability", "immunity"]),
    cover=st.sampled_from(["none", "half", "three_quarters"]),
    target=st.sampled_from(["stand", "solo", "objective"]),
    ac=st.integers(8, 20),
    hp=st.integers(1, 12),
)
def test_ac_attack_7_matches_brute_force(entries: list[dict[str, Any]], reach: int, flags: dict[str, bool], resistance: str, cover: str, target: str, ac: int, hp: int) -> None:
    """AC-ATTACK-7, AC-D20-2..7, AC-INTEG-1, AC-OBJ-4: the table equals an enumeration of every d20 and damage die."""
    entries = [e | ({"reach_ft": reach} if e["kind"] == "melee" else {}) for e in entries]
    if sum(e["count"] for e in entries) > 3:
        entries = entries[:1]
    data = {"attacks": entries, "target": target, "target_ac": ac, "target_hp": hp, "target_cover": cover, "resistance": resistance} | flags
    if target == "objective":
        data["target_isolated"] = False
    got = odds_table("attack", data)
    assert got == attack_oracle(data)
    assert sum(got.values()) == 1


@settings(max_examples=30, deadline=None)
@given(ac=st.integers(2, 30), bonus=st.integers(-5, 15))
def test_ac_d20_1_higher_ac_never_helps_the_attacker(ac: int, bonus: int) -> None:
    """AC-D20-1: raising the target's AC by 1 never raises the chance to hit or the chance to fell it."""
    data = {"attacks": [{"kind": "melee", "attack_bonus": bonus, "damage": "1d8+1", "count": 2}], "target_ac": ac, "target_hp": 9}
    low, high = odds(data), odds(data | {"target_ac": ac + 1})
    assert high.probability(hits=0) >= low.probability(hits=0)
    assert high.probability(reduced_to_zero=True) <= low.probability(reduced_to_zero=True)
