"""The battlehost AIs on issue 23 §2's positions: the way round a wall, riders charging the troll together, the
tactics the search asks (candidates, evaluation) and a search decision on a fixed position."""

from __future__ import annotations

import math

from bh_referee_support import GAME, decision, model, node, started, state_of, step, to_phase

from kessen.ai.search import Budget, SearchAI
from kessen.core.records import evolve
from kessen.rulesets.battlehost.ai import BattlehostAI, BattlehostTactics
from kessen.rulesets.battlehost.ai.evaluation import evaluate
from kessen.rulesets.battlehost.ai.tactics import coin_tosses
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.battlefield import enemies_in_contact, radius
from kessen.rulesets.battlehost.referee.moves import ways_round
from kessen.rulesets.battlehost.referee.paths import corners_toward
from kessen.rulesets.battlehost.referee import state as st

WALL = {"terrain": [[0.0, 22.0, 22.0, 24.0], [24.0, 22.0, 48.0, 24.0]]}  # doorway.toml's wall, its 2" door at x 22..24
CAPTAIN = {"type": "hero", "fight": 5, "strength": 4, "defence": 6, "attacks": 2, "wounds": 3, "might": 3}
TROLL = {"fight": 6, "strength": 6, "defence": 6, "attacks": 3, "wounds": 3, "base_mm": 60, "two_handed": True}
RIDER = {"fight": 3, "defence": 5}


def test_bh_geo_7_the_shortest_way_round_a_wall_goes_through_the_door() -> None:
    """BH-GEO-7: from below the wall, the way to a model beyond it starts at the near corner of the door; with the
    straight way open there is none."""
    state = state_of([model("Captain", 25, 25, **CAPTAIN)], [model("Orc", 28, 18)], **WALL)
    orc, captain = state.get("Orc"), state.get("Captain")
    corners = corners_toward(orc.r, orc.centre, captain.centre, state.board)
    assert 23 < corners[0].x < 24 and corners[0].y < 22  # below the door, by the east jamb
    assert corners_toward(orc.r, orc.centre, orc.centre + (captain.centre - orc.centre).scaled(0.1), state.board) == ()


def test_bh_move_2_greedy_orcs_walled_off_take_the_way_through_the_door() -> None:
    """BH-MOVE-2, issue 23 §2 (doorway with deployment swapped: orcs stood at the wall 1" from an open door for 12
    turns): an orc against the wall has no straight advance, is offered a move round the wall, and greedy takes
    it, ending nearer the door."""
    state = started(state_of([model("Captain", 25, 25, **CAPTAIN)], [model("Orc", 26.5, 21.49)], **WALL), "evil")
    while node(state).player == "good":
        state, _ = step(state, op.EndMoves())
    ask = decision(state, "move")
    assert not any(isinstance(o, op.MoveTo) for o in ask.options[: ask.options.index(op.EndMoves())])
    ways = ways_round(state, "evil")
    assert len(ways) == 1 and ways[0] in ask.options
    choice = BattlehostAI("evil").decide(state, ask)
    assert choice == ways[0]
    door = (23.0, 23.0)
    assert math.dist((choice.x, choice.y), door) < math.dist((26.5, 21.49), door) - 2


MONSTER_TROLL = {**TROLL, "attacks": 2, "wounds": 2}  # monster.toml's troll as balanced for greedy (now Wounds 3)


def riders_and_troll(troll: dict[str, object] = TROLL) -> list[list[dict[str, object]]]:
    riders = [model(f"R{i}", 12 + 3 * i, 15, **RIDER) for i in range(5)]
    return [riders, [model("Troll", 18, 19.5, **troll)]]


def riders_charging(troll: dict[str, object], *, ahead: bool = False) -> list[str]:
    """The riders greedy charges at the troll in one Move phase of the riders (*ahead*: an orc of the troll's side
    already slain)."""
    good, evil = riders_and_troll(troll)
    state = started(state_of(good, evil), "good")
    if ahead:
        state = evolve(state, start=(5, 2), casualties=(("Orc", "evil"),))
    charged = []
    while node(state).kind == "move" and node(state).player == "good":
        choice = BattlehostAI("good").decide(state, decision(state, "move"))
        if isinstance(choice, op.MoveTo) and choice.charge == "Troll":
            charged.append(choice.model)
        state, _ = step(state, choice)
    return charged


