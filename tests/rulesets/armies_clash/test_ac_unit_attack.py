"""The `unit_attack` procedure (§6.4): E6, overflow along the chain, rejects, brute-force cross-check."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from armies_clash_oracle import odds_table, unit_attack_oracle
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError

LONGSWORD = {"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}


def reduced(data: dict[str, Any]) -> dict[int, Fraction]:
    return {k[0]: p for k, p in odds_table("unit_attack", data).items()}


def test_ac_attack_6_e6_support_formation_with_overflow() -> None:
    """AC-ATTACK-6, AC-FORM-2, AC-DMG-2, E6: three stands, one supports; two attack (one with advantage) into two 7-HP stands."""
    got = reduced({
        "stands": 3, "supporting_stands": 1, "attacker_formation": "support", "attacks": [LONGSWORD],
        "target_ac": 13, "target_hp": 7, "target_stands": 2,
    })
    assert got == {0: Fraction(12883943, 32768000), 1: Fraction(14896703, 32768000), 2: Fraction(2493677, 16384000)}


def test_ac_dmg_2_one_stand_matches_attack_reduced_to_zero() -> None:
    """AC-DMG-2: one attacking stand against a one-stand chain fells it exactly when `attack` reduces it to 0."""
    single = reduced({"stands": 1, "attacks": [LONGSWORD], "target_ac": 13, "target_hp": 7})
    attack = kessen.odds("armies-clash", "attack", {"attacks": [LONGSWORD], "target_ac": 13, "target_hp": 7})
    assert single[1] == attack.probability(reduced_to_zero=True) == Fraction(147, 640)


def test_ac_dmg_2_overflow_fells_whole_chain_only_with_enough_damage() -> None:
    """AC-DMG-2: damage passes along identical stands; 2 stands × 1d8+1 can fell at most 4 stands of 4 HP (18 ÷ 4)."""
    got = reduced({"stands": 1, "attacks": [LONGSWORD | {"count": 2, "attack_bonus": 20}], "target_ac": 1, "target_hp": 4, "target_stands": 10})
    # two non-critical hits deal 4..18; with crits up to 34 → 8 stands; never all 10 (max 34 < 40)
    assert max(got) == 8
    assert 10 not in got


def test_ac_attack_6_supporters_beyond_attackers_add_nothing() -> None:
    """AC-ATTACK-6: extra supporters on the same stand add nothing: 3 stands with 2 supporters = 2 stands with 1."""
    base = {"attacker_formation": "support", "attacks": [LONGSWORD], "target_ac": 13, "target_hp": 7}
    one = reduced(base | {"stands": 2, "supporting_stands": 1})
    assert reduced(base | {"stands": 3, "supporting_stands": 2}) == one
    # one supported attacker: normal hit 280/400 (1d8+1 ≥ 7: 3/8), critical 39/400 (2d8+1 ≥ 7: 54/64)
    assert one[1] == Fraction(280, 400) * Fraction(3, 8) + Fraction(39, 400) * Fraction(54, 64)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"stands": 2, "supporting_stands": 2, "attacker_formation": "support"}, "supporting_stands"),
        ({"supporting_stands": 1}, "supporting_stands"),
        ({"attacker_formation": "defensive"}, "attacker_formation"),
        ({"target_isolated": True, "target_stands": 2}, "target_isolated"),
        ({"attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "3d8+5"}], "target_hp": 105, "target_stands": 10}, "target_stands"),
        ({"attacks": [LONGSWORD | {"count": 4}]}, "attacks"),
        ({"attacks": [LONGSWORD, LONGSWORD, LONGSWORD, LONGSWORD]}, "attacks"),
        ({"attacks": [LONGSWORD | {"damage": "10d6+0", "count": 1, "reach_ft": 10}]}, "attacks"),
        ({"stands": 11}, "stands"),
        ({"supported": True}, "supported"),
    ],
)
def test_ac_proc_1_unit_attack_rejects_name_the_field(patch: dict[str, Any], field: str) -> None:
    """AC-PROC-1, AC-PROC-6, AC-ATTACK-5: every reject of §6.4 (BAD-4, BAD-7 among them) names its field."""
    data = {"stands": 4, "attacks": [LONGSWORD], "target_ac": 13, "target_hp": 7} | patch
    with pytest.raises(InputError) as caught:
        kessen.odds("armies-clash", "unit_attack", data)
    assert caught.value.field == field


@settings(max_examples=25, deadline=None)
@given(
    stands=st.integers(1, 3),
    supporting=st.integers(0, 2),
    entries=st.lists(
        st.fixed_dictionaries({
            "kind": st.sampled_from(["melee", "ranged"]),
            "attack_bonus": st.integers(0, 8),
            "damage": st.sampled_from(["1d4", "1d3+1", "2d2", "1d4-1"]),
        }),
        min_size=1,
        max_size=2,
    ),
    reach=st.sampled_from([5, 10]),
    isolated=st.booleans(),
    resistance=st.sampled_from(["none", "resistance", "vulnerability"]),
    hp=st.integers(1, 9),
    chain=st.integers(1, 4),
    ac=st.integers(8, 18),
)
def test_ac_dmg_2_unit_attack_matches_brute_force(stands: int, supporting: int, entries: list[dict[str, Any]], reach: int, isolated: bool, resistance: str, hp: int, chain: int, ac: int) -> None:
    """AC-DMG-2, AC-ATTACK-6, AC-INTEG-1: stands_reduced equals an uncapped enumeration of every stand's dice."""
    supporting = min(supporting, stands - 1)
    entries = [e | ({"reach_ft": reach} if e["kind"] == "melee" else {}) for e in entries]
    data = {
        "stands": stands, "supporting_stands": supporting, "attacker_formation": "support" if supporting else "march",
        "attacks": entries, "target_ac": ac, "target_hp": hp, "target_stands": 1 if isolated else chain,
        "target_isolated": isolated, "resistance": resistance,
    }
    got = reduced(data)
    assert got == unit_attack_oracle(data)
    assert sum(got.values()) == 1


@settings(max_examples=20, deadline=None)
@given(stands=st.integers(1, 9), hp=st.integers(3, 30))
def test_ac_dmg_2_more_stands_fell_no_fewer(stands: int, hp: int) -> None:
    """AC-DMG-2: one more attacking stand never lowers the chance to fell at least k target stands."""
    base = {"attacks": [LONGSWORD], "target_ac": 13, "target_hp": hp, "target_stands": 5}
    few, more = reduced(base | {"stands": stands}), reduced(base | {"stands": stands + 1})
    for k in range(6):
        assert sum(p for r, p in more.items() if r >= k) >= sum(p for r, p in few.items() if r >= k)
