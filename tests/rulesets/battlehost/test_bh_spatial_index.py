"""Issue 26: what battlehost reads off its spatial index (the arrangement's grid of squares) for the models
near a point, and the scans that pass over the models surely out of reach, answer exactly what the full scan of every
model answers, on random tables (BH-GEO-2, BH-GEO-3, BH-GEO-7, BH-MOVE-3, BH-MOVE-4)."""

from __future__ import annotations

import math
from pathlib import Path

from bh_referee_support import GAME, model, play_greedy, state_of
from hypothesis import assume, given, settings
from hypothesis import strategies as hs

from kessen.core.engine import Decision
from kessen.core.errors import InputError
from kessen.core.geometry import Point, base_gap, first_touch, segment_distance
from kessen.core.records import evolve
from kessen.rulesets.battlehost.ai import BattlehostAI, greedy
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee.shooting import has_target, would_have_target
from kessen.rulesets.battlehost.referee import moves
from kessen.rulesets.battlehost.referee.battlefield import (
    AHEAD,
    CONTROL_ZONE,
    EPS,
    Board,
    Model,
    arrangement,
    distance,
    engaged_ids,
    enemies_in_contact,
    first_blocker,
    ground_blocks_at,
    has_control_zone,
    in_control_zone,
)

BASES = (25, 25, 25, 40, 60)
MOVES = (5, 6, 6, 8, 10)
board_x = hs.floats(min_value=0.6, max_value=95.4, allow_nan=False)
board_y = hs.floats(min_value=0.6, max_value=47.4, allow_nan=False)
spot = hs.tuples(board_x, board_y, hs.sampled_from(BASES), hs.booleans(), hs.sampled_from(MOVES))
crowd_x = hs.floats(min_value=30.0, max_value=50.0, allow_nan=False)
crowd_y = hs.floats(min_value=14.0, max_value=34.0, allow_nan=False)
crowded = hs.tuples(crowd_x, crowd_y, hs.sampled_from(BASES), hs.booleans(), hs.sampled_from(MOVES))
tables = hs.lists(hs.one_of(spot, crowded), min_size=2, max_size=40)
BOARD = Board(96.0, 48.0)
BASE = state_of([model("G", 10.0, 10.0)], [model("E", 30.0, 30.0)])
"""A state whose models each test puts its table in place of."""


def table(layout: list[tuple[float, float, int, bool, int]]) -> tuple[Model, ...]:
    return tuple(
        Model(f"m{i}", "good" if good else "evil", f"m{i}", "warrior", move, 3, None, 3, 4, 1, 1, 1, 0, False, base, None, x, y)  # type: ignore[arg-type]
        for i, (x, y, base, good, move) in enumerate(layout)
    )


def open_contact_slots_scanning_all(models: tuple[Model, ...], board: Board, m: Model, at: Point, engaged: frozenset[str]) -> int:
    """greedy.open_contact_slots as it was before the grid: every model of the table measured."""
    enemies = [e for e in models if e.side != m.side and e.id not in engaged]
    friends = [f for f in models if f.side == m.side and f.id != m.id]
    placed: list[tuple[float, float]] = []
    for e_r in sorted({e.r for e in enemies})[:1]:
        ring = m.r + e_r
        crowding = [f for f in friends if math.hypot(at.x - f.x, at.y - f.y) < ring + f.r + e_r]
        coming = [e for e in enemies if math.hypot(at.x - e.x, at.y - e.y) <= 2 * e.move + m.r + e.r + ring + 1e-9]
        for u in greedy._SLOT_DIRECTIONS:
            x, y = at.x + u.x * ring, at.y + u.y * ring
            if not board.on_board_at(x, y, e_r) or board.overlaps_terrain_at(x, y, e_r):
                continue
            if any(math.hypot(x - f.x, y - f.y) < f.r + e_r - 0.01 for f in crowding):
                continue
            if any(math.hypot(x - qx, y - qy) < 2 * e_r - 0.01 for qx, qy in placed):
                continue
            if any(_can_come(board, e, x, y, m, at, friends) for e in coming):
                placed.append((x, y))
    return len(placed)


