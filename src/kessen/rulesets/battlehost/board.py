"""Geometry: round bases in inches, contact, control zones, the board, the path test and sight (BH-GEO-1..5, BH-GEO-7, BH-GEO-8).

The direction away (BH-GEO-6) is in referee/backing_away.py, the geometry of moves (BH-MOVE-2..5) in referee/moves.py.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import replace

from kessen.core import board as core_board
from kessen.core.geometry import Point, Rect, segment_point_distance, segment_rect_distance
from kessen.core.records import record
from kessen.rulesets.battlehost.profiles import MissileWeapon
from kessen.rulesets.battlehost.rules.sides import Side

EPS = 0.01  # BH-GEO-3: contact tolerance in inches
MM_PER_INCH = 25.4
CONTROL_ZONE = 1.0  # BH-GEO-4
AHEAD = 1e-9  # BH-GEO-7 condition 1


@functools.lru_cache(maxsize=151)  # one entry per base size, 20-170 mm (BH-GEO-1)
def radius(base_mm: int) -> float:
    """A round base's radius in inches from its diameter in millimetres (BH-GEO-1).

    >>> round(radius(25), 7), round(radius(60), 7)
    (0.492126, 1.1811024)
    """
    return base_mm / MM_PER_INCH / 2


@record
class Model:
    """One model on the table: its profile, where it stands and how it fares (section 4)."""

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

    @property
    def centre(self) -> Point:
        return Point(self.x, self.y)

    @property
    def r(self) -> float:
        return radius(self.base_mm)

    @property
    def is_hero(self) -> bool:
        return self.type == "hero"

    def at(self, p: Point) -> Model:
        return replace(self, x=p.x, y=p.y)


@record
class Board:
    """The board and its impassable terrain blocks (BH-GEO-5)."""

    width: float
    height: float
    terrain: tuple[Rect, ...] = ()

    def on_board(self, p: Point, r: float) -> bool:
        """A base is on the board when r ≤ x ≤ width − r and r ≤ y ≤ height − r (BH-GEO-5)."""
        tol = 1e-9
        return r - tol <= p.x <= self.width - r + tol and r - tol <= p.y <= self.height - r + tol

    def overlaps_terrain(self, p: Point, r: float) -> bool:
        """A base overlaps a block when its centre is nearer than r − EPS to it (BH-GEO-5)."""
        return any(
            block.distance_to(p) < r - EPS
            for block in self.terrain
            if block.x0 < p.x + r and block.x1 > p.x - r and block.y0 < p.y + r and block.y1 > p.y - r
        )


# --- distances and contact (BH-GEO-2..4) ---------------------------------------------------------


def gap(a: Model, b: Model) -> float:
    """Edge-to-edge gap of two bases, negative when they overlap (BH-GEO-2)."""
    return math.hypot(a.x - b.x, a.y - b.y) - radius(a.base_mm) - radius(b.base_mm)


def distance(a: Model, b: Model) -> float:
    """The distance between two models: the gap, never below 0 (BH-GEO-2)."""
    return max(0.0, gap(a, b))


def in_base_contact(a: Model, b: Model) -> bool:
    """Bases touch when |gap| ≤ EPS (BH-GEO-3)."""
    return abs(gap(a, b)) <= EPS


def enemies_in_contact(models: Iterable[Model], m: Model) -> tuple[Model, ...]:
    """The enemy models in base contact with *m* (BH-GEO-3)."""
    return tuple(o for o in models if o.side != m.side and in_base_contact(o, m))


_ENGAGED: list[tuple[tuple[Model, ...], frozenset[str], dict[str, Model]]] = []


def _engaged_entry(models: tuple[Model, ...]) -> tuple[tuple[Model, ...], frozenset[str], dict[str, Model]]:
    for entry in _ENGAGED:
        if entry[0] is models:
            return entry
    entry = (models, _engaged(models), {m.id: m for m in models})
    _ENGAGED.insert(0, entry)
    del _ENGAGED[4:]
    return entry


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
    return _engaged_entry(models)[1]


def is_engaged(models: Iterable[Model], m: Model) -> bool:
    """In base contact with an enemy model (BH-SHOOT-2, BH-GEO-3)."""
    if isinstance(models, tuple):
        _, ids, by_id = _engaged_entry(models)
        if by_id.get(m.id) is m:
            return m.id in ids
    return bool(enemies_in_contact(models, m))


def has_control_zone(m: Model, engaged: frozenset[str]) -> bool:
    """Neither engaged nor prone models have a 1" control zone (BH-GEO-4, BH-MOVE-4); *engaged* holds every engaged
    model of the table."""
    return not m.prone and m.id not in engaged


def in_control_zone(m: Model, of: Model) -> bool:
    """Whether *m* is inside the control zone of *of*: nearer than 1" (BH-GEO-4)."""
    return distance(m, of) < CONTROL_ZONE


