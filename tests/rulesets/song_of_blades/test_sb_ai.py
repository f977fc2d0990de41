"""The song-of-blades AIs on small positions: the greedy AI's choices (issue 23 §2 blunders), the tactics the search
asks (candidates, evaluation) and a search decision on a fixed position."""

from __future__ import annotations

from sb_engine_support import GAME, activated, decision, model, play, ready, state_of, turn_of

from kessen.ai.levels import decider, parse_level
from kessen.ai.search import Budget, SearchAI
from kessen.core.records import evolve
from kessen.rulesets.song_of_blades.ai import SobAI, SobTactics
from kessen.rulesets.song_of_blades.ai.evaluation import evaluate
from kessen.rulesets.song_of_blades.ai.greedy import attack_value, best_dice, standing_idle
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee.state import Casualty

HERO = {"points": 90, "quality": 3, "combat": 5, "special_rules": ["combat_master"]}
GOBLIN = {"points": 15, "quality": 5, "combat": 1}


def mob_against_hero(goblins_in_contact: int) -> list[dict[str, object]]:
    """Goblins around a hero at (400, 400): the first *goblins_in_contact* touch it, the rest stand 200 mm off."""
    spots = [(425, 400), (375, 400), (400, 425), (400, 375)]
    far = [(600, 600 + 30 * i) for i in range(6)]
    return [model(f"g{i}", *(spots[i] if i < goblins_in_contact else far[i]), **GOBLIN) for i in range(6)]


def test_sb_melee_4_greedy_goblin_in_contact_with_the_hero_attacks() -> None:
    """SB-MELEE-4, issue 23 §2 (goblins charged the hero 165 times in 100 battles and attacked once): a lone goblin's
    attack on the C5 hero has poor odds, but standing idle in contact it is attacked by the same roll all the same;
    a goblin is an eighth of the mob's points and the hero all of his side's, so the goblin attacks."""
    state = ready(state_of([model("hero", 400, 400, **HERO)], mob_against_hero(1)), "Blue", "g0")
    ask = decision(state, "move")
    assert opt.Attack("hero") in ask.options
    goblin = state.get("g0")
    assert attack_value(state, "g0", "hero", False) >= standing_idle(state, goblin)
    assert standing_idle(state, goblin) < 0
    assert SobAI("Blue").decide(state, ask) == opt.Attack("hero")


def test_sb_out_1_greedy_charges_into_the_fight_its_friends_already_make() -> None:
    """SB-OUT-1: of two like knights in reach, a goblin charges the one a friend already fights (outnumbered, it
    fights at -1), not the lower id the old greedy took; the charge's worth is read off the table after the charge."""
    knight = {"points": 60, "quality": 3, "combat": 4}
    red = [model("kz", 400, 400, **knight), model("ka", 300, 520, **knight)]
    blue = [model("g0", 425, 400, **GOBLIN), model("g1", 400, 480, **GOBLIN)] + mob_against_hero(0)[2:]
    state = ready(state_of(red, blue), "Blue", "g1")
    charges = [o for o in decision(state, "move").options if isinstance(o, opt.Move) and o.purpose == "charge"]
    assert {m.toward for m in charges} == {"kz", "ka"}
    choice = SobAI("Blue").decide(state, decision(state, "move"))
    assert isinstance(choice, opt.Move) and choice.purpose == "charge" and choice.toward == "kz"


def test_sb_turn_4_evaluation_is_the_difference_of_points_lost_and_zero_sum() -> None:
    """SB-TURN-4: a position is worth the fraction of points the enemy lost less the fraction lost, zero-sum; in
    contact the better attack counts for its side (SB-MELEE-3: the C5 hero against a C1 goblin), and a fallen
    model touched by a standing enemy counts half lost on top (SB-MOD-1: it is struck at +2, lethally)."""
    apart = state_of([model("hero", 400, 400, **HERO)], mob_against_hero(0))
    assert evaluate(apart, "Red") == 0.0
    lost = evolve(apart, casualties=(Casualty("g5", "Blue", 15, "kill"),))
    assert evaluate(lost, "Red") == 15 / 90 == -evaluate(lost, "Blue")
    engaged = state_of([model("hero", 400, 400, **HERO)], mob_against_hero(1))
    assert 0 < evaluate(engaged, "Red") == -evaluate(engaged, "Blue")
    fallen = evolve(engaged, figures=tuple(evolve(f, state="fallen") if f.id == "g0" else f for f in engaged.figures))
    assert evaluate(fallen, "Red") > evaluate(engaged, "Red") + 7.5 / 90 / 2
    assert evaluate(fallen, "Red") == -evaluate(fallen, "Blue")


def test_sb_tactics_candidates_put_greedy_first_and_keep_to_the_limit() -> None:
    """Issue 23 §2: the search weighs the greedy choice first, then the other suggested options, never more than it
    asks for, each a suggested option (a battle records its index among them)."""
    state = ready(state_of([model("hero", 400, 400, **HERO)], mob_against_hero(2)), "Blue", "g0", actions=2)
    ask = decision(state, "move")
    found = SobTactics().candidates(state, ask, 4)
    # one attack an activation (SB-ACTION-2): with two actions the power blow (SB-MOD-2) is the better one
    assert found[0] == SobAI("Blue").decide(state, ask) == opt.Attack("hero", power_blow=True)
    assert len(found) == 4 and len(set(found)) == 4 and all(o in ask.options for o in found)
    assert opt.Attack("hero") in found and opt.EndActivation() in found


