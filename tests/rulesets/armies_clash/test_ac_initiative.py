"""The `initiative` procedure (§6.8): E14, E15, ties, rejects, and a check against all 20^k rolls."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import permutations, product
from math import factorial
from typing import Any

import pytest
from armies_clash_oracle import odds_table
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError
from kessen.rulesets.armies_clash.rules.initiative import initiative_modifier, tie_groups


def orders(units: list[dict[str, Any]]) -> dict[str, Fraction]:
    return {order: p for (order, first), p in odds_table("initiative", {"units": units}).items() if order.split(",")[0] == first}


def brute_force(units: list[tuple[str, int]]) -> dict[str, Fraction]:
    """Every combination of d20s listed; each tie group (same total, same modifier) shared over its orders."""
    table: defaultdict[str, Fraction] = defaultdict(Fraction)
    share = Fraction(1, 20 ** len(units))
    for faces in product(range(1, 21), repeat=len(units)):
        keyed = sorted(((face + mod, mod, uid) for (uid, mod), face in zip(units, faces)), key=lambda e: (-e[0], -e[1]))
        groups: list[list[str]] = []
        last = None
        for total, mod, uid in keyed:
            if (total, mod) == last:
                groups[-1].append(uid)
            else:
                groups.append([uid])
            last = (total, mod)
        ways = [list(permutations(g)) for g in groups]
        count = 1
        for w in ways:
            count *= len(w)
        for choice in product(*ways):
            table[",".join(uid for group in choice for uid in group)] += share / count
    return dict(table)


def test_ac_init_2_e14_regiment_lowest_skirmisher_highest() -> None:
    """AC-INIT-2, AC-REG-1, AC-SKIRM-2, AC-INIT-3, E14: +0 orcs against +3 elves; ties go to the elves."""
    t = odds_table("initiative", {"units": [
        {"id": "orcs", "type": "regiment", "dex_modifiers": [1, 0, 2]},
        {"id": "elves", "type": "skirmisher", "dex_modifiers": [1, 3]},
    ]})
    assert t == {("elves,orcs", "elves"): Fraction(33, 50), ("orcs,elves", "orcs"): Fraction(17, 50)}


def test_ac_init_3_e15_complete_tie_is_a_fair_draw() -> None:
    """AC-INIT-3, E15: two solos with +2: each order 1/2."""
    units = [{"id": "a", "type": "solo", "dex_modifiers": [2]}, {"id": "b", "type": "solo", "dex_modifiers": [2]}]
    assert orders(units) == {"a,b": Fraction(1, 2), "b,a": Fraction(1, 2)}


def test_ac_init_2_modifier_rules() -> None:
    """AC-INIT-2: skirmisher highest, regiment lowest, solo its own (SB-38: +1, +1 and a +3 PC → 1 or 3)."""
    assert initiative_modifier("regiment", [1, 1, 3]) == 1
    assert initiative_modifier("skirmisher", [1, 1, 3]) == 3
    assert initiative_modifier("solo", [-2]) == -2


def test_ac_init_3_tie_groups() -> None:
    """AC-INIT-3: higher total first, then higher modifier; equal in both stay tied for a fair draw."""
    assert tie_groups([("a", 2, 12), ("b", 2, 12), ("c", 0, 12), ("d", 5, 14)]) == (("d",), ("a", "b"), ("c",))


def test_ac_init_3_four_equal_entries_every_order_alike() -> None:
    """AC-INIT-3, AC-PROC-6: four identical solos give all 24 orders, each 1/24."""
    units = [{"id": f"s{i}", "type": "solo", "dex_modifiers": [0]} for i in range(4)]
    t = orders(units)
    assert len(t) == factorial(4) and set(t.values()) == {Fraction(1, 24)}


def test_ac_init_3_four_entries_match_all_160000_rolls() -> None:
    """AC-INIT-2, AC-INIT-3: four entries with mixed and equal modifiers equal the listing of all 20^4 rolls."""
    units = [("a", 1), ("b", 1), ("c", 3), ("d", -2)]
    data = [{"id": u, "type": "solo", "dex_modifiers": [m]} for u, m in units]
    assert orders(data) == brute_force(units)


@settings(max_examples=25, deadline=None)
@given(mods=st.lists(st.integers(-5, 10), min_size=2, max_size=3))
def test_ac_init_3_matches_brute_force(mods: list[int]) -> None:
    """AC-INIT-3: two or three entries, any modifiers: the order table equals the listing of every roll."""
    units = [(f"u{i}", m) for i, m in enumerate(mods)]
    assert orders([{"id": u, "type": "solo", "dex_modifiers": [m]} for u, m in units]) == brute_force(units)


@pytest.mark.parametrize(
    ("units", "field"),
    [
        ([{"id": "a", "type": "regiment", "dex_modifiers": [0]}], "units"),
        ([{"id": f"u{i}", "type": "solo", "dex_modifiers": [i]} for i in range(5)], "units"),
        ([{"id": "a", "type": "solo", "dex_modifiers": [0]}, {"id": "a", "type": "solo", "dex_modifiers": [1]}], "units[1].id"),
        ([{"id": "a", "type": "solo", "dex_modifiers": [0, 1]}, {"id": "b", "type": "solo", "dex_modifiers": [1]}], "units[0].dex_modifiers"),
        ([{"id": "a,b", "type": "solo", "dex_modifiers": [0]}, {"id": "b", "type": "solo", "dex_modifiers": [1]}], "units[0].id"),
        ([{"id": "a", "type": "horde", "dex_modifiers": [0]}, {"id": "b", "type": "solo", "dex_modifiers": [1]}], "units[0].type"),
    ],
)
def test_ac_proc_1_initiative_rejects(units: list[dict[str, Any]], field: str) -> None:
    """AC-PROC-1, AC-PROC-6: 2..4 entries (BAD-3, BAD-8), unique ids, a solo has one modifier, ids are plain."""
    with pytest.raises(InputError) as caught:
        kessen.odds("armies-clash", "initiative", {"units": units})
    assert caught.value.field == field
