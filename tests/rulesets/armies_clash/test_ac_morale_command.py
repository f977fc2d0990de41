"""The `morale` and `commander_check` procedures (§6.6, §6.7): E10–E13, modes, rejects."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from armies_clash_oracle import odds_table
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError


def test_ac_morale_2_e10_exactly_half_lost_checks_with_best_wisdom() -> None:
    """AC-MORALE-1, AC-MORALE-2, AC-MORALE-3, E10: 3 of 6 lost → check; best modifier +1 needs 9+; fail → routed."""
    t = odds_table("morale", {"wisdom_modifiers": [0, 1, -1], "starting_stands": 6, "stands_lost": 3})
    assert t == {(True, False): Fraction(3, 5), (True, True): Fraction(2, 5)}


def test_ac_morale_6_e11_rally_with_prepare() -> None:
    """AC-MORALE-6, AC-CMD-3, E11: DC 10 with +0 Wisdom + 3 Charisma, with advantage: 1 − (3/10)² = 91/100."""
    t = odds_table("morale", {"mode": "rally", "wisdom_modifiers": [0], "commander_cha_modifier": 3, "advantage": True})
    assert t == {(True, False): Fraction(91, 100), (True, True): Fraction(9, 100)}


def test_ac_morale_1_e12_below_half_no_check() -> None:
    """AC-MORALE-1, E12: 2 of 5 lost is below half: no check, not routed."""
    assert odds_table("morale", {"wisdom_modifiers": [2], "starting_stands": 5, "stands_lost": 2}) == {(False, False): 1}


@settings(max_examples=60, deadline=None)
@given(start=st.integers(1, 100), data=st.data())
def test_ac_morale_1_checks_exactly_when_half_or_more_lost(start: int, data: st.DataObject) -> None:
    """AC-MORALE-1: a unit checks iff 2 × lost ≥ starting stands."""
    lost = data.draw(st.integers(0, start - 1))
    t = odds_table("morale", {"wisdom_modifiers": [0], "starting_stands": start, "stands_lost": lost})
    assert all(checked == (2 * lost >= start) for checked, _ in t)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"mode": "rally", "wisdom_modifiers": [0]}, "commander_cha_modifier"),
        ({"mode": "rally", "wisdom_modifiers": [0], "commander_cha_modifier": 1, "starting_stands": 4}, "starting_stands"),
        ({"wisdom_modifiers": [0], "starting_stands": 4}, "stands_lost"),
        ({"wisdom_modifiers": [0], "starting_stands": 4, "stands_lost": 1, "commander_cha_modifier": 2}, "commander_cha_modifier"),
        ({"wisdom_modifiers": [0], "starting_stands": 4, "stands_lost": 4}, "stands_lost"),
        ({"wisdom_modifiers": [], "starting_stands": 4, "stands_lost": 1}, "wisdom_modifiers"),
        ({"wisdom_modifiers": [11], "starting_stands": 4, "stands_lost": 1}, "wisdom_modifiers[0]"),
        ({"wisdom_modifiers": [0], "starting_stands": None, "stands_lost": 1}, "starting_stands"),
        ({"mode": "Check", "wisdom_modifiers": [0], "starting_stands": 4, "stands_lost": 1}, "mode"),
    ],
)
def test_ac_proc_1_morale_mode_fields(data: dict[str, Any], field: str) -> None:
    """AC-PROC-1, AC-PROC-3: check mode needs starting_stands and stands_lost, rally needs commander_cha_modifier."""
    with pytest.raises(InputError) as caught:
        kessen.odds("armies-clash", "morale", data)
    assert caught.value.field == field


def test_ac_cmd_3_e13_commander_check_dc_15() -> None:
    """AC-CMD-3, AC-D20-2, E13: +5 against DC 15 succeeds 11/20; advantage and disadvantage together change nothing."""
    assert odds_table("commander_check", {"check_bonus": 5}) == {(False,): Fraction(9, 20), (True,): Fraction(11, 20)}
    both = odds_table("commander_check", {"check_bonus": 5, "advantage": True, "disadvantage": True})
    assert both[(True,)] == Fraction(11, 20)
    assert odds_table("commander_check", {"check_bonus": 5, "disadvantage": True})[(True,)] == Fraction(11, 20) ** 2


def test_ac_cmd_3_dc_is_not_an_input() -> None:
    """AC-CMD-3, AC-PROC-1: the DC is fixed at 15; a `dc` field is an unknown field."""
    with pytest.raises(InputError) as caught:
        kessen.odds("armies-clash", "commander_check", {"check_bonus": 5, "dc": 10})
    assert caught.value.field == "dc"
