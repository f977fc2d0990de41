"""The engine's fast paths are the same computations as the plain ones: the plain-float geometry gives the very numbers
of kessen.core.geometry's Points, the short-circuits and the facts worked out from earlier ones answer as the full
tests do, and the evolvers copy as dataclasses.replace does (BH-GEO-3, BH-GEO-7, BH-GEO-8, BH-MOVE-2, BH-MOVE-5, BH-SHOOT-4)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from bh_referee_support import model, state_of
from hypothesis import assume, given, settings
from hypothesis import strategies as hs

from kessen.core.geometry import Point, Rect
from kessen.core.records import evolve, evolver
from kessen.rulesets.battlehost.ai import engaged_ids_after_move
from kessen.rulesets.battlehost.referee.battlefield import (
    EPS,
    Board,
    Model,
    engaged_ids,
    gap,
    radius,
    blocking_models,
    first_blocker,
    hidden_targets,
    partially_hides,
)
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee.moves import CHARGE_ANGLES, charge_point, move_is_legal, move_options
from kessen.rulesets.battlehost.referee.shooting import has_target, targets

coordinate = hs.floats(min_value=0.0, max_value=48.0, allow_nan=False)
BASES = (25, 25, 25, 40, 60)


def piece(i: int, x: float, y: float, base_mm: int = 25, side: str = "good") -> Model:
    return Model(f"m{i}", side, f"m{i}", "warrior", 6, 3, 4, 3, 4, 1, 1, 1, 0, False, base_mm, None, x, y)  # type: ignore[arg-type]


layouts = hs.lists(hs.tuples(coordinate, coordinate, hs.sampled_from(BASES), hs.booleans()), min_size=2, max_size=12)
near_centre = hs.floats(min_value=14.0, max_value=34.0, allow_nan=False)
crowds = hs.lists(hs.tuples(near_centre, near_centre, hs.sampled_from(BASES), hs.booleans()), min_size=2, max_size=12)
"""Models within charging distance of each other, around a terrain block at the centre."""


def table(layout: list[tuple[float, float, int, bool]]) -> tuple[Model, ...]:
    return tuple(piece(i, x, y, base, "good" if good else "evil") for i, (x, y, base, good) in enumerate(layout))


@settings(max_examples=200)
@given(layouts, coordinate, coordinate)
def test_bh_geo_7_first_blocker_is_the_first_blocking_model(layout: list[tuple[float, float, int, bool]], x1: float, y1: float) -> None:
    """BH-GEO-7: the path test's short-circuit finds the first of the models that block the move, or none when none do."""
    models = table(layout)
    mover = models[0]
    found = blocking_models(mover, Point(x1, y1), models)
    assert first_blocker(mover, x1, y1, models) == (found[0] if found else None)
    ignored = found[0].id if found else None
    rest = blocking_models(mover, Point(x1, y1), models, ignore=frozenset({ignored} if ignored else ()))
    assert first_blocker(mover, x1, y1, models, ignored) == (rest[0] if rest else None)


@settings(max_examples=200)
@given(layouts)
def test_bh_geo_8_hidden_targets_are_those_another_model_partially_hides(layout: list[tuple[float, float, int, bool]]) -> None:
    """BH-GEO-8, BH-SHOOT-4: the screened sight test hides exactly the targets that some other model partially hides,
    judged one by one in full."""
    models = table(layout)
    shooter, targets = models[0], models[1:]
    assume(all(gap(a, b) >= -EPS for i, a in enumerate(models) for b in models[i + 1 :]))  # bases never overlap on a table
    expected = {t.id for t in targets if any(partially_hides(x, shooter, t) for x in models if x.id not in (shooter.id, t.id))}
    assert hidden_targets(shooter, targets, models) == expected


@settings(max_examples=200)
@given(layouts, coordinate, coordinate)
def test_bh_geo_3_engaged_after_a_move_is_engaged_ids_of_the_moved_table(layout: list[tuple[float, float, int, bool]], x: float, y: float) -> None:
    """BH-GEO-3, BH-MOVE-6: the contacts after one model moves, worked out from those before, are the contacts of the
    table with the model moved, judged afresh, whether or not the model was engaged before."""
    models = table(layout)
    moved = models[0].at(Point(x, y))
    after = tuple(moved if m.id == moved.id else m for m in models)
    assert engaged_ids_after_move(models, moved) == engaged_ids(after)


