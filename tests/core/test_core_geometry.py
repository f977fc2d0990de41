"""Round bases on a flat table (kessen.core.geometry): gaps, contact tolerance, swept moves, rectangles."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.core.geometry import (
    Point,
    Rect,
    base_gap,
    bases_overlap,
    bases_touch,
    beyond,
    distance,
    first_touch,
    gap,
    in_contact,
    overlapping,
    reaches,
    segment_enters_rect,
    segment_point_distance,
    segment_distance,
    segment_rect_distance,
    swept_overlaps_base,
    swept_overlaps_rect,
    sweep_overlaps,
)

coords = st.floats(-500, 500, allow_nan=False, allow_infinity=False)
points = st.builds(Point, coords, coords)
radii = st.floats(1, 60)


def test_core_geometry_point_algebra() -> None:
    """Vectors add, scale, rotate counter-clockwise and normalise; the zero vector has no direction."""
    assert Point(1, 2) + Point(3, 4) == Point(4, 6) and Point(3, 4) - Point(1, 2) == Point(2, 2)
    assert Point(3, 4).length() == 5.0 and Point(3, 4).unit() == Point(0.6, 0.8)
    r = Point(1, 0).rotated(90)
    assert (r.x, r.y) == pytest.approx((0.0, 1.0))
    r = Point(1, 0).rotated(-15 * 6)
    assert (r.x, r.y) == pytest.approx((0.0, -1.0))
    assert Point(1.23456, 2.0004).rounded(3) == Point(1.235, 2.0)
    with pytest.raises(ValueError):
        Point(0, 0).unit()


def test_core_geometry_point_is_a_value() -> None:
    """Equal coordinates, equal Points with one hash (dict keys, sets); a Point equals nothing else; its repr names
    its coordinates; it unpacks by position in a match."""
    assert Point(1.0, 2.5) == Point(1.0, 2.5) and Point(1.0, 2.5) != Point(2.5, 1.0)
    assert hash(Point(1.0, 2.5)) == hash(Point(1.0, 2.5)) and len({Point(0.0, 0.0), Point(0.0, 0.0), Point(0.0, 1.0)}) == 2
    assert Point(1.0, 2.0) != (1.0, 2.0) and Point(0.0, 0.0) != Rect(0.0, 0.0, 0.0, 0.0)
    assert repr(Point(1.0, -2.5)) == "Point(x=1.0, y=-2.5)"
    match Point(3.0, 4.0):
        case Point(x, y):
            assert (x, y) == (3.0, 4.0)


def test_core_geometry_gap_contact_overlap_tolerance() -> None:
    """gap = centre distance − radii; contact when gap ≤ eps (exactly touching included), overlap when gap < −eps."""
    a = Point(0, 0)
    assert gap(a, 12.5, Point(25, 0), 12.5) == 0.0
    assert gap(a, 12.5, Point(30, 40), 12.5) == 25.0
    assert in_contact(a, 12.5, Point(25, 0), 12.5, 1.0)
    assert in_contact(a, 12.5, Point(26, 0), 12.5, 1.0) and not in_contact(a, 12.5, Point(26.01, 0), 12.5, 1.0)
    assert not overlapping(a, 12.5, Point(24, 0), 12.5, 1.0) and overlapping(a, 12.5, Point(23.99, 0), 12.5, 1.0)
    assert in_contact(a, 12.5, Point(20, 0), 12.5, 1.0)  # overlapping bases are in contact too
    assert distance(Point(1, 1), Point(4, 5)) == 5.0


@given(points, radii, points, radii, points)
def test_core_geometry_the_float_measures_are_the_point_algebra_to_the_last_bit(a: Point, ra: float, b: Point, rb: float, p: Point) -> None:
    """Issue 27 §4: the one implementation on plain floats makes the same operations in the same order as the vector
    algebra on Points, so an engine asking either gets the same float (the golden event logs depend on it)."""
    assert base_gap(a.x, a.y, ra, b.x, b.y, rb) == (a - b).length() - ra - rb
    ab = b - a
    length2 = ab.dot(ab)
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, (p - a).dot(ab) / length2))
    assert segment_distance(a.x, a.y, b.x, b.y, p.x, p.y) == (a + ab.scaled(t) - p).length()


def test_core_geometry_segment_point_distance() -> None:
    """The least distance from a point to a segment: perpendicular inside, to an end outside; a zero segment is a point."""
    assert segment_point_distance(Point(0, 0), Point(10, 0), Point(5, 3)) == 3.0
    assert segment_point_distance(Point(0, 0), Point(10, 0), Point(13, 4)) == 5.0
    assert segment_point_distance(Point(0, 0), Point(10, 0), Point(-3, -4)) == 5.0
    assert segment_point_distance(Point(2, 2), Point(2, 2), Point(5, 6)) == 5.0


def test_core_geometry_swept_overlap_of_bases() -> None:
    """A base moved along a segment overlaps another when it passes closer than r + r' − eps: the SC-2 case of a
    25 mm base passing a friend at 15° × 5 is a least gap of −0.85 mm, within eps = 1."""
    c, friend = Point(125, 100), Point(150, 100)
    u5 = Point(1, 0).rotated(75)
    end = c + u5.scaled(25)
    assert segment_point_distance(c, end, friend) - 25 == pytest.approx(-0.85, abs=0.01)
    assert not swept_overlaps_base(c, end, 12.5, friend, 12.5, 1.0)
    assert swept_overlaps_base(c, end, 12.5, friend, 12.5, 0.5)
    assert swept_overlaps_base(c, Point(150, 100), 12.5, Point(170, 110), 12.5, 1.0)
    assert not swept_overlaps_base(Point(0, 0), Point(100, 0), 12.5, Point(50, 24), 12.5, 1.0)


def test_core_geometry_rect_contains_and_distance() -> None:
    """A closed rectangle contains its boundary; its distance is 0 inside, else to the nearest point."""
    r = Rect(0, 0, 10, 20)
    assert r.contains(Point(10, 20)) and r.contains(Point(0, 5)) and not r.contains(Point(10.001, 5))
    assert r.distance_to(Point(5, 5)) == 0.0 and r.distance_to(Point(13, 24)) == 5.0 and r.distance_to(Point(-2, 10)) == 2.0
    assert set(r.corners()) == {Point(0, 0), Point(10, 0), Point(10, 20), Point(0, 20)}


def test_core_geometry_segment_enters_rect() -> None:
    """Liang–Barsky: the fraction of the way where the segment first meets the closed rectangle, 0 when it starts
    inside, None when it never meets it (also when parallel outside); touching the boundary counts."""
    r = Rect(10, 10, 20, 20)
    assert segment_enters_rect(Point(0, 15), Point(20, 15), r) == pytest.approx(0.5)
    assert segment_enters_rect(Point(15, 15), Point(40, 40), r) == 0.0
    assert segment_enters_rect(Point(0, 5), Point(40, 5), r) is None
    assert segment_enters_rect(Point(0, 0), Point(10, 10), r) == pytest.approx(1.0)  # ends on the corner
    assert segment_enters_rect(Point(0, 15), Point(9.99, 15), r) is None
    assert segment_enters_rect(Point(15, 0), Point(15, 40), r) == pytest.approx(0.25)
    assert segment_enters_rect(Point(30, 30), Point(0, 0), r) == pytest.approx(1 / 3)


def test_core_geometry_segment_rect_distance_and_swept_rect() -> None:
    """The least distance between a segment and a rectangle; a swept base overlaps a rectangle when it comes within
    r − eps of it (SB-GEO-4)."""
    r = Rect(10, 10, 20, 20)
    assert segment_rect_distance(Point(0, 0), Point(0, 30), r) == 10.0
    assert segment_rect_distance(Point(0, 15), Point(40, 15), r) == 0.0
    assert segment_rect_distance(Point(0, 45), Point(45, 0), r) == pytest.approx(5 / math.sqrt(2))  # to corner (20, 20)
    assert segment_rect_distance(Point(25, 30), Point(30, 25), r) == pytest.approx(math.dist((20, 20), (27.5, 27.5)))
    assert not swept_overlaps_rect(Point(0, 0), Point(0, 30), 11.0, r, 1.0)  # 10 ≥ 11 − 1
    assert swept_overlaps_rect(Point(0, 0), Point(0, 30), 11.01, r, 1.0)


@settings(max_examples=150, deadline=None)
@given(a=points, b=points, rect_at=points, w=st.floats(1, 100), h=st.floats(1, 100))
def test_core_geometry_segment_rect_distance_matches_sampling(a: Point, b: Point, rect_at: Point, w: float, h: float) -> None:
    """The segment–rectangle distance equals the least distance over densely sampled points of the segment (to
    within the sampling step), and is 0 exactly when Liang–Barsky finds an entry."""
    r = Rect(rect_at.x, rect_at.y, rect_at.x + w, rect_at.y + h)
    n = 2000
    sampled = min(r.distance_to(a + (b - a).scaled(i / n)) for i in range(n + 1))
    exact = segment_rect_distance(a, b, r)
    step = (b - a).length() / n
    assert exact <= sampled + 1e-9
    assert sampled - exact <= step + 1e-9
    assert (exact == 0.0) == (segment_enters_rect(a, b, r) is not None)


def test_core_geometry_first_touch() -> None:
    """first_touch: how far a base slides before it would overlap another by more than eps: at gap −eps; None when
    moving away or passing by; 0 when already overlapping and moving in."""
    assert first_touch(Point(0, 0), Point(1, 0), 12.5, Point(100, 0), 12.5, 1.0) == pytest.approx(76.0)
    assert first_touch(Point(0, 0), Point(-1, 0), 12.5, Point(100, 0), 12.5, 1.0) is None
    assert first_touch(Point(0, 0), Point(1, 0), 12.5, Point(50, 30), 12.5, 1.0) is None  # 30 > 24: passes by
    assert first_touch(Point(0, 0), Point(1, 0), 12.5, Point(50, 24), 12.5, 1.0) is None  # grazes at −eps: no overlap
    assert first_touch(Point(0, 0), Point(1, 0), 12.5, Point(25, 0), 12.5, 1.0) == pytest.approx(1.0)  # touching: 1 mm in
    assert first_touch(Point(0, 0), Point(-1, 0), 12.5, Point(25, 0), 12.5, 1.0) is None  # touching, moving away
    assert first_touch(Point(0, 0), Point(1, 0), 12.5, Point(20, 0), 12.5, 1.0) == 0.0  # overlapping already


@settings(max_examples=150, deadline=None)
@given(start=points, angle=st.floats(0, 360), r=radii, other=points, r2=radii)
def test_core_geometry_first_touch_agrees_with_swept_overlap(start: Point, angle: float, r: float, other: Point, r2: float) -> None:
    """Sliding to just short of first_touch never overlaps; sliding a little past it does (for a base that starts
    clear of the other)."""
    eps = 1.0
    if gap(start, r, other, r2) <= -eps + 1e-9:
        return  # overlapping, or exactly at the limit (the tangent case has its own test below)
    direction = Point(1, 0).rotated(angle)
    t = first_touch(start, direction, r, other, r2, eps)
    if t is None:
        assert not swept_overlaps_base(start, start + direction.scaled(2000), r, other, r2, eps)
        return
    assert not swept_overlaps_base(start, start + direction.scaled(max(0.0, t - 1e-6)), r, other, r2, eps)
    assert swept_overlaps_base(start, start + direction.scaled(t + 0.01), r, other, r2, eps)


def test_core_geometry_first_touch_tangent_path_is_free() -> None:
    """A base at gap exactly −eps from another, sliding along the tangent, never cuts deeper: it is not blocked
    (swept_overlaps_base agrees), so first_touch should answer None, not 0."""
    start, other = Point(0, 0), Point(0, 24)
    assert not swept_overlaps_base(start, Point(50, 0), 12.5, other, 12.5, 1.0)
    assert first_touch(start, Point(1, 0), 12.5, other, 12.5, 1.0) is None


@settings(max_examples=500)
@given(st.floats(-500, 500), st.floats(-500, 500), st.floats(0, 60), st.floats(-5, 60), st.floats(0, 0.1))
def test_core_geometry_squares_answer_as_hypot_does(dx: float, dy: float, r: float, reach: float, eps: float) -> None:
    """beyond and the tests read off squares (issue 26) answer every comparison exactly as math.hypot's does."""
    side = beyond(dx, dy, reach)
    if side != 0:
        assert (math.hypot(dx, dy) > reach) == (side > 0)
    assert reaches(dx, dy, r, reach) == (math.hypot(dx, dy) - r <= reach)
    assert bases_touch(dx, dy, r, 0.0, 0.0, reach, eps) == (base_gap(dx, dy, r, 0.0, 0.0, reach) <= eps)
    assert bases_overlap(dx, dy, r, 0.0, 0.0, reach, eps) == (base_gap(dx, dy, r, 0.0, 0.0, reach) < -eps)
    assert sweep_overlaps(0.0, 0.0, dx, dy, r, reach, 1.0, 0.5, eps) == (segment_distance(0.0, 0.0, dx, dy, reach, 1.0) - r - 0.5 < -eps)


def test_core_geometry_squares_leave_the_edge_to_hypot() -> None:
    """On the limit, or within a billionth of it, beyond settles nothing: hypot measures it."""
    assert beyond(3.0, 4.0, 5.0) == 0
    assert beyond(3.0, 4.0, 5.0 + 1e-12) == 0
    assert beyond(3.0, 4.0, 5.0 - 1e-6) == 1
    assert beyond(3.0, 4.0, 5.0 + 1e-6) == -1
    assert reaches(3.0, 4.0, 1.0, 4.0) and not reaches(3.0, 4.0, 1.0, 4.0 - 1e-15 * 4)
