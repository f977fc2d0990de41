"""armies-clash engine: stands as creatures, footprints, regiment and skirmisher specifics, forced movement (pushes),
spells cast by stands, range without line of sight, and objective guidance (§4.2, §5.3, §5.4, §5.12, §5.15, §5.16,
§5.26)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from armies_clash_engine_helpers import HOB, OGRE, at_piece, choose, creature, roll, scenario, start, unit, with_stand

from kessen.core.decisions import FirstOptionDecider
from kessen.core.engine import Chance, Decision, Rolled
from kessen.core.errors import InputError
from kessen.core.replay import play
from kessen.rulesets.armies_clash import RULESET
from kessen.rulesets.armies_clash.ai import AcAI
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee.attack import attack_dist, attack_options, attack_plan
from kessen.rulesets.armies_clash.referee.damage import damage_stand
from kessen.rulesets.armies_clash.referee.options import Activate, AttackWith, Cast, CastArea, Declare, NoAction, PushTo, Stay
from kessen.rulesets.armies_clash.referee.pieces import occupancy, spell_of
from kessen.rulesets.armies_clash.referee.setup import initial_state
from kessen.rulesets.armies_clash.referee.spells import (
    area_squares,
    area_targets,
    cast_options,
    spell_effects,
)
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.referee.steps import AttackRoll, AutoDamage, PieceAct
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, SoloAttackQuestion
from kessen.rulesets.armies_clash.rules.damage import damage_roll
from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
from kessen.rulesets.armies_clash.rules.movement import Destination, forced_squares
from kessen.rulesets.armies_clash.rules.spells import SpellEffect, automatic_damage, doublings, save


def _options(state: AcState) -> tuple[Any, ...]:
    n = g.MACHINE.node(state)
    assert isinstance(n, Decision), n
    return n.options


# --- AC-STAND-2, AC-STAND-5: stands ------------------------------------------------------------------------------


def test_ac_stand_2_footprints_by_size() -> None:
    """AC-STAND-2 (§4.2): a medium stand covers 1 square, a large one 2 × 2, a huge one 3 × 3, from its anchor; a stand
    next to the huge one's far edge is adjacent to it."""
    giant = creature("giant", size="huge", hp=105)
    s = scenario(stands=[("m", "u", "hob", (0, 10)), ("l", "u", "ogre", (5, 10)), ("h", "u", "giant", (0, 0)),
                         ("e1", "v", "hob", (3, 1)), ("e2", "v", "hob", (4, 1))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")], creatures=[HOB, OGRE, giant])
    state = start(s)
    occ = occupancy(state)
    cover = {i: {sq for sq, o in occ.items() if o[2] == i} for i in ("m", "l", "h")}
    assert cover["m"] == {(0, 10)}
    assert cover["l"] == {(5, 10), (6, 10), (5, 11), (6, 11)}
    assert cover["h"] == {(x, y) for x in range(3) for y in range(3)}
    assert AttackWith("longsword", "h") in attack_options(state, "e1")  # (3,1) touches x = 2
    assert AttackWith("longsword", "h") not in attack_options(state, "e2")


def test_ac_stand_5_a_stand_is_one_creature() -> None:
    """AC-STAND-5: a stand has the HP of one creature (a hobgoblin stand 11, not 110) and its own HP pool, rolls its
    creature's own saving throws (a listed save bonus, else the ability modifier) and attacks with its creature's
    attacks; a condition (hidden) covers the whole stand, every attack against it."""
    mage = creature("mage", spells=[{"id": "blast", "range_ft": 150, "form": "area", "shape": "sphere", "size_ft": 20,
                                     "resolution": "save", "save_ability": "dex", "dc": 13, "damage": "2d6"}])
    nimble = creature("nimble", saves={"dex": 5})
    s = scenario(stands=[("m1", "u", "mage", (0, 0)), ("n1", "v", "nimble", (6, 6)), ("h1", "v", "hob", (7, 6)),
                         ("o1", "v", "ogre", (9, 6))],
                 units=[unit("u"), unit("v", "b")], creatures=[mage, nimble, HOB, OGRE])
    state = start(s)
    assert state.stand("n1").hp == 11 and state.stand("o1").hp == 59
    blast = spell_of(state, "m1", "blast")
    assert spell_effects(state, "m1", blast, "n1", "stand", partial=False)[0].question.save_bonus == 5
    assert spell_effects(state, "m1", blast, "h1", "stand", partial=False)[0].question.save_bonus == 1
    hit = damage_stand(state, "h1", 5, (), "a", [])
    assert (hit.stand("h1").hp, hit.stand("n1").hp) == (6, 11)  # each stand its own HP
    q = attack_plan(state, "o1", "greatclub", "stand", "h1", supported=False)
    assert isinstance(q, AttackQuestion)
    assert [(r.attack.attack_bonus, str(r.attack.damage)) for r in q.rolls] == [(6, "2d8+4")]
    hidden = with_stand(state, "o1", hidden=True)
    for attacker, using in (("h1", "longsword"), ("h1", "shortbow")):
        hidden_q = attack_plan(hidden, attacker, using, "stand", "o1", supported=False)
        assert isinstance(hidden_q, AttackQuestion) and hidden_q.extra_disadvantage


# --- AC-REG-4, AC-SKIRM-3 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "closes_up"), [("regiment", True), ("skirmisher", False)])
def test_ac_reg_4_regiment_stand_must_end_adjacent(kind: str, closes_up: bool) -> None:
    """AC-REG-4 (AC-INTEG-2, AC-INTEG-6, AC-SKIRM-6): s2 steps to 4,4, diagonal to s1 (not adjacent, 2 squares); it is
    not isolated yet (isolation is judged at the end of the turn). A regiment's s1 may not then stay put at its last
    chance to move: it closes up next to s2. A skirmisher's s1 may stay (its spacing is 2). Nobody ends isolated."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("s2", "u", "hob", (3, 4)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u", kind=kind), unit("v", "b", "skirmisher")])
    state = start(s, ["u", "v"])
    state = choose(state, Declare("none"))
    state = choose(state, Activate("s2"))
    state = choose(state, next(o for o in _options(state) if isinstance(o, Destination) and (o.x, o.y) == (4, 4)))
    assert not state.stand("s2").isolated  # not yet: isolation is judged at the end of the turn
    state = choose(state, Stay())  # s1 waits: before its action it still may
    assert (Stay() not in _options(state)) is closes_up  # its last chance to move
    while state.turn is not None and state.turn.actor == "u":
        state = choose(state, Stay() if Stay() in _options(state) else _options(state)[0])
    assert (state.stand("s2").x, state.stand("s2").y) == (4, 4)
    assert ((state.stand("s1").x, state.stand("s1").y) != (3, 3)) is closes_up
    assert not state.stand("s2").isolated and not state.stand("s1").isolated


def test_ac_skirm_3_skirmishers_may_hide_regiments_may_not() -> None:
    """AC-SKIRM-3, AC-ACT-1, AC-HIDE-1: a skirmisher unit may declare Hide — its stand in forest then rolls Stealth
    (+1) against the best enemy passive Perception (10) and is hidden on a success; a regiment is never offered Hide."""
    def battle(kind: str) -> AcState:
        s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (15, 15))],
                     units=[unit("u", kind=kind), unit("v", "b", "skirmisher")], terrain=[{"at": [3, 3], "kind": "forest"}])
        return start(s, ["u", "v"])

    assert Declare("hide") not in _options(battle("regiment"))
    state = battle("skirmisher")
    state = choose(state, Declare("hide"))
    state = choose(state, Stay())
    n = g.MACHINE.node(state)
    assert isinstance(n, Chance) and n.kind == "stealth"
    assert n.dist.probability(Rolled(True)) == Fraction(12, 20)  # d20 + 1 ≥ 10: 9..20
    assert roll(state, Rolled(True)).stand("s1").hidden


# --- forced movement -------------------------------------------------------------------------------------------------

MINOTAUR = creature("minotaur", size="large", hp=76, attacks=[
    {"id": "gore", "kind": "melee", "attack_bonus": 6, "damage": "4d8+4", "reach_ft": 10, "push_ft": 10},
    {"id": "axe", "kind": "melee", "attack_bonus": 6, "damage": "2d12+4"},
])


def _push_battle(target_at: tuple[int, int], *, more: list = (), terrain: list = (), width: int = 20, target: str = "hob") -> AcState:  # type: ignore[assignment]
    """Minotaur stand m1 (2 × 2 at (2,3)) of regiment u, about to act; target stand t1 of skirmisher unit v."""
    s = scenario(stands=[("m1", "u", "minotaur", (2, 3)), ("t1", "v", target, target_at), *more],
                 units=[unit("u"), unit("v", "b", "skirmisher")],
                 creatures=[HOB, MINOTAUR, creature("fish", swim_ft=30)], terrain=list(terrain), width=width)
    state = at_piece(start(s), "u", "m1")
    return replace(state, pending=(PieceAct(),))


def _gore(
    state: AcState, hits: int = 1, damage: int | None = None, target: str = "t1", *, pushes: bool = True
) -> tuple[AcState, tuple[Any, ...]]:
    """m1 gores *target* (two rolls: the reach bonus roll, AC-ATTACK-3); the rolls come out with *hits* hits, no
    critical, for *damage* (default: the least possible); each push then goes its default way (unless not *pushes*)."""
    state = choose(state, AttackWith("gore", target))
    step = state.pending[0]
    assert isinstance(step, AttackRoll)
    question = step.question.attack if isinstance(step.question, SoloAttackQuestion) else step.question
    assert [r.push_squares for r in question.rolls] == [2, 2]
    outcomes = [o for o in attack_dist(step.question).probabilities() if o.hits == hits and o.crits == 0]
    outcome = min(outcomes, key=lambda o: o.damage) if damage is None else next(o for o in outcomes if o.damage == damage)
    state, events = g.MACHINE.apply(state, outcome)
    return _default_pushes(state, events) if pushes else (state, events)


def _default_pushes(state: AcState, events: tuple[Any, ...] = ()) -> tuple[AcState, tuple[Any, ...]]:
    """Each push decision answered with its default, the straight push (AC-MOVE-8)."""
    while isinstance(n := g.MACHINE.node(state), Decision) and n.kind == "push":
        state, more = g.MACHINE.apply(state, n.options[0])
        events += more
    return state, events


def test_ac_stand_4_push_feet_become_squares_by_five() -> None:
    """AC-STAND-4: a monster's 10-ft push converts ÷5 to 2 squares (not ½ of a 20-ft square); only the pushing attack's
    rolls carry the push, and the scenario rejects a push of 0 ft."""
    assert forced_squares(10) == 2 and forced_squares(25) == 5 and forced_squares(4) == 0
    state = _push_battle((4, 3))
    gore = attack_plan(state, "m1", "gore", "stand", "t1", supported=False)
    axe = attack_plan(state, "m1", "axe", "stand", "t1", supported=False)
    assert isinstance(gore, AttackQuestion) and isinstance(axe, AttackQuestion)
    assert [r.push_squares for r in gore.rolls] == [2, 2]  # the reach bonus roll pushes too
    assert [r.push_squares for r in axe.rolls] == [0]
    after, events = _gore(state)
    assert (after.stand("t1").x, after.stand("t1").y) == (6, 3)
    assert [e.squares for e in events if e.type == "pushed"] == [2]
    bad = {**MINOTAUR, "attacks": [{**MINOTAUR["attacks"][0], "push_ft": 0}]}
    with pytest.raises(InputError) as error:
        scenario(stands=[("m1", "u", "minotaur", (2, 3))], units=[unit("u")], creatures=[bad])
    assert "push_ft" in str(error.value.field)


def test_ac_move_8_push_ignores_cost_and_lock_stops_before_illegal_squares() -> None:
    """AC-MOVE-8: forced movement ignores movement cost (forest, a climb) and the adjacency lock (the pushed stand starts
    next to the minotaur and ends next to another enemy stand); it stops before a square the piece could not occupy:
    an allied skirmisher stand (passable, but no place to stop), an enemy, deep water without a swim speed; a hit
    a miss does not push; each hit pushes, so two hits push twice as far."""
    rough = [{"at": [5, 3], "kind": "forest", "elevation": 3}]
    state = _push_battle((4, 3), terrain=rough, more=[("x1", "u", "hob", (7, 3))])
    after, _ = _gore(state)
    assert (after.stand("t1").x, after.stand("t1").y) == (6, 3)  # forest + 3 levels up: cost ignored; next to x1

    blocked = _push_battle((4, 3), more=[("t2", "v", "hob", (6, 3))])
    after, _ = _gore(blocked)
    assert (after.stand("t1").x, after.stand("t1").y) == (5, 3)  # stops before its skirmisher mate t2

    wet = _push_battle((4, 3), terrain=[{"at": [5, 3], "kind": "deep_water"}])
    after, events = _gore(wet)
    assert (after.stand("t1").x, after.stand("t1").y) == (4, 3) and not any(e.type == "pushed" for e in events)
    swimmer = _push_battle((4, 3), terrain=[{"at": [5, 3], "kind": "deep_water"}], target="fish")
    after, _ = _gore(swimmer)
    assert (after.stand("t1").x, after.stand("t1").y) == (6, 3)

    after, _ = _gore(_push_battle((4, 3)), hits=0)
    assert after.stand("t1").x == 4
    after, events = _gore(_push_battle((4, 3)), hits=2)
    assert after.stand("t1").x == 8 and [e.squares for e in events if e.type == "pushed"] == [4]


def test_ac_move_8_ac_move_5_pushed_off_the_grid_flees() -> None:
    """AC-MOVE-8, AC-MOVE-5, AC-END-3: a stand pushed with a square off the grid has fled the battlefield: it is gone at
    once, counts as lost, and its unit, with no stand left, is eliminated."""
    state = _push_battle((4, 3), width=6)
    after, events = _gore(state)
    assert after.stand("t1") is None and after.unit("v").eliminated and after.lost == (0, 1)
    assert [e.type for e in events if e.type in ("pushed", "fled", "unit_eliminated")] == ["pushed", "fled", "unit_eliminated"]


def test_ac_move_8_push_after_overflow_and_solos() -> None:
    """AC-MOVE-8, AC-DMG-2: the push comes after the damage, overflow choice included (the choice sees the target where
    it was hit); an unattached solo is pushed the same way, directly away from the attacker."""
    more = [("t2", "v", "hob", (4, 2)), ("t3", "v", "hob", (4, 4))]
    state = _gore(_push_battle((4, 3), more=more), hits=1, damage=15)[0]
    n = g.MACHINE.node(state)
    assert isinstance(n, Decision) and n.kind == "overflow" and (state.stand("t1").x, state.stand("t1").y) == (4, 3)
    state = _default_pushes(g.MACHINE.apply(state, n.options[0])[0])[0]
    assert (state.stand("t1").x, state.stand("t1").y) == (6, 3) and state.stand("t1").hp == 0

    s = scenario(stands=[("m1", "u", "minotaur", (2, 3)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[HOB, MINOTAUR],
                 solos=[{"id": "t1", "side": "b", "creature": "hob", "at": [3, 5], "pc": True}])
    state = at_piece(start(s), "u", "m1")
    state = replace(state, pending=(PieceAct(),))
    after, _ = _gore(state)
    assert (after.solo("t1").x, after.solo("t1").y) == (3, 7)  # below the minotaur's 2 × 2: pushed south


def test_ac_move_8_ac_move_5_the_ai_pushes_an_enemy_off_the_field_when_it_can() -> None:
    """AC-MOVE-8, AC-MOVE-5: t1 stands next to the minotaur on the north edge; straight away (east) the push stays on
    the grid, but its first step may go north, off the grid, and the AI takes that: t1 flees the battlefield."""
    s = scenario(stands=[("m1", "u", "minotaur", (2, 0)), ("t1", "v", "hob", (4, 0)), ("e1", "v", "hob", (15, 15))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[HOB, MINOTAUR])
    state = replace(at_piece(start(s), "u", "m1"), pending=(PieceAct(),))
    state, _ = _gore(state, pushes=False)
    n = g.MACHINE.node(state)
    assert isinstance(n, Decision) and n.kind == "push" and n.options[0] == PushTo(6, 0)
    choice = AcAI("a").decide(state, n)
    assert choice == PushTo(4, -1)
    assert RULESET.game.describe(state, choice, "en") == "push t1 off the grid at (4, -1)"
    assert RULESET.game.describe(state, choice, "ja") == "t1 を (4, -1) で戦場の外へ押し出す"
    after, events = g.MACHINE.apply(state, choice)
    assert after.stand("t1") is None and [e.type for e in events][:2] == ["pushed", "fled"]


# --- spells cast by stands ---------------------------------------------------------------------------------------------

BOLT = {"id": "bolt", "range_ft": 30, "form": "targeted", "max_targets": 1, "resolution": "attack", "kind": "ranged",
        "attack_bonus": 5, "damage": "1d10", "uses": 1}


def test_ac_spell_1_stand_casts_as_one_creature_slots_per_stand() -> None:
    """AC-SPELL-1, AC-RANGE-1: a stand of casters casts as one creature and spends its own uses: once m1 has cast its
    one-use bolt it cannot cast it again, while m2 of the same creature still can; the 30-ft range reaches 2 squares
    (distance 2 yes, 3 no)."""
    mage = creature("mage", spells=[BOLT])
    s = scenario(stands=[("m1", "u", "mage", (0, 0)), ("m2", "u", "mage", (0, 1)), ("e1", "v", "hob", (2, 0)),
                         ("e2", "v", "hob", (2, 1))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[HOB, mage])
    state = start(s, ["u", "v"])
    assert cast_options(state, "m1") == [Cast("bolt", "e1")]  # e1 2 away; e2 3 away
    assert cast_options(state, "m2") == [Cast("bolt", "e2")]  # e2 2 away; e1 3 away
    state = at_piece(state, "u", "m1", action="cast")
    state = choose(state, Stay())
    state = choose(state, Cast("bolt", "e1"))
    assert dict(state.stand("m1").spells_used) == {"bolt": 1} and state.stand("m2").spells_used == ()
    assert cast_options(state, "m1") == [] and cast_options(state, "m2") != []


def test_ac_spell_2_non_casters_take_another_action() -> None:
    """AC-SPELL-2, AC-UNIT-2: in a unit taking Cast a Spell, a stand that cannot cast chooses any other action the unit
    could take before it moves (Attack, Dash, Retreat, none — no Configure, no Hide for a regiment): Attack gives it
    attacks, Dash the Dash budget; a stand that can cast casts or does nothing; in defensive formation the non-caster
    may not Attack."""
    mage = creature("mage", spells=[{**BOLT, "range_ft": 120, "uses": None}])
    s = scenario(stands=[("m1", "u", "mage", (3, 3)), ("h1", "u", "hob", (3, 4)), ("e1", "v", "hob", (6, 3))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[HOB, mage])
    state = choose(start(s, ["u", "v"]), Declare("cast"))
    caster = choose(state, Activate("m1"))
    assert g.MACHINE.node(caster).kind == "move"
    caster = choose(caster, Stay())
    assert {type(o) for o in _options(caster)} == {Cast, NoAction}

    other = choose(state, Activate("h1"))
    n = g.MACHINE.node(other)
    assert n.kind == "piece_action"
    assert n.options == (Declare("attack"), Declare("dash"), Declare("retreat"), Declare("none"))
    dashing = choose(other, Declare("dash"))
    assert dashing.turn.budget == 12 and g.MACHINE.node(dashing).kind == "move"
    attacking = choose(other, Declare("attack"))
    attacking = choose(attacking, next(o for o in _options(attacking) if isinstance(o, Destination) and (o.x, o.y) == (5, 4)))
    assert AttackWith("shortbow", "e1") in _options(attacking) and not any(isinstance(o, Cast) for o in _options(attacking))

    s2 = scenario(stands=[("m1", "u", "mage", (3, 3)), ("h1", "u", "hob", (3, 4)), ("e1", "v", "hob", (6, 3))],
                  units=[unit("u", formation="defensive"), unit("v", "b", "skirmisher")], creatures=[HOB, mage])
    defensive = choose(choose(start(s2, ["u", "v"]), Declare("cast")), Activate("h1"))
    assert Declare("attack") not in _options(defensive)


def test_ac_spell_7_breath_weapon_uses_area_rules() -> None:
    """AC-SPELL-7, AC-AOE-1, AC-AOE-3, AC-AOE-8: a breath weapon (a non-spell area ability, written as an area record)
    follows the area rules: a 60-ft cone is 3 squares long (6 squares, not a 12-square 5-ft conversion), and breathed by
    a stand every target takes double damage (2d6 → up to 24 on a failed save)."""
    drake = creature("drake", spells=[{"id": "breath", "range_ft": "self", "form": "area", "shape": "cone", "size_ft": 60,
                                       "resolution": "save", "save_ability": "dex", "dc": 13, "damage": "2d6", "uses": 1}])
    s = scenario(stands=[("d1", "u", "drake", (5, 5)), ("e1", "v", "hob", (5, 2)), ("e2", "v", "hob", (5, 1))],
                 units=[unit("u"), unit("v", "b", "regiment")], creatures=[HOB, drake])
    state = start(s, ["u", "v"])
    north = CastArea("breath", 5, 5, 0, -1)
    assert north in cast_options(state, "d1")
    area = area_squares(state, "d1", north)
    assert area == {(5, 4), (5, 3), (6, 3), (4, 2), (5, 2), (6, 2)}
    targets = area_targets(state, "d1", area)
    assert targets == [("stand", "e1", False)]
    step = spell_effects(state, "d1", spell_of(state, "d1", "breath"), "e1", "stand", partial=False)[0]
    dist = save(step.question)
    assert max(o.damage for o in dist.probabilities()) == 24
    assert dist.probability(lambda o: o.result == "failure" and o.damage == 24) == Fraction(11, 20) * Fraction(1, 36)


# --- AC-RANGE-3 --------------------------------------------------------------------------------------------------------


def test_ac_range_3_no_line_of_sight_blocking() -> None:
    """AC-RANGE-3: pieces in between never block a shot or a spell, nor give cover: a bow shot at e1 over an allied stand
    and an enemy stand in the line is legal at normal range, no cover, no disadvantage, same question as in the open."""
    mage = creature("mage", spells=[{**BOLT, "range_ft": 120, "uses": None}])
    clear = scenario(stands=[("s1", "u", "hob", (0, 3)), ("e1", "v", "hob", (4, 3))],
                     units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")], creatures=[HOB, mage])
    crowded = scenario(stands=[("s1", "u", "hob", (0, 3)), ("a1", "u", "hob", (1, 3)), ("x1", "v", "hob", (2, 3)),
                               ("m1", "u", "mage", (0, 4)), ("e1", "v", "hob", (4, 3))],
                       units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")], creatures=[HOB, mage])
    open_q = attack_plan(start(clear), "s1", "shortbow", "stand", "e1", supported=False)
    state = start(crowded)
    assert AttackWith("shortbow", "e1") in attack_options(state, "s1")
    q = attack_plan(state, "s1", "shortbow", "stand", "e1", supported=False)
    assert isinstance(q, AttackQuestion)
    assert q == open_q and q.target_cover == "none" and not q.rolls[0].long_range and not q.extra_disadvantage
    assert Cast("bolt", "e1") in cast_options(state, "m1")


# --- AC-OBJ-7 ----------------------------------------------------------------------------------------------------------


def test_ac_obj_7_objective_guidance_is_not_enforced() -> None:
    """AC-OBJ-7: the balance guidance (equal chances, five ways and 12–15 VP each) is advice to scenario authors, not a
    load-time rule: a lopsided scenario — one side with a single 5-VP objective, the other with none — loads, keeps
    its objectives as written, and is fought to the end."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (6, 3))],
                 units=[unit("u"), unit("v", "b", "skirmisher")],
                 objectives=[{"id": "raze", "kind": "destroy", "side": "a", "square": [9, 9], "hp": 10, "vp": 5}],
                 max_rounds=3)
    state = initial_state(s)
    assert [(o.id, o.side, o.vp) for o in state.static.objectives] == [("raze", "a", 5)]
    played = play(RULESET.game, state, {x: FirstOptionDecider() for x in "ab"}, 1)
    assert played.terminal is not None and 1 <= played.terminal.summary["rounds"] <= 3


def test_ac_aoe_9_automatic_area_damage_is_the_rules_own() -> None:
    """AC-AOE-9, AC-AOE-7, AC-AOE-8: a stand's automatic area effect (no save, 2d6) on a partly covered ogre stand is
    doubled (a stand casting) and halved (partial cover): the engine draws it from ``automatic_damage``, exactly
    the roll itself (2d6 = 7 on 6/36); on an isolated solo no AC-SPELL-5 doubling (no save to fail)."""
    sear = creature("searer", spells=[{"id": "sear", "range_ft": 60, "form": "area", "shape": "sphere", "size_ft": 20,
                                       "resolution": "automatic", "damage": "2d6"}])
    s = scenario(stands=[("m1", "u", "searer", (0, 0)), ("o1", "v", "ogre", (6, 5))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[sear, OGRE])
    state = start(s)
    (step,) = spell_effects(state, "m1", spell_of(state, "m1", "sear"), "o1", "stand", partial=True)
    assert isinstance(step, AutoDamage) and step.effect.partial_coverage and step.effect.caster == "stand"
    assert automatic_damage(step.effect) == damage_roll(parse_dice("2d6"))
    assert automatic_damage(step.effect).probability(7) == Fraction(6, 36)
    lone = SpellEffect("solo", "targeted", "stand", parse_dice("2d6"), target_isolated=True)
    assert doublings(lone, failed_save=False) == 0 and doublings(lone, failed_save=True) == 1
    assert SpellEffect("objective", "targeted", "solo", parse_dice("2d6")).unaffected
    assert SpellEffect(partial_coverage=True).unaffected and not SpellEffect(damage=parse_dice("1d4"), partial_coverage=True).unaffected
