"""Movement during a turn: where the active piece may go, moving it, fleeing the grid and forced movement (§5.12)."""

from __future__ import annotations

import functools
from dataclasses import replace

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.objectives import eliminate_unit
from kessen.rulesets.armies_clash.referee.options import PushTo, Stay
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
    per_state,
    replace_solo,
    replace_stand,
    set_turn,
    then,
)
from kessen.rulesets.armies_clash.referee.steps import ForcedMove, PieceAct, PieceMove
from kessen.rulesets.armies_clash.rules.grid import Direction, Footprint, Grid, Square, away_from, distance, goal_distances, lock_squares
from kessen.rulesets.armies_clash.rules.movement import (
    Destination,
    Mover,
    Occupant,
    PushEnd,
    destinations,
    movement_budget,
    push_ends,
    speed_squares,
    stand_search_reads,
    straight_push,
)
from kessen.rulesets.armies_clash.scenario import may_join


def _mover(state: AcState, turn: Turn) -> Mover:
    piece = turn.piece
    s = state.stand(piece)
    if s is not None:
        return stand_mover(state, s, turn.budget, retreat=turn.doing == "retreat", road_available=not turn.road_used)
    solo = state.solo_named(piece)
    swimmer = stats(state, piece).swim_ft > 0
    return Mover(piece, solo.side, True, solo.footprint, swimmer, turn.budget, road_available=not turn.road_used)


def stand_mover(state: AcState, stand: Stand, budget: int, *, retreat: bool, road_available: bool = True) -> Mover:
    """A stand as the movement rules see it, with *budget* squares to move (AC-MOVE-1, AC-MOVE-3, AC-MORALE-4)."""
    unit = state.unit(stand.unit)
    swimmer = state.creature(stand.creature).swim_ft > 0
    return Mover(
        stand.id, unit.side, False, stand.footprint, swimmer, budget,
        retreat=retreat, routed=unit.routed, road_available=road_available,
    )


def turn_destinations(state: AcState, turn: Turn) -> list[Destination]:
    """Every legal end of the active piece's move, joins included (AC-MOVE-1..7, AC-JOIN-1)."""
    return _destinations(state, turn, _mover(state, turn))


def _destinations(state: AcState, turn: Turn, mover: Mover) -> list[Destination]:
    solo = state.solo(turn.piece)
    joiner = stats(state, turn.piece).size if solo is not None else None

    def can_join(stand_id: str) -> bool:
        stand = state.stand(stand_id)
        return joiner is not None and stand is not None and may_join(joiner, state.creature(stand.creature).size)

    enemy_stands, enemies = enemy_footprints(state, mover.side, stands_only=True), enemy_footprints(state, mover.side)
    if solo is None:  # a stand joins nothing: its ends depend on the squares taken, not on who may be joined
        # nor on its own squares (it may stand on them): the question AC-REG-4's count asks of a stand still to move
        # (only what lies within its reach: ``stand_search_reads``)
        taken, locks, away = stand_search_reads(mover, (item for item in occupancy(state).items() if item[1][2] != mover.id), enemy_stands, enemies)
        return list(stand_destinations(state.grid, taken, mover, locks, away, state.wrecked()))
    return destinations(
        state.grid, occupancy(state), mover, enemy_stands=enemy_stands, enemies=enemies, wrecked=state.wrecked(), may_join=can_join,
    )


@functools.lru_cache(maxsize=1024)
def stand_destinations(
    grid: Grid, taken: frozenset[tuple[Square, Occupant]], mover: Mover, enemy_stands: tuple[Footprint, ...],
    enemies: tuple[Footprint, ...], wrecked: frozenset[Square],
) -> tuple[Destination, ...]:
    """``destinations`` of a stand (which joins nothing), kept for the same question: the stands of a unit are asked
    about again and again during its turn (each move, and AC-REG-4's count of the stands still to move), while the
    squares around them stay as they were. Asked with only what the search reads (``stand_search_reads``), it serves
    again where pieces moved out of its reach."""
    return tuple(destinations(grid, dict(taken), mover, enemy_stands=enemy_stands, enemies=enemies, wrecked=wrecked))


