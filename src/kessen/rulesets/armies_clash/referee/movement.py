"""Movement during a turn: where the active piece may go, moving it, fleeing the grid and forced movement (§5.12)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.objectives import eliminate_unit
from kessen.rulesets.armies_clash.referee.options import Stay
from kessen.rulesets.armies_clash.referee.pieces import (
    check_commander,
    enemy_footprints,
    goals,
    occupancy,
    piece_footprint,
    reveal_near,
    routed_piece,
    stats,
)
from kessen.rulesets.armies_clash.referee.rounds import piece_done
from kessen.rulesets.armies_clash.referee.state import (
    AcState,
    Solo,
    Stand,
    Turn,
    lost_plus,
    replace_solo,
    replace_stand,
    set_turn,
    then,
)
from kessen.rulesets.armies_clash.referee.steps import ForcedMove, PieceAct, PieceMove
from kessen.rulesets.armies_clash.rules.grid import Footprint, away_from, goal_distances
from kessen.rulesets.armies_clash.rules.movement import (
    Destination,
    Mover,
    classify,
    destinations,
    movement_budget,
    speed_squares,
)
from kessen.rulesets.armies_clash.scenario import may_join


def _mover(state: AcState, turn: Turn) -> Mover:
    piece = turn.piece
    s = state.stand(piece)
    c = stats(state, piece)
    side = state.side_of(piece)
    if s is not None:
        unit = state.unit(s.unit)
        return Mover(
            piece, side, False, s.footprint, c.swim_ft > 0, turn.budget,
            retreat=turn.doing == "retreat", routed=unit.routed, road_available=not turn.road_used,
        )
    solo = state.solo(piece)
    assert solo is not None
    return Mover(piece, side, True, solo.footprint, c.swim_ft > 0, turn.budget, road_available=not turn.road_used)


def turn_destinations(state: AcState, turn: Turn) -> list[Destination]:
    """Every legal end of the active piece's move, joins included (AC-MOVE-1..7, AC-JOIN-1)."""
    mover = _mover(state, turn)
    solo = state.solo(turn.piece)
    joiner = stats(state, turn.piece).size if solo is not None else None

    def can_join(stand_id: str) -> bool:
        stand = state.stand(stand_id)
        return joiner is not None and stand is not None and may_join(joiner, state.creature(stand.creature).size)

    return destinations(
        state.grid, occupancy(state), mover,
        enemy_stands=enemy_footprints(state, mover.side, stands_only=True),
        enemies=enemy_footprints(state, mover.side), wrecked=state.wrecked(), may_join=can_join,
    )


def move_options(state: AcState, turn: Turn) -> tuple[Destination | Stay, ...]:
    """Stay, or every legal end of a move (AC-MOVE-1..7). A routed stand's paths are the enemy's to pick, and
    its default runs farthest; otherwise the default closes on the nearest enemy or objective. A solo that
    declared Join may only move onto a stand to join it (AC-JOIN-1); other moves never end in a join."""
    dests = turn_destinations(state, turn)
    joining = state.solo(turn.piece) is not None and turn.action == "join"
    if joining:
        dests = [x for x in dests if x.kind == "join"]
    else:
        dests = [x for x in dests if x.kind != "join"]
    side = state.side_of(turn.piece)
    aims = goal_distances(state.grid.width, state.grid.height, goals(state, side))
    size = piece_footprint(state, turn.piece).size

    def near(x: Destination) -> int:
        return aims.to(Footprint(x.x, x.y, size))

    if routed_piece(state, turn.piece):
        dests.sort(key=lambda x: (x.kind != "flee", -near(x), x.cost, x.y, x.x))
        return tuple(dests) + (Stay(),)
    dests.sort(key=lambda x: (x.kind == "flee", near(x), x.cost, x.kind, x.y, x.x, x.stand))
    if joining:
        return tuple(dests)
    return tuple(dests) + (Stay(),)


def move(state: AcState, step: PieceMove, choice: Destination | Stay | None, out: list[Event]) -> AcState:
    """The active piece moves (or stays), joins a stand, or flees off the grid (AC-MOVE-1, AC-MOVE-5, AC-JOIN-1);
    a piece that fell before its move (None) is done."""
    turn = state.turn
    assert turn is not None
    piece = turn.piece
    if choice is None:
        return piece_done(state)
    if isinstance(choice, Stay):
        return _after_move(state, turn, step)
    dest = choice
    if dest.kind == "flee":
        return piece_done(flee(state, piece, out))
    stand = state.stand(piece)
    if dest.kind == "join":
        solo = state.solo(piece)
        assert solo is not None
        state = replace_solo(state, replace(solo, joined_to=dest.stand, hidden=False))
        out.append(ev.Moved(piece=piece, x=dest.x, y=dest.y, cost=dest.cost, road=dest.road))
        out.append(ev.Joined(solo=piece, stand=dest.stand))
        return piece_done(state)
    if stand is not None:
        state = replace_stand(state, replace(stand, x=dest.x, y=dest.y))
    else:
        solo = state.solo(piece)
        assert solo is not None
        state = replace_solo(state, replace(solo, x=dest.x, y=dest.y))
    out.append(ev.Moved(piece=piece, x=dest.x, y=dest.y, cost=dest.cost, road=dest.road))
    state = reveal_near(state, piece, out)
    left = 0 if dest.road else turn.budget - dest.cost
    state = set_turn(state, budget=left, road_used=turn.road_used or dest.road, moved=True)
    assert state.turn is not None
    return _after_move(state, state.turn, step)


