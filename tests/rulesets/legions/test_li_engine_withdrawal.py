"""Withdrawal geometry on real positions through the engine: SC-WD-1..5 (LI-WD-1..8)."""

from __future__ import annotations

from typing import Any

import pytest
from test_li_engine_support import det, drive, m, node, of, outcome_where, raw_state_of, stage_started, state_of

from kessen.core.engine import Decision
from kessen.core.geometry import Point
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.battlefield import moved_through, nearest_free_point, withdrawal_path


def _withdraw(red: list[dict[str, Any]], blue: list[dict[str, Any]], *, die: int = 3, save_wounds: int = 0) -> tuple[list[Any], list[Any]]:
    """Red's model loses its fight, fails its check and withdraws with *die*; returns (events, withdrawal-save inputs seen)."""
    saves: list[Any] = []

    def roll(state: Any, n: Any) -> Any:
        if n.kind == "fight":
            return outcome_where(n, winner="b")
        if n.kind == "morale check":
            return outcome_where(n, result="fail")
        if n.kind == "withdrawal roll":
            return outcome_where(n, distance=die)
        if n.kind == "withdrawal saves":
            saves.append(n)
            return outcome_where(n, wounds_lost=save_wounds)
        return None

    _, events = drive(state_of(red, blue), until=stage_started("advancing_fire"), roll=roll)
    return events, saves


def _end(events: list[Any], model: str = "R") -> tuple[float, float]:
    move = next(e for e in of(events, ev.WithdrawalMove) if e.model == model)
    return (move.x, move.y)


def test_li_wd_1_li_wd_2_li_wd_7_sc_wd_1_stops_at_the_battlefield_edge() -> None:
    """SC-WD-1, LI-WD-1, LI-WD-2, LI-WD-7: at (10, 4), radius 0.5, Movement 5, die 3 (8 inches): straight to
    (10, 0.5), where its base touches the south edge, and no further."""
    events, _ = _withdraw([det("A", m("tough", 10, 4, id="R"))], [det("B", m("inf", 10, 5))])
    assert of(events, ev.Withdrawal)[0].roll == 3
    assert _end(events) == (10.0, 0.5)


def test_li_wd_4_sc_wd_2_one_save_per_enemy_detachment_moved_through() -> None:
    """SC-WD-2, LI-WD-2, LI-WD-4: from (10, 20), die 3, it ends at (10, 12); Q's model at (10.8, 15) overlaps the swept
    band (|10.8 − 10| < 1): one save roll for Q; a second Q model in the band is still one roll."""
    red = [det("A", m("tough", 10, 20, id="R"))]
    events, saves = _withdraw(red, [det("B", m("inf", 10, 21)), det("Q", m("inf", 10.8, 15, id="q1"))])
    assert _end(events) == (10.0, 12.0) and len(saves) == 1
    events, saves = _withdraw(red, [det("B", m("inf", 10, 21)), det("Q", m("inf", 10.8, 15, id="q1"), m("inf", 9.3, 17, id="q2"))])
    assert len(saves) == 1 and of(events, ev.WithdrawalMove)[0].through == "Q"


def test_li_wd_4_li_wd_5_saves_are_the_withdrawal_save_procedure() -> None:
    """LI-WD-4, LI-WD-5: the rolls are the ``withdrawal_save`` procedure for the model (1 of its 2 Wounds left after the
    lost fight, 5+) through Q (Scale 1)."""
    from kessen.rulesets.legions.procedures import WithdrawalSaveInput
    from kessen.rulesets.legions.rules.withdrawal import withdrawal_save

    _, saves = _withdraw([det("A", m("tough", 10, 20, id="R"))], [det("B", m("inf", 10, 21)), det("Q", m("inf", 10.8, 15))])
    assert saves[0].dist == withdrawal_save(WithdrawalSaveInput(scale=1, wounds_remaining=1, armour_save=5, passed_through_scales=(1,)).question())


