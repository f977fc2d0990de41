"""Round bases on a flat battlefield: distances, contact, swept moves, rectangles (units are the caller's).

Positions are floats (they are measurements, not probabilities). Every test of touching or overlapping takes a
tolerance ``eps`` so that bases placed exactly in contact stay in contact: each ruleset passes its own.

Each measure is written once, on plain floats (a base is its centre's x, y and its radius), for the hot paths of the
engines, which ask it of their models' own coordinates without making Points (``base_gap``, ``bases_touch``,
``bases_overlap``, ``segment_distance``, ``sweep_overlaps``); the forms on Points (``gap``, ``in_contact``,
``overlapping``, ``segment_point_distance``, ``swept_overlaps_base``) call them, so both give the same floats.
"""

from __future__ import annotations

import math
from typing import ClassVar, Final, final

from kessen.core.records import record


@final
class Point:
    """A point, or a vector, on the table: a value like a record (equal coordinates, equal and hashable Points).

    Not a ``@record``: every move, contact and recoil test makes Points by the thousand, so Point is a plain class
    that mypyc compiles as a native one (issue 13 §3): made and read as a C struct, about four times cheaper than a
    frozen dataclass. Its coordinates are ``Final``: mypy refuses a write, and the compiled class refuses one at run
    time too (``AttributeError``).
    """

    __slots__ = ("x", "y")
    __match_args__: ClassVar[tuple[str, str]] = ("x", "y")  # a ClassVar: mypyc would make it a per-object field

    def __init__(self, x: float, y: float) -> None:
        self.x: Final = x
        self.y: Final = y

    def __repr__(self) -> str:
        return f"Point(x={self.x!r}, y={self.y!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        return self.x == other.x and self.y == other.y

    def __hash__(self) -> int:
        return hash((self.x, self.y))

    def __reduce__(self) -> tuple[type[Point], tuple[float, float]]:
        # pickle and copy make it again from its coordinates: the compiled class's __new__ calls __init__ (issue 22)
        return Point, (self.x, self.y)

    def __add__(self, other: Point) -> Point:
        return Point(self.x + other.x, self.y + other.y)

    def __sub__(self, other: Point) -> Point:
        return Point(self.x - other.x, self.y - other.y)

    def scaled(self, k: float) -> Point:
        return Point(self.x * k, self.y * k)

    def dot(self, other: Point) -> float:
        return self.x * other.x + self.y * other.y

    def length(self) -> float:
        return math.hypot(self.x, self.y)

    def unit(self) -> Point:
        n = self.length()
        if n == 0:
            raise ValueError("the zero vector has no direction")
        return Point(self.x / n, self.y / n)

    def rotated(self, degrees: float) -> Point:
        """Rotated counter-clockwise by *degrees*."""
        a = math.radians(degrees)
        c, s = math.cos(a), math.sin(a)
        return Point(self.x * c - self.y * s, self.x * s + self.y * c)

    def rounded(self, places: int = 3) -> Point:
        return Point(round(self.x, places), round(self.y, places))


