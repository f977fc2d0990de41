"""The duel roll (BH-DUEL-1..9, BH-DICE-2/4, BH-PROC-4, worked examples E8–E11)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import icepool
import pytest
from bh_support import brute_force, duel_by_hand, duel_model, score_by_hand, table
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError
from kessen.rulesets.battlehost.rules.duel import (
    DuelDecision,
    decide_duel,
    duel_scores,
    duel_winner,
    might_to_spend,
    roll_off_winner,
    side_best,
    side_fight_value,
    win_chance,
)

F = Fraction


def test_bh_duel_8_e8_fight_value_breaks_ties() -> None:
    """BH-DUEL-8, worked example E8: F4 v F3, one die each: Good wins every tie (1/6) on Fight value."""
    assert table("duel", {"good": [{"fight": 4, "attacks": 1}], "evil": [{"fight": 3, "attacks": 1}]}) == {
        ("good", "score", 0): F(5, 12),
        ("good", "fight_value", 0): F(1, 6),
        ("evil", "score", 0): F(5, 12),
    }


def test_bh_duel_9_e9_roll_off() -> None:
    """BH-DUEL-9, worked example E9: F3 v F3: ties go to the roll-off, half each."""
    assert table("duel", {"good": [{"fight": 3, "attacks": 1}], "evil": [{"fight": 3, "attacks": 1}]}) == {
        ("good", "score", 0): F(5, 12),
        ("evil", "score", 0): F(5, 12),
        ("good", "roll_off", 0): F(1, 12),
        ("evil", "roll_off", 0): F(1, 12),
    }


def test_bh_duel_3_e10_two_handed_lone_model_against_two() -> None:
    """BH-DUEL-1/3, worked example E10: a two-handed F4 (a 6 scores 5; 1 and 2 score 1) against two F3 orcs."""
    got = table(
        "duel",
        {"good": [{"fight": 4, "attacks": 1, "two_handed": True}], "evil": [{"fight": 3, "attacks": 1}, {"fight": 3, "attacks": 1}]},
    )
    assert got == {("good", "score", 0): F(5, 36), ("good", "fight_value", 0): F(13, 108), ("evil", "score", 0): F(20, 27)}


def test_bh_duel_6_e11_duel_with_might() -> None:
    """BH-DUEL-6, BH-PROC-4 Might policy, worked example E11: F5 A2 v F5 A2, Good has 1 Might."""
    got = table("duel", {"good": [{"fight": 5, "attacks": 2}], "evil": [{"fight": 5, "attacks": 2}], "good_might": 1})
    assert got == {
        ("good", "score", 0): F(505, 1296),
        ("good", "score", 1): F(55, 432),
        ("evil", "score", 0): F(145, 648),
        ("good", "roll_off", 0): F(121, 2592),
        ("evil", "roll_off", 0): F(121, 2592),
        ("good", "roll_off", 1): F(215, 2592),
        ("evil", "roll_off", 1): F(215, 2592),
    }
    assert sum(p for k, p in got.items() if k[0] == "good") == F(419, 648)
    assert sum(p for k, p in got.items() if k[2] == 1) == F(95, 324)


def test_bh_duel_1_dice_equal_attacks() -> None:
    """BH-DUEL-1: a model rolls as many dice as its Attacks: A3 against A1 scores 6 with 1 − (5/6)³."""
    got = kessen.odds("battlehost", "duel", {"good": [{"fight": 1, "attacks": 3}], "evil": [{"fight": 1, "attacks": 1}]})
    # Good wins by score when its best beats Evil's single die: Σ_e P(e) · P(best > e), best of 3 d6.
    by_hand = sum((F(1, 6) * (1 - F(e, 6) ** 3) for e in range(1, 7)), F(0))
    assert got.probability(winner="good", decided_by="score") == by_hand


@given(fight=st.integers(1, 10), modifier=st.integers(-3, 3), two_handed=st.booleans(), other=duel_model)
def test_bh_duel_1_several_models_roll_the_total_of_their_attacks(fight: int, modifier: int, two_handed: bool, other: dict[str, Any]) -> None:
    """BH-DUEL-1: two A1 models roll two dice between them, exactly like one A2 model with the same Fight and modifiers."""
    one = {"fight": fight, "attacks": 1, "two_handed": two_handed, "duel_modifier": modifier}
    pair = table("duel", {"good": [other], "evil": [one, one]})
    single = table("duel", {"good": [other], "evil": [{**one, "attacks": 2}]})
    assert pair == single


def test_bh_duel_3_two_handed_penalty_applies_to_a_natural_six() -> None:
    """BH-DUEL-3: a two-handed model suffers −1 to each duel die, a natural 6 included (it scores 5)."""
    assert duel_scores([6, 5, 1], two_handed=True) == (5, 4, 1)
    got = kessen.odds("battlehost", "duel", {"good": [{"fight": 10, "attacks": 3, "two_handed": True}], "evil": [{"fight": 1, "attacks": 1}]})
    # Good's best is at most 5, so Evil wins whenever its die e beats it: Σ_e 1/6 · P(best ≤ e − 1),
    # P(best ≤ s) = ((s + 1)/6)³ for s ≤ 5 (faces 1 and 2 both score 1): (8+27+64+125+216)/1296 = 55/162.
    # Without the penalty on the natural 6 the e = 6 term would be 1/6 · (5/6)³ instead of 1/6.
    assert got.probability(winner="evil") == F(55, 162)


def test_bh_duel_4_modifiers_are_clamped_to_one_and_six() -> None:
    """BH-DUEL-4, BH-DICE-2: modifiers apply to each die and scores are clamped to 1–6."""
    assert duel_scores([4, 1], two_handed=False, duel_modifier=3) == (6, 4)
    assert duel_scores([4, 5], two_handed=True, duel_modifier=-3) == (1, 1)
    # +3 against an unmodified die, same Fight: Good scores 6 on 3+ (2/3) and the rest by hand.
    got = table("duel", {"good": [{"fight": 3, "attacks": 1, "duel_modifier": 3}], "evil": [{"fight": 3, "attacks": 1}]})
    good_score = sum(
        (F(1, 36) for g in range(1, 7) for e in range(1, 7) if score_by_hand(g, 3) > e), F(0)
    )
    assert got[("good", "score", 0)] == good_score == F(27, 36)


def test_bh_duel_7_highest_score_wins() -> None:
    """BH-DUEL-7: each side's score is its highest die; the higher side wins."""
    assert side_best([2, 5, 3]) == 5
    assert decide_duel(6, 5, good_fight=1, evil_fight=10) == DuelDecision("good", "score")
    assert decide_duel(2, 3, good_fight=10, evil_fight=1) == DuelDecision("evil", "score")


