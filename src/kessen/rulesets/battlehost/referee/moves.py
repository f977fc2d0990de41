"""Move phase: straight moves, control zones, charges and standing up (BH-MOVE-1..8).

The geometry of a legal move comes first; then the options the moving player is offered and what a
chosen move does to the state.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Literal

from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.events import Event
from kessen.core.geometry import Point, base_gap, bases_touch, beyond, first_touch, reaches, segment_distance, segment_offset
from kessen.core.measures import apart
from kessen.core.notation import exact_point, number, parse_point, point
from kessen.core.records import evolve
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.battlefield import (
    AHEAD,
    CONTROL_ZONE,
    EPS,
    PATH_ZONE_TOLERANCE,
    ZONE_TOLERANCE,
    Board,
    Local,
    Model,
    arrangement,
    distance,
    engaged_ids,
    first_blocker,
    ground_blocks,
    ground_blocks_at,
    has_control_zone,
    in_base_contact,
    in_control_zone,
    turned,
)
from kessen.rulesets.battlehost.referee.options import EndMoves, MoveOption, MoveTo, StandUp
from kessen.rulesets.battlehost.referee.paths import corners_toward
from kessen.rulesets.battlehost.referee.state import BhState, put_model, then
from kessen.rulesets.battlehost.referee.steps import MoveStep, ask
from kessen.rulesets.battlehost.rules.sides import Side

MIN_MOVE = 0.05  # inches: shorter advances are not offered
WAYS_TRIED = 4  # corners on the way round terrain tried for a move (around_terrain)

# --- the geometry of a move (BH-MOVE-2..5) -----------------------------------------------------------------


def control_zone_breach(
    mover: Model, p1: Point, models: Sequence[Model], *, engaged: frozenset[str], charging: str | None = None
) -> Model | None:
    """The first enemy whose control zone a straight move breaks into, or None (BH-MOVE-4).

    For each enemy X with a control zone, other than the charged model: starting 1" or more away, the
    distance stays at least 1" all the way; starting nearer, it never falls below its start. *engaged*
    holds every engaged model of the table (they have no control zone, BH-GEO-4).
    """
    return _zone_breach(mover, p1.x, p1.y, models, engaged, charging)


def _zone_breach(mover: Model, x1: float, y1: float, models: Sequence[Model], engaged: frozenset[str], charging: str | None) -> Model | None:
    """:func:`control_zone_breach` for a move to (x1, y1)."""
    x0, y0 = mover.x, mover.y
    n = math.hypot(x1 - x0, y1 - y0)
    if n == 0:
        return None
    dx, dy = (x1 - x0) / n, (y1 - y0) / n
    for x in models:
        if x.side == mover.side or x.id == charging or not has_control_zone(x, engaged):
            continue
        # base_gap and segment_distance are measured only when their squares leave the zone's edge unsettled
        start = beyond(x0 - x.x, y0 - x.y, CONTROL_ZONE - ZONE_TOLERANCE + mover.r + x.r)
        if start > 0 or (start == 0 and not in_control_zone(base_gap(x0, y0, mover.r, x.x, x.y, x.r))):
            ex, ey = segment_offset(x0, y0, x1, y1, x.x, x.y)
            way = beyond(ex, ey, CONTROL_ZONE - PATH_ZONE_TOLERANCE + mover.r + x.r)
            if way < 0 or (way == 0 and in_control_zone(math.hypot(ex, ey) - mover.r - x.r, PATH_ZONE_TOLERANCE)):
                return x
        elif (x0 - x.x) * dx + (y0 - x.y) * dy < -1e-9:
            return x  # the distance would fall below its start (it is convex along a line)
    return None


Breach = tuple[str, Model | None]
"""Why a move is not allowed: ``too far``, ``blocked`` (by the model), ``overlap`` or ``no contact`` (with the
charged model), ``control zone`` (of the model), ``ground`` (the board edge or a terrain block)."""


def move_breach(
    mover: Model, p1: Point, models: Sequence[Model], board: Board, *, limit: float, engaged: frozenset[str], charging: str | None = None
) -> Breach | None:
    """The first rule a straight move of at most *limit* inches breaks, or None: no base touched on the way except
    the charged one, on the board, clear of terrain, within the control-zone limits; a charge ends in base contact
    (BH-MOVE-2..5, BH-GEO-7)."""
    return _breach(mover, p1.x, p1.y, models, board, limit, engaged, charging)


def _breach(
    mover: Model, x1: float, y1: float, models: Sequence[Model], board: Board, limit: float, engaged: frozenset[str], charging: str | None
) -> Breach | None:
    """:func:`move_breach` for a move to (x1, y1)."""
    x0, y0 = mover.x, mover.y
    if math.hypot(x1 - x0, y1 - y0) > limit + 1e-9:
        return ("too far", None)
    blocker = first_blocker(mover, x1, y1, models, charging)
    if blocker is not None:
        return ("blocked", blocker)
    if charging is not None:
        target = next(m for m in models if m.id == charging)
        if segment_distance(x0, y0, x1, y1, target.x, target.y) - mover.r - target.r < -EPS:
            return ("overlap", target)
        if not bases_touch(x1, y1, mover.r, target.x, target.y, target.r, EPS):  # in base contact at the end (BH-GEO-3)
            return ("no contact", target)
    zone = _zone_breach(mover, x1, y1, models, engaged, charging)
    if zone is not None:
        return ("control zone", zone)
    # the board edge and terrain last: the dearest test (BH-GEO-7)
    return ("ground", None) if ground_blocks_at(mover.r, x0, y0, x1, y1, board) else None


def move_is_legal(
    mover: Model, p1: Point, models: Sequence[Model], board: Board, *, limit: float, engaged: frozenset[str], charging: str | None = None
) -> bool:
    """A straight move breaks none of BH-MOVE-2..5 (:func:`move_breach`)."""
    return _breach(mover, p1.x, p1.y, models, board, limit, engaged, charging) is None


CHARGE_ANGLES = (0, 25, -25, 50, -50, 75, -75, 100, -100, 125, -125, 150, -150, 180)
_CHARGE_TURNS = tuple(turned(angle) for angle in CHARGE_ANGLES)


def charge_point(mover: Model, target: Model, models: Sequence[Model], board: Board, *, limit: float, engaged: frozenset[str]) -> Point | None:
    """The contact point nearest the direct line at which *mover* can legally charge *target*, or None (BH-MOVE-5).

    Tried around the target's base, straight in first, then turning away from the direct line by 25° steps.
    """
    tx, ty = target.x, target.y
    if math.hypot(tx - mover.x, ty - mover.y) - target.r - mover.r > limit + 1e-9:
        return None
    n = math.hypot(mover.x - tx, mover.y - ty)
    ux, uy = (mover.x - tx) / n, (mover.y - ty) / n  # towards the mover
    ring = target.r + mover.r
    local = _along(models, mover, target, ring + mover.r + CONTROL_ZONE + EPS + 1e-6)
    ground = near_terrain(board, mover.centre, target.centre, ring + mover.r + EPS + 1e-6)
    for c, s in _CHARGE_TURNS:
        x, y = tx + (ux * c - uy * s) * ring, ty + (ux * s + uy * c) * ring
        if _breach(mover, x, y, local, ground, limit, engaged, target.id) is None:
            return Point(x, y)
    return None


def near_terrain(board: Board, a: Point, b: Point, reach: float) -> Board:
    """The board with only the terrain blocks that come within *reach* of the box around a–b: the same board for
    every path that stays within reach − r − EPS of that segment (BH-GEO-5, BH-GEO-7)."""
    x0, x1, y0, y1 = min(a.x, b.x) - reach, max(a.x, b.x) + reach, min(a.y, b.y) - reach, max(a.y, b.y) + reach
    blocks = tuple(k for k in board.terrain if not (k.x0 > x1 or k.x1 < x0 or k.y0 > y1 or k.y1 < y0))
    return board if len(blocks) == len(board.terrain) else evolve(board, terrain=blocks)


def _along(models: Sequence[Model], mover: Model, target: Model, reach: float) -> tuple[Model, ...]:
    """The target and the models whose bases come within *reach* of the line from *mover* to it: every path of a
    charge ends within r_target + r_mover of the target, so no other model can block one or hold it back."""
    ax, ay, dx, dy = mover.x, mover.y, target.x - mover.x, target.y - mover.y
    length2 = dx * dx + dy * dy
    out = []
    for x in models:
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x.x - ax) * dx + (x.y - ay) * dy) / length2))
        if x.id == target.id or reaches(ax + t * dx - x.x, ay + t * dy - x.y, x.r, reach):
            out.append(x)
    return tuple(out)


def furthest_move(mover: Model, direction: Point, models: Sequence[Model], board: Board, *, limit: float, engaged: frozenset[str]) -> float:
    """How far *mover* can go along the unit *direction*, at most *limit*, without breaking BH-MOVE-3/4.

    A model whose centre lies farther from the way (*limit* long) than the widest reach measured here (its base and
    the mover's, a 1" control zone and the sweep's tolerance, and 1e-6 for rounding) is never touched nor its zone
    entered before the way's end: it is passed over with a few multiplications, not measured (issue 26)."""
    p0 = mover.centre
    x0, y0, dx, dy = mover.x, mover.y, direction.x, direction.y
    reach = limit
    for x in models:
        if x.id == mover.id:
            continue
        along = (x.x - x0) * dx + (x.y - y0) * dy
        t0 = min(max(along, 0.0), limit)  # the nearest point of the way to x's centre
        ex, ey, far = x0 + dx * t0 - x.x, y0 + dy * t0 - x.y, mover.r + x.r + CONTROL_ZONE + 1e-5 + 1e-6
        if ex * ex + ey * ey >= far * far:
            continue
        ahead = along > AHEAD
        t = None if not ahead else first_touch(p0, direction, mover.r, x.centre, x.r, -(EPS + 1e-3))
        if t is not None:
            reach = min(reach, t)
        if x.side != mover.side and has_control_zone(x, engaged):
            if not in_control_zone(base_gap(x0, y0, mover.r, x.x, x.y, x.r)):
                t = first_touch(p0, direction, mover.r, x.centre, x.r + CONTROL_ZONE, -1e-5)
                if t is not None:
                    reach = min(reach, t)
            elif (x0 - x.x) * dx + (y0 - x.y) * dy < 0:
                return 0.0
    reach = max(0.0, reach)
    lo, hi = 0.0, reach
    board = near_terrain(board, p0, p0 + direction.scaled(hi), mover.r + EPS + 1e-6)
    if not ground_blocks_at(mover.r, x0, y0, x0 + dx * hi, y0 + dy * hi, board):
        return hi
    for _ in range(40):
        mid = (lo + hi) / 2
        if ground_blocks_at(mover.r, x0, y0, x0 + dx * mid, y0 + dy * mid, board):
            hi = mid
        else:
            lo = mid
    return lo


