"""Whole-game rules in the engine: melee, priority, disengaging, morale, fallen and transfixed models, activation,
actions, movement, terrain and turns (SB-MELEE, SB-PRIO, SB-DIS, SB-MOR, SB-DOWN, SB-ACT, SB-ACTION, SB-MOVE,
SB-TERR, SB-TURN)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from sb_engine_support import (
    nothing_pending,
    results,
    activated,
    at,
    chance,
    decision,
    forced,
    model,
    pending_roll,
    play,
    ready,
    state_of,
    step,
    turn_of,
    types,
)

from kessen.core.engine import Terminal
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee import game as g
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee import state as st
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.battlefield import enemies_in_contact
from kessen.rulesets.song_of_blades.referee.disengaging import disengage_setup
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.referee.turns import winner
from kessen.rulesets.song_of_blades.rules.disengaging import Disengage, HackingEnemy
from kessen.rulesets.song_of_blades.rules.melee import TIE, Melee, MeleeOutcome, melee
from kessen.rulesets.song_of_blades.rules.quality import ActivationOutcome, MoraleOutcome, activation
from kessen.rulesets.song_of_blades.rules.turns import RollOffDice

F = Fraction
NOTHING = MeleeOutcome("defender", "nothing", "none")
KILL = MeleeOutcome("attacker", "kill", "defender")
GRUESOME = MeleeOutcome("attacker", "gruesome_kill", "defender")


def attacks(state: SobState) -> set[str]:
    return {o.target for o in decision(state, "move").options if isinstance(o, opt.Attack)}


def moves(state: SobState) -> list[opt.Move]:
    return [o for o in decision(state, "move").options if isinstance(o, opt.Move)]


# --- SB-MELEE ----------------------------------------------------------------------------------------------------


def test_sb_melee_1_attack_only_in_base_contact() -> None:
    """SB-MELEE-1, SB-GEO-3: a model may attack only an enemy in base contact: gap 1 mm is contact, 1.5 mm is not."""
    state = state_of([model("A", 100, 100)], [model("B", 126, 100), model("C", 100, 126.5)])
    assert attacks(ready(state, "Red", "A")) == {"B"}


def test_sb_melee_2_engaged_without_attacks_leaving_draws_hacks() -> None:
    """SB-MELEE-2, SB-DIS-2: bases placed in contact are engaged although nobody attacked; moving away means
    disengaging, and the standing enemy makes one free hack."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Blue", "B")
    retreat = moves(state)
    assert [m.purpose for m in retreat] == ["retreat"]
    state, _ = step(state, retreat[0])
    chance(state, "free hack")
    assert state.pending[0].hackers == ("A",)  # type: ignore[union-attr]


def test_sb_melee_4_sb_melee_6_defender_can_win_and_hurt_the_attacker() -> None:
    """SB-MELEE-4, SB-MELEE-6, SB-DOWN-1: the defender may win the attacker's own attack: A (C3) rolls 1 → 4, B (C3)
    rolls 2 → 5: B wins, 5 < 8, even → A falls where it stands."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    fall = forced(state, 1, 2)
    assert fall == MeleeOutcome("defender", "fall", "attacker")
    state, _ = step(state, fall)
    assert state.get("A").state == "fallen" and at(state.get("A"), 100, 100)


def test_sb_melee_5_tie_nothing_happens() -> None:
    """SB-MELEE-5: equal scores: nothing happens to anyone."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    assert forced(state, 4, 4) == TIE
    after, events = step(state, TIE)
    assert [f.state for f in after.figures] == ["standing", "standing"] and at(after.get("B"), 125, 100)
    assert types(events)[0] == "combat_roll"


