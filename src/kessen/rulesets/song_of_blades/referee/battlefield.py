"""The table in play: models on round bases, terrain, contact, moves and recoil geometry (§5, SB-GEO-*)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

from kessen.core.geometry import (
    Point,
    Rect,
    first_touch,
    in_contact,
    overlapping,
    segment_enters_rect,
    segment_point_distance,
    swept_overlaps_base,
    swept_overlaps_rect,
)
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

    @property
    def centre(self) -> Point:
        return Point(self.x, self.y)

    @property
    def r(self) -> float:
        return self.base_mm / 2

    @property
    def is_active(self) -> bool:
        """Standing: neither fallen nor transfixed (SB-DOWN-5)."""
        return self.state == "standing"

    def at(self, p: Point) -> Figure:
        return replace(self, x=round(p.x, 6), y=round(p.y, 6))


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
        return any(swept_overlaps_rect(a, b, r, rect, EPS) for rect in _near_box(self.impassable, a, b, r))

    def drop_entry(self, a: Point, b: Point) -> tuple[float, int] | None:
        """Where (fraction of the path) a centre path first meets a drop area, and its depth (SB-GEO-4)."""
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
    """The gap between two bases, negative when they overlap (SB-GEO-2); the sum ``geometry.gap`` makes, on the
    figures' own coordinates (the hot path of every contact test)."""
    return math.hypot(a.x - b.x, a.y - b.y) - a.base_mm / 2 - b.base_mm / 2


def edge_distance(a: Figure, b: Figure) -> float:
    """Distance base edge to base edge, never negative (SB-GEO-8)."""
    return max(0.0, gap_between(a, b))


def touching(a: Figure, b: Figure) -> bool:
    """Base contact (SB-GEO-3)."""
    return gap_between(a, b) <= EPS


def enemies_in_contact(figures: tuple[Figure, ...], f: Figure) -> tuple[Figure, ...]:
    """The enemies in base contact with f (SB-MELEE-1, SB-MELEE-2)."""
    return tuple(o for o in figures if o.side != f.side and o.id != f.id and gap_between(f, o) <= EPS)


def near(figures: tuple[Figure, ...], f: Figure, reach: float) -> tuple[Figure, ...]:
    """The other figures whose bases come within *reach* of f's base: the only ones a move or a recoil of f
    no longer than *reach* can touch or overlap, so the others need no geometry at all."""
    return tuple(o for o in figures if o.id != f.id and gap_between(f, o) <= reach)


def sweep_is_clear(figures: tuple[Figure, ...], table: Table, f: Figure, dest: Point, *, ignore: frozenset[str] = frozenset()) -> bool:
    """f's base moved in a straight line to dest overlaps no other model and no impassable terrain (SB-MOVE-2)."""
    c, r = f.centre, f.r
    for o in near(figures, f, math.hypot(dest.x - f.x, dest.y - f.y) + EPS):
        if o.id not in ignore and swept_overlaps_base(c, dest, r, o.centre, o.r, EPS):
            return False
    return not table.path_blocked_by_terrain(c, dest, r)


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
    """One way a loser may recoil (SB-GEO-5, SB-GEO-6): a step, a jump over a friend, or over a drop edge."""

    kind: str  # "step", "jump" or "drop"
    k: int
    x: float
    y: float
    drop_mm: int = 0

    @property
    def destination(self) -> Point:
        return Point(self.x, self.y)


