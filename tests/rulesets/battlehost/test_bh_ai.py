"""The battlehost AI's choices on small positions: it is a Decider, so its ``decide`` is asked on constructed states."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from bh_referee_support import (
    CONTACT,
    GAME,
    decision,
    fight_phase,
    model,
    node,
    started,
    state_of,
    step,
    to_phase,
)

from kessen.core.geometry import Point
from kessen.core.records import evolve
from kessen.rulesets.battlehost.ai import BattlehostAI, holds_choke_point
from kessen.rulesets.battlehost.referee import shooting as shoot_phase
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.duel import DuelDice
from kessen.rulesets.battlehost.referee.turns import GivenPriority

DOORWAY = Path(__file__).resolve().parents[3] / "examples" / "battlehost" / "doorway.toml"
GOOD_WINS = DuelDice(good_best=6, evil_best=1)


def archer(id: str, x: float, y: float, **profile: object) -> dict[str, object]:
    return model(id, x, y, **{"fight": "3/4+", "missile_weapon": "bow", **profile})


def test_bh_move_1_ai_hero_holds_the_doorway() -> None:
    """BH-MOVE-1, BH-GEO-5: in the doorway scenario the outnumbered Captain stands in a 2" gap where one orc at a time
    can reach it, so the AI never moves it out (though it could advance), while the orcs, who outnumber the Good side,
    do not hold back."""
    state, _ = step(GAME.load_scenario(DOORWAY.read_text(), str(DOORWAY)), GivenPriority("good"))
    ask = decision(state, "move")
    assert any(isinstance(o, op.MoveTo) and o.model == "Captain" for o in ask.options)
    assert holds_choke_point(state, state.get("Captain"))
    ai = BattlehostAI("good")
    while node(state).kind == "move" and node(state).player == "good":
        choice = ai.decide(state, decision(state, "move"))
        assert getattr(choice, "model", None) != "Captain"
        state, _ = step(state, choice)
    assert not any(holds_choke_point(state, m) for m in state.side_models("evil"))


def test_bh_move_1_ai_hero_in_the_open_does_not_hold() -> None:
    """BH-MOVE-1: the same Captain in open ground, with the orcs as near, has nothing to hold and advances."""
    hero = model("Captain", 23, 23, type="hero", fight="5/4+", strength=4, defence=6, attacks=2, wounds=3, might=3)
    orcs = [model(f"O{i}", 20 + 2 * i, 30) for i in range(4)]
    state = started(state_of([hero], orcs), priority="evil")
    state, _ = step(state, op.EndMoves())  # the orcs stand: the Captain moves last, so no orc can charge it after
    assert not holds_choke_point(state, state.get("Captain"))
    choice = BattlehostAI("good").decide(state, decision(state, "move"))
    assert isinstance(choice, op.MoveTo) and choice.model == "Captain"


def test_bh_shoot_2_ai_archer_with_a_target_stays_still_and_shoots() -> None:
    """BH-SHOOT-2, BH-SHOOT-4: an archer that could charge an enemy 3" away but has it as a target does not move
    (a move of more than half its Mv would forbid the shot); in the Shoot phase it shoots."""
    state = started(state_of([archer("A", 10, 10)], [model("E", 10, 14)]))
    ask = decision(state, "move")
    assert any(isinstance(o, op.MoveTo) and o.charge == "E" for o in ask.options)
    choice = BattlehostAI("good").decide(state, ask)
    assert choice == op.EndMoves()
    state, _ = step(state, choice)
    state, _ = to_phase(state, "shoot")
    assert BattlehostAI("good").decide(state, decision(state, "shoot")) == op.ShootAt("A", "E")


def test_bh_proc_2_ai_shoots_the_target_likeliest_to_be_slain() -> None:
    """BH-PROC-2, BH-WOUND-2: with a bow (S2), a D3 orc with 1 wound (5+: slain 1/2 · 1/3 = 1/6) is a better target than
    a nearer D6 troll (6/4 and 3 wounds: never slain by one shot)."""
    state = started(state_of([archer("A", 10, 10)], [model("Troll", 10, 16, defence=6, wounds=3), model("Orc", 14, 18, defence=3)]))
    state, _ = to_phase(state, "shoot")
    ask = decision(state, "shoot")
    assert ask.options[0] == op.ShootAt("A", "Troll")  # the default: the nearest
    assert shoot_phase.shot_dist(state, op.ShootAt("A", "Orc")).probability(lambda o: o.slain) == Fraction(1, 6)
    assert BattlehostAI("good").decide(state, ask) == op.ShootAt("A", "Orc")


def test_bh_dice_4_ai_spends_might_where_it_is_worth_a_wound() -> None:
    """BH-DICE-4, BH-STRIKE-2: a Hero's failed To Wound die that one point saves is a sure wound: the AI spends it."""
    hero = model("H", 20, 20, type="hero", fight=5, attacks=1, strength=3, defence=6, might=2)
    state = fight_phase([hero], [model("O", 20 + CONTACT, 20, defence=5)])  # chart 5
    state, _ = step(state, GOOD_WINS)
    state, _ = step(state, 4)
    ask = decision(state, "might on roll")
    assert ask.options == (op.MightOnRoll("H", 1), op.MightOnRoll("H", 0))
    assert BattlehostAI("good").decide(state, ask) == op.MightOnRoll("H", 1)


