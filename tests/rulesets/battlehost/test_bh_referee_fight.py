"""The Fight phase in the engine: splitting into fights, their order, duels, Might, strikes and their allocation
(BH-FIGHT-*, BH-DUEL-*, BH-STRIKE-*, BH-SCN-7..10, BH-SCN-22..25)."""

from __future__ import annotations

from bh_referee_support import CONTACT, chance, decision, fight_phase, model, node, of_type, state_of, step

from kessen.core.engine import Decision
from kessen.dice import d, keep_highest
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.duel import DuelDice
from kessen.rulesets.battlehost.referee.pairing import Fight, groups, splits
from kessen.rulesets.battlehost.rules.strikes import Strikes, StrikesOutcome, strikes

GOOD_WINS = DuelDice(good_best=6, evil_best=1)
EVIL_WINS = DuelDice(good_best=1, evil_best=6)
MISSED = StrikesOutcome(wounds=0, slain=False)
SLAIN = StrikesOutcome(wounds=1, slain=True)


def test_bh_scn_8_bh_fight_1_one_against_two_is_one_fight() -> None:
    """BH-SCN-8, BH-FIGHT-1, BH-DUEL-1: G1 touching E1 and E2 is one fight, G1 against both; Evil rolls 2 dice
    (their best is a keep-highest of two D6)."""
    state = fight_phase([model("G1", 10, 10)], [model("E1", 10 + CONTACT, 10), model("E2", 10, 10 + CONTACT)])
    assert state.fighting is not None and state.fighting.fight == Fight(("G1",), ("E1", "E2"))
    node = chance(state, "duel roll")
    assert node.dist.map(lambda o: o.evil_best) == keep_highest(2, d(6))
    assert node.dist.map(lambda o: o.good_best) == d(6)


def test_bh_scn_8_bh_fight_1_greatest_number_of_fights() -> None:
    """BH-SCN-8, BH-FIGHT-1: adding G2 in contact with E2 only splits them into G1–E1 and G2–E2, the only split in
    which every engaged model is in one fight with a lone model (the greatest number of fights)."""
    e2 = (10, 10 + CONTACT)
    g2 = (e2[0] - CONTACT * 0.7071068, e2[1] + CONTACT * 0.7071068)
    state = state_of([model("G1", 10, 10), model("G2", *g2)], [model("E1", 10 + CONTACT, 10), model("E2", *e2)])
    (group,) = groups(state.models)
    assert splits(state.models, group) == ((Fight(("G1",), ("E1",)), Fight(("G2",), ("E2",))),)


def test_bh_fight_1_priority_player_chooses_among_equal_splits() -> None:
    """BH-FIGHT-1: G1 and G2 both touch E1 and E2 (a square): two splits with two fights each; the priority player chooses."""
    good = [model("G1", 10, 10), model("G2", 10 + CONTACT, 10 + CONTACT)]
    evil = [model("E1", 10 + CONTACT, 10), model("E2", 10, 10 + CONTACT)]
    state = fight_phase(good, evil, priority="evil")
    ask = decision(state, "split")
    assert ask.player == "evil"
    assert {o.fights for o in ask.options} == {
        (Fight(("G1",), ("E1",)), Fight(("G2",), ("E2",))),
        (Fight(("G1",), ("E2",)), Fight(("G2",), ("E1",))),
    }
    state, _ = step(state, ask.options[1])
    assert set(state.fights) == set(ask.options[1].fights)


def test_bh_scn_7_bh_fight_2_players_alternate_picking_fights() -> None:
    """BH-SCN-7, BH-FIGHT-2: three fights with Evil priority: Evil picks first, Good second, Evil third; each chosen
    fight is fully resolved (duel, backing away, strikes) before the next pick."""
    good = [model(f"G{i}", 5 + 8 * i, 10) for i in range(3)]
    evil = [model(f"E{i}", 5 + 8 * i, 10 + CONTACT) for i in range(3)]
    state = fight_phase(good, evil, priority="evil")
    ask = decision(state, "fight")
    assert ask.player == "evil" and len(ask.options) == 3
    state, _ = step(state, op.ChooseFight(Fight(("G2",), ("E2",))))
    state, events = play(state, GOOD_WINS, MISSED)  # resolved completely before the next pick
    assert of_type(events, "fight_resolved") and state.fighting is None
    ask = decision(state, "fight")
    assert ask.player == "good" and len(ask.options) == 2
    state, events = play(state, op.ChooseFight(Fight(("G0",), ("E0",))), GOOD_WINS, MISSED)
    # the last fight needs no choice, and it is Evil's pick
    assert [e.player for e in of_type(events, "fight_chosen")] == ["good", "evil"]
    assert state.fighting is not None and state.fighting.fight == Fight(("G1",), ("E1",))


