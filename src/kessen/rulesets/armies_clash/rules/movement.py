"""Movement on the grid: where a stand or solo may go this turn (§5.12, §5.8, §5.21, §5.22, §5.25).

A piece steps orthogonally (AC-GRID-2), paying the entering cost of each step (AC-TERR-5, AC-TERR-7,
AC-TERR-8) out of its budget (AC-MOVE-1). A stand next to an enemy stand cannot step unless its unit
retreats (AC-MOVE-3, AC-RETREAT-1); solos are never locked. Squares of allied skirmisher stands and
allied solos may be crossed but not stopped on; allied regiment stands only entered by a solo joining
them (AC-MOVE-4, AC-SKIRM-4, AC-REG-3, AC-SOLO-2, AC-JOIN-1). A step with any square off the grid
leaves the battlefield (AC-MOVE-5). When the last step entered only road, one extra step is free
(AC-MOVE-7). A routed unit's stands never step closer to the nearest enemy (AC-MORALE-4).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

FormationName = Literal["support", "defensive", "march"]

from kessen.core.records import picklable, record
from kessen.rulesets.armies_clash.rules.grid import (
    DIRECTIONS,
    Footprint,
    Grid,
    Direction,
    Square,
    distance,
    goal_distances,
    lock_squares,
)


def speed_squares(speed_ft: int) -> int:
    """Speed in squares = feet ÷ 5, rounded down (AC-STAND-3; a 30-ft hobgoblin stand moves 6).

    >>> speed_squares(30), speed_squares(25)
    (6, 5)
    """
    return speed_ft // 5


def forced_squares(distance_ft: int) -> int:
    """A monster ability's movement distance (push, pull, leap, teleport) in squares: feet ÷ 5, rounded down, like
    speed (AC-STAND-4; a minotaur's 10-ft push moves a stand 2 squares).

    >>> forced_squares(10), forced_squares(5), forced_squares(12), forced_squares(4)
    (2, 1, 2, 0)
    """
    return distance_ft // 5


def movement_budget(speed: int, *, formation: FormationName | None, dash: bool) -> int:
    """A stand's or solo's movement budget for one turn (AC-MOVE-1, AC-FORM-2..4, AC-DASH-1).

    Support and defensive regiments move half (round down), or full speed when they Dash; everyone
    else moves full speed, or double when they Dash. ``formation`` is None for skirmishers and solos.

    >>> movement_budget(6, formation="defensive", dash=False), movement_budget(5, formation="defensive", dash=True)
    (3, 5)
    >>> movement_budget(5, formation=None, dash=True), movement_budget(5, formation="march", dash=True)
    (10, 10)
    """
    slow = formation in ("support", "defensive")
    if dash:
        return speed if slow else 2 * speed
    return speed // 2 if slow else speed


Occupant = tuple[str, str, str]  # (kind: "regiment" | "skirmisher" | "solo", side, id)


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a move can end: ``kind`` move (a square), flee (off the grid) or join (onto the stand ``stand``)."""

    x: int
    y: int
    cost: int
    road: bool
    kind: Literal["move", "flee", "join"] = "move"
    stand: str = ""


@dataclass(frozen=True, slots=True)
class Mover:
    """What the movement rules need to know about the piece that moves."""

    id: str
    side: str
    is_solo: bool
    footprint: Footprint
    swimmer: bool
    budget: int
    retreat: bool = False
    routed: bool = False
    road_available: bool = True


@dataclass(frozen=True, slots=True)
class Place:
    legal: bool
    stop: bool
    flee: bool
    joins: tuple[str, ...]


picklable(Destination, Mover, Place)  # native classes of the compiled engine, pickled and copied through their init fields (issue 26, issue 22 §1)

ILLEGAL = Place(False, False, False, ())
_OPEN = Place(True, True, False, ())  # the usual answers, shared rather than built anew
_PASSING = Place(True, False, False, ())
_FLEEING = Place(True, False, True, ())


def classify(
    grid: Grid,
    occupancy: dict[Square, Occupant],
    mover: Mover,
    footprint: Footprint,
    *,
    may_join: Callable[[str], bool],
) -> Place:
    """Whether the mover may stand at *footprint* after a step, may stop there, leaves the grid, or joins (AC-MOVE-4)."""
    return _classify(grid, occupancy, mover, footprint.squares(), may_join)


def _classify(
    grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, squares: Iterable[Square], may_join: Callable[[str], bool]
) -> Place:
    """``classify`` of the footprint made of *squares*: enemies, allied regiment stands (for a stand) and deep water
    (without a swim speed) bar it; off the grid it flees; else the allies on it say whether it may stop or join."""
    off = False
    others: list[Occupant] = []
    deep = frozenset() if mover.swimmer else grid.deep_water
    for square in squares:
        if not grid.on_grid(square):
            off = True
            continue
        if square in deep:
            return ILLEGAL
        occupant = occupancy.get(square)
        if occupant is None or occupant[2] == mover.id:
            continue
        if occupant[1] != mover.side or (occupant[0] == "regiment" and not mover.is_solo):
            return ILLEGAL
        others.append(occupant)
    if off:
        return _FLEEING
    if not others:
        return _OPEN
    regiments = {ident for kind, _, ident in others if kind == "regiment"}
    skirmishers = {ident for kind, _, ident in others if kind == "skirmisher"}
    if regiments:
        if len(regiments) == 1 and not skirmishers and may_join(next(iter(regiments))):
            return Place(True, False, False, tuple(regiments))
        return ILLEGAL
    passing = any(kind != "regiment" for kind, _, _ in others)
    joins = tuple(sorted(s for s in skirmishers if may_join(s))) if mover.is_solo else ()
    if joins:
        return Place(True, not passing, False, joins)
    return _PASSING if passing else _OPEN


def destinations(
    grid: Grid,
    occupancy: dict[Square, Occupant],
    mover: Mover,
    *,
    enemy_stands: tuple[Footprint, ...],
    enemies: tuple[Footprint, ...],
    wrecked: frozenset[Square] = frozenset(),
    may_join: Callable[[str], bool] = lambda _: False,
) -> list[Destination]:
    """Every end of a legal move within the budget, the road bonus step included (AC-MOVE-1..7).

    A cheapest-path search (Dijkstra, integer costs) over footprint anchors: each step's cost and road test come from
    the grid's ``MoveCosts``, each anchor's footing (``classify``) is judged once, and a step is taken from an anchor
    only where the mover is not locked (AC-MOVE-3) and, routed, does not close on the nearest enemy (AC-MORALE-4).
    """

    return _Search(grid, occupancy, mover, enemy_stands, enemies, wrecked, may_join).run()


def end_anchors(
    grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, *, enemy_stands: tuple[Footprint, ...],
    enemies: tuple[Footprint, ...], wrecked: frozenset[Square] = frozenset(),
) -> frozenset[Square]:
    """The anchors of the ends of kind "move" ``destinations`` finds for a mover that joins nothing, by the same
    search, without making each a :class:`Destination` (what AC-REG-4's count asks of a stand still to move, issue
    26)."""
    return _Search(grid, occupancy, mover, enemy_stands, enemies, wrecked, lambda _: False).end_anchors()


def stand_search_reads(
    mover: Mover, taken: Iterable[tuple[Square, Occupant]], enemy_stands: tuple[Footprint, ...], enemies: tuple[Footprint, ...],
) -> tuple[frozenset[tuple[Square, Occupant]], tuple[Footprint, ...], tuple[Footprint, ...]]:
    """What ``destinations`` of a stand reads of the squares *taken* and of the enemies, so that its answer kept for
    one question serves another where nothing within its reach changed (issue 26): every step costs at least 1
    (AC-TERR-5), so its anchors lie within the budget and the road's one more step of the start (AC-MOVE-1,
    AC-MOVE-7), their squares as near to its footprint; the lock is read where it steps from, within the budget, next
    to enemy stands one square farther (AC-MOVE-3); a routed stand's distance to the nearest enemy reads every enemy
    (AC-MORALE-4). A stand that retreats is never locked.

    >>> m = Mover("a", "red", False, Footprint(5, 5), False, 2)
    >>> taken = [((5, 8), ("regiment", "red", "b")), ((5, 9), ("regiment", "red", "c")), ((6, 7), ("regiment", "blue", "x"))]
    >>> near, locks, away = stand_search_reads(m, taken, (Footprint(6, 7), Footprint(9, 9)), (Footprint(6, 7), Footprint(9, 9)))
    >>> sorted(s for s, _ in near), locks, away
    ([(5, 8), (6, 7)], (Footprint(x=6, y=7, size=1),), ())
    """
    fp = mover.footprint
    reach = mover.budget + 1
    low_x, low_y, high_x, high_y = fp.x, fp.y, fp.x + fp.size - 1, fp.y + fp.size - 1
    near: list[tuple[Square, Occupant]] = []
    for item in taken:
        x, y = item[0]
        gap = (low_x - x if x < low_x else x - high_x if x > high_x else 0) + (low_y - y if y < low_y else y - high_y if y > high_y else 0)
        if gap <= reach:
            near.append(item)
    locks = () if mover.is_solo or mover.retreat else tuple(e for e in enemy_stands if distance(e, fp) <= reach)
    return frozenset(near), locks, enemies if mover.routed else ()


_Step = tuple[Square, Place, int, bool]
"""A legal step of a search: where to, what is there, the cost, whether only road was entered."""


class _Search:
    """One run of ``destinations``: its tables, and each piece of the search a method (a native class of the compiled
    engine, where the nested functions it was written with were slow calls through closures, issue 26)."""

    def __init__(
        self, grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, enemy_stands: tuple[Footprint, ...],
        enemies: tuple[Footprint, ...], wrecked: frozenset[Square], may_join: Callable[[str], bool],
    ) -> None:
        self.grid, self.occupancy, self.mover, self.may_join = grid, occupancy, mover, may_join
        self.size = mover.footprint.size
        may_lock = not mover.is_solo and not mover.retreat
        self.lock: frozenset[Square] = lock_squares(enemy_stands) if may_lock else frozenset()
        self.away = goal_distances(grid.width, grid.height, enemies) if mover.routed else None
        self.costs = grid.move_costs(self.size, swimmer=mover.swimmer, wrecked=wrecked)
        self.places: dict[Square, Place] = {}  # each footprint position classified once
        self.gaps: dict[Square, int] = {}  # a routed mover's distance to the nearest enemy, per position
        self.ends: dict[tuple[str, int, int, str], Destination] = {}

    def place_at(self, pos: Square) -> Place:
        found = self.places.get(pos)
        if found is None:
            x, y = pos
            size = self.size
            squares = [pos] if size == 1 else [(x + dx, y + dy) for dx in range(size) for dy in range(size)]
            found = _classify(self.grid, self.occupancy, self.mover, squares, self.may_join)
            self.places[pos] = found
        return found

    def gap(self, pos: Square) -> int:
        found = self.gaps.get(pos)
        if found is None:
            away = self.away
            assert away is not None
            found = away.at(pos[0], pos[1], self.size)
            self.gaps[pos] = found
        return found

    def locked(self, x: int, y: int) -> bool:
        lock = self.lock
        if not lock:
            return False
        size = self.size
        if size == 1:
            return (x, y) in lock
        for dx in range(size):
            for dy in range(size):
                if (x + dx, y + dy) in lock:
                    return True
        return False

    def steps(self, pos: Square, room: float) -> list[_Step]:
        """The legal steps from *pos* that cost at most *room*."""
        x, y = pos
        if self.locked(x, y):
            return []
        out: list[_Step] = []
        routed = self.away is not None
        for into, cost, road in self.costs.steps(x, y):
            if cost > room:
                continue
            place = self.places.get(into)
            if place is None:
                place = self.place_at(into)
            if not place.legal:
                continue
            if routed and self.gap(into) < self.gap(pos):
                continue
            out.append((into, place, cost, road))
        return out

    def record(self, dest: Destination) -> None:
        key = (dest.kind, dest.x, dest.y, dest.stand)
        old = self.ends.get(key)
        if old is None or (dest.cost, dest.road) < (old.cost, old.road):
            self.ends[key] = dest

    def run(self) -> list[Destination]:
        budget = self.mover.budget
        start, best, stops, road_ok = self.explore(keep=True)
        for pos in stops:
            if pos != start:
                self.record(Destination(pos[0], pos[1], best[pos], False))
        reached = {(d.x, d.y) for d in self.ends.values() if d.kind == "move"}
        for pos in road_ok:  # one more step, whatever it costs (AC-MOVE-7)
            for npos, place, _step, _road in self.steps(pos, math.inf):
                if place.flee:
                    self.record(Destination(npos[0], npos[1], budget, True, "flee"))
                for stand in place.joins:
                    self.record(Destination(npos[0], npos[1], budget, True, "join", stand))
                if place.stop and npos != start and npos not in reached:
                    self.record(Destination(npos[0], npos[1], budget, True))
        return list(self.ends.values())

    def end_anchors(self) -> frozenset[Square]:
        """The anchors of the ends of kind "move" :meth:`run` records: the stops, and the stops of the road's one
        more step, but the start."""
        start, _best, stops, road_ok = self.explore(keep=False)
        found = set(stops)
        for pos in road_ok:
            for npos, place, _step, _road in self.steps(pos, math.inf):
                if place.stop:
                    found.add(npos)
        found.discard(start)
        return frozenset(found)

    def explore(self, *, keep: bool) -> tuple[Square, dict[Square, int], set[Square], set[Square]]:
        """The search within the budget: the start, the cheapest cost of each anchor reached, the anchors it may
        stop at and those a road step entered; the flights and joins met on the way recorded if *keep*."""
        mover, budget, size = self.mover, self.mover.budget, self.size
        start = (mover.footprint.x, mover.footprint.y)
        best: dict[Square, int] = {start: 0}
        stops: set[Square] = set()
        road_ok: set[Square] = set()
        by_cost: list[list[Square]] = [[start]]  # the anchors reached at each cost, searched cheapest first
        road_bonus = mover.road_available
        routed = self.away is not None
        places, costs = self.places, self.costs
        cost = 0
        while cost < len(by_cost):  # grown as it is searched: every step costs at least 1 (AC-TERR-5)
            room = budget - cost
            for pos in by_cost[cost]:
                if cost > best[pos]:
                    continue  # reached more cheaply since
                x, y = pos
                if self.locked(x, y):
                    continue
                for npos, step, road in costs.steps(x, y):  # ``steps``, written out: no list of steps built
                    if step > room:
                        continue
                    place = places.get(npos)
                    if place is None:
                        place = self.place_at(npos)
                    if not place.legal or (routed and self.gap(npos) < self.gap(pos)):
                        continue
                    total = cost + step
                    if place.flee:
                        if keep:
                            self.record(Destination(npos[0], npos[1], total, False, "flee"))
                        continue
                    if place.joins:
                        if keep:
                            for stand in place.joins:
                                self.record(Destination(npos[0], npos[1], total, False, "join", stand))
                        if not place.stop and _regiment_join(self.occupancy, Footprint(npos[0], npos[1], size), self.grid):
                            continue  # entering a regiment stand ends the move (AC-JOIN-1)
                    if road and road_bonus:
                        road_ok.add(npos)
                    if total < best.get(npos, budget + 1):
                        best[npos] = total
                        while len(by_cost) <= total:
                            by_cost.append([])
                        by_cost[total].append(npos)
                    if place.stop:
                        stops.add(npos)
            cost += 1
        return start, best, stops, road_ok


def _regiment_join(occupancy: dict[Square, Occupant], fp: Footprint, grid: Grid) -> bool:
    """Whether the join at *fp* enters a regiment stand (which may not be crossed)."""
    return any(
        grid.on_grid(s) and (o := occupancy.get(s)) is not None and o[0] == "regiment" for s in fp.squares()
    )


@record
class PushEnd:
    """Where a push can leave its target: the anchor of its footprint, the squares it was moved, and whether that last
    step took it off the grid (AC-MOVE-5)."""

    x: int
    y: int
    squares: int
    flee: bool = False


def _push_place(grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, fp: Footprint, moved: int) -> PushEnd | None:
    """The push's end at *fp*, or None when the piece could not occupy it (AC-MOVE-8: an enemy, an allied stand or
    solo, deep water without a swim speed)."""
    place = classify(grid, occupancy, mover, fp, may_join=lambda _: False)
    if place.flee:
        return PushEnd(fp.x, fp.y, moved, True)
    return PushEnd(fp.x, fp.y, moved) if place.legal and place.stop else None


def straight_push(grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, direction: Direction, squares: int) -> PushEnd:
    """A push of up to *squares* straight along *direction*: square by square, ignoring cost and the adjacency lock,
    stopping before any square the piece could not occupy; a step off the grid is its last (AC-MOVE-8, AC-MOVE-5)."""
    fp = mover.footprint
    end = PushEnd(fp.x, fp.y, 0)
    for moved in range(1, squares + 1):
        fp = fp.moved(direction)
        found = _push_place(grid, occupancy, mover, fp, moved)
        if found is None:
            break
        end = found
        if found.flee:
            break
    return end


def push_ends(
    grid: Grid, occupancy: dict[Square, Occupant], mover: Mover, source: Footprint, squares: int
) -> dict[tuple[int, int], PushEnd]:
    """Every place a push of up to *squares* from *source* can leave the mover, its own place included (AC-STAND-4,
    AC-MOVE-8).

    [DECISION] The seed's push is "up to" its distance, and the pusher's general picks where it ends: any path of
    orthogonal steps each of which takes the piece one square farther from the pusher (5e's "pushed away"), through
    squares the piece could occupy, ignoring cost and the lock; a step off the grid ends the push (AC-MOVE-5). The
    straight push of ``straight_push`` is one of them.
    """
    start = mover.footprint
    ends = {(start.x, start.y): PushEnd(start.x, start.y, 0)}
    frontier = [start]
    for moved in range(1, squares + 1):
        reached: list[Footprint] = []
        for fp in frontier:
            gap = distance(source, fp)
            for d in DIRECTIONS:
                into = fp.moved(d)
                if (into.x, into.y) in ends or distance(source, into) != gap + 1:
                    continue
                found = _push_place(grid, occupancy, mover, into, moved)
                if found is None:
                    continue
                ends[(into.x, into.y)] = found
                if not found.flee:
                    reached.append(into)
        frontier = reached
    return ends
