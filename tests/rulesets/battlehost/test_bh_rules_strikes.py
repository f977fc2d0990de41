"""Strikes: wounds, multiple attacks, doubled strikes on the trapped, allocation (BH-STRIKE-*, BH-PROC-3, E6, E7)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from bh_support import WOUND_CHART, brute_force, strikes_tree, table
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError
from kessen.rulesets.battlehost.rules.strikes import (
    Striker,
    StrikeTarget,
    counts_as_trapped,
    makes_strikes,
    resolve_strikes,
    rolls_per_strike,
    strike_targets_allowed,
)

# --- BH-PROC-3: strikes at one target --------------------------------------------------------


def test_bh_strike_3_e6_strikes_against_two_wounds() -> None:
    """BH-STRIKE-3/4, worked example E6: two S4 strikes at D5 (5+) against 2 wounds: each success is 1 wound."""
    assert table("strikes", {"strikes": 2, "strength": 4, "defence": 5, "wounds": 2}) == {
        (0, False): Fraction(4, 9),
        (1, False): Fraction(4, 9),
        (2, True): Fraction(1, 9),
    }


def test_bh_strike_5_e7_one_strike_at_a_trapped_model() -> None:
    """BH-STRIKE-5, worked example E7: one S3 strike at a trapped D6 (6+) is two rolls: 1 − (5/6)² = 11/36."""
    assert table("strikes", {"strikes": 1, "strength": 3, "defence": 6, "trapped": True}) == {
        (1, True): Fraction(11, 36),
        (0, False): Fraction(25, 36),
    }


def test_bh_strike_4_a_strikes_are_a_rolls() -> None:
    """BH-STRIKE-4: a model with A strikes makes A To Wound rolls: three 4+ strikes at W3 all wound with (1/2)³."""
    got = table("strikes", {"strikes": 3, "strength": 4, "defence": 4, "wounds": 3})
    assert got == {(0, False): Fraction(1, 8), (1, False): Fraction(3, 8), (2, False): Fraction(3, 8), (3, True): Fraction(1, 8)}


@given(strikes=st.integers(1, 5), strength=st.integers(1, 10), defence=st.integers(1, 10), wounds=st.integers(1, 20))
def test_bh_strike_5_trapped_doubles_every_strike(strikes: int, strength: int, defence: int, wounds: int) -> None:
    """BH-STRIKE-5: A strikes at a trapped model are two sets of A strikes: the same as 2A strikes at a free one."""
    base = {"strength": strength, "defence": defence, "wounds": wounds}
    trapped = table("strikes", {**base, "strikes": strikes, "trapped": True})
    assert trapped == table("strikes", {**base, "strikes": 2 * strikes})


@given(strikes=st.integers(1, 5), strength=st.integers(1, 10), defence=st.integers(1, 10), wounds=st.integers(1, 5))
def test_bh_back_5_prone_counts_as_trapped_and_does_not_stack(strikes: int, strength: int, defence: int, wounds: int) -> None:
    """BH-BACK-5, BH-STRIKE-5 [DECISION]: a prone target is trapped; trapped and prone together are still two rolls, not four."""
    base = {"strikes": strikes, "strength": strength, "defence": defence, "wounds": wounds}
    trapped = table("strikes", {**base, "trapped": True})
    assert table("strikes", {**base, "prone": True}) == trapped
    assert table("strikes", {**base, "prone": True, "trapped": True}) == trapped
    assert rolls_per_strike(trapped=True, prone=True) == 2
    assert counts_as_trapped(trapped=False, prone=True)


def test_bh_strike_6_two_handed_adds_one_to_wound() -> None:
    """BH-STRIKE-6: a two-handed striker adds +1 to each To Wound die: S3 v D5 goes from 5+ to 4+."""
    assert table("strikes", {"strikes": 1, "strength": 3, "defence": 5, "two_handed": True})[(1, True)] == Fraction(1, 2)


def _strikes_by_hand(strikes: int, strength: int, defence: int, wounds: int, trapped: bool, two_handed: bool):  # type: ignore[no-untyped-def]
    """BH-STRIKE-2..6 literally: every roll uses two dice (the second read only after a 6), counted then capped."""
    cell = WOUND_CHART[(strength, defence)]
    bonus = 1 if two_handed else 0
    rolls = strikes * (2 if trapped else 1)

    def one(first: int, second: int) -> bool:
        first, second = max(1, min(6, first + bonus)), max(1, min(6, second + bonus))
        if cell == "-":
            return False
        if "/" in cell:
            return first == 6 and second >= int(cell.split("/")[1])
        return first >= int(cell)

    def outcome(*faces: int) -> tuple[int, bool]:
        hits = sum(one(faces[2 * i], faces[2 * i + 1]) for i in range(rolls))
        return (min(hits, wounds), hits >= wounds)

    return outcome, (6,) * (2 * rolls)


@settings(max_examples=40, deadline=None)
@given(
    strikes=st.integers(1, 3),
    strength=st.integers(1, 10),
    defence=st.integers(1, 10),
    wounds=st.integers(1, 3),
    trapped=st.booleans(),
    two_handed=st.booleans(),
)
def test_bh_strike_2_strikes_match_brute_force(
    strikes: int, strength: int, defence: int, wounds: int, trapped: bool, two_handed: bool
) -> None:
    """BH-STRIKE-2..6, BH-PROC-3: the binomial answer equals enumerating every die of every To Wound roll."""
    if trapped:
        strikes = 1  # keep the enumeration at 6**4 faces at most
    procedure, sides = _strikes_by_hand(strikes, strength, defence, wounds, trapped, two_handed)
    data = {"strikes": strikes, "strength": strength, "defence": defence, "wounds": wounds, "trapped": trapped, "two_handed": two_handed}
    assert table("strikes", data) == brute_force(procedure, sides)


@given(strikes=st.integers(1, 9), strength=st.integers(1, 10), defence=st.integers(1, 10), wounds=st.integers(1, 20))
def test_bh_strike_4_more_strikes_never_lower_the_chance_to_slay(strikes: int, strength: int, defence: int, wounds: int) -> None:
    """BH-STRIKE-4: one more strike never lowers the chance to slay, nor the expected wounds."""
    base = {"strength": strength, "defence": defence, "wounds": wounds}
    fewer = kessen.odds("battlehost", "strikes", {**base, "strikes": strikes})
    more = kessen.odds("battlehost", "strikes", {**base, "strikes": strikes + 1})
    assert more.probability(slain=True) >= fewer.probability(slain=True)
    mean = lambda r: sum(o["wounds"] * p for o, p in r.outcomes)  # noqa: E731
    assert mean(more) >= mean(fewer)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"strikes": 2, "strength": 4, "defence": 5, "wounds": 2.0}, "wounds"),  # worked example E14
        ({"strikes": 0, "strength": 4, "defence": 5}, "strikes"),
        ({"strikes": 11, "strength": 4, "defence": 5}, "strikes"),
        ({"strikes": 2, "strength": 4, "defence": 5, "trapped": "true"}, "trapped"),
        ({"strikes": 2, "strength": 4, "defence": 5, "prone": 0}, "prone"),
        ({"strikes": 2, "strength": 4}, "defence"),
    ],
)
def test_bh_proc_0_strikes_bad_input_names_the_field(data: dict[str, object], field: str) -> None:
    """BH-PROC-0: bad strikes input (E14's float wounds among them) is rejected naming the field."""
    with pytest.raises(InputError) as caught:
        kessen.odds("battlehost", "strikes", data)
    assert caught.value.field == field


# --- allocation rules and the default allocation ---------------------------------------------


def test_bh_strike_7_never_back_to_a_model_left() -> None:
    """BH-STRIKE-7, BH-SCN-23: X struck once, then Y struck and slain: the third strike may go to Z, not back to X."""
    assert strike_targets_allowed([True, False, True], [0, 1]) == (2,)


def test_bh_strike_9_slain_first_target_frees_the_next_strike() -> None:
    """BH-STRIKE-7/9, BH-SCN-23: when the first strike slays X, the second may go to Y or Z (moving on is not going back)."""
    assert strike_targets_allowed([False, True, True], [0]) == (1, 2)
    assert strike_targets_allowed([True, True, True], [0]) == (0, 1, 2)
    assert strike_targets_allowed([True, True, True], []) == (0, 1, 2)
    assert strike_targets_allowed([False, False], [0, 1]) == ()


def _aims(strikes: int, n: int) -> set[tuple[int, ...]]:
    """Every sequence of aims a striker may make with *strikes* strikes at *n* living targets (BH-STRIKE-7)."""
    found: set[tuple[int, ...]] = set()

    def walk(made: tuple[int, ...]) -> None:
        if len(made) == strikes:
            found.add(made)
            return
        for target in strike_targets_allowed([True] * n, list(dict.fromkeys(made))):
            walk(made + (target,))

    walk(())
    return found


def test_bh_strike_5_two_trapped_targets_take_four_nil_nil_four_or_two_two() -> None:
    """BH-STRIKE-5, BH-SCN-22: A2 against trapped X and Y gives rolls (4,0), (0,4) or (2,2), never (3,1)."""
    rolls = {
        tuple(sum(rolls_per_strike(trapped=True) for aim in aims if aim == t) for t in (0, 1)) for aims in _aims(2, 2)
    }
    assert rolls == {(4, 0), (0, 4), (2, 2)}


def test_bh_strike_7_a_model_finishes_one_target_before_another() -> None:
    """BH-STRIKE-7: three strikes at X, Y, Z may never go X, Y, X."""
    aims = _aims(3, 3)
    assert (0, 1, 0) not in aims and (0, 0, 1) in aims and (0, 1, 2) in aims


def test_bh_back_5_a_prone_winner_makes_no_strikes() -> None:
    """BH-BACK-5: if a prone model's side wins it makes no strikes (it may stand up instead)."""
    assert not makes_strikes(prone=True) and makes_strikes(prone=False)


strikers_st = st.lists(
    st.builds(Striker, attacks=st.integers(1, 3), strength=st.integers(1, 10), two_handed=st.booleans()), min_size=1, max_size=2
)
targets_st = st.lists(
    st.builds(StrikeTarget, defence=st.integers(1, 10), wounds=st.integers(1, 3), trapped=st.booleans()), min_size=1, max_size=3
)


@settings(max_examples=150, deadline=None)
@given(strikers=strikers_st, targets=targets_st)
def test_bh_strike_9_default_allocation_matches_roll_by_roll_tree(strikers: list[Striker], targets: list[StrikeTarget]) -> None:
    """BH-STRIKE-7/8/9, BH-PROC-5: the merged-state allocation equals branching on every single roll."""
    assert resolve_strikes(strikers, targets).probabilities() == strikes_tree(strikers, targets)


def test_bh_strike_8_mixed_trapped_and_free_losers() -> None:
    """BH-STRIKE-8: A2 (4+) at a free X then a trapped Y: X takes one roll per strike, Y two; hand count below.

    Strike 1 at X: 1/2 slays it. Then strike 2 at Y (two rolls, 3/4 slays) or, if X lives, at X again (1/2).
    """
    got = resolve_strikes([Striker(2, 4)], [StrikeTarget(4, 1), StrikeTarget(4, 1, trapped=True)]).probabilities()
    assert got == {
        (2, 2): Fraction(1, 2) * Fraction(3, 4),
        (1, 1): Fraction(1, 2) * Fraction(1, 4) + Fraction(1, 2) * Fraction(1, 2),
        (0, 0): Fraction(1, 2) * Fraction(1, 2),
    }


def test_bh_strike_9_strikes_after_everyone_is_slain_are_lost() -> None:
    """BH-STRIKE-9: strikes left when no enemy of the fight is alive are lost: S10 v D1 (3+) A5 at one W1 model."""
    got = resolve_strikes([Striker(5, 10)], [StrikeTarget(1, 1)]).probabilities()
    assert got == {(1, 1): 1 - Fraction(1, 3) ** 5, (0, 0): Fraction(1, 3) ** 5}


def test_bh_back_5_no_strikers_no_wounds() -> None:
    """BH-BACK-5, BH-STRIKE-9: with no strikers (all prone) or no targets, nothing is wounded."""
    assert resolve_strikes([], [StrikeTarget(4, 2)]).probabilities() == {(0, 0): Fraction(1)}
    assert resolve_strikes([Striker(1, 4)], []).probabilities() == {(0, 0): Fraction(1)}


def test_bh_strike_8_rolls_follow_each_aim() -> None:
    """BH-STRIKE-8, BH-SCN-24: A3 against X (backed away) and Y (trapped): a strike at Y is two rolls, at X one."""
    trapped = {0: False, 1: True}
    for aims in _aims(3, 2):
        rolls = [rolls_per_strike(trapped=trapped[aim]) for aim in aims]
        assert rolls == [2 if aim == 1 else 1 for aim in aims]
    assert (1, 0, 0) in _aims(3, 2)  # Y first (two rolls), then X (one roll per strike)


def test_bh_strike_3_a_slain_model_is_removed_at_once() -> None:
    """BH-STRIKE-3, BH-SCN-10: a W2 model with 1 wound suffered dies at its next wound; later strikes cannot target it.

    A lone S4 winner with A2 (4+ at D4) against X (1 wound left) and Y (D4, W1): when the first strike
    slays X the second must go to Y, so two slain needs both rolls to wound: 1/4; X alone slain 1/4 + 1/4.
    """
    assert strike_targets_allowed([False, True], [0]) == (1,)
    got = resolve_strikes([Striker(2, 4)], [StrikeTarget(4, 1), StrikeTarget(4, 1)]).probabilities()
    assert got == {(2, 2): Fraction(1, 4), (1, 1): Fraction(1, 2), (0, 0): Fraction(1, 4)}