def test_bh_fight_2_slain_model_takes_no_part_in_later_fights() -> None:
    """BH-FIGHT-2: a fight left with no model on one side is not fought."""
    good = [model("G1", 10, 10), model("G2", 20, 10)]
    evil = [model("E1", 10, 10 + CONTACT), model("E2", 20, 10 + CONTACT)]
    state = fight_phase(good, evil)
    assert [len(o.fight.members) for o in decision(state, "fight").options] == [2, 2]
    state, _ = step(state, op.ChooseFight(Fight(("G1",), ("E1",))))
    state, _ = step(state, GOOD_WINS)
    state, events = step(state, SLAIN)
    assert state.model("E1") is None and of_type(events, "fight_resolved")
    chance(state, "duel roll")  # one fight left: it is fought at once
    assert state.fighting is not None and state.fighting.fight == Fight(("G2",), ("E2",))


def test_bh_scn_9_bh_duel_8_fight_value_breaks_ties_without_roll_off() -> None:
    """BH-SCN-9, BH-DUEL-8: both bests 5, Good F4 against Evil F3: Good wins by Fight value, no roll-off."""
    state = fight_phase([model("G", 10, 10, fight=4)], [model("E", 10 + CONTACT, 10, fight=3)])
    state, events = step(state, DuelDice(5, 5))
    assert [(e.winner, e.decided_by) for e in of_type(events, "duel_won")] == [("good", "fight_value")]
    assert not of_type(events, "rolled_off")


def test_bh_scn_9_bh_duel_9_roll_off() -> None:
    """BH-SCN-9, BH-DUEL-9: both bests 5 and both F3: one D6 is rolled; 2 → Evil wins, 5 → Good wins."""
    state = fight_phase([model("G", 10, 10)], [model("E", 10 + CONTACT, 10)])
    state, _ = step(state, DuelDice(5, 5))
    assert chance(state, "roll-off").dist == d(6)
    for face, won in ((2, "evil"), (5, "good")):
        _, events = step(state, face)
        assert [(e.winner, e.decided_by) for e in of_type(events, "duel_won")] == [(won, "roll_off")]


def test_bh_scn_10_bh_strike_3_slain_at_once_and_no_later_strike() -> None:
    """BH-SCN-10, BH-STRIKE-3: a W2 model that has suffered 1 wound is removed at once when it suffers 1 more, and
    later strikes of that fight cannot target it."""
    state = fight_phase([model("H", 20, 20, attacks=2)], [model("X", 20 + CONTACT, 20, wounds=2, wounds_suffered=1), model("Y", 20, 20 + CONTACT)])
    state, _ = play_losers(step(state, GOOD_WINS)[0])
    state, _ = step(state, op.StrikeAt("X"))
    assert chance(state, "strike").dist == strikes(Strikes(strikes=1, strength=3, defence=4, wounds=1))
    state, events = step(state, SLAIN)
    assert state.model("X") is None and of_type(events, "slain")
    assert state.fighting is not None and state.fighting.target == "Y"  # the only target left: no choice


def play_losers(state: st.BhState) -> tuple[st.BhState, list]:
    """Let the losers back away in their listed order."""
    events: list = []
    while isinstance(node(state), Decision) and node(state).kind == "back away":
        ask = decision(state, "back away")
        state, new = step(state, ask.options[0])
        events.extend(new)
    return state, events


def test_bh_duel_2_bh_duel_3_two_handed_declaration() -> None:
    """BH-DUEL-2, BH-DUEL-3: a model carrying a two-handed weapon declares before the roll; using it gives −1 to each
    of its duel dice (a natural 1 or 2 scores 1) and +1 To Wound on its strikes (BH-STRIKE-6)."""
    state = fight_phase([model("G", 10, 10, two_handed=True)], [model("E", 10 + CONTACT, 10)])
    ask = decision(state, "two-handed")
    assert ask.player == "good" and ask.options == (op.UseTwoHanded("G", True), op.UseTwoHanded("G", False))
    used, _ = step(state, op.UseTwoHanded("G", True))
    assert chance(used, "duel roll").dist.map(lambda o: o.good_best).probability(1) == 2 * d(6).probability(1)
    not_used, _ = step(state, op.UseTwoHanded("G", False))
    assert chance(not_used, "duel roll").dist.map(lambda o: o.good_best) == d(6)
    used, _ = step(used, DuelDice(5, 1))
    assert chance(used, "strike").dist == strikes(Strikes(strikes=1, strength=3, defence=4, two_handed=True))


