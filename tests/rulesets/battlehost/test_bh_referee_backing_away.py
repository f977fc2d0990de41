"""Backing away, trapped and making way on real positions, through the engine's Fight phase (BH-BACK-*, BH-SCN-11..21)."""

from __future__ import annotations

import math

from bh_referee_support import at, chance, decision, fight_phase, model, of_type, play, step

from kessen.core.geometry import Point
from kessen.rulesets.battlehost.referee.battlefield import gap, in_control_zone
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee import strikes as striking
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.backing_away import direction_away
from kessen.rulesets.battlehost.referee.duel import DuelDice
from kessen.rulesets.battlehost.rules.strikes import Strikes, StrikesOutcome, strikes

W = model("W", 10, 10)  # the standard set-up of BH-SCN-11..17: Evil winner W, Good loser L in contact
L = model("L", 10.9843, 10)
EVIL_WINS = DuelDice(good_best=1, evil_best=6)
GOOD_WINS = DuelDice(good_best=6, evil_best=1)


def lose(good: list, evil: list, **extra: object) -> tuple[st.BhState, list]:
    """The Fight phase of the set-up, Evil winning the duel; the state waits for the strikes (or a make-way choice)."""
    state = fight_phase(good, evil, **extra)
    return play(state, EVIL_WINS)


def strike_rolls(state: st.BhState) -> Strikes:
    """The strikes input of the pending strike roll (the engine's own question to the ``strikes`` procedure)."""
    f = state.fighting
    assert f is not None and f.striker is not None and f.target is not None
    made = 1 if len(striking.allowed_targets(state, f)) > 1 else f.strikes_left
    return striking.strike_input(state.get(f.striker), state.get(f.target), strikes_made=made, trapped=f.target in f.trapped, two_handed=False)


def test_bh_scn_11_bh_back_1_loser_backs_away_one_inch_directly_away() -> None:
    """BH-SCN-11, BH-BACK-1: with nothing nearby the loser backs away 1" straight away from the winner to
    (11.9843, 10), is not trapped, and the winner's strike is one roll."""
    state, events = lose([L], [W])
    assert at(state.get("L"), 11.9843, 10)
    assert [e.model for e in of_type(events, "backed_away")] == ["L"] and not of_type(events, "trapped")
    node = chance(state, "strike")
    assert not strike_rolls(state).trapped
    assert node.dist == strikes(Strikes(strikes=1, strength=3, defence=4, wounds=1))


def test_bh_scn_12_bh_back_2_backing_into_an_enemy_control_zone_is_allowed() -> None:
    """BH-SCN-12, BH-BACK-2: an Evil model E at (13.5, 10), not in the fight, does not stop the loser: it ends at
    (11.9843, 10), 0.5315" from E, inside E's control zone, not trapped."""
    state, events = lose([L], [W, model("E", 13.5, 10)])
    loser, e = state.get("L"), state.get("E")
    assert at(loser, 11.9843, 10)
    assert abs(gap(loser, e) - 0.5315) < TOL2 and in_control_zone(gap(loser, e))
    assert not of_type(events, "trapped")


TOL2 = 0.001


def test_bh_scn_13_bh_back_3_bh_back_4_enemy_in_the_path_traps_the_loser() -> None:
    """BH-SCN-13, BH-BACK-3, BH-BACK-4: an Evil model at (12.6, 10) blocks the path; an enemy cannot make way, so
    L stays in contact with W, trapped, and W's strike is two To Wound rolls."""
    state, events = lose([L], [W, model("E", 12.6, 10)])
    assert at(state.get("L"), 10.9843, 10)
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "enemy")]
    assert strike_rolls(state).trapped
    assert chance(state, "strike").dist == strikes(Strikes(strikes=1, strength=3, defence=4, trapped=True))


def test_bh_scn_14_bh_back_6_a_friend_makes_way() -> None:
    """BH-SCN-14, BH-BACK-6: Good F (not engaged) at (12.6, 10.3) blocks L's path 0.6849" from its nearest point;
    F makes way by 0.3193" along (0.8990, 0.4380) to (12.8871, 10.4399), then L backs away to (11.9843, 10),
    0.02" from F. The owner is asked, making way first."""
    state, _ = lose([L, model("F", 12.6, 10.3)], [W])
    ask = decision(state, "make way")
    assert ask.player == "good" and ask.options[0] == op.MakeWayChoice(True)
    state, events = step(state, op.MakeWayChoice(True))
    assert at(state.get("F"), 12.8871, 10.4399) and at(state.get("L"), 11.9843, 10)
    moved = Point(12.8871, 10.4399) - Point(12.6, 10.3)
    assert abs(moved.length() - 0.3193) < TOL2
    assert abs(moved.unit().x - 0.8990) < TOL2 and abs(moved.unit().y - 0.4380) < TOL2
    assert abs(gap(state.get("L"), state.get("F")) - 0.02) < TOL2
    assert [e.type for e in events][:2] == ["made_way", "backed_away"]
    assert not strike_rolls(state).trapped


