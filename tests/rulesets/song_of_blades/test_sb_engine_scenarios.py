"""The scenario behaviours SC-1 … SC-14 of the spec (§8), on the exact positions it gives, through the engine."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from sb_engine_support import (
    nothing_pending,
    results,
    activated,
    at,
    chance,
    decision,
    forced,
    model,
    pending_roll,
    ready,
    state_of,
    step,
    turn_of,
    types,
)

from kessen.core.geometry import Point, Rect, gap, segment_enters_rect, segment_point_distance
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, RecoilOption, Table, edge_distance
from kessen.rulesets.song_of_blades.referee.recoiling import recoil_options
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.disengaging import free_hack
from kessen.rulesets.song_of_blades.rules.melee import DEFENSIVE_WIN, TIE, MeleeOutcome, combat_roll
from kessen.rulesets.song_of_blades.rules.quality import MoraleOutcome

F = Fraction
RECOIL = MeleeOutcome("attacker", "recoil", "defender")
FALL = MeleeOutcome("attacker", "fall", "defender")
TABLE = Table(900, 900, "28mm")


def fig(id: str, side: str, x: float, y: float, **kw: object) -> Figure:
    """A Q4 C3 25 mm model for the geometry-only assertions."""
    profile: dict[str, object] = dict(name=id, points=30, quality=4, combat=3, size="normal", mounted=False, flying=False,
                                      move="medium", special_rules=(), base_mm=25, state="standing")
    profile.update(kw)
    return Figure(id=id, side=side, x=x, y=y, **profile)  # type: ignore[arg-type]


def ks(options: tuple[RecoilOption, ...], kind: str | None = None) -> set[int]:
    return {o.k for o in options if kind is None or o.kind == kind}


def option(options: tuple[RecoilOption, ...], kind: str, k: int) -> RecoilOption:
    return next(o for o in options if o.kind == kind and o.k == k)


def u(a: Point, k: int) -> Point:
    return a.rotated(15 * k)


def attack_until_roll(state: SobState, attacker: str, target: str, *, side: str = "Red", actions: int = 1) -> SobState:
    state = ready(state, side, attacker, actions)
    return step(state, opt.Attack(target))[0]


# --- SC-1 -------------------------------------------------------------------------------------------------


def sc1(**extra: object) -> SobState:
    return state_of([model("A", 100, 100)], [model("B", 125, 100)], **extra)  # type: ignore[arg-type]


def test_sb_geo_5_sb_recoil_1_sb_melee_6_sc1_straight_recoil() -> None:
    """SC-1, SB-GEO-5, SB-RECOIL-1, SB-MELEE-6: A (C3) rolls 3 → 6, B (C3) rolls 1 → 4: A wins, 6 < 8, odd →
    B recoils one base depth; all 13 candidates are legal; the default k = 0 puts B at (150, 100), 25 mm from A,
    no longer in contact, still standing."""
    state = attack_until_roll(sc1(), "A", "B")
    assert forced(state, 3, 1) == RECOIL
    state, events = step(state, RECOIL)
    node = decision(state, "recoil")
    assert node.player == "Blue"
    assert ks(node.options) == set(range(-6, 7)) and all(o.kind == "step" for o in node.options)
    assert (node.options[0].k, node.options[0].x, node.options[0].y) == (0, 150.0, 100.0)
    state, events = step(state, node.options[0])
    a, b = state.get("A"), state.get("B")
    assert at(b, 150, 100) and at(a, 100, 100)
    assert gap(a.centre, a.r, b.centre, b.r) == pytest.approx(25.0, abs=0.01)
    assert b.state == "standing"
    assert "recoiled" in types(events) and "combat_roll" not in types(events)  # no free hack


def test_sb_geo_5_sb_turn_3_sc1_player_chooses_k6() -> None:
    """SC-1, SB-GEO-5, SB-TURN-3: Blue may choose any legal candidate; k = 6 ends at (125, 125)."""
    state = step(attack_until_roll(sc1(), "A", "B"), RECOIL)[0]
    k6 = option(decision(state, "recoil").options, "step", 6)
    state, _ = step(state, k6)
    assert at(state.get("B"), 125, 125)


# --- SC-2 -------------------------------------------------------------------------------------------------


def test_sb_geo_6_sb_recoil_2_sb_geo_3_sc2_jump_friend_behind() -> None:
    """SC-2, SB-GEO-6, SB-RECOIL-2, SB-GEO-3: the k = 0 path overlaps friend C (h = 0, s = 25), so the jump lands at
    t = max(25, 50) = 50 → (175, 100); k = −4 … 4 are blocked by C; k = ±5 (least gap −0.85 mm, within ε) and
    ±6 are legal; the default policy takes the jump, and C does not move."""
    a, b, c = fig("A", "Red", 100, 100), fig("B", "Blue", 125, 100), fig("C", "Blue", 150, 100)
    options = recoil_options((a, b, c), TABLE, b, a)
    jump = option(options, "jump", 0)
    assert (jump.x, jump.y) == pytest.approx((175.0, 100.0), abs=0.01)
    assert ks(options, "step") == {-6, -5, 5, 6}
    assert options[0] == jump
    for k in (5, -5):  # the k = ±5 paths pass C at −0.85 mm: within the tolerance, not an overlap
        end = b.centre + u(Point(1, 0), k).scaled(25)
        assert segment_point_distance(b.centre, end, c.centre) - 25 == pytest.approx(-0.85, abs=0.01)

    state = attack_until_roll(state_of([model("A", 100, 100)], [model("B", 125, 100), model("C", 150, 100)]), "A", "B")
    state = step(state, RECOIL)[0]
    node = decision(state, "recoil")
    assert node.options[0].kind == "jump"
    state, _ = step(state, node.options[0])
    assert at(state.get("B"), 175, 100) and at(state.get("C"), 150, 100)


def test_sb_geo_6_sc2_no_jump_onto_enemy_or_over_enemy() -> None:
    """SC-2, SB-GEO-6: a Red model at (175, 100) makes the landing overlap, so no jump; if C is Red, no jump at all
    (friends only)."""
    a, b, c = fig("A", "Red", 100, 100), fig("B", "Blue", 125, 100), fig("C", "Blue", 150, 100)
    landing_taken = recoil_options((a, b, c, fig("R", "Red", 175, 100)), TABLE, b, a)
    assert ks(landing_taken, "jump") == set() and ks(landing_taken) == {-6, -5, 5, 6}
    enemy_behind = recoil_options((a, b, fig("C", "Red", 150, 100)), TABLE, b, a)
    assert ks(enemy_behind, "jump") == set() and ks(enemy_behind) == {-6, -5, 5, 6}


# --- SC-3 -------------------------------------------------------------------------------------------------


def test_sb_recoil_5_sb_geo_1_sc3_table_edge_and_friends_fall() -> None:
    """SC-3, SB-RECOIL-5, SB-GEO-1, SB-GEO-6: against the west edge between two friends, k = −5 … 5 end off the table
    (x < 11.5), k = ±6 overlap F1 / F2, the k = 0 block is the edge (no jump): B falls at (12.5, 300)."""
    a, b = fig("A", "Red", 37.5, 300), fig("B", "Blue", 12.5, 300)
    f1, f2 = fig("F1", "Blue", 12.5, 325), fig("F2", "Blue", 12.5, 275)
    assert recoil_options((a, b, f1, f2), TABLE, b, a) == ()
    away = Point(-1, 0)
    for k in range(-5, 6):
        assert (b.centre + u(away, k).scaled(25)).x < 11.5
    assert recoil_options((a, b), TABLE, b, a) != ()  # the friends are what closes k = ±6

    state = state_of([model("A", 37.5, 300)], [model("B", 12.5, 300), model("F1", 12.5, 325), model("F2", 12.5, 275)])
    state = attack_until_roll(state, "A", "B")
    assert pending_roll(state).roll.defender_can_recoil is False
    assert forced(state, 3, 1) == FALL  # 6 against 4: odd, not double, no recoil → fall
    state, events = step(state, FALL)
    assert at(state.get("B"), 12.5, 300) and state.get("B").state == "fallen"
    assert "recoiled" not in types(events)


# --- SC-4 -------------------------------------------------------------------------------------------------


def test_sb_recoil_5_sb_out_1_sc4_surrounded_falls_no_hack() -> None:
    """SC-4, SB-RECOIL-5: B surrounded by four Red models has no candidate; an odd non-double win makes it fall in
    place and nobody makes a free hack."""
    red = [model("A", 375, 400), model("E1", 425, 400), model("E2", 400, 425), model("E3", 400, 375)]
    state = state_of(red, [model("B", 400, 400)])
    figures = state.figures
    assert recoil_options(figures, state.table, state.get("B"), state.get("A")) == ()
    state = attack_until_roll(state, "A", "B")
    roll = pending_roll(state).roll
    assert roll.defender_enemies_in_contact == 4 and roll.defender_can_recoil is False
    assert forced(state, 5, 6) == FALL  # A 8, B 6 + 3 − 3 = 6: odd, not double → fall
    state, events = step(state, FALL)
    assert at(state.get("B"), 400, 400) and state.get("B").state == "fallen"
    assert not any(isinstance(p, sp.CombatRoll) for p in state.pending)
    assert types(events).count("combat_roll") == 1


# --- SC-5 -------------------------------------------------------------------------------------------------

CORRIDOR = {"impassable": [[0.0, 113.0, 900.0, 900.0], [0.0, 0.0, 900.0, 87.0]]}


def sc5_after_recoil(e_state: str = "standing") -> SobState:
    state = state_of([model("A", 100, 100), model("E", 175, 100, combat=2, state=e_state)], [model("B", 125, 100)], **CORRIDOR)
    state = attack_until_roll(state, "A", "B")
    assert forced(state, 3, 1) == RECOIL
    state = step(state, RECOIL)[0]
    options = decision(state, "recoil").options
    assert [(o.kind, o.k) for o in options] == [("step", 0)]  # every rotated path hits a wall
    return step(state, options[0])[0]


def test_sb_recoil_3_sb_out_3_sc5_recoil_into_active_enemy_one_free_hack() -> None:
    """SC-5, SB-RECOIL-3, SB-OUT-3: in a corridor only k = 0 is legal; B ends at (150, 100) touching E, which was not
    in contact before: E makes one free hack, melee with free_hack, attacker E, defender B, defender_enemies_in_contact 1."""
    state = sc5_after_recoil()
    assert at(state.get("B"), 150, 100)
    node = chance(state, "combat roll")
    hack = pending_roll(state)
    assert (hack.attacker, hack.defender, hack.kind) == ("E", "B", "recoil_hack")
    roll = hack.roll
    assert roll.free_hack and roll.attacker_combat == 2 and roll.defender_combat == 3
    assert roll.defender_enemies_in_contact == 1 and roll.attacker_enemies_in_contact == 1
    assert results(node).probability(lambda o: o.affected == "attacker") == 0  # the victim's roll is defensive
    # E rolls 4 → 6 against B's 1 → 4: E wins, 6 < 8, even → B falls at (150, 100)
    assert forced(state, 4, 1) == FALL
    fell, events = step(state, FALL)
    assert at(fell.get("B"), 150, 100) and fell.get("B").state == "fallen"
    # B rolls 5 → 8 and wins: nothing happens (defensive roll)
    assert forced(state, 4, 5) == DEFENSIVE_WIN
    safe, _ = step(state, DEFENSIVE_WIN)
    assert at(safe.get("B"), 150, 100) and safe.get("B").state == "standing" and nothing_pending(safe)


def test_sb_recoil_3_sc5_chain_back_into_the_winner() -> None:
    """SC-5, SB-RECOIL-3 applied again: E rolls 5 → 7 against 4 (odd): B recoils away from E, only k = 0 (west), to
    (125, 100) touching A, which was not in contact before this recoil → A makes one free hack in turn."""
    state = sc5_after_recoil()
    assert forced(state, 5, 1) == RECOIL
    state = step(state, RECOIL)[0]
    options = decision(state, "recoil").options
    assert [(o.kind, o.k, o.x, o.y) for o in options] == [("step", 0, 125.0, 100.0)]
    state = step(state, options[0])[0]
    hack = pending_roll(state)
    assert at(state.get("B"), 125, 100)
    assert (hack.attacker, hack.defender, hack.kind) == ("A", "B", "recoil_hack")


@pytest.mark.parametrize("e_state", ["fallen", "transfixed"])
def test_sb_recoil_3_sb_down_5_sc5_inactive_enemy_no_hack(e_state: str) -> None:
    """SC-5, SB-RECOIL-3, SB-DOWN-5: a fallen or transfixed E makes no free hack on the recoiled model."""
    state = sc5_after_recoil(e_state)
    assert at(state.get("B"), 150, 100)
    assert not any(isinstance(p, sp.CombatRoll) for p in state.pending)


# --- SC-6 -------------------------------------------------------------------------------------------------


def test_sb_recoil_4_sb_geo_3_sc6_recoil_from_several_no_hacks() -> None:
    """SC-6, SB-RECOIL-4, SB-GEO-3: B engaged with A and E2 recoils (k = 0) to (425, 400), leaving E2's contact
    (gap 10.36 mm) without a free hack; k = −6 … −2 are blocked by E2, k = −1 passes it at −0.85 mm and is legal."""
    a, b, e2 = fig("A", "Red", 375, 400), fig("B", "Blue", 400, 400), fig("E2", "Red", 400, 375)
    options = recoil_options((a, b, e2), TABLE, b, a)
    assert ks(options) == set(range(-1, 7))
    end = b.centre + u(Point(1, 0), -1).scaled(25)
    assert segment_point_distance(b.centre, end, e2.centre) - 25 == pytest.approx(-0.85, abs=0.01)

    state = state_of([model("A", 375, 400), model("E2", 400, 375)], [model("B", 400, 400)])
    state = attack_until_roll(state, "A", "B")
    assert pending_roll(state).roll.defender_enemies_in_contact == 2
    assert forced(state, 3, 3) == RECOIL  # A 6 against B 3 + 3 − 1 = 5: odd, not double
    state = step(state, RECOIL)[0]
    state, events = step(state, decision(state, "recoil").options[0])
    b2, e = state.get("B"), state.get("E2")
    assert at(b2, 425, 400)
    assert gap(b2.centre, b2.r, e.centre, e.r) == pytest.approx(10.36, abs=0.01)
    assert not any(isinstance(p, sp.CombatRoll) for p in state.pending)
    assert "combat_roll" not in types(events)


# --- SC-7 -------------------------------------------------------------------------------------------------

BRIDGE = [[200.0, 0.0, 700.0, 400.0], [200.0, 430.0, 700.0, 900.0]]


def bridge(drop_mm: int) -> SobState:
    return state_of(
        [model("A", 425, 415)], [model("B", 450, 415), model("C", 475, 415), model("D", 500, 415)],
        drop_areas=[{"rect": r, "drop_mm": drop_mm} for r in BRIDGE],
    )


def test_sb_geo_5_sb_geo_6_sc7_bridge_candidates() -> None:
    """SC-7, SB-GEO-5, SB-GEO-6: k = 0 is blocked by C and the jump lands on D (illegal); ±1, ±2 overlap C; ±3, ±4
    meet the drop but overlap C first (closed); ±5, ±6 are open drop candidates (±5 pass C at −0.85 mm)."""
    state = bridge(150)
    b, c = state.get("B"), state.get("C")
    options = recoil_options(state.figures, state.table, b, state.get("A"))
    assert ks(options, "drop") == {-6, -5, 5, 6} and ks(options, "step") == set() and ks(options, "jump") == set()
    assert all(o.drop_mm == 150 for o in options)
    away = Point(1, 0)
    for k in (-4, -3, 3, 4):
        end = b.centre + u(away, k).scaled(25)
        assert any(segment_enters_rect(b.centre, end, Rect(*r)) is not None for r in BRIDGE)
    for k in (-5, 5):
        end = b.centre + u(away, k).scaled(25)
        assert segment_point_distance(b.centre, end, c.centre) - 25 == pytest.approx(-0.85, abs=0.01)
    assert (options[0].kind, options[0].k) == ("drop", 5)


def test_sb_recoil_6_sb_fall_1_sc7_off_the_bridge_killed() -> None:
    """SC-7, SB-RECOIL-6, SB-FALL-1: the default k = +5 sends B over the north edge; 150 mm ≥ Short (75 mm): B is
    killed, not gruesomely, and nobody tests morale."""
    state = attack_until_roll(bridge(150), "A", "B")
    assert forced(state, 3, 1) == RECOIL
    state = step(state, RECOIL)[0]
    state, events = step(state, decision(state, "recoil").options[0])
    assert state.figure("B") is None
    removed = [e for e in events if e.type == "removed"]
    assert [(e.model, e.how) for e in removed] == [("B", "falling")]  # type: ignore[attr-defined]
    assert "morale_test" not in types(events) and not any(isinstance(p, sp.MoraleTest) for p in state.pending)
    assert state.casualties[-1].model == "B"


def test_sb_fall_1_sc7_low_drop_fallen_at_landing() -> None:
    """SC-7, SB-FALL-1, SB-GEO-5: with drop_mm 50 B is fallen at the landing point E + r·u for k = +5:
    E = (454.02, 430), so (457.25, 442.07)."""
    state = attack_until_roll(bridge(50), "A", "B")
    state = step(state, RECOIL)[0]
    k5 = decision(state, "recoil").options[0]
    assert (k5.kind, k5.k) == ("drop", 5)
    state, _ = step(state, k5)
    b = state.get("B")
    assert at(b, 457.25, 442.07) and b.state == "fallen"


# --- SC-8 -------------------------------------------------------------------------------------------------


def cliff() -> SobState:
    return state_of([model("A", 300, 240)], [model("B", 300, 215)], drop_areas=[{"rect": [0.0, 0.0, 900.0, 200.0], "drop_mm": 120}])


def test_sb_geo_5_sc8_cliff_candidates_and_default() -> None:
    """SC-8, SB-GEO-5: k = −3 … 3 are open drop candidates, k = ±4 … ±6 legal steps; the default policy takes
    k = +4: B ends at (321.65, 202.5) on the cliff top."""
    state = cliff()
    options = recoil_options(state.figures, state.table, state.get("B"), state.get("A"))
    assert ks(options, "drop") == set(range(-3, 4))
    assert ks(options, "step") == {-6, -5, -4, 4, 5, 6}
    assert [(o.kind, o.k) for o in options][:2] == [("step", 4), ("step", -4)]
    assert [(o.kind, o.k) for o in options][6:] == [("drop", 0), ("drop", 1), ("drop", -1), ("drop", 2), ("drop", -2), ("drop", 3), ("drop", -3)]
    state = attack_until_roll(state, "A", "B")
    state = step(state, RECOIL)[0]
    state, _ = step(state, decision(state, "recoil").options[0])
    assert at(state.get("B"), 321.65, 202.5) and state.get("B").state == "standing"


def test_sb_recoil_6_sb_fall_1_sc8_player_chooses_the_drop() -> None:
    """SC-8, SB-RECOIL-6, SB-FALL-1: Blue may choose k = 0: B goes over at E = (300, 200) (landing (300, 187.5));
    120 mm ≥ Short: killed."""
    state = attack_until_roll(cliff(), "A", "B")
    state = step(state, RECOIL)[0]
    k0 = option(decision(state, "recoil").options, "drop", 0)
    assert (k0.x, k0.y) == pytest.approx((300.0, 187.5), abs=0.01)
    state, events = step(state, k0)
    assert state.figure("B") is None
    assert ("removed", "falling") in [(e.type, getattr(e, "how", None)) for e in events]


# --- SC-9 -------------------------------------------------------------------------------------------------


def sc9(red_extra: list[dict[str, object]] | None = None, **b_profile: object) -> SobState:
    state = state_of([model("A", 100, 100)] + (red_extra or []), [model("B", 125, 100, **b_profile)], options={"follow_up": True})
    return attack_until_roll(state, "A", "B", actions=2)


def test_sb_follow_1_sb_follow_4_sc9_follow_up_into_contact() -> None:
    """SC-9, SB-FOLLOW-1, SB-FOLLOW-4: with follow_up on, after B's recoil to (150, 100) A may move straight to
    (125, 100), no action spent, and is in contact again; declining leaves A at (100, 100)."""
    state = step(sc9(), RECOIL)[0]
    state = step(state, decision(state, "recoil").options[0])[0]
    offer = decision(state, "follow-up")
    assert offer.player == "Red" and set(offer.options) == {opt.FollowUp(True), opt.FollowUp(False)}
    followed, events = step(state, opt.FollowUp(True))
    assert at(followed.get("A"), 125, 100) and at(followed.get("B"), 150, 100)
    assert followed.current is not None and followed.current.actions == 1  # the attack's action only
    assert "followed_up" in types(events)
    stayed, _ = step(state, opt.FollowUp(False))
    assert at(stayed.get("A"), 100, 100)


def test_sb_follow_1_sc9_option_off_no_follow_up() -> None:
    """SC-9, SB-FOLLOW-1: with the option off, nobody is asked and A stays at (100, 100)."""
    state = step(attack_until_roll(sc1(), "A", "B"), RECOIL)[0]
    state, _ = step(state, decision(state, "recoil").options[0])
    assert not any(isinstance(p, sp.OfferFollowUp) for p in state.pending)
    assert at(state.get("A"), 100, 100)


@pytest.mark.parametrize("profile", [{"mounted": True}, {"flying": True}, {"special_rules": ["free_disengage"]}])
def test_sb_follow_2_sc9_no_follow_up_against_free_disengage(profile: dict[str, object]) -> None:
    """SC-9, SB-FOLLOW-2: no follow-up if B is mounted and A is not, B flies and A does not, or B has Free Disengage."""
    state = step(sc9(**profile), RECOIL)[0]
    state, _ = step(state, decision(state, "recoil").options[0])
    assert at(state.get("B"), 150, 100)
    assert not any(isinstance(p, sp.OfferFollowUp) for p in state.pending)
    assert at(state.get("A"), 100, 100)


def test_sb_follow_4_sc9_no_follow_up_while_engaged() -> None:
    """SC-9, SB-FOLLOW-4: A in contact with another enemy (Blue X at (100, 125)) may not follow up."""
    state = state_of([model("A", 100, 100)], [model("B", 125, 100), model("X", 100, 125)], options={"follow_up": True})
    state = attack_until_roll(state, "A", "B")
    assert forced(state, 5, 1) == RECOIL  # A 5 + 3 − 1 = 7 against 4: odd, not double
    state = step(state, RECOIL)[0]
    state, _ = step(state, decision(state, "recoil").options[0])
    assert at(state.get("B"), 150, 100)
    assert not any(isinstance(p, sp.OfferFollowUp) for p in state.pending)
    assert at(state.get("A"), 100, 100)


# --- SC-10 ------------------------------------------------------------------------------------------------


def sc10() -> tuple[SobState, opt.Move]:
    """Blue B (C3) at (400, 400) touching Red E1 (C2, west) and Red E2 (C4, north); B activates and moves away."""
    state = state_of([model("E1", 375, 400, combat=2), model("E2", 400, 425, combat=4)], [model("B", 400, 400)])
    state = activated(turn_of(state, "Blue"), "B", 2, dice=2)
    moves = [o for o in decision(state, "move").options if isinstance(o, opt.Move)]
    assert moves
    move = moves[0]
    state = step(state, move)[0]
    return state, move


def hack_outcome(state: SobState, hacker: str, hacker_die: int, victim_die: int) -> MeleeOutcome:
    top = state.pending[0]
    assert isinstance(top, sp.Disengaging) and top.hackers[0] == hacker
    enemy = top.setup.enemies[top.positions.index(hacker)]
    return combat_roll(free_hack(top.setup, enemy), hacker_die, victim_die)


def test_sb_dis_5_sb_dis_6_sc10_recoil_stops_the_hacks() -> None:
    """SC-10, SB-DIS-5, SB-DIS-6, SB-DIS-8: Blue orders E1 first; E1 rolls 3 → 5, B rolls 1 → 1 + 3 − 1 = 3: E1 wins,
    5 < 6, odd → B recoils; E2 gets no hack and B's move ends where the recoil puts it."""
    state, move = sc10()
    order = decision(state, "hack order")
    assert order.player == "Blue" and set(order.options) == {opt.Hacker("E1"), opt.Hacker("E2")}
    state = step(state, opt.Hacker("E1"))[0]
    chance(state, "free hack")
    assert hack_outcome(state, "E1", 3, 1) == RECOIL
    state, events = step(state, RECOIL)
    node = decision(state, "recoil")
    state, more = step(state, node.options[0])
    b = state.get("B")
    assert at(b, node.options[0].x, node.options[0].y) and not at(b, move.x, move.y)
    assert nothing_pending(state) and "moved" not in types(events + more)
    assert [e.type for e in events + more].count("combat_roll") == 1


