"""The To Wound roll and the wound chart (BH-WOUND-1..4, BH-PROC-1, worked examples E1–E3)."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from bh_support import WOUND_CHART, brute_force, table, wound_chance_by_hand
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.core.errors import InputError
from kessen.rulesets.battlehost.rules.wounding import (
    IMPOSSIBLE,
    WoundEntry,
    format_entry,
    needs_second_die,
    parse_entry,
    wound_chance,
    wound_chart,
    wound_roll_dist,
    wound_roll_succeeds,
)

stat = st.integers(1, 10)


@pytest.mark.parametrize("strength", range(1, 11))
def test_bh_wound_2_chart_row_matches_the_printed_chart(strength: int) -> None:
    """BH-WOUND-2: every cell of the Strength row equals the spec's printed chart (transcribed in bh_support)."""
    got = [format_entry(wound_chart(strength, d)) for d in range(1, 11)]
    assert got == [WOUND_CHART[(strength, d)] for d in range(1, 11)]


@pytest.mark.parametrize(
    ("k", "cell"),
    [(-9, "3"), (-2, "3"), (-1, "4"), (0, "4"), (1, "5"), (2, "5"), (3, "6"), (4, "6"),
     (5, "6/4"), (6, "6/5"), (7, "6/6"), (8, "-"), (9, "-")],
)
def test_bh_wound_2_chart_follows_defence_minus_strength(k: int, cell: str) -> None:
    """BH-WOUND-2: the entry depends only on k = Defence − Strength, as the spec's formula gives it."""
    for strength in range(1, 11):
        defence = strength + k
        if 1 <= defence <= 10:
            assert str(wound_chart(strength, defence)) == cell


def test_bh_wound_2_chart_rejects_values_off_the_chart() -> None:
    """BH-WOUND-2: the chart has rows S1–S10 and columns D1–D10 only."""
    with pytest.raises(ValueError):
        wound_chart(0, 5)
    with pytest.raises(ValueError):
        wound_chart(5, 11)


@pytest.mark.parametrize("text", ["3", "4", "5", "6", "6/4", "6/5", "6/6", "-"])
def test_bh_wound_1_entry_notation_round_trips(text: str) -> None:
    """BH-WOUND-1: an entry is "N" (3–6), "6/N" (N 4–6) or "-"; parse and format round-trip."""
    assert format_entry(parse_entry(text)) == text


@pytest.mark.parametrize("text", ["2", "7", "5/4", "6/3", "6/7", "x", "6/"])
def test_bh_wound_1_bad_entry_notation_is_rejected(text: str) -> None:
    """BH-WOUND-1: nothing but N (3–6), 6/N (N 4–6) or "-" is a chart entry."""
    with pytest.raises(ValueError):
        parse_entry(text)


def test_bh_wound_1_plain_entry_needs_score_n_or_more() -> None:
    """BH-WOUND-1: an entry "N" succeeds when the die scores N or more."""
    assert [wound_roll_succeeds(WoundEntry(5), f) for f in range(1, 7)] == [False] * 4 + [True] * 2


def test_bh_wound_1_six_slash_n_rolls_the_second_die_only_after_a_six() -> None:
    """BH-WOUND-1: a 6/N entry needs a 6, then a second D6 scoring N or more; no second die otherwise."""
    entry = WoundEntry(6, 5)
    assert [needs_second_die(entry, f) for f in range(1, 7)] == [False] * 5 + [True]
    assert not wound_roll_succeeds(entry, 5)
    assert [wound_roll_succeeds(entry, 6, s) for s in range(1, 7)] == [False] * 4 + [True] * 2
    with pytest.raises(ValueError, match="needs the second die"):
        wound_roll_succeeds(entry, 6)


def test_bh_wound_1_dash_never_succeeds() -> None:
    """BH-WOUND-1: a "-" entry can never succeed, whatever is rolled or added."""
    assert not any(wound_roll_succeeds(IMPOSSIBLE, f, s, modifier=m) for f in range(1, 7) for s in range(1, 7) for m in range(4))
    assert wound_chance(IMPOSSIBLE, 3) == 0


def test_bh_wound_3_plus_one_applies_to_both_dice_of_six_slash_n() -> None:
    """BH-WOUND-3: +1 is added to each die: 6/4 becomes "5+ then 3+", 6+ becomes 5+, 3+ becomes 2+ (a 1 still fails)."""
    six_four = WoundEntry(6, 4)
    assert needs_second_die(six_four, 5, modifier=1)
    assert wound_roll_succeeds(six_four, 5, 3, modifier=1)
    assert not wound_roll_succeeds(six_four, 5, 2, modifier=1)
    assert [wound_roll_succeeds(WoundEntry(6), f, modifier=1) for f in range(1, 7)] == [False] * 4 + [True] * 2
    assert [wound_roll_succeeds(WoundEntry(3), f, modifier=1) for f in range(1, 7)] == [False] + [True] * 5


# BH-WOUND-4's table: entry → (plain, with +1).
WOUND_4 = {
    "3": ("2/3", "5/6"), "4": ("1/2", "2/3"), "5": ("1/3", "1/2"), "6": ("1/6", "1/3"),
    "6/4": ("1/12", "2/9"), "6/5": ("1/18", "1/6"), "6/6": ("1/36", "1/9"), "-": ("0", "0"),
}


