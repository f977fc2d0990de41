"""The battlefield's geometry: round bases in inches, contact, control zones, the board, the path test and sight
(BH-GEO-1..5, BH-GEO-7, BH-GEO-8).

The direction away (BH-GEO-6) is in referee/backing_away.py, the geometry of moves (BH-MOVE-2..5) in referee/moves.py.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from kessen.core.geometry import Point, Rect, base_gap, bases_touch, beyond, reaches, segment_distance, segment_rect_distance
from kessen.core.records import evolver, picklable, record
from kessen.rulesets.battlehost.profiles import MissileWeapon
from kessen.rulesets.battlehost.rules.sides import Side

EPS = 0.01  # BH-GEO-3: contact tolerance in inches
MM_PER_INCH = 25.4
CONTROL_ZONE = 1.0  # BH-GEO-4
ZONE_TOLERANCE = 1e-9
"""How much nearer than 1" a base must be to stand inside a control zone: a base 1" away (to rounding) is outside."""
PATH_ZONE_TOLERANCE = 1e-6
"""How far a straight move may graze into a control zone it starts outside of (rounding along the path, BH-MOVE-4)."""
AHEAD = 1e-9  # BH-GEO-7 condition 1


@functools.lru_cache(maxsize=151)  # one entry per base size, 20-170 mm (BH-GEO-1)
def radius(base_mm: int) -> float:
    """A round base's radius in inches from its diameter in millimetres (BH-GEO-1).

    >>> round(radius(25), 7), round(radius(60), 7)
    (0.492126, 1.1811024)
    """
    return base_mm / MM_PER_INCH / 2


@dataclass(frozen=True, slots=True)
class Model:
    """One model on the table: its profile, where it stands and how it fares (section 4). A native class of the
    compiled engine (the record spelled out), so that the geometry read at every step reads its fields from a C
    struct (issue 26)."""

    id: str
    side: Side
    name: str
    type: str
    move: int
    fight: int
    shoot_value: int | None
    strength: int
    defence: int
    attacks: int
    wounds: int
    wounds_left: int
    might_left: int
    two_handed: bool
    base_mm: int
    weapon: MissileWeapon | None
    x: float
    y: float
    prone: bool = False
    r: float = field(init=False, repr=False, compare=False)
    """The base's radius in inches (BH-GEO-1), kept beside its diameter: geometry reads it at every turn."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "r", radius(self.base_mm))

    def __hash__(self) -> int:
        # Equal models have equal ids, places and wounds, so hashing these alone keeps ``hash`` and ``==`` in step; the
        # move options kept for a model's surroundings hash a dozen models at every move.
        return hash((self.id, self.x, self.y, self.wounds_left))

    @property
    def centre(self) -> Point:
        return Point(self.x, self.y)

    @property
    def is_hero(self) -> bool:
        return self.type == "hero"

    def at(self, p: Point) -> Model:
        return _moved_to(self, p.x, p.y)


_moved_to: Callable[[Model, float, float], Model] = evolver(Model, "x", "y")


