"""The `save` procedure (§6.5): E7–E9, objectives, partial coverage, rejects, brute-force cross-check."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from armies_clash_oracle import odds_table, save_oracle
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError


def save(data: dict[str, Any]) -> dict[tuple[str, int], Fraction]:
    return odds_table("save", data)  # type: ignore[return-value]


def p(table: dict[tuple[str, int], Fraction], test: Any) -> Fraction:
    return sum((q for k, q in table.items() if test(*k)), Fraction(0))


def test_ac_skirm_1_e7_stand_area_against_skirmishers() -> None:
    """AC-SKIRM-1, AC-AOE-8, AC-AOE-9, E7: Dex save with advantage; stand casting doubles, success halves."""
    t = save({"ability": "dex", "save_bonus": 1, "dc": 13, "damage": "2d6", "skirmisher": True})
    assert p(t, lambda r, d: r == "success") == Fraction(279, 400)
    assert p(t, lambda r, d: d == 12) == Fraction(221, 3600)  # success with 12, or failure with 6 doubled
    assert p(t, lambda r, d: d <= 6) == Fraction(379, 1200)


def test_ac_aoe_7_e8_partly_covered_stand() -> None:
    """AC-AOE-7, AC-AOE-9, E8: stand-cast (×2), partial (÷2), success (÷2)."""
    t = save({"ability": "con", "save_bonus": 0, "dc": 12, "damage": "1d6", "partial_coverage": True})
    assert p(t, lambda r, d: r == "success") == Fraction(9, 20)
    assert p(t, lambda r, d: d == 3) == Fraction(1, 6)
    assert p(t, lambda r, d: d == 6) == Fraction(11, 120)


def test_ac_spell_5_e9_stand_targeted_spell_on_isolated_solo() -> None:
    """AC-SPELL-5, E9: disadvantage on the save, double damage on a failure, nothing on a success ("none")."""
    t = save({
        "ability": "wis", "save_bonus": 2, "dc": 14, "target": "solo", "spell_form": "targeted",
        "target_isolated": True, "damage": "1d4", "on_success": "none",
    })
    assert t == {("failure", d): Fraction(319, 1600) for d in (2, 4, 6, 8)} | {("success", 0): Fraction(81, 400)}


def test_ac_aoe_7_partial_coverage_without_damage_is_unaffected() -> None:
    """AC-AOE-7: a partly covered stand is unaffected by an effect that deals no damage."""
    assert save({"ability": "wis", "save_bonus": 0, "dc": 15, "partial_coverage": True}) == {("unaffected", 0): 1}


def test_ac_obj_4_objective_fails_every_save_and_ignores_solo_targeted_spells() -> None:
    """AC-OBJ-4: a square fails every save automatically; a solo's targeted spell does not damage it; area doubling applies."""
    assert save({"ability": "dex", "save_bonus": 20, "dc": 1, "target": "objective", "damage": "1d4"}) == {("failure", 2 * d): Fraction(1, 4) for d in range(1, 5)}
    assert save({"ability": "dex", "save_bonus": 0, "dc": 10, "target": "objective", "spell_form": "targeted", "caster": "solo", "damage": "8d6"}) == {("unaffected", 0): 1}


def test_ac_aoe_8_solo_area_spell_works_normally() -> None:
    """AC-AOE-8: a solo's area spell is not doubled: failure takes the roll, success half of it."""
    t = save({"ability": "dex", "save_bonus": 0, "dc": 11, "caster": "solo", "damage": "1d4"})
    assert t == {("failure", d): Fraction(1, 8) for d in (1, 2, 3, 4)} | {("success", 0): Fraction(1, 8), ("success", 1): Fraction(1, 4), ("success", 2): Fraction(1, 8)}


def test_ac_cmd_3_prepare_gives_advantage_on_saves() -> None:
    """AC-CMD-3: a prepared unit's stands save with advantage (DC 11, +0: 1 − (10/20)² = 3/4)."""
    t = save({"ability": "wis", "save_bonus": 0, "dc": 11, "prepared": True})
    assert t == {("failure", 0): Fraction(1, 4), ("success", 0): Fraction(3, 4)}


def test_ac_d20_3_saves_ignore_natural_20() -> None:
    """AC-D20-3: a save that cannot reach the DC fails even on a 20."""
    assert save({"ability": "str", "save_bonus": -5, "dc": 40}) == {("failure", 0): 1}


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"target": "solo", "skirmisher": True}, "skirmisher"),
        ({"target": "objective", "prepared": True}, "prepared"),
        ({"spell_form": "targeted", "partial_coverage": True}, "partial_coverage"),
        ({"target": "solo", "partial_coverage": True}, "partial_coverage"),
        ({"target": "objective", "target_isolated": True}, "target_isolated"),
        ({"damage": "1d7"}, "damage"),
        ({"ability": "DEX"}, "ability"),
        ({"dc": 41}, "dc"),
    ],
)
def test_ac_proc_1_save_rejects_name_the_field(patch: dict[str, Any], field: str) -> None:
    """AC-PROC-1, AC-PROC-2: every reject of §6.5 (BAD-2 among them) names its field."""
    with pytest.raises(InputError) as caught:
        kessen.odds("armies-clash", "save", {"ability": "dex", "save_bonus": 1, "dc": 12} | patch)
    assert caught.value.field == field


@settings(max_examples=80, deadline=None)
@given(
    data=st.fixed_dictionaries(
        {
            "ability": st.sampled_from(["dex", "wis"]),
            "save_bonus": st.integers(-3, 8),
            "dc": st.integers(5, 20),
            "target": st.sampled_from(["stand", "solo", "objective"]),
            "spell_form": st.sampled_from(["area", "targeted"]),
            "caster": st.sampled_from(["stand", "solo"]),
            "damage": st.sampled_from([None, "1d6", "2d4+1", "1d4-2", "5"]),
            "on_success": st.sampled_from(["half", "none"]),
            "resistance": st.sampled_from(["none", "resistance", "vulnerability", "immunity"]),
        },
        optional={name: st.booleans() for name in ("target_isolated", "partial_coverage", "skirmisher", "prepared", "extra_advantage", "extra_disadvantage")},
    )
)
def test_ac_aoe_9_save_matches_brute_force(data: dict[str, Any]) -> None:
    """AC-AOE-9, AC-SPELL-5, AC-AOE-7, AC-SKIRM-1: the save table equals an enumeration of the d20s and damage dice."""
    if data["target"] != "stand":
        data |= {"partial_coverage": False, "skirmisher": False, "prepared": False}
    if data["spell_form"] != "area":
        data["partial_coverage"] = False
    if data["target"] == "objective":
        data["target_isolated"] = False
    got = save(data)
    assert got == save_oracle(data)
    assert sum(got.values()) == 1