def test_bh_move_5_greedy_riders_charge_the_troll_together() -> None:
    """BH-MOVE-5, BH-FIGHT-1, issue 23 §2 (monster: riders fed to the troll one at a time, 374 of 438 fights): one
    rider alone loses to monster's troll more of its side than it takes of the troll's, five together take more,
    so the first rider charges and others pile into its fight rather than advance beside it."""
    assert len(riders_charging(MONSTER_TROLL)) >= 3  # as many as find room and reach


def test_bh_turn_3_issue_23_greedy_riders_ahead_keep_off_a_troll_they_cannot_hurt_enough() -> None:
    """BH-TURN-3, issue 23 §5: against a troll of three Attacks and three Wounds, five riders together are expected
    to lose more of their side (0.84 wounds of five riders) than they take of the troll's (0.36 of its three
    Wounds), so riders ahead on casualties keep their lead and do not charge it; level, they must fight to win, and
    do; against monster's troll (two Wounds), five riders gain, and charge even when ahead."""
    assert riders_charging(TROLL, ahead=True) == []
    assert len(riders_charging(TROLL)) >= 3
    assert len(riders_charging(MONSTER_TROLL, ahead=True)) >= 3


def test_bh_move_5_issue23_search_riders_charge_the_troll_together() -> None:
    """BH-MOVE-5, BH-FIGHT-1, issue 23 §2/§5 (monster, measured on 5 December: "search's riders do not close in"):
    five riders abreast 4.5" from monster's troll, the troll's moves ended; at each move of the riders' phase the
    search decides at its default budget, on two seeds: three riders charge the troll, one after another into the
    same fight (the two on the wings have no straight way left to its base), and none makes a lone charge."""
    riders, troll = riders_and_troll(MONSTER_TROLL)
    tactics = BattlehostTactics()
    for seed in (1, 2):
        state = started(state_of(riders, troll), "evil")
        state, _ = step(state, op.EndMoves())
        charged = []
        while node(state).kind == "move" and node(state).player == "good":
            choice = SearchAI(GAME, tactics, "good", tactics.budget, seed).decide(state, decision(state, "move"))
            if isinstance(choice, op.MoveTo) and choice.charge == "Troll":
                charged.append(choice.model)
            state, _ = step(state, choice)
        assert len(charged) == 3, (seed, charged)
        in_contact = [m.id for m in enemies_in_contact(state.models, state.get("Troll"))]
        assert sorted(in_contact) == sorted(charged)


def test_bh_turn_3_evaluation_counts_models_lost_wounds_and_joined_fights() -> None:
    """BH-TURN-3: a position is worth the enemy's fraction of models lost less one's own; a troll wounded counts in
    part; zero-sum; a rider alone in contact with the troll is a fight the riders expect to lose."""
    good, evil = riders_and_troll()
    state = state_of(good, evil)
    assert evaluate(state, "good") == 0.0
    lost = evolve(state, casualties=(("R9", "good"),))
    assert evaluate(lost, "good") == -1 / 5 == -evaluate(lost, "evil")
    hurt = evolve(state, models=tuple(evolve(m, wounds_left=2) if m.id == "Troll" else m for m in state.models))
    assert evaluate(hurt, "good") == 1 / 4
    touching = 19.5 - radius(25) - radius(60)
    engaged = evolve(state, models=tuple(evolve(m, x=18.0, y=touching) if m.id == "R2" else m for m in state.models))
    assert evaluate(engaged, "good") < 0 < evaluate(engaged, "evil")


def test_bh_tactics_candidates_put_greedy_first_and_a_search_decides_within_its_budget() -> None:
    """Issue 23 §2: the search weighs greedy's choice first among at most *limit* suggested options; on a fixed
    position it plays one of them, the same each time."""
    good, evil = riders_and_troll()
    state = started(state_of(good, evil), "good")
    ask = decision(state, "move")
    found = BattlehostTactics().candidates(state, ask, 5)
    assert found[0] == BattlehostAI("good").decide(state, ask)
    assert len(found) == 5 and len(set(found)) == 5 and all(o in ask.options for o in found)
    search = SearchAI(GAME, BattlehostTactics(), "good", Budget(nodes=150))
    choice = search.decide(state, ask)
    assert choice in ask.options and choice == SearchAI(GAME, BattlehostTactics(), "good", Budget(nodes=150)).decide(state, ask)