def _can_come(board: Board, e: Model, x: float, y: float, m: Model, at: Point, friends: list[Model]) -> bool:
    if math.hypot(x - e.x, y - e.y) > 2 * e.move + m.r + e.r:
        return False
    if segment_distance(e.x, e.y, x, y, at.x, at.y) < m.r + e.r - 0.05:
        return False
    return not ground_blocks_at(e.r, e.x, e.y, x, y, board) and first_blocker(e, x, y, friends) is None


@settings(max_examples=150, deadline=None)
@given(tables)
def test_issue_26_bh_geo_3_contacts_off_the_grid_are_those_of_the_full_scan(layout: list[tuple[float, float, int, bool, int]]) -> None:
    """BH-GEO-3: the enemies in base contact with a model, read off the grid of a table (a tuple), are those a scan of
    every model finds (a list), in the same order; so are the models near a point."""
    models = table(layout)
    known = arrangement(models)
    for m in models:
        assert enemies_in_contact(models, m) == enemies_in_contact(list(models), m)
        for reach in (0.5, 6.0, 13.0):
            assert known.near(m.x, m.y, reach) == tuple(x for x in models if math.hypot(x.x - m.x, x.y - m.y) - x.r <= reach)


@settings(max_examples=100, deadline=None)
@given(tables)
def test_issue_26_bh_geo_2_the_ai_scans_passing_over_far_models_count_as_the_full_scans(layout: list[tuple[float, float, int, bool, int]]) -> None:
    """BH-GEO-2, BH-GEO-7: the greedy AI's counts of the models within two moves and of the open contact slots
    (each model standing where it is, and standing elsewhere) are those of a scan of every model."""
    models = table(layout)
    engaged = engaged_ids(models)

    state = evolve(BASE, models=models)
    for m in models:
        for enemies in (True, False):
            full = sum(1 for x in models if (x.side != m.side) == enemies and x.id not in engaged and distance(x, m) <= 2 * x.move)
            assert greedy.within_two_moves(state, m, enemies=enemies) == full
        assert greedy.open_contact_slots(models, BOARD, m, m.centre, engaged) == open_contact_slots_scanning_all(models, BOARD, m, m.centre, engaged)
        elsewhere = Point(models[0].x, models[0].y)
        moved = m.at(elsewhere)
        assert greedy.open_contact_slots(models, BOARD, moved, elsewhere, engaged) == open_contact_slots_scanning_all(
            tuple(moved if x.id == m.id else x for x in models), BOARD, moved, elsewhere, engaged)


def furthest_move_measuring_all(mover: Model, direction: Point, models: tuple[Model, ...], board: Board, *, limit: float, engaged: frozenset[str]) -> float:
    """moves.furthest_move as it was before it passed over the models far from the way: every model measured."""
    p0 = mover.centre
    x0, y0, dx, dy = mover.x, mover.y, direction.x, direction.y
    reach = limit
    for x in models:
        if x.id == mover.id:
            continue
        ahead = (x.x - x0) * dx + (x.y - y0) * dy > AHEAD
        t = None if not ahead else first_touch(p0, direction, mover.r, x.centre, x.r, -(EPS + 1e-3))
        if t is not None:
            reach = min(reach, t)
        if x.side != mover.side and has_control_zone(x, engaged):
            if not in_control_zone(base_gap(x0, y0, mover.r, x.x, x.y, x.r)):
                t = first_touch(p0, direction, mover.r, x.centre, x.r + CONTROL_ZONE, -1e-5)
                if t is not None:
                    reach = min(reach, t)
            elif (x0 - x.x) * dx + (y0 - x.y) * dy < 0:
                return 0.0
    reach = max(0.0, reach)
    lo, hi = 0.0, reach
    board = moves.near_terrain(board, p0, p0 + direction.scaled(hi), mover.r + EPS + 1e-6)
    if not ground_blocks_at(mover.r, x0, y0, x0 + dx * hi, y0 + dy * hi, board):
        return hi
    for _ in range(40):
        mid = (lo + hi) / 2
        if ground_blocks_at(mover.r, x0, y0, x0 + dx * mid, y0 + dy * mid, board):
            hi = mid
        else:
            lo = mid
    return lo


