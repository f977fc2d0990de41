"""armies-clash engine: units, integrity, attacks, damage and overflow, solos, joining, commanders, spells and hiding
(§5.4–§5.7, §5.13–§5.23; scenario behaviours SB-12..SB-22, SB-33..SB-38, SB-40)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from armies_clash_engine_helpers import (
    HOB,
    OGRE,
    at,
    at_piece,
    at_step,
    choose,
    creature,
    roll,
    scenario,
    start,
    unit,
    with_stand,
    with_unit,
)

from kessen.core.engine import Chance, Decision
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee.actions import act_options, activate_options, declare_options
from kessen.rulesets.armies_clash.referee.attack import attack_dist, attack_options, attack_plan
from kessen.rulesets.armies_clash.referee.damage import damage_stand, deal
from kessen.rulesets.armies_clash.referee.end_of_round import eliminate_casualties
from kessen.rulesets.armies_clash.referee.integrity import isolation
from kessen.rulesets.armies_clash.referee.morale import morale_question, rally_question
from kessen.rulesets.armies_clash.referee.movement import move_options
from kessen.rulesets.armies_clash.referee.options import (
    Activate,
    ActivateSolo,
    AttackWith,
    Benefit,
    Cast,
    CastArea,
    Declare,
    JoinStand,
    Leave,
    NoAction,
    PlaceAt,
    Rally,
    Stay,
    Support,
)
from kessen.rulesets.armies_clash.referee.pieces import commander_of, reveal_near, spell_of, unhide
from kessen.rulesets.armies_clash.referee.rounds import end_turn, start_turn
from kessen.rulesets.armies_clash.referee.setup import initial_state
from kessen.rulesets.armies_clash.referee.spells import area_squares, area_targets, cast_options, spell_effects
from kessen.rulesets.armies_clash.referee.state import Turn
from kessen.rulesets.armies_clash.referee.steps import (
    DeclareAction,
    EliminateCasualties,
    PieceAct,
    PieceMove,
    StartTurn,
    StealthRoll,
)
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, AttackTotals, roll_dist
from kessen.rulesets.armies_clash.rules.commanders import CommanderCheckOutcome
from kessen.rulesets.armies_clash.rules.grid import Footprint, distance
from kessen.rulesets.armies_clash.rules.morale import MoraleOutcome
from kessen.rulesets.armies_clash.rules.movement import Destination
from kessen.rulesets.armies_clash.scenario import may_join


def _two_sides(mine: list, theirs: list, kind: str = "regiment", formation: str = "march", **extra):  # type: ignore[type-arg]
    stands = [(i, "u", c, at) for i, c, at in mine] + [(i, "v", c, at) for i, c, at in theirs]
    return start(scenario(stands=stands, units=[unit("u", kind=kind, formation=formation), unit("v", "b", "skirmisher")], **extra))


def test_ac_form_1_sb_12_configure_keeps_budget_changes_ac() -> None:
    """SB-12 (AC-MOVE-1, AC-FORM-1, AC-FORM-3): a march regiment that configures to defensive keeps the march budget
    this turn but its stands have +2 AC at once."""
    state = _two_sides([("s1", "hob", (3, 3)), ("s2", "hob", (3, 4))], [("e1", "hob", (10, 3))])
    state = at(state, Turn("u", False, formation="march"), DeclareAction())
    state = choose(state, Declare("configure", "defensive"))
    assert state.unit("u").formation == "defensive"
    state = choose(state, activate_options(state, state.turn)[0])
    assert state.turn.budget == 6
    q = attack_plan(state, "e1", "shortbow", "stand", "s1", supported=False)
    assert q.target_defensive


def test_ac_integ_2_sb_13_regiment_isolation() -> None:
    """SB-13 (AC-INTEG-2): a regiment at (0,0), (1,0), (3,0): after the turn ends (3,0) is isolated, the others not."""
    state = _two_sides([("s1", "hob", (0, 0)), ("s2", "hob", (1, 0)), ("s3", "hob", (3, 0))], [("e1", "hob", (10, 10))])
    state = isolation(state, [])
    assert [state.stand(i).isolated for i in ("s1", "s2", "s3")] == [False, False, True]


def test_ac_integ_3_sb_14_skirmisher_isolation() -> None:
    """SB-14 (AC-INTEG-3, AC-SKIRM-6): skirmishers at (0,0) and (2,0) are not isolated; at (0,0) and (2,1) both are."""
    state = isolation(_two_sides([("s1", "hob", (0, 0)), ("s2", "hob", (2, 0))], [("e1", "hob", (10, 10))], kind="skirmisher"), [])
    assert not state.stand("s1").isolated and not state.stand("s2").isolated
    state = isolation(_two_sides([("s1", "hob", (0, 0)), ("s2", "hob", (2, 1))], [("e1", "hob", (10, 10))], kind="skirmisher"), [])
    assert state.stand("s1").isolated and state.stand("s2").isolated


def test_ac_integ_4_ac_solo_4_sb_15_solo_isolation() -> None:
    """SB-15 (AC-INTEG-4, AC-SOLO-4): an unattached solo at (5,5) with the nearest allied stand at (5,7) is not isolated;
    at (6,7) it is. A joined solo never is."""
    for at, isolated in (((5, 7), False), ((6, 7), True)):
        s = scenario(stands=[("s1", "u", "hob", at), ("e1", "v", "hob", (15, 15))],
                     units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")],
                     solos=[{"id": "hero", "side": "a", "creature": "hob", "at": [5, 5]},
                            {"id": "sage", "side": "a", "creature": "hob", "joined_to": "s1"}])
        state = isolation(start(s), [])
        assert state.solo("hero").isolated is isolated
        assert not state.solo("sage").isolated


def test_ac_integ_5_sb_16_last_stand_not_isolated() -> None:
    """SB-16 (AC-INTEG-5): a regiment reduced to one stand is not isolated."""
    state = isolation(_two_sides([("s1", "hob", (0, 0))], [("e1", "hob", (10, 10))]), [])
    assert not state.stand("s1").isolated


def test_ac_integ_6_ac_integ_1_sb_17_isolation_kept_during_the_turn() -> None:
    """SB-17 (AC-INTEG-6, AC-INTEG-1): a stand isolated at the end of the last turn moves next to a friend and attacks
    with disadvantage (attacker_isolated); at the end of this turn it is no longer isolated."""
    state = _two_sides([("s1", "hob", (0, 0)), ("s2", "hob", (5, 0))], [("e1", "hob", (4, 1))])
    state = isolation(state, [])
    assert state.stand("s2").isolated and state.stand("s1").isolated
    state = at_piece(state, "u", "s1")
    state = choose(state, next(d for d in move_options(state, state.turn) if isinstance(d, Destination) and (d.x, d.y) == (4, 0)))
    assert state.stand("s1").isolated
    q = attack_plan(state, "s1", "longsword", "stand", "e1", supported=False)
    assert q.attacker_isolated
    after = end_turn(state, state.turn, [])
    assert not after.stand("s1").isolated


def test_ac_attack_3_sb_18_reach_bonus_roll() -> None:
    """SB-18 (AC-ATTACK-3): a stand whose routine is a reach-10 melee attack makes 2 rolls; with its ranged attack, 1."""
    pike = creature("pike", attacks=[
        {"id": "pike", "kind": "melee", "attack_bonus": 3, "damage": "1d10+1", "reach_ft": 10},
        {"id": "bow", "kind": "ranged", "attack_bonus": 3, "damage": "1d8", "range_ft": 80},
    ])
    state = _two_sides([("s1", "pike", (3, 3))], [("e1", "hob", (4, 3))], creatures=[pike, HOB])
    melee = attack_plan(state, "s1", "pike", "stand", "e1", supported=False)
    ranged = attack_plan(state, "s1", "bow", "stand", "e1", supported=False)
    assert isinstance(melee, AttackQuestion) and isinstance(ranged, AttackQuestion)
    assert len(melee.rolls) == 2 and len(ranged.rolls) == 1


def test_ac_dmg_2_sb_19_overflow_chain() -> None:
    """SB-19 (AC-DMG-2): Hob stands A (3,3), B (4,3), C (5,3) of 11 HP: 25 damage to A leaves A 0, B 0, C 8. With B of
    another creature, A goes to 0 and 14 are lost (C is not adjacent to A)."""
    state = _two_sides([("A", "hob", (3, 3)), ("B", "hob", (4, 3)), ("C", "hob", (5, 3))], [("e1", "hob", (10, 10))])
    after = damage_stand(state, "A", 25, (), "b", [])
    assert [after.stand(i).hp for i in "ABC"] == [0, 0, 8]
    other = creature("other")
    state = _two_sides([("A", "hob", (3, 3)), ("B", "other", (4, 3)), ("C", "hob", (5, 3))], [("e1", "hob", (10, 10))], creatures=[HOB, other])
    after = damage_stand(state, "A", 25, (), "b", [])
    assert [after.stand(i).hp for i in "ABC"] == [0, 11, 11]


def test_ac_dmg_2_a_routine_beyond_the_odds_limits_is_one_damage_instance() -> None:
    """AC-DMG-2, AC-PROC-6 (no silent caps): a tarrasque-like stand's five-attack routine (ceiling 5 × 58 = 290 is
    fine, but five rolls exceed the ``attack`` procedure's four) is one question, one damage instance: all five rolls,
    the bite resisted, the claws not, mean damage the sum of the five rolls' means."""
    brute = creature("brute", size="large", resistances=[], attacks=[
        {"id": "bite", "kind": "melee", "attack_bonus": 9, "damage": "4d12+10", "damage_type": "fire"},
        {"id": "claw", "kind": "melee", "attack_bonus": 9, "damage": "4d8+10"},
    ], multiattack=["bite", "claw", "claw", "claw", "claw"])
    tough = creature("tough", hp=200, resistances=["fire"])
    state = _two_sides([("s1", "brute", (3, 3))], [("e1", "tough", (5, 3))], creatures=[brute, tough])
    q = attack_plan(state, "s1", "multiattack", "stand", "e1", supported=False)
    assert isinstance(q, AttackQuestion) and len(q.rolls) == 5
    assert [r.resistance for r in q.rolls] == ["resistance", "none", "none", "none", "none"]
    total = attack_dist(q).map(lambda o: o.damage).mean()
    parts = sum((roll_dist(q, r).map(lambda o: o.damage).mean() for r in q.rolls), Fraction(0))
    assert isinstance(total, Fraction) and total == parts


