"""armies-clash engine: solos on their own and joined, the unit's turn with its joined solos, naming and giving up a
commander during the battle, routed units' solos (§5.5, §5.6, §5.12 AC-MOVE-2, §5.21, §5.25)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from armies_clash_engine_helpers import choose, creature, roll, scenario, start, unit, with_unit

from kessen.core.engine import Chance, Decision, Rolled
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee.attack import attack_dist, attack_options, attack_targets
from kessen.rulesets.armies_clash.referee.morale import morale_steps
from kessen.rulesets.armies_clash.referee.integrity import isolation
from kessen.rulesets.armies_clash.referee.options import (
    Activate,
    ActivateSolo,
    AttackWith,
    Benefit,
    Declare,
    Leave,
    NoAction,
    Rally,
    Stay,
)
from kessen.rulesets.armies_clash.referee.pieces import commander_of, occupancy, piece_footprint
from kessen.rulesets.armies_clash.referee.special_actions import solo_join_destinations
from kessen.rulesets.armies_clash.referee.state import AcState, Turn, replace_stand
from kessen.rulesets.armies_clash.referee.steps import PieceMove, StartTurn
from kessen.rulesets.armies_clash.rules.commanders import CommanderCheckOutcome
from kessen.rulesets.armies_clash.rules.grid import Footprint, distance
from kessen.rulesets.armies_clash.rules.movement import Destination


def _dest(state: AcState, x: int, y: int, kind: str = "move") -> Destination:
    """The legal destination ending at (x, y)."""
    n = g.MACHINE.node(state)
    assert isinstance(n, Decision) and n.kind == "move", n
    return next(o for o in n.options if isinstance(o, Destination) and (o.x, o.y) == (x, y) and o.kind == kind)


def _options(state: AcState) -> tuple[Any, ...]:
    n = g.MACHINE.node(state)
    assert isinstance(n, Decision), n
    return n.options


def _joined_battle(*, commander: bool = False, pc: bool = False, enemy_at: tuple[int, int] = (6, 3)) -> AcState:
    """Regiment u: s1 (3,3), s2 (3,4), with solo hero joined to s1; skirmisher v: e1 at *enemy_at*. Turn order u, v."""
    extra = {"commander": "hero"} if commander else {}
    s = scenario(
        stands=[("s1", "u", "hob", (3, 3)), ("s2", "u", "hob", (3, 4)), ("e1", "v", "hob", enemy_at)],
        units=[unit("u", **extra), unit("v", "b", "skirmisher")],
        solos=[{"id": "hero", "side": "a", "creature": "hob", "joined_to": "s1", "pc": pc, "can_command": commander or pc}],
    )
    return start(s, ["u", "v", "hero"])


# --- AC-MOVE-2: the unit's turn --------------------------------------------------------------------------------


def test_ac_move_2_stands_and_joined_solos_activate_in_any_order() -> None:
    """AC-MOVE-2: the unit declares its action, then activates its stands one at a time in any order, each finishing
    its move and action before the next starts; joined solos take their turns between stand activations, and the
    unit's action comes back for the stands after a solo's own (free) action."""
    state = _joined_battle()
    state = choose(state, Declare("attack"))
    assert _options(state) == (Activate("s1"), Activate("s2"), ActivateSolo("hero"))
    state = choose(state, Activate("s2"))  # not the default first: any order is legal
    # s2 is now the active piece until it is done: moving, then acting, no other activation meanwhile
    assert g.MACHINE.node(state).kind == "move" and state.turn.piece == "s2"
    state = choose(state, _dest(state, 5, 4))
    assert g.MACHINE.node(state).kind == "act" and state.turn.piece == "s2"
    state = choose(state, NoAction())
    assert _options(state) == (Activate("s1"), ActivateSolo("hero"))
    state = choose(state, ActivateSolo("hero"))
    assert g.MACHINE.node(state).kind == "joined_move" and state.turn.action == "free"
    state = choose(state, Stay())
    state = choose(state, NoAction())
    # the solo's turn is over; the last stand takes the unit's declared Attack
    assert state.pending == (PieceMove(),) and state.turn.piece == "s1" and state.turn.action == "attack"
    state = choose(state, _dest(state, 5, 3))
    assert AttackWith("longsword", "e1") in _options(state)


def test_ac_move_2_commander_bonus_between_activations_rally_only_at_start() -> None:
    """AC-MOVE-2, AC-CMD-3, AC-MORALE-6: a commander that kept its bonus action at the start of the turn may Incite or
    Prepare between activations (at its own activation); one that spent it may not; a routed unit's commander may
    Rally only at the start of the turn, never between activations."""
    state = _joined_battle(commander=True)
    assert g.MACHINE.node(state).kind == "benefit"
    state = choose(state, Benefit("none"))
    state = choose(state, Declare("none"))
    state = choose(state, ActivateSolo("hero"))
    assert g.MACHINE.node(state).kind == "bonus"
    assert _options(state) == (Benefit("incite"), Benefit("prepare"), Benefit("none"), Benefit("resign"))
    state = choose(state, Benefit("incite"))
    n = g.MACHINE.node(state)
    assert isinstance(n, Chance) and n.kind == "commander check"
    state = roll(state, CommanderCheckOutcome(True))
    assert state.unit("u").incite_next and "hero" in state.turn.bonus_used

    spent = _joined_battle(commander=True)
    spent = choose(spent, Benefit("prepare"))
    spent = roll(spent, CommanderCheckOutcome(False))
    spent = choose(spent, Declare("none"))
    spent = choose(spent, ActivateSolo("hero"))
    assert g.MACHINE.node(spent).kind == "joined_move"  # no second bonus action (AC-D20-9)

    routed = with_unit(_joined_battle(commander=True), "u", routed=True)
    routed = g.MACHINE.settle(replace(routed, turn=Turn("u", False, formation="march"), pending=(StartTurn(),)), [])
    assert g.MACHINE.node(routed).kind == "rally"
    routed = choose(routed, Rally(False))
    routed = choose(routed, ActivateSolo("hero"))
    assert _options(routed) == (Benefit("none"), Benefit("resign"))


# --- commanders named and given up during the battle -----------------------------------------------------------


def test_ac_cmd_1_ac_cmd_2_take_and_give_up_command_in_battle() -> None:
    """AC-CMD-1, AC-CMD-2: a solo that may command and is joined to a stand of a unit without a commander may take the
    post with its bonus action (the default); the commander may give the post up with its bonus action; only then can
    another take over. A solo that may not command is never offered the post."""
    state = _joined_battle(pc=True)
    assert state.unit("u").commander is None
    state = choose(state, Declare("none"))
    state = choose(state, ActivateSolo("hero"))
    assert _options(state) == (Benefit("command"), Benefit("none"))
    state, events = g.MACHINE.apply(state, Benefit("command"))
    assert state.unit("u").commander == "hero" and commander_of(state, "u").id == "hero"
    assert any(e.type == "command_taken" for e in events)
    assert g.MACHINE.node(state).kind == "joined_move"  # the bonus action is spent: no Incite this turn

    held = _joined_battle(commander=True)
    held = choose(held, Benefit("none"))
    held = choose(held, Declare("none"))
    held = choose(held, ActivateSolo("hero"))
    held, events = g.MACHINE.apply(held, Benefit("resign"))
    assert held.unit("u").commander is None and any(e.type == "command_given_up" for e in events)

    npc = _joined_battle()
    npc = choose(npc, Declare("none"))
    npc = choose(npc, ActivateSolo("hero"))
    assert g.MACHINE.node(npc).kind == "joined_move"  # can_command false: no bonus-action choice at all


# --- AC-SOLO-1, AC-JOIN-3: unattached or joined ---------------------------------------------------------------


def test_ac_solo_1_unattached_solo_joins_and_leaves_the_grid() -> None:
    """AC-SOLO-1, AC-JOIN-1: a solo is either on the grid on its own or joined to an allied stand: an unattached solo
    that Joins leaves the grid (no squares, not a target) and is recorded on the stand."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("e1", "v", "hob", (12, 3))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "hero", "side": "a", "creature": "hob", "at": [3, 6]}])
    state = start(s, ["hero", "u", "v"])
    assert state.solo("hero").on_grid and occupancy(state)[(3, 6)][2] == "hero"
    assert "hero" in {t for _k, t, _f in attack_targets(state, "e1")}
    assert solo_join_destinations(state, "hero") == [Destination(3, 3, 3, False, "join", "s1")]
    state = choose(state, Declare("join"))  # the only legal move, onto s1, is taken at once
    hero = state.solo("hero")
    assert hero.joined_to == "s1" and not hero.on_grid
    assert all(o[2] != "hero" for o in occupancy(state).values())
    assert "hero" not in {t for _k, t, _f in attack_targets(state, "e1")}