def lone_warriors(*, behind_by: int = 0) -> st.BhState:
    """Ten like warriors a side (F3 S3 D4, one Wound each), one of each 4" apart in the open, the others far off;
    evil moved first and ended its moves, so good's warrior may charge with no enemy to move after it (*behind_by*:
    good models already slain)."""
    good = [model("G0", 10, 10)] + [model(f"G{i}", 3 + 2.5 * i, 2) for i in range(1, 10)]
    evil = [model("E0", 10, 15)] + [model(f"E{i}", 3 + 2.5 * i, 28) for i in range(1, 10)]
    state = started(state_of(good, evil, board={"width": 30.0, "height": 30.0}), "evil")
    state, _ = step(state, op.EndMoves())
    if behind_by:
        state = evolve(state, casualties=tuple((f"X{i}", "good") for i in range(behind_by)))
    return state


def test_bh_turn_3_issue_23_evaluation_counts_both_sides_joined_fights_at_their_worth() -> None:
    """BH-TURN-3, BH-PROC-5, issue 23 §5: a 1-vs-1 fight of like warriors (each side loses a model with chance 1/6,
    counted in half) is worth nothing to either side of ten, level or behind (zero-sum, no caution: the coin tosses
    are left out of the candidates instead); two against one gains."""
    state = lone_warriors()
    assert evaluate(state, "good") == 0.0 == evaluate(state, "evil")
    touching = 15 - 2 * radius(25)
    one = evolve(state, models=tuple(evolve(m, y=touching) if m.id == "G0" else m for m in state.models))
    assert math.isclose(evaluate(one, "good"), 0.0, abs_tol=1e-12) and math.isclose(evaluate(one, "evil"), 0.0, abs_tol=1e-12)
    two = evolve(one, models=tuple(evolve(m, x=10 + 2 * radius(25), y=15.0) if m.id == "G1" else m for m in one.models))
    assert evaluate(two, "good") > 0 > evaluate(two, "evil")
    assert math.isclose(evaluate(two, "good"), -evaluate(two, "evil"))
    behind = evolve(one, casualties=(("X0", "good"),))
    assert math.isclose(evaluate(behind, "good"), -1 / 10) and math.isclose(evaluate(behind, "evil"), 1 / 10)


def test_bh_turn_3_issue_23_search_level_does_not_lead_with_a_lone_coin_toss_charge() -> None:
    """BH-TURN-3, issue 23 §5 (search lost to ``random`` on Broken ground in lone 1-vs-1 charges): level, greedy
    charges the like warrior 4" off (an even fight, above its threshold); the search weighs greedy's choice without
    that coin toss and does not weigh the charge at all, on any seed; behind, it must fight to win, and leads with the
    charge."""
    state = lone_warriors()
    ask = decision(state, "move")
    charge = BattlehostAI("good").decide(state, ask)
    assert isinstance(charge, op.MoveTo) and charge.charge == "E0"
    assert coin_tosses(state, ask) == [charge]
    found = BattlehostTactics().candidates(state, ask, 4)
    assert charge not in found and len(found) == 4
    for seed in (1, 2, 3):
        choice = SearchAI(GAME, BattlehostTactics(), "good", BattlehostTactics().budget, seed).decide(state, ask)
        assert not (isinstance(choice, op.MoveTo) and choice.charge is not None)
    behind = lone_warriors(behind_by=1)
    assert coin_tosses(behind, decision(behind, "move")) == []
    assert BattlehostTactics().candidates(behind, decision(behind, "move"), 4)[0] == charge


def lone_warriors_at_a_wall(*, ahead_by: int = 0) -> st.BhState:
    """:func:`lone_warriors` with a wall just behind evil's near warrior, so that it could not back away from good's
    charger if it lost (BH-BACK-4: trapped, struck twice); *ahead_by*: evil models already slain."""
    r = radius(25)
    good = [model("G0", 10, 10)] + [model(f"G{i}", 3 + 2.5 * i, 2) for i in range(1, 10)]
    evil = [model("E0", 10, 15)] + [model(f"E{i}", 3 + 2.5 * i, 28) for i in range(1, 10)]
    board = {"width": 30.0, "height": 30.0}
    state = started(state_of(good, evil, board=board, terrain=[[7.0, 15 + r + 0.05, 13.0, 17.0]]), "evil")
    state, _ = step(state, op.EndMoves())
    if ahead_by:
        state = evolve(state, casualties=tuple((f"X{i}", "evil") for i in range(ahead_by)))
    return state


