"""Saves, AP, rear arc, Void Shields and allocation (LI-SAVE, LI-ARC, LI-VOID, LI-ALLOC, LI-FAST-2/3, LI-MORALE-1)."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.dice import binomial
from kessen.rulesets.legions.rules.allocation import allocation_order, morale_threshold_reached
from kessen.rulesets.legions.rules.saves import TargetProfile
from kessen.rulesets.legions.rules.saves import Attack, save_ap, save_faces, save_passes, save_target, shield_ap


def resolve(data: dict[str, Any]) -> kessen.OddsResult:
    return kessen.odds("legions", "resolve_hits", data)


def at_least(result: kessen.OddsResult, field: str, k: int) -> F:
    return sum((q for o, q in result.outcomes if o[field] >= k), F(0))


def marine(armour: int | None = 5, **kw: Any) -> TargetProfile:
    return TargetProfile("infantry", 1, 1, armour, **kw)


def test_li_save_2_ap_worsens_armour() -> None:
    """LI-SAVE-2: 3+ against AP −2 becomes 5+; an Armour Save modifier of +1 then makes it 4+."""
    knight = TargetProfile("knight", 3, 3, 3)
    assert save_target(knight, Attack(ap=-2)) == 5
    assert save_target(knight, Attack(ap=-2, armour_save_modifier=1)) == 4


def test_li_save_3_die_equal_or_higher_passes() -> None:
    """LI-SAVE-3: a 4+ save passes on 4, 5, 6 and fails on 1–3."""
    assert [save_passes(f, 4) for f in range(1, 7)] == [False, False, False, True, True, True]
    assert save_faces(4) == 3


def test_li_save_4_no_natural_results_one_plus_and_seven_plus() -> None:
    """LI-SAVE-4: a save modified to 1+ passes every die (even a 1); one at 7+ fails every die (even a 6)."""
    assert save_target(TargetProfile("vehicle", 1, 1, 2), Attack(armour_save_modifier=1)) == 1
    assert save_faces(1) == 6 and save_faces(0) == 6
    assert save_faces(7) == 0 and save_faces(9) == 0
    never = resolve({"hits": 4, "armour_save_modifier": 1, "target_models": [{"type": "vehicle", "armour_save": 2, "count": 4}]})
    assert never.probability(wounds=0) == 1
    always = resolve({"hits": 4, "ap": -1, "target_models": [{"armour_save": 6, "count": 4}]})
    assert always.probability(destroyed=4) == 1


def test_li_save_5_dash_armour_cannot_be_improved() -> None:
    """LI-SAVE-5: "-" armour stays "-" even with +3 to the Armour Save: every hit on such models kills."""
    assert save_target(marine(None), Attack(armour_save_modifier=3)) is None
    assert resolve({"hits": 2, "armour_save_modifier": 3, "target_models": [{"armour_save": None, "count": 2}]}).probability(destroyed=2) == 1


def test_li_save_6_special_save_ignores_ap_and_armour_modifiers() -> None:
    """LI-SAVE-6: a 4+ Special Save stays 4+ at AP −6 with −3 to the Armour Save."""
    assert save_target(TargetProfile("knight", 1, 1, 2, special_save=4), Attack(ap=-6, armour_save_modifier=-3)) == 4


def test_li_save_7_cover_save_ignores_ap() -> None:
    """LI-SAVE-7: a 5+ Cover Save stays 5+ at AP −4, while 3+ armour becomes 7+."""
    assert save_target(marine(3, cover_save=5), Attack(ap=-4)) == 5


def test_li_save_1_controller_takes_the_best_save() -> None:
    """LI-SAVE-1: of 4+ armour, 5+ special and 6+ cover at AP 0, the 4+ is used; at AP −2 (6+) the 5+ special."""
    model = marine(4, special_save=5, cover_save=6)
    assert save_target(model, Attack()) == 4
    assert save_target(model, Attack(ap=-2)) == 5


def test_li_save_9_no_save_at_all_fails_without_rolling() -> None:
    """LI-SAVE-9: no Armour, Special or Cover Save: the save fails every time."""
    assert save_target(marine(None), Attack()) is None
    assert save_faces(None) == 0


def test_li_save_10_light_at_only_against_armoured_types() -> None:
    """LI-SAVE-10: Light AT turns AP −3 into 0 against a vehicle but not against infantry."""
    assert save_ap(Attack(ap=-3, light_at=True), "vehicle", rear_arc=False) == 0
    assert save_ap(Attack(ap=-3, light_at=True), "infantry", rear_arc=False) == -3
    assert save_target(TargetProfile("vehicle", 1, 1, 3), Attack(ap=-3, light_at=True)) == 3


def test_li_arc_1_rear_arc_improves_ap_for_armoured_types_only() -> None:
    """LI-ARC-1: from the rear AP −1 becomes −2 against a vehicle (4+ → 6+); infantry has no rear arc (4+ → 5+)."""
    assert save_target(TargetProfile("vehicle", 1, 1, 4, rear_arc=True), Attack(ap=-1)) == 6
    assert save_target(marine(4, rear_arc=True), Attack(ap=-1)) == 5
    assert save_ap(Attack(ap=0), "titan", rear_arc=True) == -1


def test_li_arc_3_li_void_2_shields_ignore_the_rear_arc() -> None:
    """LI-ARC-3, LI-VOID-2: against Void Shields the AP is taken before the rear arc, so AP 0 stays 0; Light AT is applied."""
    assert shield_ap(Attack(ap=0), "titan") == 0 and save_ap(Attack(ap=0), "titan", rear_arc=True) == -1
    assert shield_ap(Attack(ap=-2, light_at=True), "titan") == 0
    assert shield_ap(Attack(ap=-2), "titan") == -2


def test_li_void_1_li_void_2_each_ap_hit_drops_one_level() -> None:
    """LI-VOID-1, LI-VOID-2: with 3 shields, 2 AP −1 hits remove 2 levels and roll no save (no Wounds at all)."""
    r = resolve({"hits": 2, "ap": -1, "target_models": [{"type": "titan", "wounds": 6, "armour_save": 6, "void_shields": 3}]})
    assert r.probability(shields_lost=2, wounds=0) == 1


def test_li_void_3_collapsed_shields_then_saves_with_rear_arc() -> None:
    """LI-VOID-3: one shield, 3 AP −1 rear hits: the first collapses it, the other two save on 3+ −2 = 5+ (fail 2/3 each)."""
    r = resolve({"hits": 3, "ap": -1, "rear_arc": True, "target_models": [{"type": "titan", "wounds": 6, "armour_save": 3, "void_shields": 1}]})
    assert [r.probability(wounds=k, shields_lost=1) for k in range(3)] == [F(1, 9), F(4, 9), F(4, 9)]


def test_li_wound_1_multiple_wounds_tracked_per_model() -> None:
    """LI-WOUND-1: a 3-Wound Knight with no save survives 2 hits and is destroyed by the 3rd; the 4th goes to the next Knight."""
    r = resolve({"hits": 4, "target_models": [{"type": "knight", "wounds": 3, "armour_save": None, "count": 2}]})
    assert r.probability(wounds=4, destroyed=1) == 1


def test_li_alloc_1_li_alloc_3_wounded_models_first_in_list_order() -> None:
    """LI-ALLOC-1, LI-ALLOC-3: the order is eligible wounded models (list order), then eligible unwounded; ineligible left out."""
    a, b, c, d = (TargetProfile("vehicle", 2, left, 4) for left in (2, 1, 2, 1))
    assert allocation_order([a, b, c, d], [True, True, True, False]) == (b, a, c)


def test_li_alloc_2_li_fast_3_ineligible_models_never_lose_wounds() -> None:
    """LI-ALLOC-2, LI-FAST-3: 10 hits with no save at 2 eligible and 3 ineligible models destroy exactly the 2 eligible ones."""
    r = resolve({"hits": 10, "target_models": [{"armour_save": None, "count": 3, "eligible": False}, {"armour_save": None, "count": 2}]})
    assert r.probability(destroyed=2, wounds=2) == 1


def test_li_alloc_4_hits_left_over_are_discarded() -> None:
    """LI-ALLOC-4: 60 hits on two 2-Wound models with no save: 4 Wounds, 2 destroyed, the other 56 hits discarded."""
    r = resolve({"hits": 60, "target_models": [{"type": "vehicle", "wounds": 2, "armour_save": None, "count": 2}]})
    assert r.probability(wounds=4, destroyed=2) == 1


def test_li_alloc_2_sc_tgt_5_wounded_but_ineligible_model_is_skipped() -> None:
    """LI-ALLOC-2, LI-ALLOC-3 (SC-TGT-5): X wounded but out of sight, Y unwounded in sight: hits go to Y."""
    r = resolve({"hits": 2, "target_models": [{"type": "vehicle", "wounds": 2, "wounds_remaining": 1, "armour_save": None, "eligible": False}, {"type": "vehicle", "wounds": 2, "armour_save": None}]})
    assert r.probability(wounds=2, destroyed=1) == 1


@settings(max_examples=60, deadline=None)
@given(hits=st.integers(0, 30), count=st.integers(1, 30), save=st.integers(2, 6))
def test_li_fast_2_identical_models_roll_saves_together(hits: int, count: int, save: int) -> None:
    """LI-FAST-2: identical one-Wound models: losses are min(count, Binomial(hits, P(fail))) as if all saves were rolled at once."""
    r = resolve({"hits": hits, "target_models": [{"armour_save": save, "count": count}]})
    grouped = binomial(hits, F(save - 1, 6)).map(lambda failed: min(failed, count))
    for k in range(count + 1):
        assert r.probability(destroyed=k) == grouped.probability(k)


def test_li_morale_1_threshold_counts_wounds_against_models_at_start() -> None:
    """LI-MORALE-1 (SC-MORALE-1): 8 models: 4 Wounds trigger, 3 do not; 2 Knights: 1 Wound triggers."""
    assert morale_threshold_reached(4, 8) and not morale_threshold_reached(3, 8)
    assert morale_threshold_reached(1, 2)
    knights = resolve({"hits": 1, "target_models": [{"type": "knight", "wounds": 3, "armour_save": None, "count": 2}]})
    assert knights.probability(morale_threshold_reached=True, destroyed=0) == 1


def test_li_morale_1_every_model_counts_even_ineligible_ones() -> None:
    """LI-MORALE-1, §5.1: |T| counts the whole Detachment: 1 eligible + 3 ineligible models, 1 kill: 1 < 2, no check."""
    r = resolve({"hits": 5, "target_models": [{"armour_save": None}, {"armour_save": None, "count": 3, "eligible": False}]})
    assert r.probability(destroyed=1, morale_threshold_reached=False) == 1


@st.composite
def detachment(draw: st.DrawFn) -> list[dict[str, Any]]:
    entries = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["infantry", "vehicle", "knight", "titan"]))
        wounds = draw(st.integers(1, 4))
        entries.append(
            {
                "type": kind,
                "wounds": wounds,
                "wounds_remaining": draw(st.integers(1, wounds)),
                "armour_save": draw(st.one_of(st.none(), st.integers(2, 6))),
                "special_save": draw(st.one_of(st.none(), st.integers(2, 6))),
                "void_shields": draw(st.integers(0, 2)),
                "count": draw(st.integers(1, 3)),
            }
        )
    return entries


@settings(max_examples=50, deadline=None)
@given(targets=detachment(), ap=st.integers(-5, 0), hits=st.integers(0, 12), rear=st.booleans())
def test_li_save_2_more_ap_never_fewer_wounds(targets: list[dict[str, Any]], ap: int, hits: int, rear: bool) -> None:
    """LI-SAVE-2, LI-VOID-2: one more point of AP never lowers P(wounds ≥ k), P(destroyed ≥ k) or P(shields_lost ≥ k)."""
    weaker = resolve({"hits": hits, "ap": ap, "rear_arc": rear, "target_models": targets})
    stronger = resolve({"hits": hits, "ap": ap - 1, "rear_arc": rear, "target_models": targets})
    for field in ("wounds", "destroyed", "shields_lost"):
        for k in range(1, 40):
            assert at_least(weaker, field, k) <= at_least(stronger, field, k)


@settings(max_examples=50, deadline=None)
@given(targets=detachment(), ap=st.integers(-3, 0), hits=st.integers(0, 12))
def test_li_alloc_1_one_more_hit_never_fewer_wounds(targets: list[dict[str, Any]], ap: int, hits: int) -> None:
    """LI-ALLOC-1: each extra hit can only add Wounds: P(wounds ≥ k) never drops with one more hit."""
    fewer = resolve({"hits": hits, "ap": ap, "target_models": targets})
    more = resolve({"hits": hits + 1, "ap": ap, "target_models": targets})
    for k in range(1, 40):
        assert at_least(fewer, "wounds", k) <= at_least(more, "wounds", k)
