"""The `decisive_rout` and `death_saves` procedures (§6.9, §6.10): E16–E18 and enumeration checks."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from math import comb

import pytest
from armies_clash_oracle import odds_table
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError
from kessen.rulesets.armies_clash.rules.dying import Tally, death_save


def test_ac_win_2_e16_decisive_victory_and_rout() -> None:
    """AC-WIN-2, E16: 11 vs 7 is decisive for a; each of b's 3 units flees on d20 ≥ 10 (11/20)."""
    t = odds_table("decisive_rout", {"vp_a": 11, "vp_b": 7, "units_a": 4, "units_b": 3})
    assert t == {
        ("decisive", "a", 0): Fraction(729, 8000),
        ("decisive", "a", 1): Fraction(2673, 8000),
        ("decisive", "a", 2): Fraction(3267, 8000),
        ("decisive", "a", 3): Fraction(1331, 8000),
    }


def test_ac_win_2_e17_tactical_victory() -> None:
    """AC-WIN-2, E17: 10 vs 9 is a tactical victory for a: nothing else happens."""
    assert odds_table("decisive_rout", {"vp_a": 10, "vp_b": 9, "units_a": 4, "units_b": 3}) == {("tactical", "a", 0): 1}


@pytest.mark.parametrize(
    ("vp_a", "vp_b", "expected"),
    [(12, 10, ("tactical", "a", 0)), (10, 10, ("draw", "none", 0)), (9, 9, ("continue", "none", 0)), (9, 0, ("continue", "none", 0)), (20, 20, ("draw", "none", 0)), (8, 10, ("tactical", "b", 0))],
)
def test_ac_win_1_judgement(vp_a: int, vp_b: int, expected: tuple[str, str, int]) -> None:
    """AC-WIN-1, AC-WIN-2, AC-OBJ-1 (SB-32): below 10 VP on both sides the battle goes on; equal is a draw."""
    assert odds_table("decisive_rout", {"vp_a": vp_a, "vp_b": vp_b, "units_a": 2, "units_b": 2}) == {expected: 1}


@settings(max_examples=30, deadline=None)
@given(units=st.integers(0, 50), lead=st.integers(3, 20))
def test_ac_win_2_rout_is_binomial_over_the_losers_units(units: int, lead: int) -> None:
    """AC-WIN-2: after a decisive win for b, each of a's units is eliminated independently with 11/20."""
    t = odds_table("decisive_rout", {"vp_a": 10, "vp_b": 10 + lead, "units_a": units, "units_b": 1})
    assert t == {("decisive", "b", k): comb(units, k) * Fraction(11, 20) ** k * Fraction(9, 20) ** (units - k) for k in range(units + 1)}


E18 = {
    ("dead", 2): Fraction(17, 400), ("dead", 3): Fraction(229, 2000), ("dead", 4): Fraction(1119, 8000), ("dead", 5): Fraction(27, 250),
    ("revived", 1): Fraction(1, 20), ("revived", 2): Fraction(19, 400), ("revived", 3): Fraction(43, 1000), ("revived", 4): Fraction(231, 8000), ("revived", 5): Fraction(3, 250),
    ("stable", 3): Fraction(1, 8), ("stable", 4): Fraction(27, 160), ("stable", 5): Fraction(3, 25),
}


def test_ac_end_4_e18_fresh_death_saves() -> None:
    """AC-END-4, E18: the full table; dead 3239/8000, revived 1451/8000, stable 331/800; 3 rolls 113/400."""
    t = odds_table("death_saves", {})
    assert t == E18
    assert sum(p for (r, _), p in t.items() if r == "dead") == Fraction(3239, 8000)
    assert sum(p for (r, _), p in t.items() if r == "revived") == Fraction(1451, 8000)
    assert sum(p for (r, _), p in t.items() if r == "stable") == Fraction(331, 800)
    assert sum(p for (_, n), p in t.items() if n == 3) == Fraction(113, 400)


def test_ac_end_4_one_save() -> None:
    """AC-END-4: 20 revives, 10–19 succeeds, 2–9 fails, 1 counts two failures."""
    assert death_save(Tally(0, 0), 20).fate == "revived"
    assert death_save(Tally(2, 0), 10) == Tally(3, 0, "stable")
    assert death_save(Tally(0, 2), 9) == Tally(0, 3, "dead")
    assert death_save(Tally(0, 1), 1) == Tally(0, 3, "dead")
    assert death_save(Tally(0, 0), 1) == Tally(0, 2, "dying")


def _oracle(successes: int, failures: int) -> dict[tuple[str, int], Fraction]:
    """Plain recursion over every d20 face."""
    out: defaultdict[tuple[str, int], Fraction] = defaultdict(Fraction)

    def go(s: int, f: int, rolls: int, p: Fraction) -> None:
        for face in range(1, 21):
            q = p / 20
            if face == 20:
                out[("revived", rolls + 1)] += q
            elif face >= 10:
                (out.__setitem__(("stable", rolls + 1), out[("stable", rolls + 1)] + q) if s + 1 == 3 else go(s + 1, f, rolls + 1, q))
            else:
                nf = f + (2 if face == 1 else 1)
                (out.__setitem__(("dead", rolls + 1), out[("dead", rolls + 1)] + q) if nf >= 3 else go(s, nf, rolls + 1, q))

    go(successes, failures, 0, Fraction(1))
    return dict(out)


@pytest.mark.parametrize("successes", [0, 1, 2])
@pytest.mark.parametrize("failures", [0, 1, 2])
def test_ac_end_4_tallies_carry_over(successes: int, failures: int) -> None:
    """AC-END-4: earlier successes and failures count; every start matches a recursion over all faces."""
    assert odds_table("death_saves", {"successes": successes, "failures": failures}) == _oracle(successes, failures)


def test_ac_proc_1_death_saves_strict_int() -> None:
    """AC-PROC-1, BAD-5: "1" is not an int."""
    with pytest.raises(InputError) as caught:
        kessen.odds("armies-clash", "death_saves", {"successes": "1"})
    assert caught.value.field == "successes"
