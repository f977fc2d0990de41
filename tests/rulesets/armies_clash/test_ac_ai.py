"""The armies-clash AI (issue 23 §2): greedy walks the way around deep water to strike (the ogre of hold-the-bridge
never attacked), and the search's tactics: what it searches, which move ends, and what a position is worth."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kessen.ai.search import Budget, SearchAI
from kessen.core.engine import Decision
from kessen.core.replay import play
from kessen.rulesets import get_ruleset
from kessen.rulesets.armies_clash.ai import AcAI, AcTactics
from kessen.rulesets.armies_clash.ai.evaluation import SPELL_WORTH, expected_vp, holding, worth
from kessen.rulesets.armies_clash.ai.greedy import closes_to_melee, expected_damage, wet
from kessen.rulesets.armies_clash.ai.paths import UNREACHABLE, gap_in, walking_gap, walking_gaps
from kessen.rulesets.armies_clash.ai.shelter import area_reach, sheltering_ends
from kessen.rulesets.armies_clash.ai.area import area_harm
from kessen.rulesets.armies_clash.ai.tactics import distinct_ends, worth_benefits
from kessen.rulesets.armies_clash.referee.pieces import goals, piece_footprint
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.rules.grid import Footprint, Grid, Terrain, distance, goal_distances
from kessen.rulesets.armies_clash.referee.options import AttackWith, Benefit, CastArea, NoAction, Stay
from kessen.rulesets.armies_clash.rules.movement import Destination, speed_squares
from kessen.sim.play import play_from

ROOT = Path(__file__).resolve().parents[3]
GAME = get_ruleset("armies-clash").game
BRIDGE = ROOT / "examples" / "armies-clash" / "hold-the-bridge.toml"
FORDS = ROOT / "benchmarks" / "mirrors" / "armies-clash-two-fords.toml"
HORDE = ROOT / "tests" / "data" / "scenarios" / "goblin-horde-16-stands.toml"  # positions pinned below


def _bridge() -> AcState:
    return _start(BRIDGE)


def _start(path: Path) -> AcState:
    state, _ = GAME.start(GAME.load_scenario(path.read_text(), str(path)))
    return state


def _to_decision(state: AcState, kind: str, actor: str) -> tuple[AcState, Decision]:
    """Greedy plays on (chance nodes take their first outcome) to *actor*'s next *kind* decision."""
    for _ in range(5000):
        node = GAME.node(state)
        if isinstance(node, Decision):
            if node.kind == kind and node.actor == actor:
                return state, node
            state, _ = GAME.apply(state, AcAI(node.player).decide(state, node))
        else:
            state, _ = GAME.apply(state, next(iter(node.dist.probabilities())))  # type: ignore[union-attr]
    raise AssertionError(f"no {kind} decision of {actor}")


def test_ac_paths_a_large_footprint_cannot_take_a_one_square_bridge() -> None:
    """AC-MOVE-4, AC-TERR-4, AC-STAND-2: across a river of deep water with a bridge one square wide, a medium piece
    walks over it and a large (2 x 2) one finds no way; a ford two squares wide lets it wade across."""
    river = tuple(((5, y), Terrain("deep_water")) for y in range(8) if y != 4)
    grid = Grid(10, 8, river)
    goal = (Footprint(8, 4, 1),)
    assert walking_gap(grid, Footprint(1, 4, 1), False, goal) == 7  # 6 steps east to (7, 4), then it strikes
    assert walking_gap(grid, Footprint(1, 3, 2), False, goal) >= UNREACHABLE
    ford = Grid(10, 8, tuple((s, t) for s, t in river if s[1] not in (0, 1)) + (((5, 0), Terrain("shallow_water")), ((5, 1), Terrain("shallow_water"))))
    assert walking_gap(ford, Footprint(1, 3, 2), False, goal) < UNREACHABLE
    assert walking_gap(grid, Footprint(1, 3, 2), True, goal) < UNREACHABLE  # a swimmer crosses anywhere


