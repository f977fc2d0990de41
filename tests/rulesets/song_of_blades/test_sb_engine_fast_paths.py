"""The engine's fast paths give the answers of the plain computations they stand for (issue 13): facts kept per
placement of the figures, the room search's pruning, the AI's nearest model, ``evolve`` and the scenario read once
(SB-GEO-5, SB-GEO-8, SB-MOVE-1..3, SB-RECOIL-5, SB-MELEE-1)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from sb_engine_support import GAME, model, scenario_text, state_of

from kessen.core.errors import InputError
from kessen.core.geometry import Point
from kessen.core.engine import Chance, Terminal
from kessen.core.records import evolve
from kessen.dice import draw, stream
from kessen.rulesets.song_of_blades.ai import nearest_to_the_enemy
from kessen.rulesets.song_of_blades.referee import moves
from kessen.rulesets.song_of_blades.referee.battlefield import (
    Figure,
    edge_distance,
    enemies_in_contact,
    turned_step,
)
from kessen.rulesets.song_of_blades.referee.placement import placement
from kessen.rulesets.song_of_blades.referee.recoiling import has_room, recoil_choices, recoil_options
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.sim.play import initial_state

COORD = hs.floats(min_value=0.0, max_value=900.0, allow_nan=False)


def fig(id: str, side: str, x: float, y: float, base_mm: int = 25) -> Figure:
    return Figure(id=id, side=side, name=id, points=30, quality=4, combat=3, size="normal", mounted=False,
                  flying=False, move="medium", special_rules=(), base_mm=base_mm, x=x, y=y)


@settings(max_examples=300, deadline=None)
@given(cx=COORD, cy=COORD, angle=hs.floats(min_value=0.0, max_value=360.0), degrees=hs.floats(min_value=-90.0, max_value=90.0),
       length=hs.sampled_from([20, 25, 40, 50]))
def test_sb_geo_5_turned_step_agrees_with_rotated_points(cx: float, cy: float, angle: float, degrees: float,
                                                        length: int) -> None:
    """SB-GEO-5: a candidate's spot, one base depth along straight-away turned by some degrees, is the same point to
    the last bit whether worked on coordinates or through core geometry's Points."""
    c, a = Point(cx, cy), Point(1.0, 0.0).rotated(angle)
    assert turned_step(c, a, degrees, length) == c + a.rotated(degrees).scaled(length)


def played_states(scenario: str, seeds: range) -> list[SobState]:
    """Every state the AI battles of a shipped scenario pass through."""
    path = f"examples/song-of-blades/{scenario}"
    with open(path, encoding="utf-8") as file:
        first = GAME.load_scenario(file.read(), path)
    states: list[SobState] = []
    for seed in seeds:
        rng, ais = stream(seed), {side: GAME.ai(side) for side in first.skirmish.sides}
        state, _ = GAME.start(first)
        while not isinstance(node := GAME.node(state), Terminal):
            choice = draw(node.dist, rng) if isinstance(node, Chance) else ais[node.player].decide(state, node)
            state, _ = GAME.apply(state, choice)
            states.append(state)
    return states


@pytest.mark.parametrize("scenario", ["warband-skirmish.toml", "hero-against-mob.toml"])
def test_sb_recoil_5_sb_melee_1_facts_kept_per_placement_agree_with_a_fresh_placement(scenario: str) -> None:
    """SB-RECOIL-5, SB-MELEE-1, SB-MOVE-1..3: room to recoil, the enemies in contact and the suggested moves that a
    placement keeps are what a placement of an equal but new tuple of figures works out afresh."""
    for state in played_states(scenario, range(1, 3)):
        fresh = tuple(list(state.figures))
        assert fresh is not state.figures and placement(fresh, state.table) is not state.here
        for f in state.figures:
            assert state.here.contacts(f) == enemies_in_contact(fresh, f)
            for e in enemies_in_contact(state.figures, f):
                assert has_room(state.figures, state.table, f, e) == has_room(fresh, state.table, f, e)
                assert recoil_choices(state.figures, state.table, f, e) == recoil_choices(fresh, state.table, f, e)
        if state.current is not None and state.figure(state.current.model) is not None:
            f = state.get(state.current.model)
            assert moves.suggested_moves(state, f) == moves._suggested(moves._Mover(dataclasses.replace(state, figures=fresh), f))


