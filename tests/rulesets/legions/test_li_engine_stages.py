"""Stages and activation through the engine: SC-ACT-1..8 (LI-STAGE, LI-ACT, LI-WD-9)."""

from __future__ import annotations

from test_li_engine_support import BLUE, RED, det, drive, m, node, of, outcome_where, phase_over, raw_state_of, stage_started, state_of

from kessen.core.engine import Decision
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.targeting import HoldFire, fire_options


def _far(id: str, x: float, y: float, **status: object) -> dict[str, object]:
    """A one-model infantry Detachment whose 1-inch bolters reach nothing."""
    return det(id, m("inf", x, y), **status)


def _activations(events: list[object], stage: str) -> list[tuple[str, str]]:
    return [(e.side, e.detachment) for e in of(events, ev.Activated) if e.stage == stage]  # type: ignore[attr-defined]


def test_li_act_1_sc_act_1_first_fire_alternates_from_the_initiative_player() -> None:
    """SC-ACT-1, LI-ACT-1: red (Initiative) A1, A2, A3 and blue B1 in First Fire: red, blue, red, red."""
    state = state_of(
        [_far("A1", 10, 5, order="first_fire"), _far("A2", 20, 5, order="first_fire"), _far("A3", 30, 5, order="first_fire")],
        [_far("B1", 10, 40, order="first_fire")],
        initiative=RED,
    )
    _, events = drive(state, until=stage_started("engagement"))
    assert [side for side, _ in _activations(events, "first_fire")] == [RED, BLUE, RED, RED]


def test_li_act_1_sc_act_2_advancing_fire_alternates_from_the_initiative_player() -> None:
    """SC-ACT-2, LI-ACT-1: blue has Initiative; red A1, A2 and blue B1 advance: blue, red, red."""
    state = state_of(
        [_far("A1", 10, 5, order="advance"), _far("A2", 20, 5, order="advance")],
        [_far("B1", 10, 40, order="advance")],
        initiative=BLUE,
    )
    _, events = drive(state, until=phase_over)
    assert [side for side, _ in _activations(events, "advancing_fire")] == [BLUE, RED, RED]


def test_li_act_2_li_act_4_sc_act_3_pinned_first_fire_never_activates_and_loses_its_order() -> None:
    """SC-ACT-3, LI-ACT-2, LI-ACT-4: A1 Engaged & Pinned at the start of First Fire is never activated, A2 is;
    at the end of the stage A1 no longer holds an Order."""
    state = state_of(
        [_far("A1", 10, 5, order="first_fire", engaged=True, pinned=True), _far("A2", 20, 5, order="first_fire")],
        [_far("B1", 10, 40)],
    )
    state, events = drive(state, until=stage_started("engagement"))
    assert [d for _, d in _activations(events, "first_fire")] == ["A2"]
    assert state.detachment("A1").order is None
    assert any(isinstance(e, ev.OrderRemoved) and e.detachment == "A1" and e.why == "pinned" for e in events)


def test_li_act_3_sc_act_4_first_fire_order_lost_before_the_stage_is_not_activated() -> None:
    """SC-ACT-4, LI-ACT-3: issued a First Fire order but lost it (an Overwatch): no Order now, never activated."""
    state = state_of([_far("A1", 10, 5), _far("A2", 20, 5, order="first_fire")], [_far("B1", 10, 40)])
    _, events = drive(state, until=phase_over)
    assert [d for _, d in _activations(events, "first_fire")] == ["A2"]
    assert "A1" not in [d for _, d in _activations(events, "advancing_fire")]


def test_li_act_5_sc_act_5_no_enemy_in_sight_fires_at_nothing_and_loses_its_order() -> None:
    """SC-ACT-5, LI-ACT-5: a First Fire Detachment with no enemy in line of sight is activated, fires at nothing,
    its Order is removed, and it is not activated again in the Advancing Fire stage."""
    setup = dict(red=[det("A1", m("gun", 10, 5), order="first_fire")], blue=[det("B1", m("inf", 10, 20, id="b"))],
                 no_line_of_sight=[["A1-1", "b"]])
    raw = raw_state_of(**setup)  # type: ignore[arg-type]
    assert fire_options(raw, raw.detachment("A1")) == (HoldFire(),)
    state = state_of(**setup)  # type: ignore[arg-type]
    state, events = drive(state, until=phase_over)
    assert _activations(events, "first_fire") == [(RED, "A1")]
    assert of(events, ev.HeldFire)[0].reason == "no_target"
    assert any(isinstance(e, ev.OrderRemoved) and e.detachment == "A1" and e.why == "activated" for e in events)
    assert _activations(events, "advancing_fire") == []