def test_sb_dis_3_sb_dis_6_sc10_won_hack_then_next_then_move() -> None:
    """SC-10, SB-DIS-3, SB-DIS-6: B rolls 4 → 6 and wins against E1's 5; E2 hacks next; B ties or wins that one too
    and completes its move."""
    state, move = sc10()
    state = step(state, opt.Hacker("E1"))[0]
    assert hack_outcome(state, "E1", 3, 4) == DEFENSIVE_WIN
    state, _ = step(state, DEFENSIVE_WIN)
    chance(state, "free hack")
    assert state.pending[0].hackers == ("E2",)  # type: ignore[union-attr]
    # E2 rolls 1 → 1 + 4 = 5, B rolls 3 → 3 + 3 − 1 = 5: a tie, B goes on
    assert hack_outcome(state, "E2", 1, 3) == TIE
    state, events = step(state, TIE)
    assert at(state.get("B"), move.x, move.y)
    assert [(e.type, getattr(e, "free_hacks", None)) for e in events if e.type == "disengaged"] == [("disengaged", 2)]


def test_sb_dis_6_sc10_fall_stops_the_hacks() -> None:
    """SC-10, SB-DIS-6: E1's hack makes B fall (E1 2 → 4 against 3, even): B stays fallen where it stood, E2 no hack."""
    state, _ = sc10()
    state = step(state, opt.Hacker("E1"))[0]
    assert hack_outcome(state, "E1", 2, 1) == FALL
    state, _ = step(state, FALL)
    assert at(state.get("B"), 400, 400) and state.get("B").state == "fallen"
    assert not any(isinstance(p, sp.Disengaging) for p in state.pending)