def test_bh_move_2_evolve_is_dataclasses_replace() -> None:
    """BH-MOVE-2: a model moved, and a state given another queue, models or fight by the evolvers, equal what
    dataclasses.replace makes of them, field by field (the base radius recomputed with the model)."""
    state = state_of([model("A", 10, 10)], [model("B", 20, 10, base_mm=40)])
    b = state.get("B")
    assert b.at(Point(3.5, 4.25)) == replace(b, x=3.5, y=4.25) and b.at(Point(3.5, 4.25)).r == b.r
    assert evolver(Model, "base_mm")(b, 60).r == replace(b, base_mm=60).r == radius(60)
    assert st.with_pending(state, ()) == replace(state, pending=())
    assert st.with_models(state, state.models[:1]) == replace(state, models=state.models[:1])
    assert st.put_model(state, b.at(Point(1, 2))).get("B").x == 1
    with pytest.raises(TypeError, match="no init field 'nothing'"):
        evolver(Model, "nothing")
    with pytest.raises(TypeError, match="no init field 'r'"):
        evolver(Model, "r")  # worked out from the base, as replace will not set it either


def test_bh_turn_1_evolve_is_dataclasses_replace_for_every_record_it_copies() -> None:
    """BH-TURN-1: ``evolve``, the copy each step of a turn makes of the state, its fight and its models, equals
    dataclasses.replace with the same changes; a field it does not have is refused as replace refuses it."""
    state = state_of([model("A", 10, 10)], [model("B", 20, 10, base_mm=40)])
    changes = {"turn": 3, "phase": "fight", "done": frozenset({"A"}), "moved": (("A", 2.5),), "pending": ()}
    assert evolve(state, **changes) == replace(state, **changes)
    assert evolve(state) == state and evolve(state) is not state
    b = state.get("B")
    assert evolve(b, x=1.0, prone=True) == replace(b, x=1.0, prone=True) and evolve(b, base_mm=60).r == radius(60)
    with pytest.raises(TypeError):
        evolve(state, nothing=1)


def _naive_charge_point(mover: Model, target: Model, models: tuple[Model, ...], board: Board, limit: float) -> Point | None:
    """BH-MOVE-5 as written: the contact points around the target, straight in first then turning by 25° steps, each
    judged by move_is_legal against every model of the table."""
    towards_mover = (mover.centre - target.centre).unit()
    for angle in CHARGE_ANGLES:
        p = target.centre + towards_mover.rotated(angle).scaled(target.r + mover.r)
        if move_is_legal(mover, p, models, board, limit=limit, engaged=engaged_ids(models), charging=target.id):
            return p
    return None


@settings(max_examples=300)
@given(crowds, hs.sampled_from([(), (Rect(20, 20, 28, 24),)]))
def test_bh_move_5_charge_point_is_the_first_legal_contact_point(layout: list[tuple[float, float, int, bool]], terrain: tuple[Rect, ...]) -> None:
    """BH-MOVE-5, BH-GEO-7: the charge point found with only the models and the terrain near the line is the first legal
    contact point judged against the whole table."""
    models = table(layout)
    assume(all(gap(a, b) > EPS for i, a in enumerate(models) for b in models[i + 1 :]))  # apart: no one engaged yet
    mover = models[0]
    board = Board(48.0, 48.0, terrain)
    for target in models[1:]:
        if target.side != mover.side:
            found = charge_point(mover, target, models, board, limit=6.0, engaged=engaged_ids(models))
            assert found == _naive_charge_point(mover, target, models, board, 6.0)


@settings(max_examples=100, deadline=None)
@given(hs.lists(hs.tuples(near_centre, near_centre, hs.sampled_from(BASES)), min_size=1, max_size=6),
       hs.lists(hs.tuples(near_centre, near_centre, hs.sampled_from(BASES)), min_size=1, max_size=6))
