"""armies-clash engine: the end of the round, morale, objectives and the end of the battle (§5.24–§5.27; scenario
behaviours SB-26..SB-32)."""

from __future__ import annotations

from dataclasses import replace

from armies_clash_engine_helpers import choose, roll, scenario, start, unit, with_stand

from kessen.core.engine import Chance, Decision, Rolled, Terminal
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee.attack import attack_dist, attack_plan
from kessen.rulesets.armies_clash.referee.damage import deal
from kessen.rulesets.armies_clash.referee.ending import verdict
from kessen.rulesets.armies_clash.referee.integrity import isolation
from kessen.rulesets.armies_clash.referee.objectives import damage_objective, defend
from kessen.rulesets.armies_clash.referee.options import Award, NoShift, Shift
from kessen.rulesets.armies_clash.referee.pieces import commander_of
from kessen.rulesets.armies_clash.referee.state import AcState, Turn
from kessen.rulesets.armies_clash.referee.steps import END_OF_ROUND, AttackRoll, EndTurn, Judge, MoraleRoll, ShiftGap
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, AttackTotals
from kessen.rulesets.armies_clash.rules.dying import DeathSavesOutcome
from kessen.rulesets.armies_clash.rules.ending import rout_chance
from kessen.rulesets.armies_clash.rules.morale import MoraleOutcome


def _end_round(state: AcState) -> AcState:
    return g.MACHINE.settle(replace(state, turn=None, pending=END_OF_ROUND), [])


