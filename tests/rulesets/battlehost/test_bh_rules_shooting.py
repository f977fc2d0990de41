"""Shooting: hit roll, moved shooters, natural 6, wound roll and effect (BH-SHOOT-5..9, BH-PROC-2, E4, E5)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from bh_support import WOUND_CHART, brute_force, table
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

import kessen
from kessen.core.errors import InputError
from kessen.dice import stream
from kessen.rulesets.battlehost.rules.shooting import hit_roll_dist, hit_roll_needed, hit_roll_succeeds
from kessen.rulesets.battlehost.rules.wounding import needs_second_die, wound_chart, wound_roll_succeeds


def test_bh_shoot_5_hits_on_the_shoot_value_or_more() -> None:
    """BH-SHOOT-5: a hit roll hits when the D6 is equal to or above the Shoot value."""
    assert [hit_roll_succeeds(f, shoot_value=4, moved=False) for f in range(1, 7)] == [False] * 3 + [True] * 3
    assert [hit_roll_succeeds(f, shoot_value=2, moved=False) for f in range(1, 7)] == [False] + [True] * 5


def test_bh_shoot_6_a_moved_shooter_hits_one_worse() -> None:
    """BH-SHOOT-6: a shooter that moved this turn has its Shoot value worsened by 1 (4+ → 5+, 6+ → 7+)."""
    assert hit_roll_needed(4, moved=True) == 5
    assert hit_roll_needed(6, moved=True) == 7
    assert not hit_roll_succeeds(4, shoot_value=4, moved=True)
    assert hit_roll_succeeds(5, shoot_value=4, moved=True)


def test_bh_shoot_7_a_natural_six_always_hits() -> None:
    """BH-SHOOT-7: a natural 6 always hits, so a moved 6+ shooter hits on a 6 only."""
    assert [hit_roll_succeeds(f, shoot_value=6, moved=True) for f in range(1, 7)] == [False] * 5 + [True]
    assert hit_roll_dist(6, moved=True).probability(True) == Fraction(1, 6)


@given(shoot_value=st.integers(2, 6))
def test_bh_shoot_6_moving_never_helps(shoot_value: int) -> None:
    """BH-SHOOT-6: a shooter that moved hits no more often than one that stood, and exactly one face less often unless only the 6 is left."""
    moved = hit_roll_dist(shoot_value, moved=True).probability(True)
    stood = hit_roll_dist(shoot_value, moved=False).probability(True)
    assert stood == Fraction(7 - shoot_value, 6)
    assert moved == (stood - Fraction(1, 6) if shoot_value < 6 else Fraction(1, 6))


def test_bh_shoot_5_bad_face_is_refused() -> None:
    """BH-SHOOT-5: the hit roll is one D6; a face outside 1–6 is a programming error."""
    with pytest.raises(ValueError):
        hit_roll_succeeds(7, shoot_value=4, moved=False)


def _shot_by_hand(shoot_value: int, moved: bool, strength: int, defence: int, wounds: int):  # type: ignore[no-untyped-def]
    """BH-SHOOT-5..9 restated literally over three dice (hit, first wound die, second wound die)."""
    cell = WOUND_CHART[(strength, defence)]

    def shot(hit_face: int, first: int, second: int) -> tuple[bool, bool, bool]:
        hit = hit_face == 6 or hit_face >= shoot_value + (1 if moved else 0)
        if not hit:
            return (False, False, False)
        if cell == "-":
            wounded = False
        elif "/" in cell:
            wounded = first == 6 and second >= int(cell.split("/")[1])
        else:
            wounded = first >= int(cell)
        return (True, wounded, wounded and wounds == 1)

    return shot


@settings(max_examples=150)
@given(
    shoot_value=st.integers(2, 6),
    moved=st.booleans(),
    strength=st.integers(1, 10),
    defence=st.integers(1, 10),
    wounds=st.integers(1, 3),
)
def test_bh_shoot_8_shot_matches_brute_force(shoot_value: int, moved: bool, strength: int, defence: int, wounds: int) -> None:
    """BH-SHOOT-8/9, BH-PROC-2: the shot's distribution equals enumerating the hit die and both wound dice."""
    got = table("shoot", {"shoot_value": shoot_value, "moved": moved, "strength": strength, "defence": defence, "wounds": wounds})
    assert got == brute_force(_shot_by_hand(shoot_value, moved, strength, defence, wounds), (6, 6, 6))