@dataclass(frozen=True, slots=True)
class Board:
    """The board and its impassable terrain blocks (BH-GEO-5); a native class of the compiled engine, as Model is."""

    width: float
    height: float
    terrain: tuple[Rect, ...] = ()

    def __hash__(self) -> int:
        # Equal boards have equal sizes and as many blocks: enough for a hash that keeps in step with ``==``, without
        # hashing every block each time the move options kept for a model's surroundings are looked up.
        return hash((self.width, self.height, len(self.terrain)))

    def on_board(self, p: Point, r: float) -> bool:
        """A base is on the board when r ≤ x ≤ width − r and r ≤ y ≤ height − r (BH-GEO-5)."""
        return self.on_board_at(p.x, p.y, r)

    def on_board_at(self, x: float, y: float, r: float) -> bool:
        """:meth:`on_board` for a base centred at (x, y)."""
        tol = 1e-9
        return r - tol <= x <= self.width - r + tol and r - tol <= y <= self.height - r + tol

    def overlaps_terrain(self, p: Point, r: float) -> bool:
        """A base overlaps a block when its centre is nearer than r − EPS to it (BH-GEO-5)."""
        return self.overlaps_terrain_at(p.x, p.y, r)

    def overlaps_terrain_at(self, x: float, y: float, r: float) -> bool:
        """:meth:`overlaps_terrain` for a base centred at (x, y)."""
        for block in self.terrain:
            if block.x0 < x + r and block.x1 > x - r and block.y0 < y + r and block.y1 > y - r:
                dx = max(block.x0 - x, 0.0, x - block.x1)  # Rect.distance_to, without a Point
                dy = max(block.y0 - y, 0.0, y - block.y1)
                if math.hypot(dx, dy) < r - EPS:
                    return True
        return False


picklable(Model, Board)  # pickled and copied through their init fields (issue 22 §1)


def turned(angle: float) -> tuple[float, float]:
    """The cosine and sine that ``Point.rotated(angle)`` turns by."""
    a = math.radians(angle)
    return math.cos(a), math.sin(a)


# --- distances and contact (BH-GEO-2..4) ---------------------------------------------------------


def gap(a: Model, b: Model) -> float:
    """Edge-to-edge gap of two bases, negative when they overlap (BH-GEO-2)."""
    return base_gap(a.x, a.y, a.r, b.x, b.y, b.r)


def distance(a: Model, b: Model) -> float:
    """The distance between two models: the gap, never below 0 (BH-GEO-2)."""
    return max(0.0, gap(a, b))


def in_base_contact(a: Model, b: Model) -> bool:
    """Bases touch when |gap| ≤ EPS (BH-GEO-3): ``gap ≤ EPS``, since no base ever overlaps another by more than EPS
    (a scenario refuses it; every move, back-away and make-way keeps clear of other bases, BH-GEO-7)."""
    return bases_touch(a.x, a.y, a.r, b.x, b.y, b.r, EPS)


def enemies_in_contact(models: Iterable[Model], m: Model) -> tuple[Model, ...]:
    """The enemy models in base contact with *m* (BH-GEO-3), in the order of *models*: of a tuple, only those near *m*
    on its arrangement's grid are measured (issue 26)."""
    near = arrangement(models).near(m.x, m.y, m.r + EPS + 1e-6) if isinstance(models, tuple) else models
    return tuple(o for o in near if o.side != m.side and in_base_contact(o, m))


CELL = 4.0
"""The side of a square of :class:`Arrangement`'s grid, in inches: about a move, so that what one model's move can
reach lies in a handful of squares."""


def _square(i: int, j: int) -> int:
    """The key of the grid's square (i, j): one int, cheaper to hash than a pair. Squares j apart by 2**20 (four
    million inches) would share it; no table comes near that."""
    return i * 1048576 + j