def test_ac_dmg_2_overflow_choice_default_lowest_hp() -> None:
    """AC-DMG-2: with two eligible neighbours the attacking general chooses; the default is the lowest HP above 0."""
    state = _two_sides([("A", "hob", (3, 3)), ("B", "hob", (4, 3)), ("C", "hob", (2, 3))], [("e1", "hob", (10, 10))])
    state = with_stand(state, "C", hp=5)
    after = damage_stand(replace(state, turn=None), "A", 15, (), "b", [])
    n = g.MACHINE.node(after)
    assert isinstance(n, Decision) and n.player == "b" and n.options[0].stand == "C"


def test_ac_dmg_3_sb_20_casualty_still_acts() -> None:
    """SB-20 (AC-DMG-3): a casualty of a unit that has not yet acted still moves and attacks on its turn; it is removed
    at the end of the round."""
    state = _two_sides([("A", "hob", (3, 3)), ("B", "hob", (3, 4))], [("e1", "hob", (4, 3))])
    state = with_stand(state, "A", hp=0)
    state = at_piece(state, "u", "A")
    state = at_step(state, PieceAct())
    assert AttackWith("longsword", "e1") in act_options(state, state.turn)
    ended = eliminate_casualties(state, [])
    assert ended.stand("A") is None


def test_ac_dmg_4_sb_21_casualty_passes_everything_on() -> None:
    """SB-21 (AC-DMG-4): casualty A next to identical B (11 HP): 7 more damage to A brings B to 4."""
    state = _two_sides([("A", "hob", (3, 3)), ("B", "hob", (4, 3))], [("e1", "hob", (10, 10))])
    after = damage_stand(with_stand(state, "A", hp=0), "A", 7, (), "b", [])
    assert after.stand("A").hp == 0 and after.stand("B").hp == 4


