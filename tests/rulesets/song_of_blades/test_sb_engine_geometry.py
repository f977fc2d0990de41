"""Table geometry, recoil, falling and follow-up in games (SB-GEO-1..8, SB-RECOIL-1..7, SB-FALL-1, SB-FOLLOW-1..4)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from sb_engine_support import at, chance, decision, model, pending_roll, ready, results, state_of, step, types

from kessen.core.geometry import Point, Rect, swept_overlaps_base
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.battlefield import (
    EPS,
    STICKS_MM,
    Figure,
    Table,
    edge_distance,
    enemies_in_contact,
    touching,
)
from kessen.rulesets.song_of_blades.referee.recoiling import recoil_options
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.disengaging import Disengage, HackingEnemy, disengage
from kessen.rulesets.song_of_blades.rules.melee import Melee, MeleeOutcome, melee
from kessen.rulesets.song_of_blades.rules.quality import MoraleOutcome

RECOIL = MeleeOutcome("attacker", "recoil", "defender")
FALL = MeleeOutcome("attacker", "fall", "defender")
KILL = MeleeOutcome("attacker", "kill", "defender")
TABLE = Table(900, 900, "28mm")


def fig(id: str, side: str, x: float, y: float, **kw: object) -> Figure:
    profile: dict[str, object] = dict(name=id, points=30, quality=4, combat=3, size="normal", mounted=False, flying=False,
                                      move="medium", special_rules=(), base_mm=25, state="standing")
    profile.update(kw)
    return Figure(id=id, side=side, x=x, y=y, **profile)  # type: ignore[arg-type]


# --- SB-GEO ---------------------------------------------------------------------------------------------------


def test_sb_geo_1_on_the_table_within_tolerance() -> None:
    """SB-GEO-1: a base is on the table when its centre is at least r − ε from every edge (r = 12.5, ε = 1)."""
    assert TABLE.on_table(Point(11.5, 450), 12.5) and TABLE.on_table(Point(450, 888.5), 12.5)
    assert not TABLE.on_table(Point(11.49, 450), 12.5) and not TABLE.on_table(Point(450, 888.51), 12.5)
    assert not TABLE.on_table(Point(900.0, 450), 12.5)


def test_sb_geo_2_sb_geo_3_contact_and_overlap_tolerance() -> None:
    """SB-GEO-2, SB-GEO-3: gap = |c_A − c_B| − r_A − r_B; contact when gap ≤ 1 mm; an overlap (gap < −1) is never legal,
    so a scenario may place bases 24 mm apart (gap −1) but not 23.9 mm."""
    a = fig("A", "Red", 100, 100)
    assert touching(a, fig("B", "Blue", 126, 100)) and not touching(a, fig("B", "Blue", 126.01, 100))
    assert touching(a, fig("B", "Blue", 125, 100))  # gap 0
    assert edge_distance(a, fig("B", "Blue", 100, 190)) == pytest.approx(65.0)
    assert edge_distance(a, fig("B", "Blue", 124, 100)) == 0.0  # SB-GEO-8: never negative
    state_of([model("A", 100, 100)], [model("B", 124, 100)])
    with pytest.raises(Exception, match="overlaps model 'A'"):
        state_of([model("A", 100, 100)], [model("B", 123.9, 100)])
    big = fig("G", "Red", 200, 200, base_mm=40)
    assert touching(big, fig("B", "Blue", 232.5, 200)) and not touching(big, fig("B", "Blue", 234, 200))


def test_sb_geo_4_impassable_blocks_a_step_and_a_drop_edge_is_closed_rectangle() -> None:
    """SB-GEO-4: a step whose swept base comes within r − ε of impassable terrain is illegal; a path whose centre
    reaches the drop rectangle's boundary exactly meets it (closed rectangle)."""
    a, b = fig("A", "Red", 100, 100), fig("B", "Blue", 125, 100)
    wall = Table(900, 900, "28mm", impassable=(Rect(162.0, 0, 900, 900),))  # k = 0 ends 12 mm from the wall: 12 ≥ 11.5
    assert 0 in {o.k for o in recoil_options((a, b), wall, b, a)}
    closer = Table(900, 900, "28mm", impassable=(Rect(161.4, 0, 900, 900),))  # 11.4 < 11.5: overlap
    assert 0 not in {o.k for o in recoil_options((a, b), closer, b, a)}
    edge = Table(900, 900, "28mm", drops=((Rect(150, 0, 900, 900), 20),))  # P_0 = (150, 100) lies on the edge
    k0 = next(o for o in recoil_options((a, b), edge, b, a) if o.k == 0)
    assert (k0.kind, k0.x, k0.y, k0.drop_mm) == ("drop", 162.5, 100.0, 20)


