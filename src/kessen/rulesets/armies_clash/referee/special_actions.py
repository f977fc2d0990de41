"""Configure, Dash, Hide, Join and Retreat as the referee runs them (§5.18–§5.22); the budgets of Dash and
Retreat's freedom to move are in ``referee.movement``."""

from __future__ import annotations

from dataclasses import replace

from kessen.rulesets.armies_clash.rules.d20 import check_told
from kessen.core.engine import Rolled
from kessen.core.events import Event
from kessen.core.records import equal
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.movement import after_action, turn_destinations
from kessen.rulesets.armies_clash.referee.options import JoinStand, Leave, PlaceAt, Stay, Switch
from kessen.rulesets.armies_clash.referee.pieces import check_commander, occupancy, piece_footprint, stats
from kessen.rulesets.armies_clash.referee.state import (
    AcState,
    Turn,
    other,
    push,
    replace_solo,
    replace_stand,
    replace_unit,
    set_turn,
    then,
)
from kessen.rulesets.armies_clash.referee.steps import PieceAct, PieceDeclare, PlaceSolo, StealthRoll
from kessen.rulesets.armies_clash.rules.grid import Footprint, adjacent, distance
from kessen.rulesets.armies_clash.rules.movement import Destination, FormationName, Mover, classify, speed_squares
from kessen.rulesets.armies_clash.scenario import may_join


def configure(state: AcState, unit_id: str, formation: FormationName, out: list[Event]) -> AcState:
    """The regiment takes its new formation at once (AC-REG-2, AC-FORM-1)."""
    unit = state.unit(unit_id)
    state = replace_unit(state, replace(unit, formation=formation))
    out.append(ev.Configured(unit=unit.id, formation=formation))
    return state


def hide(state: AcState, turn: Turn) -> AcState:
    """A piece in forest or obscured squares makes a Stealth check against the best passive Perception among enemy
    stands and unattached enemy solos; others take no action (AC-HIDE-1..3)."""
    piece = turn.piece
    fp = piece_footprint(state, piece)
    can = any(state.grid.on_grid(s) and (state.grid.at(s).kind == "forest" or state.grid.at(s).obscured) for s in fp.squares())
    state = after_action(state, turn)
    if not can:
        return state
    side = state.side_of(piece)
    watchers = [state.creature(s.creature).passive_perception for s in state.side_stands(other(side))]
    watchers += [state.creature(s.creature).passive_perception for s in state.solos if s.side != side and s.on_grid and s.status == "up"]
    dc = max(watchers, default=10)
    return push(state, StealthRoll(piece, stats(state, piece).skill("stealth"), dc))


def stealth_result(state: AcState, step: StealthRoll, rolled: Rolled, out: list[Event]) -> AcState:
    """A successful Stealth check hides the piece (AC-HIDE-1)."""
    hidden = bool(rolled.value)
    out.append(ev.Hid(piece=step.piece, hidden=hidden, **check_told(rolled.dice)))
    stand = state.stand(step.piece)
    if stand is not None:
        return replace_stand(state, replace(stand, hidden=hidden))
    solo = state.solo_named(step.piece)
    return replace_solo(state, replace(solo, hidden=hidden))


def solo_join_destinations(state: AcState, solo: str) -> list[Destination]:
    """The stands an unattached solo could reach and join this turn (AC-JOIN-1, AC-JOIN-2)."""
    c = stats(state, solo)
    turn = Turn(solo, True, action="join", piece=solo, budget=speed_squares(c.speed_ft))
    return [x for x in turn_destinations(state, turn) if x.kind == "join"]


def joined_options(state: AcState, piece: str) -> tuple[Stay | Switch | Leave, ...]:
    """A joined solo's move: stay, leave its stand for adjacent squares, or switch to an adjacent stand of the
    unit (AC-JOIN-4)."""
    solo = state.solo(piece)
    assert solo is not None and solo.joined_to is not None
    stand = state.stand_named(solo.joined_to)
    options: list[Stay | Switch | Leave] = [Stay()]
    size = solo.size
    c = state.creature(solo.creature)
    for m in state.unit_stands(stand.unit):
        if m.id != stand.id and adjacent(m.footprint, stand.footprint) and may_join(c.size, state.creature(m.creature).size):
            options.append(Switch(m.id))
    occ = occupancy(state)
    mover = Mover(piece, solo.side, True, Footprint(-99, -99, size), c.swim_ft > 0, 0)
    sfp = stand.footprint
    for x in range(sfp.x - size, sfp.x + sfp.size + 1):
        for y in range(sfp.y - size, sfp.y + sfp.size + 1):
            fp = Footprint(x, y, size)
            if adjacent(fp, sfp) and state.grid.holds(fp):
                place = classify(state.grid, occ, mover, fp, may_join=lambda _: False)
                if place.legal and place.stop:
                    options.append(Leave(x, y))
    return tuple(options)


