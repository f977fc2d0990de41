"""Turns, the Move phase, victory, geometry basics and scenario files (BH-TURN-*, BH-MOVE-*, BH-GEO-1..5, section 4)."""

from __future__ import annotations

import math

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from bh_referee_support import CONTACT, decision, model, node, of_type, scenario_text, started, state_of, step, to_phase

from kessen.core.errors import InputError
from kessen.core.geometry import Point
from kessen.rulesets.battlehost.referee.battlefield import (
    EPS,
    distance,
    engaged_ids,
    gap,
    has_control_zone,
    in_base_contact,
    in_control_zone,
    radius,
)
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee import turns
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.game import GAME
from kessen.rulesets.battlehost.referee.moves import sidesteps
from kessen.rulesets.battlehost.referee.turns import GivenPriority, PriorityRoll

SOURCE = "scenarios/door.toml"


def moves_of(state: st.BhState, model_id: str) -> list[op.MoveTo]:
    """The model's suggested moves but for the last group (moves round what is in the way, half advances)."""
    ask = decision(state, "move")
    last = set(sidesteps(state, ask.player))  # type: ignore[arg-type]
    return [o for o in ask.options if isinstance(o, op.MoveTo) and o.model == model_id and o not in last]


# --- geometry basics ---------------------------------------------------------------------------------


def test_bh_geo_1_round_bases_in_inches() -> None:
    """BH-GEO-1: radius = base_mm / 25.4 / 2: 25 mm → 0.4921260", 40 mm → 0.7874016", 60 mm → 1.1811024"."""
    assert [round(radius(mm), 7) for mm in (25, 40, 60)] == [0.492126, 0.7874016, 1.1811024]


def test_bh_geo_2_bh_geo_3_edge_to_edge_and_contact_tolerance() -> None:
    """BH-GEO-2, BH-GEO-3: distance is edge to edge, never below 0; contact when |gap| ≤ 0.01"; a gap of 0.02" is clear."""
    state = state_of([model("A", 10, 10), model("B", 10 + CONTACT + 0.02, 12)], [model("C", 10 + CONTACT + 0.005, 10), model("D", 20, 10)])
    a, c, d = state.get("A"), state.get("C"), state.get("D")
    assert in_base_contact(a, c) and abs(gap(a, c) - 0.005) < 1e-6
    assert abs(distance(a, d) - (10 - CONTACT)) < 1e-6
    far = state.get("B").at(Point(10 + CONTACT + 2 * EPS, 10))
    assert not in_base_contact(a, far)


def test_bh_geo_4_control_zone_is_one_inch_none_when_engaged_or_prone() -> None:
    """BH-GEO-4: a model within 1" (edge to edge) is in the control zone, one 1" away is not; engaged or prone models
    have none."""
    state = state_of([model("A", 10, 10), model("P", 30, 30, prone=True)], [model("E", 10 + CONTACT + 0.9, 10), model("F", 30, 10 + CONTACT - 0.0)])
    a, e = state.get("A"), state.get("E")
    assert in_control_zone(gap(e, a)) and in_control_zone(gap(a, e))
    assert not in_control_zone(gap(a, a.at(Point(10 + CONTACT + 1.0, 10))))
    assert has_control_zone(a, engaged_ids(state.models)) and not has_control_zone(state.get("P"), engaged_ids(state.models))
    engaged = state_of([model("A", 10, 10)], [model("E", 10 + CONTACT, 10)])
    assert not has_control_zone(engaged.get("A"), engaged_ids(engaged.models))


# --- turns -----------------------------------------------------------------------------------------------


def test_bh_turn_1_phases_in_order() -> None:
    """BH-TURN-1: each turn runs Priority, Move, Shoot, Fight, End in that order."""
    state = state_of([model("A", 10, 10)], [model("B", 30, 30)])
    state, events = step(state, PriorityRoll(3, 2))
    state, more = to_phase(state, "fight")
    events = list(events) + more
    assert [e.phase for e in of_type(events, "phase_started")] == ["move", "shoot", "fight"]
    assert state.phase == "priority" and state.turn == 1  # nothing engaged: the End phase passed to turn 2