def test_li_act_6_li_act_8_sc_act_6_who_activates_in_advancing_fire() -> None:
    """SC-ACT-6, LI-ACT-6, LI-ACT-8: red A1 (free), A2 (Engaged & Pinned), A3 (in Reserve), blue B1 (Engaged, not
    pinned), red Initiative: only A1 and B1 activate, in that order; A2's Advance order is discarded at the end
    of the stage; A3 keeps its Order."""
    state = state_of(
        [
            _far("A1", 10, 5, order="advance"),
            _far("A2", 20, 20, order="advance", engaged=True, pinned=True),  # its one model touches B2's
            _far("A3", 30, 5, order="advance", in_reserve=True),
            _far("A4", 50, 30),  # touches one of B1's two models
        ],
        [det("B1", m("inf", 50, 31), m("inf", 55, 40), order="advance", engaged=True), _far("B2", 20, 21, engaged=True)],
    )
    state, events = drive(state, until=phase_over, roll=_draws)
    assert _activations(events, "advancing_fire") == [(RED, "A1"), (BLUE, "B1")]
    assert any(isinstance(e, ev.OrderRemoved) and e.detachment == "A2" and e.why == "pinned" for e in events)
    assert state.detachment("A2").order is None and state.detachment("A3").order == "advance"


def _draws(state: object, n: object) -> object:
    """Every fight a draw, so nobody leaves base contact."""
    return outcome_where(n, winner="draw") if n.kind == "fight" else None  # type: ignore[attr-defined]


def test_li_act_7_no_first_fire_order_reaches_the_advancing_fire_stage() -> None:
    """LI-ACT-7: First Fire orders end with the First Fire stage (used, or discarded when pinned), so only Advance
    orders activate in the Advancing Fire stage."""
    state = state_of(
        [_far("A1", 10, 5, order="first_fire", engaged=True, pinned=True), _far("A2", 20, 5, order="first_fire"),
         _far("A3", 30, 5, order="advance")],
        [_far("B1", 10, 40)],
    )
    _, events = drive(state, until=phase_over)
    kinds = [(type(e).__name__, getattr(e, "stage", ""), getattr(e, "order", "")) for e in events]
    advancing = kinds.index(("StageStarted", "advancing_fire", ""))
    removed = [i for i, k in enumerate(kinds) if k[0] == "OrderRemoved" and k[2] == "first_fire"]
    assert len(removed) == 2 and all(i < advancing for i in removed)  # A2 used its order, A1's was discarded
    assert [d for _, d in _activations(events, "advancing_fire")] == ["A3"]


def test_li_act_9_the_controlling_player_declares_the_target() -> None:
    """LI-ACT-9: the "player with Initiative" of a firing Detachment is its controller: blue chooses blue's targets
    even when red holds the Initiative."""
    state = state_of([det("A1", m("gun", 10, 5))], [det("B1", m("gun", 10, 20), order="first_fire")], initiative=RED)
    n = node(state)
    assert isinstance(n, Decision) and n.kind == "target" and n.player == BLUE


def test_li_stage_1_three_stages_in_order_each_finished_before_the_next() -> None:
    """LI-STAGE-1: First Fire, Engagement, Advancing Fire, in this order; every First Fire activation comes before
    the Engagement stage starts, and every combat before the Advancing Fire stage."""
    state = state_of(
        [_far("A1", 10, 5, order="first_fire"), _far("A2", 20, 5, order="advance"),
         det("A3", m("inf", 40, 24.0), order="charge", engaged=True)],
        [_far("B1", 10, 40, order="first_fire"), det("B2", m("inf", 40, 25.0), engaged=True)],
    )
    _, events = drive(state, until=phase_over)
    kinds = [(type(e).__name__, getattr(e, "stage", "")) for e in events]
    stages = [s for k, s in kinds if k == "StageStarted"]
    assert stages == ["first_fire", "engagement", "advancing_fire"]
    start_eng = kinds.index(("StageStarted", "engagement"))
    start_adv = kinds.index(("StageStarted", "advancing_fire"))
    assert all(i < start_eng for i, (k, s) in enumerate(kinds) if k == "Activated" and s == "first_fire")
    assert all(start_eng < i < start_adv for i, (k, _) in enumerate(kinds) if k == "FightRolled")
    assert any(k == "FightRolled" for k, _ in kinds)


def test_li_stage_2_sc_act_8_march_and_fall_back_never_activate() -> None:
    """SC-ACT-8, LI-STAGE-2: March and Fall Back Detachments are activated in neither firing stage."""
    state = state_of(
        [det("A1", m("gun", 10, 5), order="march"), det("A2", m("gun", 20, 5), order="fall_back")],
        [det("B1", m("gun", 10, 30), order="march")],
    )
    _, events = drive(state, until=phase_over)
    assert of(events, ev.Activated) == []


def test_li_wd_9_sc_act_7_a_detachment_that_withdrew_cannot_fire() -> None:
    """SC-ACT-7, LI-WD-9: an Advance Detachment that withdrew this round is activated but none of its models fire."""
    setup = dict(red=[det("A1", m("gun", 10, 5), order="advance", withdrew_this_round=True)], blue=[det("B1", m("gun", 10, 20))])
    raw = raw_state_of(**setup)  # type: ignore[arg-type]
    assert fire_options(raw, raw.detachment("A1")) == (HoldFire(),)
    assert fire_options(raw, raw.detachment("B1"))[0] != HoldFire()  # the enemy is in sight and range
    state = state_of(**setup)  # type: ignore[arg-type]
    _, events = drive(state, until=phase_over)
    assert _activations(events, "advancing_fire") == [(RED, "A1")]
    assert [e.reason for e in of(events, ev.HeldFire)] == ["withdrew"]
    assert of(events, ev.Volley) == []
