"""The worked examples of the legions spec (§6), each with its exact fractions.

Every expected number is copied from the spec's section 6 (computed there by exhaustive
enumeration and cross-checked with icepool); the hand reasoning is repeated in comments where short.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from typing import Any

import pytest

import kessen
from kessen.core.errors import InputError


def odds(procedure: str, data: dict[str, Any]) -> kessen.OddsResult:
    return kessen.odds("legions", procedure, data)


def p(result: kessen.OddsResult, test: Callable[[dict[str, Any]], bool]) -> F:
    assert sum(q for _, q in result.outcomes) == 1
    return sum((q for o, q in result.outcomes if test(o)), F(0))


def test_li_hit_1_li_save_3_li_morale_1_ex_fire_1_four_shots_at_five_plus() -> None:
    """LI-HIT-1, LI-SAVE-3, LI-MORALE-1 (EX-FIRE-1): 4 dice at 5+ hit Binomial(4, 1/3); a 5+ save fails 2/3;
    the Morale threshold of 4 models is 2 Wounds."""
    r = odds("fire", {"firing_models": 4, "to_hit": 5, "target_models": [{"armour_save": 5, "count": 4}]})
    assert [p(r, lambda o, h=h: o["hits"] == h) for h in range(5)] == [F(16, 81), F(32, 81), F(8, 27), F(8, 81), F(1, 81)]
    # each die kills with 1/3 · 2/3 = 2/9, independently: P(none) = (7/9)^4
    assert p(r, lambda o: o["destroyed"] == 0) == F(2401, 6561)
    assert p(r, lambda o: o["destroyed"] >= 2) == F(472, 2187)
    assert p(r, lambda o: o["morale_threshold_reached"]) == F(472, 2187)


def test_li_hit_2_li_save_9_ex_fire_2_natural_one_misses_no_save_kills() -> None:
    """LI-HIT-2, LI-SAVE-9 (EX-FIRE-2): To Hit 2+ with +2 still misses on a natural 1; models with no save die to every hit."""
    r = odds("fire", {"firing_models": 3, "to_hit": 2, "hit_modifier": 2, "target_models": [{"armour_save": None, "count": 3}]})
    assert p(r, lambda o: o["hits"] == 3) == F(125, 216)  # (5/6)^3
    assert p(r, lambda o: o["destroyed"] == 3) == F(125, 216)


def test_li_hit_2_ex_fire_3_natural_six_always_hits() -> None:
    """LI-HIT-2 (EX-FIRE-3): To Hit 4+ with −3 hits only on natural 6s: P(no hit from 4 dice) = (5/6)^4."""
    r = odds("fire", {"firing_models": 2, "dice": 2, "to_hit": 4, "hit_modifier": -3, "target_models": [{"armour_save": None, "count": 4}]})
    assert p(r, lambda o: o["hits"] == 0) == F(625, 1296)
    assert p(r, lambda o: o["hits"] >= 1) == F(671, 1296)


def test_li_tgt_5_li_save_2_ex_fire_4_titan_out_scales_its_opponents() -> None:
    """LI-TGT-5, LI-SAVE-2 (EX-FIRE-4): a Scale 5 Titan Engaged with Scales 1 and 3 gives no penalty; AP −3 makes 3+ into 6+."""
    r = odds(
        "fire",
        {"firing_models": 3, "dice": 2, "to_hit": 4, "ap": -3, "target_models": [{"type": "titan", "wounds": 6, "armour_save": 3}], "target_engaged_with_scales": [1, 3]},
    )
    assert p(r, lambda o: o["hits"] == 0) == F(1, 64)  # (1/2)^6
    assert p(r, lambda o: o["wounds"] == 0) == F(117649, 2985984)  # (1 − 1/2 · 5/6)^6 = (7/12)^6
    assert p(r, lambda o: o["wounds"] >= 3) == F(731875, 1492992)


def test_li_tgt_5_ex_fire_5_knight_in_the_combat_gives_minus_one() -> None:
    """LI-TGT-5 (EX-FIRE-5): the same Titan also Engaged with a Scale 4 Knight: 5 < 4 + 2, so −1 and hits on 5+."""
    r = odds(
        "fire",
        {"firing_models": 3, "dice": 2, "to_hit": 4, "ap": -3, "target_models": [{"type": "titan", "wounds": 6, "armour_save": 3}], "target_engaged_with_scales": [1, 3, 4]},
    )
    assert p(r, lambda o: o["hits"] == 0) == F(64, 729)  # (2/3)^6
    assert p(r, lambda o: o["wounds"] == 0) == F(4826809, 34012224)  # (1 − 1/3 · 5/6)^6 = (13/18)^6
    assert p(r, lambda o: o["wounds"] >= 3) == F(3668125, 17006112)


def test_li_obsc_1_li_obsc_2_ex_fire_6_largest_penalty_by_default() -> None:
    """LI-OBSC-1, LI-OBSC-2 (EX-FIRE-6): a 25%-hidden Knight gives −1 by default; both Knights may take hits, the hidden one first."""
    r = odds(
        "fire",
        {"firing_models": 2, "dice": 2, "to_hit": 3, "ap": -2, "target_models": [{"type": "knight", "wounds": 3, "armour_save": 3, "obscured": 25}, {"type": "knight", "wounds": 3, "armour_save": 3}]},
    )
    assert r.input["obscuration_penalty"] == 1
    assert p(r, lambda o: o["hits"] == 0) == F(1, 16)  # hits on 4+: (1/2)^4
    assert p(r, lambda o: o["destroyed"] == 1) == F(1, 9)


def test_li_obsc_2_ex_fire_7_smaller_penalty_limits_allocation() -> None:
    """LI-OBSC-2, LI-ALLOC-2 (EX-FIRE-7): choosing 0 hits on 3+, but only the unhidden Knight may take the hits."""
    r = odds(
        "fire",
        {"firing_models": 2, "dice": 2, "to_hit": 3, "ap": -2, "obscuration_penalty": 0, "target_models": [{"type": "knight", "wounds": 3, "armour_save": 3, "obscured": 25}, {"type": "knight", "wounds": 3, "armour_save": 3}]},
    )
    assert p(r, lambda o: o["hits"] == 0) == F(1, 81)  # (1/3)^4
    assert p(r, lambda o: o["destroyed"] == 1) == F(512, 2187)


def test_li_save_7_li_save_8_ex_res_1_cover_save_ignores_ap() -> None:
    """LI-SAVE-7, LI-SAVE-8 (EX-RES-1): 5+ armour worsened to 6+ by AP −1; the 4+ Cover Save is used: Binomial(3, 1/2) kills."""
    r = odds("resolve_hits", {"hits": 3, "ap": -1, "target_models": [{"armour_save": 5, "cover_save": 4, "count": 6}]})
    assert [p(r, lambda o, k=k: o["destroyed"] == k) for k in range(4)] == [F(1, 8), F(3, 8), F(3, 8), F(1, 8)]


def test_li_save_10_li_arc_1_ex_res_2_light_at_from_the_rear() -> None:
    """LI-SAVE-10, LI-ARC-1 (EX-RES-2): Light AT turns AP −1 into 0 against a Knight, the rear arc then into −1: 3+ becomes 4+."""
    r = odds("resolve_hits", {"hits": 2, "ap": -1, "light_at": True, "rear_arc": True, "target_models": [{"type": "knight", "wounds": 3, "armour_save": 3}]})
    assert [p(r, lambda o, k=k: o["wounds"] == k) for k in range(3)] == [F(1, 4), F(1, 2), F(1, 4)]


def test_li_arc_3_li_void_2_ex_res_3_ap_zero_never_touches_shields() -> None:
    """LI-ARC-3, LI-VOID-2 (EX-RES-3): AP 0 from the rear arc cannot bring down active Void Shields: every hit discarded."""
    r = odds("resolve_hits", {"hits": 3, "ap": 0, "rear_arc": True, "target_models": [{"type": "titan", "wounds": 8, "armour_save": 3, "void_shields": 2}]})
    assert p(r, lambda o: o["wounds"] == 0 and o["shields_lost"] == 0) == 1


def test_li_void_2_li_void_3_ex_res_4_shields_then_saves() -> None:
    """LI-VOID-2, LI-VOID-3, LI-ARC-1 (EX-RES-4): two AP −1 hits take the two shields; the third is saved on 5+ (3+, −1 AP, −1 rear)."""
    r = odds("resolve_hits", {"hits": 3, "ap": -1, "rear_arc": True, "target_models": [{"type": "titan", "wounds": 8, "armour_save": 3, "void_shields": 2}]})
    assert p(r, lambda o: o["shields_lost"] == 2) == 1
    assert p(r, lambda o: o["wounds"] == 0) == F(1, 3)
    assert p(r, lambda o: o["wounds"] == 1) == F(2, 3)


def test_li_alloc_3_li_wound_1_ex_res_5_wounded_model_first() -> None:
    """LI-ALLOC-3, LI-WOUND-1 (EX-RES-5): hits go to the wounded vehicle until it is destroyed, then to the other."""
    r = odds(
        "resolve_hits",
        {"hits": 3, "target_models": [{"type": "vehicle", "wounds": 2, "armour_save": 4}, {"type": "vehicle", "wounds": 2, "wounds_remaining": 1, "armour_save": 4}]},
    )
    assert [p(r, lambda o, k=k: o["destroyed"] == k) for k in range(3)] == [F(1, 8), F(3, 4), F(1, 8)]
    assert p(r, lambda o: o["wounds"] == 1) == F(3, 8)


def test_li_save_1_li_save_6_ex_res_6_best_save_with_armour_modifier() -> None:
    """LI-SAVE-1, LI-SAVE-6 (EX-RES-6): 2+ armour at AP −4 is 6+, +1 makes 5+, better than the 6+ Special Save."""
    r = odds("resolve_hits", {"hits": 2, "ap": -4, "armour_save_modifier": 1, "target_models": [{"type": "vehicle", "armour_save": 2, "special_save": 6, "count": 2}]})
    assert p(r, lambda o: o["destroyed"] == 0) == F(1, 9)  # (1/3)^2
    assert p(r, lambda o: o["destroyed"] == 2) == F(4, 9)  # (2/3)^2


def test_li_fight_2_li_fight_5_ex_fight_1_equals() -> None:
    """LI-FIGHT-2, LI-FIGHT-5 (EX-FIGHT-1): 2D6+2 against 2D6+2; draws are 73/648 (Σ (ways/36)^2 = 146/1296)."""
    r = odds("fight", {"a": {"caf": 2}, "b": {"caf": 2}})
    assert r.probability(winner="a") == F(575, 1296)
    assert r.probability(winner="b") == F(575, 1296)
    assert r.probability(winner="draw") == F(73, 648)


def test_li_fight_4_li_fight_7_ex_fight_2_second_fight_gives_a_die() -> None:
    """LI-FIGHT-4, LI-FIGHT-7 (EX-FIGHT-2): D in its second fight: B rolls 3D6 + CAF against D's 2D6 + CAF."""
    r = odds("fight", {"a": {"caf": 2}, "b": {"caf": 2, "fight_number": 2}})
    assert r.probability(winner="a") == F(1009, 1296)
    assert r.probability(winner="b") == F(197, 1296)
    assert r.probability(winner="draw") == F(5, 72)


