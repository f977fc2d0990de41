"""The free choices of issue 10 on the engine: hits allocated one at a time by the rules of allocation, an attack with
only some weapons, and the moves in line and at a chosen enemy the engine suggests."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from test_li_engine_support import GAME, det, drive, m, node, of, outcome_where, state_of

from kessen.core.engine import Chance, Decision, Rolled
from kessen.core.errors import IllegalChoice
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.allocation import AllocateTo, HitByHit, InOrder
from kessen.rulesets.legions.referee.firing import volleys
from kessen.rulesets.legions.referee.movement import ChargeAt, InLine
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.targeting import Fire
from tests.engine_support import apply_checked

GUNS = {"gun": {"type": "infantry", "movement": 5, "armour_save": 5, "caf": 2, "morale": 4, "base_radius": 0.5,
                "weapons": [{"name": "rifles", "profiles": [{"range": 30, "dice": 3, "to_hit": 4}]}]}}


def _hit_by_hit(wounded: bool) -> LiState:
    """Red's gun fires 3 dice at blue's three 2-Wound models (the first wounded if *wounded*); blue allocates the hits
    one at a time, and the hit rolls give 2 hits."""
    first = m("tough", 10, 20, id="t1", wounds_remaining=1) if wounded else m("tough", 10, 20, id="t1")
    state = state_of([det("A", m("gun", 10, 10), order="first_fire")], [det("B", first, m("tough", 11.5, 20, id="t2"), m("tough", 13, 20, id="t3"))],
                     profiles=GUNS)
    state, _ = drive(state, until=lambda s, n, e: isinstance(n, Decision) and n.kind == "allocation")
    state, _ = apply_checked(GAME, state, HitByHit())
    n = node(state)
    assert isinstance(n, Chance) and n.kind == "hit rolls" and n.dist.probability(lambda h: h.value == 2) == F(3, 8)
    return apply_checked(GAME, state, Rolled(2))[0]


def test_li_alloc_1_li_alloc_3_hits_one_at_a_time_a_wounded_model_first() -> None:
    """LI-ALLOC-1, LI-ALLOC-3: allocated one at a time, each hit may go to any eligible model, but a wounded one must
    take hits first: with t1 wounded only t1 is offered, and ``allocate t2`` is refused with LI-ALLOC-3."""
    state = _hit_by_hit(wounded=True)
    n = node(state)
    assert isinstance(n, Decision) and n.player == "blue" and n.options == (InOrder(), AllocateTo("t1"))
    with pytest.raises(IllegalChoice) as refused:
        GAME.parse(state, n, "allocate t2")
    assert refused.value.rule == "LI-ALLOC-3"
    assert GAME.parse(state, n, "allocate t1") == AllocateTo("t1")


def test_li_alloc_2_a_hit_allocated_outside_the_detachment_fired_at_is_refused_naming_the_rule() -> None:
    """LI-ALLOC-2: a hit goes only to an eligible model of the target: ``allocate gun`` (a model of the firing
    Detachment A, not of B) is refused naming LI-ALLOC-2, not without a rule (issue 22 §4)."""
    state = _hit_by_hit(wounded=False)
    n = node(state)
    assert isinstance(n, Decision) and n.kind == "allocation"
    with pytest.raises(IllegalChoice) as refused:
        GAME.parse(state, n, "allocate gun")
    assert refused.value.rule == "LI-ALLOC-2" and refused.value.reason.startswith("gun is not a model of B")


def test_li_alloc_1_each_hit_is_saved_on_the_model_it_is_allocated_to() -> None:
    """LI-ALLOC-1, LI-SAVE: the first hit goes to t3 (its 5+ save: it loses a Wound with chance 2/3); when it fails,
    t3 is wounded, so the second hit must go to t3 (LI-ALLOC-3), whose second failed save destroys it."""
    state = _hit_by_hit(wounded=False)
    n = node(state)
    assert isinstance(n, Decision) and set(n.options) == {InOrder(), AllocateTo("t1"), AllocateTo("t2"), AllocateTo("t3")}
    assert GAME.odds(state, n, AllocateTo("t3")) == {"p_wound": F(2, 3), "p_destroyed": 0, "p_shield": 0}
    state, _ = apply_checked(GAME, state, AllocateTo("t3"))
    state, events = apply_checked(GAME, state, outcome_where(node(state), wounds=1))
    assert [(e.model, e.result) for e in of(list(events), ev.HitAllocated)] == [("t3", "wound")]
    second = node(state)
    assert isinstance(second, Decision) and second.options == (InOrder(), AllocateTo("t3"))
    state, _ = apply_checked(GAME, state, AllocateTo("t3"))
    state, events = apply_checked(GAME, state, outcome_where(node(state), wounds=1))
    assert of(list(events), ev.Destroyed)[0].model == "t3"
    volley = of(list(events), ev.Volley)[0]
    assert (volley.hits, volley.wounds, volley.destroyed) == (2, 2, 1)


TWO_WEAPONS = {"two": {"type": "infantry", "movement": 5, "armour_save": 5, "base_radius": 0.5, "weapons": [
    {"name": "rifles", "profiles": [{"range": 30, "dice": 1, "to_hit": 4}]},
    {"name": "cannon", "profiles": [{"range": 30, "dice": 2, "to_hit": 3}]},
]}}


def test_li_fire_2_a_player_may_fire_only_some_weapons() -> None:
    """LI-FIRE-2: the controlling player declares which models fire and with which weapons: ``fire at B with
    cannon`` fires the cannons alone; ``with a-1 cannon`` only the first model's; a weapon it does not carry is
    refused with LI-FIRE-2."""
    state = state_of([det("A", m("two", 10, 10, count=2, dx=1.0), order="first_fire")], [det("B", m("inf", 10, 20))], profiles=TWO_WEAPONS)
    state, _ = drive(state, until=lambda s, n, e: isinstance(n, Decision) and n.kind == "target")
    n = node(state)
    assert isinstance(n, Decision)
    cannons = GAME.parse(state, n, "fire at B with cannon")
    assert isinstance(cannons, Fire) and GAME.notation(state, n, cannons) == "fire at B with cannon"
    assert [(v.weapon, v.firing_models) for v in volleys(state, state.detachment("A"), cannons)] == [("cannon", 2)]
    one = GAME.parse(state, n, "fire at B with A-1 cannon")
    assert [(v.weapon, v.firing_models) for v in volleys(state, state.detachment("A"), one)] == [("cannon", 1)]
    with pytest.raises(IllegalChoice) as refused:
        GAME.parse(state, n, "fire at B with lasguns")
    assert refused.value.rule == "LI-FIRE-2"


def _moving(order: str, red: list[dict[str, Any]], blue: list[dict[str, Any]]) -> LiState:
    state = state_of(red, blue, start="orders")
    ordered = {"A": order}
    return drive(state, choose=lambda s, n: ordered.get(n.actor, "first_fire") if n.kind == "order" else None,
                 until=lambda s, n, e: isinstance(n, Decision) and n.kind == "move" and n.actor == "A")[0]


def test_li_move_1_a_move_in_line_keeps_the_detachments_shape() -> None:
    """LI-MOVE-1, LI-MOVE-2, LI-MOVE-4: ``move A toward B``: every model shifts by the same offset straight toward
    B's nearest model, as far as the slowest may go without entering B's Engagement Zone (5 inches here)."""
    state = _moving("advance", [det("A", m("inf", 10, 10, id="a1"), m("inf", 12, 11, id="a2"))], [det("B", m("inf", 11, 40, id="b1"))])
    n = node(state)
    assert isinstance(n, Decision) and InLine("B") in n.options
    state, _ = apply_checked(GAME, state, InLine("B"))
    a1, a2 = state.model("a1"), state.model("a2")
    assert (round(a2.x - a1.x, 6), round(a2.y - a1.y, 6)) == (2.0, 1.0)  # the shape kept
    assert round(((a1.x - 10) ** 2 + (a1.y - 10) ** 2) ** 0.5, 6) == 5.0


def test_li_move_4_a_charge_at_a_chosen_detachment_reaches_base_contact() -> None:
    """LI-MOVE-4, LI-FIGHT-3: a Charge Detachment may charge any enemy Detachment in reach (each one in reach is
    suggested), not only the nearest: ``charge A at C`` brings its model into base contact with C's, and it has
    charged and moved."""
    state = _moving("charge", [det("A", m("inf", 10, 10, id="a1"))], [det("B", m("inf", 7, 13, id="b1")), det("C", m("inf", 14, 13, id="c1"))])
    n = node(state)
    assert isinstance(n, Decision) and {ChargeAt("B"), ChargeAt("C")} <= set(n.options)
    state, _ = apply_checked(GAME, state, GAME.parse(state, n, "charge A at C"))
    a1, c1 = state.model("a1"), state.model("c1")
    assert round(((a1.x - c1.x) ** 2 + (a1.y - c1.y) ** 2) ** 0.5, 6) == 1.0  # base to base
    assert state.detachment("A").charged_and_moved