class Arrangement:
    """Facts of one arrangement of the table (a tuple of models), worked out once and kept while it is among the last
    few used: models stand still through most steps of a battle, so the same tuple is asked about again and again.

    Its grid (squares of :data:`CELL` inches, each with the places in the tuple of the models centred in it) answers
    what lies near a point without measuring every model: the cost of a question grows with the models near, not with
    the models on the table (issue 26)."""

    __slots__ = ("models", "by_id", "sides", "targets", "_engaged", "_cells", "_widest", "_fastest", "_others", "_nearest", "_free")

    def __init__(self, models: tuple[Model, ...]) -> None:
        self.models = models
        self.by_id = {m.id: m for m in models}
        self.sides = frozenset(m.side for m in models)
        """The sides that have models on the table."""
        self.targets: dict[str, tuple[Model, Board, tuple[Model, ...]]] = {}
        """A shooter's id → the shooter, the board and the targets it may choose there (kept by the Shoot phase)."""
        self._engaged: frozenset[str] | None = None
        self._cells: dict[int, list[int]] | None = None
        self._widest = 0.0
        self._fastest = 0
        self._others: dict[Side, tuple[Model, ...]] = {}
        self._nearest: dict[Side, dict[tuple[str, float, float, float], Model | None]] = {}
        self._free: dict[Side, float | None] = {}

    @property
    def engaged(self) -> frozenset[str]:
        """The ids of every model in base contact with an enemy (BH-GEO-3)."""
        if self._engaged is None:
            self._engaged = _engaged(self.models)
        return self._engaged

    def cells(self) -> dict[int, list[int]]:
        """The grid: each square's models, as their places in :attr:`models` (in order), by :func:`_square`."""
        if self._cells is None:
            cells: dict[int, list[int]] = {}
            for i, m in enumerate(self.models):
                cells.setdefault(_square(math.floor(m.x / CELL), math.floor(m.y / CELL)), []).append(i)
                self._widest = max(self._widest, m.r)
                self._fastest = max(self._fastest, m.move)
            self._cells = cells
        return self._cells

    def widest(self) -> float:
        """The largest base radius on the table."""
        self.cells()
        return self._widest

    def fastest(self) -> int:
        """The largest Move on the table (BH-MOVE-2)."""
        self.cells()
        return self._fastest

    def in_box(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        """The places (unordered) of the models centred in the box from (x0, y0) to (x1, y1), and perhaps of a few
        just outside it; every model when the box covers more squares than there are models."""
        cells = self.cells()
        margin = 1e-6  # rounding: a centre on the box's edge is never left out
        i0, i1 = math.floor((x0 - margin) / CELL), math.floor((x1 + margin) / CELL)
        j0, j1 = math.floor((y0 - margin) / CELL), math.floor((y1 + margin) / CELL)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > len(self.models):
            return list(range(len(self.models)))
        found: list[int] = []
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                cell = cells.get(_square(i, j))
                if cell is not None:
                    found.extend(cell)
        return found

    def near(self, x: float, y: float, reach: float) -> tuple[Model, ...]:
        """The models whose bases come within *reach* inches of (x, y) (centre distance − radius ≤ *reach*), in the
        order of :attr:`models`."""
        span = reach + self.widest()
        models = self.models
        places = [i for i in self.in_box(x - span, y - span, x + span, y + span)
                  if reaches(models[i].x - x, models[i].y - y, models[i].r, reach)]
        places.sort()
        return tuple(models[i] for i in places)

    def smallest_free_enemy(self, side: Side) -> float | None:
        """The smallest base radius among the enemies of *side* not engaged (BH-GEO-3), or None when none is free."""
        if side not in self._free:
            engaged = self.engaged
            self._free[side] = min((x.r for x in self.others(side) if x.id not in engaged), default=None)
        return self._free[side]

    def others(self, side: Side) -> tuple[Model, ...]:
        """The models of every side but *side*, in order."""
        found = self._others.get(side)
        if found is None:
            found = self._others[side] = tuple(x for x in self.models if x.side != side)
        return found

    def nearest_enemy(self, m: Model) -> Model | None:
        """The enemy of *m* nearest it, edge to edge (BH-GEO-2), then by id; None when it has none.

        Kept for the enemies as they stand (the very same models): through a Move phase only the moving side's
        models move, so each mover's nearest enemy is measured once a phase, not after every move."""
        known = self._nearest.get(m.side)
        if known is None:
            known = self._nearest[m.side] = _nearest_among(self.others(m.side))
        key = (m.id, m.x, m.y, m.r)
        if key in known:
            return known[key]
        best: tuple[float, str] | None = None
        found: Model | None = None
        for x in self.others(m.side):
            if best is not None and beyond(x.x - m.x, x.y - m.y, best[0] + m.r + x.r) > 0:
                continue  # surely farther than the nearest so far: not measured
            here = (max(0.0, math.hypot(x.x - m.x, x.y - m.y) - m.r - x.r), x.id)  # distance(m, x)
            if best is None or here < best:
                best, found = here, x
        known[key] = found
        return found


_NEAREST: list[tuple[tuple[Model, ...], dict[tuple[str, float, float, float], Model | None]]] = []


def _nearest_among(enemies: tuple[Model, ...]) -> dict[tuple[str, float, float, float], Model | None]:
    """The nearest enemy found for each model (by id and place) among *enemies*: the same models, object for object,
    as one of the last few line-ups asked about, or a new table."""
    for seen, known in _NEAREST:
        if len(seen) == len(enemies) and all(a is b for a, b in zip(seen, enemies)):
            return known
    known = {}
    _NEAREST.insert(0, (enemies, known))
    del _NEAREST[4:]
    return known


_ARRANGEMENTS: list[Arrangement] = []


def arrangement(models: tuple[Model, ...]) -> Arrangement:
    """The facts of *models*, the same tuple (by identity) as one of the last few asked about, or worked out now."""
    for i, entry in enumerate(_ARRANGEMENTS):
        if entry.models is models:
            if i:  # the last used first: the AI's what-if tables pass through without pushing out the table in play
                del _ARRANGEMENTS[i]
                _ARRANGEMENTS.insert(0, entry)
            return entry
    entry = Arrangement(models)
    _ARRANGEMENTS.insert(0, entry)
    del _ARRANGEMENTS[4:]
    return entry


Spot = tuple[float, float, float]
"""Where a base stands: its centre's x and y and its radius."""

_CHANGES: list[tuple[tuple[Model, ...], tuple[Model, ...], list[Spot]]] = []


def changed_spots(before: tuple[Model, ...], after: tuple[Model, ...]) -> list[Spot]:
    """Where something changed from the table *before* to the table *after*: the place, old and new, of every model
    that is not the very same object in both (moved, hurt, fallen, come or gone), and of every model engaged in one
    and not in the other (BH-GEO-3). Kept for the last few pairs of tables asked about."""
    for seen_before, seen_after, spots in _CHANGES:
        if seen_before is before and seen_after is after:
            return spots
    spots = _changed_models(before, after)
    now, then = arrangement(after), arrangement(before)
    for ident in now.engaged ^ then.engaged:
        spots.extend((m.x, m.y, m.r) for m in (now.by_id.get(ident), then.by_id.get(ident)) if m is not None)
    _CHANGES.insert(0, (before, after, spots))
    del _CHANGES[4:]
    return spots


def _changed_models(before: tuple[Model, ...], after: tuple[Model, ...]) -> list[Spot]:
    """The places, old and new, of the models that are not the very same object in *before* and *after*."""
    spots: list[Spot] = []
    if len(before) == len(after) and all(a.id == b.id for a, b in zip(before, after)):
        for a, b in zip(before, after):
            if a is not b:
                spots.append((a.x, a.y, a.r))
                spots.append((b.x, b.y, b.r))
        return spots
    old = {m.id: m for m in before}
    for b in after:
        was = old.pop(b.id) if b.id in old else None
        if was is not b:
            spots.append((b.x, b.y, b.r))
            if was is not None:
                spots.append((was.x, was.y, was.r))
    spots.extend((gone.x, gone.y, gone.r) for gone in old.values())
    return spots


Answer = TypeVar("Answer")


class Local(Generic[Answer]):
    """Answers about single models that depend only on the model itself, the board and what lies within some reach of
    its centre (the models there, where they stand, how they fare and which of them are engaged), kept from one table
    to the next: an answer stands until something changes within its reach (:func:`changed_spots`).

    Through a Move phase one model moves at a time, so the answers for the models far from it stand: the work of a
    step grows with the models near what changed, not with the models on the table (issue 26)."""

    __slots__ = ("_models", "_answers")

    def __init__(self) -> None:
        self._models: tuple[Model, ...] | None = None
        self._answers: dict[str, tuple[Model, Board, float, Answer]] = {}

    def get(self, models: tuple[Model, ...], m: Model, board: Board) -> Answer | None:
        """The answer kept for *m* (the very same object) on *board* among *models*, if it still stands."""
        if models is not self._models:
            self._follow(models)
        kept = self._answers.get(m.id)
        if kept is None or kept[0] is not m or kept[1] is not board:
            return None
        return kept[3]

    def put(self, models: tuple[Model, ...], m: Model, board: Board, reach: float, answer: Answer) -> None:
        """Keep *answer* for *m* on *board* among *models*: it depends on nothing farther than *reach* from *m*'s centre
        (a base counts as within it when its edge is)."""
        if models is not self._models:
            self._follow(models)
        self._answers[m.id] = (m, board, reach, answer)

    def _follow(self, models: tuple[Model, ...]) -> None:
        """Drop the answers that a change from the last table to *models* may alter."""
        if self._models is not None and self._answers:
            spots = changed_spots(self._models, models)
            if len(spots) > 16:
                self._answers = {}
            elif spots:
                self._answers = {
                    ident: kept for ident, kept in self._answers.items()
                    if not any(reaches(x - kept[0].x, y - kept[0].y, r, kept[2] + 1e-6) for x, y, r in spots)
                }
        self._models = models


def _engaged(models: Sequence[Model]) -> frozenset[str]:
    """Every model in base contact with an enemy: the pairs near enough along x to touch, tested in full (BH-GEO-3)."""
    by_x = sorted(models, key=lambda m: m.x)
    widest = max((m.r for m in by_x), default=0.0)
    found: set[str] = set()
    for i, a in enumerate(by_x):
        reach = a.x + a.r + widest + EPS
        for b in by_x[i + 1 :]:
            if b.x > reach:
                break
            if a.side != b.side and in_base_contact(a, b):
                found.update((a.id, b.id))
    return frozenset(found)


def engaged_ids(models: tuple[Model, ...]) -> frozenset[str]:
    """The ids of every model in base contact with an enemy (BH-GEO-3), kept for the last few arrangements."""
    return arrangement(models).engaged


def is_engaged(models: Iterable[Model], m: Model) -> bool:
    """In base contact with an enemy model (BH-SHOOT-2, BH-GEO-3)."""
    if isinstance(models, tuple):
        known = arrangement(models)
        if known.by_id.get(m.id) is m:
            return m.id in known.engaged
    return bool(enemies_in_contact(models, m))


def has_control_zone(m: Model, engaged: frozenset[str]) -> bool:
    """Neither engaged nor prone models have a 1" control zone (BH-GEO-4, BH-MOVE-4); *engaged* holds every engaged
    model of the table."""
    return not m.prone and m.id not in engaged


def in_control_zone(gap: float, tolerance: float = ZONE_TOLERANCE) -> bool:
    """Whether a base *gap* inches from a model (edge to edge, BH-GEO-2) stands inside its control zone: nearer than
    1" (BH-GEO-4), by more than *tolerance*."""
    return gap < CONTROL_ZONE - tolerance


# --- the path test (BH-GEO-7) ----------------------------------------------------------------------


def blocking_models(mover: Model, p1: Point, models: Iterable[Model], *, ignore: frozenset[str] = frozenset()) -> tuple[Model, ...]:
    """The models that block *mover*'s straight move to *p1* (BH-GEO-7).

    X blocks when it lies ahead (its projection on the direction is beyond the start) and the
    moving base would come within EPS of it somewhere on the way.
    """
    return tuple(blockers(mover, p1.x, p1.y, models, ignore))


def first_blocker(mover: Model, x1: float, y1: float, models: Iterable[Model], ignore: str | None = None) -> Model | None:
    """The first of :func:`blocking_models` for a move to (x1, y1), or None: a path is blocked or not without
    testing every model (BH-GEO-7)."""
    found = _blocking(mover, x1, y1, models, (ignore,) if ignore is not None else (), True)
    return found[0] if found else None


def blockers(mover: Model, x1: float, y1: float, models: Iterable[Model], ignore: Iterable[str | None]) -> Iterator[Model]:
    """The models blocking *mover*'s straight move to (x1, y1), in the order of *models* (BH-GEO-7)."""
    return iter(_blocking(mover, x1, y1, models, tuple(ignore), False))


def _blocking(mover: Model, x1: float, y1: float, models: Iterable[Model], ignore: tuple[str | None, ...], first: bool) -> list[Model]:
    """:func:`blockers` as a list, or only its first when *first*: a plain loop, since a generator made for each path
    tested cost the compiled engine more than the test (issue 26)."""
    found: list[Model] = []
    x0, y0 = mover.x, mover.y
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy)
    if length == 0:
        return found
    ux, uy = dx / length, dy / length
    rm = mover.r
    for x in models:
        if x.id == mover.id or x.id in ignore:
            continue
        t = (x.x - x0) * ux + (x.y - y0) * uy
        if t <= AHEAD:
            continue
        tc = min(t, length)  # the nearest point of the segment (t > 0 already)
        if reaches(x0 + ux * tc - x.x, y0 + uy * tc - x.y, 0.0, rm + x.r + EPS):
            found.append(x)
            if first:
                break
    return found