# --- SC-11 ------------------------------------------------------------------------------------------------


def sc11() -> SobState:
    """SC-11's positions. F1 (300, 490) and F2 (300, 510) are only 20 mm apart, so their 25 mm bases overlap and a
    scenario file holding both is rejected (§3.4); F2 is therefore added to the loaded state directly."""
    red = [model("A", 275, 300, combat=4), model("R2", 300, 400)]
    blue = [model("B", 300, 300, combat=2), model("F1", 300, 490)]
    state = state_of(red, blue)
    state = replace(state, figures=state.figures + (replace(state.get("F1"), id="F2", name="F2", y=510.0),))
    return attack_until_roll(state, "A", "B")


def test_sb_melee_7_sb_mor_1_sc11_gruesome_kill_morale() -> None:
    """SC-11, SB-MELEE-7, SB-MOR-1, SB-GEO-8: A rolls 5 → 9, B rolls 1 → 3, 9 ≥ 3 × 3: gruesome kill; B is removed;
    F1 (edge distance 165 mm ≤ 180) tests morale, F2 (185 mm) does not, no Red model tests."""
    state = sc11()
    gruesome = MeleeOutcome("attacker", "gruesome_kill", "defender")
    assert forced(state, 5, 1) == gruesome
    state, events = step(state, gruesome)
    assert state.figure("B") is None
    b = sc11().get("B")
    assert edge_distance(b, state.get("F1")) == pytest.approx(165.0) and edge_distance(b, state.get("F2")) == pytest.approx(185.0)
    assert [p.model for p in state.pending if isinstance(p, sp.MoraleTest)] == ["F1"]
    assert results(chance(state, "morale test")).probability(lambda o: o.result == "stands") == F(1, 8)  # Q4: (1/2)^3