def test_sb_geo_5_no_candidate_ends_touching_the_winner() -> None:
    """SB-GEO-5: a candidate whose end is in base contact with the winner is not legal. A 10 mm loser against a 200 mm
    winner: k = ±6 end 0.47 mm from the winner's base (contact), k = ±5 at 3.02 mm (legal)."""
    w = fig("W", "Red", 200, 200, base_mm=200)
    loser = fig("L", "Blue", 305, 200, base_mm=10)
    options = recoil_options((w, loser), TABLE, loser, w)
    assert {o.k for o in options} == set(range(-5, 6))
    assert math.hypot(305 - 200, 10) - 105 == pytest.approx(0.475, abs=0.01)


def test_sb_geo_5_default_policy_prefers_no_new_enemy_then_small_k() -> None:
    """SB-GEO-5: the default policy lists first the candidates that touch no newly contacted active enemy, smallest |k|
    first and k > 0 before k < 0; those that do come after. Red E north-east of the k = 0 end makes k = 0 … 2 'loud'."""
    a, b = fig("A", "Red", 100, 100), fig("B", "Blue", 125, 100)
    e = fig("E", "Red", 160, 124)  # touches B's k = 0 … 2 ends, clear of every path
    options = recoil_options((a, b, e), TABLE, b, a)
    loud = [o.k for o in options if any(touching(fig("B", "Blue", o.x, o.y), x) for x in (e,))]
    assert loud and [o.k for o in options][-len(loud):] == loud
    quiet = [o.k for o in options][: len(options) - len(loud)]
    assert quiet == sorted(quiet, key=lambda k: (abs(k), k < 0))
    # with E fallen nobody would hack: every candidate is quiet again and k = 0 comes first
    assert recoil_options((a, b, replace(e, state="fallen")), TABLE, b, a)[0].k == 0


def test_sb_geo_6_jump_offset_friend_lands_just_clear() -> None:
    """SB-GEO-6: friend F directly behind with h = 10 < r_F, s = 25: t = max(25, 25 + sqrt(25² − 10²)) = 47.91."""
    a, b, f = fig("A", "Red", 100, 100), fig("B", "Blue", 125, 100), fig("F", "Blue", 150, 110)
    jump = next(o for o in recoil_options((a, b, f), TABLE, b, a) if o.kind == "jump")
    assert (jump.x, jump.y) == pytest.approx((125 + 25 + math.sqrt(625 - 100), 100.0), abs=0.01)


def test_sb_geo_6_no_jump_when_not_directly_behind_or_path_crowded() -> None:
    """SB-GEO-6: no jump when the ray misses F's base (h = 15 ≥ r_F) although the step overlaps F; nor when the swept
    path to the landing point overlaps a second model; nor when the landing is off the table."""
    a, b = fig("A", "Red", 100, 100), fig("B", "Blue", 125, 100)
    beside = recoil_options((a, b, fig("F", "Blue", 150, 115)), TABLE, b, a)
    assert not any(o.kind == "jump" for o in beside)
    crowded = recoil_options((a, b, fig("F", "Blue", 150, 100), fig("G", "Blue", 165, 122)), TABLE, b, a)
    assert not any(o.kind == "jump" for o in crowded)
    edge_a, edge_b, edge_f = fig("A", "Red", 840, 100), fig("B", "Blue", 865, 100), fig("F", "Blue", 887.5, 75)
    assert not any(o.kind == "jump" for o in recoil_options((edge_a, edge_b, edge_f), TABLE, edge_b, edge_a))