# --- the moving player's options and their effect (BH-MOVE-1..8) ------------------------------------------


def move_limit(m: Model, *, stand_up: bool) -> float:
    """Mv inches, or half of it after standing up (BH-MOVE-2, BH-MOVE-7)."""
    return m.move / 2 if stand_up else float(m.move)


Moves = tuple[tuple[MoveTo, ...], tuple[MoveTo | StandUp, ...], tuple[MoveTo, ...], tuple[MoveTo, ...], tuple[MoveTo, ...]]
"""One model's charges, its other moves, its move into line, its move round terrain and its moves round what stands
in its way (:func:`model_moves`)."""

_MOVES: Local[tuple[Model | None, Moves]] = Local()
"""Each mover's moves with the nearest enemy they were found for, kept while nothing within the mover's reach changes."""


def moves_of(state: BhState, m: Model, engaged: frozenset[str]) -> Moves:
    """:func:`model_moves` of *m* (one of the moving side's models, not engaged) as the table stands; *engaged* holds
    every engaged model of the table. Found again only when something changed within the mover's reach or its
    nearest enemy is another: after one model moves, the others' moves mostly stand (issue 26). They depend on the
    models whose bases come within the reach of a move (move + r + 1"), all that it can touch, pass or be held back by
    (BH-GEO-7, BH-MOVE-4), and on the nearest enemy (edge to edge, then by id), whichever way it lies."""
    known = arrangement(state.models)
    nearest = known.nearest_enemy(m)
    kept = _MOVES.get(state.models, m, state.board)
    if kept is not None and kept[0] is nearest:
        return kept[1]
    reach = move_limit(m, stand_up=m.prone) + m.r + CONTROL_ZONE + 2 * EPS
    near = known.near(m.x, m.y, reach)
    found = model_moves(m, near, engaged & {x.id for x in near}, nearest, state.board)
    _MOVES.put(state.models, m, state.board, reach, (nearest, found))
    return found