def test_bh_turn_3_issue_23_search_ahead_does_not_stake_its_lead_on_a_lone_charge_at_a_trapped_warrior() -> None:
    """BH-TURN-3, BH-BACK-4, issue 23 §5 (search lost to ``random`` on Broken ground in lone charges it led with while
    ahead, at like models against a wall): the charge takes about 0.28 of a model for 0.17 lost. Level, it is no coin
    toss (a quarter's caution); ahead, greedy still makes it (it gains a tenth of a model), but the search weighs its
    own losses double and leaves it out of its candidates. Ahead by two models, a lost fight would not cost it the
    lead: the charge is weighed as level."""
    level = lone_warriors_at_a_wall()
    ask = decision(level, "move")
    charge = BattlehostAI("good").decide(level, ask)
    assert isinstance(charge, op.MoveTo) and charge.charge == "E0"
    assert coin_tosses(level, ask) == []
    assert BattlehostTactics().candidates(level, ask, 4)[0] == charge
    ahead = lone_warriors_at_a_wall(ahead_by=1)
    ask = decision(ahead, "move")
    assert BattlehostAI("good").decide(ahead, ask) == charge
    assert coin_tosses(ahead, ask) == [charge]
    assert charge not in BattlehostTactics().candidates(ahead, ask, 4)
    well_ahead = lone_warriors_at_a_wall(ahead_by=2)
    ask = decision(well_ahead, "move")
    assert coin_tosses(well_ahead, ask) == []
    assert BattlehostTactics().candidates(well_ahead, ask, 4)[0] == charge


GONDOR = {"fight": "3/4+", "defence": 5}  # line-fight's Warrior of Minas Tirith; the orcs are the default warrior


def line_fight_pair(priority: str) -> st.BhState:
    """Ten of Gondor against fourteen orcs (line-fight's sizes), a warrior of each 4" apart, the others far off;
    the side without *priority* moved first and ended its moves, so the charger has no enemy to move after it."""
    good = [model("G0", 10, 10, **GONDOR)] + [model(f"G{i}", 3 + 2.5 * i, 2, **GONDOR) for i in range(1, 10)]
    evil = [model("E0", 10, 15)] + [model(f"E{i}", 1 + 2 * i, 28) for i in range(1, 14)]
    state = started(state_of(good, evil, board={"width": 30.0, "height": 30.0}), "evil" if priority == "good" else "good")
    state, _ = step(state, op.EndMoves())
    return state


def test_bh_turn_3_issue_23_coin_tosses_weigh_each_side_s_losses_in_its_starting_models() -> None:
    """BH-TURN-3, BH-PROC-5, issue 23 §5 (line-fight: search as good 65% of 20 against greedy's 70%, as evil 40%): a
    lone 1-vs-1 charge of a Gondor warrior (D5) at an orc (D4) wounds either on a 5+, a fight even in wounds; in
    fractions of the starting models an orc lost is 1/14 of its side, a warrior 1/10 of Gondor. So the charge is a
    coin toss for Gondor (it loses a greater share than it takes) and not for the orcs, who lead with it: their
    search weighs it first, as greedy chooses it."""
    good = line_fight_pair("good")
    ask = decision(good, "move")
    charge = BattlehostAI("good").decide(good, ask)
    assert isinstance(charge, op.MoveTo) and charge.charge == "E0"
    assert coin_tosses(good, ask) == [charge]
    assert charge not in BattlehostTactics().candidates(good, ask, 4)
    evil = line_fight_pair("evil")
    ask = decision(evil, "move")
    charge = BattlehostAI("evil").decide(evil, ask)
    assert isinstance(charge, op.MoveTo) and charge.charge == "G0"
    assert coin_tosses(evil, ask) == []
    assert BattlehostTactics().candidates(evil, ask, 4)[0] == charge


def test_bh_shoot_1_issue_23_search_weighs_shots_not_ending_the_shooting() -> None:
    """BH-SHOOT-1, issue 23 §5 (search ended its shooting with archers still to shoot): at a Shoot decision with a
    target in sight the candidates are shots only, greedy's first."""
    archers = [model(f"A{i}", 8 + 4 * i, 5, fight="3/4+", missile_weapon="bow") for i in range(3)]
    state, _ = to_phase(started(state_of(archers, [model("E0", 12, 20)]), "good"), "shoot")
    ask = decision(state, "shoot")
    assert op.EndShooting() in ask.options
    found = BattlehostTactics().candidates(state, ask, 4)
    assert found[0] == BattlehostAI("good").decide(state, ask)
    assert len(found) == 3 and all(isinstance(o, op.ShootAt) for o in found)