def ground_blocks(r: float, p0: Point, p1: Point, board: Board) -> bool:
    """The board edge or a terrain block stops a straight move from p0 to p1 (BH-GEO-5, BH-GEO-7).

    A block farther than r + EPS from the box around the path cannot come that near the path itself; only the
    others are measured."""
    return ground_blocks_at(r, p0.x, p0.y, p1.x, p1.y, board)


def ground_blocks_at(r: float, x0: float, y0: float, x1: float, y1: float, board: Board) -> bool:
    """:func:`ground_blocks` for a move from (x0, y0) to (x1, y1)."""
    if not board.on_board_at(x1, y1, r):
        return True
    if not board.terrain:
        return False
    margin = r + EPS + 1e-6
    x_min, x_max = min(x0, x1) - margin, max(x0, x1) + margin
    y_min, y_max = min(y0, y1) - margin, max(y0, y1) + margin
    for block in board.terrain:
        if block.x0 > x_max or block.x1 < x_min or block.y0 > y_max or block.y1 < y_min:
            continue
        p0 = Point(x0, y0)
        along = segment_rect_distance(p0, Point(x1, y1), block)
        if along <= r + EPS and along < block.distance_to(p0):
            return True
    return False


def path_is_clear(mover: Model, p1: Point, models: Iterable[Model], board: Board, *, ignore: frozenset[str] = frozenset()) -> bool:
    """No model, board edge or terrain block blocks the move (BH-GEO-7)."""
    return not ground_blocks_at(mover.r, mover.x, mover.y, p1.x, p1.y, board) and not blocking_models(mover, p1, models, ignore=ignore)