def test_sb_melee_7_sc11_ordinary_kill_no_morale() -> None:
    """SC-11, SB-MELEE-7: with A rolling 4 → 8 (8 ≥ 6, < 9) an ordinary kill: nobody tests."""
    state = sc11()
    kill = MeleeOutcome("attacker", "kill", "defender")
    assert forced(state, 4, 1) == kill
    state, events = step(state, kill)
    assert state.figure("B") is None and not any(isinstance(p, sp.MoraleTest) for p in state.pending)
    assert "morale_test" not in types(events)


# --- SC-12 ------------------------------------------------------------------------------------------------


def sc12_targets(*, priority: bool, rules: list[str] | None = None, e2_points: int = 25) -> set[str]:
    state = state_of(
        [model("A", 100, 100, special_rules=rules or [])],
        [model("E1", 125, 100, points=30), model("E2", 100, 125, points=e2_points, state="fallen")],
        options={"melee_priority": priority},
    )
    state = ready(state, "Red", "A", 1)
    return {o.target for o in decision(state, "move").options if isinstance(o, opt.Attack)}


def test_sb_prio_1_sb_prio_3_sc12_standing_first() -> None:
    """SC-12, SB-PRIO-1, SB-PRIO-3: option on, A touching standing E1 (30 points) and fallen E2 (25 points): E1 only."""
    assert sc12_targets(priority=True) == {"E1"}


