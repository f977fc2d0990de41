"""Moving in games: straight moves of one measuring stick, and fleeing (SB-MOVE-*, SB-FALL-1)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

from kessen.core.errors import IllegalChoice
from kessen.core.events import Event
from kessen.core.geometry import Point, Rect
from kessen.core.measures import apart
from kessen.core.notation import point
from kessen.core.records import evolve
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.battlefield import (
    EPS,
    Figure,
    Table,
    first_blocker,
    free_run,
    gap_between,
    touching,
)
from kessen.rulesets.song_of_blades.referee.options import Move
from kessen.rulesets.song_of_blades.referee.recoiling import landing_is_clear
from kessen.rulesets.song_of_blades.referee.state import SobState, remove, replace_figure


# a suggested destination is kept to three decimals (a notation a person reads at a glance): a move of the full length
# rounded to it may be that much longer
NOTATION_MM = 0.001


def suggested_moves(state: SobState, f: Figure) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    """The moves suggested to f's player, in two groups, worked out once per placement of the figures.

    First straight moves of one move length: a charge into contact with each reachable enemy, an advance toward the
    nearest enemy, and a retreat directly away from it (SB-MOVE-1..3). Then moves a good player also weighs
    (offered after the first group and after ending the activation, so that the options of older saves keep their
    places): into line beside the nearest friend, into the nearest cover, onto the nearest higher ground; none to a
    destination the first group offers already.
    """
    return state.here.fact("moves", lambda: _suggested(_Mover(state, f)), f)


def _mover(state: SobState, f: Figure) -> _Mover:
    """f's :class:`_Mover` for free moves, made once per placement of the figures (it reads only the figures and the
    table): every free move tried at a decision (the environments' 81 candidate points, issue 25 §2) shares it. The
    suggested moves make their own, once per placement too (fetching it here costs the options-only env ~2%)."""
    return state.here.fact("mover", lambda: _Mover(state, f), f)


def _suggested(mover: _Mover) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    offered = tuple(mover.suggested())
    taken = {(m.x, m.y) for m in offered}
    more: list[Move] = []
    for move in mover.positions():
        if (move.x, move.y) not in taken:
            taken.add((move.x, move.y))
            more.append(move)
    return offered, tuple(more)


def can_move(state: SobState, f: Figure) -> bool:
    """Whether f has any of its :func:`suggested_moves` (asked just before they are offered, so finding them all
    costs nothing more)."""
    offered, more = suggested_moves(state, f)
    return bool(offered or more)


def free_move(state: SobState, f: Figure, dest: Point) -> Move:
    """A move of f straight to *dest*, anywhere the rules allow (SB-MOVE-1..3, SB-DOWN-3, SB-DOWN-7); else
    IllegalChoice naming the rule it breaks."""
    if f.state == "fallen":
        raise IllegalChoice("SB-DOWN-3", f"{f.id} is fallen and cannot move (it stands up first)")
    if f.state == "transfixed":
        raise IllegalChoice("SB-DOWN-7", f"{f.id} is transfixed and cannot move")
    if (dest - f.centre).length() < NOTATION_MM:
        raise IllegalChoice("SB-MOVE-1", f"{f.id} is at {point(dest.x, dest.y)} already")
    problem = _mover(state, f).problem(dest)
    if problem is not None:
        raise problem
    return Move(dest.x, dest.y, "move", "")


class _Mover:
    """One model's moves this action: the rules every destination is judged by (SB-MOVE-1..3), and the moves
    suggested to its player."""

    def __init__(self, state: SobState, f: Figure) -> None:
        self.state, self.f = state, f
        self.length = state.table.stick(f.move)
        self.others = [(gap_between(f, o), o) for o in state.figures if o.id != f.id]  # battlefield.near's measure
        self.enemies = [(gap, e.id, e) for gap, e in self.others if e.side != f.side]
        self.contacts = [e for gap, _, e in self.enemies if gap <= EPS]
        # the figures a slide of one move length can meet: the same ones battlefield.free_run would pick out itself
        self.nearby = tuple(o for gap, o in self.others if gap <= self.length + EPS)

    def problem(self, dest: Point) -> IllegalChoice | None:
        """Why f may not move straight to dest, or None when it may."""
        refusal = self._refusal(dest)
        return None if refusal is None else refusal()

    def _refusal(self, dest: Point) -> Callable[[], IllegalChoice] | None:
        """:meth:`problem`'s refusal, built only if it is shown (most destinations tried are only counted)."""
        f, table = self.f, self.state.table
        reach = math.hypot(dest.x - f.x, dest.y - f.y)
        if reach > self.length + NOTATION_MM:
            return lambda: _too_far(f, dest, reach, self.length)
        if not table.on_table(dest, f.r):
            return lambda: IllegalChoice("SB-MOVE-2", f"{point(dest.x, dest.y)} is off the table for {f.id}'s base")
        if table.drop_entry(f.centre, dest) is not None:
            return lambda: IllegalChoice("SB-MOVE-2", "the path meets a drop area")
        hit = first_blocker([o for gap, o in self.others if gap <= reach + EPS], table, f, dest)
        if hit is not None:
            return lambda: IllegalChoice("SB-MOVE-2", f"the path crosses {hit}")
        still = [e.id for e in self.contacts if touching(f.at(dest), e)]
        if still:
            return lambda: IllegalChoice("SB-MOVE-3", f"{f.id} starts in contact with {', '.join(still)}: its move must end out of contact with them")
        return None

    def legal(self, exact: Point, purpose: str, toward: str) -> Move | None:
        """The move to *exact* at notation's precision, if the rules allow it and it goes somewhere (0.5 mm)."""
        dest = Point(round(exact.x, 3), round(exact.y, 3))  # check the destination the move will really have
        if math.hypot(dest.x - self.f.x, dest.y - self.f.y) < 0.5 or self._refusal(dest) is not None:
            return None
        return Move(dest.x, dest.y, purpose, toward)

    def suggested(self) -> Iterator[Move]:
        """A charge into contact with each enemy within reach (the nearest first), an advance toward the nearest
        enemy and a retreat directly away from it."""
        state, f, length, enemies = self.state, self.f, self.length, self.enemies
        contacts = {e.id for e in self.contacts}
        # a charge ends in base contact: only enemies about one move length away or nearer, the nearest first
        for _, _, e in sorted((max(0.0, g), i, e) for g, i, e in enemies if g <= length + EPS and e.id not in contacts):
            contact_at = (e.centre - f.centre).length() - e.r - f.r
            if 0 < contact_at <= length:
                towards = (e.centre - f.centre).unit()
                if (move := self.legal(f.centre + towards.scaled(contact_at), "charge", e.id)) is not None:
                    yield move
        if enemies:
            _, _, nearest = min((max(0.0, g), i, e) for g, i, e in enemies)
            towards = (nearest.centre - f.centre).unit()
            if nearest.id not in contacts:
                run = min(length, free_run(self.nearby, state.table, f, towards, length))
                limit = (nearest.centre - f.centre).length() - nearest.r - f.r - EPS
                if run < limit and (move := self.legal(f.centre + towards.scaled(run), "advance", nearest.id)) is not None:
                    yield move
            away = towards.scaled(-1)
            run = free_run(self.nearby, state.table, f, away, length)
            if (move := self.legal(_clamp(state.table, f, f.centre + away.scaled(run)), "retreat", nearest.id)) is not None:
                yield move

    def positions(self) -> Iterator[Move]:
        """Into line beside the nearest friend, square to the enemy nearest it (base to base, on the nearer side);
        into the nearest cover; onto the nearest ground higher than f's (SB-TERR-1, SB-TERR-2): each only when
        one straight move reaches it.

        [DECISION] A line is kept beside the nearest standing friend, touching its base on the side nearer f (else
        the other), facing the enemy nearest that friend; the spot in cover or on high ground is the nearest point of the
        area where f's whole base fits (its centre, for an area smaller than the base).
        """
        state, f = self.state, self.f
        # the nearest standing friend and the enemy nearest it, ties to the lower id: min() of (distance, id, figure)
        # tuples, found in one pass each (issue 25 §2)
        friend: Figure | None = None
        nearest = 0.0
        for gap, o in self.others:
            if o.side == f.side and o.is_active and (friend is None or gap < nearest or (gap == nearest and o.id < friend.id)):
                friend, nearest = o, gap
        if friend is not None and self.enemies:
            facing: Figure | None = None
            for _, _, e in self.enemies:
                d = math.hypot(e.x - friend.x, e.y - friend.y)
                if facing is None or d < nearest or (d == nearest and e.id < facing.id):
                    facing, nearest = e, d
            assert facing is not None
            side = (facing.centre - friend.centre).unit().rotated(90).scaled(friend.r + f.r)
            near, far = friend.centre + side, friend.centre - side
            if (far - f.centre).length() < (near - f.centre).length():  # sorted by the distance from f, stably
                near, far = far, near
            if (f.centre - near).length() > EPS:  # not beside it already
                move = self.legal(near, "line", friend.id)
                if move is None:
                    move = self.legal(far, "line", friend.id)
                if move is not None:
                    yield move
        table = state.table
        here = table.ground_height(f.centre)
        for purpose, areas in (("cover", list(table.cover)), ("high_ground", [r for r, h in table.high_ground if h > here])):
            spots = [_inside(rect, f.centre, f.r) for rect in areas if not (purpose == "cover" and rect.contains(f.centre))]
            for spot in sorted(spots, key=lambda p: (p - f.centre).length()):
                if (spot - f.centre).length() <= self.length and (move := self.legal(spot, purpose, "")) is not None:
                    yield move
                    break


def _too_far(f: Figure, dest: Point, reach: float, length: float) -> IllegalChoice:
    """SB-MOVE-1's refusal of a destination beyond one move length (written only when it is shown)."""
    away, most = apart(reach, length, decimals=1)
    return IllegalChoice("SB-MOVE-1", f"{f.id} moves at most {most} mm ({f.move}); {point(dest.x, dest.y)} is {away} mm away")


def _inside(rect: Rect, p: Point, r: float) -> Point:
    """The point of *rect* nearest p where a base of radius r lies wholly inside (its centre if it is too small)."""
    inset_x, inset_y = min(r, (rect.x1 - rect.x0) / 2), min(r, (rect.y1 - rect.y0) / 2)
    return Point(min(max(p.x, rect.x0 + inset_x), rect.x1 - inset_x), min(max(p.y, rect.y0 + inset_y), rect.y1 - inset_y))


def _clamp(table: Table, f: Figure, p: Point) -> Point:
    return Point(min(max(p.x, f.r), table.width - f.r), min(max(p.y, f.r), table.depth - f.r))


def finish_move(state: SobState, f: Figure, move: Move, out: list[Event]) -> SobState:
    """The model ends its move where the move option said (SB-MOVE-1, SB-MOVE-2): a move about another model
    (a charge, an advance, a retreat, into line) is reported with it; any other with the ground it ends on."""
    if move.toward:
        out.append(ev.Moved(model=f.id, purpose=move.purpose, toward=move.toward, x=move.x, y=move.y))
    else:
        table = state.table
        ground = "cover" if table.cover_at(move.destination) is not None else "high_ground" if table.ground_height(move.destination) > 0 else ""
        out.append(ev.MovedTo(model=f.id, x=move.x, y=move.y, ground=ground))
    return replace_figure(state, f.at(move.destination))


def flee(state: SobState, f: Figure, moves: int, out: list[Event]) -> SobState:
    """A flight straight away from the nearest enemy (SB-MOVE-4)."""
    enemies = [e for e in state.figures if e.side != f.side]
    if not enemies or f.state != "standing":
        return state
    nearest = min(enemies, key=lambda e: ((e.centre - f.centre).length(), e.id))
    away = (f.centre - nearest.centre).unit()
    length = moves * state.table.stick(f.move)
    run = free_run(state.figures, state.table, f, away, length)
    dest = f.centre + away.scaled(run)
    entry = state.table.drop_entry(f.centre, dest)
    if entry is not None:
        t, depth = entry
        edge = f.centre + away.scaled(run * t)
        land = edge + away.scaled(f.r)
        if depth < state.table.stick("short") and state.table.on_table(land, f.r) and not landing_is_clear(state.figures, state.table, f, land):
            # [DECISION] no room at the foot of a low drop: the flight stops short of the edge, as if blocked
            stop = f.centre + away.scaled(max(0.0, run * t - 0.01))
            out.append(ev.Fled(model=f.id, x=round(stop.x, 3), y=round(stop.y, 3)))
            return replace_figure(state, f.at(stop))
        out.append(ev.Fled(model=f.id, x=round(edge.x, 3), y=round(edge.y, 3)))
        if depth >= state.table.stick("short"):
            return remove(state, f, "falling", out)
        if not state.table.on_table(land, f.r):
            return remove(state, f, "fled", out)  # it would land off the table: it has left the game
        return replace_figure(state, evolve(f.at(land), state="fallen"))
    if not state.table.on_table(dest, f.r):
        out.append(ev.Fled(model=f.id, x=round(dest.x, 3), y=round(dest.y, 3)))
        return remove(state, f, "fled", out)  # SB-MOVE-4: off the table counts as a casualty
    out.append(ev.Fled(model=f.id, x=round(dest.x, 3), y=round(dest.y, 3)))
    return replace_figure(state, f.at(dest))