def test_bh_turn_2_priority_roll_first_turn_rerolls_ties() -> None:
    """BH-TURN-2: the higher D6 has priority; in the first turn ties are re-rolled (so each side has 1/2), later a
    tie gives priority to the player who did not have it."""
    first = turns.priority_dist(first_turn=True)
    assert all(o.good != o.evil for o in first) and first.probability(lambda o: o.good > o.evil) == Fraction(1, 2)
    state = state_of([model("A", 10, 10)], [model("B", 30, 30)], turns=3)
    state, events = step(state, PriorityRoll(2, 5))
    assert of_type(events, "priority_rolled")[0].player == "evil" and state.priority == "evil"
    state, _ = to_phase(state, "fight")
    assert node(state).dist.probability(lambda o: o.good == o.evil) == Fraction(1, 6)  # type: ignore[union-attr]
    state, events = step(state, PriorityRoll(4, 4))
    assert state.priority == "good" and of_type(events, "priority_rolled")[0].player == "good"


def test_bh_turn_2_scenario_may_give_first_priority() -> None:
    """BH-TURN-2, section 4: a scenario's first_priority replaces the first roll."""
    state = state_of([model("A", 10, 10)], [model("B", 30, 30)], first_priority="evil")
    state, events = step(state, GivenPriority("evil"))
    assert state.priority == "evil" and of_type(events, "priority_given")


def test_bh_turn_3_side_wiped_out_loses_at_once() -> None:
    """BH-TURN-3: the battle ends at once when a side has no models left; the other side wins."""
    state = to_phase(started(state_of([model("A", 10, 10, fight="3/4+", missile_weapon="bow")], [model("B", 10, 20)])), "shoot")[0]
    state, _ = step(state, op.ShootAt("A", "B"))
    from kessen.rulesets.battlehost.rules.shooting import ShootOutcome

    state, events = step(state, ShootOutcome(True, True, True))
    assert state.ended and turns.winner(state) == "good" and of_type(events, "battle_ended")[0].turn == 1
    assert turns.summary(state)["casualties"] == {"good": 0, "evil": 1}


def test_bh_turn_3_after_the_last_turn_smaller_fraction_lost_wins() -> None:
    """BH-TURN-3: after the last turn the side that lost the smaller fraction of its models wins; equal is a draw."""
    state = state_of([model("A", 10, 10), model("A2", 12, 10)], [model("B", 30, 30), model("B2", 32, 30), model("B3", 34, 30)], turns=1)
    lost_one_of_two = replace(state, models=state.models[1:], casualties=(("A", "good"),))
    assert turns.winner(lost_one_of_two) == "evil"  # 1/2 > 0/3
    even = replace(lost_one_of_two, models=lost_one_of_two.models[:-1], casualties=(("A", "good"), ("B3", "evil")))
    assert turns.winner(replace(even, casualties=(("A", "good"),))) == "evil"
    assert turns.winner(replace(state, casualties=())) is None
    state, _ = step(state, PriorityRoll(3, 2))
    state, events = to_phase(state, "fight")
    assert state.ended and of_type(events, "battle_ended")[0].winner == "draw"


# --- the Move phase ---------------------------------------------------------------------------------------


def test_bh_move_1_priority_player_moves_first_then_the_other() -> None:
    """BH-MOVE-1: the priority player moves any of its models, one at a time, then the other player moves."""
    state = started(state_of([model("A", 10, 10), model("A2", 14, 10)], [model("B", 10, 30)]), "good")
    ask = decision(state, "move")
    assert ask.player == "good" and {o.model for o in ask.options if isinstance(o, op.MoveTo)} == {"A", "A2"}
    state, _ = step(state, moves_of(state, "A2")[0])
    assert decision(state, "move").player == "good"
    state, _ = step(state, op.EndMoves())
    assert decision(state, "move").player == "evil"