def test_ac_attack_5_sb_22_defensive_cannot_attack() -> None:
    """SB-22 (AC-ATTACK-5, AC-FORM-3, AC-ACT-1): a defensive regiment cannot declare Attack but may Cast a Spell."""
    caster = creature("mage", spells=[{"id": "bolt", "range_ft": 120, "form": "targeted", "max_targets": 1,
                                        "resolution": "attack", "kind": "ranged", "attack_bonus": 5, "damage": "1d10"}])
    state = _two_sides([("s1", "mage", (3, 3))], [("e1", "hob", (6, 3))], formation="defensive", creatures=[caster, HOB])
    options = declare_options(state, Turn("u", False, formation="defensive"))
    assert Declare("attack") not in options and Declare("cast") in options
    assert Declare("configure", "support") in options and Declare("configure", "defensive") not in options


def test_ac_attack_6_support_gives_advantage() -> None:
    """AC-ATTACK-6, AC-ATTACK-7: in support formation a stand may forgo its attacks to support an adjacent stand that
    has not acted; that stand's melee question is ``supported``."""
    state = _two_sides([("s1", "hob", (3, 3)), ("s2", "hob", (3, 4))], [("e1", "hob", (4, 4))], formation="support")
    state = at_step(at_piece(state, "u", "s1"), PieceAct())
    assert Support("s2") in act_options(state, state.turn)
    state = choose(state, Support("s2"))
    assert "s2" in state.turn.supported
    q = attack_plan(state, "s2", "longsword", "stand", "e1", supported=True)
    assert q.supported