# --- the path test (BH-GEO-7) ----------------------------------------------------------------------


def blocking_models(mover: Model, p1: Point, models: Iterable[Model], *, ignore: frozenset[str] = frozenset()) -> tuple[Model, ...]:
    """The models that block *mover*'s straight move to *p1* (BH-GEO-7).

    X blocks when it lies ahead (its projection on the direction is beyond the start) and the
    moving base would come within EPS of it somewhere on the way.
    """
    x0, y0 = mover.x, mover.y
    dx, dy = p1.x - x0, p1.y - y0
    length = math.hypot(dx, dy)
    if length == 0:
        return ()
    ux, uy = dx / length, dy / length
    rm = radius(mover.base_mm)
    found = []
    for x in models:
        if x.id == mover.id or x.id in ignore:
            continue
        t = (x.x - x0) * ux + (x.y - y0) * uy
        if t <= AHEAD:
            continue
        reach = rm + radius(x.base_mm) + EPS
        tc = min(t, length)  # the nearest point of the segment (t > 0 already)
        if math.hypot(x0 + ux * tc - x.x, y0 + uy * tc - x.y) <= reach:
            found.append(x)
    return tuple(found)


def ground_blocks(r: float, p0: Point, p1: Point, board: Board) -> bool:
    """The board edge or a terrain block stops a straight move from p0 to p1 (BH-GEO-5, BH-GEO-7).

    A block farther than r + EPS from the box around the path cannot come that near the path itself; only the
    others are measured."""
    if not board.on_board(p1, r):
        return True
    margin = r + EPS + 1e-6
    x_min, x_max = min(p0.x, p1.x) - margin, max(p0.x, p1.x) + margin
    y_min, y_max = min(p0.y, p1.y) - margin, max(p0.y, p1.y) + margin
    for block in board.terrain:
        if block.x0 > x_max or block.x1 < x_min or block.y0 > y_max or block.y1 < y_min:
            continue
        along = segment_rect_distance(p0, p1, block)
        if along <= r + EPS and along < block.distance_to(p0):
            return True
    return False


def path_is_clear(mover: Model, p1: Point, models: Iterable[Model], board: Board, *, ignore: frozenset[str] = frozenset()) -> bool:
    """No model, board edge or terrain block blocks the move (BH-GEO-7)."""
    return not ground_blocks(mover.r, mover.centre, p1, board) and not blocking_models(mover, p1, models, ignore=ignore)


# --- sight (BH-GEO-8) --------------------------------------------------------------------------------


def tangent_points(shooter: Point, target: Point, r: float) -> tuple[Point, Point]:
    """Where the two tangents from the shooter's centre touch the target's base circle (BH-GEO-8).

    >>> a, b = tangent_points(Point(0, 0), Point(10, 0), radius(25))
    >>> round(a.x, 4), round(a.y, 4), round(b.y, 4)
    (9.9758, 0.4915, -0.4915)
    """
    v = target - shooter
    dist = v.length()
    half = math.degrees(math.asin(min(1.0, r / dist)))
    reach = math.sqrt(max(0.0, dist * dist - r * r))
    u = v.unit()
    return shooter + u.rotated(half).scaled(reach), shooter + u.rotated(-half).scaled(reach)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)