def test_li_fight_3_li_fight_4_ex_fight_3_six_dice_cap() -> None:
    """LI-FIGHT-3, LI-FIGHT-4 (EX-FIGHT-3): 2 + 2 + 3 = 7 dice capped at 6D6; b charged for +1."""
    r = odds("fight", {"a": {"caf": 0, "extra_dice": 3}, "b": {"caf": 5, "fight_number": 3, "charged": True}})
    assert r.probability(winner="a") == F(788821, 839808)
    assert r.probability(winner="b") == F(403, 10368)
    assert r.probability(winner="draw") == F(2293, 104976)


def test_li_fight_6_li_fight_7_li_result_1_ex_combat_1_seed_combat() -> None:
    """LI-FIGHT-6, LI-FIGHT-7, LI-RESULT-1 (EX-COMBAT-1): A–D, B–D, C–E; if A destroys D, B–D is not fought."""
    r = odds(
        "combat",
        {
            "models": [{"id": "A", "side": "a", "caf": 2}, {"id": "B", "side": "a", "caf": 2}, {"id": "C", "side": "a", "caf": 2}, {"id": "D", "side": "b", "caf": 2}, {"id": "E", "side": "b", "caf": 2}],
            "fights": [["A", "D"], ["B", "D"], ["C", "E"]],
        },
    )
    assert r.probability(winner="a") == F(328219573, 725594112)
    assert r.probability(winner="b") == F(546009677, 2176782336)
    assert r.probability(winner="draw") == F(161528485, 544195584)
    assert r.probability(b_destroyed=2) == F(846796175, 2176782336)