# --- sight (BH-GEO-8) --------------------------------------------------------------------------------


def tangent_points(shooter: Point, target: Point, r: float) -> tuple[Point, Point]:
    """Where the two tangents from the shooter's centre touch the target's base circle (BH-GEO-8).

    >>> a, b = tangent_points(Point(0, 0), Point(10, 0), radius(25))
    >>> round(a.x, 4), round(a.y, 4), round(b.y, 4)
    (9.9758, 0.4915, -0.4915)
    """
    t1x, t1y, t2x, t2y = _tangents(shooter.x, shooter.y, target.x, target.y, r)
    return Point(t1x, t1y), Point(t2x, t2y)


def _tangents(sx: float, sy: float, tx: float, ty: float, r: float) -> tuple[float, float, float, float]:
    """:func:`tangent_points` on floats: the unit vector to the target turned by ± the half angle, at the tangent's
    length from the shooter."""
    vx, vy = tx - sx, ty - sy
    dist = math.hypot(vx, vy)
    half = math.degrees(math.asin(min(1.0, r / dist)))
    reach = math.sqrt(max(0.0, dist * dist - r * r))
    ux, uy = vx / dist, vy / dist
    c, s = turned(half)
    c2, s2 = turned(-half)
    return (sx + (ux * c - uy * s) * reach, sy + (ux * s + uy * c) * reach,
            sx + (ux * c2 - uy * s2) * reach, sy + (ux * s2 + uy * c2) * reach)


