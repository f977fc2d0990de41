"""The Shoot phase in the engine: order, who may shoot, one shot each, choosing a target, sight (BH-SHOOT-1..9, BH-SCN-1..6)."""

from __future__ import annotations

from dataclasses import replace

from bh_referee_support import chance, decision, model, of_type, started, state_of, step, to_phase

from kessen.rulesets.battlehost.referee.battlefield import distance, partially_hides, sight_area_distance
from kessen.rulesets.battlehost.referee import state as st

from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.shooting import may_shoot, may_target, shot_dist, shot_input
from kessen.rulesets.battlehost.rules.shooting import ShootOutcome, Shot, shoot

MISS = ShootOutcome(hit=False, wounded=False, slain=False)


def archer(id: str, x: float, y: float, **profile: object) -> dict[str, object]:
    return model(id, x, y, **{"fight": "3/4+", "missile_weapon": "bow", **profile})


def shoot_phase(good: list, evil: list, priority: str = "good", **extra: object) -> st.BhState:
    return to_phase(started(state_of(good, evil, **extra), priority), "shoot")[0]


def test_bh_scn_1_bh_shoot_1_priority_player_shoots_first_then_the_other() -> None:
    """BH-SCN-1, BH-SHOOT-1: with Good priority, A1's and A2's shots (in the order Good picks) are resolved before
    B1 is asked; each shot completely before the next pick; the phase ends after B1."""
    state = shoot_phase([archer("A1", 10, 10), archer("A2", 14, 10)], [archer("B1", 12, 25)])
    ask = decision(state, "shoot")
    assert ask.player == "good" and {o.model for o in ask.options if isinstance(o, op.ShootAt)} == {"A1", "A2"}
    state, _ = step(state, op.ShootAt("A2", "B1"))
    chance(state, "shot")  # the shot is resolved before the next pick
    state, events = step(state, MISS)
    assert of_type(events, "shot")[0].model == "A2"
    assert decision(state, "shoot").player == "good"
    state, _ = step(state, op.ShootAt("A1", "B1"))
    state, _ = step(state, MISS)
    ask = decision(state, "shoot")  # Good has no more shooters: Evil shoots
    assert ask.player == "evil" and op.ShootAt("B1", "A1") in ask.options
    state, _ = step(state, op.ShootAt("B1", "A1"))
    state, events = step(state, MISS)
    assert state.phase == "fight" or of_type(events, "phase_started")


def test_bh_scn_1_bh_shoot_1_declining_passes_to_the_other_player() -> None:
    """BH-SCN-1, BH-SHOOT-1: if Good declines to shoot with A2, B1 still shoots after A1."""
    state = shoot_phase([archer("A1", 10, 10), archer("A2", 14, 10)], [archer("B1", 12, 25)])
    state, _ = step(state, op.ShootAt("A1", "B1"))
    state, _ = step(state, MISS)
    state, _ = step(state, op.EndShooting())
    ask = decision(state, "shoot")
    assert ask.player == "evil" and ask.options[0] == op.ShootAt("B1", "A1")


def test_bh_scn_2_bh_shoot_2_bh_shoot_6_half_a_move() -> None:
    """BH-SCN-2, BH-SHOOT-2, BH-SHOOT-6: an archer with Mv 6" and 4+: moved 0" → may shoot, hits on 4+; moved 3"
    (exactly half) → may shoot, hits on 5+ (the moved penalty); moved 3.5" → may not shoot."""
    state = shoot_phase([archer("A", 10, 10)], [model("T", 10, 20)])
    a = state.get("A")
    assert may_shoot(state, a) and not shot_input(state, op.ShootAt("A", "T")).moved
    half = replace(state, moved=(("A", 3.0),))
    assert may_shoot(half, a)
    question = shot_input(half, op.ShootAt("A", "T"))
    assert question.moved and shot_dist(half, op.ShootAt("A", "T")).probability(lambda o: o.hit) == shoot(question).probability(lambda o: o.hit)
    assert shoot(question).probability(lambda o: o.hit) == shoot(Shot(shoot_value=5, strength=2, defence=4)).probability(lambda o: o.hit)
    assert not may_shoot(replace(state, moved=(("A", 3.5),)), a)


def test_bh_scn_3_bh_shoot_2_engaged_archer_may_not_shoot() -> None:
    """BH-SCN-3, BH-SHOOT-2: an archer in base contact with an enemy may not shoot, even at another target."""
    state = shoot_phase([archer("A", 10, 10)], [model("E", 10.9843, 10), model("T", 10, 20)])
    assert state.phase == "fight"  # nobody could shoot: the Shoot phase passed at once
    assert not may_shoot(state, state.get("A")) and state.get("A").weapon is not None


def test_bh_shoot_2_a_model_without_missile_weapon_may_not_shoot() -> None:
    """BH-SHOOT-2 (1): a model without a missile weapon, or with a Shoot value of "-", may not shoot."""
    state = started(state_of([model("A", 10, 10), archer("B", 12, 10, fight="3/-")], [model("T", 10, 20)]))
    assert not may_shoot(state, state.get("A")) and not may_shoot(state, state.get("B"))