def test_ac_paths_the_walking_gaps_of_a_goal_set_are_one_shared_read_only_table() -> None:
    """AC-MOVE-4, issue 26: the walking gaps toward a set of goals are worked out once and shared by every caller
    (the greedy AI reads a move's every end from them), so no caller may change them."""
    river = tuple(((5, y), Terrain("deep_water")) for y in range(8) if y != 4)
    grid, goal = Grid(10, 8, river), (Footprint(8, 4, 1),)
    gaps = walking_gaps(grid, 1, False, goal)
    assert gaps is walking_gaps(Grid(10, 8, river), 1, False, goal)  # an equal grid hashes and compares equal
    assert gaps[(1, 4)] == 7 and gap_in(gaps, Footprint(1, 4, 1), goal) == walking_gap(grid, Footprint(1, 4, 1), False, goal)
    with pytest.raises(TypeError):
        gaps[(1, 4)] = 1  # type: ignore[index]


def test_ac_blunder_the_ogre_of_hold_the_bridge_walks_to_the_ford_and_attacks() -> None:
    """AC-ATTACK-2: the ogre (large) could never reach a hobgoblin: it stood by the bridge it cannot cross, shot at
    for 12 rounds (50 of 50 battles without an attack). Greedy now walks it the way that leads to striking distance
    (the ford upstream), each move nearer by that path, and it strikes in the battle."""
    state, decision = _to_decision(_bridge(), "move", "ogre-1")
    targets = goals(state, "a")
    here = piece_footprint(state, "ogre-1")
    before = walking_gap(state.grid, here, False, targets)
    assert before < UNREACHABLE
    choice = AcAI("a").decide(state, decision)
    assert isinstance(choice, Destination)
    assert walking_gap(state.grid, Footprint(choice.x, choice.y, 2), False, targets) < before
    played = play(GAME, GAME.load_scenario(BRIDGE.read_text(), str(BRIDGE)), {s: AcAI(s) for s in ("a", "b")}, 1)
    assert any(type(e).__name__ == "Attacked" and getattr(e, "attacker", "") == "ogre-1" for e in played.events)


def test_ac_i23_2_AC_OBJ_4_orcs_close_with_the_greataxe_instead_of_hanging_back_at_javelin_range() -> None:
    """Issue 23 §2, AC-ATTACK-2, AC-OBJ-4: an orc strikes harder with its greataxe (1d12+3) than with a javelin
    (1d6+3, 30 ft), and a melee blow at an objective square hits automatically; greedy stopped the orcs of
    hold-the-bridge 2 squares from the bridge and threw javelins (with disadvantage from beyond 30 ft). The first
    orc now walks next to the bridge and hews it with the greataxe (the objective's damage counted double)."""
    state, decision = _to_decision(_bridge(), "move", "orc-1")
    assert closes_to_melee(state.creature("orc")) and not closes_to_melee(state.creature("hobgoblin"))
    choice = AcAI("a").decide(state, decision)
    assert isinstance(choice, Destination)
    bridge = Footprint(7, 4, 1)
    assert distance(Footprint(choice.x, choice.y, 1), bridge) <= 1
    state, decision = _to_decision(state, "act", "orc-1")
    hew = AcAI("a").decide(state, decision)
    assert hew == AttackWith("greataxe", "break-the-bridge")
    assert expected_damage(state, "orc-1", hew) == 19  # an automatic hit of 1d12+3 (6.5 + 3), doubled


def test_ac_i23_2_AC_RANGE_2_archers_do_not_shoot_the_shrine_from_long_range_over_an_enemy() -> None:
    """Issue 23 §2, AC-RANGE-2, AC-OBJ-4: a goblin archer of the two-fords mirror with a shot at disadvantage (long
    range) at the enemy's shrine and one at an orc shot at the shrine, its damage counted double for the VP. From
    long range the square counts what the shot does, so the archer shoots the orc (1.99 against 1.38 damage)."""
    state, decision = _to_decision(_start(FORDS), "act", "b-bow-1")
    shrine, orc = AttackWith("shortbow", "b-raid"), AttackWith("shortbow", "a-orc-1")
    assert shrine in decision.options and orc in decision.options
    at_shrine, at_orc = expected_damage(state, "b-bow-1", shrine), expected_damage(state, "b-bow-1", orc)
    assert at_shrine < at_orc < 2 * at_shrine
    narrowed = replace(decision, options=(shrine, orc, NoAction()))
    assert AcAI("b").decide(state, narrowed) == orc