def test_li_morale_3_li_break_5_ex_morale_1_broken_minus_one() -> None:
    """LI-MORALE-3, LI-BREAK-5 (EX-MORALE-1): Morale 3+ with Broken −1 passes on 4+."""
    r = odds("morale_check", {"morale": 3, "broken": True})
    assert r.probability(result="pass") == F(1, 2)
    assert r.probability(result="fail") == F(1, 2)


def test_li_morale_4_li_result_6_ex_morale_2_lower_of_two_dice() -> None:
    """LI-MORALE-4, LI-RESULT-6, LI-BREAK-5 (EX-MORALE-2): lower of 2D6, −1, +1: pass when the lower die is ≥ 3 ((4/6)^2)."""
    r = odds("morale_check", {"morale": 3, "trigger": "combat", "broken": True, "roll_modifier": 1})
    assert r.probability(result="pass") == F(4, 9)
    assert r.probability(result="fail") == F(5, 9)


def test_li_morale_7_ex_morale_3_second_check_after_pass() -> None:
    """LI-MORALE-7 (EX-MORALE-3): a later check in the phase after a pass passes with no dice."""
    assert odds("morale_check", {"morale": 4, "earlier_check_this_phase": "passed"}).probability(result="auto_pass") == 1


def test_li_morale_6_ex_morale_4_morale_dash_passes() -> None:
    """LI-MORALE-6 (EX-MORALE-4): Morale "-" passes a casualties check automatically."""
    assert odds("morale_check", {"morale": None}).probability(result="auto_pass") == 1