def move_options(state: BhState, side: Side) -> tuple[MoveOption, ...]:
    """For each model of the moving side that has not moved and is not engaged: a charge at each enemy
    it can reach, an advance towards the nearest enemy (and half of it for a shooter), standing up for
    a prone model; then ending the player's moves (BH-MOVE-1..7); then the moves into line, then those round
    terrain, then those round what stands in the way (each group after the older ones, so that the indices of older
    saves hold)."""
    charges: list[MoveTo] = []
    advances: list[MoveTo | StandUp] = []
    lines: list[MoveTo] = []
    ways: list[MoveTo] = []
    sidesteps: list[MoveTo] = []
    for mine in movers_moves(state, side):
        charges.extend(mine[0])
        advances.extend(mine[1])
        lines.extend(mine[2])
        ways.extend(mine[3])
        sidesteps.extend(mine[4])
    if not charges and not advances and not ways and not sidesteps:
        return (EndMoves(),)  # the phase ends by itself, as kessen-save/1 files expect (see move_node)
    return (*charges, *advances, EndMoves(), *lines, *ways, *sidesteps)


def ways_round(state: BhState, side: Side) -> tuple[MoveTo, ...]:
    """The moves round terrain that :func:`move_options` offers *side* (its last group): one for each model whose
    straight way to the nearest enemy is walled off (:func:`around_terrain`)."""
    return _group(state, side, 3)


