"""Close combat: fight rolls against icepool, whole combats against a plain recursion (LI-FIGHT, LI-RESULT, LI-CC, LI-PAIR-4)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction as F
from itertools import product
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError
from kessen.rulesets.legions.rules.close_combat import combat_winner, fight_dice


def fight_odds(a: dict[str, Any], b: dict[str, Any]) -> dict[str, F]:
    return {o["winner"]: q for o, q in kessen.odds("legions", "fight", {"a": a, "b": b}).outcomes}


def icepool_fight(a_dice: int, a_bonus: int, b_dice: int, b_bonus: int) -> dict[str, F]:
    """The independent oracle: icepool's sums of D6 pools."""
    diff = (a_dice @ icepool.d6 + a_bonus) - (b_dice @ icepool.d6 + b_bonus)
    den = diff.denominator()
    return {
        key: F(sum(diff.quantity(x) for x in diff.outcomes() if test(x)), den)
        for key, test in (("a", lambda x: x > 0), ("b", lambda x: x < 0), ("draw", lambda x: x == 0))
        if any(test(x) for x in diff.outcomes())
    }


side = st.fixed_dictionaries(
    {"caf": st.integers(-3, 8)},
    optional={
        "modifier": st.integers(-3, 3),
        "charged": st.booleans(),
        "fight_number": st.integers(1, 6),
        "extra_dice": st.integers(0, 5),
    },
)


def dice_of(me: dict[str, Any], other: dict[str, Any]) -> int:
    return min(6, 2 + other.get("fight_number", 1) - 1 + me.get("extra_dice", 0))


def bonus_of(me: dict[str, Any]) -> int:
    return me["caf"] + me.get("modifier", 0) + (1 if me.get("charged", False) else 0)


@settings(max_examples=80, deadline=None)
@given(a=side, b=side)
def test_li_fight_2_li_fight_4_fight_matches_icepool(a: dict[str, Any], b: dict[str, Any]) -> None:
    """LI-FIGHT-2..5: a fight is the sum of each side's D6 (2 + opponent's earlier fights + extra, max 6) plus CAF and modifiers."""
    ours = fight_odds(a, b)
    oracle = icepool_fight(dice_of(a, b), bonus_of(a), dice_of(b, a), bonus_of(b))
    assert {k: v for k, v in ours.items() if v} == oracle


def test_li_fight_2_two_dice_each_by_plain_enumeration() -> None:
    """LI-FIGHT-2, LI-FIGHT-5: 2D6+3 against 2D6+1, all 6^4 rolls enumerated by hand."""
    count: dict[str, int] = defaultdict(int)
    for w, x, y, z in product(range(1, 7), repeat=4):
        a, b = w + x + 3, y + z + 1
        count["a" if a > b else "b" if b > a else "draw"] += 1
    assert fight_odds({"caf": 3}, {"caf": 1}) == {k: F(v, 1296) for k, v in count.items()}


def test_li_fight_3_charge_adds_one() -> None:
    """LI-FIGHT-3: a charge that moved adds 1, exactly like a +1 modifier."""
    assert fight_odds({"caf": 2, "charged": True}, {"caf": 3}) == fight_odds({"caf": 2, "modifier": 1}, {"caf": 3})
    assert fight_odds({"caf": 2, "charged": True}, {"caf": 3}) == fight_odds({"caf": 3}, {"caf": 3})


def test_li_fight_4_extra_dice_cumulative_and_capped() -> None:
    """LI-FIGHT-4: 2nd fight → 3D6, 3rd → 4D6; with other extra dice never more than 6D6."""
    assert [fight_dice(opponent_fights_before=n, extra_dice=0) for n in range(6)] == [2, 3, 4, 5, 6, 6]
    assert fight_dice(opponent_fights_before=1, extra_dice=10) == 6
    assert fight_odds({"caf": 0, "extra_dice": 10}, {"caf": 0, "fight_number": 10}) == fight_odds({"caf": 0, "extra_dice": 4}, {"caf": 0})