def test_bh_duel_6_might_is_the_owners_decision_default_first() -> None:
    """BH-DUEL-6, BH-DICE-4: after the roll a Hero's side may spend Might on its best die, one point per +1; the
    default policy's choice is listed first (here 1 point: from 4 to 5 against Evil's 5 wins on Fight value)."""
    state = fight_phase([model("H", 10, 10, type="hero", fight=5, might=2)], [model("E", 10 + CONTACT, 10)])
    state, _ = step(state, DuelDice(4, 5))
    ask = decision(state, "might")
    assert ask.player == "good" and ask.options == (op.SpendMight(1), op.SpendMight(0), op.SpendMight(2))
    state, events = step(state, op.SpendMight(1))
    assert state.get("H").might_left == 1
    assert [(e.winner, e.decided_by) for e in of_type(events, "duel_won")] == [("good", "fight_value")]


def test_bh_duel_6_priority_player_declares_might_first() -> None:
    """BH-DUEL-6 [DECISION]: when both sides have Might the priority player declares first, then the other, once each."""
    good = [model("H", 10, 10, type="hero", might=1)]
    evil = [model("K", 10 + CONTACT, 10, type="hero", might=1)]
    state = fight_phase(good, evil, priority="evil")
    state, _ = step(state, DuelDice(4, 4))
    assert decision(state, "might").player == "evil"
    state, _ = step(state, op.SpendMight(1))
    assert decision(state, "might").player == "good"
    state, events = step(state, op.SpendMight(1))
    assert state.get("H").might_left == 0 and state.get("K").might_left == 0
    chance(state, "roll-off")


def test_bh_scn_22_bh_strike_5_two_sets_against_a_trapped_loser() -> None:
    """BH-SCN-22, BH-STRIKE-5: a winner with A 2 against a trapped loser makes 4 To Wound rolls at it (two sets)."""
    state = fight_phase([model("W", 10, 10, attacks=2)], [model("L", 10 + CONTACT, 10, prone=True)])
    state, _ = step(state, GOOD_WINS)
    assert chance(state, "strike").dist == strikes(Strikes(strikes=2, strength=3, defence=4, trapped=True))


def test_bh_scn_22_bh_strike_5_two_trapped_losers_never_three_and_one() -> None:
    """BH-SCN-22, BH-STRIKE-5: against trapped X and Y, each strike is two rolls at one model: the aims are
    (2,0), (0,2) or (1,1) strikes — rolls (4,0), (0,4), (2,2) — never (3,1)."""
    state = fight_phase([model("W", 20, 20, attacks=2)], [model("X", 20 + CONTACT, 20, prone=True), model("Y", 20, 20 + CONTACT, prone=True)])
    state, _ = play_losers(step(state, GOOD_WINS)[0])
    ask = decision(state, "strike")
    assert ask.options == (op.StrikeAt("X"), op.StrikeAt("Y"))
    state, _ = step(state, op.StrikeAt("X"))
    two_rolls = strikes(Strikes(strikes=1, strength=3, defence=4, trapped=True))
    assert chance(state, "strike").dist == two_rolls
    state, _ = step(state, MISSED)
    assert decision(state, "strike").options == (op.StrikeAt("X"), op.StrikeAt("Y"))
    state, _ = step(state, op.StrikeAt("Y"))
    assert chance(state, "strike").dist == two_rolls


def three_losers() -> st.BhState:
    good = [model("W", 20, 20, attacks=3)]
    evil = [model("X", 20 + CONTACT, 20), model("Y", 20, 20 + CONTACT), model("Z", 20 - CONTACT, 20)]
    state = fight_phase(good, evil)
    state, _ = play_losers(step(state, GOOD_WINS)[0])
    return state