def test_ac_i23_2_AC_TERR_4_orcs_do_not_dash_into_the_ford() -> None:
    """Issue 23 §2, AC-TERR-4, AC-DASH-1: the orcs of the two-fords mirror, too far to strike, Dashed into the
    shallow ford (difficult) right in front of the enemy ogre, which struck first. A dashing piece now stops where
    its next turn's move strikes from, on dry ground (seed 2, the first orc's dash)."""
    class Found(Exception):
        pass

    class Spy:
        def __init__(self, side: str) -> None:
            self.greedy = AcAI(side)

        def decide(self, state: AcState, decision: Decision) -> Any:
            if decision.kind == "move" and decision.actor == "a-orc-1" and state.turn and state.turn.doing == "dash":
                raise Found(state, decision)
            return self.greedy.decide(state, decision)

    with pytest.raises(Found) as found:
        play_from(GAME, _start(FORDS), 2, deciders={"a": Spy("a"), "b": Spy("b")})
    state, decision = found.value.args
    assert any(isinstance(o, Destination) and wet(state, Footprint(o.x, o.y, 1)) for o in decision.options)
    choice = AcAI("a").decide(state, decision)
    assert isinstance(choice, Destination) and not wet(state, Footprint(choice.x, choice.y, 1))
    targets = goals(state, "a")
    assert walking_gap(state.grid, Footprint(choice.x, choice.y, 1), False, targets) == speed_squares(30) + 1
    assert walking_gap(state.grid, Footprint(choice.x, choice.y, 1), False, targets) < walking_gap(
        state.grid, piece_footprint(state, "a-orc-1"), False, targets)


def test_ac_tactics_weigh_one_move_end_per_distance_with_greedys_first() -> None:
    """At a move, greedy's end first, then one end for each distance from the nearest goal, nearest first, and
    staying; decisions that are not searched get greedy's choice alone."""
    state, decision = _to_decision(_bridge(), "move", "orc-1")
    found = AcTactics().candidates(state, decision, 12)
    assert found[0] == AcAI("a").decide(state, decision)
    ends = distinct_ends(state, decision.options)
    assert len(ends) < len(decision.options) and all(e in decision.options for e in ends)
    assert len(set(map(repr, found))) == len(found) <= 12
    state, decision = _to_decision(state, "activate", "bridge-guard")
    assert AcTactics().candidates(state, decision, 12) == [AcAI("b").decide(state, decision)]


def test_ac_tactics_i23_an_archer_that_would_walk_off_alone_weighs_ends_that_keep_its_unit_together() -> None:
    """Issue 23 §5, AC-INTEG-3, AC-TERR-3: in the two-fords mirror greedy walks the first goblin archer across the
    ford alone, to shooting distance (then struck with advantage for double damage: isolated). The search weighs
    the ends within 2 squares of its mate first, in the wood where one is, one per distance from the nearest goal."""
    state, decision = _to_decision(_start(FORDS), "move", "a-bow-2")
    greedy = AcAI("a").decide(state, decision)
    mate = piece_footprint(state, "a-bow-1")
    assert isinstance(greedy, Destination) and distance(Footprint(greedy.x, greedy.y, 1), mate) > 2
    found = AcTactics().candidates(state, decision, 4)
    assert found[0] == greedy and len(found) == 4
    rivals = [Footprint(o.x, o.y, 1) for o in found[1:]]
    assert all(distance(end, mate) <= 2 for end in rivals)
    assert any(state.grid.at((end.x, end.y)).kind == "forest" for end in rivals)
    aims = goal_distances(state.grid.width, state.grid.height, goals(state, "a"))
    gaps = [aims.to(end) for end in rivals]
    assert gaps == sorted(gaps) and len(set(gaps)) == len(gaps)