@per_state
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
        return aims.at(x.x, x.y, size)

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
        solo = state.solo_named(piece)
        state = replace_solo(state, replace(solo, joined_to=dest.stand, hidden=False))
        out.append(ev.Moved(piece=piece, x=dest.x, y=dest.y, cost=dest.cost, road=dest.road))
        out.append(ev.Joined(solo=piece, stand=dest.stand))
        return piece_done(state)
    if stand is not None:
        state = replace_stand(state, replace(stand, x=dest.x, y=dest.y))
    else:
        solo = state.solo_named(piece)
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
        solo = state.solo_named(piece)
        out.append(ev.Fled(piece=piece, unit=""))
        return replace_solo(state, replace(solo, status="gone"))
    unit = state.unit(stand.unit)
    out.append(ev.Fled(piece=piece, unit=unit.id))
    state = evolve(state, stands=tuple(s for s in state.stands if s.id != piece), lost=lost_plus(state, unit.side))
    for solo in state.solos:
        if solo.joined_to == piece and solo.status in ("up", "dying", "stable"):
            out.append(ev.Fled(piece=solo.id, unit=unit.id))
            state = replace_solo(state, replace(solo, status="gone", joined_to=None))
    state = check_commander(state, unit.id, out)
    if not state.unit_stands(unit.id):
        state = eliminate_unit(state, unit.id, out)
    return state


def _push(state: AcState, step: ForcedMove) -> tuple[Mover, Footprint, Direction] | None:
    """The pushed piece as the movement rules see it, the pusher's footprint and the straight way away from it; None
    when there is nothing to push: a piece that has left the grid, died or joined, or that overlaps its pusher."""
    stand = state.stand(step.piece)
    solo = state.solo(step.piece)
    if stand is not None:
        start = stand.footprint
    elif solo is not None and solo.on_grid:
        start = solo.footprint
    else:
        return None
    source = piece_footprint(state, step.by)
    direction = away_from(source, start)
    if direction is None:
        return None
    creature = stats(state, step.piece)
    return Mover(step.piece, state.side_of(step.piece), stand is None, start, creature.swim_ft > 0, 0), source, direction


def push_ends_of(state: AcState, step: ForcedMove) -> dict[tuple[int, int], PushEnd]:
    """Every place the push may leave its target, its own place included (AC-MOVE-8); empty when nothing is pushed."""
    found = _push(state, step)
    if found is None:
        return {}
    mover, source, _ = found
    return push_ends(state.grid, occupancy(state), mover, source, step.squares)


def push_options(state: AcState, step: ForcedMove) -> tuple[PushTo, ...]:
    """The suggested ends of a push when its general has a choice (else none): straight away as far as it goes (the
    default), then a flight off the grid if one is open, and staying put (AC-MOVE-8, AC-MOVE-5); every other end of
    ``push_ends_of`` is a free choice."""
    found = _push(state, step)
    if found is None:
        return ()
    mover, source, direction = found
    occ = occupancy(state)
    ends = push_ends(state.grid, occ, mover, source, step.squares)
    if len(ends) < 2:
        return ()
    straight = straight_push(state.grid, occ, mover, direction, step.squares)
    flights = sorted((e for e in ends.values() if e.flee), key=lambda e: (e.squares, e.y, e.x))
    suggested = [straight, *flights[:1], ends[(mover.footprint.x, mover.footprint.y)]]
    return tuple(dict.fromkeys(PushTo(e.x, e.y) for e in suggested))


def forced_move(state: AcState, step: ForcedMove, choice: PushTo | None, out: list[Event]) -> AcState:
    """Forced movement (AC-MOVE-8): the target ends where the pusher's general chose among ``push_ends_of``, or
    straight away from the pusher as far as it goes when there is no choice (None); cost and the adjacency lock do
    not count; a footprint with any square off the grid has fled the battlefield (AC-MOVE-5). A piece that has left
    the grid, died or joined is not pushed."""
    found = _push(state, step)
    if found is None:
        return state
    mover, _, direction = found
    if choice is None:
        end = straight_push(state.grid, occupancy(state), mover, direction, step.squares)
    else:
        end = push_ends_of(state, step)[(choice.x, choice.y)]
    if not end.squares:
        return state
    out.append(ev.Pushed(piece=step.piece, by=step.by, x=end.x, y=end.y, squares=end.squares))
    if end.flee:
        return flee(state, step.piece, out)
    stand = state.stand(step.piece)
    solo = state.solo(step.piece)
    if stand is not None:
        state = replace_stand(state, replace(stand, x=end.x, y=end.y))
    elif solo is not None:
        state = replace_solo(state, replace(solo, x=end.x, y=end.y))
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


# --- why a proposed end is not legal (the refusals of free moves and pushes, issue 10) ---------------------------

Refusal = tuple[str, str]
"""A rule ID and the reason, for ``IllegalChoice``."""


def _blocker(state: AcState, mover: Mover, fp: Footprint) -> Refusal | None:
    """Why *mover* may not stop with its footprint at *fp* (AC-MOVE-4), or None when it may."""
    occ = occupancy(state)
    for sq in fp.squares():
        if not state.grid.on_grid(sq):
            continue
        if state.grid.at(sq).kind == "deep_water" and not mover.swimmer:
            return "AC-MOVE-4", f"{sq[0]},{sq[1]} is deep water and {mover.id} cannot swim"
        occupant = occ.get(sq)
        if occupant is None or occupant[2] == mover.id:
            continue
        kind, side, ident = occupant
        if side != mover.side:
            return "AC-MOVE-4", f"enemy {ident} stands at {sq[0]},{sq[1]}"
        if kind == "regiment":
            return "AC-MOVE-4", f"allied regiment stand {ident} stands at {sq[0]},{sq[1]}"
        return "AC-MOVE-4", f"{ident} stands at {sq[0]},{sq[1]}: allies may be passed through, not stopped on"
    return None