def _cross(ox: float, oy: float, ax: float, ay: float, bx: float, by: float) -> float:
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


@record
class SightArea:
    """What a shooter sees of a target: the triangle (shooter's centre, t1, t2) and the target's base (BH-GEO-8)."""

    shooter: Point
    t1: Point
    t2: Point
    target: Point
    r: float

    def distance(self, p: Point) -> float:
        """Distance from a point to the sight area (0 inside)."""
        a, b, c, t = self.shooter, self.t1, self.t2, self.target
        return _area_distance(p.x, p.y, (a.x, a.y, b.x, b.y, c.x, c.y, t.x, t.y, self.r))


Area = tuple[float, float, float, float, float, float, float, float, float]
"""A sight area on floats: the shooter's centre, t1, t2, the target's centre and its radius."""


def _area(shooter: Model, target: Model) -> Area:
    t1x, t1y, t2x, t2y = _tangents(shooter.x, shooter.y, target.x, target.y, target.r)
    return (shooter.x, shooter.y, t1x, t1y, t2x, t2y, target.x, target.y, target.r)


def _area_distance(px: float, py: float, area: Area) -> float:
    """Distance from (px, py) to the sight area: to the filled triangle (0 inside) or to the target's base."""
    ax, ay, bx, by, cx, cy, tx, ty, r = area
    to_base = max(0.0, math.hypot(px - tx, py - ty) - r)
    s1, s2, s3 = _cross(ax, ay, bx, by, px, py), _cross(bx, by, cx, cy, px, py), _cross(cx, cy, ax, ay, px, py)
    if (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0):
        return 0.0
    triangle = min(segment_distance(ax, ay, bx, by, px, py), segment_distance(bx, by, cx, cy, px, py),
                   segment_distance(cx, cy, ax, ay, px, py))
    return min(triangle, to_base)