def test_ac_tactics_i23_a_walkers_ends_go_by_the_walking_distance() -> None:
    """Issue 23 §5, AC-TERR-4: the ogre of hold-the-bridge (large: the bridge is too narrow for it) must walk to the
    ford; its ends are one per walking distance to striking reach, as greedy reckons them, not per straight distance
    across the river."""
    state, decision = _to_decision(_bridge(), "move", "ogre-1")
    targets = goals(state, "a")
    ends = distinct_ends(state, decision.options)
    walks = [walking_gap(state.grid, Footprint(e.x, e.y, 2), False, targets) for e in ends]
    assert len(set(walks)) == len(walks) and walks == sorted(walks)  # the ogre has no mates: none is loose
    straight = goal_distances(state.grid.width, state.grid.height, targets)
    assert len({straight.at(e.x, e.y, 2) for e in ends}) < len(ends)  # straight distance would merge some of them


def test_ac_tactics_i23_5_AC_ATTACK_1_shots_at_like_stands_of_one_unit_are_weighed_once() -> None:
    """Issue 23 §5, AC-ATTACK-1, AC-ACT-1: a hobgoblin archer may shoot any of four unhurt orc stands of one
    regiment (the same odds, the same damage) or the ogre; the search weighed the orcs against each other, which
    only the dice tell apart. It now weighs one shot per unit and HP (greedy's first), and never no action where a
    shot does damage."""
    state, decision = _to_decision(_bridge(), "act", "bow-1")
    shots = [o for o in decision.options if isinstance(o, AttackWith)]
    assert len({state.stand(o.target).unit for o in shots if state.stand(o.target)}) < len(shots)
    found = AcTactics().candidates(state, decision, 12)
    assert found[0] == AcAI("b").decide(state, decision) and NoAction() not in found
    kinds = [(state.stand(o.target).unit, state.stand(o.target).hp, o.using) for o in found if state.stand(o.target)]
    assert len(kinds) == len(set(kinds)) == len(found) >= 2  # the orcs once, the ogre once


def test_ac_evaluation_i23_5_AC_OBJ_5_a_defender_counts_the_hold_of_its_square() -> None:
    """Issue 23 §5, AC-OBJ-5: the hobgoblins of hold-the-bridge score 1 VP a round while two of their stands stand on
    or next to the bridge with no orc within 2 squares; the evaluation counts that VP on the way (half with one
    stand there, whole with two, nothing with an enemy near), so the search weighs keeping the bridge held."""
    start = _bridge()
    assert holding(start, "b", "break-the-bridge") == 0.5  # hob-2 alone next to it
    moved = replace(start, stands=tuple(replace(s, x=7, y=4) if s.id == "hob-1" else s for s in start.stands))
    assert holding(moved, "b", "break-the-bridge") == 1.0
    assert expected_vp(moved, "b") == expected_vp(start, "b") + 0.5
    assert worth(moved, "b") > worth(start, "b")
    near = replace(moved, stands=tuple(replace(s, x=5, y=4) if s.id == "orc-2" else s for s in moved.stands))
    assert holding(near, "b", "break-the-bridge") == 0.0