def test_li_fight_5_fight_is_symmetric() -> None:
    """LI-FIGHT-5: the higher total wins whichever side it is on; swapping a and b swaps the winner."""
    a, b = {"caf": 4, "fight_number": 2}, {"caf": 1, "extra_dice": 1}
    there, back = fight_odds(a, b), fight_odds(b, a)
    assert there["a"] == back["b"] and there["b"] == back["a"] and there["draw"] == back["draw"]


# --- combats ------------------------------------------------------------------------------------


def plain_combat(data: dict[str, Any]) -> dict[tuple[Any, ...], F]:
    """An independent reading of §5.5: every model's Wounds and fight count kept, fights from icepool."""
    models = {m["id"]: m for m in data["models"]}
    out: dict[tuple[Any, ...], F] = defaultdict(F)

    def go(k: int, wounds: dict[str, int], fought: dict[str, int], won: dict[str, int], prob: F) -> None:
        if k == len(data["fights"]):
            lost = {s: sum(1 for i, m in models.items() if m["side"] == s and wounds[i] == 0) for s in "ab"}
            size = {s: sum(1 for m in models.values() if m["side"] == s) for s in "ab"}
            empty = {s: lost[s] == size[s] and data.get(f"{s}_other_models", 0) == 0 for s in "ab"}
            winner = "b" if empty["a"] else "a" if empty["b"] else ("draw" if won["a"] == won["b"] else max("ab", key=lambda s: won[s]))
            out[(won["a"], won["b"], lost["a"], lost["b"], winner)] += prob
            return
        x, y = data["fights"][k]
        a, b = (x, y) if models[x]["side"] == "a" else (y, x)
        if wounds[a] == 0 or wounds[b] == 0:
            go(k + 1, wounds, fought, won, prob)
            return
        ma, mb = models[a], models[b]
        a_dice = min(6, 2 + fought[b] + ma.get("extra_dice", 0))
        b_dice = min(6, 2 + fought[a] + mb.get("extra_dice", 0))
        odds = icepool_fight(a_dice, bonus_of(ma), b_dice, bonus_of(mb))
        for result, q in odds.items():
            w, f, n = dict(wounds), dict(fought), dict(won)
            f[a] += 1
            f[b] += 1
            if result != "draw":
                n[result] += 1
                w[b if result == "a" else a] -= 1
            go(k + 1, w, f, n, prob * q)

    go(0, {i: m.get("wounds_remaining", 1) for i, m in models.items()}, {i: 0 for i in models}, {"a": 0, "b": 0}, F(1))
    return dict(out)


@st.composite
def star_combat(draw: st.DrawFn) -> dict[str, Any]:
    models: list[dict[str, Any]] = []
    fights: list[list[str]] = []
    for s in range(draw(st.integers(1, 3))):
        centre_side = draw(st.sampled_from("ab"))
        leaf_side = "b" if centre_side == "a" else "a"

        def model(name: str, side_: str) -> dict[str, Any]:
            m = {"id": name, "side": side_, "caf": draw(st.integers(-1, 3))}
            if draw(st.booleans()):
                m["wounds_remaining"] = draw(st.integers(1, 2))
            if draw(st.integers(0, 3)) == 0:
                m["extra_dice"] = 1
            if draw(st.integers(0, 3)) == 0:
                m["charged"] = True
            return m

        models.append(model(f"C{s}", centre_side))
        for j in range(draw(st.integers(1, 3))):
            models.append(model(f"L{s}{j}", leaf_side))
            pair = [f"C{s}", f"L{s}{j}"]
            fights.append(pair if draw(st.booleans()) else pair[::-1])
    order = draw(st.permutations(range(len(fights))))
    data: dict[str, Any] = {"models": models, "fights": [fights[i] for i in order]}
    for name in ("a_other_models", "b_other_models"):
        if draw(st.booleans()):
            data[name] = draw(st.integers(0, 1))
    return data