@pytest.mark.parametrize(("scale", "short", "medium", "long"), [("28mm", 75, 120, 180), ("15mm", 50, 80, 120)])
def test_sb_geo_7_measuring_sticks(scale: str, short: int, medium: int, long: int) -> None:
    """SB-GEO-7: Short / Medium / Long are 75 / 120 / 180 mm at 28 mm scale, 50 / 80 / 120 mm at 15 mm."""
    table = Table(900, 900, scale)
    assert (table.stick("short"), table.stick("medium"), table.stick("long")) == (short, medium, long)
    assert STICKS_MM[scale]["long"] == long


def test_sb_geo_8_sb_melee_7_long_is_edge_to_edge_inclusive_15mm() -> None:
    """SB-GEO-8, SB-MELEE-7, SB-GEO-7: at 15 mm scale Long is 120 mm, edge to edge, and exactly 120 mm counts."""
    state = state_of(
        [model("A", 275, 300, combat=4)],
        [model("B", 300, 300, combat=2), model("F1", 300, 445), model("F2", 154, 300)],
        options={"scale": "15mm"},
    )
    state = ready(state, "Red", "A", 1)
    state = step(state, opt.Attack("B"))[0]
    state = step(state, MeleeOutcome("attacker", "gruesome_kill", "defender"))[0]
    assert [p.model for p in state.pending if isinstance(p, sp.MoraleTest)] == ["F1"]  # 120 mm and 121 mm


# --- SB-RECOIL ---------------------------------------------------------------------------------------------------


def test_sb_recoil_1_one_base_depth_of_its_own() -> None:
    """SB-RECOIL-1: the loser moves its own base diameter: a big model (40 mm) recoils 40 mm straight away."""
    a, b = fig("A", "Red", 100, 100), fig("B", "Blue", 132.5, 100, base_mm=40, size="big")
    k0 = recoil_options((a, b), TABLE, b, a)[0]
    assert (k0.k, k0.x, k0.y) == (0, 172.5, 100.0)
    diagonal_a, diagonal_b = fig("A", "Red", 300, 300), fig("B", "Blue", 300 + 25 / math.sqrt(2), 300 + 25 / math.sqrt(2))
    d0 = recoil_options((diagonal_a, diagonal_b), TABLE, diagonal_b, diagonal_a)[0]
    assert math.dist((d0.x, d0.y), (diagonal_b.x, diagonal_b.y)) == pytest.approx(25.0, abs=0.01)
    assert (d0.x, d0.y) == pytest.approx((300 + 50 / math.sqrt(2),) * 2, abs=0.01)


def sc5_like(**b_profile: object) -> SobState:
    state = state_of(
        [model("A", 100, 100), model("E", 175, 100, combat=2)], [model("B", 125, 100, **b_profile)],
        impassable=[[0.0, 113.0, 900.0, 900.0], [0.0, 0.0, 900.0, 87.0]],
    )
    state = ready(state, "Red", "A", 1)
    state = step(state, opt.Attack("B"))[0]
    state = step(state, RECOIL)[0]
    return step(state, decision(state, "recoil").options[0])[0]


def test_sb_recoil_7_free_disengage_still_takes_the_recoil_hack() -> None:
    """SB-RECOIL-7: Free Disengage does not prevent the free hack of a recoil into an active enemy."""
    state = sc5_like(special_rules=["free_disengage"])
    hack = pending_roll(state)
    assert (hack.attacker, hack.defender, hack.kind) == ("E", "B", "recoil_hack")


