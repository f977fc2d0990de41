"""Backing away, trapped, prone, making way: where a loser of a duel goes (BH-GEO-6, BH-BACK-1..6).

Pure geometry: the Fight phase (fight.py) asks ``retreat`` for each loser and moves the models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from kessen.core.geometry import Point
from kessen.core.records import record
from kessen.rulesets.battlehost.referee.battlefield import EPS, Board, Model, blocking_models, ground_blocks, is_engaged, path_is_clear

BACK_AWAY = 1.0  # BH-BACK-1
MAKE_WAY_LIMIT = 1.0  # BH-BACK-6 condition 4
NO_DIRECTION = 1e-6  # BH-GEO-6

RetreatReason = Literal["clear", "make_way", "prone", "no_direction", "ground", "several", "enemy", "engaged", "cannot_make_way"]


def direction_away(loser: Point, winners: Sequence[Point]) -> Point | None:
    """The back-away direction: the normalised sum of the unit vectors from each winner to the loser,
    or None when that sum is (nearly) zero (BH-GEO-6).

    >>> direction_away(Point(10, 10), [Point(9.0157, 10), Point(10, 9.0157)]).rounded(4)
    Point(x=0.7071, y=0.7071)
    >>> direction_away(Point(10, 10), [Point(9, 10), Point(11, 10)]) is None
    True
    """
    total = Point(0.0, 0.0)
    for w in winners:
        total = total + (loser - w).unit()
    if total.length() < NO_DIRECTION:
        return None
    return total.unit()


@record
class MakeWay:
    """A friend's making-way move: who moves, and where to (BH-BACK-6)."""

    model: str
    x: float
    y: float


@record
class Retreat:
    """How a loser can back away: its end point, whether it is trapped and why, and any making way it needs (BH-BACK-1..6)."""

    trapped: bool
    reason: RetreatReason
    x: float
    y: float
    make_way: MakeWay | None = None


def making_way_move(loser: Model, end: Point, blocker: Model, models: Sequence[Model], board: Board) -> Point | None:
    """Where *blocker* can make way to, or None (BH-BACK-6 conditions 3–6).

    It moves straight by m = r_L + r_F + 2·EPS − δ along the normal from the nearest point of the
    loser's path (if its centre is on the path, to the left of the loser's direction, else to the right).
    """
    p0 = loser.centre
    d = (end - p0).unit()
    c = blocker.centre
    ab = end - p0
    t = max(0.0, min(1.0, (c - p0).dot(ab) / ab.dot(ab)))
    q = p0 + ab.scaled(t)
    delta = (c - q).length()
    m = loser.r + blocker.r + 2 * EPS - delta
    if m > MAKE_WAY_LIMIT:
        return None
    normals = [(c - q).unit()] if delta > 1e-12 else [Point(-d.y, d.x), Point(d.y, -d.x)]
    for n in normals:
        dest = c + n.scaled(m)
        if not path_is_clear(blocker, dest, models, board):
            continue
        moved = [blocker.at(dest) if o.id == blocker.id else o for o in models]
        if path_is_clear(loser, end, moved, board):
            return dest
    return None


def retreat(loser: Model, winners: Sequence[Model], models: Sequence[Model], board: Board) -> Retreat:
    """Whether and where a loser backs away 1" directly away from the winners, trapped otherwise (BH-BACK-1..6, BH-GEO-6, BH-GEO-7).

    A prone loser never backs away (BH-BACK-5). If exactly one model blocks the path and it is a friend
    that is not engaged, that friend may make way (BH-BACK-6); the board edge and terrain cannot.
    """
    here = loser.centre
    if loser.prone:
        return Retreat(True, "prone", here.x, here.y)
    d = direction_away(here, [w.centre for w in winners])
    if d is None:
        return Retreat(True, "no_direction", here.x, here.y)
    end = here + d.scaled(BACK_AWAY)
    blockers = blocking_models(loser, end, models)
    if ground_blocks(loser.r, here, end, board):
        return Retreat(True, "ground", here.x, here.y)
    if not blockers:
        return Retreat(False, "clear", end.x, end.y)
    if len(blockers) > 1:
        return Retreat(True, "several", here.x, here.y)
    friend = blockers[0]
    if friend.side != loser.side:
        return Retreat(True, "enemy", here.x, here.y)
    if is_engaged(models, friend):
        return Retreat(True, "engaged", here.x, here.y)
    dest = making_way_move(loser, end, friend, models, board)
    if dest is None:
        return Retreat(True, "cannot_make_way", here.x, here.y)
    return Retreat(False, "make_way", end.x, end.y, MakeWay(friend.id, dest.x, dest.y))

