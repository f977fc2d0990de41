"""End of round: casualties leave and gaps close, empty units are eliminated (AC-END-1..3); the steps after them
(dying solos, isolation, morale, defend VP, custom objectives, the end check) are in ``referee.dying``,
``integrity``, ``morale``, ``objectives`` and ``ending``, queued in order by ``steps.END_OF_ROUND`` (§5.24)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.objectives import eliminate_unit
from kessen.rulesets.armies_clash.referee.options import NoShift, Shift
from kessen.rulesets.armies_clash.referee.pieces import occupancy
from kessen.rulesets.armies_clash.referee.state import AcState, lost_plus, push, replace_stand
from kessen.rulesets.armies_clash.referee.steps import Pending, PlaceSolo, ShiftGap
from kessen.rulesets.armies_clash.rules.grid import DIRECTIONS, Square
from kessen.rulesets.armies_clash.rules.movement import Occupant


def eliminate_empty_units(state: AcState, out: list[Event]) -> AcState:
    """Units with no stands left are eliminated (AC-END-3)."""
    for unit in state.units:
        if not unit.eliminated and not state.unit_stands(unit.id):
            state = eliminate_unit(state, unit.id, out)
    return state


def eliminate_casualties(state: AcState, out: list[Event]) -> AcState:
    """Casualties leave the grid; their joined solos are placed; each gap may take one allied stand (AC-END-1, AC-END-2).
    Shifts follow the initiative order of the units that lost stands."""
    rank = {who: i for i, who in enumerate(state.order)}
    removed = sorted((s for s in state.stands if s.hp == 0), key=lambda s: (rank.get(s.unit, 0), s.id))
    if not removed:
        return state
    steps: list[Pending] = []
    places: list[Pending] = []
    for s in removed:
        side = state.unit(s.unit).side
        out.append(ev.StandRemoved(piece=s.id))
        vacated = tuple(s.footprint.squares())
        places += [PlaceSolo(solo.id, s.unit, vacated, (s.x, s.y)) for solo in state.solos if solo.joined_to == s.id and solo.status in ("up", "dying", "stable")]
        steps.append(ShiftGap(side, s.unit, vacated))
        state = replace(state, lost=lost_plus(state, side))
    gone = {s.id for s in removed}
    state = replace(state, stands=tuple(s for s in state.stands if s.id not in gone))
    return push(state, *places, *steps)


def shift_options(state: AcState, step: ShiftGap) -> tuple[Shift | NoShift, ...]:
    """Allied stands next to the gap that may step into it: at least one vacated square entered, otherwise a
    legal place, cost and lock ignored; each stand shifts once a round (AC-END-2)."""
    occ = occupancy(state)
    vacated = set(step.vacated)
    options: list[Shift | NoShift] = []
    for s in state.side_stands(step.side):
        if s.id in state.shifted:
            continue
        for dx, dy in DIRECTIONS:
            fp = s.footprint.moved((dx, dy))
            if not any(sq in vacated for sq in fp.squares()) or not state.grid.holds(fp):
                continue
            c = state.creature(s.creature)
            ok = all(
                (occ.get(sq) is None or occ[sq][2] == s.id) and sq in vacated | set(s.footprint.squares()) | _free(occ, sq)
                and (state.grid.at(sq).kind != "deep_water" or c.swim_ft > 0)
                for sq in fp.squares()
            )
            if ok:
                options.append(Shift(s.id, dx, dy))
    return tuple(options) + (NoShift(),)


def _free(occ: dict[Square, Occupant], sq: Square) -> set[Square]:
    return {sq} if sq not in occ else set()


def shift(state: AcState, step: ShiftGap, choice: Shift | NoShift, out: list[Event]) -> AcState:
    """The chosen stand steps into the gap (AC-END-2)."""
    if isinstance(choice, NoShift):
        return state
    stand = state.stand_named(choice.stand)
    state = replace_stand(state, replace(stand, x=stand.x + choice.dx, y=stand.y + choice.dy))
    out.append(ev.Shifted(piece=stand.id, x=stand.x + choice.dx, y=stand.y + choice.dy))
    return replace(state, shifted=state.shifted | {stand.id})