def test_sb_recoil_3_several_new_enemies_the_recoiling_player_picks_one_hacker() -> None:
    """SB-RECOIL-3: a recoil into two newly contacted active enemies gives exactly one free hack, and the recoiling
    model's player picks the hacker."""
    red = [model("A", 100, 300), model("E1", 165, 320), model("E2", 165, 280)]  # both 25 mm from (150, 300)
    state = state_of(red, [model("B", 125, 300)])
    before = {e.id for e in enemies_in_contact(state.figures, state.get("B"))}
    assert before == {"A"}
    state = ready(state, "Red", "A", 1)
    state = step(state, opt.Attack("B"))[0]
    state = step(state, RECOIL)[0]
    k0 = next(o for o in decision(state, "recoil").options if o.k == 0)
    assert (k0.kind, k0.x, k0.y) == ("step", 150.0, 300.0)
    state = step(state, k0)[0]
    pick = decision(state, "recoil hacker")
    assert pick.player == "Blue" and set(pick.options) == {opt.Hacker("E1"), opt.Hacker("E2")}
    state, _ = step(state, opt.Hacker("E2"))
    hack = pending_roll(state)
    assert (hack.attacker, hack.kind) == ("E2", "recoil_hack")
    assert hack.roll.defender_enemies_in_contact == 2  # SB-OUT-3: E1 and E2 both count against B
    state, events = step(state, MeleeOutcome("none", "nothing", "none"))
    assert not any(isinstance(p, (sp.CombatRoll, sp.ChooseRecoilHacker)) for p in state.pending)  # one hack in total


def test_sb_recoil_3_hack_kill_applies_normally() -> None:
    """SB-RECOIL-3: the recoil hack's result applies normally: a kill removes the recoiled model."""
    state = sc5_like()
    state, events = step(state, MeleeOutcome("attacker", "kill", "defender"))
    assert state.figure("B") is None and "removed" in types(events)


# The position of issue 8: Blue B against the west edge, Red E touching it from 10° north of east, impassable
# ground below y = 266. B may retreat south along the edge, but every recoil away from E leaves the table or cuts
# into the impassable ground.
EDGE_POCKET = [[0.0, 0.0, 900.0, 266.0]]


def test_sb_recoil_5_free_hack_on_a_leaving_model_with_no_room_is_a_fall() -> None:
    """SB-RECOIL-5, SB-DIS-3 (issue 8): B (C3) leaves contact with E (C3) and has no legal recoil away from E, so
    E's free hack is exactly `melee` with `free_hack: true, defender_can_recoil: false` (an odd win short of double
    is a fall: fall 13/36, kill 1/18, never a recoil), and the same as `disengage` with that enemy's `can_recoil`
    false; the log then says `fell`, never `recoiled`."""
    state = state_of([model("E", 37.62, 304.34)], [model("B", 13, 300)], impassable=EDGE_POCKET)
    assert recoil_options(state.figures, state.table, state.get("B"), state.get("E")) == ()
    state = ready(state, "Blue", "B")
    retreat = next(o for o in decision(state, "move").options if isinstance(o, opt.Move))
    assert (retreat.purpose, retreat.x) == ("retreat", 12.5)  # a legal move along the edge
    state = step(state, retreat)[0]
    node = chance(state, "free hack")
    top = state.pending[0]
    assert isinstance(top, sp.Disengaging) and top.setup.enemies[0].can_recoil is False
    expected = melee(Melee(attacker_combat=3, defender_combat=3, free_hack=True, defender_can_recoil=False))
    assert results(node) == expected
    assert results(node).probability(lambda o: o.result == "recoil") == 0
    assert results(node).probability(FALL) == Fraction(13, 36) and results(node).probability(KILL) == Fraction(1, 18)
    procedure = disengage(Disengage(combat=3, enemies=(HackingEnemy(combat=3, can_recoil=False),)))
    assert procedure.probability(lambda o: o.result == "fall") == Fraction(13, 36)
    assert procedure.probability(lambda o: o.result == "recoil") == 0
    state, events = step(state, FALL)  # E rolls 3 → 6 against B's 1 → 4: odd, short of double: B falls
    assert types(events)[:2] == ["combat_roll", "fell"] and "recoiled" not in types(events)
    assert state.get("B").state == "fallen" and at(state.get("B"), 13, 300)