def test_ac_attack_1_ac_attack_2_targets() -> None:
    """AC-ATTACK-1, AC-ATTACK-2: melee at adjacent enemy stands and unattached solos only, ranged within range;
    joined solos can never be attacked."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (4, 3)), ("e2", "v", "hob", (3, 6))],
                 units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "hero", "side": "b", "creature": "hob", "at": [2, 3]},
                        {"id": "sage", "side": "b", "creature": "hob", "joined_to": "e1"}])
    state = start(s)
    melee = {o.target for o in attack_options(state, "s1") if o.using == "longsword"}
    ranged = {o.target for o in attack_options(state, "s1") if o.using == "shortbow"}
    assert melee == {"e1", "hero"} and ranged == {"e1", "e2", "hero"}


def test_ac_terr_6_ac_terr_3_higher_ground_and_cover() -> None:
    """AC-TERR-6, AC-TERR-3, AC-ATTACK-8: higher ground gives advantage on melee (``higher_ground``); a target with a
    square in forest has half cover."""
    state = _two_sides([("s1", "hob", (3, 3))], [("e1", "hob", (4, 3))], terrain=[{"at": [3, 3], "elevation": 1}, {"at": [4, 3], "kind": "forest"}])
    q = attack_plan(state, "s1", "longsword", "stand", "e1", supported=False)
    assert q.higher_ground and q.target_cover == "half"
    back = attack_plan(state, "e1", "longsword", "stand", "s1", supported=False)
    assert not back.higher_ground and back.target_cover == "none"


def test_ac_d20_8_adjacent_enemy_ranged() -> None:
    """AC-D20-8: a ranged roll next to an enemy stand has disadvantage (``adjacent_enemy``)."""
    state = _two_sides([("s1", "hob", (3, 3))], [("e1", "hob", (4, 3))])
    assert attack_plan(state, "s1", "shortbow", "stand", "e1", supported=False).adjacent_enemy


def test_ac_skirm_5_sb_40_split_movement_and_lock() -> None:
    """SB-40 (AC-SKIRM-5, AC-MOVE-3): a skirmisher moving 2 of 6 to end next to an enemy stand and attacking cannot spend
    the other 4; having shot from 3 squares away it moves its remaining squares after the attack."""
    state = _two_sides([("s1", "hob", (3, 3))], [("e1", "hob", (6, 3))], kind="skirmisher")
    s = at_piece(state, "u", "s1")
    s = choose(s, next(d for d in move_options(s, s.turn) if isinstance(d, Destination) and (d.x, d.y) == (5, 3)))
    s = choose(s, AttackWith("longsword", "e1"))
    s = roll(s, AttackTotals(0, 0, 0, 0))
    assert g.MACHINE.node(s).kind != "move" or move_options(s, s.turn) == (Stay(),)
    s = at_piece(state, "u", "s1")
    s = choose(s, Stay())
    s = choose(s, AttackWith("shortbow", "e1"))
    s = roll(s, AttackTotals(0, 0, 0, 0))
    assert s.pending == (PieceMove(second=True),) and s.turn.budget == 6


def test_ac_reg_5_regiment_moves_before_or_after() -> None:
    """AC-REG-5: a regiment stand that moved before acting does not move after; one that stayed may move after."""
    state = _two_sides([("s1", "hob", (3, 3)), ("s2", "hob", (3, 4))], [("e1", "hob", (8, 3))])
    s = at_piece(state, "u", "s1")
    s = choose(s, next(d for d in move_options(s, s.turn) if isinstance(d, Destination) and (d.x, d.y) == (4, 3)))
    s = choose(s, NoAction()) if isinstance(g.MACHINE.node(s), Decision) and g.MACHINE.node(s).kind == "act" else s
    assert s.turn.piece != "s1"
    s = at_piece(state, "u", "s1")
    s = choose(s, Stay())
    s = choose(s, AttackWith("shortbow", "e1"))
    s = roll(s, AttackTotals(0, 0, 0, 0))
    assert s.pending == (PieceMove(second=True),)


def test_ac_join_2_sb_33_size_rule() -> None:
    """SB-33 (AC-JOIN-2): large may not join small but may join medium; medium may join small, not tiny; anyone may join
    its own size or larger."""
    assert not may_join("large", "small") and may_join("large", "medium")
    assert may_join("medium", "small") and not may_join("medium", "tiny")
    assert may_join("small", "small") and may_join("tiny", "gargantuan")


def test_ac_join_1_sb_35_solo_must_join_a_regiment_stand_it_enters() -> None:
    """SB-35 (AC-JOIN-1, AC-REG-3, AC-SOLO-2): an unattached solo cannot cross an allied regiment stand: entering it
    ends the move, and only as a Join."""
    s = scenario(stands=[("s1", "u", "hob", (4, 3)), ("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "hero", "side": "a", "creature": "hob", "at": [3, 3]}])
    state = at(start(s), Turn("hero", True, action="none", piece="hero", budget=6), PieceMove())
    moves = {(d.x, d.y) for d in move_options(state, state.turn) if isinstance(d, Destination)}
    assert (4, 3) not in moves and (5, 3) in moves  # around, never through
    joining = replace(state, turn=replace(state.turn, action="join"))
    joins = [d for d in move_options(joining, joining.turn)]
    assert all(d.kind == "join" for d in joins) and any(d.stand == "s1" for d in joins)
    after = choose(joining, next(d for d in joins if d.stand == "s1"))
    assert after.solo("hero").joined_to == "s1"


def test_ac_join_5_sb_34_solo_of_eliminated_stand() -> None:
    """SB-34 (AC-JOIN-5, AC-END-1): a PC joined to an eliminated stand is placed on the stand's old square (the default)
    or joins an adjacent stand of its unit."""
    s = scenario(stands=[("s1", "u", "hob", (4, 3)), ("s2", "u", "hob", (4, 4)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "hero", "side": "a", "creature": "hob", "joined_to": "s1", "pc": True}])
    state = with_stand(start(s), "s1", hp=0)
    state = replace(state, turn=None, pending=(EliminateCasualties(),))
    state = g.MACHINE.settle(state, [])
    n = g.MACHINE.node(state)
    assert n.kind == "place_solo"
    assert n.options[0] == PlaceAt(4, 3) and JoinStand("s2") in n.options
    placed = choose(state, n.options[0])
    assert placed.solo("hero").joined_to is None and (placed.solo("hero").x, placed.solo("hero").y) == (4, 3)


def test_ac_cmd_3_sb_36_incite_next_turn() -> None:
    """SB-36 (AC-CMD-3, AC-CMD-4): Incite succeeding on the unit's turn in round 2 gives advantage (``incited``) during
    its turn in round 3, not in round 2."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (4, 3))], units=[unit("u", commander="boss"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "boss", "side": "a", "creature": "hob", "joined_to": "s1", "can_command": True}])
    state = start(s)
    assert g.MACHINE.node(state).kind == "benefit"
    state = choose(state, Benefit("incite"))
    state = roll(state, CommanderCheckOutcome(True))
    assert state.unit("u").incite_next and not state.unit("u").incited
    assert not attack_plan(state, "s1", "longsword", "stand", "e1", supported=False).incited
    after = start_turn(replace(state, turn=Turn("u", False, formation="march")), state.turn, [])
    assert after.unit("u").incited
    assert attack_plan(after, "s1", "longsword", "stand", "e1", supported=False).incited