def test_sb_recoil_5_a_copy_of_a_figure_moved_elsewhere_is_judged_where_it_stands() -> None:
    """SB-RECOIL-5: a fact kept about a placement's own figure is not given for a copy of it standing elsewhere."""
    state = state_of([model("A", 375, 400)], [model("B", 400, 400), model("F0", 433, 412), model("F1", 398, 353),
                                             model("F2", 396, 445), model("F3", 419, 381)])
    a, b = state.get("A"), state.get("B")
    assert recoil_options(state.figures, state.table, b, a) == ()  # hemmed in: only the room search finds a gap
    away = b.at(Point(400, 700))  # same id, out in the open: not the placement's figure
    assert not state.here.holds(away)
    assert recoil_options(state.figures, state.table, away, a) != ()


def test_sb_geo_5_room_search_unchanged_by_a_base_out_of_reach() -> None:
    """SB-GEO-5, SB-RECOIL-5: a base further from the loser than a recoil reaches (one base depth, plus a millimetre)
    makes no critical angle of the room search: the spots it finds are the same with it and without it, whether it
    stands just beyond that reach or well beyond it."""
    red = [model("A", 375, 400)]
    blue = [model("B", 400, 400), model("F0", 433, 412), model("F1", 398, 353), model("F2", 396, 445), model("F3", 419, 381)]
    alone = state_of(red, blue)
    expected = recoil_choices(alone.figures, alone.table, alone.get("B"), alone.get("A"))
    assert len(expected) == 1 and expected[0].k is None
    for x, y in ((363.51, 363.51), (360.0, 460.0)):  # gaps of 26.6 and 47 mm from B (a recoil reaches 25, 26 with the margin)
        crowded = state_of(red, blue + [model("F4", x, y)])
        assert edge_distance(crowded.get("B"), crowded.get("F4")) > 26
        assert recoil_choices(crowded.figures, crowded.table, crowded.get("B"), crowded.get("A")) == expected


def test_sb_geo_8_the_ai_activates_the_model_nearest_an_enemy() -> None:
    """SB-GEO-8: the AI's nearest model is the one with the least edge distance to any enemy, the lowest id among
    equals, as ``battlefield.edge_distance`` measures it."""
    state = state_of([model("A", 100, 100), model("B", 300, 300), model("C", 500, 500), model("D", 500, 700)],
                     [model("X", 300, 400), model("Y", 600, 600)])
    models = ("A", "B", "C", "D")

    def brute(chosen: tuple[str, ...]) -> str:
        enemies = [e for e in state.figures if e.side == "Blue"]
        return min(chosen, key=lambda m: (min(edge_distance(state.get(m), e) for e in enemies), m))

    assert nearest_to_the_enemy(state, models, "Red") == brute(models) == "B"  # 75 mm from X; C and D are 116 mm away
    assert nearest_to_the_enemy(state, ("C", "D"), "Red") == brute(("C", "D")) == "C"  # equals: the lowest id


def test_sb_move_1_evolve_is_dataclasses_replace() -> None:
    """SB-MOVE-1: the next state or figure from ``evolve`` equals ``dataclasses.replace``'s, a moved figure's centre
    and radius follow it, and a field the record lacks is refused."""
    state = state_of([model("A", 100, 100)], [model("B", 300, 300)])
    assert evolve(state, ended=True, pending=()) == dataclasses.replace(state, ended=True, pending=())
    moved = evolve(state.get("A"), x=150.0)
    assert moved == dataclasses.replace(state.get("A"), x=150.0)
    assert moved.centre == Point(150.0, 100.0) and moved.r == 12.5
    with pytest.raises(TypeError, match="no init field 'centre'"):
        evolve(state.get("A"), centre=Point(0, 0))
    with pytest.raises(TypeError, match="rounds"):
        evolve(state, rounds=3)


def test_sb_move_1_a_scenario_is_read_once_per_text() -> None:
    """SB-MOVE-1: the battles of one scenario text start from the one initial state read from it; a bad scenario is
    refused every time it is asked for."""
    text = scenario_text([model("A", 100, 100)], [model("B", 300, 300)])
    assert initial_state(GAME, text, "test.toml") is initial_state(GAME, text, "test.toml") == state_of(
        [model("A", 100, 100)], [model("B", 300, 300)])
    bad = scenario_text([model("A", 100, 100)], [model("B", 300, 300, quality=9)])
    for _ in range(2):
        with pytest.raises(InputError, match="quality"):
            initial_state(GAME, bad, "bad.toml")