def test_sb_melee_7_gruesome_kill_of_the_attacker_tests_its_friends() -> None:
    """SB-MELEE-7: a gruesome kill of the attacker (by the defender) makes the attacker's friends within Long test;
    the winner's friends never do."""
    red = [model("A", 275, 300), model("R2", 275, 450)]  # R2 125 mm edge to edge from A
    blue = [model("B", 300, 300, combat=6), model("F", 300, 420)]
    state = ready(state_of(red, blue), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    gruesome = forced(state, 1, 6)  # A 4, B 12: 12 ≥ 3 × 4
    assert gruesome == MeleeOutcome("defender", "gruesome_kill", "attacker")
    state, _ = step(state, gruesome)
    assert state.figure("A") is None
    assert [p.model for p in state.pending if isinstance(p, sp.MoraleTest)] == ["R2"]


# --- SB-PRIO -----------------------------------------------------------------------------------------------------


def prio_targets(enemies: list[dict[str, object]], *, priority: bool = True, rules: list[str] | None = None) -> set[str]:
    state = state_of([model("A", 400, 400, special_rules=rules or [])], enemies, options={"melee_priority": priority})
    return attacks(ready(state, "Red", "A"))


def test_sb_prio_1_transfixed_counts_as_standing() -> None:
    """SB-PRIO-1: with the option on, a transfixed enemy counts as standing: A touching transfixed E1 (30) and fallen
    E2 (25) may attack E1 only."""
    enemies = [model("E1", 425, 400, points=30, state="transfixed"), model("E2", 375, 400, points=25, state="fallen")]
    assert prio_targets(enemies) == {"E1"}


def test_sb_prio_3_total_of_standing_points_per_fallen_enemy() -> None:
    """SB-PRIO-3: a fallen enemy may be chosen when all non-fallen enemies in contact together are worth no more than
    it: standing 20 + 20 = 40 against fallen 39 (no) and fallen 40 (yes), each compared on its own."""
    enemies = [
        model("S1", 425, 400, points=20), model("S2", 375, 400, points=20),
        model("F39", 400, 425, points=39, state="fallen"), model("F40", 400, 375, points=40, state="fallen"),
    ]
    assert prio_targets(enemies) == {"S1", "S2", "F40"}


def test_sb_prio_4_all_fallen_any_may_be_chosen() -> None:
    """SB-PRIO-4: when every enemy in contact is fallen, any of them may be attacked."""
    enemies = [model("F1", 425, 400, points=10, state="fallen"), model("F2", 375, 400, points=90, state="fallen")]
    assert prio_targets(enemies) == {"F1", "F2"}


def test_sb_prio_2_opportunistic_with_two_standing() -> None:
    """SB-PRIO-2: an Opportunistic model may always choose a fallen enemy."""
    enemies = [model("S1", 425, 400, points=50), model("F1", 375, 400, points=5, state="fallen")]
    assert prio_targets(enemies, rules=["opportunistic"]) == {"S1", "F1"}
    assert prio_targets(enemies) == {"S1"}


# --- SB-DIS ------------------------------------------------------------------------------------------------------


def leave(red: list[dict[str, object]], blue_b: dict[str, object], actions: int = 1) -> SobState:
    """Blue B activates and takes its first move option (a move out of contact)."""
    state = ready(state_of(red, [blue_b]), "Blue", "B", actions)
    return step(state, moves(state)[0])[0]


def test_sb_dis_2_sb_dis_8_each_active_enemy_hacks_outnumbering_fixed() -> None:
    """SB-DIS-2, SB-DIS-8, SB-OUT-2: a standing, a fallen and a transfixed enemy touch B; only the standing one hacks;
    B's penalty counts the fallen enemy but not the transfixed one (−1)."""
    red = [model("E1", 375, 400), model("E2", 400, 425, state="fallen"), model("E3", 400, 375, state="transfixed")]
    state = leave(red, model("B", 400, 400))
    top = state.pending[0]
    assert isinstance(top, sp.Disengaging) and top.hackers == ("E1",)
    node = chance(state, "free hack")
    assert top.setup.failed_morale is False
    # B: d6 + 3 − 1 defensively against E1: d6 + 3: the exact free-hack distribution of `melee`
    
    expected = melee(Melee(attacker_combat=3, defender_combat=3, free_hack=True, defender_enemies_in_contact=2))
    assert results(node) == expected


def test_sb_out_1_sb_dis_8_a_model_touched_by_twelve_counts_all_twelve() -> None:
    """SB-OUT-1, SB-DIS-8 (issue 8, no silent caps): twelve 20 mm Red models ring a gargantuan Blue G (80 mm base)
    at 30° steps; an attack on G puts it at −11 (all twelve count, not eight), and leaving would draw twelve hacks."""
    ring = [model(f"R{i}", round(450 + 50 * math.cos(math.radians(30 * i)), 3), round(450 + 50 * math.sin(math.radians(30 * i)), 3),
                  base_mm=20) for i in range(12)]
    state = state_of(ring, [model("G", 450, 450, size="gargantuan", combat=6)])
    assert len(enemies_in_contact(state.figures, state.get("G"))) == 12
    state = step(ready(state, "Red", "R0"), opt.Attack("G"))[0]
    roll = pending_roll(state).roll
    assert roll.defender_enemies_in_contact == 12 and roll.attacker_enemies_in_contact == 1
    assert results(chance(state, "combat roll")) == melee(roll)
    setup = disengage_setup(state, state.get("G"), failed_morale=False)
    assert setup is not None and len(setup.enemies) == 12


def test_sb_dis_4_mounted_leaver_hacked_only_by_mounted() -> None:
    """SB-DIS-4 (the seed's cavalry example): a mounted model touching a foot and a mounted enemy is hacked by the
    mounted one only; the foot model still counts for outnumbering."""
    red = [model("Foot", 375, 400, combat=4), model("Horse", 400, 425, mounted=True)]
    state = leave(red, model("B", 400, 400, mounted=True))
    top = state.pending[0]
    assert isinstance(top, sp.Disengaging) and top.hackers == ("Horse",)
    chance(state, "free hack")  # no order to choose with one hacker
    enemy = top.setup.enemies[top.positions.index("Horse")]
    from kessen.rulesets.song_of_blades.rules.disengaging import free_hack

    assert free_hack(top.setup, enemy).defender_enemies_in_contact == 2


def test_sb_dis_4_flying_leaver_free_against_non_flyers() -> None:
    """SB-DIS-4: a flying model leaving enemies that do not fly takes no hacks."""
    state = leave([model("E1", 375, 400), model("E2", 400, 425)], model("B", 400, 400, flying=True))
    assert nothing_pending(state) and state.figure("B") is not None and not at(state.get("B"), 400, 400)


def test_sb_dis_5_three_hackers_ordered_one_at_a_time() -> None:
    """SB-DIS-5: the leaving player orders the hacks: after the first is chosen, the next choice is among the rest."""
    red = [model("E1", 375, 400), model("E2", 400, 425), model("E3", 400, 375)]
    state = leave(red, model("B", 400, 400))
    first = decision(state, "hack order")
    assert first.player == "Blue" and set(first.options) == {opt.Hacker("E1"), opt.Hacker("E2"), opt.Hacker("E3")}
    state = step(state, opt.Hacker("E3"))[0]
    assert state.pending[0].hackers == ("E3",)  # type: ignore[union-attr]
    state = step(state, NOTHING)[0]
    second = decision(state, "hack order")
    assert set(second.options) == {opt.Hacker("E1"), opt.Hacker("E2")}
    state = step(state, opt.Hacker("E1"))[0]
    state = step(state, TIE)[0]
    assert state.pending[0].hackers == ("E2",)  # type: ignore[union-attr]
    state, events = step(state, NOTHING)
    assert nothing_pending(state) and "moved" in types(events)


def test_sb_dis_6_kill_ends_the_sequence() -> None:
    """SB-DIS-6: a kill ends the sequence: the leaver is removed and the later enemies never hack."""
    state = leave([model("E1", 375, 400), model("E2", 400, 425)], model("B", 400, 400))
    state = step(state, opt.Hacker("E2"))[0]
    state, events = step(state, KILL)
    assert state.figure("B") is None and types(events).count("combat_roll") == 1
    assert not any(isinstance(p, sp.Disengaging) for p in state.pending)


def flee_setup(f_state: str = "standing") -> SobState:
    """Red A gruesomely kills Blue B; Blue F (within Long of B) touches Red E and must test morale."""
    red = [model("A", 275, 300, combat=4), model("E", 300, 475, combat=3)]
    blue = [model("B", 300, 300, combat=2), model("F", 300, 450, combat=2, state=f_state)]
    state = ready(state_of(red, blue), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    state = step(state, GRUESOME)[0]
    chance(state, "morale test")
    return state


def test_sb_dis_7_sb_mor_3_fleeing_model_takes_lethal_hacks() -> None:
    """SB-DIS-7, SB-MOR-3, SB-MOVE-4: F fails its morale test while touching standing E: it first disengages and E's
    free hack is lethal (any win kills: EX-12's E C3 against F C2 alone: kill 7/12 … here a one-enemy case)."""
    state, _ = step(flee_setup(), MoraleOutcome(1, "flees", 1))
    node = chance(state, "free hack")
    top = state.pending[0]
    assert isinstance(top, sp.Disengaging) and top.setup.failed_morale and top.then is None and top.flee_moves == 1
    # E: d6 + 3 against F: d6 + 2 defensive; every E win is a kill or gruesome kill (lethal), never a fall or recoil
    assert results(node).probability(lambda o: o.result in ("fall", "recoil")) == 0
    assert results(node).probability(lambda o: o.winner == "attacker") == F(21, 36)  # P(d6 + 1 > d6') = 21/36
    assert results(node).probability(KILL) > 0
    dead, _ = step(state, KILL)
    assert dead.figure("F") is None
    fled, events = step(state, TIE)
    assert types(events) == ["combat_roll", "disengaged", "fled"]
    assert at(fled.get("F"), 300, 330)  # straight away from the nearest enemy, E (25 mm), one Medium move south


def test_sb_down_8_sb_down_3_fallen_model_that_fails_morale_is_not_hacked() -> None:
    """SB-DOWN-8, SB-DOWN-3, SB-MOVE-1: a fallen model that fails its morale test cannot move, so it neither flees nor
    disengages, and no free hack is made on it (free hacks are only on standing models). [DECISION: it stays where it
    is, still fallen.]"""
    state, events = step(flee_setup("fallen"), MoraleOutcome(2, "flees", 2))
    assert not any(isinstance(p, sp.Disengaging) for p in state.pending)
    assert at(state.get("F"), 300, 450) and state.get("F").state == "fallen"
    assert "fled" not in types(events)


# --- SB-MOR ------------------------------------------------------------------------------------------------------


def flee_in_open() -> SobState:
    red = [model("A", 275, 300, combat=4), model("E", 100, 700)]
    blue = [model("B", 300, 300, combat=2), model("F", 300, 450)]
    state = ready(state_of(red, blue), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    return step(state, GRUESOME)[0]


@pytest.mark.parametrize(("outcome", "distance"), [(MoraleOutcome(1, "flees", 1), 120.0), (MoraleOutcome(2, "flees", 2), 240.0)])
def test_sb_mor_2_sb_move_4_flee_moves_straight_away_from_nearest(outcome: MoraleOutcome, distance: float) -> None:
    """SB-MOR-2, SB-MOVE-4: 1 failure flees one Medium move (120 mm), 2 failures two (240 mm), in a straight line
    directly away from the nearest enemy (A at (275, 300), centre to centre)."""
    state, events = step(flee_in_open(), outcome)
    f = state.get("F")
    away = ((300 - 275), (450 - 300))
    norm = math.hypot(*away)
    assert at(f, 300 + away[0] / norm * distance, 450 + away[1] / norm * distance)
    assert types(events) == ["morale_test", "fled"]


def test_sb_mor_2_stands_and_destroyed() -> None:
    """SB-MOR-2: 0 failures: the model stands where it is; 3 failures: it is destroyed (removed, a casualty)."""
    stood, _ = step(flee_in_open(), MoraleOutcome(0, "stands", 0))
    assert at(stood.get("F"), 300, 450)
    gone, events = step(flee_in_open(), MoraleOutcome(3, "destroyed", 0))
    assert gone.figure("F") is None and gone.casualties[-1].how == "destroyed"


def test_sb_mor_1_sb_turn_2_only_gruesome_kills_trigger_tests() -> None:
    """SB-MOR-1, SB-TURN-2: losing half the warband to ordinary kills triggers no morale test in games."""
    red = [model("A", 275, 300, combat=4)]
    blue = [model("B", 300, 300, combat=2), model("F", 300, 340)]
    state = ready(state_of(red, blue), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    state, events = step(state, KILL)
    assert "morale_test" not in types(events) and not any(isinstance(p, sp.MoraleTest) for p in state.pending)


def test_sb_move_4_flight_off_the_table_is_a_casualty() -> None:
    """SB-MOVE-4: a flight whose path leaves the table takes the model out of the game as a casualty (fled)."""
    red = [model("A", 275, 820, combat=4)]
    blue = [model("B", 300, 820, combat=2), model("F", 300, 860)]
    state = ready(state_of(red, blue), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    state = step(state, GRUESOME)[0]
    state, events = step(state, MoraleOutcome(1, "flees", 1))
    assert state.figure("F") is None or state.ended
    assert ("removed", "fled") in [(e.type, getattr(e, "how", None)) for e in events]


# --- SB-DOWN -----------------------------------------------------------------------------------------------------


def test_sb_down_1_sb_down_4_attack_on_fallen_is_lethal_plus_two() -> None:
    """SB-DOWN-1, SB-DOWN-4, SB-MOD-1: a fallen defender gives the attacker +2 and a lethal win, but it is an ordinary
    attack: the fallen defender can still win and hurt the attacker (EX-2: C4 against fallen C2)."""
    state = ready(state_of([model("A", 100, 100, combat=4)], [model("B", 125, 100, combat=2, state="fallen")]), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    dist = results(chance(state, "combat roll"))
    assert dist.probability(MeleeOutcome("attacker", "kill", "defender")) == F(7, 9)
    assert dist.probability(MeleeOutcome("attacker", "gruesome_kill", "defender")) == F(5, 36)
    assert dist.probability(lambda o: o.affected == "attacker") == F(1, 36)


def test_sb_down_7_transfixed_breaks_free_with_two_actions() -> None:
    """SB-DOWN-7, SB-ACTION-1: a transfixed model cannot move or attack; breaking free costs 2 actions."""
    base = state_of([model("A", 100, 100, state="transfixed")], [model("B", 125, 100)])
    one = ready(base, "Red", "A", 1)
    assert one.current is None and one.turn.active == "Blue"  # nothing it may do with one action: the activation ends
    two = ready(base, "Red", "A", 2)
    assert decision(two, "move").options == (opt.BreakFree(), opt.EndActivation())
    freed, events = step(two, opt.BreakFree())
    assert freed.get("A").state == "standing" and types(events)[0] == "broke_free"
    assert freed.current is None or freed.current.actions == 0


def test_sb_down_6_transfixed_defender_rolls_defensively() -> None:
    """SB-DOWN-6, SB-OUT-2: a transfixed defender's win does nothing; it is not counted for the attacker's
    outnumbering (EX-3: C3 against transfixed C5: kill 5/12, defensive win 5/12, tie 1/6)."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100, combat=5, state="transfixed")]), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    roll = pending_roll(state).roll
    assert roll.attacker_transfixed_in_contact == 1 and roll.defender_state == "transfixed"
    dist = results(chance(state, "combat roll"))
    assert dist.probabilities() == {
        MeleeOutcome("attacker", "kill", "defender"): F(5, 12),
        MeleeOutcome("defender", "nothing", "none"): F(5, 12),
        MeleeOutcome("none", "nothing", "none"): F(1, 6),
    }


# --- SB-ACT, SB-ACTION -----------------------------------------------------------------------------------------------


def two_a_side() -> SobState:
    return state_of([model("A1", 100, 100), model("A2", 100, 300, quality=3)], [model("B1", 800, 800), model("B2", 800, 600)])


def test_sb_act_1_activation_dice_and_roll() -> None:
    """SB-ACT-1: the active player picks a model and 1, 2 or 3 dice; the roll is the activation procedure."""
    state = turn_of(two_a_side(), "Red")
    node = decision(state, "activation")
    assert node.player == "Red"
    assert set(node.options) == {opt.Activate(m, n) for m in ("A1", "A2") for n in (1, 2, 3)} | {opt.EndTurn()}
    state = step(state, opt.Activate("A2", 3))[0]
    assert results(chance(state, "activation roll")) == activation(3, 3)


def test_sb_act_2_sb_act_3_no_turnover_next_model_then_turn_passes() -> None:
    """SB-ACT-2, SB-ACT-3: with 0 or 1 failure the player activates another model; a model activates once a turn;
    after every model has been activated the turn passes."""
    state = turn_of(two_a_side(), "Red")
    state = activated(state, "A1", 1, dice=2)  # 1 success, 1 failure: no turnover
    state = step(state, opt.EndActivation())[0]
    node = decision(state, "activation")
    assert node.player == "Red" and {o.model for o in node.options if isinstance(o, opt.Activate)} == {"A2"}
    state = activated(state, "A2", 1)
    state, events = step(state, opt.EndActivation())
    assert state.turn.active == "Blue" and ("turn_started") in types(events)


def test_sb_act_2_turnover_after_the_actions_are_spent() -> None:
    """SB-ACT-2: two failures: the model still spends its success, then the turn passes to the opponent."""
    state = turn_of(two_a_side(), "Red")
    state = step(state, opt.Activate("A1", 3))[0]
    state = step(state, ActivationOutcome(1, 2, True))[0]
    assert state.turn.active == "Red" and decision(state, "move").player == "Red"
    state, events = step(state, moves(state)[0])
    assert types(events) == ["moved", "turnover", "turn_started"]
    assert state.turn.active == "Blue" and state.turn.round == 1


def test_sb_act_2_zero_actions_turnover_at_once() -> None:
    """SB-ACT-2: three failures: no action and an immediate turnover."""
    state = turn_of(two_a_side(), "Red")
    state = step(state, opt.Activate("A1", 3))[0]
    state, events = step(state, ActivationOutcome(0, 3, True))
    assert types(events) == ["activation", "turnover", "turn_started"] and state.turn.active == "Blue"


def test_sb_action_1_costs_move_one_attack_one_stand_up_one() -> None:
    """SB-ACTION-1: a move costs 1 action, an attack 1, standing up 1."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 400, 100)]), "Red", "A", 3)
    state = step(state, moves(state)[0])[0]
    assert state.current is not None and state.current.actions == 2
    fallen = ready(state_of([model("A", 100, 100, state="fallen")], [model("B", 125, 100)]), "Red", "A", 3)
    fallen = step(fallen, opt.StandUp())[0]
    assert fallen.current is not None and fallen.current.actions == 2
    fallen = step(fallen, opt.Attack("B"))[0]
    assert fallen.current is not None and fallen.current.actions == 1


def test_sb_action_1_disengaging_is_the_move_one_action() -> None:
    """SB-ACTION-1 [DECISION]: disengaging is the move that leaves contact and costs 1 action."""
    state = ready(state_of([model("A", 100, 100, state="fallen")], [model("B", 125, 100)]), "Blue", "B", 2)
    state = step(state, moves(state)[0])[0]
    assert state.current is not None and state.current.actions == 1


def test_sb_action_2_one_attack_per_activation() -> None:
    """SB-ACTION-2: after one attack (a tie), a model with actions left may not attack again this activation."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Red", "A", 3)
    state = step(state, opt.Attack("B"))[0]
    state = step(state, TIE)[0]
    assert state.current is not None and state.current.actions == 2
    assert attacks(state) == set()


# --- SB-MOVE -----------------------------------------------------------------------------------------------------


def test_sb_move_1_sb_move_2_charge_within_move_length() -> None:
    """SB-MOVE-1, SB-MOVE-2: one move is a straight line of at most the move length (Medium 120 mm on foot, Long
    180 mm mounted); a charge ends in base contact (gap 0) with its target."""
    foot = ready(state_of([model("A", 100, 100)], [model("B", 245, 100), model("C", 100, 246)]), "Red", "A")
    charges = {m.toward: m for m in moves(foot) if m.purpose == "charge"}
    assert set(charges) == {"B"}  # B 120 mm edge to edge, C 121 mm
    assert (charges["B"].x, charges["B"].y) == (220.0, 100.0)
    rider = ready(state_of([model("A", 100, 100, mounted=True)], [model("C", 100, 305)]), "Red", "A")
    charge = next(m for m in moves(rider) if m.purpose == "charge")
    assert (charge.x, charge.y) == (100.0, 280.0)
    for m in moves(rider):
        assert math.dist((m.x, m.y), (100, 100)) <= 180.0 + 1e-6


def test_sb_move_2_no_move_through_a_model_or_impassable_or_drop() -> None:
    """SB-MOVE-2: a straight move's swept base may not overlap a model or impassable terrain and its path may not meet
    a drop area: a friend on the line blocks the charge."""
    state = ready(state_of([model("A", 100, 100), model("R", 160, 100)], [model("B", 220, 100)]), "Red", "A")
    assert not any(m.purpose == "charge" for m in moves(state))
    walled = ready(state_of([model("A", 100, 100)], [model("B", 220, 100)], impassable=[[150.0, 90.0, 160.0, 110.0]]), "Red", "A")
    assert not any(m.purpose == "charge" for m in moves(walled))
    chasm = ready(state_of([model("A", 100, 100)], [model("B", 220, 100)], drop_areas=[{"rect": [150.0, 0.0, 160.0, 900.0], "drop_mm": 10}]), "Red", "A")
    assert not any(m.purpose == "charge" for m in moves(chasm))


def test_sb_move_3_move_from_contact_must_end_out_of_contact() -> None:
    """SB-MOVE-3: a model in contact may only make moves that end out of contact with all of them."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Blue", "B", 2)
    for m in moves(state):
        assert math.dist((m.x, m.y), (100, 100)) > 26.0


def test_sb_move_1_sb_down_3_fallen_cannot_move_or_disengage() -> None:
    """SB-MOVE-1, SB-DOWN-3: a fallen model has no move option (so it cannot disengage) but may attack and stand up."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100, state="fallen")]), "Blue", "B", 2)
    options = decision(state, "move").options
    assert not any(isinstance(o, opt.Move) for o in options)
    assert opt.Attack("A") in options and opt.StandUp() in options


# --- SB-TERR -----------------------------------------------------------------------------------------------------


def test_sb_terr_1_high_ground_for_the_higher_attacker() -> None:
    """SB-TERR-1, SB-MOD-5b: an attacker whose centre stands on higher ground than the defender's gets +1."""
    hill = [{"rect": [0.0, 0.0, 112.0, 900.0], "height_mm": 30}]
    up = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], high_ground=hill), "Red", "A")
    assert pending_roll(step(up, opt.Attack("B"))[0]).roll.attacker_high_ground
    down = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], high_ground=hill), "Blue", "B")
    assert not pending_roll(step(down, opt.Attack("A"))[0]).roll.attacker_high_ground
    both = [{"rect": [0.0, 0.0, 200.0, 900.0], "height_mm": 30}]
    level = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], high_ground=both), "Red", "A")
    assert not pending_roll(step(level, opt.Attack("B"))[0]).roll.attacker_high_ground