def test_bh_shoot_8_wound_roll_uses_the_weapon_strength_without_modifier() -> None:
    """BH-SHOOT-8, BH-STRIKE-6: a shot wounds with the weapon's Strength; the two-handed +1 does not apply to shooting."""
    crossbow = table("shoot", {"shoot_value": 3, "strength": 4, "defence": 6})  # hit 2/3, chart 5: 1/3
    assert sum(p for (hit, wounded, _), p in crossbow.items() if wounded) == Fraction(2, 9)
    with pytest.raises(InputError, match="^two_handed: unknown field"):
        kessen.odds("battlehost", "shoot", {"shoot_value": 3, "strength": 4, "defence": 6, "two_handed": True})


def test_bh_shoot_9_one_wound_slays_only_a_target_with_one_left() -> None:
    """BH-SHOOT-9: a successful wound roll inflicts 1 wound; a target with 2 wounds left is not slain."""
    two_left = table("shoot", {"shoot_value": 4, "strength": 2, "defence": 5, "wounds": 2})
    assert two_left == {
        (False, False, False): Fraction(1, 2),
        (True, False, False): Fraction(5, 12),
        (True, True, False): Fraction(1, 12),
    }


def test_bh_proc_2_e4_bow_at_defence_five() -> None:
    """BH-PROC-2, worked example E4: a 4+ bow (S2) at D5 (chart 6): hit 1/2, wound 1/6."""
    assert table("shoot", {"shoot_value": 4, "strength": 2, "defence": 5}) == {
        (False, False, False): Fraction(1, 2),
        (True, False, False): Fraction(5, 12),
        (True, True, True): Fraction(1, 12),
    }


def test_bh_shoot_7_e5_moved_six_plus_shooter() -> None:
    """BH-SHOOT-6/7, worked example E5: a moved 6+ shooter hits on a natural 6 only; S2 v D4 wounds on 5+."""
    assert table("shoot", {"shoot_value": 6, "moved": True, "strength": 2, "defence": 4}) == {
        (False, False, False): Fraction(5, 6),
        (True, False, False): Fraction(1, 9),
        (True, True, True): Fraction(1, 18),
    }


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"strength": 2, "defence": 5}, "shoot_value"),
        ({"shoot_value": 1, "strength": 2, "defence": 5}, "shoot_value"),
        ({"shoot_value": 7, "strength": 2, "defence": 5}, "shoot_value"),
        ({"shoot_value": 4, "moved": "yes", "strength": 2, "defence": 5}, "moved"),
        ({"shoot_value": 4, "strength": 2, "defence": 5, "wounds": 0}, "wounds"),
        ({"shoot_value": 4, "strength": 2, "defence": 5, "wounds": 21}, "wounds"),
    ],
)
def test_bh_proc_0_shoot_bad_input_names_the_field(data: dict[str, object], field: str) -> None:
    """BH-PROC-0: missing, mistyped or out-of-range shoot fields are rejected naming the field."""
    with pytest.raises(InputError) as caught:
        kessen.odds("battlehost", "shoot", data)
    assert caught.value.field == field


def test_bh_shoot_8_dice_by_dice_shots_agree_with_the_exact_odds() -> None:
    """BH-SHOOT-5..9: 20,000 seeded shots rolled with the rule functions an engine uses fit the exact odds (chi-squared).

    A moved 3+ crossbow (S4) at D8: 4+ to hit, 6/4 to wound.
    """
    data = {"shoot_value": 3, "moved": True, "strength": 4, "defence": 9}
    exact = table("shoot", data)
    entry = wound_chart(4, 9)
    rng = stream(11)

    def shot() -> tuple[bool, bool, bool]:
        if not hit_roll_succeeds(int(rng.integers(1, 7)), shoot_value=3, moved=True):
            return (False, False, False)
        first = int(rng.integers(1, 7))
        second = int(rng.integers(1, 7)) if needs_second_die(entry, first) else None
        wounded = wound_roll_succeeds(entry, first, second)
        return (True, wounded, wounded)

    n = 20_000
    seen = Counter(shot() for _ in range(n))
    assert set(seen) <= set(exact)
    keys = list(exact)
    assert chisquare([seen[k] for k in keys], [float(exact[k]) * n for k in keys]).pvalue > 1e-3