@settings(max_examples=40, deadline=None)
@given(data=star_combat())
def test_li_fight_1_li_fight_6_li_result_1_li_result_2_combat_matches_plain_recursion(data: dict[str, Any]) -> None:
    """LI-FIGHT-1..6, LI-RESULT-1, LI-RESULT-2: the pruned, merged combat chain equals a recursion keeping every model."""
    ours = {tuple(o.values()): q for o, q in kessen.odds("legions", "combat", data).outcomes}
    assert ours == plain_combat(data)


def test_li_cc_2_li_fight_4_outnumbered_model_fights_in_the_given_order() -> None:
    """LI-CC-2, LI-FIGHT-1, LI-FIGHT-4: X fights Y then Z; Z, in X's 2nd fight, rolls 3D6 (X has Wounds to spare)."""
    models = [{"id": "X", "side": "a", "caf": 3, "wounds_remaining": 5}, {"id": "Y", "side": "b", "caf": 1}, {"id": "Z", "side": "b", "caf": 1}]
    r = kessen.odds("legions", "combat", {"models": models, "fights": [["X", "Y"], ["X", "Z"]]})
    first = fight_odds({"caf": 3}, {"caf": 1})
    second = fight_odds({"caf": 3, "fight_number": 2}, {"caf": 1})  # the opponent of X's 2nd fight rolls 3D6
    assert r.probability(a_fights_won=0, b_fights_won=2) == first["b"] * second["b"]
    assert r.probability(a_fights_won=2, b_fights_won=0) == first["a"] * second["a"]


def test_li_fight_6_fight_of_a_destroyed_model_is_skipped() -> None:
    """LI-FIGHT-6: X (1 Wound) fights Y then Z; if Y wins, X is gone and X–Z is never fought."""
    models = [{"id": "X", "side": "a", "caf": 2}, {"id": "Y", "side": "b", "caf": 2}, {"id": "Z", "side": "b", "caf": 2}]
    r = kessen.odds("legions", "combat", {"models": models, "fights": [["X", "Y"], ["X", "Z"]]})
    first = fight_odds({"caf": 2}, {"caf": 2})
    second = fight_odds({"caf": 2, "fight_number": 2}, {"caf": 2})  # only after a drawn first fight
    # X lost the first fight (then nothing more), or drew it and lost the second
    assert r.probability(a_fights_won=0, b_fights_won=1, a_destroyed=1) == first["b"] + first["draw"] * second["b"]
    assert r.probability(a_fights_won=0, b_fights_won=2) == 0


def test_li_result_2_sc_morale_7_side_with_no_models_loses() -> None:
    """LI-RESULT-2 (SC-MORALE-7): b wins 2 fights to 1 but its only model is destroyed: a wins; with another b model left, b wins."""
    models = [{"id": "Y", "side": "b", "caf": 2}] + [{"id": f"X{i}", "side": "a", "caf": 2} for i in range(3)]
    fights = [["Y", "X0"], ["Y", "X1"], ["Y", "X2"]]
    alone = kessen.odds("legions", "combat", {"models": models, "fights": fights}).outcomes
    rows = [(o, q) for o, q in alone if o["b_fights_won"] == 2 and o["a_fights_won"] == 1]
    assert rows and all(o["winner"] == "a" and o["b_destroyed"] == 1 for o, _ in rows)
    helped = kessen.odds("legions", "combat", {"models": models, "fights": fights, "b_other_models": 1}).outcomes
    assert all(o["winner"] == "b" for o, _ in helped if o["b_fights_won"] == 2 and o["a_fights_won"] == 1)
    assert combat_winner(a_fights_won=0, b_fights_won=3, a_all_destroyed=False, b_all_destroyed=True) == "a"