def test_ac_join_3_joined_solo_moves_with_its_stand_and_acts_from_it() -> None:
    """AC-JOIN-3: a joined solo is off the grid and recorded on its stand: it moves with the stand, is never isolated
    (even on an isolated stand), cannot be attacked, and attacks and measures range from the stand's footprint."""
    state = _joined_battle()
    state = choose(state, Declare("none"))
    state = choose(state, Activate("s1"))
    state = choose(state, _dest(state, 5, 2))  # s1 leaves s2's side; (5,2) touches e1 (6,3) only at a corner
    state = isolation(state, [])
    assert state.stand("s1").isolated and not state.solo("hero").isolated
    assert "hero" not in {t for _k, t, _f in attack_targets(state, "e1")}
    assert piece_footprint(state, "hero") == Footprint(5, 2)
    # from (3,3) the solo could not reach e1 in melee; from its stand's new square it still cannot (diagonal) ...
    assert not any(isinstance(o, AttackWith) and o.using == "longsword" for o in attack_options(state, "hero"))
    # ... but once the stand stands next to e1, so does the solo
    moved = replace_stand(state, replace(state.stand("s1"), x=5, y=3))
    assert AttackWith("longsword", "e1") in attack_options(moved, "hero")
    assert distance(piece_footprint(moved, "hero"), moved.stand("e1").footprint) == 1


