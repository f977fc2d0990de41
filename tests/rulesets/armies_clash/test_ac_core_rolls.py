"""Core d20 resolution and damage rolls (§5.1, AC-AOE-9), against enumeration and icepool."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.rulesets.armies_clash.rules import tables
from kessen.rulesets.armies_clash.rules.d20 import attack_result, d20, roll_mode, succeeds, success_chance
from kessen.rulesets.armies_clash.rules.damage import apply_resistance, damage_roll, hit_damage, scaled_damage
from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice


def test_ac_d20_1_success_needs_total_at_least_target() -> None:
    """AC-D20-1: d20 + bonus ≥ DC succeeds; one short fails."""
    assert succeeds(10, bonus=3, target=13)
    assert not succeeds(9, bonus=3, target=13)
    # DC 15 with +5: faces 10..20 succeed, 11/20
    assert success_chance(bonus=5, target=15).probability(True) == Fraction(11, 20)


def test_ac_d20_2_advantage_and_disadvantage_against_two_dice() -> None:
    """AC-D20-2: advantage keeps the higher of two d20, disadvantage the lower (listed over all 400 pairs)."""
    for mode, keep in (("advantage", max), ("disadvantage", min)):
        expected = {n: Fraction(sum(1 for a, b in product(range(1, 21), repeat=2) if keep(a, b) == n), 400) for n in range(1, 21)}
        assert d20(mode).probabilities() == expected


def test_ac_d20_2_one_source_of_each_cancels() -> None:
    """AC-D20-2: any advantage with any disadvantage is a single d20."""
    assert roll_mode(advantage=True, disadvantage=True) == "normal"
    assert d20(roll_mode(advantage=True, disadvantage=True)) == d20("normal")
    assert roll_mode(advantage=True, disadvantage=False) == "advantage"
    assert roll_mode(advantage=False, disadvantage=True) == "disadvantage"


def test_ac_d20_3_natural_20_and_1_on_attacks_only() -> None:
    """AC-D20-3: on attack rolls a 20 always hits critically and a 1 always misses; saves ignore both."""
    assert attack_result(20, attack_bonus=-10, armour_class=40) == "critical"
    assert attack_result(1, attack_bonus=20, armour_class=2) == "miss"
    assert attack_result(19, attack_bonus=0, armour_class=20) == "miss"
    assert not succeeds(20, bonus=-10, target=11)
    assert succeeds(1, bonus=10, target=11)


def test_ac_d20_4_critical_doubles_dice_not_constants() -> None:
    """AC-D20-4: a critical 1d8+1 is 2d8+1: 3..17, 17 with chance 1/64."""
    crit = damage_roll(parse_dice("1d8+1"), critical=True)
    assert min(crit.outcomes()) == 3 and max(crit.outcomes()) == 17
    assert crit.probability(17) == Fraction(1, 64)


def test_ac_d20_5_damage_never_below_zero() -> None:
    """AC-D20-5: 1d4-2 shows 0 on faces 1 and 2 (chance 1/2), never a negative number."""
    roll = damage_roll(parse_dice("1d4-2"))
    assert roll.probabilities() == {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}


@settings(max_examples=60, deadline=None)
@given(
    dice=st.lists(st.tuples(st.integers(1, 3), st.sampled_from([2, 3, 4, 6, 8])), min_size=0, max_size=2),
    constants=st.lists(st.integers(-12, 12), max_size=2),
    critical=st.booleans(),
)
def test_ac_d20_4_damage_roll_matches_icepool(dice: list[tuple[int, int]], constants: list[int], critical: bool) -> None:
    """AC-PROC-DICE, AC-D20-4, AC-D20-5: the damage roll equals icepool's sum of the same dice, floored at 0."""
    terms = [f"{n}d{s}" for n, s in dice] or ["0"]
    text = terms[0] + "".join(("+" + t) for t in terms[1:]) + "".join(f"{'-' if c < 0 else '+'}{abs(c)}" for c in constants)
    mult = 2 if critical else 1
    die: icepool.Die[int] = icepool.Die([sum(constants)])
    for n, s in dice:
        die = die + (mult * n) @ icepool.d(s)
    die = die.map(lambda v: max(0, v))
    expected = {v: Fraction(q, die.denominator()) for v, q in die.items() if q}
    assert damage_roll(parse_dice(text), critical=critical).probabilities() == expected


@pytest.mark.parametrize(("resistance", "value"), [("none", 7), ("resistance", 3), ("vulnerability", 14), ("immunity", 0)])
def test_ac_d20_7_resistance_vulnerability_immunity(resistance: str, value: int) -> None:
    """AC-D20-7: resistance halves rounding down, vulnerability doubles, immunity zeroes (7 damage)."""
    assert apply_resistance(7, resistance) == value  # type: ignore[arg-type]


def test_ac_integ_1_isolated_target_doubles_before_resistance() -> None:
    """AC-INTEG-1, AC-D20-7: a hit on an isolated target deals double, then resistance halves: 7 → 14 → 7."""
    assert hit_damage(7, target_isolated=True, resistance="resistance") == 7
    assert hit_damage(7, target_isolated=False, resistance="resistance") == 3


def test_ac_aoe_9_multiply_first_round_once() -> None:
    """AC-AOE-9: ⌊raw × 2^up ÷ 2^down⌋: a stand-cast 7 halved by a save deals exactly 7; 7 halved twice is 1."""
    assert scaled_damage(7, doublings=1, halvings=1, resistance="none") == 7
    assert scaled_damage(7, doublings=0, halvings=2, resistance="none") == 1
    assert scaled_damage(7, doublings=2, halvings=1, resistance="resistance") == 7  # 28 ÷ 2 = 14, halved = 7


@settings(max_examples=100, deadline=None)
@given(
    a=st.lists(st.integers(0, 2**300), min_size=1, max_size=30),
    b=st.lists(st.integers(0, 2**40), min_size=1, max_size=30),
)
def test_ac_proc_5_exact_convolution_matches_double_loop(a: list[int], b: list[int]) -> None:
    """AC-PROC-5: the packed-integer convolution equals the plain double loop exactly, huge weights included."""
    expected = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            expected[i + j] += x * y
    assert tables.convolve(a, b) == expected


def test_ac_proc_5_capped_table_keeps_total() -> None:
    """AC-PROC-5: folding the tail into the cap keeps every weight (sum unchanged)."""
    table = [random.Random(1).randrange(10**9) for _ in range(50)]
    assert sum(tables.capped(table, 10)) == sum(table)
    assert tables.capped(table, 10)[:10] == table[:10]