def sidesteps(state: BhState, side: Side) -> tuple[MoveTo, ...]:
    """The moves round what stands in the way, and the half advances, that :func:`move_options` offers *side* (its
    last group, :func:`model_moves`)."""
    return _group(state, side, 4)


def _group(state: BhState, side: Side, group: Literal[3, 4]) -> tuple[MoveTo, ...]:
    """One group of :func:`moves_of` (3: round terrain, 4: round what stands in the way) for every model of *side*
    still to move and not engaged."""
    found: list[MoveTo] = []
    for mine in movers_moves(state, side):
        found.extend(mine[group])
    return tuple(found)


_LISTED: list[tuple[tuple[Model, ...], frozenset[str], Side, Board, tuple[Moves, ...]]] = []


def movers_moves(state: BhState, side: Side) -> tuple[Moves, ...]:
    """:func:`moves_of` each model of *side* that has not moved and is not engaged (BH-MOVE-6), in order; kept for the
    last tables asked about (the same models, moved models and board, by identity): the referee lists a decision's
    options and the AI asks for its groups on the same table (issue 26)."""
    for models, done, listed_side, board, found in _LISTED:
        if models is state.models and done is state.done and listed_side == side and board is state.board:
            return found
    engaged = engaged_ids(state.models)
    found = tuple(moves_of(state, m, engaged) for m in state.models if m.side == side and m.id not in state.done and m.id not in engaged)
    _LISTED.insert(0, (state.models, state.done, side, state.board, found))
    del _LISTED[2:]
    return found