def test_bh_scn_14_bh_back_6_making_way_into_an_enemy_control_zone() -> None:
    """BH-SCN-14, BH-BACK-6 condition 5: with Evil Z at (13.2, 11.5) the same happens; F ends 0.1211" from Z,
    inside Z's control zone, which making way allows."""
    state, _ = lose([L, model("F", 12.6, 10.3)], [W, model("Z", 13.2, 11.5)])
    state, _ = step(state, op.MakeWayChoice(True))
    f, z = state.get("F"), state.get("Z")
    assert at(f, 12.8871, 10.4399) and abs(gap(f, z) - 0.1211) < TOL2 and in_control_zone(gap(f, z))
    assert at(state.get("L"), 11.9843, 10)


def test_bh_back_6_declining_to_make_way_leaves_the_loser_trapped() -> None:
    """BH-BACK-6: making way is the owner's choice; declining it leaves the loser trapped and the friend where it was."""
    state, _ = lose([L, model("F", 12.6, 10.3)], [W])
    state, events = step(state, op.MakeWayChoice(False))
    assert at(state.get("F"), 12.6, 10.3) and at(state.get("L"), 10.9843, 10)
    assert of_type(events, "trapped") and strike_rolls(state).trapped


def test_bh_scn_15_bh_back_6_two_blockers_cannot_both_make_way() -> None:
    """BH-SCN-15, BH-BACK-6 condition 1: F1 at (12.6, 10.55) and F2 at (12.6, 9.45) both block; only one model may
    make way, so L is trapped and neither friend moves."""
    state, events = lose([L, model("F1", 12.6, 10.55), model("F2", 12.6, 9.45)], [W])
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "several")]
    assert at(state.get("F1"), 12.6, 10.55) and at(state.get("F2"), 12.6, 9.45) and at(state.get("L"), 10.9843, 10)


def test_bh_scn_16_bh_back_6_an_engaged_friend_cannot_make_way() -> None:
    """BH-SCN-16, BH-BACK-6 condition 2: F at (12.6, 10.3) in contact with Evil E at (13.5843, 10.3) blocks L but is
    engaged, so it cannot make way: L is trapped."""
    state = fight_phase([L, model("F", 12.6, 10.3)], [W, model("E", 13.5843, 10.3)])
    picked = decision(state, "fight")
    state, _ = step(state, next(o for o in picked.options if "L" in o.fight.good))
    state, events = step(state, EVIL_WINS)
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "engaged")]
    assert at(state.get("F"), 12.6, 10.3)


def test_bh_scn_17_bh_back_6_making_way_may_not_touch_another_base() -> None:
    """BH-SCN-17, BH-BACK-6 condition 5: Good G at (13.634, 10.804) is where F's making-way move would end, so F
    cannot make way and L is trapped."""
    state, events = lose([L, model("F", 12.6, 10.3), model("G", 13.634, 10.804)], [W])
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "cannot_make_way")]
    assert at(state.get("F"), 12.6, 10.3)


def test_bh_scn_18_bh_back_3_bh_geo_5_board_edge_traps() -> None:
    """BH-SCN-18, BH-BACK-3, BH-GEO-5: L at (47.3, 24) backing away from W at (46.3157, 24) would end at x = 48.3,
    past the last legal centre x = 47.5079 of a 48" board: L is trapped."""
    state, events = lose([model("L", 47.3, 24)], [model("W", 46.3157, 24)])
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "ground")]
    assert abs(48 - 0.4921260 - 47.5079) < 1e-4


def test_bh_back_3_bh_geo_5_terrain_block_traps() -> None:
    """BH-BACK-3, BH-GEO-5: a terrain block 0.5" behind the loser stops its 1" back-away: it is trapped."""
    state, events = lose([L], [W], terrain=[[12.0, 8.0, 14.0, 12.0]])
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "ground")]


def test_bh_scn_19_bh_geo_6_two_winners_average_their_directions() -> None:
    """BH-SCN-19, BH-GEO-6: L at (10, 10) losing to W1 at (9.0157, 10) and W2 at (10, 9.0157) backs away along
    (0.7071, 0.7071) to (10.7071, 10.7071)."""
    state, _ = lose([model("L", 10, 10)], [model("W1", 9.0157, 10), model("W2", 10, 9.0157)])
    assert at(state.get("L"), 10.7071, 10.7071)