def _after_move(state: AcState, turn: Turn, step: PieceMove) -> AcState:
    if step.second:
        return piece_done(state)
    if state.solo(turn.piece) is not None and turn.action == "join":
        return piece_done(state)
    return then(state, PieceAct())


def may_move_again(state: AcState, turn: Turn) -> bool:
    """Skirmisher stands and solos split their movement around the action (AC-SKIRM-5, AC-SOLO-6); a regiment stand
    moves all before or all after it (AC-REG-5)."""
    stand = state.stand(turn.piece)
    if stand is None:
        solo = state.solo(turn.piece)
        return solo is not None and solo.on_grid and solo.status == "up" and turn.budget > 0
    if state.unit(stand.unit).type == "skirmisher":
        return turn.budget > 0
    return not turn.moved


def after_action(state: AcState, turn: Turn) -> AcState:
    """After its action the piece moves on if it may (AC-SKIRM-5, AC-SOLO-6, AC-REG-5), else it is done."""
    return then(state, PieceMove(second=True)) if may_move_again(state, turn) else piece_done(state)


def flee(state: AcState, piece: str, out: list[Event]) -> AcState:
    """A piece with a square off the grid has fled the battlefield: eliminated at once, no gap left; its joined
    solos leave with it; a unit whose last stand flees is eliminated now (AC-MOVE-5, AC-END-3)."""
    stand = state.stand(piece)
    if stand is None:
        solo = state.solo(piece)
        assert solo is not None
        out.append(ev.Fled(piece=piece, unit=""))
        return replace_solo(state, replace(solo, status="gone"))
    unit = state.unit(stand.unit)
    out.append(ev.Fled(piece=piece, unit=unit.id))
    state = replace(state, stands=tuple(s for s in state.stands if s.id != piece), lost=lost_plus(state, unit.side))
    for solo in state.solos:
        if solo.joined_to == piece and solo.status in ("up", "dying", "stable"):
            out.append(ev.Fled(piece=solo.id, unit=unit.id))
            state = replace_solo(state, replace(solo, status="gone", joined_to=None))
    state = check_commander(state, unit.id, out)
    if not state.unit_stands(unit.id):
        state = eliminate_unit(state, unit.id, out)
    return state


def forced_move(state: AcState, step: ForcedMove, out: list[Event]) -> AcState:
    """Forced movement (AC-MOVE-8): the target moves straight away from the pusher, square by square, ignoring
    movement cost and the adjacency lock; it stops before any square it could not legally occupy (stop on: an enemy
    piece, an allied stand or solo, deep water without a swim speed); a step with any square off the grid makes it
    flee the battlefield (AC-MOVE-5). A piece that has left the grid, died or joined is not pushed."""
    stand = state.stand(step.piece)
    solo = state.solo(step.piece)
    if stand is not None:
        start = stand.footprint
    elif solo is not None and solo.on_grid:
        start = solo.footprint
    else:
        return state
    direction = away_from(piece_footprint(state, step.by), start)
    if direction is None:
        return state
    creature = stats(state, step.piece)
    mover = Mover(step.piece, state.side_of(step.piece), stand is None, start, creature.swim_ft > 0, 0)
    occ = occupancy(state)
    fp, moved = start, 0
    for _ in range(step.squares):
        place = classify(state.grid, occ, mover, fp.moved(direction), may_join=lambda _: False)
        if place.flee:
            out.append(ev.Pushed(piece=step.piece, by=step.by, x=fp.x + direction[0], y=fp.y + direction[1], squares=moved + 1))
            return flee(state, step.piece, out)
        if not (place.legal and place.stop):
            break
        fp, moved = fp.moved(direction), moved + 1
    if not moved:
        return state
    if stand is not None:
        state = replace_stand(state, replace(stand, x=fp.x, y=fp.y))
    elif solo is not None:
        state = replace_solo(state, replace(solo, x=fp.x, y=fp.y))
    out.append(ev.Pushed(piece=step.piece, by=step.by, x=fp.x, y=fp.y, squares=moved))
    return reveal_near(state, step.piece, out)


def stand_budget(state: AcState, turn: Turn, stand: Stand) -> int:
    """The stand's movement budget: the formation at the start of the turn, doubled or raised by Dash (AC-MOVE-1)."""
    unit = state.unit(stand.unit)
    speed = speed_squares(state.creature(stand.creature).speed_ft)
    formation = turn.formation if unit.type == "regiment" else None
    return movement_budget(speed, formation=formation, dash=turn.doing == "dash")


def solo_budget(state: AcState, solo: Solo, action: str) -> int:
    """An unattached solo's movement budget: its speed, raised by Dash (AC-MOVE-1, AC-DASH-1)."""
    speed = speed_squares(state.creature(solo.creature).speed_ft)
    return movement_budget(speed, formation=None, dash=action == "dash")