@functools.lru_cache(maxsize=4096)
def model_moves(
    m: Model, near: tuple[Model, ...], engaged: frozenset[str], nearest: Model | None, board: Board
) -> Moves:
    """One model's charges, its other moves, its move into line, its move round terrain, and its moves round what
    stands in its way (:func:`round_the_way`) with, for a model with no missile weapon, half its advance (BH-MOVE-2..7;
    [DECISION] a suggestion for a model that should not end within reach of several enemies, issue 23 §5): they
    depend only on the models
    within its reach (*near*, and which of them are *engaged*) and on the direction to the *nearest* enemy, so a
    model whose surroundings did not change since another model moved keeps the same options."""
    limit = move_limit(m, stand_up=m.prone)
    charges: list[MoveTo] = []
    advances: list[MoveTo | StandUp] = []
    steps: tuple[MoveTo, ...] = ()
    for e in sorted((e for e in near if e.side != m.side), key=lambda e: (distance(m, e), e.id)):
        if distance(m, e) > limit:
            break
        p = charge_point(m, e, near, board, limit=limit, engaged=engaged)
        if p is not None:
            charges.append(MoveTo(m.id, p.x, p.y, charge=e.id, stand_up=m.prone))
    if nearest is not None:
        toward = (nearest.centre - m.centre).unit()
        run = furthest_move(m, toward, near, board, limit=limit, engaged=engaged)
        runs = [run] + ([m.move / 2] if m.weapon is not None and not m.prone and run > m.move / 2 + MIN_MOVE else [])
        if run < limit - MIN_MOVE:
            steps = round_the_way(m, near, engaged, nearest, board, limit=limit, run=run)
        if m.weapon is not None and not m.prone:
            steps += round_the_way(m, near, engaged, nearest, board, limit=m.move / 2, run=min(run, m.move / 2))
        elif run >= 2 * MIN_MOVE:
            steps += (MoveTo(m.id, m.x + toward.x * run / 2, m.y + toward.y * run / 2, stand_up=m.prone),)
        for length in runs:
            if length >= MIN_MOVE:
                advances.append(MoveTo(m.id, m.x + toward.x * length, m.y + toward.y * length, stand_up=m.prone))
    if m.prone:
        advances.append(StandUp(m.id))
    line = into_line(m, near, engaged, nearest, board, limit=limit)
    way = None if nearest is None else around_terrain(m, near, engaged, nearest, board, limit=limit)
    steps = tuple(dict.fromkeys(x for x in steps if x not in advances and x != line and x != way))  # each option once
    return tuple(charges), tuple(advances), (line,) if line is not None else (), (way,) if way is not None else (), steps


SIDESTEP_ANGLES = (25, 50, 75)  # degrees off the straight way to the nearest enemy tried by round_the_way
_SIDESTEP_TURNS = tuple((turned(a), turned(-a)) for a in SIDESTEP_ANGLES)


def round_the_way(
    m: Model, near: tuple[Model, ...], engaged: frozenset[str], nearest: Model, board: Board, *, limit: float, run: float
) -> tuple[MoveTo, ...]:
    """When the straight advance toward the *nearest* enemy is cut short (to *run* inches) by a friend, an enemy's
    control zone, terrain or the board edge: on each hand the move turned 25°, 50° or 75° off that line, as far as the
    rules allow, that ends nearest the enemy, if it ends nearer than the straight advance does; left hand first
    (BH-MOVE-2..4, BH-GEO-7). A shooter is also offered such moves of half its Move, after which it may still shoot
    (BH-SHOOT-2).

    [DECISION] Offered last (kessen-save/1 indices hold); without them a band whose straight ways were all shut by its
    own friends or an enemy's control zones stood still for the rest of the battle (issue 23 §5)."""
    toward = (nearest.centre - m.centre).unit()
    straight = (m.centre + toward.scaled(run) - nearest.centre).length()
    found: list[MoveTo] = []
    for hand in (0, 1):
        best: tuple[float, Point] | None = None
        for turns in _SIDESTEP_TURNS:
            c, s = turns[hand]
            way = Point(toward.x * c - toward.y * s, toward.x * s + toward.y * c)
            length = furthest_move(m, way, near, board, limit=limit, engaged=engaged)
            if length < MIN_MOVE:
                continue
            end = m.centre + way.scaled(length)
            left = (end - nearest.centre).length()
            if left < straight - MIN_MOVE and (best is None or left < best[0]):
                best = (left, end)
        if best is not None:
            found.append(MoveTo(m.id, best[1].x, best[1].y, stand_up=m.prone))
    return tuple(found)