def test_bh_duel_8_side_fight_value_is_its_highest() -> None:
    """BH-DUEL-8: on equal bests the higher Fight value wins; a side's Fight value is its best model's."""
    assert side_fight_value([3, 5]) == 5
    got = table("duel", {"good": [{"fight": 4, "attacks": 1}], "evil": [{"fight": 3, "attacks": 1}, {"fight": 5, "attacks": 1}]})
    # P(equal bests) = Σ_s P(good = s) P(evil best = s) = 1/6 · Σ_s P(evil best = s) = 1/6.
    assert got[("evil", "fight_value", 0)] == F(1, 6)
    assert not any(k[1] == "roll_off" or k == ("good", "fight_value", 0) for k in got)


def test_bh_duel_9_roll_off_one_to_three_evil_four_to_six_good() -> None:
    """BH-DUEL-9: equal bests and Fight values: one D6, 1–3 Evil, 4–6 Good (BH-SCN-9's faces 2 and 5)."""
    assert [roll_off_winner(f) for f in range(1, 7)] == ["evil"] * 3 + ["good"] * 3
    assert decide_duel(5, 5, good_fight=3, evil_fight=3) is None
    assert duel_winner(5, 5, good_fight=3, evil_fight=3, roll_off_face=2) == DuelDecision("evil", "roll_off")
    assert duel_winner(5, 5, good_fight=3, evil_fight=3, roll_off_face=5) == DuelDecision("good", "roll_off")
    assert duel_winner(5, 5, good_fight=4, evil_fight=3, roll_off_face=1) == DuelDecision("good", "fight_value")
    with pytest.raises(ValueError, match="roll-off"):
        duel_winner(5, 5, good_fight=3, evil_fight=3)


def test_bh_duel_6_might_policy_choices() -> None:
    """BH-DUEL-6, BH-PROC-4: the fewest Might points that give the best chance, never lifting a die above 6."""
    assert might_to_spend(4, 5, own_fight=5, other_fight=5, might=1) == 1  # forces a roll-off: 0 → 1/2
    assert might_to_spend(4, 5, own_fight=5, other_fight=5, might=2) == 2  # wins outright
    assert might_to_spend(5, 5, own_fight=4, other_fight=5, might=3) == 1  # lower Fight: must beat, not tie
    assert might_to_spend(5, 5, own_fight=6, other_fight=5, might=3) == 0  # already wins the tie
    assert might_to_spend(6, 6, own_fight=5, other_fight=5, might=3) == 0  # nothing above 6
    assert might_to_spend(2, 5, own_fight=5, other_fight=5, might=2) == 0  # cannot help: spend nothing
    assert might_to_spend(6, 2, own_fight=1, other_fight=5, might=6) == 0  # already winning
    assert win_chance(6, 6, own_fight=5, other_fight=5) == F(1, 2)