def test_li_result_1_equal_fights_won_is_a_draw() -> None:
    """LI-RESULT-1: with both models surviving (2 Wounds each) a 1–1 split of fights is a draw; 0–0 (two draws) too."""
    assert combat_winner(a_fights_won=1, b_fights_won=1, a_all_destroyed=False, b_all_destroyed=False) == "draw"
    models = [{"id": "A", "side": "a", "caf": 2, "wounds_remaining": 3}, {"id": "B", "side": "b", "caf": 2}, {"id": "C", "side": "b", "caf": 2}]
    r = kessen.odds("legions", "combat", {"models": models, "fights": [["A", "B"], ["A", "C"]]})
    assert all(o["winner"] == "draw" for o, _ in r.outcomes if o["a_fights_won"] == o["b_fights_won"])


@pytest.mark.parametrize(
    ("fights", "field"),
    [
        ([["A", "B"], ["A", "C"], ["D", "C"]], "fights[1]"),  # A and C both fight twice
        ([["A", "B"], ["B", "A"]], "fights[1]"),
        ([["A", "B"], ["A", "Q"]], "fights[1][1]"),
        ([["A", "D"]], "fights[0]"),
        ([["A", "B"]], "models[2].id"),
    ],
)
def test_li_pair_4_bad_fight_lists_rejected(fights: list[list[str]], field: str) -> None:
    """LI-PAIR-4, §5.5: fights must join opponents, once each, cover every model, and form stars."""
    models = [{"id": "A", "side": "a", "caf": 1}, {"id": "B", "side": "b", "caf": 1}, {"id": "C", "side": "b", "caf": 1}, {"id": "D", "side": "a", "caf": 1}]
    if fights == [["A", "B"]]:
        models = models[:3]
    if fights == [["A", "D"]]:
        models = [models[0], models[3]]
    with pytest.raises(InputError) as caught:
        kessen.odds("legions", "combat", {"models": models, "fights": fights})
    assert caught.value.field == field


def test_li_pair_2_li_pair_4_sc_pair_4_one_star_of_three() -> None:
    """LI-PAIR-2, LI-PAIR-4 (SC-PAIR-4): X, touched by Y, Z and W only, fights each in turn (one star): W, in X's 3rd fight, rolls 4D6."""
    models = [{"id": "X", "side": "a", "caf": 0, "wounds_remaining": 3}] + [{"id": n, "side": "b", "caf": 0} for n in "YZW"]
    r = kessen.odds("legions", "combat", {"models": models, "fights": [["X", "Y"], ["X", "Z"], ["X", "W"]]})
    third = fight_odds({"caf": 0, "fight_number": 3}, {"caf": 0})  # W rolls 4D6 against X's 2D6
    first, second = fight_odds({"caf": 0}, {"caf": 0}), fight_odds({"caf": 0, "fight_number": 2}, {"caf": 0})
    assert r.probability(a_fights_won=0, b_fights_won=3) == first["b"] * second["b"] * third["b"]


def test_li_eng_4_li_pair_1_models_out_of_contact_take_no_part_in_fights() -> None:
    """LI-ENG-4, LI-PAIR-1: models of the combat not in base contact fight no fight: they change no fight count,
    only whether a side still has models left (LI-RESULT-2)."""
    models = [{"id": "A", "side": "a", "caf": 0}, {"id": "B", "side": "b", "caf": 3}]
    alone = kessen.odds("legions", "combat", {"models": models, "fights": [["A", "B"]]})
    backed = kessen.odds("legions", "combat", {"models": models, "fights": [["A", "B"]], "a_other_models": 5})
    strip = lambda r: {(o["a_fights_won"], o["b_fights_won"], o["a_destroyed"], o["b_destroyed"]): q for o, q in r.outcomes}  # noqa: E731
    assert strip(alone) == strip(backed)
    # B winning destroys A: alone, side a has no models left (a loss either way); with 5 others, still a loss on fights won
    assert alone.probability(winner="b") == backed.probability(winner="b")