@pytest.mark.parametrize("cell", WOUND_4)
def test_bh_wound_4_chance_of_one_roll(cell: str) -> None:
    """BH-WOUND-4: the chance of one To Wound roll, plain and with +1, for every kind of entry."""
    plain, plus_one = WOUND_4[cell]
    assert wound_chance(parse_entry(cell)) == Fraction(plain)
    assert wound_chance(parse_entry(cell), 1) == Fraction(plus_one)


@settings(max_examples=200)
@given(strength=stat, defence=stat, modifier=st.integers(-3, 3))
def test_bh_wound_3_distribution_matches_brute_force(strength: int, defence: int, modifier: int) -> None:
    """BH-WOUND-1..3: the exact roll agrees with enumerating both dice, and with a count of faces on the printed chart."""
    entry = wound_chart(strength, defence)

    def roll(first: int, second: int) -> bool:  # the second die is rolled always and ignored unless needed
        return wound_roll_succeeds(entry, first, second if needs_second_die(entry, first, modifier=modifier) else None, modifier=modifier)

    assert wound_roll_dist(entry, modifier).probabilities() == brute_force(roll, (6, 6))
    assert wound_chance(entry, modifier) == wound_chance_by_hand(strength, defence, modifier)


@given(strength=stat, defence=stat, modifier=st.integers(-3, 3))
def test_bh_wound_3_matches_icepool(strength: int, defence: int, modifier: int) -> None:
    """BH-WOUND-1..3: icepool, as an independent oracle, gives the same chance for each die of the entry."""
    entry = wound_chart(strength, defence)
    if entry.needed is None:
        assert wound_chance(entry, modifier) == 0
        return
    die = (icepool.d6 + modifier).clip(1, 6)
    chance = Fraction(1)
    for needed in (entry.needed, entry.then):
        if needed is not None:
            chance *= Fraction(die.probability(">=", needed))
    assert wound_chance(entry, modifier) == chance


@given(strength=st.integers(1, 9), defence=stat, modifier=st.integers(-3, 2))
def test_bh_wound_2_more_strength_or_a_bonus_never_lowers_the_chance(strength: int, defence: int, modifier: int) -> None:
    """BH-WOUND-2/3: one more Strength, or one more on the modifier, never lowers the chance to wound."""
    base = wound_chance(wound_chart(strength, defence), modifier)
    assert wound_chance(wound_chart(strength + 1, defence), modifier) >= base
    assert wound_chance(wound_chart(strength, defence), modifier + 1) >= base


def test_bh_wound_3_no_automatic_failure_on_a_one_at_big_bonus() -> None:
    """BH-WOUND-3 [DECISION]: no automatic failure on a natural 1 beyond the clamp: 3+ with +3 scores a 1 as 4."""
    assert wound_roll_succeeds(WoundEntry(3), 1, modifier=3)


# --- BH-PROC-1 and the worked examples -------------------------------------------------------


def test_bh_proc_1_e1_plain_entry() -> None:
    """BH-PROC-1, worked example E1: S3 against D5 (chart 5) wounds 1/3."""
    assert table("wound_roll", {"strength": 3, "defence": 5}) == {(True,): Fraction(1, 3), (False,): Fraction(2, 3)}


def test_bh_strike_6_e2_six_five_with_two_handed() -> None:
    """BH-STRIKE-6, BH-WOUND-3, worked example E2: S2 v D8 (6/5) two-handed is "5+ then 4+": 1/3 × 1/2."""
    assert table("wound_roll", {"strength": 2, "defence": 8, "two_handed": True}) == {
        (True,): Fraction(1, 6),
        (False,): Fraction(5, 6),
    }


def test_bh_wound_1_e3_dash_only_fails() -> None:
    """BH-WOUND-1, worked example E3: S2 v D10 ("-") has the one outcome "not wounded"."""
    assert table("wound_roll", {"strength": 2, "defence": 10}) == {(False,): Fraction(1)}


def test_bh_wound_1_e3_dash_stays_impossible_with_two_handed() -> None:
    """BH-WOUND-3: a "-" entry stays impossible even with the two-handed +1."""
    assert table("wound_roll", {"strength": 1, "defence": 9, "two_handed": True}) == {(False,): Fraction(1)}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"strength": 3}, "defence"),  # worked example E14: missing defence
        ({"strength": 0, "defence": 5}, "strength"),
        ({"strength": 3, "defence": 11}, "defence"),
        ({"strength": 3.0, "defence": 5}, "strength"),
        ({"strength": True, "defence": 5}, "strength"),
        ({"strength": "3", "defence": 5}, "strength"),
        ({"strength": 3, "defence": 5, "two_handed": 1}, "two_handed"),
        ({"strength": 3, "defence": 5, "modifier": 1}, "modifier"),
    ],
)
def test_bh_proc_0_wound_roll_bad_input_names_the_field(data: dict[str, object], field: str) -> None:
    """BH-PROC-0: a missing field, a wrong type, a value out of range or an unknown field names the field."""
    import kessen

    with pytest.raises(InputError) as caught:
        kessen.odds("battlehost", "wound_roll", data)
    assert caught.value.field == field


def test_bh_proc_0_wound_roll_normalised_input_fills_defaults() -> None:
    """BH-PROC-0: the printed input has every optional field with its default."""
    import kessen

    assert kessen.odds("battlehost", "wound_roll", {"defence": 5, "strength": 3}).input == {
        "strength": 3,
        "defence": 5,
        "two_handed": False,
    }
