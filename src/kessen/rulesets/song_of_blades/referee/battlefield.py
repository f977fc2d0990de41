"""The table in play: models on round bases, terrain, contact and moves (§5, SB-GEO-*); where a loser may recoil is
``recoiling``."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kessen.core.geometry import (
    Point,
    Rect,
    base_gap,
    bases_touch,
    beyond,
    first_touch,
    segment_enters_rect,
    sweep_overlaps,
    swept_overlaps_rect,
)
from kessen.core.records import evolver, picklable
from kessen.rulesets.song_of_blades.profiles import ModelState, Size

EPS = 1.0  # SB-GEO-2: tolerance in millimetres
STICKS_MM = {  # SB-GEO-7
    "28mm": {"short": 75.0, "medium": 120.0, "long": 180.0},
    "15mm": {"short": 50.0, "medium": 80.0, "long": 120.0},
}


@dataclass(frozen=True, slots=True)
class Figure:
    """One model on the table: its profile and where and how it stands (§3.1, §3.2)."""

    id: str
    side: str
    name: str
    points: int
    quality: int
    combat: int
    size: Size
    mounted: bool
    flying: bool
    move: str
    special_rules: tuple[str, ...]
    base_mm: int
    x: float
    y: float
    state: ModelState = "standing"
    # where the base's centre is and its radius, worked out once: every contact, move and recoil test reads them
    centre: Point = field(init=False, repr=False, compare=False)
    r: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "centre", Point(self.x, self.y))
        object.__setattr__(self, "r", self.base_mm / 2)

    @property
    def is_active(self) -> bool:
        """Standing: neither fallen nor transfixed (SB-DOWN-5)."""
        return self.state == "standing"

    def at(self, p: Point) -> Figure:
        return _moved_to(self, round(p.x, 6), round(p.y, 6))


_moved_to: Callable[[Figure, float, float], Figure] = evolver(Figure, "x", "y")


@dataclass(frozen=True, slots=True)
class Table:
    """The table and its terrain (§3.3, §3.4)."""

    width: float
    depth: float
    scale: str
    impassable: tuple[Rect, ...] = ()
    drops: tuple[tuple[Rect, int], ...] = ()
    high_ground: tuple[tuple[Rect, int], ...] = ()
    cover: tuple[Rect, ...] = ()
    obstacles: tuple[tuple[Point, Point], ...] = ()

    def stick(self, length: str) -> float:
        """A measuring stick's length in mm (SB-GEO-7)."""
        return STICKS_MM[self.scale][length]

    def on_table(self, p: Point, r: float) -> bool:
        """The centre lies at least r − ε from every edge (SB-GEO-1)."""
        return r - EPS <= p.x <= self.width - r + EPS and r - EPS <= p.y <= self.depth - r + EPS

    def ground_height(self, p: Point) -> int:
        """The greatest high-ground height under a centre (SB-TERR-1)."""
        return max((h for rect, h in self.high_ground if rect.contains(p)), default=0)

    def stands_higher(self, a: Point, b: Point) -> bool:
        """Whether a model centred at a stands higher than one at b: the attacker's high ground (SB-TERR-1)."""
        return self.ground_height(a) > self.ground_height(b)

    def cover_at(self, p: Point) -> int | None:
        """The index of a cover rectangle holding the centre, if any (SB-TERR-2)."""
        return next((i for i, rect in enumerate(self.cover) if rect.contains(p)), None)

    def across_obstacle(self, a: Point, b: Point) -> bool:
        """Whether the line between two centres crosses an obstacle segment (SB-TERR-3)."""
        return any(_segments_cross(a, b, p, q) for p, q in self.obstacles)

    def path_blocked_by_terrain(self, a: Point, b: Point, r: float) -> bool:
        """A base swept from a to b overlaps impassable terrain (SB-GEO-4)."""
        if not self.impassable:
            return False  # most tables have none: the question costs nothing there
        return any(swept_overlaps_rect(a, b, r, rect, EPS) for rect in _near_box(self.impassable, a, b, r))

    def drop_entry(self, a: Point, b: Point) -> tuple[float, int] | None:
        """Where (fraction of the path) a centre path first meets a drop area, and its depth (SB-GEO-4)."""
        if not self.drops:
            return None
        hits = [
            (t, depth)
            for rect, depth in self.drops
            if _boxes_meet(rect, a, b, 0.0) and (t := segment_enters_rect(a, b, rect)) is not None
        ]
        return min(hits) if hits else None


def _boxes_meet(rect: Rect, a: Point, b: Point, r: float) -> bool:
    """Whether a rectangle meets the bounding box of the segment a–b grown by r: when it does not, it is more
    than r from every point of the segment, so no base of radius r moved along it can touch the rectangle."""
    return rect.x0 <= max(a.x, b.x) + r and rect.x1 >= min(a.x, b.x) - r and rect.y0 <= max(a.y, b.y) + r and rect.y1 >= min(a.y, b.y) - r


def _near_box(rects: tuple[Rect, ...], a: Point, b: Point, r: float) -> tuple[Rect, ...]:
    return tuple(rect for rect in rects if _boxes_meet(rect, a, b, r))


def gap_between(a: Figure, b: Figure) -> float:
    """The gap between two bases, negative when they overlap (SB-GEO-2)."""
    return base_gap(a.x, a.y, a.r, b.x, b.y, b.r)


def edge_distance(a: Figure, b: Figure) -> float:
    """Distance base edge to base edge, never negative (SB-GEO-8)."""
    return max(0.0, gap_between(a, b))