def _triangle_distance(p: Point, a: Point, b: Point, c: Point) -> float:
    """Distance from p to the filled triangle abc (0 inside)."""
    s1, s2, s3 = _cross(a, b, p), _cross(b, c, p), _cross(c, a, p)
    if (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0):
        return 0.0
    return min(segment_point_distance(a, b, p), segment_point_distance(b, c, p), segment_point_distance(c, a, p))


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
        to_base = max(0.0, (p - self.target).length() - self.r)
        return min(_triangle_distance(p, self.shooter, self.t1, self.t2), to_base)


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
    from that segment than both radii (less EPS) cannot reach into it: all pairs are screened so at once, and
    only the models that pass are tested in full.
    """
    if not targets:
        return frozenset()
    import numpy as np  # noqa: PLC0415 - numpy loads with the first battle, not with the odds

    xs = np.array([m.x for m in models])
    ys = np.array([m.y for m in models])
    rs = np.array([m.r for m in models])
    tx = np.array([t.x for t in targets])[:, None]
    ty = np.array([t.y for t in targets])[:, None]
    rt = np.array([t.r for t in targets])[:, None]
    dx, dy = tx - shooter.x, ty - shooter.y
    length2 = dx * dx + dy * dy
    along = np.clip(((xs - shooter.x) * dx + (ys - shooter.y) * dy) / np.where(length2 == 0, 1.0, length2), 0.0, 1.0)
    ex, ey = shooter.x + along * dx - xs, shooter.y + along * dy - ys
    reach = rt + rs - EPS + 1e-6  # 1e-6: a margin for rounding, so that no hiding model is screened out
    near = ex * ex + ey * ey < reach * reach
    hidden = set()
    areas: dict[int, SightArea] = {}
    for i, j in zip(*np.nonzero(near)):
        t, x = targets[int(i)], models[int(j)]
        if t.id in hidden or x.id in (shooter.id, t.id):
            continue
        area = areas.get(int(i)) or areas.setdefault(int(i), sight_area(shooter, t))
        if hides(x, area):
            hidden.add(t.id)
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
    t1, t2 = tangent_points(shooter.centre, target.centre, target.r)
    triangle = ((shooter.x, shooter.y), (t1.x, t1.y), (t2.x, t2.y))
    # a block clear of the triangle's box (by more than rounding) is clear of the triangle
    x_min, x_max = min(p[0] for p in triangle) - 1e-6, max(p[0] for p in triangle) + 1e-6
    y_min, y_max = min(p[1] for p in triangle) - 1e-6, max(p[1] for p in triangle) + 1e-6
    return any(
        _overlap_strictly(triangle, ((b.x0, b.y0), (b.x1, b.y0), (b.x1, b.y1), (b.x0, b.y1)))
        for b in board.terrain
        if not (b.x0 > x_max or b.x1 < x_min or b.y0 > y_max or b.y1 < y_min)
    )


# --- the battlefield as plain data (Game.board) -------------------------------------------------------------


def board_data(board: Board, models: Sequence[Model]) -> core_board.Board:
    """The battlefield for a picture of it (kessen.core.board), in inches: the board, its terrain blocks
    (``impassable``, BH-GEO-5) and every model with its base diameter, wounds and statuses (``prone``, ``engaged``)."""
    engaged = engaged_ids(tuple(models))
    return {
        "ruleset": "battlehost", "units": "inch", "width": board.width, "height": board.height, "sides": ["good", "evil"],
        "terrain": [
            {"kind": "impassable", "shape": "rect", "points": [[k.x0, k.y0], [k.x1, k.y1]], "height": None} for k in board.terrain
        ],
        "models": [
            {
                "id": m.id, "name": m.name, "side": m.side, "x": m.x, "y": m.y, "base": 2 * m.r, "footprint": None,
                "wounds": m.wounds_left, "wounds_max": m.wounds,
                "status": [s for s, on in (("prone", m.prone), ("engaged", m.id in engaged)) if on], "group": None,
            }
            for m in models
        ],
    }