def test_bh_dice_4_ai_keeps_might_off_a_hit_that_would_hardly_wound() -> None:
    """BH-DICE-4, BH-SHOOT-7: a Hero's bow (S2) at D8 wounds only on 6 then 5+ (1/18): saving a missed hit roll with a
    point is worth 1/18 of a wound, less than a point kept, so the AI declines (the default would spend)."""
    hero = archer("H", 10, 10, type="hero", fight="4/4+", might=1)
    state = started(state_of([hero], [model("T", 10, 20, defence=8)]))
    state, _ = to_phase(state, "shoot")
    state, _ = step(state, op.ShootAt("H", "T"))
    state, _ = step(state, 3)
    ask = decision(state, "might on roll")
    assert ask.options[0] == op.MightOnRoll("H", 1)
    assert BattlehostAI("good").decide(state, ask) == op.MightOnRoll("H", 0)


def test_bh_duel_6_ai_spends_the_might_that_wins_the_duel() -> None:
    """BH-DUEL-6, BH-DUEL-7, BH-DUEL-9: a Hero (F5, Might 3) whose best die is 4 against an orc's 5 with equal Fight
    values: 2 points win outright, 1 only forces a roll-off; the orc's strikes at D6 are little, the Hero's at D4 much,
    so the AI spends 2."""
    hero = model("H", 20, 20, type="hero", fight=5, attacks=2, strength=4, defence=6, might=3)
    state = fight_phase([hero], [model("O", 20 + CONTACT, 20, fight=5, defence=4)])
    state, _ = step(state, DuelDice(good_best=4, evil_best=5))
    ask = decision(state, "might")
    assert BattlehostAI("good").decide(state, ask) == op.SpendMight(2)


def test_bh_duel_6_ai_keeps_might_when_the_duel_decides_nothing() -> None:
    """BH-DUEL-6, BH-WOUND-2: a Hero (S1, D10, Might 1) at 4 against an orc's 5 (S1, D10): the default policy spends 1
    to force a roll-off, but neither side can wound the other ("-"), so the exact stakes are 0 and the AI keeps it."""
    hero = model("H", 20, 20, type="hero", fight=5, attacks=2, strength=1, defence=10, might=1)
    state = fight_phase([hero], [model("O", 20 + CONTACT, 20, fight=5, strength=1, defence=10)])
    state, _ = step(state, DuelDice(good_best=4, evil_best=5))
    ask = decision(state, "might")
    assert ask.options[0] == op.SpendMight(1)
    assert BattlehostAI("good").decide(state, ask) == op.SpendMight(0)


def test_bh_fight_1_ai_weighs_a_charge_into_a_fight_of_more_than_eight_models() -> None:
    """BH-FIGHT-1, BH-PROC-5: nine riders already touch a troll on a 60 mm base and a tenth can charge it; the AI
    weighs that charge with the exact odds of a fight of ten against one (more than the odds input's 8 a side) and
    makes it, instead of failing on the odds input's limit."""
    reach = 1.1811024 + 0.4921260  # centres of a 60 mm and a 25 mm base in contact
    riders = [model(f"R{k}", 20 + reach * math.cos(math.radians(36 * k)), 20 + reach * math.sin(math.radians(36 * k))) for k in range(9)]
    riders.append(model("R9", 20 + (reach + 3) * math.cos(math.radians(324)), 20 + (reach + 3) * math.sin(math.radians(324))))
    state = started(state_of(riders, [model("Troll", 20, 20, base_mm=60, attacks=3, wounds=3)]))
    choice = BattlehostAI("good").decide(state, decision(state, "move"))
    assert isinstance(choice, op.MoveTo) and choice.model == "R9" and choice.charge == "Troll"