def test_sb_terr_2_ambush_from_cover_first_attack_only() -> None:
    """SB-TERR-2, SB-MOD-3: a model in cover at the start of its turn ambushes a target outside that cover: +1."""
    cover = [[0.0, 0.0, 112.0, 900.0]]
    hidden = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], cover=cover), "Red", "A")
    state, events = step(hidden, opt.Attack("B"))
    assert pending_roll(state).roll.ambush and getattr(events[0], "ambush") is True
    inside = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], cover=[[0.0, 0.0, 200.0, 900.0]]), "Red", "A")
    assert not pending_roll(step(inside, opt.Attack("B"))[0]).roll.ambush
    open_ground = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Red", "A")
    assert not pending_roll(step(open_ground, opt.Attack("B"))[0]).roll.ambush


def test_sb_terr_3_obstacle_between_centres_helps_the_defender() -> None:
    """SB-TERR-3, SB-MOD-5a: the defender gets +1 when the segment between the centres crosses an obstacle."""
    hedge = [[112.5, 0.0, 112.5, 900.0]]
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], obstacles=hedge), "Red", "A")
    assert pending_roll(step(state, opt.Attack("B"))[0]).roll.defender_obstacle
    aside = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], obstacles=[[112.5, 200.0, 112.5, 900.0]]), "Red", "A")
    assert not pending_roll(step(aside, opt.Attack("B"))[0]).roll.defender_obstacle