def test_li_wd_4_li_wd_5_ex_wd_1_knight_through_three_detachments() -> None:
    """LI-WD-4, LI-WD-5 (EX-WD-1): a Scale 4 Knight passes Scale 1 without a roll (4 ≥ 1 + 3), rolls 3+ for Scales 2 and 4."""
    r = odds("withdrawal_save", {"scale": 4, "wounds_remaining": 3, "armour_save": 3, "passed_through_scales": [1, 2, 4]})
    assert [r.probability(wounds_lost=k) for k in range(3)] == [F(4, 9), F(4, 9), F(1, 9)]


def test_li_wd_5_ex_wd_2_no_save_passes_only_on_six() -> None:
    """LI-WD-5 (EX-WD-2): a model with no save still rolls and passes only on a natural 6."""
    assert odds("withdrawal_save", {"scale": 1, "armour_save": None, "passed_through_scales": [2]}).probability(destroyed=True) == F(5, 6)


def test_li_wd_1_ex_wdmove_1_d6_plus_movement() -> None:
    """LI-WD-1 (EX-WDMOVE-1): Movement 5 withdraws D6 + 5 inches."""
    r = odds("withdrawal_move", {"movement": 5})
    assert r.probability(distance=6) == F(1, 6)
    assert p(r, lambda o: o["distance"] >= 9) == F(1, 2)


@pytest.mark.parametrize(
    ("models", "expected"),
    [
        ([{"count": 28}], (14, 0, False)),  # EX-BP-1: 28 → 14
        ([{"count": 27, "destroyed": 14}], (14, 14, True)),  # EX-BP-2: 27 → 14 (13.5 up); 14 ≥ 14
        ([{"count": 28, "destroyed": 15}, {"type": "knight", "wounds": 3, "count": 3, "destroyed": 1, "wounds_lost": 1}], (19, 19, True)),  # EX-BP-3
        ([{"count": 28, "destroyed": 15}, {"type": "knight", "wounds": 3, "count": 3, "destroyed": 1}], (19, 18, False)),  # EX-BP-4
    ],
)
def test_li_break_1_li_break_2_li_break_3_ex_bp_seed_examples(models: list[dict[str, Any]], expected: tuple[int, int, bool]) -> None:
    """LI-BREAK-1..3 (EX-BP-1..4): Knights count their Wounds; Break Point is half rounded up; Broken at losses ≥ Break Point."""
    r = odds("break_point", {"models": models})
    assert len(r.outcomes) == 1
    outcome, prob = r.outcomes[0]
    assert prob == 1
    assert (outcome["break_point"], outcome["losses"], outcome["broken"]) == expected


@pytest.mark.parametrize(
    ("procedure", "data", "field"),
    [
        ("fire", {"firing_models": 2, "to_hit": 4, "target_models": [{"type": "vehicle", "armour_save": 4, "obscured": 50}]}, "target_models[0].obscured"),
        ("fight", {"a": {"caf": 2, "fight_number": 0}, "b": {"caf": 2}}, "a.fight_number"),
        ("fire", {"firing_models": 2, "to_hit": 4, "target_models": [{"armour_save": 4, "eligible": False}]}, "target_models"),
    ],
)
def test_li_obsc_1_li_tgt_1_ex_err_rejected_inputs(procedure: str, data: dict[str, Any], field: str) -> None:
    """LI-OBSC-1, LI-TGT-1 (EX-ERR-1..3): an obscured vehicle, a fight number of 0, a target with no eligible model."""
    with pytest.raises(InputError) as caught:
        odds(procedure, data)
    assert caught.value.field == field