def sight_area(shooter: Model, target: Model) -> SightArea:
    """The sight area of *shooter* on *target* (BH-GEO-8)."""
    t1, t2 = tangent_points(shooter.centre, target.centre, target.r)
    return SightArea(shooter.centre, t1, t2, target.centre, target.r)


def sight_area_distance(p: Point, shooter: Model, target: Model) -> float:
    """Distance from a point to the sight area: the triangle (shooter's centre, t1, t2) with the target's base (BH-GEO-8)."""
    return sight_area(shooter, target).distance(p)


def partially_hides(x: Model, shooter: Model, target: Model) -> bool:
    """Another model partially hides the target when its base reaches into the sight area by more than EPS (BH-GEO-8)."""
    return hides(x, sight_area(shooter, target))


def hides(x: Model, area: SightArea) -> bool:
    """Whether *x*'s base reaches into the sight area by more than EPS (BH-GEO-8)."""
    return area.distance(x.centre) < x.r - EPS


def hidden_targets(shooter: Model, targets: Sequence[Model], models: Sequence[Model]) -> frozenset[str]:
    """The ids of the *targets* that some other model partially hides from *shooter* (BH-GEO-8, BH-SHOOT-4).

    The sight area lies within the target's radius of the segment between the two centres, so a model farther
    from that segment than both radii (less EPS) cannot reach into it: each pair is screened so first (only the
    models in the box around the segment, read off the arrangement's grid), and only the models that pass are
    tested in full.
    """
    hidden = set()
    sx, sy = shooter.x, shooter.y
    known = arrangement(models) if isinstance(models, tuple) else None
    widest = known.widest() if known is not None else max((x.r for x in models), default=0.0)
    for t in targets:
        dx, dy = t.x - sx, t.y - sy
        length2 = dx * dx + dy * dy
        scale = 1.0 if length2 == 0 else length2
        margin = t.r + widest  # no nearer to the segment than the screen's reach, no farther out of its box
        x0, x1, y0, y1 = min(sx, t.x) - margin, max(sx, t.x) + margin, min(sy, t.y) - margin, max(sy, t.y) + margin
        area: Area | None = None
        near = models if known is None else [known.models[i] for i in known.in_box(x0, y0, x1, y1)]
        for x in near:
            if not (x0 <= x.x <= x1 and y0 <= x.y <= y1) or x.id == shooter.id or x.id == t.id:
                continue
            along = min(max(((x.x - sx) * dx + (x.y - sy) * dy) / scale, 0.0), 1.0)
            ex, ey = sx + along * dx - x.x, sy + along * dy - x.y
            reach = t.r + x.r - EPS + 1e-6  # 1e-6: a margin for rounding, so that no hiding model is screened out
            if ex * ex + ey * ey >= reach * reach:
                continue
            if area is None:
                area = _area(shooter, t)
            if _area_distance(x.x, x.y, area) < x.r - EPS:
                hidden.add(t.id)
                break
    return frozenset(hidden)