def test_ac_cmd_3_ac_morale_2_sb_37_prepare_window() -> None:
    """SB-37 (AC-CMD-3, AC-MORALE-2): Prepare succeeding in round 2 gives advantage on the end-of-round-2 morale save
    and until the end of the unit's round-3 turn; not on the end-of-round-3 save."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (9, 3))], units=[unit("u", commander="boss"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "boss", "side": "a", "creature": "hob", "joined_to": "s1", "can_command": True}])
    state = replace(start(s), round=2)
    state = choose(state, Benefit("prepare"))
    state = roll(state, CommanderCheckOutcome(True))
    assert morale_question(state, "u").advantage
    turn = Turn("u", False)
    kept = end_turn(state, turn, [])
    assert kept.unit("u").prepared  # end of the round-2 turn: still prepared
    round3 = end_turn(replace(kept, round=3, turn=turn), turn, [])
    assert not round3.unit("u").prepared and not morale_question(round3, "u").advantage


def test_ac_init_2_sb_38_initiative_modifier() -> None:
    """SB-38 (AC-INIT-2, AC-REG-1, AC-SKIRM-2): stands with Dex +1, +1 and a joined PC with +3: as a regiment the
    modifier is +1, as a skirmisher +3."""
    quick = creature("quick", abilities={"str": 0, "dex": 3, "con": 0, "int": 0, "wis": 0, "cha": 0})
    for kind, expected in (("regiment", 1), ("skirmisher", 3)):
        s = scenario(stands=[("s1", "u", "hob", (0, 0)), ("s2", "u", "hob", (1, 0)), ("e1", "v", "hob", (9, 9))],
                     units=[unit("u", kind=kind), unit("v", "b", "skirmisher")], creatures=[HOB, quick],
                     solos=[{"id": "pc", "side": "a", "creature": "quick", "joined_to": "s1", "pc": True}])
        state = g.MACHINE.settle(initial_state(s), [])
        state = roll(state, 10)
        assert state.rolls[0] == ("u", expected, 10 + expected)


def test_ac_init_3_ties_go_to_modifier_then_random() -> None:
    """AC-INIT-3, AC-INIT-1: equal totals go to the higher modifier; equal both → a fair random order (a chance node
    over the permutations); the order is kept for every round."""
    s = scenario(stands=[("s1", "u", "hob", (0, 0)), ("e1", "v", "hob", (9, 9))], units=[unit("u"), unit("v", "b", "skirmisher")])
    state = g.MACHINE.settle(initial_state(s), [])
    state = roll(roll(state, 10), 10)
    n = g.MACHINE.node(state)
    assert isinstance(n, Chance) and n.kind == "initiative tie"
    assert n.dist.probability(("u", "v")) == n.dist.probability(("v", "u"))


def test_ac_init_5_surprised_loses_first_turn() -> None:
    """AC-INIT-5: a surprised unit neither moves nor acts on its first turn."""
    s = scenario(stands=[("s1", "u", "hob", (0, 0)), ("e1", "v", "hob", (9, 9))], units=[unit("u"), unit("v", "b", "skirmisher")], surprised=["u"])
    state = start(s)
    assert state.turn.actor == "v"


def test_ac_init_4_solo_joined_acts_on_unit_turn() -> None:
    """AC-INIT-4, AC-JOIN-4, AC-ACT-3: a solo joined at the start of the round acts on its unit's turn (here after
    the stand, the default order), not on its own count; it may stay, leave or switch."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (12, 12))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "hero", "side": "a", "creature": "hob", "joined_to": "s1"}])
    state = start(s)
    state = choose(state, Declare("none"))
    assert g.MACHINE.node(state).options == (Activate("s1"), ActivateSolo("hero"))
    state = choose(state, Activate("s1"))
    while g.MACHINE.node(state).kind == "move":
        state = choose(state, Stay())
    n = g.MACHINE.node(state)
    assert n.kind == "joined_move" and Stay() in n.options and any(isinstance(o, Leave) for o in n.options)
    state = choose(state, Stay())
    assert g.MACHINE.node(state).kind in ("act", "action")