def test_bh_move_2_bh_move_8_straight_moves_of_at_most_mv_once() -> None:
    """BH-MOVE-2, BH-MOVE-8: a move is one straight line of at most Mv inches, once per Move phase, and its length is
    recorded for the Shoot phase."""
    state = started(state_of([model("A", 10, 10, move=5)], [model("B", 10, 40)]))
    (advance,) = moves_of(state, "A")
    assert abs(advance.y - 15) < 1e-9 and advance.x == 10
    state, events = step(state, advance)
    assert state.moved_inches("A") == pytest.approx(5) and of_type(events, "moved")
    assert state.phase == "move" and decision(state, "move").player == "evil"  # A cannot move again


def test_bh_move_3_no_base_touched_on_the_way() -> None:
    """BH-MOVE-3, BH-GEO-7: a move may not pass through or end touching another base: an advance stops short of a
    friend in the way, clear of it (gap > EPS)."""
    state = started(state_of([model("A", 10, 10), model("F", 10, 13)], [model("B", 10, 40)]))
    advance = moves_of(state, "A")[0]
    moved = state.get("A").at(Point(advance.x, advance.y))
    assert EPS < gap(moved, state.get("F")) < 0.05


def test_bh_move_3_issue_23_moves_round_a_friend_in_the_way() -> None:
    """BH-MOVE-3, issue 23 §5: when a friend cuts the straight advance short, the last options are a move on each hand
    round it (turned 25° off the line here, the full 6"), legal and ending nearer the enemy than the cut-short
    advance; they come after ending the moves, so older option indices hold."""
    state = started(state_of([model("A", 10, 10), model("F", 10, 13)], [model("B", 10, 40)]))
    options = decision(state, "move").options
    (advance,) = moves_of(state, "A")
    left, right, half = [o for o in sidesteps(state, "good") if o.model == "A"]
    assert (half.x, half.y) == (10, pytest.approx((10 + advance.y) / 2))  # and half the cut-short advance
    assert options.index(right) > options.index(left) > options.index(op.EndMoves())
    for step_round in (left, right):
        assert math.hypot(step_round.x - 10, step_round.y - 10) == pytest.approx(6)
        assert step_round.y > advance.y + 2 and abs(step_round.x - 10) == pytest.approx(6 * math.sin(math.radians(25)))
    assert left.x < 10 < right.x


def test_bh_move_4_control_zones() -> None:
    """BH-MOVE-4: a model starting 1" or more from an enemy with a control zone stays at least 1" from it; one
    starting closer may not come closer at all."""
    state = started(state_of([model("A", 10, 10)], [model("B", 10, 14)]))
    (advance,) = [o for o in moves_of(state, "A") if o.charge is None]
    assert abs(gap(state.get("A").at(Point(advance.x, advance.y)), state.get("B")) - 1.0) < 1e-3
    inside = started(state_of([model("A", 10, 10), model("C", 20, 10)], [model("B", 10, 10 + CONTACT + 0.5), model("D", 20, 16)]))
    assert not [o for o in moves_of(inside, "A") if o.charge is None]  # towards B only, which it may not


def test_bh_move_5_charge_ends_in_base_contact_even_with_an_engaged_enemy() -> None:
    """BH-MOVE-5: a charge is a straight move that ends in base contact (gap 0) with the charged enemy, whose control
    zone it may enter; an enemy already engaged may be charged (a many-vs-one fight)."""
    state = started(state_of([model("A", 10, 10), model("G", 20 - CONTACT, 15)], [model("B", 10, 14), model("E", 20, 15)]))
    (charge,) = [o for o in moves_of(state, "A") if o.charge == "B"]
    assert abs(gap(state.get("A").at(Point(charge.x, charge.y)), state.get("B"))) < 1e-9
    helper = started(state_of([model("A", 20, 10), model("G", 20 - CONTACT, 15)], [model("E", 20, 15)]))
    assert [o.charge for o in moves_of(helper, "A") if o.charge] == ["E"]


def test_bh_move_6_engaged_models_cannot_move() -> None:
    """BH-MOVE-6: a model that is engaged when it would move cannot move."""
    state = started(state_of([model("A", 10, 10), model("A2", 20, 20)], [model("B", 10 + CONTACT, 10)]))
    assert not moves_of(state, "A") and moves_of(state, "A2")