def _off_grid(state: AcState, fp: Footprint) -> bool:
    return not all(state.grid.on_grid(sq) for sq in fp.squares())


def _end_refusal(state: AcState, mover: Mover, fp: Footprint, *, off_grid: str) -> Refusal | None:
    """Why *mover* may not end at *fp*, for a reason the square itself gives: off the grid (AC-MOVE-5, with the
    *off_grid* reason) or taken (AC-MOVE-4); else None."""
    if _off_grid(state, fp):
        return "AC-MOVE-5", off_grid
    return _blocker(state, mover, fp)


def move_refusal(state: AcState, turn: Turn, x: int, y: int, joining: str) -> Refusal:
    """Why the active piece may not end its move at ``x,y`` (joining the stand *joining*), a place no legal move
    reaches: the first rule it breaks (AC-JOIN-1, AC-MOVE-4, AC-MOVE-5, AC-MOVE-3, AC-MORALE-4, AC-MOVE-1)."""
    piece = turn.piece
    mover = _mover(state, turn)
    fp = Footprint(x, y, mover.footprint.size)
    declared_join = state.solo(piece) is not None and turn.action == "join"
    if joining or declared_join:
        if not declared_join:
            return "AC-JOIN-1", f"only a solo that declared Join moves onto a stand, and {piece} did not"
        if not joining:
            return "AC-JOIN-1", f"{piece} declared Join: its move ends on the stand it joins"
        return "AC-JOIN-1", f"{piece} cannot reach and join {joining} at {x},{y}"
    if (x, y) == (mover.footprint.x, mover.footprint.y):
        return "AC-MOVE-1", f"{piece} stands at {x},{y} already (say stay)"
    refused = _end_refusal(state, mover, fp, off_grid=f"no legal move of {piece} leaves the grid at {x},{y} (a flight ends at its first step off it)")
    if refused is not None:
        return refused
    if not mover.is_solo and not mover.retreat and any(
        sq in lock_squares(enemy_footprints(state, mover.side, stands_only=True)) for sq in mover.footprint.squares()
    ):
        return "AC-MOVE-3", f"{piece} is next to an enemy stand and cannot step (only Retreat frees it)"
    unbounded = replace(mover, budget=10**6, road_available=False)
    reach = {(d.x, d.y): d.cost for d in _destinations(state, turn, unbounded) if d.kind == "move"}
    if (x, y) in reach:
        return "AC-MOVE-1", f"reaching {x},{y} costs {reach[(x, y)]} squares of movement and {piece} has {turn.budget} left"
    unlocked = replace(unbounded, retreat=True)
    if not mover.is_solo and not mover.retreat and any((d.x, d.y) == (x, y) for d in _destinations(state, turn, unlocked)):
        return "AC-MOVE-3", f"every way to {x},{y} passes next to an enemy stand, where {piece} would have to stop"
    if mover.routed:
        return "AC-MORALE-4", f"a routed stand never steps closer to the nearest enemy, and every way to {x},{y} does"
    return "AC-MOVE-4", f"no path takes {piece} to {x},{y}: enemies, allied regiments, deep water or the lock bar every way"


def push_refusal(state: AcState, step: ForcedMove, x: int, y: int) -> Refusal:
    """Why the push may not leave its target at ``x,y``, a place ``push_ends_of`` does not hold (AC-STAND-4,
    AC-MOVE-8, AC-MOVE-5, AC-MOVE-4)."""
    found = _push(state, step)
    assert found is not None, "a push decision with nothing to push"
    mover, source, _ = found
    start = mover.footprint
    fp = Footprint(x, y, start.size)
    steps = abs(x - start.x) + abs(y - start.y)
    if steps > step.squares:
        return "AC-STAND-4", f"{step.by}'s push moves {step.piece} at most {step.squares} squares, and {x},{y} is {steps} away"
    if distance(source, fp) - distance(source, start) != steps:
        return "AC-MOVE-8", f"each step of a push takes {step.piece} farther from {step.by}, and {x},{y} is not that way"
    refused = _end_refusal(state, mover, fp, off_grid=f"a push ends at its first step off the grid, before {x},{y}")
    if refused is not None:
        return refused
    return "AC-MOVE-8", f"a push stops before any square {step.piece} could not occupy, and every way to {x},{y} has one"