@pytest.mark.parametrize("rule", ["assassin", "opportunistic", "combat_master"])
def test_sb_prio_2_sc12_exempt_special_rules(rule: str) -> None:
    """SC-12, SB-PRIO-2: Assassin, Opportunistic or Combat Master may attack either."""
    assert sc12_targets(priority=True, rules=[rule]) == {"E1", "E2"}


def test_sb_prio_3_sc12_fallen_worth_as_much() -> None:
    """SC-12, SB-PRIO-3: a fallen E2 worth 30 points or more (≥ the 30 standing points) may be attacked."""
    assert sc12_targets(priority=True, e2_points=30) == {"E1", "E2"}
    assert sc12_targets(priority=True, e2_points=29) == {"E1"}


def test_sb_prio_4_sc12_option_off() -> None:
    """SC-12, SB-PRIO-4: with the option off either may be attacked."""
    assert sc12_targets(priority=False) == {"E1", "E2"}


# --- SC-13 ------------------------------------------------------------------------------------------------


def test_sb_dis_1_sc13_leaving_helpless_enemies_is_free() -> None:
    """SC-13, SB-DIS-1: B touching only a fallen and a transfixed Red model moves away with no free hacks."""
    state = state_of([model("R1", 375, 400, state="fallen"), model("R2", 400, 425, state="transfixed")], [model("B", 400, 400)])
    state = activated(turn_of(state, "Blue"), "B", 1)
    move = next(o for o in decision(state, "move").options if isinstance(o, opt.Move))
    state, events = step(state, move)
    assert at(state.get("B"), move.x, move.y)
    assert "combat_roll" not in types(events)
    assert [getattr(e, "free_hacks", None) for e in events if e.type == "disengaged"] == [0]