def test_bh_shoot_4_has_target_agrees_with_the_target_list(good: list[tuple[float, float, int]], evil: list[tuple[float, float, int]]) -> None:
    """BH-SHOOT-4, BH-GEO-8: a shooter has a target (the AI's question) exactly when the list of the targets it may
    choose, in range, in sight past the terrain and partly hidden by no other model, is not empty."""
    def side(prefix: str, spots: list[tuple[float, float, int]]) -> list[dict[str, object]]:
        return [model(f"{prefix}{i}", x, y, base_mm=b, missile_weapon="orc bow", fight="3/4+") for i, (x, y, b) in enumerate(spots)]

    models = table([(x, y, b, True) for x, y, b in good] + [(x, y, b, False) for x, y, b in evil])
    assume(all(gap(a, b) >= -EPS for i, a in enumerate(models) for b in models[i + 1 :]))
    wall = Board(48.0, 48.0, (Rect(22.0, 20.0, 26.0, 28.0),))
    assume(not any(wall.overlaps_terrain(m.centre, m.r) for m in models))
    state = state_of(side("G", good), side("E", evil), terrain=[[22.0, 20.0, 26.0, 28.0]])
    for shooter in state.models:
        assert has_target(state, shooter) == bool(targets(state, shooter))


def test_bh_geo_1_equal_models_hash_alike() -> None:
    """BH-GEO-1, BH-GEO-5: a model's hash and a board's follow their equality: a copy with the same fields is equal
    and hashes alike, so the options kept for a model's surroundings are found again; a model hurt or moved, or a
    board with another block, is another key."""
    state = state_of([model("A", 10, 10)], [model("B", 20, 10, base_mm=40)])
    b = state.get("B")
    same = evolve(b, prone=b.prone)
    assert same == b and hash(same) == hash(b) and same is not b and {b: 1}[same] == 1
    assert evolve(b, wounds_left=0) != b and evolve(b, x=21.0) not in {b}
    board = Board(48.0, 48.0, (Rect(1, 1, 2, 2),))
    assert hash(Board(48.0, 48.0, (Rect(1, 1, 2, 2),))) == hash(board) and Board(48.0, 48.0, (Rect(1, 1, 3, 2),)) not in {board}


def _copied(state: st.BhState) -> st.BhState:
    """*state* with every model a new object: nothing kept for the old ones is found for these."""
    return evolve(state, models=tuple(evolve(m, prone=m.prone) for m in state.models))


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(near_centre, near_centre, hs.sampled_from(BASES)), min_size=1, max_size=5),
       hs.lists(hs.tuples(near_centre, near_centre, hs.sampled_from(BASES)), min_size=1, max_size=5),
       hs.lists(hs.tuples(hs.integers(0, 9), hs.floats(4.0, 44.0), hs.floats(4.0, 44.0), hs.booleans()), min_size=1, max_size=6))
def test_bh_move_2_options_kept_from_table_to_table_are_those_found_afresh(
    good: list[tuple[float, float, int]], evil: list[tuple[float, float, int]], changes: list[tuple[int, float, float, bool]],
) -> None:
    """BH-MOVE-2..7, BH-SHOOT-4: the moves and targets kept for each model while nothing within its reach changes
    (battlefield.Local) are, after each model moved or hurt, those found afresh on a copy of the table."""
    def side(prefix: str, spots: list[tuple[float, float, int]]) -> list[dict[str, object]]:
        return [model(f"{prefix}{i}", x, y, base_mm=b, missile_weapon="orc bow", fight="3/4+") for i, (x, y, b) in enumerate(spots)]

    models = table([(x, y, b, True) for x, y, b in good] + [(x, y, b, False) for x, y, b in evil])
    assume(all(gap(a, b) >= -EPS for i, a in enumerate(models) for b in models[i + 1 :]))
    def answers(state: st.BhState) -> list[object]:
        return [move_options(state, "good"), move_options(state, "evil"), *(has_target(state, m) for m in state.models),
                *(targets(state, m) for m in state.models)]

    states = [state_of(side("G", good), side("E", evil))]
    for index, x, y, hurt in changes:
        m = states[-1].models[index % len(states[-1].models)]
        states.append(st.put_model(states[-1], evolve(m, wounds_left=0) if hurt else evolve(m, x=x, y=y)))
    kept = [answers(state) for state in states]  # one table after another, as a battle asks
    assert kept == [answers(_copied(state)) for state in states]