def around_terrain(m: Model, near: tuple[Model, ...], engaged: frozenset[str], nearest: Model, board: Board, *, limit: float) -> MoveTo | None:
    """When terrain walls off the straight way to the *nearest* enemy: a move as far as the rules allow toward a
    corner on the way round (``paths.corners_toward``: through a door, round a wall's end), the corner of the
    shortest way first, else of the next shortest that the model can go toward (an enemy's control zone may close
    one lane of a door, BH-MOVE-4); else None (BH-MOVE-2..4, BH-GEO-7).

    [DECISION] Offered after the older options (kessen-save/1 indices hold), after the moves into line."""
    for corner in corners_toward(m.r, m.centre, nearest.centre, board, reached=2 * MIN_MOVE)[:WAYS_TRIED]:
        leg = corner - m.centre
        toward = leg.unit()
        run = furthest_move(m, toward, near, board, limit=min(limit, leg.length()), engaged=engaged)
        if run < MIN_MOVE:
            # a base standing right on an enemy's control-zone edge finds no run by the sweep: try whole legs
            run = next((t for t in _shortened(min(limit, leg.length())) if _breach(
                m, m.x + toward.x * t, m.y + toward.y * t, near, board, limit, engaged, None) is None), 0.0)
        if run >= MIN_MOVE:
            return MoveTo(m.id, m.x + toward.x * run, m.y + toward.y * run, stand_up=m.prone)
    return None


def _shortened(length: float) -> tuple[float, ...]:
    return tuple(length / 2**k for k in range(5))


LINE_GAP = 0.05  # inches between the bases of a line: clear of each other (BH-GEO-3, BH-MOVE-3)


def into_line(m: Model, near: tuple[Model, ...], engaged: frozenset[str], nearest: Model | None, board: Board, *, limit: float) -> MoveTo | None:
    """A move into line beside the nearest friend that is not engaged, facing the nearest enemy: the spot of the
    two at its flanks (square to the direction of the enemy, LINE_GAP apart) that is nearer, if *m* can legally move
    there (BH-MOVE-2..4, BH-MOVE-7); else None.

    [DECISION] A suggestion for people (menus), after the older options so that kessen-save/1 indices hold; the
    AI does not take it."""
    if nearest is None:
        return None
    f = min((f for f in near if f.side == m.side and f.id != m.id and f.id not in engaged), key=lambda f: (distance(m, f), f.id), default=None)
    if f is None:
        return None
    fx, fy = nearest.x - f.x, nearest.y - f.y  # facing the enemy
    if math.hypot(fx, fy) == 0:
        return None
    side_on, k = math.hypot(-fy, fx), f.r + m.r + LINE_GAP
    ax, ay = -fy / side_on * k, fx / side_on * k  # across the facing, to the flank
    spots = sorted(((f.x + ax, f.y + ay), (f.x - ax, f.y - ay)), key=lambda p: (math.hypot(p[0] - m.x, p[1] - m.y), p[0], p[1]))
    for x, y in spots:
        if math.hypot(x - m.x, y - m.y) >= MIN_MOVE and _breach(m, x, y, near, board, limit, engaged, None) is None:  # prone or not, alike
            return MoveTo(m.id, x, y, stand_up=m.prone)
    return None


def move_node(state: BhState, step: MoveStep) -> Decision:
    """The moving player's choice: a model's move, charge or standing up, or the end of its moves (BH-MOVE-1). It
    is free: any model of the side may go to any point the rules allow (:func:`free_move`).

    [DECISION] When no model has a suggested move (only ending the moves is offered), the decision settles itself
    as it always has, so that the moves of kessen-save/1 files (option indices) keep replaying; a model then left
    unmoved could only have stepped aside from a blocked line."""
    options = move_options(state, step.side)
    return ask(step.side, "move", options, free=len(options) > 1)


def new_since_v1(decision: Decision) -> bool:
    """A move decision that offers only ways round terrain beside ending the moves (EndMoves first): before those
    ways were offered it settled itself, so a kessen-save/1 file (option indices) never recorded it, and its replay
    ends the moves (``Ruleset.new_since_v1``)."""
    return decision.kind == "move" and isinstance(decision.options[0], EndMoves)