def test_sb_dis_4_sc13_free_disengage_leaves_two_standing() -> None:
    """SC-13, SB-DIS-4: a Blue model with Free Disengage leaving two standing enemies takes no hacks."""
    state = state_of([model("R1", 375, 400), model("R2", 400, 425)], [model("B", 400, 400, special_rules=["free_disengage"])])
    state = activated(turn_of(state, "Blue"), "B", 1)
    move = next(o for o in decision(state, "move").options if isinstance(o, opt.Move))
    state, events = step(state, move)
    assert at(state.get("B"), move.x, move.y) and "combat_roll" not in types(events)


# --- SC-14 ------------------------------------------------------------------------------------------------


def test_sb_action_1_sc14_power_blow_needs_two_actions() -> None:
    """SC-14, SB-ACTION-1, SB-MOD-2: with one action left there is no power blow; with two there is, and it costs both."""
    one = decision(ready(sc1(), "Red", "A", 1), "move").options
    assert opt.Attack("B") in one and opt.Attack("B", power_blow=True) not in one
    two = ready(sc1(), "Red", "A", 2)
    assert opt.Attack("B", power_blow=True) in decision(two, "move").options
    after, _ = step(two, opt.Attack("B", power_blow=True))
    assert after.current is not None and after.current.actions == 0
    assert pending_roll(after).roll.power_blow