def joined_move(state: AcState, choice: Stay | Switch | Leave, out: list[Event]) -> AcState:
    """A joined solo stays, switches stands or leaves its stand; then it acts (AC-JOIN-4, AC-JOIN-6, AC-ACT-3)."""
    turn = state.turn
    assert turn is not None
    solo = state.solo_named(turn.piece)
    if isinstance(choice, Switch):
        state = replace_solo(state, replace(solo, joined_to=choice.stand))
        out.append(ev.Joined(solo=solo.id, stand=choice.stand))
        return then(set_turn(state, action="free"), PieceAct())
    if isinstance(choice, Leave):
        unit = state.unit(turn.actor)
        state = replace_solo(state, replace(solo, joined_to=None, x=choice.x, y=choice.y))
        out.append(ev.LeftStand(solo=solo.id, x=choice.x, y=choice.y))
        state = check_commander(state, unit.id, out)
        if unit.routed:  # leaving a routed unit costs no movement: a whole unattached solo's turn follows (AC-JOIN-6)
            return then(set_turn(state, action="free", budget=0), PieceDeclare(joined=True))
        return then(set_turn(state, action="free", budget=0), PieceAct())
    return then(set_turn(state, action="free"), PieceAct())


def place_options(state: AcState, step: PlaceSolo) -> tuple[PlaceAt | JoinStand, ...]:
    """Where a solo of an eliminated stand goes: on the vacated squares (its old anchor first), onto an adjacent
    stand of the unit, or failing room, the nearest legal place (AC-JOIN-5)."""
    solo = state.solo_named(step.solo)
    c = state.creature(solo.creature)
    size = solo.size
    occ = occupancy(state)
    vacated = set(step.vacated)

    def fits(fp: Footprint) -> bool:
        if not state.grid.holds(fp):
            return False
        for sq in fp.squares():
            if sq in occ or (state.grid.at(sq).kind == "deep_water" and c.swim_ft == 0):
                return False
        return True

    places: list[PlaceAt] = []
    xs = [sq[0] for sq in vacated]
    ys = [sq[1] for sq in vacated]
    for x in range(min(xs) - size + 1, max(xs) + 1):
        for y in range(min(ys) - size + 1, max(ys) + 1):
            fp = Footprint(x, y, size)
            if any(sq in vacated for sq in fp.squares()) and fits(fp):
                places.append(PlaceAt(x, y))
    places.sort(key=lambda p: (not equal(p, PlaceAt(*step.anchor)), p.y, p.x))
    vac_fp = [Footprint(sq[0], sq[1]) for sq in vacated]
    joins = [
        JoinStand(m.id) for m in state.unit_stands(step.unit)
        if any(adjacent(m.footprint, v) for v in vac_fp) and may_join(c.size, state.creature(m.creature).size)
    ]
    if not places and not joins:
        for radius in range(1, state.grid.width + state.grid.height):
            ring = [
                PlaceAt(x, y) for x in range(state.grid.width) for y in range(state.grid.height)
                if min(distance(Footprint(x, y, size), v) for v in vac_fp) == radius and fits(Footprint(x, y, size))
            ]
            if ring:
                places = sorted(ring, key=lambda p: (p.y, p.x))
                break
    return tuple(places) + tuple(joins) or (PlaceAt(*step.anchor),)


def place_solo(state: AcState, step: PlaceSolo, choice: PlaceAt | JoinStand, out: list[Event]) -> AcState:
    """The solo of an eliminated stand joins another stand or is placed on the grid (AC-JOIN-5)."""
    solo = state.solo_named(step.solo)
    if isinstance(choice, JoinStand):
        out.append(ev.Joined(solo=solo.id, stand=choice.stand))
        return replace_solo(state, replace(solo, joined_to=choice.stand))
    out.append(ev.LeftStand(solo=solo.id, x=choice.x, y=choice.y))
    state = replace_solo(state, replace(solo, joined_to=None, x=choice.x, y=choice.y))
    unit = next((u for u in state.units if u.commander == solo.id), None)
    return check_commander(state, unit.id, out) if unit is not None else state