def test_bh_dice_4_might_never_lifts_a_die_above_six() -> None:
    """BH-DICE-4: Might is spent only up to a score of 6: an Evil best of 5 needs one point at most."""
    got = table("duel", {"good": [{"fight": 9, "attacks": 1}], "evil": [{"fight": 1, "attacks": 1}], "evil_might": 6})
    assert max(k[2] for k in got) == 5  # a natural 1 raised to 6 by 5 points; never 6 points
    # Five points only when Evil rolled a 1 and Good's best is exactly 5 (a Good 6 cannot be beaten by Fight 1).
    assert got[("evil", "score", 5)] == F(1, 6) * F(1, 6)


# --- oracles ---------------------------------------------------------------------------------


sides_st = st.tuples(st.lists(duel_model, min_size=1, max_size=2), st.lists(duel_model, min_size=1, max_size=2)).filter(
    lambda s: min(len(s[0]), len(s[1])) == 1 and sum(m["attacks"] for m in s[0] + s[1]) <= 4
)


@settings(max_examples=120, deadline=None)
@given(sides=sides_st, might=st.integers(0, 6), mighty=st.sampled_from(["good", "evil"]))
def test_bh_duel_6_duel_matches_brute_force(sides: tuple[list[dict[str, Any]], list[dict[str, Any]]], might: int, mighty: str) -> None:
    """BH-DUEL-1..9, BH-PROC-4: the keep-highest answer equals enumerating every duel die and the roll-off die."""
    good, evil = sides
    good_might, evil_might = (might, 0) if mighty == "good" else (0, might)
    procedure, dice = duel_by_hand(good, evil, good_might, evil_might)
    got = table("duel", {"good": good, "evil": evil, "good_might": good_might, "evil_might": evil_might})
    assert got == brute_force(procedure, dice)


def _icepool_side(models: list[dict[str, Any]]) -> icepool.Die:
    dice = [
        (icepool.d6 + m.get("duel_modifier", 0) - (1 if m.get("two_handed", False) else 0)).clip(1, 6)
        for m in models
        for _ in range(m["attacks"])
    ]
    return icepool.highest(*dice) if len(dice) > 1 else dice[0]


@settings(max_examples=60, deadline=None)
@given(
    good=st.lists(st.fixed_dictionaries({"fight": st.integers(1, 10), "attacks": st.integers(1, 10), "two_handed": st.booleans(), "duel_modifier": st.integers(-3, 3)}), min_size=1, max_size=8),
    evil=st.fixed_dictionaries({"fight": st.integers(1, 10), "attacks": st.integers(1, 10), "two_handed": st.booleans(), "duel_modifier": st.integers(-3, 3)}),
)
def test_bh_duel_7_large_duels_match_icepool(good: list[dict[str, Any]], evil: dict[str, Any]) -> None:
    """BH-DUEL-1..9: up to 80 dice against 10, checked against icepool's keep-highest as an independent oracle."""
    gf, ef = max(m["fight"] for m in good), evil["fight"]
    verdict = icepool.map(
        lambda g, e: ("good", "score") if g > e else ("evil", "score") if e > g else
        (("good" if gf > ef else "evil", "fight_value") if gf != ef else ("tie", "roll_off")),
        _icepool_side(good),
        _icepool_side([evil]),
    )
    expected: defaultdict[tuple[str, str, int], Fraction] = defaultdict(Fraction)
    for (winner, how), quantity in verdict.items():
        p = F(quantity, verdict.denominator())
        if winner == "tie":
            expected[("good", "roll_off", 0)] += p / 2
            expected[("evil", "roll_off", 0)] += p / 2
        else:
            expected[(winner, how, 0)] += p
    assert table("duel", {"good": good, "evil": [evil]}) == dict(expected)