def test_bh_turn_3_issue_23_a_side_behind_on_casualties_does_not_hold() -> None:
    """BH-TURN-3, issue 23 §5: the doorway's Captain holds the door while the casualties are even; once its side has
    lost the greater fraction of its models, holding cannot win the battle, so it no longer holds."""
    state, _ = step(GAME.load_scenario(DOORWAY.read_text(), str(DOORWAY)), GivenPriority("good"))
    assert holds_choke_point(state, state.get("Captain"))
    behind = evolve(state, casualties=(("Guard 9", "good"),))
    assert not holds_choke_point(behind, behind.get("Captain"))
    evil = len(state.side_models("evil"))
    even = evolve(state, casualties=(("Guard 9", "good"), *((f"Orc {90 + k}", "evil") for k in range(evil // 3 + 1))))
    assert holds_choke_point(even, even.get("Captain"))  # 1 of 3 lost against more than a third: not behind


def test_bh_move_3_issue_23_ai_goes_round_a_friend_in_its_way() -> None:
    """BH-MOVE-3, issue 23 §5: a warrior whose straight way is cut to half an inch by a friend in front of it (the
    friend has moved) goes round the friend toward the enemy, where it used to shuffle up behind it turn after turn."""
    state = started(state_of([model("A", 10, 10), model("F", 10, 11.5)], [model("E", 10, 30)]))
    state = evolve(state, done=frozenset({"F"}))
    ask = decision(state, "move")
    (advance,) = [o for o in ask.options[: ask.options.index(op.EndMoves())] if isinstance(o, op.MoveTo)]
    assert advance.y < 10.6
    choice = BattlehostAI("good").decide(state, ask)
    assert isinstance(choice, op.MoveTo) and choice.model == "A" and choice.y > 13.5


def test_bh_back_4_issue_23_ai_charges_the_enemy_with_its_back_to_a_wall() -> None:
    """BH-BACK-4, BH-STRIKE-5, issue 23 §5: of two charges alike but for the ground, the AI charges the enemy that
    stands with its back to a wall (it could not back away if it lost, so it would be struck twice), though that
    charge is listed second."""
    good = [model("A", 10, 10), model("B", 20, 10)]
    evil = [model("E1", 10, 14), model("E2", 20, 14)]
    state = started(state_of(good, evil, board={"width": 48.0, "height": 48.0}, terrain=[[18.0, 14.6, 22.0, 16.0]]))
    ask = decision(state, "move")
    charges = [o for o in ask.options if isinstance(o, op.MoveTo) and o.charge is not None]
    assert [o.charge for o in charges][:2] == ["E1", "E2"]
    choice = BattlehostAI("good").decide(state, ask)
    assert isinstance(choice, op.MoveTo) and choice.model == "B" and choice.charge == "E2"


def test_bh_shoot_4_issue_23_ai_archer_steps_out_from_behind_a_friend() -> None:
    """BH-SHOOT-2, BH-SHOOT-4, issue 23 §5: an archer whose friend hides the only enemy goes half its Move round the
    friend to where it sees the enemy, so that it may still shoot."""
    state = started(state_of([archer("A", 10, 10), model("W", 10, 11.1)], [model("E", 10, 25)]))
    state = evolve(state, done=frozenset({"W"}))
    assert not shoot_phase.has_target(state, state.get("A"))
    choice = BattlehostAI("good").decide(state, decision(state, "move"))
    assert isinstance(choice, op.MoveTo) and choice.model == "A"
    assert math.hypot(choice.x - 10, choice.y - 10) <= 3 + 1e-9
    moved = evolve(state, models=tuple(m.at(Point(choice.x, choice.y)) if m.id == "A" else m for m in state.models))
    assert shoot_phase.has_target(moved, moved.get("A"))


def test_bh_move_1_issue_23_ai_moving_first_stops_out_of_reach_of_a_gang() -> None:
    """BH-MOVE-1, BH-MOVE-5, issue 23 §5: a warrior moving first, whose whole advance would end where three enemies
    (who move after it) could all charge it, takes its half advance instead, which ends within reach of one of them at
    most; moving after them, it advances the whole way."""
    good = [model("A", 10, 10)]
    evil = [model("E1", 8, 22), model("E2", 10, 22), model("E3", 12, 22)]
    state = started(state_of(good, evil))
    ask = decision(state, "move")
    whole = next(o for o in ask.options if isinstance(o, op.MoveTo) and o.model == "A")
    assert whole.y == 16
    choice = BattlehostAI("good").decide(state, ask)
    assert isinstance(choice, op.MoveTo) and choice.model == "A" and choice.y == 13
    later, _ = step(started(state_of(good, evil), priority="evil"), op.EndMoves())
    assert BattlehostAI("good").decide(later, decision(later, "move")) == whole


def test_bh_turn_3_issue_23_greedy_ahead_makes_no_coin_toss_charge_level_it_does() -> None:
    """BH-TURN-3, BH-MOVE-5, issue 23 §5 (search against random lost battles it led in lone charges at even
    enemies): a warrior that can charge only a like warrior, with no friend to follow, does not while its side is
    ahead on casualties (it advances instead); level, the even fight is the way to win, and it charges."""
    state = started(state_of([model("A", 10, 10), model("B", 30, 10)], [model("E", 10, 14), model("F", 40, 40)]))
    ask = decision(state, "move")
    assert any(isinstance(o, op.MoveTo) and o.model == "A" and o.charge == "E" for o in ask.options)
    choice = BattlehostAI("good").decide(state, ask)
    assert isinstance(choice, op.MoveTo) and choice.model == "A" and choice.charge == "E"
    ahead = evolve(state, casualties=(("G", "evil"),))
    kept = BattlehostAI("good").decide(ahead, decision(ahead, "move"))
    assert not (isinstance(kept, op.MoveTo) and kept.charge is not None)