# --- SB-TURN -----------------------------------------------------------------------------------------------------


def test_sb_turn_1_roll_off_even_and_order_kept() -> None:
    """SB-TURN-1: the roll-off gives each side the first turn with probability 1/2 (ties re-rolled); the first player
    stays first every round."""
    state = state_of([model("A", 100, 100)], [model("B", 800, 800)], turns=3)
    node = chance(state, "roll-off")
    assert results(node).probabilities() == {"Red": F(1, 2), "Blue": F(1, 2)}
    # the roll that decides: 30 equally likely pairs of different faces; the report gives both dice
    assert len(node.dist) == 30 and all(o.first_die != o.second_die for o in node.dist.outcomes())
    _, events = step(state, RollOffDice(2, 5))
    assert events[0] == ev.RollOff(first="Blue", first_die=5, side="Red", side_die=2)
    state = turn_of(state, "Blue")
    seen = []
    while not isinstance(g.GAME.node(state), Terminal):
        seen.append((state.turn.round, state.turn.active))
        state = step(state, opt.EndTurn())[0]
    assert seen == [(1, "Blue"), (1, "Red"), (2, "Blue"), (2, "Red"), (3, "Blue"), (3, "Red")]


def test_sb_turn_4_last_round_draw_on_equal_fractions() -> None:
    """SB-TURN-4: after the last round with no casualties (0 of each side's points lost) the game is a draw."""
    state = turn_of(state_of([model("A", 100, 100)], [model("B", 800, 800)], turns=1), "Red")
    state, events = play(state, opt.EndTurn(), opt.EndTurn())
    end = g.GAME.node(state)
    assert isinstance(end, Terminal) and end.winner is None
    assert events[-3:] == [
        ev.PointsLost(side="Red", models=0, points=0, starting_points=30),
        ev.PointsLost(side="Blue", models=0, points=0, starting_points=30),
        ev.GameEnded(side="", result="drawn"),
    ]