def test_ac_morale_6_sb_29_rally_and_routed_retreat() -> None:
    """SB-29 (AC-MORALE-4, AC-MORALE-6, AC-ACT-4): a routed unit with a commander may rally at the start of its turn
    (DC 10, best Wisdom + commander's Charisma); failing, it may only Retreat, never stepping closer to the nearest
    enemy, and the opposing general picks the paths."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (9, 3))], units=[unit("u", commander="boss"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "boss", "side": "a", "creature": "hob", "joined_to": "s1", "can_command": True}])
    state = start(s)
    state = with_unit(state, "u", routed=True)
    state = g.MACHINE.settle(at(state, Turn("u", False, formation="march"), StartTurn()), [])
    assert g.MACHINE.node(state).kind == "rally"
    q = rally_question(state, "u")
    assert q.commander_cha_modifier == -1 and q.mode == "rally"
    state = choose(state, Rally(True))
    state = roll(state, MoraleOutcome(True, True))
    assert state.unit("u").routed
    state = choose(state, Activate("s1"))
    n = g.MACHINE.node(state)
    assert n.kind == "move" and n.player == "b"  # Retreat was the only action; the enemy moves it
    start_gap = 6
    for d in n.options:
        if isinstance(d, Destination):
            assert distance(Footprint(d.x, d.y), Footprint(9, 3)) >= start_gap or d.kind == "flee"


def test_ac_cmd_2_fallen_commander_stops_commanding() -> None:
    """AC-CMD-1, AC-CMD-2: a commander that falls (0 HP) stops being commander at once."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (9, 3))], units=[unit("u", commander="boss"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "boss", "side": "a", "creature": "hob", "joined_to": "s1", "can_command": True}])
    state = start(s)
    assert commander_of(state, "u") is not None
    after = deal(state, "boss", "solo", 20, "b", [])
    assert after.solo("boss").status == "dead" and after.unit("u").commander is None