def test_bh_scn_23_bh_strike_7_never_back_to_a_model_left() -> None:
    """BH-SCN-23, BH-STRIKE-7: a lone winner with A 3 against X, Y, Z (none trapped) strikes X once, then Y and slays
    Y: its third strike may go to Z but not back to X."""
    state = three_losers()
    state, _ = play(state, op.StrikeAt("X"), MISSED)
    assert decision(state, "strike").options == (op.StrikeAt("X"), op.StrikeAt("Y"), op.StrikeAt("Z"))
    state, _ = play(state, op.StrikeAt("Y"), SLAIN)
    assert state.fighting is not None and state.fighting.target == "Z"  # Z is the only allowed aim
    assert chance(state, "strike").dist == strikes(Strikes(strikes=1, strength=3, defence=4))


def test_bh_scn_23_bh_strike_9_after_a_slaying_any_other_living_target() -> None:
    """BH-SCN-23, BH-STRIKE-9: when the first strike slays X, the second may go to Y or Z (moving on is not going back)."""
    state = three_losers()
    state, _ = play(state, op.StrikeAt("X"), SLAIN)
    assert decision(state, "strike").options == (op.StrikeAt("Y"), op.StrikeAt("Z"))


def test_bh_strike_9_strikes_left_with_no_allowed_target_are_lost() -> None:
    """BH-STRIKE-9: strikes left when no allowed enemy lives are lost, and the fight ends."""
    state = fight_phase([model("W", 20, 20, attacks=3)], [model("X", 20 + CONTACT, 20)])
    state, _ = step(state, GOOD_WINS)
    assert chance(state, "strike").dist == strikes(Strikes(strikes=3, strength=3, defence=4))
    state, events = step(state, StrikesOutcome(wounds=1, slain=True))
    assert state.fighting is None and of_type(events, "fight_resolved")[0].slain == 1


def test_bh_scn_24_bh_strike_8_trapped_and_backed_away_losers() -> None:
    """BH-SCN-24, BH-STRIKE-8: A 3 against X (backed away) and Y (trapped by an enemy behind it): a strike aimed at Y
    is two rolls, a strike aimed at X one roll; strikes are aimed one at a time."""
    good = [model("W", 20, 20, attacks=3), model("B", 20, 22.6)]
    evil = [model("X", 20 + CONTACT, 20), model("Y", 20, 20 + CONTACT)]
    state = fight_phase(good, evil)
    state, _ = play_losers(step(state, GOOD_WINS)[0])
    f = state.fighting
    assert f is not None and f.trapped == frozenset({"Y"})
    state, _ = step(state, op.StrikeAt("X"))
    assert chance(state, "strike").dist == strikes(Strikes(strikes=1, strength=3, defence=4))  # one roll
    state, _ = play(state, MISSED, op.StrikeAt("Y"))
    # X is left behind, so both remaining strikes go to Y: two rolls each, four in all
    assert chance(state, "strike").dist == strikes(Strikes(strikes=2, strength=3, defence=4, trapped=True))


def test_bh_scn_25_bh_back_5_bh_strike_1_prone_winner_does_not_strike() -> None:
    """BH-SCN-25, BH-BACK-5, BH-STRIKE-1: two Good models, one prone, against one Evil model; Good wins: only the
    standing Good model strikes (after the loser has backed away); the prone one may stand up instead."""
    good = [model("P", 20, 20, prone=True), model("S", 20 + 2 * CONTACT, 20)]
    evil = [model("E", 20 + CONTACT, 20)]
    state = fight_phase(good, evil)
    state, _ = step(state, GOOD_WINS)
    state, events = step(state, op.StandUp("P", False))
    assert state.get("P").prone
    assert state.fighting is not None and state.fighting.striker == "S" and state.fighting.strikers == ()
    assert of_type(events, "trapped")  # between two winners E has no direction to back away
    state, events = step(state, MISSED)
    assert [e.model for e in of_type(events, "struck")] == ["S"]


def test_bh_fight_3_order_duel_back_away_strikes() -> None:
    """BH-FIGHT-3, BH-STRIKE-1: a fight resolves as duel, then the losers back away, then the winners strike."""
    state = fight_phase([model("G", 10, 10)], [model("E", 10 + CONTACT, 10)])
    state, events = play(state, GOOD_WINS, MISSED)
    kinds = [e.type for e in events]
    assert kinds.index("duel_won") < kinds.index("backed_away") < kinds.index("struck") < kinds.index("fight_resolved")


def play(state: st.BhState, *choices: object) -> tuple[st.BhState, list]:
    events: list = []
    for c in choices:
        state, new = step(state, c)
        events.extend(new)
    return state, events