def test_li_wd_6_sc_wd_3_ending_on_an_enemy_destroys_ending_on_a_friend_shifts() -> None:
    """SC-WD-3, LI-WD-6: ending exactly where an enemy model stands destroys the model; ending on a friendly model
    of radius 0.5 at (10.6, 12) places it at (9.6, 12), the nearest point where the bases only touch."""
    events, _ = _withdraw([det("A", m("tough", 10, 20, id="R"))], [det("B", m("inf", 10, 21)), det("E", m("inf", 10, 12))])
    assert any(isinstance(e, ev.Destroyed) and e.model == "R" and e.how == "ended_on_enemy" for e in events)
    events, _ = _withdraw([det("A", m("tough", 10, 20, id="R")), det("F", m("inf", 10.6, 12))], [det("B", m("inf", 10, 21))])
    assert _end(events) == pytest.approx((9.6, 12.0), abs=1e-3)


@pytest.mark.parametrize(("x", "survives"), [(11.5, False), (12.2, True), (12.0, True)])
def test_li_wd_8_sc_wd_4_engagement_zone(x: float, survives: bool) -> None:
    """SC-WD-4, LI-WD-8: ending 0.5 inches from a model of the Detachment it was Engaged with (inside the 1-inch
    Engagement Zone) destroys it; at 1.2 inches, or exactly 1 inch, it survives."""
    events, _ = _withdraw([det("A", m("tough", 10, 20, id="R"))], [det("B", m("inf", 10, 21), m("inf", x, 12))])
    destroyed = any(isinstance(e, ev.Destroyed) and e.model == "R" and e.how == "engagement_zone" for e in events)
    assert destroyed is not survives


def test_li_wd_5_sc_wd_5_scale_4_through_scale_1_no_roll_through_scale_2_a_roll() -> None:
    """SC-WD-5, LI-WD-5: a Knight (Scale 4) through a Scale 1 Detachment passes without a roll; through a Scale 2 one it rolls."""
    knight = [det("K", m("knight", 10, 20, id="R"))]
    events, saves = _withdraw(knight, [det("B", m("inf", 10, 21.5)), det("Q", m("inf", 10, 15))])
    assert saves == [] and of(events, ev.WithdrawalMove)[0].through == "Q"
    _, saves = _withdraw(knight, [det("B", m("inf", 10, 21.5)), det("T", m("tank", 10, 15))])
    assert len(saves) == 1


def test_li_wd_3_a_pinned_detachment_still_withdraws() -> None:
    """LI-WD-3: withdrawing models move even if their Detachment is Engaged & Pinned, through models and Engagement Zones."""
    events, _ = _withdraw([det("A", m("tough", 10, 20, id="R"), engaged=True, pinned=True)], [det("B", m("inf", 10, 21))])
    assert _end(events) == (10.0, 12.0)


def test_li_wd_6_models_move_one_at_a_time_nearest_the_edge_first() -> None:
    """LI-WD-6: the controlling player picks the order the models move in; the default lists the model nearest its
    battlefield edge first."""
    state = state_of([det("A", m("tough", 10, 20, id="R1"), m("tough", 11, 19.0, id="R2"))], [det("B", m("inf", 10, 21), m("inf", 11, 20.0))])

    forced = {"fight": {"winner": "b"}, "morale check": {"result": "fail"}, "withdrawal roll": {"distance": 3}}

    def roll(s: Any, n: Any) -> Any:
        return outcome_where(n, **forced[n.kind]) if n.kind in forced else None

    state, _ = drive(state, roll=roll, until=lambda s, n, e: isinstance(n, Decision) and n.kind == "withdrawer")
    n = node(state)
    assert isinstance(n, Decision) and n.player == "red" and n.options == ("R2", "R1")


