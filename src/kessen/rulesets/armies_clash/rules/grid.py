"""The battlefield grid: 20-ft squares, footprints, distances, terrain costs, ranges and area templates
(§3, §4.2, §4.6, §5.2, §5.8, §5.15, §5.17).

Squares are ``(x, y)`` with ``x`` growing east and ``y`` growing south; pieces never move diagonally and
distances never count diagonally (AC-GRID-1, AC-GRID-2).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from kessen.core.records import picklable

Square = tuple[int, int]
Direction = tuple[int, int]
TerrainKind = Literal["plain", "road", "forest", "shallow_water", "deep_water"]
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
Shape = Literal["cone", "cube", "cylinder", "sphere", "line"]

NORTH, EAST, SOUTH, WEST = (0, -1), (1, 0), (0, 1), (-1, 0)
DIRECTIONS: tuple[Direction, ...] = (NORTH, EAST, SOUTH, WEST)
DIRECTION_NAMES: dict[Direction, str] = {NORTH: "north", EAST: "east", SOUTH: "south", WEST: "west"}

SIZES: tuple[Size, ...] = ("tiny", "small", "medium", "large", "huge", "gargantuan")
FOOTPRINT: dict[Size, int] = {"tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4}
"""Side of the square footprint by size (AC-STAND-2, AC-SOLO-3)."""

SQUARE_FT = 20
"""A square is 20 ft on a side (AC-SCALE-2)."""


def size_category(size: Size) -> int:
    """Size category 0 (tiny) .. 5 (gargantuan) (§4.1)."""
    return SIZES.index(size)


@dataclass(frozen=True, slots=True)
class Terrain:
    """One square's terrain (§4.6)."""

    kind: TerrainKind = "plain"
    rough: bool = False
    elevation: int = 0
    obscured: bool = False


PLAIN = Terrain()


@dataclass(frozen=True, slots=True)
class Footprint:
    """The squares a piece occupies: side ``size`` anchored at ``(x, y)``, its smallest corner (§4.2)."""

    x: int
    y: int
    size: int = 1

    def squares(self) -> Iterator[Square]:
        for dx in range(self.size):
            for dy in range(self.size):
                yield (self.x + dx, self.y + dy)

    def contains(self, square: Square) -> bool:
        return self.x <= square[0] < self.x + self.size and self.y <= square[1] < self.y + self.size

    def moved(self, direction: Direction) -> Footprint:
        return Footprint(self.x + direction[0], self.y + direction[1], self.size)

    def at(self, x: int, y: int) -> Footprint:
        return Footprint(x, y, self.size)

    def entered(self, direction: Direction) -> tuple[Square, ...]:
        """The row or column of squares a step in *direction* enters (AC-TERR-8)."""
        dx, dy = direction
        if dx:
            col = self.x + self.size if dx > 0 else self.x - 1
            return tuple((col, self.y + i) for i in range(self.size))
        row = self.y + self.size if dy > 0 else self.y - 1
        return tuple((self.x + i, row) for i in range(self.size))


def distance(a: Footprint, b: Footprint) -> int:
    """The least orthogonal distance between any two squares of two footprints (§3, AC-GRID-1).

    >>> distance(Footprint(3, 3), Footprint(4, 4))
    2
    """
    gap_x = max(0, a.x - (b.x + b.size - 1), b.x - (a.x + a.size - 1))
    gap_y = max(0, a.y - (b.y + b.size - 1), b.y - (a.y + a.size - 1))
    return gap_x + gap_y


def adjacent(a: Footprint, b: Footprint) -> bool:
    """Two footprints sharing an edge: distance exactly 1 (a corner alone is not adjacency, §3)."""
    return distance(a, b) == 1


def away_from(source: Footprint, target: Footprint) -> Direction | None:
    """The direction that pushes *target* straight away from *source* (AC-MOVE-8): the side of *source* the target
    lies beyond; [DECISION] when it lies beyond two sides (a diagonal offset, ranged attacks only), the one with the
    larger gap, east or west on a tie; None when the footprints overlap.

    >>> away_from(Footprint(3, 3), Footprint(4, 3)), away_from(Footprint(3, 3), Footprint(3, 1))
    ((1, 0), (0, -1))
    >>> away_from(Footprint(0, 0, 2), Footprint(5, 3))
    (1, 0)
    """
    east = target.x - (source.x + source.size - 1)
    west = source.x - (target.x + target.size - 1)
    south = target.y - (source.y + source.size - 1)
    north = source.y - (target.y + target.size - 1)
    across, down = max(east, west, 0), max(south, north, 0)
    if across == 0 and down == 0:
        return None
    if across >= down:
        return EAST if east > 0 else WEST
    return SOUTH if south > 0 else NORTH