def test_sb_turn_4_side_wiped_out_ends_at_once() -> None:
    """SB-TURN-4: the game ends at once when one side has no model left; the other side wins."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], turns=5), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    state, events = step(state, KILL)
    end = g.GAME.node(state)
    assert isinstance(end, Terminal) and end.winner == "Red" and state.turn.round == 1
    assert list(events[-3:]) == [
        ev.PointsLost(side="Red", models=0, points=0, starting_points=30),
        ev.PointsLost(side="Blue", models=1, points=30, starting_points=30),
        ev.GameEnded(side="Red", result="won"),
    ]
    assert end.summary == {"rounds": 1, "casualties": {"Red": 0, "Blue": 1}, "survivors": {"Red": 1, "Blue": 0},
                           "points_lost": {"Red": 0, "Blue": 30}, "starting_points": {"Red": 30, "Blue": 30}}


def test_sb_turn_4_smaller_fraction_of_points_lost_wins() -> None:
    """SB-TURN-4: the side that lost the smaller fraction of its starting points wins: Red loses 30 of 90 (1/3),
    Blue 20 of 50 (2/5): Red wins although it lost more points."""
    red = [model("A", 100, 100, points=30), model("A2", 100, 300, points=60)]
    blue = [model("B", 125, 100, points=20), model("B2", 800, 800, points=30)]
    state = turn_of(state_of(red, blue, turns=1), "Red")
    state = activated(state, "A", 1)
    state = step(state, opt.Attack("B"))[0]
    state = step(state, KILL)[0]  # Blue loses 20/50
    state = step(state, opt.EndTurn())[0]
    state = replace(state, casualties=state.casualties + (st.Casualty("A2", "Red", 30, "test"),))  # Red 30/90
    state, _ = step(state, opt.EndTurn())
    end = g.GAME.node(state)
    assert isinstance(end, Terminal) and end.winner == "Red"
    # 45/90 = 1/2 > 2/5: Blue would win
    worse = replace(state, casualties=state.casualties + (st.Casualty("X", "Red", 15, "test"),))
    assert winner(worse) == "Blue"
    # 20/50 against 36/90: equal fractions, a draw
    equal = replace(state, casualties=(st.Casualty("B", "Blue", 20, "kill"), st.Casualty("X", "Red", 36, "test")))
    assert winner(equal) is None


def test_sb_turn_3_every_choice_asked_of_its_player() -> None:
    """SB-TURN-3: the recoil candidate is the loser's player's decision, the follow-up the winner's."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)], options={"follow_up": True}), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    state = step(state, MeleeOutcome("attacker", "recoil", "defender"))[0]
    assert decision(state, "recoil").player == "Blue"
    state = step(state, decision(state, "recoil").options[0])[0]
    assert decision(state, "follow-up").player == "Red"