# --- AC-SOLO-3: footprints of solos ------------------------------------------------------------------------------


def test_ac_solo_3_gargantuan_solo_covers_four_by_four() -> None:
    """AC-SOLO-3, AC-STAND-1: a solo's footprint follows its size, a gargantuan one 4 × 4 squares (16), a large one
    2 × 2; adjacency and reach are measured from that whole footprint."""
    wyrm = creature("wyrm", size="gargantuan", hp=300)
    brute = creature("brute", size="large")
    s = scenario(stands=[("s1", "u", "hob", (0, 0)), ("e1", "v", "hob", (9, 6)), ("e2", "v", "hob", (10, 12))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[creature("hob"), wyrm, brute],
                 solos=[{"id": "dragon", "side": "a", "creature": "wyrm", "at": [5, 5]},
                        {"id": "big", "side": "a", "creature": "brute", "at": [5, 12]}])
    state = start(s)
    occ = occupancy(state)
    assert {sq for sq, o in occ.items() if o[2] == "dragon"} == {(x, y) for x in range(5, 9) for y in range(5, 9)}
    assert {sq for sq, o in occ.items() if o[2] == "big"} == {(5, 12), (6, 12), (5, 13), (6, 13)}
    assert AttackWith("longsword", "dragon") in attack_options(state, "e1")  # (9,6) touches x = 8
    assert AttackWith("longsword", "big") not in attack_options(state, "e2")  # (10,12) is 4 from x = 6


# --- AC-SOLO-6: split movement ------------------------------------------------------------------------------------


def test_ac_solo_6_unattached_solo_splits_its_move_around_its_action() -> None:
    """AC-SOLO-6, AC-MOVE-3: an unattached solo moves part of its speed, takes its action, then moves the rest; next to
    an enemy stand it is never locked."""
    s = scenario(stands=[("s1", "u", "hob", (3, 8)), ("e1", "v", "hob", (6, 3))], units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "hero", "side": "a", "creature": "hob", "at": [3, 3]}])
    state = start(s, ["hero", "u", "v"])
    state = choose(state, Declare("attack"))
    state = choose(state, _dest(state, 5, 3))  # 2 of its 6 squares, next to e1
    assert state.turn.budget == 4
    state = choose(state, AttackWith("longsword", "e1"))
    state = roll(state, next(o for o in attack_dist(state.pending[0].question).probabilities() if o.hits == 0))
    assert state.pending == (PieceMove(second=True),) and g.MACHINE.node(state).kind == "move"
    ends = [o for o in _options(state) if isinstance(o, Destination)]
    assert ends and max(o.cost for o in ends) == 4  # the rest of its movement, away from the enemy stand
    assert any((o.x, o.y) == (5, 7) for o in ends)


# --- routed units and their solos ----------------------------------------------------------------------------------


def _routed_turn(**kw: Any) -> AcState:
    state = with_unit(_joined_battle(**kw), "u", routed=True)
    return g.MACHINE.settle(replace(state, turn=Turn("u", False, formation="march"), pending=(StartTurn(),)), [])


