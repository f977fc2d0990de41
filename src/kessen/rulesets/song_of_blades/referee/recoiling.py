"""Where a loser may recoil: any legal spot, SB-GEO-5's thirteen candidates among them, and whether it has room at all
(SB-RECOIL-1, -2, -5, -6, SB-GEO-1, -4, -5, -6, SB-FALL-1).

The seed leaves the way back to the recoiling model's player ("how it recoils is the player's to decide"), so any
spot one base depth away from the winner that SB-GEO-5 would allow is legal, not only the candidates the default
policy ranks. [DECISION] A spot is judged as SB-GEO-5 judges a candidate, in its direction u from the loser's centre
(at most square to the winner, never toward it): a step ends one base depth away (within ε, so a person may name
it in whole millimetres); a path one base depth long that meets a drop area goes over the edge E and lands at
E + r·u (within ε); a jump over a friend directly behind lands where SB-GEO-6 puts it. A model has room to recoil
(SB-RECOIL-5) when any direction gives a legal spot: the candidates are tried first, then every stretch of
directions between the angles where a base, a wall, the table edge, the winner's contact or a drop begins or stops
mattering (the room search), so that a gap between the candidates' directions is not missed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator

from kessen.core.errors import IllegalChoice
from kessen.core.geometry import (
    Point,
    Rect,
    in_contact,
    overlapping,
    segment_enters_rect,
    segment_point_distance,
    swept_overlaps_rect,
)
from kessen.core.measures import apart
from kessen.core.notation import point
from kessen.rulesets.song_of_blades.referee.battlefield import (
    EPS,
    Figure,
    RecoilOption,
    Table,
    blocker,
    enemies_in_contact,
    gap_between,
    near,
    sweeps_over,
    turned_step,
)
from kessen.rulesets.song_of_blades.referee.placement import placement

# the room search first looks at every whole degree, then finds each change to a millionth of a degree
GRID_DEGREES = 1.0
PRECISION_DEGREES = 1e-6


def recoil_options(figures: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> tuple[RecoilOption, ...]:
    """The legal candidates of SB-GEO-5 and SB-GEO-6, in the default policy's order: first the steps and jump that
    touch no newly contacted active enemy, then those that do, then open drop candidates; smallest |k| first, k > 0
    first."""
    return _recoiling(figures, table, loser, winner).candidates


def recoil_choices(figures: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> tuple[RecoilOption, ...]:
    """The recoils a loser's player is offered: the candidates, or when none is legal the spots the room search
    finds (one in each stretch of legal directions), in the default policy's order; empty when it must fall
    (SB-RECOIL-5)."""
    recoiling = _recoiling(figures, table, loser, winner)
    return recoiling.candidates or recoiling.room


def has_room(figures: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> bool:
    """Whether the loser has any legal recoil from the winner, else it falls instead (SB-RECOIL-5): the first legal
    candidate is enough, and the room search runs only when none is."""
    return _recoiling(figures, table, loser, winner).has_room


def recoil_spot(figures: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure, p: Point) -> RecoilOption:
    """The recoil of the loser to the spot *p* its player names, else IllegalChoice naming the rule it breaks."""
    recoiling = _recoiling(figures, table, loser, winner)
    return _spot(recoiling.others, table, loser, winner, p, None, recoiling.jump)


def _recoiling(figures: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> _Recoiling:
    return placement(figures, table).fact("recoiling", lambda: _Recoiling(figures, table, loser, winner), loser, winner)


class _Recoiling:
    """The loser's recoil from the winner as the figures stand: each answer worked out once, when first asked."""

    def __init__(self, figures: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> None:
        self.others, self.table, self.loser, self.winner = _near(figures, loser), table, loser, winner

    @functools.cached_property
    def jump(self) -> RecoilOption | None:
        return _jump(self.others, self.table, self.loser, self.winner)

    @functools.cached_property
    def candidates(self) -> tuple[RecoilOption, ...]:
        others, table, loser, winner = self.others, self.table, self.loser, self.winner
        options = [_tried(others, table, loser, winner, p, k) for k, p in _candidate_spots(table, loser, winner)]
        jump = self.jump
        return _ranked(others, loser, winner, [o for o in options if o is not None] + ([jump] if jump is not None else []))

    @functools.cached_property
    def has_room(self) -> bool:
        others, table, loser, winner = self.others, self.table, self.loser, self.winner
        if any(_tried(others, table, loser, winner, p, k) is not None for k, p in _candidate_spots(table, loser, winner)):
            return True
        return self.jump is not None or bool(self.room)

    @functools.cached_property
    def room(self) -> tuple[RecoilOption, ...]:
        return _room(self.others, self.table, self.loser, self.winner)


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


def _near(figures: tuple[Figure, ...], loser: Figure) -> tuple[Figure, ...]:
    """The models that can matter to a recoil: a step goes one base depth d, a jump at most d + 2(r + r_F) past a
    friend of radius r_F, and a base further than that plus its own radius can neither block nor touch it."""
    widest = max(o.base_mm for o in figures) / 2
    return near(figures, loser, loser.base_mm + 3 * (loser.r + widest) + 2 * EPS)


def _candidate_spots(table: Table, loser: Figure, winner: Figure) -> Iterator[tuple[int, Point]]:
    """SB-GEO-5's thirteen candidates k = -6..6, turned 15° × k from straight away, each where it puts the loser."""
    c, d = loser.centre, loser.base_mm
    a = (c - winner.centre).unit()
    for k in range(-6, 7):
        yield k, _landing(table, loser, turned_step(c, a, 15 * k, d))


def _room(others: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> tuple[RecoilOption, ...]:
    """The room search: one legal spot in every stretch of directions between consecutive critical angles.

    Each test of a spot is asked at every whole degree, whose spots are worked out once for all the tests. A base,
    wall or drop further from the loser than a recoil reaches (with a millimetre to spare) answers every direction
    alike, so it makes no critical angle and is left out.
    """
    c, r, d = loser.centre, loser.r, loser.base_mm
    a = (c - winner.centre).unit()
    reach = d + 1.0

    def end(theta: float) -> Point:
        return turned_step(c, a, theta, d)

    def crosses(o: Figure) -> Callable[[Point], bool]:
        return lambda p: sweeps_over(c, p, r, o)

    def sweeps_into(rect: Rect) -> Callable[[Point], bool]:
        return lambda p: swept_overlaps_rect(c, p, r, rect, EPS)

    def meets_drop(rect: Rect) -> Callable[[Point], bool]:
        return lambda p: segment_enters_rect(c, p, rect) is not None

    tests: list[Callable[[Point], bool]] = [
        lambda p: table.on_table(p, r),
        lambda p: in_contact(p, r, winner.centre, winner.r, EPS),
        *(crosses(o) for o in others if gap_between(loser, o) <= reach),
        *(sweeps_into(rect) for rect in table.impassable if rect.distance_to(c) <= reach + r),
        *(meets_drop(rect) for rect, _ in table.drops if rect.distance_to(c) <= reach),
    ]
    steps = round(180 / GRID_DEGREES)
    grid = [-90 + i * GRID_DEGREES for i in range(steps + 1)]
    spots = [end(t) for t in grid]
    critical = {-90.0, 90.0}
    for test in tests:
        values = [test(p) for p in spots]
        critical |= {_change(test, end, grid[i], grid[i + 1]) for i in range(steps) if values[i] != values[i + 1]}
    angles = sorted(critical)
    found = (_tried(others, table, loser, winner, _landing(table, loser, end((lo + hi) / 2)), None) for lo, hi in zip(angles, angles[1:]))
    return _ranked(others, loser, winner, [o for o in found if o is not None])


def _change(test: Callable[[Point], bool], end: Callable[[float], Point], lo: float, hi: float) -> float:
    """The angle between lo and hi where *test* of the spot ``end(angle)`` changes its answer, by bisection."""
    low = test(end(lo))
    while hi - lo > PRECISION_DEGREES:
        mid = (lo + hi) / 2
        if test(end(mid)) == low:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _landing(table: Table, loser: Figure, end: Point) -> Point:
    """Where the recoil toward *end* (one base depth away) puts the loser: *end*, or past a drop edge E on its way,
    E + r·u (SB-GEO-5)."""
    c = loser.centre
    entry = table.drop_entry(c, end)
    if entry is None:
        return end
    u = (end - c).unit()
    return c + (end - c).scaled(entry[0]) + u.scaled(loser.r)


def _tried(others: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure, p: Point, k: int | None) -> RecoilOption | None:
    judged = _judged(others, table, loser, winner, p, k, None)
    return judged if isinstance(judged, RecoilOption) else None


def _spot(
    others: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure, p: Point, k: int | None, jump: RecoilOption | None
) -> RecoilOption:
    """The recoil that puts the loser at *p* (:func:`_judged`), else IllegalChoice with the rule it breaks."""
    judged = _judged(others, table, loser, winner, p, k, jump)
    if isinstance(judged, RecoilOption):
        return judged
    raise judged()


def _judged(
    others: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure, p: Point, k: int | None, jump: RecoilOption | None
) -> RecoilOption | Callable[[], IllegalChoice]:
    """The recoil that puts the loser at *p* (SB-GEO-5): a step, a drop over an edge, or the jump; when none is
    legal, the refusal naming the rule it breaks, built only if it is shown (most spots tried are only counted)."""
    c, r, d = loser.centre, loser.r, loser.base_mm
    a = (c - winner.centre).unit()
    v = p - c
    reach = v.length()
    if reach < 1e-9:
        return lambda: IllegalChoice("SB-RECOIL-1", f"a recoil moves {loser.id} one base depth ({d} mm) away from {winner.id}")
    if v.dot(a) < -1e-3:  # square to the winner is the furthest round (k = ±6), to notation's 0.001 mm
        return lambda: IllegalChoice("SB-GEO-5", f"{loser.id} recoils away from {winner.id}, never toward it")
    u = v.scaled(1 / reach)
    entry = table.drop_entry(c, c + u.scaled(d)) if table.drops else None
    if entry is not None:
        edge = c + u.scaled(d * entry[0])
        land = edge + u.scaled(r)
        if (p - land).length() > EPS:
            return lambda: IllegalChoice("SB-RECOIL-6", f"that way {loser.id} goes over the drop edge at {_at(edge)} and lands at {_at(land)}")
        hit = blocker(others, table, loser, edge)
        if hit is not None:
            return lambda: IllegalChoice("SB-GEO-5", f"{loser.id} meets {hit} before the drop edge")
        if entry[1] < table.stick("short") and not landing_is_clear(others, table, loser, p):
            return lambda: IllegalChoice("SB-FALL-1", f"{loser.id} has no room to land at {_at(p)} at the foot of the drop")
        return RecoilOption("drop", k, round(p.x, 6), round(p.y, 6), entry[1])
    if jump is not None and (p - jump.destination).length() <= EPS:
        return jump
    if abs(reach - d) > EPS:
        return lambda: _not_one_depth(loser, p, reach, d)
    if table.drop_entry(c, p) is not None:
        return lambda: IllegalChoice("SB-GEO-4", "the recoil path meets a drop area")
    hit = blocker(others, table, loser, p)
    if hit is not None:
        over = f" (the jump over it lands at {_at(jump.destination)})" if jump is not None and u.dot(a) > 0.999 else ""
        return lambda: IllegalChoice("SB-GEO-4" if hit == "impassable terrain" else "SB-GEO-5", f"the recoil path crosses {hit}{over}")
    if not table.on_table(p, r):
        return lambda: IllegalChoice("SB-GEO-1", f"{_at(p)} is off the table")
    if in_contact(p, r, winner.centre, winner.r, EPS):
        return lambda: IllegalChoice("SB-GEO-5", f"at {_at(p)} {loser.id} would still touch {winner.id}")
    return RecoilOption("step", k, round(p.x, 6), round(p.y, 6))


def _not_one_depth(loser: Figure, p: Point, reach: float, depth: float) -> IllegalChoice:
    """SB-RECOIL-1's refusal of a spot not one base depth away (written only when it is shown)."""
    away, shown = apart(reach, depth, decimals=1)
    return IllegalChoice("SB-RECOIL-1", f"a recoil moves one base depth ({shown} mm); {_at(p)} is {away} mm from {loser.id}")


def _at(p: Point) -> str:
    return point(p.x, p.y)


def _jump(others: tuple[Figure, ...], table: Table, loser: Figure, winner: Figure) -> RecoilOption | None:
    """The jump over a friend directly behind, on the straight-away line (SB-GEO-6)."""
    c, r, d = loser.centre, loser.r, loser.base_mm
    a = (c - winner.centre).unit()
    end = c + a.scaled(d)
    blockers = [o for o in others if sweeps_over(c, end, r, o)]
    if not blockers:
        return None  # the plain step is not blocked by a model
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
    if any(sweeps_over(c, land, r, o) for o in rest):
        return None
    if table.path_blocked_by_terrain(c, land, r) or not table.on_table(land, r) or table.drop_entry(c, land) is not None:
        return None
    if any(overlapping(land, r, o.centre, o.r, EPS) for o in others):
        return None
    return RecoilOption("jump", 0, round(land.x, 6), round(land.y, 6))


def _ranked(others: tuple[Figure, ...], loser: Figure, winner: Figure, options: list[RecoilOption]) -> tuple[RecoilOption, ...]:
    """The default policy's order (SB-GEO-5): steps and jumps that touch no newly contacted active enemy, then those
    that do, then drops; the smallest turn from straight away first, counter-clockwise before clockwise."""
    figures = others + (loser,)
    before = {o.id for o in enemies_in_contact(figures, loser)}
    a = (loser.centre - winner.centre).unit()

    def loud(option: RecoilOption) -> bool:
        moved = loser.at(option.destination)
        return any(o.is_active and o.id not in before for o in enemies_in_contact(others + (moved,), moved))

    def key(option: RecoilOption) -> tuple[int, float, int]:
        group = 2 if option.kind == "drop" else int(loud(option))
        if option.k is not None:
            return (group, abs(option.k), 0 if option.k >= 0 else 1)
        u = (option.destination - loser.centre).unit()
        turn = math.degrees(math.atan2(a.x * u.y - a.y * u.x, a.dot(u)))
        return (group, abs(turn) / 15, 0 if turn >= 0 else 1)

    return tuple(sorted(options, key=key))