def test_ac_end_1_ac_end_2_sb_26_eliminate_and_shift() -> None:
    """SB-26 (AC-END-1, AC-END-2): casualty (2,2) with (3,2) and (2,3): (2,2) is removed and the general may move one
    of them one step into it; the new gap cannot be refilled."""
    s = scenario(stands=[("c", "u", "hob", (2, 2)), ("r", "u", "hob", (3, 2)), ("d", "u", "hob", (2, 3)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u"), unit("v", "b", "skirmisher")])
    state = _end_round(with_stand(start(s), "c", hp=0))
    n = g.MACHINE.node(state)
    assert isinstance(n, Decision) and n.kind == "shift" and n.player == "a"
    assert set(n.options) == {Shift("r", -1, 0), Shift("d", 0, -1), NoShift()}
    after = choose(state, Shift("r", -1, 0))
    assert (after.stand("r").x, after.stand("r").y) == (2, 2) and after.stand("c") is None
    assert not any(isinstance(p, ShiftGap) for p in after.pending)


def test_ac_end_6_ac_morale_1_sb_27_morale_after_removal() -> None:
    """SB-27 (AC-END-6, AC-MORALE-1, AC-END order): 3 casualties of 6 starting stands → removed first, then a morale
    check; 2 casualties of 5 → no check."""
    six = [(f"s{i}", "u", "hob", (i, 0)) for i in range(6)]
    s = scenario(stands=six + [("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")])
    state = start(s)
    for i in range(3):
        state = with_stand(state, f"s{i}", hp=0)
    state = _end_round(state)
    while isinstance(g.MACHINE.node(state), Decision):
        state = choose(state, g.MACHINE.node(state).options[-1])
    assert isinstance(g.MACHINE.node(state), Chance) and g.MACHINE.node(state).kind == "morale"
    assert len(state.unit_stands("u")) == 3
    five = [(f"s{i}", "u", "hob", (i, 0)) for i in range(5)]
    state = start(scenario(stands=five + [("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")]))
    state = _end_round(with_stand(with_stand(state, "s0", hp=0), "s1", hp=0))
    while isinstance(g.MACHINE.node(state), Decision):
        state = choose(state, g.MACHINE.node(state).options[-1])
    assert not any(isinstance(p, MoraleRoll) for p in state.pending)


def test_ac_morale_1_sb_28_checks_again_each_round() -> None:
    """SB-28 (AC-MORALE-1, AC-MORALE-3): a unit that passed last round and still has lost half checks again; failing
    routs it."""
    stands = [("s0", "u", "hob", (0, 0)), ("s1", "u", "hob", (1, 0)), ("e1", "v", "hob", (15, 15))]
    state = start(scenario(stands=stands, units=[unit("u"), unit("v", "b", "skirmisher")]))
    state = replace(state, stands=tuple(s for s in state.stands if s.id != "s1"))
    for _ in range(2):
        state = _end_round(state)
        assert isinstance(g.MACHINE.node(state), Chance) and g.MACHINE.node(state).kind == "morale"
        state = roll(state, MoraleOutcome(True, False))
    state = _end_round(state)
    state = roll(state, MoraleOutcome(True, True))
    assert state.unit("u").routed


def test_ac_obj_5_ac_end_7_sb_30_defend() -> None:
    """SB-30 (AC-OBJ-5, AC-END-7): b defends (10,10) with stands at (10,9) and (11,10), nearest enemy at (10,13): 1 VP;
    an enemy solo at (12,11) (distance 3) still 1 VP; at (12,10) (distance 2) none."""
    for solo_at, vp in ((None, 1), ((12, 11), 1), ((12, 10), 0)):
        solos = [{"id": "hero", "side": "a", "creature": "hob", "at": list(solo_at)}] if solo_at else []
        s = scenario(
            stands=[("d1", "v", "hob", (10, 9)), ("d2", "v", "hob", (11, 10)), ("e1", "u", "hob", (10, 13))],
            units=[unit("u", kind="skirmisher"), unit("v", "b")], solos=solos,
            objectives=[{"id": "gate", "kind": "destroy", "side": "a", "square": [10, 10], "hp": 30, "vp": 3},
                        {"id": "hold", "kind": "defend", "side": "b", "protects": "gate"}],
        )
        state = defend(start(s), [])
        assert state.vp == (0, vp)


def test_ac_obj_3_ac_obj_4_sb_31_destroy_objective() -> None:
    """SB-31 (AC-OBJ-3, AC-OBJ-4): a melee attack on a destroy objective makes no roll (automatic hit); at 0 HP side a
    gains its 4 VP at once; a wrecked road square becomes difficult (AC-TERR-2)."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 terrain=[{"at": [4, 3], "kind": "road"}],
                 objectives=[{"id": "gate", "kind": "destroy", "side": "a", "square": [4, 3], "hp": 20, "vp": 4}])
    state = start(s)
    q = attack_plan(state, "s1", "longsword", "objective", "gate", supported=False)
    assert isinstance(q, AttackQuestion) and q.target == "objective"
    dist = attack_dist(q)
    assert dist.probability(lambda o: o.hits == 1) == 1
    state = damage_objective(state, "gate", 25, [])
    assert state.hp_of("gate") == 0 and state.vp == (4, 0)
    assert (4, 3) in state.wrecked()


def test_ac_win_1_ac_win_2_sb_32_battle_end() -> None:
    """SB-32 (AC-WIN-1, AC-WIN-2, AC-END-8): 12 vs 9 decisive (each surviving b unit rolls to flee, 11/20); 12 vs 10
    tactical; 10 vs 10 draw, or one more round with extra_round_on_tie; 9 vs 9 continues."""
    assert verdict(12, 9) == ("decisive", "a") and verdict(12, 10) == ("tactical", "a") and verdict(10, 10) == ("draw", "")
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")])
    base = start(s)
    decisive = g.MACHINE.settle(replace(base, vp=(12, 9), turn=None, pending=(Judge(),)), [])
    n = g.MACHINE.node(decisive)
    assert isinstance(n, Chance) and n.kind == "rout" and n.dist.probability(Rolled(True)) == rout_chance()
    done = roll(decisive, Rolled(True))
    assert isinstance(g.MACHINE.node(done), Terminal) and done.unit("v").eliminated and done.vp == (12, 9)  # AC-WIN-3: no VP
    tactical = g.MACHINE.settle(replace(base, vp=(12, 10), turn=None, pending=(Judge(),)), [])
    assert isinstance(g.MACHINE.node(tactical), Terminal) and tactical.result == "tactical"
    goes_on = g.MACHINE.settle(replace(base, vp=(9, 9), turn=None, pending=(Judge(),)), [])
    assert not goes_on.ended and goes_on.round == base.round + 1
    tie = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")], extra_round_on_tie=True)
    again = g.MACHINE.settle(replace(start(tie), vp=(10, 10), turn=None, pending=(Judge(),)), [])
    assert not again.ended and again.extra_round
    second = g.MACHINE.settle(replace(again, turn=None, pending=(Judge(),)), [])
    assert second.ended and second.result == "draw"  # AC-WIN-4


def test_ac_obj_2_ac_end_3_attrition() -> None:
    """AC-OBJ-2, AC-END-3: a unit with no stands left is eliminated at the end of the round; the enemy's attrition
    objective scores its attrition_vp (else vp_per_unit)."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("s2", "w", "hob", (5, 5)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u", attrition_vp=5), unit("w"), unit("v", "b", "skirmisher")],
                 objectives=[{"id": "kill", "kind": "attrition", "side": "b", "vp_per_unit": 2}])
    state = start(s)
    state = _end_round(with_stand(with_stand(state, "s1", hp=0), "s2", hp=0))
    while isinstance(g.MACHINE.node(state), Decision):
        state = choose(state, g.MACHINE.node(state).options[-1])
    assert state.unit("u").eliminated and state.unit("w").eliminated and state.vp == (0, 7)


