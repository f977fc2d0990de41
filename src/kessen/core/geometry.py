"""Round bases on a flat battlefield: distances, contact, swept moves, rectangles (units are the caller's).

Positions are floats (they are measurements, not probabilities). Every test of touching or overlapping
takes a tolerance ``eps`` so that bases placed exactly in contact stay in contact.
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


def gap(a: Point, ra: float, b: Point, rb: float) -> float:
    """Edge-to-edge distance between two round bases (negative when they overlap)."""
    return distance(a, b) - ra - rb


def in_contact(a: Point, ra: float, b: Point, rb: float, eps: float) -> bool:
    """Base contact: the gap is at most the tolerance."""
    return gap(a, ra, b, rb) <= eps


def overlapping(a: Point, ra: float, b: Point, rb: float, eps: float) -> bool:
    """Overlap: the bases cut into each other by more than the tolerance."""
    return gap(a, ra, b, rb) < -eps


def segment_point_distance(a: Point, b: Point, p: Point) -> float:
    """The least distance from *p* to the segment a–b."""
    ab = b - a
    length2 = ab.dot(ab)
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, (p - a).dot(ab) / length2))
    return distance(a + ab.scaled(t), p)


def swept_overlaps_base(a: Point, b: Point, r: float, centre: Point, r_other: float, eps: float) -> bool:
    """Whether a base of radius *r* moved from a to b passes through another base (by more than eps)."""
    return segment_point_distance(a, b, centre) - r - r_other < -eps


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