def test_sb_dis_input_shape_matches_the_procedure() -> None:
    """SB-DIS-8, §6.2: the engine's disengagement set-up is a valid `disengage` input listing every enemy in contact."""
    red = [model("E1", 375, 400, combat=2), model("E2", 400, 425, combat=4)]
    state = leave(red, model("B", 400, 400))
    top = state.pending[0]
    assert isinstance(top, sp.Disengaging)
    assert top.setup == Disengage(combat=3, enemies=(HackingEnemy(combat=2), HackingEnemy(combat=4)))


@pytest.mark.parametrize(("drop_mm", "killed"), [(200, True), (30, False)])
def test_sb_move_4_sb_fall_1_flight_over_a_drop_edge(drop_mm: int, killed: bool) -> None:
    """SB-MOVE-4, SB-FALL-1: a flight whose path meets a drop area goes over at the first point it enters: F flees
    from (300, 450) away from A (275, 300) and enters the drop at E = (308.33, 500); 200 mm kills it, 30 mm leaves it
    fallen at E + r·u = (310.39, 512.33)."""
    red = [model("A", 275, 300, combat=4), model("E", 800, 100)]
    blue = [model("B", 300, 300, combat=2), model("F", 300, 450)]
    state = ready(state_of(red, blue, drop_areas=[{"rect": [0.0, 500.0, 900.0, 900.0], "drop_mm": drop_mm}]), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    state = step(state, GRUESOME)[0]
    state, events = step(state, MoraleOutcome(1, "flees", 1))
    fled = next(e for e in events if e.type == "fled")
    assert (fled.x, fled.y) == pytest.approx((300 + 50 / 6, 500.0), abs=0.01)  # type: ignore[attr-defined]
    if killed:
        assert state.figure("F") is None and state.casualties[-1].how == "falling"
    else:
        u = (25 / math.hypot(25, 150), 150 / math.hypot(25, 150))
        assert at(state.get("F"), 300 + 50 / 6 + 12.5 * u[0], 500 + 12.5 * u[1]) and state.get("F").state == "fallen"