@record
class Rect:
    """An axis-aligned rectangle [x0, x1] × [y0, y1]."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point) -> bool:
        return self.x0 <= p.x <= self.x1 and self.y0 <= p.y <= self.y1

    def distance_to(self, p: Point) -> float:
        """0 inside, else the distance to the nearest point of the rectangle."""
        dx = max(self.x0 - p.x, 0.0, p.x - self.x1)
        dy = max(self.y0 - p.y, 0.0, p.y - self.y1)
        return math.hypot(dx, dy)

    def corners(self) -> tuple[Point, ...]:
        return (Point(self.x0, self.y0), Point(self.x1, self.y0), Point(self.x1, self.y1), Point(self.x0, self.y1))


def distance(a: Point, b: Point) -> float:
    return (a - b).length()


# --- round bases on plain floats: the one implementation of each measure -----------------------------------------


def beyond(dx: float, dy: float, limit: float) -> int:
    """Whether the length of (dx, dy) is beyond *limit*, read off its square where that settles it: 1 when surely
    longer, -1 when surely shorter, 0 when within a billionth of *limit* (then measure it with ``math.hypot``).

    A test such as ``math.hypot(dx, dy) - r <= reach`` then answers as it always did without calling ``math.hypot``
    (a Python call from the compiled engine, issue 26) unless the two sides are within that margin: the square and
    the sums round by about 1e-16 of their size, ten million times less than the margin.

    >>> beyond(3.0, 4.0, 4.9), beyond(3.0, 4.0, 5.1), beyond(3.0, 4.0, 5.0)
    (1, -1, 0)
    """
    margin = abs(limit) * 1e-9 + 1e-12
    d2 = dx * dx + dy * dy
    above = limit + margin
    if above > 0 and d2 > above * above:
        return 1
    below = limit - margin
    if below > 0 and d2 < below * below:
        return -1
    return 0


def reaches(dx: float, dy: float, r: float, reach: float) -> bool:
    """``math.hypot(dx, dy) - r <= reach``, answered as that test answers (:func:`beyond`): a base of radius *r*
    centred (dx, dy) away comes within *reach*."""
    side = beyond(dx, dy, reach + r)
    if side != 0:
        return side < 0
    return math.hypot(dx, dy) - r <= reach


def base_gap(ax: float, ay: float, ar: float, bx: float, by: float, br: float) -> float:
    """Edge-to-edge distance between a base of radius *ar* centred at (ax, ay) and one of radius *br* at (bx, by),
    negative when they overlap."""
    return math.hypot(ax - bx, ay - by) - ar - br


def bases_touch(ax: float, ay: float, ar: float, bx: float, by: float, br: float, eps: float) -> bool:
    """Base contact: the gap is at most the tolerance (bases that overlap are in contact too)."""
    side = beyond(ax - bx, ay - by, eps + ar + br)
    if side != 0:
        return side < 0
    return base_gap(ax, ay, ar, bx, by, br) <= eps


def bases_overlap(ax: float, ay: float, ar: float, bx: float, by: float, br: float, eps: float) -> bool:
    """Overlap: the bases cut into each other by more than the tolerance."""
    side = beyond(ax - bx, ay - by, ar + br - eps)
    if side != 0:
        return side < 0
    return base_gap(ax, ay, ar, bx, by, br) < -eps


def segment_distance(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """The least distance from (px, py) to the segment (ax, ay)–(bx, by)."""
    ex, ey = segment_offset(ax, ay, bx, by, px, py)
    return math.hypot(ex, ey)


def segment_offset(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> tuple[float, float]:
    """The vector from (px, py) to the nearest point of the segment (ax, ay)–(bx, by)."""
    abx, aby = bx - ax, by - ay
    length2 = abx * abx + aby * aby
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * abx + (py - ay) * aby) / length2))
    return ax + abx * t - px, ay + aby * t - py


def sweep_overlaps(
    ax: float, ay: float, bx: float, by: float, r: float, ox: float, oy: float, r_other: float, eps: float
) -> bool:
    """Whether a base of radius *r* moved from (ax, ay) to (bx, by) passes through a base of radius *r_other* at
    (ox, oy), cutting into it by more than eps."""
    ex, ey = segment_offset(ax, ay, bx, by, ox, oy)
    side = beyond(ex, ey, r + r_other - eps)
    if side != 0:
        return side < 0
    return math.hypot(ex, ey) - r - r_other < -eps


# --- the same on Points ----------------------------------------------------------------------------------------------


def gap(a: Point, ra: float, b: Point, rb: float) -> float:
    """Edge-to-edge distance between two round bases (negative when they overlap)."""
    return base_gap(a.x, a.y, ra, b.x, b.y, rb)


def in_contact(a: Point, ra: float, b: Point, rb: float, eps: float) -> bool:
    """Base contact: the gap is at most the tolerance."""
    return bases_touch(a.x, a.y, ra, b.x, b.y, rb, eps)


def overlapping(a: Point, ra: float, b: Point, rb: float, eps: float) -> bool:
    """Overlap: the bases cut into each other by more than the tolerance."""
    return bases_overlap(a.x, a.y, ra, b.x, b.y, rb, eps)


def segment_point_distance(a: Point, b: Point, p: Point) -> float:
    """The least distance from *p* to the segment a–b."""
    return segment_distance(a.x, a.y, b.x, b.y, p.x, p.y)


def swept_overlaps_base(a: Point, b: Point, r: float, centre: Point, r_other: float, eps: float) -> bool:
    """Whether a base of radius *r* moved from a to b passes through another base (by more than eps)."""
    return sweep_overlaps(a.x, a.y, b.x, b.y, r, centre.x, centre.y, r_other, eps)


def segment_rect_distance(a: Point, b: Point, rect: Rect) -> float:
    """The least distance between the segment a–b and a rectangle (0 when they meet)."""
    if segment_enters_rect(a, b, rect) is not None:
        return 0.0
    ends = min(rect.distance_to(a), rect.distance_to(b))
    corners = min(segment_point_distance(a, b, c) for c in rect.corners())
    return min(ends, corners)


def swept_overlaps_rect(a: Point, b: Point, r: float, rect: Rect, eps: float) -> bool:
    """Whether a base of radius *r* moved from a to b cuts into a rectangle by more than eps."""
    return segment_rect_distance(a, b, rect) < r - eps


def segment_enters_rect(a: Point, b: Point, rect: Rect) -> float | None:
    """The fraction t ∈ [0, 1] of the way from a to b where the segment first meets the closed
    rectangle (Liang–Barsky), or None when it never does."""
    t0, t1 = 0.0, 1.0
    d = b - a
    for p, q in ((-d.x, a.x - rect.x0), (d.x, rect.x1 - a.x), (-d.y, a.y - rect.y0), (d.y, rect.y1 - a.y)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return t0


def first_touch(start: Point, direction: Point, r: float, centre: Point, r_other: float, eps: float) -> float | None:
    """How far a base of radius r can slide from *start* along the unit *direction* before it would
    overlap a base at *centre* by more than eps (None when it never would, or is moving away)."""
    reach = r + r_other - eps
    rel = start - centre
    b = rel.dot(direction)
    c = rel.dot(rel) - reach * reach
    disc = b * b - c
    if disc <= 0:
        return None  # never within reach, or only grazing it at one point
    t = -b - math.sqrt(disc)
    if t < 0:
        return None if -b + math.sqrt(disc) <= 0 or c >= 0 else 0.0
    return t