def apply_move(state: BhState, step: MoveStep, choice: MoveOption, out: list[Event]) -> BhState:
    """A model stands up, moves or charges, and its player moves again; or the player ends its moves (BH-MOVE-1..8)."""
    if isinstance(choice, EndMoves):
        return state
    return then(_moved(state, choice, out), step)


def _moved(state: BhState, choice: MoveTo | StandUp, out: list[Event]) -> BhState:
    if isinstance(choice, StandUp):
        out.append(ev.StoodUp(model=choice.model))
        m = state.get(choice.model)
        return evolve(put_model(state, evolve(m, prone=False)), done=state.done | {m.id})
    assert isinstance(choice, MoveTo)
    m = state.get(choice.model)
    if choice.stand_up:
        out.append(ev.StoodUp(model=m.id))
        m = evolve(m, prone=False)
    dest = Point(choice.x, choice.y)
    inches = (dest - m.centre).length()
    if choice.charge is not None:
        out.append(ev.Charged(model=m.id, target=choice.charge, x=dest.x, y=dest.y, inches=inches))
    else:
        out.append(ev.Moved(model=m.id, x=dest.x, y=dest.y, inches=inches))
    state = put_model(state, m.at(dest))
    return evolve(state, done=state.done | {m.id}, moved=state.moved + ((m.id, inches),))


# --- a move the player writes (issue 10: any point the rules allow) -----------------------------------------

_BREACH_RULES = {
    "too far": "BH-MOVE-2", "blocked": "BH-MOVE-3", "overlap": "BH-MOVE-5", "no contact": "BH-MOVE-5",
    "control zone": "BH-MOVE-4", "ground": "BH-MOVE-3",
}


_FREE_FORMS = {
    "move ": "move <model> to x,y", "charge ": "charge <model> at <enemy model> [to x,y]",
    "stand ": "stand <model> [and move to x,y | and charge at <enemy model> [to x,y]]",
}
"""What a free move is written as, by its first word (for a refusal that names no model)."""


def _model_at_start(text: str, models: Sequence[Model]) -> tuple[Model, str] | None:
    """The model whose id *text* begins with (the longest such id, so that ``Orc 1`` never takes ``Orc 10``), and
    the rest of *text* after it."""
    found = [m for m in models if text == m.id or text.startswith(m.id + " ")]
    if not found:
        return None
    m = max(found, key=lambda x: len(x.id))
    return m, text[len(m.id):].strip()


def free_move(state: BhState, side: Side, text: str) -> MoveTo | StandUp | None:
    """The move *text* writes for *side* (``move M to x,y``, ``charge M at T to x,y``, ``charge M at T``, ``stand M``,
    ``stand M and move to x,y``, ``stand M and charge at T [to x,y]``), if the rules allow it; None when *text* is
    no move form; else IllegalChoice naming the rule it breaks (BH-MOVE-1..7, BH-GEO-5, BH-GEO-7).

    [DECISION] A point is taken as written, and notation writes it exactly (so a save replays the very move, issue
    22 §1); ``charge M at T`` without a point places the charger where the suggested charge does (the contact point
    nearest the direct line, BH-MOVE-5); a zero-length move is allowed and uses the model's move."""
    stand = text.startswith("stand ")
    head = "stand " if stand else "move " if text.startswith("move ") else "charge " if text.startswith("charge ") else None
    if head is None:
        return None
    found = _model_at_start(text[len(head):], state.models)
    if found is None:
        _refuse_the_slain(state, text[len(head):])
        raise IllegalChoice(None, f"there is no model of that name in {text!r}: write {_FREE_FORMS[head]}, with the ids the scenario gives")
    m, rest = found
    if stand and rest.startswith("and "):
        rest = rest[4:]
        head = "move " if rest.startswith("move ") else "charge " if rest.startswith("charge ") else None
        if head is None:
            return None
        rest = rest[len(head):]
    _check_mover(state, side, m, stand=stand)
    if stand and rest == "":
        return StandUp(m.id)
    target: Model | None = None
    if head == "charge ":
        if not rest.startswith("at "):
            return None
        aimed = _model_at_start(rest[3:], state.models)
        if aimed is None:
            _refuse_the_slain(state, rest[3:])
            raise IllegalChoice(None, f"there is no model of that name to charge in {text!r}: write {_FREE_FORMS['charge ']}, with the ids the scenario gives")
        target, rest = aimed
        if target.side == m.side:
            raise IllegalChoice("BH-MOVE-5", f"a charge ends in base contact with an enemy model, and {target.id} is a friend")
    return _free_move_to(state, m, target, rest, stand=stand)