def test_li_wd_2_li_wd_4_geometry_helpers() -> None:
    """LI-WD-2, LI-WD-4: the path is perpendicular to the owner's edge and stops at it; Detachments met along it in order."""
    state = raw_state_of([det("A", m("tough", 10, 20, id="R"))], [det("Q", m("inf", 10.8, 15)), det("P", m("inf", 9.5, 18)), det("Z", m("inf", 12.0, 16))])
    start, end = withdrawal_path(state, state.model("R"), "south", 8)
    assert (start, end) == (Point(10.0, 20.0), Point(10.0, 12.0))
    assert [d.id for d in moved_through(state, state.model("R"), "red", start, end)] == ["P", "Q"]
    assert withdrawal_path(state, state.model("R"), "south", 30)[1] == Point(10.0, 0.5)
    free = nearest_free_point(state, state.model("R"), Point(10.8, 15.0))  # on Q's model: pushed out to touching
    assert abs((free - Point(10.8, 15.0)).length() - 1.0) < 1e-3


def test_li_wd_8_engagement_zone_of_every_detachment_it_was_engaged_with() -> None:
    """LI-WD-8: a withdrawing model that cannot leave the Engagement Zone of the models of the Detachment(s) it was
    Engaged with is destroyed, even when the models that touched it died in the fights. X1 destroys E1, the only
    model touching it; E2 destroys X2 and X3, so X loses the combat 1–2, fails its check and withdraws 6 inches to
    (10, 14): 0.5 inches from E3, a model of E (the Detachment X was Engaged with) that never touched it."""
    red = [det("X", m("inf", 10, 20, id="X1"), m("inf", 20, 20, id="X2"), m("inf", 21, 21, id="X3"))]
    blue = [det("E", m("inf", 10, 21, id="E1"), m("inf", 20, 21, id="E2"), m("inf", 11.5, 14, id="E3"))]

    def roll(state: Any, n: Any) -> Any:
        if n.kind == "fight":
            return outcome_where(n, winner="a" if state.pending[0].a == "X1" else "b")
        forced = {"morale check": {"result": "fail"}, "withdrawal roll": {"distance": 1}}
        return outcome_where(n, **forced[n.kind]) if n.kind in forced else None

    _, events = drive(state_of(red, blue), until=stage_started("advancing_fire"), roll=roll)
    assert [e.model for e in of(events, ev.Destroyed) if e.how == "fight"] == ["E1", "X2", "X3"]
    assert _end(events, "X1") == (10.0, 14.0)
    assert any(isinstance(e, ev.Destroyed) and e.model == "X1" and e.how == "engagement_zone" for e in events)


def test_li_wd_4_one_save_for_each_of_eleven_detachments_moved_through() -> None:
    """LI-WD-4 (no silent cap): a 12-Wound model with a 6+ save withdrawing 14 inches through eleven enemy Detachments
    rolls once for each of the eleven; the engine used to keep only the first ten."""
    from kessen.rulesets.legions.rules.withdrawal import WithdrawalSaveQuestion, withdrawal_save

    brute = {"brute": {"type": "infantry", "movement": 8, "armour_save": 6, "wounds": 12, "caf": 0, "morale": 4, "base_radius": 0.5, "weapons": []}}
    red = [det("A", m("brute", 10, 30, id="R"))]
    blue = [det("B", m("inf", 10, 31))] + [det(f"Q{k}", m("inf", 10.8, 28.8 - 1.1 * k)) for k in range(11)]

    def roll(state: Any, n: Any) -> Any:
        forced = {"fight": {"winner": "b"}, "morale check": {"result": "fail"}, "withdrawal roll": {"distance": 6}}
        return outcome_where(n, **forced[n.kind]) if n.kind in forced else None

    state, _ = drive(state_of(red, blue, profiles=brute), roll=roll, until=lambda s, n, e: getattr(n, "kind", "") == "withdrawal saves")
    n = node(state)
    assert n.dist == withdrawal_save(WithdrawalSaveQuestion(scale=1, wounds_remaining=11, save=6, passed_through_scales=(1,) * 11))  # type: ignore[union-attr]
    assert max(o.wounds_lost for o in n.dist.outcomes()) == 11  # type: ignore[union-attr]