def _overlap_strictly(poly_a: Sequence[tuple[float, float]], poly_b: Sequence[tuple[float, float]]) -> bool:
    """Two convex polygons share interior area (separating-axis test, touching does not count)."""
    for poly in (poly_a, poly_b):
        for i, (ax, ay) in enumerate(poly):
            bx, by = poly[(i + 1) % len(poly)]
            nx, ny = -(by - ay), bx - ax
            pa = [nx * x + ny * y for x, y in poly_a]
            pb = [nx * x + ny * y for x, y in poly_b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= 1e-9:
                return False
    return True


_SIGHT: list[tuple[Board, dict[tuple[float, float, float, float, float], bool]]] = []


def terrain_blocks_sight(shooter: Model, target: Model, board: Board) -> bool:
    """A terrain block that meets the interior of the sight triangle blocks line of sight (BH-GEO-8).

    Kept per board for each pair of positions: models stand still through a Shoot phase and most of a Move phase.
    """
    if not board.terrain:
        return False
    for seen, known in _SIGHT:
        if seen is board:
            break
    else:
        known = {}
        _SIGHT.insert(0, (board, known))
        del _SIGHT[2:]
    key = (shooter.x, shooter.y, target.x, target.y, target.r)
    found = known.get(key)
    if found is None:
        if len(known) > 50_000:
            known.clear()
        found = known[key] = _terrain_blocks_sight(shooter, target, board)
    return found


def _terrain_blocks_sight(shooter: Model, target: Model, board: Board) -> bool:
    t1x, t1y, t2x, t2y = _tangents(shooter.x, shooter.y, target.x, target.y, target.r)
    triangle = ((shooter.x, shooter.y), (t1x, t1y), (t2x, t2y))
    # a block clear of the triangle's box (by more than rounding) is clear of the triangle
    x_min, x_max = min(p[0] for p in triangle) - 1e-6, max(p[0] for p in triangle) + 1e-6
    y_min, y_max = min(p[1] for p in triangle) - 1e-6, max(p[1] for p in triangle) + 1e-6
    return any(
        _overlap_strictly(triangle, ((b.x0, b.y0), (b.x1, b.y0), (b.x1, b.y1), (b.x0, b.y1)))
        for b in board.terrain
        if not (b.x0 > x_max or b.x1 < x_min or b.y0 > y_max or b.y1 < y_min)
    )
