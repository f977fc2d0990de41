"""armies-clash: the engine's fast paths give the same answers as the rules they stand for, written plainly (issue
13): the grid's move costs (AC-TERR-5, AC-TERR-7, AC-TERR-8, AC-MOVE-7), the tabled goal distances (AC-GRID-1), the
move search (AC-MOVE-1..7, AC-MORALE-4), the state's ``evolve`` and the AI's integer means and spacing test."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

import pytest
from armies_clash_engine_helpers import GAME
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.core.engine import Decision
from kessen.core.records import evolve
from kessen.rulesets.armies_clash.ai.greedy import AcAI, expected_damage
from kessen.rulesets.armies_clash.referee.attack import attack_dist, attack_plan
from kessen.rulesets.armies_clash.referee.options import AttackWith
from kessen.rulesets.armies_clash.referee.pieces import kind_of
from kessen.rulesets.armies_clash.referee.state import AcState, Turn
from kessen.rulesets.armies_clash.rules.grid import (
    DIRECTIONS,
    Footprint,
    Grid,
    Square,
    Terrain,
    anchors_within,
    distance,
    goal_distances,
    step_cost,
)
from kessen.rulesets.armies_clash.rules.movement import Destination, Mover, Occupant, Place, classify, destinations
from kessen.io.scenarios import read_scenario
from kessen.sim.play import play_from

KINDS = ("plain", "road", "forest", "shallow_water", "deep_water")


def _grid(rng: random.Random, width: int, height: int) -> Grid:
    terrain = {}
    for x in range(width):
        for y in range(height):
            if rng.random() < 0.45:
                terrain[(x, y)] = Terrain(rng.choice(KINDS), rough=rng.random() < 0.2, elevation=rng.choice((0, 0, 1, 2)))
    return Grid(width, height, tuple(sorted(terrain.items())))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_ac_terr_8_move_costs_agree_with_step_cost(seed: int) -> None:
    """AC-TERR-5/7/8, AC-MOVE-7: every step ``Grid.move_costs`` gives is ``step_cost`` of that footprint and direction
    (the highest entering cost among the squares entered, climbs and difficult terrain counted), to the anchor one
    square along it, and road exactly when every square it enters on the grid is road."""
    rng = random.Random(seed)
    grid = _grid(rng, rng.randint(2, 7), rng.randint(2, 7))
    road_squares = [s for s, t in grid.terrain if t.kind == "road"]
    wrecked = frozenset(rng.sample(road_squares, min(len(road_squares), rng.randint(0, 2))))
    size, swimmer = rng.randint(1, 4), rng.random() < 0.5
    costs = grid.move_costs(size, swimmer=swimmer, wrecked=wrecked)
    for x in range(-1, grid.width + 1):
        for y in range(-1, grid.height + 1):
            fp = Footprint(x, y, size)
            want = []
            for d in DIRECTIONS:
                entered = [s for s in fp.entered(d) if grid.on_grid(s)]
                road = bool(entered) and all(grid.at(s).kind == "road" for s in entered)
                want.append(((x + d[0], y + d[1]), step_cost(grid, fp, d, swimmer=swimmer, wrecked=wrecked), road))
            assert costs.steps(x, y) == tuple(want)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_ac_grid_1_goal_distances_agree_with_distance(seed: int) -> None:
    """AC-GRID-1: the tabled distance from a footprint to the nearest goal is ``min(distance(fp, goal))`` (0 with no
    goal), on the grid, in the margin where fleeing footprints stand and beyond it."""
    rng = random.Random(seed)
    width, height = rng.randint(1, 12), rng.randint(1, 12)
    goals = tuple(
        Footprint(rng.randrange(width), rng.randrange(height), rng.choice((1, 1, 2, 3))) for _ in range(rng.randint(0, 4))
    )
    table = goal_distances(width, height, goals)
    for _ in range(60):
        fp = Footprint(rng.randint(-9, width + 9), rng.randint(-9, height + 9), rng.randint(1, 4))
        assert table.to(fp) == min((distance(fp, goal) for goal in goals), default=0)


def _plain_place(
    grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, footprint: Footprint, may_join: Callable[[str], bool]
) -> Place:
    """What a footprint is to the mover, square by square (AC-MOVE-4, AC-MOVE-5, AC-SKIRM-4, AC-REG-3, AC-SOLO-2,
    AC-JOIN-1): the oracle of ``classify``."""
    regiments: set[str] = set()
    skirmishers: set[str] = set()
    passing = off = False
    for square in footprint.squares():
        if not grid.on_grid(square):
            off = True
            continue
        if grid.at(square).kind == "deep_water" and not mover.swimmer:
            return Place(False, False, False, ())
        occupant = occupancy.get(square)
        if occupant is None or occupant[2] == mover.id:
            continue
        kind, side, ident = occupant
        if side != mover.side or (kind == "regiment" and not mover.is_solo):
            return Place(False, False, False, ())
        if kind == "regiment":
            regiments.add(ident)
        else:
            passing = True
            if kind == "skirmisher":
                skirmishers.add(ident)
    if off:
        return Place(True, False, True, ())
    if regiments:
        if len(regiments) == 1 and not skirmishers and may_join(next(iter(regiments))):
            return Place(True, False, False, tuple(regiments))
        return Place(False, False, False, ())
    joins = tuple(sorted(s for s in skirmishers if may_join(s))) if mover.is_solo else ()
    return Place(True, not passing, False, joins)


def _plain_destinations(
    grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, *, enemy_stands: tuple[Footprint, ...],
    enemies: tuple[Footprint, ...], wrecked: frozenset[Square], may_join: Callable[[str], bool],
) -> list[Destination]:
    """The ends of a move written straight from AC-MOVE-1..7 and AC-MORALE-4, relaxing every path cost until nothing
    improves (no priority queue, no tables): the oracle of ``destinations``."""
    size = mover.footprint.size

    def fp(p: Square) -> Footprint:
        return Footprint(p[0], p[1], size)

    def place(p: Square) -> Place:
        return _plain_place(grid, occupancy, mover, fp(p), may_join)

    def locked(p: Square) -> bool:
        return not mover.is_solo and not mover.retreat and any(distance(fp(p), e) == 1 for e in enemy_stands)

    def nearest(p: Square) -> int:
        return min((distance(fp(p), e) for e in enemies), default=0)

    def regiment_join(p: Square) -> bool:
        return any(grid.on_grid(s) and (o := occupancy.get(s)) is not None and o[0] == "regiment" for s in fp(p).squares())

    def steps(p: Square) -> list[tuple[Square, Place, int, bool]]:
        if locked(p):
            return []
        out = []
        for d in DIRECTIONS:
            q = (p[0] + d[0], p[1] + d[1])
            there = place(q)
            if not there.legal or (mover.routed and nearest(q) < nearest(p)):
                continue
            entered = [s for s in fp(p).entered(d) if grid.on_grid(s)]
            road = bool(entered) and all(grid.at(s).kind == "road" for s in entered)
            out.append((q, there, step_cost(grid, fp(p), d, swimmer=mover.swimmer, wrecked=wrecked), road))
        return out

    start = (mover.footprint.x, mover.footprint.y)
    best = {start: 0}
    changed = True
    while changed:
        changed = False
        for p, cost in list(best.items()):
            for q, there, step, _ in steps(p):
                total = cost + step
                stays = not there.flee and not (there.joins and not there.stop and regiment_join(q))
                if total <= mover.budget and stays and total < best.get(q, mover.budget + 1):
                    best[q], changed = total, True
    ends: dict[tuple[str, int, int, str], Destination] = {}

    def record(dest: Destination) -> None:
        key = (dest.kind, dest.x, dest.y, dest.stand)
        if key not in ends or (dest.cost, dest.road) < (ends[key].cost, ends[key].road):
            ends[key] = dest

    road_ok = set()
    for p, cost in best.items():
        for q, there, step, road in steps(p):
            total = cost + step
            if total > mover.budget:
                continue
            if there.flee:
                record(Destination(q[0], q[1], total, False, "flee"))
                continue
            for stand in there.joins:
                record(Destination(q[0], q[1], total, False, "join", stand))
            if there.joins and not there.stop and regiment_join(q):
                continue
            if road and mover.road_available:
                road_ok.add(q)
            if there.stop and q != start:
                record(Destination(q[0], q[1], best[q], False))
    reached = {(d.x, d.y) for d in ends.values() if d.kind == "move"}
    for p in road_ok:
        for q, there, _, _ in steps(p):
            if there.flee:
                record(Destination(q[0], q[1], mover.budget, True, "flee"))
            for stand in there.joins:
                record(Destination(q[0], q[1], mover.budget, True, "join", stand))
            if there.stop and q != start and q not in reached:
                record(Destination(q[0], q[1], mover.budget, True))
    return list(ends.values())


def _battlefield(rng: random.Random) -> tuple[Grid, dict[Square, Occupant], Mover, tuple[Footprint, ...], tuple[Footprint, ...]]:
    """A small random grid with allied and enemy stands and solos around one mover."""
    grid = _grid(rng, rng.randint(3, 9), rng.randint(3, 9))
    size = rng.choice((1, 1, 1, 2, 3))
    is_solo = rng.random() < 0.3
    start = Footprint(rng.randint(0, max(0, grid.width - size)), rng.randint(0, max(0, grid.height - size)), size)
    occupancy: dict[Square, Occupant] = {s: ("solo" if is_solo else "regiment", "a", "me") for s in start.squares()}
    enemy_stands: list[Footprint] = []
    enemies: list[Footprint] = []
    for n in range(rng.randint(0, 7)):
        other = Footprint(rng.randrange(grid.width), rng.randrange(grid.height), rng.choice((1, 1, 2)))
        if any(s in occupancy for s in other.squares()):
            continue
        side = rng.choice("ab")
        kind = rng.choice(("regiment", "skirmisher", "solo"))
        for s in other.squares():
            occupancy[s] = (kind, side, f"p{n}")
        if side == "b":
            enemies.append(other)
            if kind != "solo":
                enemy_stands.append(other)
    mover = Mover(
        "me", "a", is_solo, start, rng.random() < 0.3, rng.randint(0, 9), retreat=rng.random() < 0.2,
        routed=not is_solo and rng.random() < 0.3, road_available=rng.random() < 0.7,
    )
    return grid, occupancy, mover, tuple(enemy_stands), tuple(enemies)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_ac_move_1_destinations_agree_with_a_plain_search(seed: int) -> None:
    """AC-MOVE-1..7, AC-MORALE-4, AC-JOIN-1: the move search finds exactly the ends, costs and road bonuses of a plain
    relaxation of every path on random battlefields (terrain, climbs, allies to pass, enemies that lock, joins,
    routed movers, flights off the grid); and what each footprint is to the mover is as a plain reading of AC-MOVE-4
    says."""
    rng = random.Random(seed)
    grid, occupancy, mover, enemy_stands, enemies = _battlefield(rng)
    road_squares = [s for s, t in grid.terrain if t.kind == "road"]
    wrecked = frozenset(rng.sample(road_squares, min(len(road_squares), rng.randint(0, 1))))
    joinable = {f"p{n}" for n in range(8) if rng.random() < 0.5}

    def may_join(stand: str) -> bool:
        return stand in joinable

    found = destinations(grid, occupancy, mover, enemy_stands=enemy_stands, enemies=enemies, wrecked=wrecked, may_join=may_join)
    want = _plain_destinations(
        grid, occupancy, mover, enemy_stands=enemy_stands, enemies=enemies, wrecked=wrecked, may_join=may_join
    )
    assert sorted(found, key=_end_key) == sorted(want, key=_end_key)
    for x in range(-2, grid.width + 2):
        for y in range(-2, grid.height + 2):
            at = Footprint(x, y, mover.footprint.size)
            assert classify(grid, occupancy, mover, at, may_join=may_join) == _plain_place(grid, occupancy, mover, at, may_join)


def _end_key(end: Destination) -> tuple[str, int, int, str]:
    return (end.kind, end.x, end.y, end.stand)


def _some_state(scenario: str = "examples/armies-clash/hold-the-bridge.toml") -> AcState:
    return GAME.load_scenario(read_scenario(scenario), scenario)


def test_ac_state_evolve_agrees_with_replace() -> None:
    """``evolve`` is ``dataclasses.replace`` for the state and the turn: each field changed alone (to its value at the
    end of a battle: a value of its own type, which the compiled engine's native records insist on) gives an equal
    record, the others kept; an unknown field is refused."""
    state = _some_state()
    ended = play_from(GAME, state, 1).state
    turn = Turn("u", False, action="attack", budget=3)
    others = {state: ended, turn: Turn("v", True, action="move", budget=1)}
    for record, fast in ((state, evolve), (turn, evolve)):
        assert fast(record) == record
        for f in fields(record):
            changed = getattr(others[record], f.name)
            assert fast(record, **{f.name: changed}) == replace(record, **{f.name: changed})
            assert getattr(fast(record, **{f.name: changed}), f.name) == changed
        with pytest.raises(TypeError):
            fast(record, no_such_field=1)


def test_ac_ai_spacing_agrees_with_distance() -> None:
    """The AI's spacing test: an anchor is close to its unit exactly when ``distance`` to some mate is within the
    spacing (the set ``cohesive_anchors`` makes of its mates' ``anchors_within``)."""
    rng = random.Random(13)
    for _ in range(200):
        mates = [Footprint(rng.randint(0, 9), rng.randint(0, 9), rng.choice((1, 2))) for _ in range(rng.randint(0, 4))]
        size, spacing = rng.choice((1, 2, 3)), rng.choice((1, 2))
        close = frozenset(a for m in mates for a in anchors_within(m, size, spacing))
        for x in range(-3, 14):
            for y in range(-3, 14):
                assert ((x, y) in close) == any(distance(Footprint(x, y, size), m) <= spacing for m in mates)


class _Checking:
    """The AI of one side, checking each attack it weighs against the plain mean of its distribution."""

    def __init__(self, side: str) -> None:
        self.ai, self.seen = AcAI(side), 0

    def decide(self, state: AcState, decision: Decision) -> Any:
        turn = state.turn
        if decision.kind == "act" and turn is not None:
            for option in decision.options:
                if isinstance(option, AttackWith):
                    kind = kind_of(state, option.target)
                    plan = attack_plan(state, turn.piece, option.using, kind, option.target, supported=turn.piece in turn.supported)
                    dist = attack_dist(plan)
                    mean = sum((p * o.damage for o, p in dist.probabilities().items()), Fraction(0))
                    stand = state.stand(option.target)
                    want = 2 * mean if kind == "objective" else mean / 2 if stand is not None and stand.hp == 0 else mean
                    assert expected_damage(state, turn.piece, option) == want
                    self.seen += 1
        return self.ai.decide(state, decision)


def test_ac_ai_expected_damage_is_the_exact_mean() -> None:
    """The AI weighs an attack by the exact mean damage of the distribution the engine draws from (counted in
    integers, AC-ATTACK-1): the same Fraction as the probability-weighted sum of its damage, doubled on an objective,
    halved on a casualty."""
    scenario = "examples/armies-clash/skirmish-ridge.toml"
    deciders = {side: _Checking(side) for side in ("a", "b")}
    play_from(GAME, _some_state(scenario), 2, deciders=deciders)
    assert sum(d.seen for d in deciders.values()) > 10