def _refuse_the_slain(state: BhState, text: str) -> None:
    """A refusal naming BH-STRIKE-3 when *text* begins with the id of a slain model (removed from the game)."""
    slain = [ident for ident, _ in state.casualties if text == ident or text.startswith(ident + " ")]
    if slain:
        raise IllegalChoice("BH-STRIKE-3", f"{max(slain, key=len)} was slain and removed from the game")


def _check_mover(state: BhState, side: Side, m: Model, *, stand: bool) -> None:
    """*m* may move now: one of the moving side's models, not moved yet, not engaged; prone only if it stands up
    (BH-MOVE-1, BH-MOVE-2, BH-MOVE-6, BH-MOVE-7)."""
    if m.side != side:
        raise IllegalChoice("BH-MOVE-1", f"{m.id} is not a model of the side moving now")
    if m.id in state.done:
        raise IllegalChoice("BH-MOVE-2", f"{m.id} has already moved this phase (a model moves at most once)")
    contact = next((e for e in state.models if e.side != m.side and in_base_contact(e, m)), None)
    if contact is not None:
        raise IllegalChoice("BH-MOVE-6", f"{m.id} is engaged (in base contact with {contact.id}) and cannot move")
    if stand and not m.prone:
        raise IllegalChoice("BH-MOVE-7", f"{m.id} is not prone, so it has nothing to stand up from")
    if m.prone and not stand:
        raise IllegalChoice("BH-MOVE-7", f"{m.id} is prone: it stands up first and then moves at most half its Move (stand {m.id} and move to x,y)")


def _free_move_to(state: BhState, m: Model, target: Model | None, rest: str, *, stand: bool) -> MoveTo | None:
    limit = move_limit(m, stand_up=stand)
    standing = evolve(m, prone=False)
    engaged = engaged_ids(state.models)
    if rest == "" and target is not None:
        p = charge_point(standing, target, state.models, state.board, limit=limit, engaged=engaged)
        if p is None:
            raise IllegalChoice("BH-MOVE-5", f"{m.id} cannot reach base contact with {target.id} in a straight move of {number(limit)}\" that the rules allow")
        rest = f"to {exact_point(p.x, p.y)}"
    if not rest.startswith("to "):
        return None
    to = Point(*parse_point(rest[3:].strip(), "the point moved to"))
    if not state.board.on_board(to, m.r):
        raise IllegalChoice("BH-GEO-5", f"{m.id}'s base would not be wholly on the board at {point(to.x, to.y)}")
    charging = target.id if target is not None else None
    breach = move_breach(standing, to, state.models, state.board, limit=limit, engaged=engaged, charging=charging)
    if breach is not None:
        raise IllegalChoice(_BREACH_RULES[breach[0]], _breach_reason(m, to, breach, limit, stand=stand))
    return MoveTo(m.id, to.x, to.y, charge=charging, stand_up=stand)


def _breach_reason(m: Model, to: Point, breach: Breach, limit: float, *, stand: bool) -> str:
    kind, x = breach
    other = x.id if x is not None else ""
    if kind == "too far":
        moved, most = apart((to - m.centre).length(), limit)
        allowance = f"half its Move after standing up, {most}\"" if stand else f"its Move of {most}\""
        return f"{m.id} would move {moved}\", more than {allowance}"
    if kind == "blocked":
        return f"the path crosses or ends touching {other}'s base"
    if kind == "overlap":
        return f"{m.id} would overlap {other}'s base on the way in"
    if kind == "no contact":
        return f"the charge must end in base contact with {other}, and {point(to.x, to.y)} does not touch its base"
    if kind == "control zone":
        return f"the path breaks into {other}'s control zone (1\" around its base): only the charged model's zone may be entered"
    return "the path touches a terrain block"