@settings(max_examples=80, deadline=None)
@given(good=duel_model, evil=duel_model, might=st.integers(0, 5))
def test_bh_duel_6_more_might_never_lowers_the_chance_to_win(good: dict[str, Any], evil: dict[str, Any], might: int) -> None:
    """BH-DUEL-6: one more point of Might never lowers the side's chance to win the duel."""
    less = kessen.odds("battlehost", "duel", {"good": [good], "evil": [evil], "good_might": might})
    more = kessen.odds("battlehost", "duel", {"good": [good], "evil": [evil], "good_might": might + 1})
    assert more.probability(winner="good") >= less.probability(winner="good")


@settings(max_examples=80, deadline=None)
@given(model=duel_model, other=duel_model)
def test_bh_duel_3_a_penalty_never_helps(model: dict[str, Any], other: dict[str, Any]) -> None:
    """BH-DUEL-3/4: declaring a two-handed weapon (−1 per die) never raises a side's chance to win the duel."""
    plain = kessen.odds("battlehost", "duel", {"good": [{**model, "two_handed": False}], "evil": [other]})
    heavy = kessen.odds("battlehost", "duel", {"good": [{**model, "two_handed": True}], "evil": [other]})
    assert heavy.probability(winner="good") <= plain.probability(winner="good")


# --- BH-PROC-0 / BH-PROC-4: bad input and the normalised echo -----------------------------------

ONE = {"fight": 4, "attacks": 1}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"good": [ONE], "evil": [ONE], "evil_might": 7}, "evil_might"),  # worked example E14
        ({"good": [ONE], "evil": [ONE], "good_might": -1}, "good_might"),
        ({"good": [ONE, ONE], "evil": [ONE, ONE]}, "evil"),  # one-vs-one or many-vs-one only
        ({"good": [ONE], "evil": [ONE], "good_might": 1, "evil_might": 1}, "evil_might"),
        ({"good": [], "evil": [ONE]}, "good"),
        ({"good": [ONE] * 9, "evil": [ONE]}, "good"),
        ({"good": [ONE]}, "evil"),
        ({"good": [{"fight": 4}], "evil": [ONE]}, "good[0].attacks"),
        ({"good": [ONE], "evil": [{"fight": 4, "attacks": 0}]}, "evil[0].attacks"),
        ({"good": [ONE], "evil": [{"fight": 11, "attacks": 1}]}, "evil[0].fight"),
        ({"good": [ONE], "evil": [{**ONE, "duel_modifier": 4}]}, "evil[0].duel_modifier"),
        ({"good": [ONE], "evil": [{**ONE, "strength": 3}]}, "evil[0].strength"),
        ({"good": [ONE], "evil": [{**ONE, "two_handed": 1}]}, "evil[0].two_handed"),
        ({"good": ONE, "evil": [ONE]}, "good"),
    ],
)
def test_bh_proc_0_duel_bad_input_names_the_field(data: dict[str, Any], field: str) -> None:
    """BH-PROC-0, BH-PROC-4: out of range, unknown fields inside models and the structural errors name the field."""
    with pytest.raises(InputError) as caught:
        kessen.odds("battlehost", "duel", data)
    assert caught.value.field == field


def test_bh_proc_0_duel_normalised_input_keeps_order_and_fills_defaults() -> None:
    """BH-PROC-0: the printed input lists models in the given order with every default filled."""
    got = kessen.odds("battlehost", "duel", {"evil": [{"fight": 3, "attacks": 2}, {"fight": 5, "attacks": 1, "two_handed": True}], "good": [ONE]})
    assert got.input == {
        "good": [{"fight": 4, "attacks": 1, "two_handed": False, "duel_modifier": 0}],
        "evil": [
            {"fight": 3, "attacks": 2, "two_handed": False, "duel_modifier": 0},
            {"fight": 5, "attacks": 1, "two_handed": True, "duel_modifier": 0},
        ],
        "good_might": 0,
        "evil_might": 0,
    }


@pytest.mark.parametrize("procedure", ["wound_roll", "duel", "fight"])
def test_bh_dice_3_no_re_roll_input(procedure: str) -> None:
    """BH-DICE-3, BH-DUEL-5 [DECISION]: this ruleset has no source of re-rolls, so no procedure takes a re-roll input."""
    base: dict[str, Any] = {
        "wound_roll": {"strength": 3, "defence": 4},
        "duel": {"good": [ONE], "evil": [ONE]},
        "fight": {"good": [{**ONE, "strength": 3, "defence": 4}], "evil": [{**ONE, "strength": 3, "defence": 4}]},
    }[procedure]
    with pytest.raises(InputError) as caught:
        kessen.odds("battlehost", procedure, {**base, "reroll": True})
    assert caught.value.field == "reroll"
