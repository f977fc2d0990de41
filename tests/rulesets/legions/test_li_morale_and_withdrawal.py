"""Morale checks, Withdrawal and Break Points against plain enumeration (LI-MORALE, LI-RESULT-3..6, LI-WD-1/4/5, LI-BREAK)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction as F
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kessen
from kessen.core.errors import InputError


def rows(procedure: str, data: dict[str, Any]) -> dict[tuple[Any, ...], F]:
    return {tuple(o.values()): q for o, q in kessen.odds("legions", procedure, data).outcomes}


# --- Morale checks ----------------------------------------------------------------------------


def plain_morale(morale: int | None, trigger: str, broken: bool, modifier: int, earlier: str, fall_back: bool) -> dict[tuple[Any, ...], F]:
    if trigger == "casualties" and fall_back:
        return {("not_taken",): F(1)}
    if morale is None:
        return {("auto_pass" if trigger == "casualties" else "not_taken",): F(1)}
    if earlier != "none":
        return {("auto_pass" if earlier == "passed" else "auto_fail",): F(1)}
    n = 2 if trigger == "combat" and broken else 1
    out: dict[tuple[Any, ...], F] = defaultdict(F)
    for dice in product(range(1, 7), repeat=n):
        result = min(dice) - (1 if broken else 0) + modifier
        out[("pass" if result >= morale else "fail",)] += F(1, 6**n)
    return dict(out)


@pytest.mark.parametrize("trigger", ["casualties", "combat"])
@pytest.mark.parametrize("broken", [False, True])
@pytest.mark.parametrize("earlier", ["none", "passed", "failed"])
@pytest.mark.parametrize("fall_back", [False, True])
def test_li_morale_3_to_8_every_case_by_enumeration(trigger: str, broken: bool, earlier: str, fall_back: bool) -> None:
    """LI-MORALE-3..8, LI-RESULT-4, LI-RESULT-6, LI-BREAK-5: every Morale, modifier and state against rolled dice."""
    for morale in (None, 2, 3, 4, 5, 6):
        for modifier in range(-3, 4):
            data = {"morale": morale, "trigger": trigger, "broken": broken, "roll_modifier": modifier, "earlier_check_this_phase": earlier, "fall_back_at_phase_start": fall_back}
            assert rows("morale_check", data) == plain_morale(morale, trigger, broken, modifier, earlier, fall_back)


def test_li_morale_3_equal_passes_lower_fails() -> None:
    """LI-MORALE-3: Morale 4+ passes on 4, 5, 6 (1/2); no natural-roll results, so +3 to 6+ always passes."""
    assert kessen.odds("legions", "morale_check", {"morale": 4}).probability(result="pass") == F(1, 2)
    assert kessen.odds("legions", "morale_check", {"morale": 6, "roll_modifier": 3}).probability(result="pass") == F(2, 3)
    assert kessen.odds("legions", "morale_check", {"morale": 2, "roll_modifier": -3}).probability(result="pass") == F(1, 3)


def test_li_morale_8_sc_morale_4_fall_back_skips_casualties_check_only() -> None:
    """LI-MORALE-8 (SC-MORALE-4): a Detachment that began the phase falling back takes no casualties check, but does a combat one."""
    assert kessen.odds("legions", "morale_check", {"morale": 4, "fall_back_at_phase_start": True}).probability(result="not_taken") == 1
    combat = kessen.odds("legions", "morale_check", {"morale": 4, "trigger": "combat", "fall_back_at_phase_start": True})
    assert combat.probability(result="pass") == F(1, 2)


def test_li_morale_7_sc_morale_3_second_check_after_failure() -> None:
    """LI-MORALE-7 (SC-MORALE-2, SC-MORALE-3): after a failed check, a later one (even for a lost combat) fails with no dice."""
    for trigger in ("casualties", "combat"):
        r = kessen.odds("legions", "morale_check", {"morale": 3, "trigger": trigger, "earlier_check_this_phase": "failed"})
        assert r.probability(result="auto_fail") == 1


def test_li_morale_6_li_result_4_morale_dash() -> None:
    """LI-MORALE-6, LI-RESULT-4: Morale "-" passes casualties checks and takes no combat check; modifiers never change it."""
    assert kessen.odds("legions", "morale_check", {"morale": None, "broken": True, "roll_modifier": -3}).probability(result="auto_pass") == 1
    assert kessen.odds("legions", "morale_check", {"morale": None, "trigger": "combat", "broken": True}).probability(result="not_taken") == 1


def test_li_result_3_li_morale_4_lost_combat_check_of_broken_formation() -> None:
    """LI-RESULT-3, LI-MORALE-4, LI-RESULT-6: a lost-combat check of a Broken Formation keeps the lower of 2D6, then −1.
    Morale 2+: pass when the lower die is ≥ 3: (4/6)^2 = 4/9. The same check for casualties uses one die: 4/6."""
    assert kessen.odds("legions", "morale_check", {"morale": 2, "trigger": "combat", "broken": True}).probability(result="pass") == F(4, 9)
    assert kessen.odds("legions", "morale_check", {"morale": 2, "broken": True}).probability(result="pass") == F(2, 3)


def test_li_break_5_broken_never_helps() -> None:
    """LI-BREAK-5: for every Morale and trigger, a Broken Formation passes no more often."""
    for morale in range(2, 7):
        for trigger in ("casualties", "combat"):
            fine = kessen.odds("legions", "morale_check", {"morale": morale, "trigger": trigger}).probability(result="pass")
            broken = kessen.odds("legions", "morale_check", {"morale": morale, "trigger": trigger, "broken": True}).probability(result="pass")
            assert broken < fine


# --- Withdrawal ---------------------------------------------------------------------------------


def plain_withdrawal(data: dict[str, Any]) -> dict[tuple[Any, ...], F]:
    saves = [s for s in (data["armour_save"], data.get("special_save"), data.get("cover_save")) if s is not None]
    need = min(saves) if saves else 6
    left = data.get("wounds_remaining", 1)
    n = len(data["passed_through_scales"])
    out: dict[tuple[Any, ...], F] = defaultdict(F)
    for dice in product(range(1, 7), repeat=n):
        lost = 0
        for die, through in zip(dice, data["passed_through_scales"]):
            if lost == left or data["scale"] >= through + 3:
                continue
            if die < need:
                lost += 1
        out[(lost, lost == left)] += F(1, 6**n)
    return dict(out)


@settings(max_examples=80, deadline=None)
@given(
    scale=st.integers(1, 5),
    left=st.integers(1, 3),
    armour=st.one_of(st.none(), st.integers(2, 6)),
    special=st.one_of(st.none(), st.integers(2, 6)),
    cover=st.one_of(st.none(), st.integers(2, 6)),
    through=st.lists(st.integers(1, 5), max_size=5),
)
def test_li_wd_4_li_wd_5_withdrawal_saves_match_rolled_dice(
    scale: int, left: int, armour: int | None, special: int | None, cover: int | None, through: list[int]
) -> None:
    """LI-WD-4, LI-WD-5: one roll per Detachment moved through, best save, auto-pass 3 Scales up, "-" passes only on a 6."""
    data = {"scale": scale, "wounds_remaining": left, "armour_save": armour, "special_save": special, "cover_save": cover, "passed_through_scales": through}
    assert rows("withdrawal_save", data) == plain_withdrawal(data)


def test_li_wd_5_sc_wd_5_scale_four_through_one_and_two() -> None:
    """LI-WD-5 (SC-WD-5): a Scale 4 model through a Scale 1 Detachment rolls nothing; through Scale 2 it rolls (4+: 1/2 fail)."""
    assert kessen.odds("legions", "withdrawal_save", {"scale": 4, "armour_save": 4, "passed_through_scales": [1]}).probability(wounds_lost=0) == 1
    assert kessen.odds("legions", "withdrawal_save", {"scale": 4, "armour_save": 4, "passed_through_scales": [2]}).probability(wounds_lost=1) == F(1, 2)


def test_li_wd_4_destroyed_model_stops_rolling() -> None:
    """LI-WD-4: a 1-Wound model with no save through 3 Detachments loses at most 1 Wound: destroyed with 1 − (1/6)^3."""
    r = kessen.odds("legions", "withdrawal_save", {"scale": 1, "armour_save": None, "passed_through_scales": [1, 1, 1]})
    assert r.probability(wounds_lost=1, destroyed=True) == F(215, 216)
    assert r.probability(wounds_lost=0, destroyed=False) == F(1, 216)


@pytest.mark.parametrize("movement", [0, 5, 30])
def test_li_wd_1_withdrawal_distance(movement: int) -> None:
    """LI-WD-1: D6 + Movement inches, each equally likely."""
    r = kessen.odds("legions", "withdrawal_move", {"movement": movement})
    assert {o["distance"]: q for o, q in r.outcomes} == {movement + k: F(1, 6) for k in range(1, 7)}


# --- Break Points -------------------------------------------------------------------------------


def test_li_break_1_knights_and_titans_count_their_wounds() -> None:
    """LI-BREAK-1, LI-BREAK-2: 10 infantry + 1 Titan of 12 Wounds + 2 Knights of 3 Wounds: 10 + 12 + 6 = 28 → 14."""
    r = kessen.odds("legions", "break_point", {"models": [{"count": 10}, {"type": "titan", "wounds": 12}, {"type": "knight", "wounds": 3, "count": 2}]})
    assert r.outcomes[0][0]["break_point"] == 14


def test_li_break_1_other_multi_wound_models_count_once() -> None:
    """LI-BREAK-1, LI-BREAK-3: vehicles with 3 Wounds count 1 each: 5 of them → size 5, Break Point 3; 3 destroyed: Broken."""
    r = kessen.odds("legions", "break_point", {"models": [{"type": "vehicle", "wounds": 3, "count": 5, "destroyed": 3}]})
    assert r.outcomes[0][0] == {"break_point": 3, "losses": 3, "broken": True}


def test_li_break_6_once_broken_always_broken() -> None:
    """LI-BREAK-6, SC-BREAK-3: a Formation already Broken stays Broken with its losses back under the Break Point."""
    r = kessen.odds("legions", "break_point", {"models": [{"type": "titan", "wounds": 10}], "already_broken": True})
    assert r.outcomes[0][0] == {"break_point": 5, "losses": 0, "broken": True}


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"count": 3, "destroyed": 4}, "models[0].destroyed"),
        ({"count": 3, "wounds_lost": 1}, "models[0].wounds_lost"),
        ({"type": "knight", "wounds": 3, "count": 2, "destroyed": 1, "wounds_lost": 3}, "models[0].wounds_lost"),
        ({"count": 501}, "models[0].count"),
    ],
)
def test_li_break_3_bad_formation_entries_rejected(entry: dict[str, Any], field: str) -> None:
    """LI-BREAK-3, §5.9: destroyed ≤ count; Wounds lost only by surviving Knights and Titans, at most (wounds − 1) each."""
    with pytest.raises(InputError) as caught:
        kessen.odds("legions", "break_point", {"models": [entry]})
    assert caught.value.field == field