def touching(a: Figure, b: Figure) -> bool:
    """Base contact (SB-GEO-3)."""
    return bases_touch(a.x, a.y, a.r, b.x, b.y, b.r, EPS)


def enemies_in_contact(figures: tuple[Figure, ...], f: Figure) -> tuple[Figure, ...]:
    """The enemies in base contact with f (SB-MELEE-1, SB-MELEE-2)."""
    return tuple(o for o in figures if o.side != f.side and o.id != f.id and touching(f, o))


def near(figures: tuple[Figure, ...], f: Figure, reach: float) -> tuple[Figure, ...]:
    """The other figures whose bases come within *reach* of f's base: the only ones a move or a recoil of f
    no longer than *reach* can touch or overlap, so the others need no geometry at all."""
    return tuple(o for o in figures if o.id != f.id and _within(f, o, reach))


def _within(f: Figure, o: Figure, reach: float) -> bool:
    """``gap_between(f, o) <= reach``, measured only when the square of the centres' distance leaves it unsettled
    (``geometry.beyond``: the same answer, without a call of ``math.hypot`` for most pairs, issue 26)."""
    side = beyond(f.x - o.x, f.y - o.y, reach + f.r + o.r)
    if side != 0:
        return side < 0
    return gap_between(f, o) <= reach


def sweeps_over(a: Point, b: Point, r: float, o: Figure) -> bool:
    """Whether a base of radius r moved from a to b passes through o's base (SB-GEO-4, SB-MOVE-2)."""
    return sweep_overlaps(a.x, a.y, b.x, b.y, r, o.x, o.y, o.r, EPS)


def turned_step(c: Point, a: Point, degrees: float, length: float) -> Point:
    """The point *length* from c in the direction of the unit vector a turned counter-clockwise by *degrees*:
    ``c + a.rotated(degrees).scaled(length)`` worked step for step on the coordinates, one Point instead of three."""
    t = math.radians(degrees)
    cos, sin = math.cos(t), math.sin(t)
    return Point(c.x + (a.x * cos - a.y * sin) * length, c.y + (a.x * sin + a.y * cos) * length)


def sweep_is_clear(figures: tuple[Figure, ...], table: Table, f: Figure, dest: Point) -> bool:
    """f's base moved in a straight line to dest overlaps no other model and no impassable terrain (SB-MOVE-2)."""
    c, r = f.centre, f.r
    for o in near(figures, f, math.hypot(dest.x - f.x, dest.y - f.y) + EPS):
        if sweeps_over(c, dest, r, o):
            return False
    return not table.path_blocked_by_terrain(c, dest, r)


def blocker(figures: tuple[Figure, ...], table: Table, f: Figure, dest: Point) -> str | None:
    """What f's base swept to dest overlaps first, in the words of a refusal (``orc-1's base``, ``impassable
    terrain``), or None when :func:`sweep_is_clear`."""
    return first_blocker(near(figures, f, math.hypot(dest.x - f.x, dest.y - f.y) + EPS), table, f, dest)


def first_blocker(nearby: Sequence[Figure], table: Table, f: Figure, dest: Point) -> str | None:
    """:func:`blocker` among *nearby*, the figures whose bases come within reach of the sweep (:func:`near`)."""
    c, r = f.centre, f.r
    hit = [((o.centre - c).dot(dest - c), o.id) for o in nearby if sweeps_over(c, dest, r, o)]
    if hit:
        return f"{min(hit)[1]}'s base"
    return "impassable terrain" if table.path_blocked_by_terrain(c, dest, r) else None


def free_run(figures: tuple[Figure, ...], table: Table, f: Figure, direction: Point, length: float) -> float:
    """How far f can slide along a unit direction (≤ length) before overlapping a model or impassable terrain."""
    run = length
    c, r = f.centre, f.r
    for o in near(figures, f, length + EPS):
        t = first_touch(c, direction, r, o.centre, o.r, EPS)
        if t is not None:
            run = min(run, t)
    # terrain: shrink by bisection (rectangles rarely matter; precision 0.01 mm)
    if table.path_blocked_by_terrain(f.centre, f.centre + direction.scaled(run), f.r):
        lo, hi = 0.0, run
        while hi - lo > 0.01:
            mid = (lo + hi) / 2
            if table.path_blocked_by_terrain(f.centre, f.centre + direction.scaled(mid), f.r):
                hi = mid
            else:
                lo = mid
        run = lo
    # keep 0.01 mm short of the limit, so that destinations rounded for the log (to 0.001 mm) stay legal
    return max(0.0, run - 0.01)


@dataclass(frozen=True, slots=True)
class RecoilOption:
    """One way a loser may recoil (SB-GEO-5, SB-GEO-6): a step, a jump over a friend, or over a drop edge; (x, y) is
    where it ends (for a drop, where it lands)."""

    kind: str  # "step", "jump" or "drop"
    k: int | None  # the candidate of SB-GEO-5 (turned 15° × k from straight away), or None for any other spot
    x: float
    y: float
    drop_mm: int = 0

    @property
    def destination(self) -> Point:
        return Point(self.x, self.y)


picklable(Figure, Table, RecoilOption)  # pickled and copied through their init fields (issue 22 §1)


def _segments_cross(a: Point, b: Point, p: Point, q: Point) -> bool:
    def orient(o: Point, s: Point, t: Point) -> float:
        return (s.x - o.x) * (t.y - o.y) - (s.y - o.y) * (t.x - o.x)

    d1, d2 = orient(p, q, a), orient(p, q, b)
    d3, d4 = orient(a, b, p), orient(a, b, q)
    return (d1 * d2 < 0) and (d3 * d4 < 0)