def anchors_within(target: Footprint, size: int, n: int) -> Iterator[Square]:
    """The anchor of every footprint of side *size* at distance at most *n* from *target* (§3, AC-GRID-1): column by
    column, the rows its remaining distance allows.

    >>> sorted(anchors_within(Footprint(3, 3), 1, 1))
    [(2, 3), (3, 2), (3, 3), (3, 4), (4, 3)]
    """
    for x in range(target.x - size + 1 - n, target.x + target.size + n):
        room = n - max(0, target.x - (x + size - 1), x - (target.x + target.size - 1))
        for y in range(target.y - size + 1 - room, target.y + target.size + room):
            yield (x, y)


def square_distance(a: Square, b: Square) -> int:
    """Squares between two squares counted along the grid's rows and columns (Manhattan): how AC-REG-4 ranks a stand's
    ends, nearest first."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def overlaps(a: Footprint, b: Footprint) -> bool:
    return distance(a, b) == 0


@dataclass(frozen=True, slots=True)
class Grid:
    """The battlefield: its size and each square's terrain (squares not listed are plain, level 0)."""

    width: int
    height: int
    terrain: tuple[tuple[Square, Terrain], ...] = ()
    _map: dict[Square, Terrain] = field(init=False, repr=False, compare=False, hash=False)
    _costs: dict[tuple[int, bool, frozenset[Square]], MoveCosts] = field(init=False, repr=False, compare=False, hash=False)
    deep_water: frozenset[Square] = field(init=False, repr=False, compare=False, hash=False)
    """The squares of deep water (AC-TERR-4)."""
    _hash: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_map", dict(self.terrain))
        object.__setattr__(self, "_costs", {})
        object.__setattr__(self, "deep_water", frozenset(s for s, t in self._map.items() if t.kind == "deep_water"))
        object.__setattr__(self, "_hash", hash((self.width, self.height, self.terrain)))

    def __hash__(self) -> int:
        # worked out once: the caches of a battle's moves and paths are keyed on the grid, and a grid with many
        # terrain squares hashes each of them (27 µs on skirmish-ridge, a call; issue 26)
        return self._hash

    def move_costs(self, size: int, *, swimmer: bool, wrecked: frozenset[Square] = frozenset()) -> MoveCosts:
        """The steps of footprints of side *size* on this grid, each worked out once per battle (see ``MoveCosts``)."""
        key = (size, swimmer, wrecked)
        found = self._costs.get(key)
        if found is None:
            found = self._costs[key] = MoveCosts(self, size, swimmer=swimmer, wrecked=wrecked)
        return found

    def at(self, square: Square) -> Terrain:
        return self._map.get(square, PLAIN)

    def on_grid(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def holds(self, footprint: Footprint) -> bool:
        """Every square of the footprint is on the grid."""
        return (
            footprint.x >= 0 and footprint.y >= 0
            and footprint.x + footprint.size <= self.width and footprint.y + footprint.size <= self.height
        )

    def level(self, footprint: Footprint) -> int:
        """A footprint's level: the lowest level among its squares (AC-TERR-6)."""
        return min(self.at(s).elevation for s in footprint.squares() if self.on_grid(s))


picklable(Terrain, Footprint, Grid)  # native classes of the compiled engine, pickled and copied through their init fields (issue 26, issue 22 §1)


def is_difficult(terrain: Terrain, *, swimmer: bool, wrecked_road: bool = False) -> bool:
    """Difficult terrain: rough plain (AC-TERR-1), forest (AC-TERR-3), shallow water (AC-TERR-4), a road square
    whose destroy objective is down to 0 HP (AC-TERR-2). Deep water is not difficult for swimmers (AC-TERR-4)."""
    if terrain.kind == "road":
        return wrecked_road
    if terrain.kind == "forest" or terrain.kind == "shallow_water":
        return True
    return terrain.kind == "plain" and terrain.rough


def enter_cost(grid: Grid, into: Square, came_from: Square, *, swimmer: bool, wrecked: frozenset[Square] = frozenset()) -> int:
    """Cost of entering square *into* from the neighbouring *came_from* (AC-TERR-5, AC-TERR-7):
    ``(1 + levels climbed) × (2 if difficult)``. An off-grid square costs 1 (AC-MOVE-5 decides what follows).

    >>> g = Grid(10, 10, (((4, 3), Terrain("forest", elevation=2)),))
    >>> enter_cost(g, (4, 3), (3, 3), swimmer=False), enter_cost(g, (3, 3), (4, 3), swimmer=False)
    (6, 1)
    """
    here, before = grid.at(into), grid.at(came_from)  # off the grid: plain, level 0
    climb = max(0, here.elevation - before.elevation)
    return (1 + climb) * (2 if is_difficult(here, swimmer=swimmer, wrecked_road=into in wrecked) else 1)


def step_cost(grid: Grid, footprint: Footprint, direction: Direction, *, swimmer: bool, wrecked: frozenset[Square] = frozenset()) -> int:
    """A footprint's step: the highest cost among the squares it enters, each measured from the footprint square
    one step back along the direction of travel (AC-TERR-8)."""
    dx, dy = direction
    return max(
        enter_cost(grid, s, (s[0] - dx, s[1] - dy), swimmer=swimmer, wrecked=wrecked)
        for s in footprint.entered(direction)
    )


Step = tuple[Square, int, bool]
"""One orthogonal step of a footprint: the anchor it moves to, its cost (``step_cost``) and whether every square it
enters on the grid is road (AC-MOVE-7; False when it enters none)."""


class MoveCosts:
    """The four steps (in ``DIRECTIONS`` order) from each anchor of a footprint of one size, for one mover's swim speed
    and one set of wrecked road squares: ``step_cost`` and the road test of each, computed the first time that
    anchor is asked for and kept, so that a move's search pays for the terrain of a square once, not once per path
    (AC-TERR-5, AC-TERR-7, AC-TERR-8, AC-MOVE-7)."""

    __slots__ = ("_grid", "_size", "_swimmer", "_wrecked", "_steps")

    def __init__(self, grid: Grid, size: int, *, swimmer: bool, wrecked: frozenset[Square]) -> None:
        self._grid, self._size, self._swimmer, self._wrecked = grid, size, swimmer, wrecked
        self._steps: dict[Square, tuple[Step, ...]] = {}

    def steps(self, x: int, y: int) -> tuple[Step, ...]:
        """The steps from the footprint anchored at ``(x, y)``."""
        found = self._steps.get((x, y))
        if found is None:
            found = self._steps[(x, y)] = tuple(self._step(Footprint(x, y, self._size), d) for d in DIRECTIONS)
        return found

    def _step(self, footprint: Footprint, direction: Direction) -> Step:
        grid = self._grid
        entered = [s for s in footprint.entered(direction) if grid.on_grid(s)]
        road = bool(entered) and all(grid.at(s).kind == "road" for s in entered)
        cost = step_cost(grid, footprint, direction, swimmer=self._swimmer, wrecked=self._wrecked)
        return ((footprint.x + direction[0], footprint.y + direction[1]), cost, road)


def reach_squares(range_ft: int) -> int:
    """A range in feet as squares: ``max(1, (R + 10) ÷ 20)`` — it must reach 10 ft into a square, and an adjacent
    target is always in reach (AC-RANGE-1).

    >>> [reach_squares(r) for r in (5, 29, 30, 80, 120, 150, 320, 600)]
    [1, 1, 2, 4, 6, 8, 16, 30]
    """
    return max(1, (range_ft + 10) // SQUARE_FT)


def area_size(size_ft: int) -> int:
    """An area's size in squares: ``max(1, (ft + 10) ÷ 20)`` (AC-AOE-1).

    >>> [area_size(f) for f in (10, 15, 20, 30, 60, 100)]
    [1, 1, 1, 2, 3, 5]
    """
    return max(1, (size_ft + 10) // SQUARE_FT)


def right_of(direction: Direction) -> Direction:
    """The right-hand perpendicular ``(−d.y, d.x)``: facing north, right is east (AC-AOE-3)."""
    return (-direction[1], direction[0])


def self_origins(footprint: Footprint) -> Iterator[tuple[Direction, Square, Square]]:
    """Every (direction, base square, origin square) of a self-range area: a side of the footprint, a square
    along it, and the square just outside (AC-AOE-2)."""
    for direction in DIRECTIONS:
        for base in footprint.squares():
            outside = (base[0] + direction[0], base[1] + direction[1])
            if not footprint.contains(outside):
                yield direction, base, outside


def cone(base: Square, direction: Direction, n: int, *, mirrored: bool = False) -> tuple[Square, ...]:
    """A cone of length *n* from *base* (AC-AOE-3): row k holds the k squares ``base + k·d + j·r``,
    the extra square of even rows on the right unless *mirrored*.

    >>> cone((5, 5), NORTH, 3)
    ((5, 4), (5, 3), (6, 3), (4, 2), (5, 2), (6, 2))
    >>> cone((5, 5), NORTH, 3, mirrored=True)
    ((5, 4), (4, 3), (5, 3), (4, 2), (5, 2), (6, 2))
    """
    r = right_of(direction)
    out: list[Square] = []
    for k in range(1, n + 1):
        low, high = (k - 1) // 2, -(-(k - 1) // 2)
        if mirrored:
            low, high = high, low
        for j in range(-low, high + 1):
            out.append((base[0] + k * direction[0] + j * r[0], base[1] + k * direction[1] + j * r[1]))
    return tuple(out)


def burst(origin: Square, n: int) -> tuple[Square, ...]:
    """Cube, cylinder and sphere: the origin square and every square within *n* of it (AC-AOE-4).

    >>> sorted(burst((5, 5), 1))
    [(4, 5), (5, 4), (5, 5), (5, 6), (6, 5)]
    """
    return tuple(
        (origin[0] + dx, origin[1] + dy)
        for dx in range(-n, n + 1)
        for dy in range(-n + abs(dx), n - abs(dx) + 1)
    )


def line(origin: Square, direction: Direction, n: int) -> tuple[Square, ...]:
    """A straight line of *n* squares from the origin square, away from the caster (AC-AOE-5, the default).

    >>> line((1, 0), EAST, 5)
    ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0))
    """
    return tuple((origin[0] + k * direction[0], origin[1] + k * direction[1]) for k in range(n))


def clip(grid: Grid, squares: Iterable[Square]) -> frozenset[Square]:
    """Squares off the grid are not part of an area (AC-AOE-6)."""
    return frozenset(s for s in squares if grid.on_grid(s))


def coverage(area: frozenset[Square], footprint: Footprint) -> Literal["none", "partial", "full"]:
    """How an area covers a footprint: not at all, partly (some squares) or fully (AC-AOE-7)."""
    inside = sum(1 for s in footprint.squares() if s in area)
    if inside == 0:
        return "none"
    return "full" if inside == footprint.size * footprint.size else "partial"


class GoalDistances:
    """The distance from any footprint to the nearest of some footprints (§3), for a grid of ``width`` × ``height``:
    the same number as ``min(distance(fp, goal) for goal in goals)`` (0 when there are none), from a table of every
    square's distance built once, so that a move's many candidate ends each cost a few lookups. The table reaches
    ``MARGIN`` squares beyond each edge, where the footprints of pieces that flee the grid stand; squares farther
    off are measured directly."""

    MARGIN = max(FOOTPRINT.values())

    __slots__ = ("goals", "_table", "_low", "_high_x", "_high_y")

    def __init__(self, width: int, height: int, goals: tuple[Footprint, ...]) -> None:
        self.goals = goals
        m = self.MARGIN
        table = np.full((width + 2 * m, height + 2 * m), np.iinfo(np.int32).max, dtype=np.int32)
        xs, ys = np.arange(-m, width + m, dtype=np.int32), np.arange(-m, height + m, dtype=np.int32)
        for goal in goals:
            dx = np.maximum(0, np.maximum(goal.x - xs, xs - (goal.x + goal.size - 1)))
            dy = np.maximum(0, np.maximum(goal.y - ys, ys - (goal.y + goal.size - 1)))
            np.minimum(table, dx[:, None] + dy[None, :], out=table)
        self._table: list[list[int]] = table.tolist()  # lists: a lookup costs far less than numpy's indexing
        self._low, self._high_x, self._high_y = -m, width + m, height + m

    def to(self, footprint: Footprint) -> int:
        """The distance from *footprint* to the nearest goal."""
        return self.at(footprint.x, footprint.y, footprint.size)

    def at(self, x: int, y: int, size: int = 1) -> int:
        """``to`` the footprint of side *size* anchored at ``(x, y)``."""
        if not self.goals:
            return 0
        low, high_x, high_y, table = self._low, self._high_x, self._high_y, self._table
        if low <= x and x + size <= high_x and low <= y and y + size <= high_y:
            if size == 1:
                return table[x - low][y - low]
            return min(min(column[y - low:y - low + size]) for column in table[x - low:x - low + size])
        return min(distance(Footprint(x, y, size), goal) for goal in self.goals)


@functools.lru_cache(maxsize=64)
def goal_distances(width: int, height: int, goals: tuple[Footprint, ...]) -> GoalDistances:
    """The distances to *goals* on a grid, cached: during a unit's turn the enemy stands still."""
    return GoalDistances(width, height, goals)


@functools.lru_cache(maxsize=64)
def lock_squares(stands: tuple[Footprint, ...]) -> frozenset[Square]:
    """The squares next to (sharing an edge with) any of *stands*' squares: a footprint that does not overlap those
    stands is at distance 1 from one of them exactly when one of its squares is here (AC-MOVE-3)."""
    return frozenset(
        (x + dx, y + dy) for stand in stands for x, y in stand.squares() for dx, dy in DIRECTIONS
    )