def test_bh_scn_4_bh_shoot_3_one_shot_per_phase() -> None:
    """BH-SCN-4, BH-SHOOT-3: an archer that has shot this phase cannot be picked again this phase."""
    state = shoot_phase([archer("A", 10, 10), archer("A2", 14, 10)], [model("T", 10, 20)])
    state, _ = step(state, op.ShootAt("A", "T"))
    state, _ = step(state, MISS)
    ask = decision(state, "shoot")
    assert not any(isinstance(o, op.ShootAt) and o.model == "A" for o in ask.options)
    assert "A" in state.shot


def test_bh_scn_5_bh_shoot_4_bh_shoot_10_bh_geo_2_range_edge_to_edge() -> None:
    """BH-SCN-5, BH-SHOOT-4, BH-SHOOT-10, BH-GEO-2: a bow (24") at (0, 0)... here at (1, 1): a target 24.9" further
    is in range (edge distance 23.9157"), 25.1" is not (24.1157"); an orc bow (18") reaches 18.9" but not 19.1"."""
    for weapon, inside, outside in (("bow", 24.9, 25.1), ("orc bow", 18.9, 19.1)):
        state = started(state_of([archer("S", 1, 1, missile_weapon=weapon)], [model("T1", 1 + inside, 1), model("T2", 1 + outside, 3)]))
        s = state.get("S")
        assert abs(distance(s, state.get("T1")) - (inside - 0.9843)) < 1e-3
        assert may_target(state, s, state.get("T1"))
        assert not may_target(state, s, state.get("T2"))


def test_bh_scn_6_bh_shoot_4_bh_geo_8_partially_hidden_targets() -> None:
    """BH-SCN-6, BH-SHOOT-4, BH-GEO-8: shooter S at (0, 0) (here shifted by (1, 5)), target T 10" away; a model at
    (5, 0.5) is 0.2533" from the sight area and hides T; at (5, 1.2) it is 0.9525" away and does not; behind T at
    (11.2, 0) 0.7079" and does not; a friend of T at (9.2, 0.8) is 0.3463" away and hides it (side does not matter)."""
    dx, dy = 1.0, 5.0
    cases = (("X", 5, 0.5, 0.2533, True, "good"), ("X", 5, 1.2, 0.9525, False, "good"), ("X", 11.2, 0, 0.7079, False, "good"), ("X", 9.2, 0.8, 0.3463, True, "evil"))
    for name, x, y, dist, hides, side in cases:
        other = model(name, x + dx, y + dy)
        good = [archer("S", dx, dy)] + ([other] if side == "good" else [])
        evil = [model("T", 10 + dx, dy)] + ([other] if side == "evil" else [])
        state = started(state_of(good, evil))
        s, t, m = state.get("S"), state.get("T"), state.get(name)
        assert abs(sight_area_distance(m.centre, s, t) - dist) < 1e-3
        assert partially_hides(m, s, t) is hides
        assert may_target(state, s, t) is not hides


def test_bh_shoot_4_bh_geo_8_terrain_blocks_line_of_sight() -> None:
    """BH-SHOOT-4, BH-GEO-8: a terrain block across the sight triangle blocks line of sight; one beside it does not."""
    state = started(state_of([archer("S", 5, 5)], [model("T", 15, 5)], terrain=[[9.0, 4.0, 10.0, 6.0]]))
    assert not may_target(state, state.get("S"), state.get("T"))
    state = started(state_of([archer("S", 5, 5)], [model("T", 15, 5)], terrain=[[9.0, 7.0, 10.0, 8.0]]))
    assert may_target(state, state.get("S"), state.get("T"))


def test_bh_shoot_4_engaged_enemy_may_be_targeted() -> None:
    """BH-SHOOT-4 [DECISION]: an engaged enemy may be targeted when sight and range allow."""
    state = shoot_phase([archer("A", 5, 10), model("G", 15, 10.9843)], [model("T", 15, 10)])
    assert op.ShootAt("A", "T") in decision(state, "shoot").options


def test_bh_shoot_5_bh_shoot_7_bh_shoot_8_shot_uses_the_procedure() -> None:
    """BH-SHOOT-5, BH-SHOOT-7, BH-SHOOT-8: the shot's chance node is the ``shoot`` distribution of the shooter's
    Shoot value with the missile weapon's Strength (not the shooter's) against the target's Defence."""
    state = shoot_phase([archer("A", 10, 10, strength=4, missile_weapon="orc bow")], [model("T", 10, 20, defence=5)])
    state, _ = step(state, op.ShootAt("A", "T"))
    node = chance(state, "shot")
    assert node.dist == shoot(Shot(shoot_value=4, strength=2, defence=5))
    assert node.dist.probability(lambda o: o.wounded) == shoot(Shot(shoot_value=4, strength=2, defence=5)).probability(lambda o: o.wounded)


def test_bh_shoot_9_wound_removes_a_one_wound_model_and_wounds_a_two_wound_one() -> None:
    """BH-SHOOT-9: a wound on a W1 model slays and removes it at once; a W2 model keeps 1 wound."""
    state = shoot_phase([archer("A", 10, 10), archer("B", 14, 10)], [model("T", 10, 20), model("U", 14, 20, wounds=2)])
    state, _ = step(state, op.ShootAt("A", "T"))
    state, events = step(state, ShootOutcome(hit=True, wounded=True, slain=True))
    assert state.model("T") is None and of_type(events, "slain")
    state, _ = step(state, op.ShootAt("B", "U"))
    state, events = step(state, ShootOutcome(hit=True, wounded=True, slain=False))
    assert state.get("U").wounds_left == 1 and of_type(events, "wounded")