def test_sb_recoil_5_room_to_recoil_is_judged_per_hacker() -> None:
    """SB-RECOIL-5, SB-DIS-8: B leaves E1 (no room away from it, as above) and E2 (south-east of B; B may recoil
    north away from it) to charge Z: E1's hack can only make B fall, E2's can make it recoil; each node is `melee`
    with B at −1 for two enemies, and the whole sequence is `disengage` with the per-enemy `can_recoil`."""
    red = [model("E1", 37.62, 304.34), model("E2", 29.07, 280.85), model("Z", 13, 420)]
    state = state_of(red, [model("B", 13, 300)], impassable=EDGE_POCKET)
    state = ready(state, "Blue", "B")
    charge = next(o for o in decision(state, "move").options if isinstance(o, opt.Move))
    assert (charge.purpose, charge.toward) == ("charge", "Z")
    state = step(state, charge)[0]
    top = state.pending[0]
    assert isinstance(top, sp.Disengaging)
    room = {hacker: top.setup.enemies[top.positions.index(hacker)].can_recoil for hacker in top.hackers}
    assert room == {"E1": False, "E2": True}
    for hacker in ("E1", "E2"):
        first = step(state, opt.Hacker(hacker))[0]
        roll = Melee(attacker_combat=3, defender_combat=3, free_hack=True, defender_enemies_in_contact=2,
                          defender_can_recoil=room[hacker])
        assert results(chance(first, "free hack")) == melee(roll)
    whole = disengage(top.setup)
    entries = (HackingEnemy(combat=3, can_recoil=False), HackingEnemy(combat=3))
    assert whole == disengage(Disengage(combat=3, enemies=entries))
    # B at 3 − 1 against 3: a hack wins 21/36; E1's recoils are falls, E2's are not
    assert whole.probability(lambda o: o.by == 1 and o.result == "recoil") == 0
    assert whole.probability(lambda o: o.by == 2 and o.result == "recoil") > 0


# --- SB-FALL ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("drop_mm", "killed"), [(75, True), (74, False)])
def test_sb_fall_1_short_is_the_threshold(drop_mm: int, killed: bool) -> None:
    """SB-FALL-1: a drop of at least Short (75 mm) kills; 74 mm leaves the model fallen at the landing point
    (SC-8's k = 0 landing: E = (300, 200), landing (300, 187.5))."""
    state = state_of([model("A", 300, 240)], [model("B", 300, 215)], drop_areas=[{"rect": [0.0, 0.0, 900.0, 200.0], "drop_mm": drop_mm}])
    state = ready(state, "Red", "A", 1)
    state = step(state, opt.Attack("B"))[0]
    state = step(state, RECOIL)[0]
    k0 = next(o for o in decision(state, "recoil").options if o.kind == "drop" and o.k == 0)
    state, events = step(state, k0)
    if killed:
        assert state.figure("B") is None and state.casualties[-1].how == "falling"
    else:
        assert at(state.get("B"), 300, 187.5) and state.get("B").state == "fallen"
        assert not state.casualties


# --- SB-FOLLOW ---------------------------------------------------------------------------------------------------


def test_sb_follow_3_after_the_recoil_hack_and_only_if_still_there() -> None:
    """SB-FOLLOW-3: the follow-up comes after the free hack the recoil caused; if that hack kills the recoiled model
    there is no follow-up."""
    state = state_of(
        [model("A", 100, 100), model("E", 175, 100, combat=2)], [model("B", 125, 100)],
        impassable=[[0.0, 113.0, 900.0, 900.0], [0.0, 0.0, 900.0, 87.0]], options={"follow_up": True},
    )
    state = ready(state, "Red", "A", 1)
    state = step(state, opt.Attack("B"))[0]
    state = step(state, RECOIL)[0]
    state = step(state, decision(state, "recoil").options[0])[0]
    chance(state, "combat roll")  # E's hack first
    killed, _ = step(state, MeleeOutcome("attacker", "kill", "defender"))
    assert not any(isinstance(p, sp.OfferFollowUp) for p in killed.pending)
    missed, _ = step(state, MeleeOutcome("defender", "nothing", "none"))
    decision(missed, "follow-up")
    followed, _ = step(missed, opt.FollowUp(True))
    assert at(followed.get("A"), 125, 100)