def test_ac_morale_5_joined_solo_stays_or_leaves_a_routed_unit() -> None:
    """AC-MORALE-5, AC-ACT-3: solos never rout; a joined solo of a routed unit may stay with it or leave it, and staying
    it still takes any action (an attack), not only Retreat like the unit's stands."""
    state = _routed_turn(enemy_at=(4, 3))
    assert state.turn.action == "retreat"  # the only action of a routed unit, taken at once
    state = choose(state, ActivateSolo("hero"))
    options = _options(state)
    assert Stay() in options and any(isinstance(o, Leave) for o in options)
    stayed = choose(state, Stay())
    assert AttackWith("longsword", "e1") in _options(stayed)


def test_ac_join_6_leaving_a_routed_unit_costs_no_movement() -> None:
    """AC-JOIN-6 (with AC-JOIN-4): a joined solo of a routed unit that leaves at the start of its turn keeps its movement
    and takes a whole unattached solo's turn (here Dash: 2 × 6 squares); leaving a unit that is not routed uses the
    solo's movement (nothing left to move, its action follows at once)."""
    state = _routed_turn()
    state = choose(state, ActivateSolo("hero"))
    leave = next(o for o in _options(state) if isinstance(o, Leave))
    state = choose(state, leave)
    n = g.MACHINE.node(state)
    assert n.kind == "piece_action" and Declare("dash") in n.options and Declare("hide") in n.options
    state = choose(state, Declare("dash"))
    assert state.turn.budget == 12 and g.MACHINE.node(state).kind == "move" and state.pending == (PieceMove(),)

    calm = _joined_battle()
    calm = choose(calm, Declare("none"))
    calm = choose(calm, ActivateSolo("hero"))
    calm = choose(calm, next(o for o in _options(calm) if isinstance(o, Leave)))
    assert g.MACHINE.node(calm).kind == "act" and calm.turn.budget == 0


def test_ac_solo_7_solos_never_rout() -> None:
    """AC-SOLO-7, AC-MORALE-1: the end-of-round morale step rolls for units only — never for an unattached solo, however
    its side fares — and a routed unit's solo that left it moves by its own general's choice, free to close on the
    enemy (the routed stands' "never closer" rule and enemy-picked paths do not bind it)."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("s2", "u", "hob", (3, 4)), ("e1", "v", "hob", (12, 3))],
                 units=[unit("u"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "lone", "side": "a", "creature": "hob", "at": [6, 6]}])
    state = start(s, ["u", "v", "lone"])
    state = replace(state, stands=tuple(x for x in state.stands if x.id != "s2"), turn=None, pending=())
    state = morale_steps(state, [])
    assert [type(p).__name__ for p in state.pending] == ["MoraleRoll"] and state.pending[0].unit == "u"

    routed = _routed_turn()
    routed = choose(routed, ActivateSolo("hero"))
    routed = choose(routed, next(o for o in _options(routed) if isinstance(o, Leave)))
    routed = choose(routed, Declare("dash"))
    n = g.MACHINE.node(routed)
    assert n.player == "a"
    e1 = routed.stand("e1").footprint
    here = distance(routed.solo("hero").footprint, e1)
    assert any(isinstance(o, Destination) and distance(Footprint(o.x, o.y), e1) < here for o in n.options)


# --- Hide and Dash of a joined solo ---------------------------------------------------------------------------------


def test_ac_act_3_joined_solo_dash_or_hide_after_leaving() -> None:
    """AC-ACT-3, AC-DASH-1, AC-HIDE-2: a joined solo that stays joined takes Attack, Cast a Spell or nothing (no Dash, no
    Hide: it has no footprint of its own); one that leaves its stand may Dash (its speed in squares after leaving) or
    Hide where its new squares are in cover."""
    s = scenario(stands=[("s1", "u", "hob", (3, 3)), ("s2", "u", "hob", (3, 4)), ("e1", "v", "hob", (12, 3))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], terrain=[{"at": [3, 2], "kind": "forest"}],
                 solos=[{"id": "hero", "side": "a", "creature": "hob", "joined_to": "s1"}])
    base = choose(start(s, ["u", "v", "hero"]), Declare("none"))
    base = choose(base, ActivateSolo("hero"))
    stayed = choose(base, Stay())
    assert Declare("dash") not in _options(stayed) and Declare("hide") not in _options(stayed)

    dashed = choose(base, Leave(4, 3))
    assert Declare("dash") in _options(dashed)
    dashed = choose(dashed, Declare("dash"))
    assert dashed.pending == (PieceMove(second=True),) and dashed.turn.budget == 6

    hid = choose(base, Leave(3, 2))  # forest
    hid = choose(hid, Declare("hide"))
    n = g.MACHINE.node(hid)
    assert isinstance(n, Chance) and n.kind == "stealth"
    hid = roll(hid, Rolled(True))
    assert hid.solo("hero").hidden