def test_sb_down_2_sb_down_3_sc14_fallen_stands_then_attacks() -> None:
    """SC-14, SB-DOWN-2, SB-DOWN-3: a fallen model with two actions may stand up (1) and then attack (1); while fallen
    it has no move."""
    state = ready(state_of([model("A", 100, 100, state="fallen")], [model("B", 125, 100)]), "Red", "A", 2)
    options = decision(state, "move").options
    assert opt.StandUp() in options and not any(isinstance(o, opt.Move) for o in options)
    state, events = step(state, opt.StandUp())
    assert state.get("A").state == "standing" and state.current is not None and state.current.actions == 1
    assert types(events) == ["stood_up"]
    state, _ = step(state, opt.Attack("B"))
    assert pending_roll(state).roll.attacker_state == "standing"


def test_sb_down_7_sb_mod_7_sc14_transfixed_cannot_fallen_attack_gives_plus_two() -> None:
    """SC-14, SB-DOWN-7, SB-MOD-7: a transfixed model cannot attack; an attack by a fallen model gives its opponent
    +2 and a lethal win (EX-7: attacker C4 fallen, defender C2: the attacker wins 5/12, is killed 5/12)."""
    transfixed = ready(state_of([model("A", 100, 100, state="transfixed")], [model("B", 125, 100)]), "Red", "A", 2)
    assert not any(isinstance(o, opt.Attack) for o in decision(transfixed, "move").options)
    fallen = ready(state_of([model("A", 100, 100, combat=4, state="fallen")], [model("B", 125, 100, combat=2)]), "Red", "A", 1)
    state, _ = step(fallen, opt.Attack("B"))
    dist = results(chance(state, "combat roll"))
    assert pending_roll(state).roll.attacker_state == "fallen"
    assert dist.probability(lambda o: o.winner == "attacker") == F(5, 12)
    assert dist.probability(lambda o: o.result == "kill" and o.affected == "attacker") == F(5, 12)
    assert dist.probability(lambda o: o.result == "fall" and o.affected == "defender") == F(2, 9)
    assert dist.probability(MeleeOutcome("defender", "gruesome_kill", "attacker")) == 0


def test_sb_mor_2_sc11_morale_outcomes_are_the_procedure() -> None:
    """SB-MOR-2: the engine's morale node for a Q4 model is the morale procedure (3 dice, fail on 1–3)."""
    state = step(sc11(), MeleeOutcome("attacker", "gruesome_kill", "defender"))[0]
    dist = results(chance(state, "morale test"))
    assert dist.probability(MoraleOutcome(3, "destroyed", 0)) == F(1, 8)
    assert dist.probability(MoraleOutcome(1, "flees", 1)) == F(3, 8)