def test_bh_scn_19_bh_geo_6_opposite_winners_leave_no_direction() -> None:
    """BH-SCN-19, BH-GEO-6: winners on exactly opposite sides give no direction: L is trapped."""
    state, events = lose([model("L", 10, 10)], [model("W1", 9.0157, 10), model("W2", 10.9843, 10)])
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "no_direction")]
    assert direction_away(Point(10, 10), [Point(9.0157, 10), Point(10.9843, 10)]) is None


def test_bh_scn_19_bh_geo_6_three_winners() -> None:
    """BH-SCN-19, BH-GEO-6: three winners at (9.0157, 10), (10, 9.0157), (10.9843, 10): L backs away along (0, 1) to (10, 11)."""
    state, _ = lose([model("L", 10, 10)], [model("W1", 9.0157, 10), model("W2", 10, 9.0157), model("W3", 10.9843, 10)])
    assert at(state.get("L"), 10, 11)


def test_bh_scn_20_bh_back_7_lone_winner_every_loser_backs_away() -> None:
    """BH-SCN-20, BH-BACK-7, BH-BACK-8: a lone Good winner at (20, 20): Evil losers L1 at (20.9843, 20) and L2 at
    (20, 20.9843) each back away directly away from it, to (21.9843, 20) and (20, 21.9843); their owner picks
    the order, the fight's list order first."""
    state = fight_phase([model("W", 20, 20)], [model("L1", 20.9843, 20), model("L2", 20, 20.9843)])
    state, _ = step(state, GOOD_WINS)
    ask = decision(state, "back away")
    assert ask.player == "evil" and ask.options == (op.NextLoser("L1"), op.NextLoser("L2"))
    state, events = step(state, op.NextLoser("L2"))
    assert [e.model for e in of_type(events, "backed_away")] == ["L2", "L1"]  # the last one needs no choice
    assert at(state.get("L1"), 21.9843, 20) and at(state.get("L2"), 20, 21.9843)


def test_bh_scn_20_bh_geo_6_bases_of_different_sizes() -> None:
    """BH-SCN-20, BH-GEO-1, BH-GEO-6: a 25 mm loser at (30.6398, 31.1081) beaten by a 40 mm winner at (30, 30) ends
    at (31.1398, 31.9741)."""
    state, _ = lose([model("L", 30.6398, 31.1081)], [model("W", 30, 30, base_mm=40)])
    assert at(state.get("L"), 31.1398, 31.9741)


def test_bh_scn_21_bh_back_5_prone_loser_is_trapped() -> None:
    """BH-SCN-21, BH-BACK-5: a prone Good model with open ground behind it does not move when it loses: trapped,
    and the winner's strike is two rolls."""
    state, events = lose([model("L", 10.9843, 10, prone=True)], [W])
    assert [(e.model, e.reason) for e in of_type(events, "trapped")] == [("L", "prone")]
    assert at(state.get("L"), 10.9843, 10) and strike_rolls(state).trapped


def test_bh_scn_21_bh_back_5_prone_winner_may_stand_up_and_makes_no_strikes() -> None:
    """BH-SCN-21, BH-BACK-5: when the prone model's side wins, it makes no strikes; its player is asked whether it
    stands up, and standing up removes the prone status."""
    state = fight_phase([model("L", 10.9843, 10, prone=True)], [W])
    state, _ = step(state, GOOD_WINS)
    ask = decision(state, "stand up")
    assert ask.player == "good" and ask.options == (op.StandUp("L", True), op.StandUp("L", False))
    state, events = step(state, op.StandUp("L", True))
    assert not state.get("L").prone and of_type(events, "stood_up")
    assert not of_type(events, "struck") and of_type(events, "fight_resolved")[0].wounds == 0
    assert state.fighting is None


def test_bh_back_4_trapped_model_stays_in_contact_until_strikes_are_over() -> None:
    """BH-BACK-4: the trapped loser stays in base contact with its enemy while the winner strikes; a successful
    doubled strike slays it (wounds 1 of 1)."""
    state, _ = lose([L], [W, model("E", 12.6, 10)])
    assert abs(gap(state.get("L"), state.get("W"))) < 0.01
    state, events = step(state, StrikesOutcome(wounds=1, slain=True))
    assert state.model("L") is None and of_type(events, "slain")


def test_bh_geo_7_touching_model_behind_never_blocks() -> None:
    """BH-GEO-7: a model the loser merely touches at its start and moves away from (here the winner) never blocks;
    a friend in contact beside the path, not ahead, does not block either."""
    state, events = lose([L, model("S", 10.9843, 10.9843)], [W])
    assert at(state.get("L"), 11.9843, 10) and not of_type(events, "trapped")
    assert math.isclose(state.get("S").y, 10.9843)