def test_ac_evaluation_counts_vp_and_the_vp_on_the_way_zero_sum() -> None:
    """AC-OBJ-2, AC-OBJ-3: worth is zero-sum; a battered bridge is VP on the way for the orcs, a scored VP more."""
    state = _bridge()
    assert worth(state, "a") == -worth(state, "b")
    battered = replace(state, objective_hp=tuple((i, h // 2 if i == "break-the-bridge" else h) for i, h in state.objective_hp))
    assert dict(state.objective_hp)["break-the-bridge"] == 90  # issue 23 §4: a stone bridge, halved to 45 here
    assert expected_vp(battered, "a") == expected_vp(state, "a") + 2  # half of its 4 VP
    assert worth(battered, "a") > worth(state, "a")
    scored = replace(state, vp=(3, 0))
    assert 0 < worth(scored, "a") < 1 and worth(scored, "b") == -worth(scored, "a")


def test_ac_search_decides_as_a_pure_function_of_the_position() -> None:
    """The search on armies-clash's tactics answers a move with one of its options, the same twice."""
    state, decision = _to_decision(_bridge(), "move", "orc-1")
    ai = SearchAI(GAME, AcTactics(), "a", Budget(nodes=150))
    choice = ai.decide(state, decision)
    assert choice in decision.options and ai.decide(state, decision) == choice


def test_ac_tactics_issue23_AC_CMD_3_a_commander_weighs_incite_and_prepare_not_no_benefit() -> None:
    """Issue 23 §5, AC-CMD-3: Incite and Prepare only help (a failed check costs nothing), so the search weighs no
    bonus action only where the commander can use neither (its unit routed), and never giving the post up: in
    goblin-horde the search's captain had weighed "none" beside them and taken it on the playouts' dice."""
    state, decision = _to_decision(_start(HORDE), "benefit", "captain")
    assert Benefit("none") in decision.options
    assert list(AcTactics().candidates(state, decision, 4)) == [Benefit("incite"), Benefit("prepare")]
    routed = (Benefit("none"), Benefit("resign"))
    assert worth_benefits(routed) == [Benefit("none")]
    assert worth_benefits((Benefit("command"), Benefit("none"))) == [Benefit("command"), Benefit("none")]


def test_ac_tactics_issue23_AC_DMG_2_a_fireball_is_ranked_by_the_hp_it_can_take() -> None:
    """Issue 23 §5, AC-AOE-7, AC-DMG-2: the goblin-horde wizard's first fireball; greedy's aim (6, 3) covers four
    stands of the goblin mob and its boss (8d6 on each: 140 by greedy's count), but the mob has 42 HP left, which
    overflow alone takes; (7, 3) covers two of the mob, the boss and a stand of the left-hand horde, so it reaches a
    second unit. The search ranks aims by the damage each unit and solo can take (its HP left: 42 + 21 against
    42 + 21 + 28) and weighs (7, 3) beside greedy's."""
    state, decision = _to_decision(_start(HORDE), "act", "wizard")
    greedy = AcAI("b").decide(state, decision)
    assert greedy == CastArea(spell="fireball", x=6, y=3)
    assert area_harm(state, "wizard", greedy) == 42 + 21
    assert area_harm(state, "wizard", CastArea(spell="fireball", x=7, y=3)) == 42 + 21 + 28
    found = list(AcTactics().candidates(state, decision, 4))
    assert found[0] == greedy and found[1] == CastArea(spell="fireball", x=7, y=3) and len(found) == 4


def test_ac_tactics_issue23_AC_ATTACK_1_AC_D20_8_only_the_strongest_routine_on_a_target_and_no_weak_shots() -> None:
    """Issue 23 §5, AC-ATTACK-1, AC-D20-8: the goblin-horde captain in contact with a goblin may strike it with its
    multiattack (two longswords, 9.45 HP on average) or one longsword (4.725): the search weighed both and took the
    single sword on the playouts' dice; it now weighs only the multiattack, so the decision is not searched. A pike
    stand in contact weighs its pike (6.4) and the crossbow shot at an isolated goblin (5.4), not the shots at
    disadvantage at the others (1.125 each: less than a quarter of the pike's)."""
    state, decision = _to_decision(_start(HORDE), "act", "captain")
    swords = [o for o in decision.options if isinstance(o, AttackWith) and o.target == "gob-m5"]
    assert {o.using for o in swords} == {"multiattack", "longsword"}
    assert float(expected_damage(state, "captain", swords[0])) == 9.45
    assert float(expected_damage(state, "captain", swords[1])) == 4.725
    assert list(AcTactics().candidates(state, decision, 4)) == [AttackWith(using="multiattack", target="gob-m5")]
    state, decision = _to_decision(_start(HORDE), "act", "pike-2")
    assert len([o for o in decision.options if isinstance(o, AttackWith)]) > 10
    assert list(AcTactics().candidates(state, decision, 4)) == [
        AttackWith(using="pike", target="gob-m5"), AttackWith(using="crossbow", target="gob-r2")]


def test_ac_evaluation_issue23_5_AC_SPELL_1_a_casters_area_spells_left_count_as_vp_on_the_way() -> None:
    """Issue 23 §5, AC-SPELL-1: the goblin-horde wizard's two fireballs left count ``SPELL_WORTH`` VP each for the
    humans while it stands, one after a cast, none once it falls: the search weighs keeping the wizard alive to cast
    them (the humans won 15 of 18 battles with both cast, 0 of 12 with none, greedy against greedy)."""
    start = _start(HORDE)
    assert expected_vp(start, "b") == 2 * SPELL_WORTH and expected_vp(start, "a") == 0
    cast = replace(start, solos=tuple(replace(s, spells_used=(("fireball", 1),)) if s.id == "wizard" else s for s in start.solos))
    assert expected_vp(cast, "b") == SPELL_WORTH
    down = replace(start, solos=tuple(replace(s, hp=0, status="dying") if s.id == "wizard" else s for s in start.solos))
    assert expected_vp(down, "b") == 0
    assert worth(start, "b") > worth(cast, "b") > worth(down, "b") and worth(start, "a") == -worth(start, "b")
    assert expected_vp(_bridge(), "b") == expected_vp(replace(_bridge(), solos=()), "b")  # no caster: as before


def test_ac_tactics_issue23_5_AC_INTEG_4_the_wizard_casts_from_where_a_stand_shelters_it_out_of_short_bow_range() -> None:
    """Issue 23 §5, AC-SOLO-4, AC-INTEG-1, AC-INTEG-4, AC-RANGE-2: at the goblin-horde wizard's first move (the goblins
    have closed to 5 squares of it) greedy walks it to (10, 2), a square from a goblin; the search's first candidate
    is its safest end: it stays at (13, 4), 2 squares from a pike stand (not isolated: shots at it have no advantage
    and deal single damage), 5 from the nearest goblin (out of the shortbows' 4-square short range), with the best
    fireball (91 HP to take) still in its 8 squares' reach; every end it weighs keeps it within 2 of a stand."""
    state, decision = _to_decision(_start(HORDE), "move", "wizard")
    assert AcAI("b").decide(state, decision) == Destination(x=10, y=2, cost=5, road=False)
    found = list(AcTactics().candidates(state, decision, 4))
    assert found[0] == Stay() and len(found) == 4 and len(set(map(repr, found))) == 4
    here = piece_footprint(state, "wizard")
    assert here == Footprint(13, 4, 1)
    foes = [s.footprint for s in state.side_stands("a")]
    assert min(distance(here, f) for f in foes) == 5
    harms, reach = area_reach(state, "wizard", foes)
    assert max(harms.values()) == 91 and reach == 8
    assert any(distance(here, Footprint(x, y, 1)) <= reach for (x, y), h in harms.items() if h == 91)
    pikes = [s.footprint for s in state.side_stands("b")]
    for o in found:
        end = here if isinstance(o, Stay) else Footprint(o.x, o.y, 1)
        assert min(distance(end, p) for p in pikes) <= 2


def test_ac_tactics_issue23_5_AC_INTEG_4_the_stand_that_alone_shelters_the_wizard_does_not_walk_away() -> None:
    """Issue 23 §5, AC-INTEG-4: with the wizard at (13, 3), pike-1 at (11, 3) is the only stand within 2 squares of
    it; greedy would march pike-1 on to (9, 3) and leave the wizard isolated (the goblins' shots at it then have
    advantage and deal double damage, AC-INTEG-1). The search weighs only the ends that keep pike-1 within 2 squares
    of the wizard, greedy's choice among them first; a stand that shelters no one alone moves as before."""
    state, _decision = _to_decision(_start(HORDE), "move", "pike-1")
    state = replace(state, solos=tuple(replace(s, x=13, y=3) if s.id == "wizard" else s for s in state.solos))
    decision = GAME.node(state)
    assert isinstance(decision, Decision) and decision.actor == "pike-1"
    greedy = AcAI("b").decide(state, decision)
    wizard = Footprint(13, 3, 1)
    assert isinstance(greedy, Destination) and distance(Footprint(greedy.x, greedy.y, 1), wizard) > 2
    kept = sheltering_ends(state, "pike-1", decision.options)
    assert kept is not None and 0 < len(kept) < len(decision.options)
    found = list(AcTactics().candidates(state, decision, 4))
    assert found and found[0] == AcAI("b").decide(state, replace(decision, options=tuple(kept)))
    for o in found:
        end = piece_footprint(state, "pike-1") if isinstance(o, Stay) else Footprint(o.x, o.y, 1)
        assert distance(end, wizard) <= 2
    assert sheltering_ends(state, "pike-4", decision.options) is None  # pike-4 shelters no one