def recoil_options(figures: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> tuple[RecoilOption, ...]:
    """Every usable recoil, in the default policy's order (SB-RECOIL-1, -2, -5, SB-GEO-5, SB-GEO-6).

    Empty when the loser has none and must fall instead. First the steps and jump that touch no newly
    contacted active enemy, then those that do, then open drop candidates; smallest |k| first, k > 0 first.
    Only the models near the loser take part: a step goes one base depth d, a jump at most d + 2(r + r_F) past a
    friend of radius r_F, and a base further than that plus its own radius can neither block nor touch it.
    """
    widest = max(o.base_mm for o in figures) / 2
    reach = loser.base_mm + 3 * (loser.r + widest) + 2 * EPS
    return _recoil_options(near(figures, loser, reach), table, loser, winner)


@functools.lru_cache(maxsize=4096)
def _recoil_options(others: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> tuple[RecoilOption, ...]:
    c, r, d = loser.centre, loser.r, loser.base_mm
    a = (c - winner.centre).unit()
    figures = others + (loser,)
    before = {o.id for o in enemies_in_contact(figures, loser)}
    steps: list[RecoilOption] = []
    drops: list[RecoilOption] = []
    for k in range(-6, 7):
        u = a.rotated(15 * k)
        end = c + u.scaled(d)
        entry = table.drop_entry(c, end)
        if entry is not None:
            t, depth = entry
            edge = c + u.scaled(d * t)
            land = edge + u.scaled(r)
            if _clear(others, table, loser, edge) and (depth >= table.stick("short") or landing_is_clear(others, table, loser, land)):
                drops.append(RecoilOption("drop", k, round(land.x, 6), round(land.y, 6), depth))
            continue
        if _clear(others, table, loser, end) and table.on_table(end, r) and not in_contact(end, r, winner.centre, winner.r, EPS):
            steps.append(RecoilOption("step", k, round(end.x, 6), round(end.y, 6)))
    jump = _jump(others, table, loser, winner, a)
    if jump is not None:
        steps.append(jump)

    def newly_meets_active_enemy(option: RecoilOption) -> bool:
        moved = loser.at(option.destination)
        return any(o.is_active and o.id not in before for o in enemies_in_contact(others + (moved,), moved))

    def order(option: RecoilOption) -> tuple[int, int]:
        return (abs(option.k), 0 if option.k >= 0 else 1)

    quiet = sorted((o for o in steps if not newly_meets_active_enemy(o)), key=order)
    loud = sorted((o for o in steps if newly_meets_active_enemy(o)), key=order)
    return tuple(quiet + loud + sorted(drops, key=order))


def landing_is_clear(others: tuple[Figure, ...], table: Table, f: Figure, land: Point) -> bool:
    """Whether f can lie at the foot of a low drop: on the table, overlapping no model and no impassable terrain.

    [DECISION] SB-GEO-5 does not say where a survivor of a low drop (SB-FALL-1) may land; like a legal step, the
    landing point must be on the table and free, else that drop candidate is not open (a model may not be pushed
    off the table, SB-GEO-1, nor onto another base, SB-GEO-3).
    """
    if not table.on_table(land, f.r):
        return False
    if any(overlapping(land, f.r, o.centre, o.r, EPS) for o in others if o.id != f.id):
        return False
    return not any(rect.distance_to(land) < f.r - EPS for rect in table.impassable)


def _clear(others: tuple[Figure, ...], table: Table, f: Figure, end: Point) -> bool:
    return not any(swept_overlaps_base(f.centre, end, f.r, o.centre, o.r, EPS) for o in others) and not table.path_blocked_by_terrain(f.centre, end, f.r)


def _jump(others: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure, a: Point) -> RecoilOption | None:
    """The jump over a friend directly behind, on the straight-away line (SB-GEO-6)."""
    c, r, d = loser.centre, loser.r, loser.base_mm
    end = c + a.scaled(d)
    blockers = [o for o in others if swept_overlaps_base(c, end, r, o.centre, o.r, EPS)]
    if not blockers and not table.path_blocked_by_terrain(c, end, r):
        return None  # the plain step is not blocked by a model
    if not blockers:
        return None
    first = min(blockers, key=lambda o: (o.centre - c).dot(a))
    if first.side != loser.side:
        return None
    s = (first.centre - c).dot(a)
    h = segment_point_distance(c, c + a.scaled(1e9), first.centre)
    if not (s > 0 and h < first.r):
        return None
    t = max(d, s + math.sqrt((r + first.r) ** 2 - h * h))
    land = c + a.scaled(t)
    rest = tuple(o for o in others if o.id != first.id)
    if any(swept_overlaps_base(c, land, r, o.centre, o.r, EPS) for o in rest):
        return None
    if table.path_blocked_by_terrain(c, land, r) or not table.on_table(land, r) or table.drop_entry(c, land) is not None:
        return None
    if any(overlapping(land, r, o.centre, o.r, EPS) for o in others):
        return None
    return RecoilOption("jump", 0, round(land.x, 6), round(land.y, 6))


def _segments_cross(a: Point, b: Point, p: Point, q: Point) -> bool:
    def orient(o: Point, s: Point, t: Point) -> float:
        return (s.x - o.x) * (t.y - o.y) - (s.y - o.y) * (t.x - o.x)

    d1, d2 = orient(p, q, a), orient(p, q, b)
    d3, d4 = orient(a, b, p), orient(a, b, q)
    return (d1 * d2 < 0) and (d3 * d4 < 0)