def test_sb_follow_3_after_a_disengagement_hack() -> None:
    """SB-FOLLOW-3: a free hack during a disengagement that makes the leaver recoil lets the hacker follow up."""
    state = state_of([model("E1", 375, 400)], [model("B", 400, 400)], options={"follow_up": True})
    state = ready(state, "Blue", "B", 1)
    move = next(o for o in decision(state, "move").options if isinstance(o, opt.Move))
    state = step(state, move)[0]
    chance(state, "free hack")
    state = step(state, RECOIL)[0]
    state = step(state, decision(state, "recoil").options[0])[0]
    assert at(state.get("B"), 425, 400)
    offer = decision(state, "follow-up")
    assert offer.player == "Red"
    state, _ = step(state, opt.FollowUp(True))
    assert at(state.get("E1"), 400, 400)


def test_sb_follow_4_straight_line_stops_at_contact_and_blocked_path_means_no_move() -> None:
    """SB-FOLLOW-4: the follow-up runs straight toward the recoiled model and stops at gap 0; a path that meets a drop
    area means the winner does not move."""
    def after_k6(**extra: object) -> SobState:
        state = state_of([model("A", 100, 100)], [model("B", 125, 100)], options={"follow_up": True}, **extra)  # type: ignore[arg-type]
        state = ready(state, "Red", "A", 1)
        state = step(state, opt.Attack("B"))[0]
        state = step(state, RECOIL)[0]
        k6 = next(o for o in decision(state, "recoil").options if o.k == 6)
        return step(state, k6)[0]

    state, _ = step(after_k6(), opt.FollowUp(True))
    a, b = state.get("A"), state.get("B")
    assert at(b, 125, 125)
    assert math.dist((a.x, a.y), (b.x, b.y)) == pytest.approx(25.0, abs=0.01)
    assert at(a, 125 - 25 / math.sqrt(2), 125 - 25 / math.sqrt(2))
    blocked, events = step(after_k6(drop_areas=[{"rect": [103.0, 103.0, 105.0, 105.0], "drop_mm": 10}]), opt.FollowUp(True))
    assert at(blocked.get("A"), 100, 100) and "followed_up" not in types(events)
    assert EPS == 1.0


def test_sb_fall_1_sb_geo_1_low_drop_landing_must_be_on_the_table() -> None:
    """SB-FALL-1, SB-GEO-1, SB-GEO-5 [DECISION]: a survivor of a low drop lands at E + r·u, so a low drop whose landing
    point is off the table (or on another base) is not an open candidate; a drop of Short or more kills wherever the
    foot is, so it stays open. A 30 mm ledge along the south edge: k = 0 from (300, 40) meets it at E = (300, 20) and
    would land at (300, 7.5), less than r − ε from the edge."""
    a, b = fig("A", "Red", 300, 65), fig("B", "Blue", 300, 40)
    low = Table(900, 900, "28mm", drops=((Rect(0, 0, 900, 20), 30),))
    assert not any(o.kind == "drop" and o.k == 0 for o in recoil_options((a, b), low, b, a))
    high = Table(900, 900, "28mm", drops=((Rect(0, 0, 900, 20), 75),))
    k0 = next(o for o in recoil_options((a, b), high, b, a) if o.k == 0)
    assert (k0.kind, k0.x, k0.y) == ("drop", 300.0, 7.5)
    inland = Table(900, 900, "28mm", drops=((Rect(0, 0, 900, 30), 30),))  # landing (300, 17.5): on the table
    k0 = next(o for o in recoil_options((a, b), inland, b, a) if o.k == 0)
    assert (k0.kind, k0.x, k0.y) == ("drop", 300.0, 17.5)
    c = fig("C", "Blue", 318, 12)  # at the foot: clear of B's path to E, but on the landing point
    assert not swept_overlaps_base(b.centre, Point(300, 30), 12.5, c.centre, 12.5, EPS)
    occupied = recoil_options((a, b, c), inland, b, a)
    assert not any(o.kind == "drop" and o.k == 0 for o in occupied)