angles = hs.floats(min_value=0.0, max_value=360.0, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(tables, angles, hs.sampled_from((3.0, 5.0, 6.0, 10.0)))
def test_issue_26_bh_move_3_furthest_move_passing_over_far_models_is_that_measuring_every_model(
    layout: list[tuple[float, float, int, bool, int]], angle: float, limit: float,
) -> None:
    """BH-MOVE-3, BH-MOVE-4: how far a model can go along a way, the models far from the way passed over unmeasured,
    is what measuring every model of the table gives, to the last bit; so along the way to each other model (where
    models stand close enough to touch)."""
    models = table(layout)
    engaged = engaged_ids(models)
    a = math.radians(angle)
    ways = [Point(math.cos(a), math.sin(a))]
    for m in models[:6]:
        ways += [(x.centre - m.centre).unit() for x in models[:8] if x is not m and (x.x, x.y) != (m.x, m.y)]
        for way in ways:
            assert moves.furthest_move(m, way, models, BOARD, limit=limit, engaged=engaged) == furthest_move_measuring_all(
                m, way, models, BOARD, limit=limit, engaged=engaged)


LINE_FIGHT = Path(__file__).resolve().parents[3] / "examples" / "battlehost" / "line-fight.toml"


def test_issue_26_bh_move_5_charge_values_kept_from_decision_to_decision_are_those_found_afresh() -> None:
    """BH-MOVE-5, BH-BACK-1..6: through greedy battles, every charge value the AI's ChargeTable keeps from an earlier
    decision (with and without the enemy moving after) is the value worked out afresh on the table as it stands; and
    some are kept (the battles move models near and far from the charges)."""
    game = GAME.load_scenario(LINE_FIGHT.read_text(encoding="utf-8"), str(LINE_FIGHT))
    kept_ones = 0

    def looking(state: st.BhState, node: Decision) -> None:
        nonlocal kept_ones
        if node.kind != "move":
            return
        ai = BattlehostAI(node.player)
        table = greedy.ChargeTable(state, node.player)
        for o in node.options:
            if not (isinstance(o, op.MoveTo) and o.charge is not None):
                continue
            for after in (False, True):
                fresh = ai._charge_value(state, o, [], enemy_moves_after=after)
                kept = table.kept(o, [], after)
                if kept is not None:
                    kept_ones += 1
                    assert kept == fresh, (o, after)
                else:
                    table.keep(o, [], after, ai.charge_read, fresh)

    for seed in (1, 2, 3):
        play_greedy(game, seed, looking, steps=400)
    assert kept_ones >= 10


near_centre = hs.floats(min_value=10.0, max_value=38.0, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(near_centre, near_centre, hs.sampled_from(BASES)), min_size=1, max_size=6),
       hs.lists(hs.tuples(near_centre, near_centre, hs.sampled_from(BASES)), min_size=1, max_size=6),
       hs.lists(hs.tuples(near_centre, near_centre), min_size=1, max_size=4))
def test_issue_26_bh_shoot_4_a_shooter_elsewhere_has_a_target_as_on_the_table_made_for_it(
    good: list[tuple[float, float, int]], evil: list[tuple[float, float, int]], spots: list[tuple[float, float]],
) -> None:
    """BH-SHOOT-4, BH-GEO-8: whether a shooter standing elsewhere would have a target, asked of the table as it stands,
    is has_target on the table with the shooter moved there."""
    def side(prefix: str, at: list[tuple[float, float, int]]) -> list[dict[str, object]]:
        return [model(f"{prefix}{i}", x, y, base_mm=b, missile_weapon="orc bow", fight="3/4+") for i, (x, y, b) in enumerate(at)]

    try:
        state = state_of(side("G", good), side("E", evil))
    except InputError:  # bases that overlap: not a table (BH-GEO-3)
        assume(False)
        raise
    for m in state.models:
        for x, y in spots:
            moved = m.at(Point(x, y))
            assert would_have_target(state, moved) == has_target(st.put_model(state, moved), moved)