def test_ac_spell_3_ac_spell_6_ac_aoe_8_stand_area_doubles_joined_solo_saves() -> None:
    """AC-AOE-8, AC-SPELL-6, AC-AOE-7: a stand's area spell doubles (``save`` with caster stand, area); the solo joined
    to a covered stand saves on its own; a partly covered stand is ``partial_coverage``."""
    mage = creature("mage", spells=[{"id": "boom", "range_ft": 150, "form": "area", "shape": "sphere", "size_ft": 20,
                                     "resolution": "save", "save_ability": "dex", "dc": 13, "damage": "2d6"}])
    s = scenario(stands=[("m1", "u", "mage", (0, 0)), ("e1", "v", "hob", (5, 5)), ("o1", "v", "ogre", (6, 5))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[mage, HOB, OGRE],
                 solos=[{"id": "sage", "side": "b", "creature": "hob", "joined_to": "e1"}])
    state = start(s)
    targets = area_targets(state, "m1", area_squares(state, "m1", CastArea("boom", 5, 5)))
    assert ("stand", "e1", False) in targets and ("solo", "sage", False) in targets and ("stand", "o1", True) in targets
    steps = spell_effects(state, "m1", spell_of(state, "m1", "boom"), "o1", "stand", partial=True)
    q = steps[0].question
    assert q.effect.caster == "stand" and q.effect.spell_form == "area" and q.effect.partial_coverage and q.skirmisher


def test_ac_spell_4_solo_targeted_spell_and_stands() -> None:
    """AC-SPELL-4, AC-OBJ-4: a solo's targeted spell reaches only solos unless it could target 5 or more; never objective
    squares."""
    wiz = creature("wiz", spells=[{"id": "bolt", "range_ft": 120, "form": "targeted", "max_targets": 1, "resolution": "attack",
                                   "kind": "ranged", "attack_bonus": 6, "damage": "2d10"},
                                  {"id": "swarm", "range_ft": 120, "form": "targeted", "max_targets": 5, "resolution": "automatic",
                                   "damage": "1d4+1"}])
    s = scenario(stands=[("s1", "u", "hob", (0, 0)), ("e1", "v", "hob", (3, 3))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 creatures=[HOB, wiz], solos=[{"id": "wizard", "side": "a", "creature": "wiz", "at": [2, 2]},
                                              {"id": "hero", "side": "b", "creature": "hob", "at": [4, 1]}],
                 objectives=[{"id": "tower", "kind": "destroy", "side": "a", "square": [2, 4], "hp": 20, "vp": 2}])
    state = start(s)
    options = set(cast_options(state, "wizard"))
    assert Cast("bolt", "hero") in options and Cast("bolt", "e1") not in options and Cast("bolt", "tower") not in options
    assert Cast("swarm", "e1") in options


def test_ac_hide_2_ac_hide_1_ac_hide_3_hide_only_in_cover() -> None:
    """AC-HIDE-1..3: a skirmisher stand in forest or obscured squares rolls Stealth against the best enemy passive
    Perception; one in the open takes no action."""
    state = _two_sides([("s1", "hob", (3, 3)), ("s2", "hob", (3, 5))], [("e1", "hob", (12, 12))], kind="skirmisher",
                       terrain=[{"at": [3, 3], "kind": "forest"}])
    s = at_step(at_piece(state, "u", "s1", action="hide"), PieceAct())
    s = g.MACHINE.settle(s, [])
    assert isinstance(g.MACHINE.node(s), Chance) and s.pending[0].dc == 10
    s2 = at_step(at_piece(state, "u", "s2", action="hide"), PieceAct())
    s2 = g.MACHINE.settle(s2, [])
    assert not any(isinstance(p, StealthRoll) for p in s2.pending)


def test_ac_hide_4_hidden_flags_and_reveal() -> None:
    """AC-HIDE-4: attacks on a hidden stand have disadvantage, its own attacks advantage; attacking reveals it, and so
    does an enemy ending a move next to it."""
    state = _two_sides([("s1", "hob", (3, 3))], [("e1", "hob", (4, 3))], kind="skirmisher")
    state = with_stand(state, "s1", hidden=True)
    assert attack_plan(state, "e1", "longsword", "stand", "s1", supported=False).extra_disadvantage
    assert attack_plan(state, "s1", "longsword", "stand", "e1", supported=False).extra_advantage
    assert not unhide(state, "s1", []).stand("s1").hidden
    assert not reveal_near(state, "e1", []).stand("s1").hidden


def test_ac_unit_2_ac_act_2_one_action_per_unit() -> None:
    """AC-UNIT-2, AC-ACT-2, AC-ACT-5: the unit declares one action; each stand then takes that action or none (an Attack
    turn offers attacks and no action, never a spell or a bonus action)."""
    state = _two_sides([("s1", "hob", (3, 3))], [("e1", "hob", (4, 3))])
    s = at_step(at_piece(state, "u", "s1"), PieceAct())
    kinds = {type(o) for o in act_options(s, s.turn)}
    assert kinds == {AttackWith, NoAction}


@pytest.mark.parametrize("action", ["dash", "retreat", "none"])
def test_ac_act_1_non_attack_actions_skip_the_act_step(action: str) -> None:
    """AC-ACT-1: Dash, Retreat and no action give a stand nothing to do at its action step."""
    state = _two_sides([("s1", "hob", (3, 3)), ("s2", "hob", (3, 4))], [("e1", "hob", (12, 3))], kind="skirmisher")
    s = at_piece(state, "u", "s1", action=action)
    s = choose(s, Stay())
    assert g.MACHINE.node(s).kind == "move" and s.pending == (PieceMove(second=True),)