def test_ac_end_4_death_saves_at_end_of_round() -> None:
    """AC-END-4: a dying solo rolls death saves at the end of the round from its current tallies (``death_saves``)."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "pc", "side": "a", "creature": "hob", "at": [5, 5], "pc": True}])
    state = start(s)
    state = deal(state, "pc", "solo", 11, "b", [])
    state = deal(state, "pc", "solo", 1, "b", [])
    assert (state.solo("pc").status, state.solo("pc").failures) == ("dying", 1)
    state = _end_round(state)
    n = g.MACHINE.node(state)
    assert isinstance(n, Chance) and n.kind == "death saves"
    assert n.dist.probability(lambda o: o.result == "dead") > 0
    revived = roll(state, DeathSavesOutcome("revived", 1))
    assert revived.solo("pc").status == "up" and revived.solo("pc").hp == 1


def test_ac_end_5_isolation_recomputed_after_removal() -> None:
    """AC-END-5: after casualties are removed, isolation is recomputed: a regiment stand whose only neighbour was a
    casualty is isolated."""
    s = scenario(stands=[("s0", "u", "hob", (0, 0)), ("s1", "u", "hob", (1, 0)), ("s2", "u", "hob", (5, 0)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u"), unit("v", "b", "skirmisher")])
    state = isolation(start(s), [])
    assert not state.stand("s0").isolated
    state = _end_round(with_stand(state, "s1", hp=0))
    while isinstance(n := g.MACHINE.node(state), Decision) and n.kind == "shift":
        state = choose(state, NoShift())
    assert state.stand("s1") is None and state.stand("s0").isolated


def test_ac_obj_6_custom_objective_by_concession() -> None:
    """AC-OBJ-6: a custom objective is scored when awarded (the scorer's opponent concedes it at the end of a round)."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 objectives=[{"id": "slay", "kind": "custom", "side": "a", "vp": 3, "text": "slay the chief"}])
    state = _end_round(start(s))
    n = g.MACHINE.node(state)
    assert isinstance(n, Decision) and n.kind == "custom_objective" and n.player == "b" and n.options[0] == Award(False)
    assert choose(state, Award(True)).vp == (3, 0)


def test_ac_round_1_ac_round_2_turns_then_end_of_round() -> None:
    """AC-ROUND-1, AC-ROUND-2, AC-SCALE-1: units take turns in initiative order; when all are done the end-of-round
    steps run and the next round starts."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (15, 15))], units=[unit("u"), unit("v", "b", "skirmisher")])
    state = start(s, ["v", "u"])
    assert state.turn.actor == "v" and state.round == 1
    state = g.MACHINE.settle(replace(state, turn=Turn("v", False), pending=(EndTurn(),)), [])
    assert state.turn.actor == "u"
    state = g.MACHINE.settle(replace(state, turn=Turn("u", False), pending=(EndTurn(),)), [])
    assert state.round == 2 and state.turn.actor == "v"


def test_ac_setup_1_ac_setup_2_ac_setup_3_setup() -> None:
    """AC-SETUP-1..3: formations, joined solos and commanders come from the scenario; a solo joined at setup acts on
    its unit's turn without a Join action; starting stands are recorded."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("s2", "u", "hob", (3, 4)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u", formation="support", commander="boss"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "boss", "side": "a", "creature": "hob", "joined_to": "s1", "can_command": True}])
    state = start(s)
    assert state.unit("u").starting_stands == 2 and state.unit("u").formation == "support"
    assert commander_of(state, "u").id == "boss"


def test_ac_dmg_1_hp_never_below_zero() -> None:
    """AC-DMG-1, AC-ATTACK-4: applying an attack's damage lowers HP, never below 0."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (4, 3))], units=[unit("u"), unit("v", "b", "skirmisher")])
    state = start(s)
    state = replace(state, pending=(AttackRoll("s1", "a", "e1", "stand", "longsword",
                                                 attack_plan(state, "s1", "longsword", "stand", "e1", supported=False)),))
    after = roll(state, AttackTotals(1, 1, 17, 0))
    assert after.stand("e1").hp == 0