def test_sb_search_goblin_decides_on_a_fixed_position_within_its_budget() -> None:
    """Issue 23 §2: the search AI plays a legal choice on a fixed position, the same each time, within its budget."""
    state = ready(state_of([model("hero", 400, 400, **HERO)], mob_against_hero(2)), "Blue", "g0", actions=2)
    ask = decision(state, "move")
    search = SearchAI(GAME, SobTactics(), "Blue", Budget(nodes=200))
    choice = search.decide(state, ask)
    assert choice in ask.options and choice == SearchAI(GAME, SobTactics(), "Blue", Budget(nodes=200)).decide(state, ask)
    assert 0 < search.visited <= 2 * 200  # spent in whole rows of playouts (one a candidate): the last may run over
    assert isinstance(choice, opt.Attack)


def test_sb_act_3_greedy_activates_the_safe_models_first_and_the_last_one_with_three_dice() -> None:
    """SB-ACT-2, SB-ACT-3 (issue 23 §5): a turnover costs the activations of the models still waiting, so greedy
    activates the Quality-4 warriors (one die: no turnover) before the Quality-3 captain nearest the enemy, and the
    captain, left last, rolls three dice, since no model is left to lose its activation (two dice otherwise)."""
    warrior = {"points": 30, "quality": 4, "combat": 3}
    red = [model("cap", 400, 300, points=60, quality=3, combat=4), model("w1", 500, 250, **warrior),
           model("w2", 300, 150, **warrior)]
    start = turn_of(state_of(red, mob_against_hero(0)), "Red")
    assert SobAI("Red").decide(start, decision(start, "activation")) == opt.Activate("w1", 1)
    assert best_dice(3) == 3 and best_dice(3, last=True) == 3 and best_dice(4) == 1 and best_dice(4, last=True) == 3
    state, _ = play(activated(start, "w1", 1, dice=1), opt.EndActivation())
    assert SobAI("Red").decide(state, decision(state, "activation")) == opt.Activate("w2", 1)
    state, _ = play(activated(state, "w2", 1, dice=1), opt.EndActivation())
    ask = decision(state, "activation")
    assert SobAI("Red").decide(state, ask) == opt.Activate("cap", 3)
    assert SobTactics().candidates(state, ask, 4)[0] == opt.Activate("cap", 3)


def test_issue_23_5_search_level_weighs_two_thousand_positions_a_decision() -> None:
    """Issue 23 §5: ``search`` plays the song-of-blades tactics' budget, 2,000 positions a decision (1,000 gave each
    candidate 5 to 13 playouts, too few to tell a choice from its dice: 56% of 103 decided battles against greedy
    on the hill-crossing mirror), and stays a pure function of the position and the seed."""
    state = ready(state_of([model("hero", 400, 400, **HERO)], mob_against_hero(2)), "Blue", "g0", actions=2)
    ask = decision(state, "move")
    search = decider(parse_level("search"), GAME, "Blue", 7, side_index=1)
    assert isinstance(search, SearchAI) and search.budget.nodes == 2000
    choice = search.decide(state, ask)
    assert 2000 <= search.visited <= 2 * 2000  # whole rows of playouts: the last may run over
    assert choice == decider(parse_level("search"), GAME, "Blue", 7, side_index=1).decide(state, ask)


def test_sb_act_2_issue_23_5_search_weighs_one_die_more_for_the_model_greedy_activates() -> None:
    """SB-ACT-1, SB-ACT-2 (issue 23 §5): a Quality-4 model's one, two or three dice are worth the same to greedy's
    rule of thumb (expected actions less twice the turnover chance: 1/2 each), so the search weighs the model greedy
    activates with one die more right after greedy's choice, before the other models; never for the last model
    (three dice: its turnover costs nothing, SB-ACT-3), and never ending the turn before a model that may act."""
    warrior = {"points": 30, "quality": 4, "combat": 3}
    red = [model("cap", 400, 300, points=60, quality=3, combat=4), model("w1", 500, 250, **warrior),
           model("w2", 300, 150, **warrior)]
    start = turn_of(state_of(red, mob_against_hero(0)), "Red")
    ask = decision(start, "activation")
    assert SobTactics().candidates(start, ask, 4) == [opt.Activate("w1", 1), opt.Activate("w1", 2),
                                                      opt.Activate("w2", 1), opt.Activate("cap", 3)]
    state, _ = play(activated(start, "w1", 1, dice=1), opt.EndActivation())
    ask = decision(state, "activation")
    assert SobTactics().candidates(state, ask, 4) == [opt.Activate("w2", 1), opt.Activate("w2", 2),
                                                      opt.Activate("cap", 3), opt.EndTurn()]
    state, _ = play(activated(state, "w2", 1, dice=1), opt.EndActivation())
    ask = decision(state, "activation")
    assert SobTactics().candidates(state, ask, 4) == [opt.Activate("cap", 3), opt.EndTurn(), opt.Activate("cap", 1),
                                                      opt.Activate("cap", 2)]