def test_bh_move_7_prone_model_stands_up_then_half_move() -> None:
    """BH-MOVE-7: a prone model may stand up at the start of its move and then move at most half its Mv."""
    state = started(state_of([model("P", 10, 10, prone=True)], [model("B", 10, 40)]))
    options = decision(state, "move").options
    assert op.StandUp("P") in options
    (advance,) = moves_of(state, "P")
    assert advance.stand_up and abs(advance.y - 13) < 1e-9
    state, events = step(state, advance)
    assert not state.get("P").prone and of_type(events, "stood_up")


# --- scenario files ------------------------------------------------------------------------------------------


def load(good: list[dict[str, Any]] | None = None, evil: list[dict[str, Any]] | None = None, **extra: Any) -> st.BhState:
    text = scenario_text(good if good is not None else [model("A", 10, 10)], evil if evil is not None else [model("B", 20, 20)], **extra)
    return GAME.load_scenario(text, SOURCE)


def refused(field: str, value: str, **kwargs: Any) -> None:
    """Loading fails with one line naming the file, the field and the value."""
    with pytest.raises(InputError) as caught:
        load(**kwargs)
    message = str(caught.value)
    assert message.startswith(f"{SOURCE}: {field}: "), message
    assert f"(got {value})" in message, message


def test_bh_scenario_loads_profiles_weapons_and_statuses() -> None:
    """Section 4: F as "4/4+" gives Fight and Shoot values; weapons by chart name or inline; statuses carried over;
    repeated names are numbered."""
    def unnamed(entry: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in entry.items() if k != "id"}

    state = load(
        good=[model("A", 10, 10, fight="4/4+", missile_weapon="elf bow", type="hero", might=3, might_left=1, wounds=3, wounds_suffered=1)],
        evil=[unnamed(model("x", 20, 20, name="Orc", missile_weapon={"range_inches": 12, "strength": 3})),
              unnamed(model("y", 22, 20, name="Orc", prone=True))],
    )
    a = state.get("A")
    assert (a.fight, a.shoot_value, a.weapon.range_inches, a.weapon.strength, a.might_left, a.wounds_left) == (4, 4, 24, 3, 1, 2)  # type: ignore[union-attr]
    assert [m.id for m in state.side_models("evil")] == ["Orc 1", "Orc 2"]
    assert state.get("Orc 1").weapon.range_inches == 12 and state.get("Orc 2").prone  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("field", "value", "kwargs"),
    [
        ("good[0].might", "2", {"good": [model("A", 10, 10, might=2)]}),
        ("good[0].missile_weapon", "'sling'", {"good": [model("A", 10, 10, missile_weapon="sling")]}),
        ("good[0].wounds_suffered", "1", {"good": [model("A", 10, 10, wounds_suffered=1)]}),
        ("good[0].x", "0.3", {"good": [model("A", 0.3, 10)]}),
        ("evil[0].x", "[10.5, 10.0]", {"evil": [model("B", 10.5, 10)]}),
        ("good[0].x", "[10.0, 10.0]", {"terrain": [[10.2, 5.0, 12.0, 15.0]]}),
        ("turns", "0", {"turns": 0}),
        ("good[0].base_mm", "10", {"good": [model("A", 10, 10, base_mm=10)]}),
        ("good[0].speed", "3", {"good": [model("A", 10, 10, speed=3)]}),
        ("terrain[0]", "[5.0, 5.0, 4.0, 6.0]", {"terrain": [[5.0, 5.0, 4.0, 6.0]]}),
    ],
)
def test_bh_scenario_rejections_name_file_field_and_value(field: str, value: str, kwargs: dict[str, Any]) -> None:
    """Section 4, BH-GEO-3, BH-GEO-5: warriors with Might, unknown weapons, wounds suffered not below W, bases off the
    board, overlapping bases or terrain, out-of-range values and unknown keys are refused naming file, field, value."""
    refused(field, value, **kwargs)
