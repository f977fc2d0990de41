"""Moving in games: straight moves of one measuring stick, and fleeing (SB-MOVE-*, SB-FALL-1)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from kessen.core.events import Event
from kessen.core.geometry import Point
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.battlefield import (
    EPS,
    Figure,
    Table,
    free_run,
    gap_between,
    landing_is_clear,
    sweep_is_clear,
    touching,
)
from kessen.rulesets.song_of_blades.referee.options import Move
from kessen.rulesets.song_of_blades.referee.state import SobState, remove, replace_figure


def move_options(state: SobState, f: Figure) -> list[Move]:
    """Straight moves of one move length: a charge into contact with each reachable enemy, an advance
    toward the nearest enemy, and a retreat directly away from it (SB-MOVE-1..3)."""
    return list(_moves(state, f))


def can_move(state: SobState, f: Figure) -> bool:
    """Whether f has any move of :func:`move_options` (found lazily: the first legal one is enough)."""
    return next(_moves(state, f), None) is not None


def _moves(state: SobState, f: Figure) -> Iterator[Move]:
    length = state.table.stick(f.move)
    enemies = [(gap_between(f, e), e.id, e) for e in state.figures if e.side != f.side]
    contacts = {e.id for gap, _, e in enemies if gap <= EPS}

    def legal(exact: Point, purpose: str, toward: str) -> Move | None:
        dest = Point(round(exact.x, 3), round(exact.y, 3))  # check the destination the move will really have
        if (dest - f.centre).length() < 0.5 or not state.table.on_table(dest, f.r):
            return None
        if state.table.drop_entry(f.centre, dest) is not None or not sweep_is_clear(state.figures, state.table, f, dest):
            return None
        moved = f.at(dest)
        if contacts and any(touching(moved, state.get(c)) for c in contacts):
            return None  # SB-MOVE-3: a move out of contact must end out of contact with all of them
        return Move(dest.x, dest.y, purpose, toward)

    # a charge ends in base contact: only enemies about one move length away or nearer, the nearest first
    for _, _, e in sorted((max(0.0, g), i, e) for g, i, e in enemies if g <= length + EPS and e.id not in contacts):
        contact_at = (e.centre - f.centre).length() - e.r - f.r
        if 0 < contact_at <= length:
            towards = (e.centre - f.centre).unit()
            if (move := legal(f.centre + towards.scaled(contact_at), "charge", e.id)) is not None:
                yield move
    if enemies:
        _, _, nearest = min((max(0.0, g), i, e) for g, i, e in enemies)
        towards = (nearest.centre - f.centre).unit()
        if nearest.id not in contacts:
            run = min(length, free_run(state.figures, state.table, f, towards, length))
            limit = (nearest.centre - f.centre).length() - nearest.r - f.r - EPS
            if run < limit and (move := legal(f.centre + towards.scaled(run), "advance", nearest.id)) is not None:
                yield move
        away = towards.scaled(-1)
        run = free_run(state.figures, state.table, f, away, length)
        if (move := legal(_clamp(state.table, f, f.centre + away.scaled(run)), "retreat", nearest.id)) is not None:
            yield move


def _clamp(table: Table, f: Figure, p: Point) -> Point:
    return Point(min(max(p.x, f.r), table.width - f.r), min(max(p.y, f.r), table.depth - f.r))


def finish_move(state: SobState, f: Figure, move: Move, out: list[Event]) -> SobState:
    """The model ends its move where the move option said (SB-MOVE-1, SB-MOVE-2)."""
    out.append(ev.Moved(model=f.id, purpose=move.purpose, toward=move.toward, x=move.x, y=move.y))
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
        return replace_figure(state, replace(f.at(land), state="fallen"))
    if not state.table.on_table(dest, f.r):
        out.append(ev.Fled(model=f.id, x=round(dest.x, 3), y=round(dest.y, 3)))
        return remove(state, f, "fled", out)  # SB-MOVE-4: off the table counts as a casualty
    out.append(ev.Fled(model=f.id, x=round(dest.x, 3), y=round(dest.y, 3)))
    return replace_figure(state, f.at(dest))
