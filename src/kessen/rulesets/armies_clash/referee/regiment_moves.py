"""A regiment keeps together: the moves of its stands that would leave a stand unable to end the unit's turn next to
another stand of its unit are refused (§5.4, AC-REG-4); isolation marks what the rule cannot keep (AC-INTEG-2).

[DECISION] How AC-REG-4 is read. The seed: each stand of a regiment must, at the end of the turn, be adjacent to at
least one other stand of its unit. A unit's stands move one at a time, each all before or all after its action
(AC-MOVE-2, AC-REG-5), so a stand's move is judged when it is made, against the end of the unit's turn: the stands
that have moved stay where they are, the stands still to move may end anywhere their moves reach (staying put
included; a stand that has not moved before its action still may after it, before the next stand starts). A move
is refused when, after it, fewer stands of the unit could end the turn next to another stand of the unit than after
some other end of the same move, staying put included (``rules.integrity.Regiment`` counts them, reading generously:
what it cannot rule out counts as possible). So a stand may step ahead of its line when the others can follow, not
walk off alone, nor walk away from a stand that needs it, nor stay behind (at its last chance to move) when the
others have gone on. The order the general activates the stands in is judged the same way (AC-MOVE-2): a stand is
not activated while the stands in its way have still to move, if another order keeps more of them together (a
column moves head first).
When no end keeps a stand next to another, because its mates are gone or pinned next to enemy stands (AC-MOVE-3), or
too far to come, the rule binds no further: the best ends are all allowed, and the stand left alone is isolated at
the end of the turn (AC-INTEG-2). A stand that flees the battlefield ends no turn on it: a flight is refused only
when it would leave more stands alone than the best end on the grid. A routed unit's stands keep together too
(the enemy general picks among the ends that do, AC-MORALE-4). Skirmishers (AC-SKIRM-6) and unattached solos
(AC-SOLO-4) are only marked isolated.
Limits of the count: the stands still to move are not followed square by square among themselves (the mover's own
end is, where it stands in another's way), nor is a joined solo that leaves its stand onto a square a stand needed;
in the rare turn where that breaks a regiment up (3 in 1,200 turns of random play of the shipped scenarios, none in
AI play), the stand left alone is isolated.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Hashable, Sequence
from typing import cast

from kessen.core.records import evolve, record
from kessen.rulesets.armies_clash.referee.movement import Refusal, move_options, stand_budget, stand_mover
from kessen.rulesets.armies_clash.referee.options import Activate, ActivateSolo, Stay
from kessen.rulesets.armies_clash.referee.pieces import castable, enemy_footprints, occupancy
from kessen.rulesets.armies_clash.referee.state import AcState, Stand, Static, Turn, per_state
from kessen.rulesets.armies_clash.referee.steps import PieceMove
from kessen.rulesets.armies_clash.rules.grid import Footprint, Square
from kessen.rulesets.armies_clash.rules.integrity import Alone, Regiment, ToMove, regiment_key
from kessen.rulesets.armies_clash.rules.movement import Destination, Mover, Occupant, end_anchors, stand_search_reads

MoveOption = Destination | Stay
Judged = tuple[tuple[object, Alone], ...]
"""Each option of a decision with the fewest stands of the regiment it leaves alone."""


@record
class _Unit:
    """A regiment during its turn, as AC-REG-4 sees it: the stands that have moved (``fixed``), the ends each stand
    still to move (the active one included) may reach, the others all gone from its way (``to_come``), and the
    squares everything else takes (``occupied``)."""

    id: str
    fixed: tuple[tuple[str, Footprint], ...]
    to_come: tuple[tuple[str, ToMove], ...]
    occupied: dict[Square, Occupant]


def regiment_options(state: AcState, turn: Turn) -> tuple[MoveOption, ...]:
    """The suggested ends of the active piece's move (``movement.move_options``) that AC-REG-4 allows: for a regiment
    stand, those after which the fewest stands of its unit are left unable to end the turn next to another."""
    judged = _judged_moves(state)
    if not judged:
        return move_options(state, turn)
    best = _best(judged)
    return tuple(cast(MoveOption, o) for o, alone in judged if _kept(alone, best))


def regiment_activations(state: AcState, options: tuple[Activate | ActivateSolo, ...]) -> tuple[Activate | ActivateSolo, ...]:
    """The stands (and joined solos) a regiment may activate next under AC-REG-4 (AC-MOVE-2): those whose turn now
    leaves the fewest stands unable to end the turn next to another."""
    judged = _judged_activations(state)
    if not judged:
        return options
    best = _best(judged)
    refused = {o for o, alone in judged if not _kept(alone, best)}
    return tuple(o for o in options if o not in refused)


def regiment_refusal(state: AcState, option: object) -> Refusal | None:
    """Why AC-REG-4 refuses *option*, an end of the active stand's move the movement rules allow or a stand to
    activate; None when it does not (or the option is neither)."""
    moving = state.pending[0] if state.pending else None
    judged = _judged_moves(state) if isinstance(moving, PieceMove) else _judged_activations(state)
    alone = next((a for o, a in judged if o == option), None)
    if alone is None or _kept(alone, _best(judged)):
        return None
    unit = _unit(state)
    assert unit is not None and state.turn is not None
    best = _best(judged)
    lost = [i for i in alone.stands if i not in best.stands] or list(alone.stands)
    piece = option.stand if isinstance(option, Activate) else state.turn.piece
    names = [_layout(unit, piece)[i] for i in lost]
    others = ", ".join(n for n in names if n != piece)
    who = others if piece not in names else f"itself and {others}" if others else "itself"
    return "AC-REG-4", (
        f"{_doing(option)}, {piece} leaves {who} unable to end the turn next to another stand of {unit.id}; each stand of a regiment"
        f" ends its unit's turn next to another, and another choice keeps more of them so"
    )


def _doing(option: object) -> str:
    """What a refused choice does, as a refusal says it."""
    if isinstance(option, Activate):
        return "activated now"
    if isinstance(option, Stay):
        return "staying where it is"
    assert isinstance(option, Destination)
    return "fleeing the battlefield" if option.kind == "flee" else f"ending at {option.x},{option.y}"


def _kept(alone: Alone, best: Alone) -> bool:
    return alone.count <= best.count or not alone.exact


def _best(judged: Sequence[tuple[object, Alone]]) -> Alone:
    """The best arrangement an end on the grid leaves (a flight ends no turn on the grid: it is measured, not
    counted, AC-MOVE-5)."""
    on_grid = [a for o, a in judged if not (isinstance(o, Destination) and o.kind == "flee")]
    return min(on_grid, key=lambda a: a.count)


def _layout(unit: _Unit, piece: str) -> list[str]:
    """The ids of the stands as a :class:`Regiment` numbers them: those that have moved, those still to move, then
    *piece* (the stand moving, or activated)."""
    return [i for i, _ in unit.fixed] + [i for i, _ in unit.to_come if i != piece] + [piece]


@per_state
def _judged_moves(state: AcState) -> Judged:
    """Each end of the active stand's move with the fewest stands of its regiment it leaves alone; empty when the
    piece is no regiment stand with a mate on the grid."""
    unit = _unit(state)
    turn = state.turn
    stand = state.stand(turn.piece) if turn is not None and turn.piece else None
    step = state.pending[0] if state.pending else None
    if unit is None or turn is None or stand is None or not isinstance(step, PieceMove):
        return ()
    placed = tuple(fp for _, fp in unit.fixed)
    waiting = tuple(t for i, t in unit.to_come if i != stand.id)
    moved = _regiment(placed, waiting, size=stand.size)
    here = (stand.x, stand.y)
    judged: list[tuple[object, Alone]] = []
    for option in move_options(state, turn):
        if isinstance(option, Stay) and not step.second:  # it may still move after its action (AC-REG-5)
            own = _to_move(state, _without(state, stand.id), stand_mover(state, stand, turn.budget, retreat=turn.doing == "retreat"))
            alone = _regiment(placed, waiting + (own,)).alone()
        elif isinstance(option, Stay):
            alone = moved.alone(here)
        else:
            alone = moved.alone() if option.kind == "flee" else moved.alone((option.x, option.y))
        judged.append((option, alone))
    return _past_the_mover(state, unit, stand, judged)


def _past_the_mover(state: AcState, unit: _Unit, stand: Stand, judged: list[tuple[object, Alone]]) -> Judged:
    """*judged* with the best ends of the move counted once more with the stand standing there: a stand still to move
    whose end in the count lies beyond the mover's (the mover stands in the rectangle between them: a bridge, a gap)
    has its ends found again with the mover in its way (AC-REG-3), and where it can no longer go there, the end is
    counted again; until the best count holds."""
    turn = state.turn
    assert turn is not None
    side = state.unit(stand.unit).side
    placed = tuple(fp for _, fp in unit.fixed)
    first = len(placed)
    checked: set[int] = set()
    while True:
        best = _best(judged)
        for k, (option, alone) in enumerate(judged):
            if k in checked or not isinstance(option, Destination) or option.kind != "move" or alone.count > best.count:
                continue
            checked.add(k)
            end = Footprint(option.x, option.y, stand.size)
            waiting = [(i, t) for i, t in unit.to_come if i != stand.id]
            found_again: set[int] = set()
            while alone.exact:
                past = [(j - first, a) for j, a in alone.moves if j - first not in found_again and _beyond(end, waiting[j - first][1], a)]
                if not past:
                    break
                occupied = _with(unit.occupied, end, side, stand.id)
                for j, _ in past:
                    ident = waiting[j][0]
                    waiting[j] = (ident, _to_move(state, occupied, _mover_to_come(state, turn, state.stand_named(ident))))
                    found_again.add(j)
                if all(waiting[j][1].may_end(a) for j, a in past):
                    break
                alone = _regiment(placed, tuple(t for _, t in waiting), size=stand.size).alone((end.x, end.y))
            judged[k] = (option, alone)
        if _best(judged).count == best.count:
            return tuple(judged)


def _beyond(end: Footprint, stand: ToMove, anchor: Square) -> bool:
    """Whether *end* lies on the straight way of *stand* to *anchor*: in the rectangle their footprints span."""
    there = Footprint(anchor[0], anchor[1], stand.size)
    low_x, high_x = min(stand.at[0], there.x), max(stand.at[0], there.x) + stand.size - 1
    low_y, high_y = min(stand.at[1], there.y), max(stand.at[1], there.y) + stand.size - 1
    return anchor != stand.at and any(low_x <= x <= high_x and low_y <= y <= high_y for x, y in end.squares())


def _with(occupied: dict[Square, Occupant], end: Footprint, side: str, piece: str) -> dict[Square, Occupant]:
    """*occupied* with the regiment stand *piece* standing at *end*."""
    return {**occupied, **{square: ("regiment", side, piece) for square in end.squares()}}


@per_state
def _judged_activations(state: AcState) -> Judged:
    """Each stand the regiment may activate next with the fewest stands it leaves alone, if it moves now, before the
    others (its ends found with the others where they stand)."""
    unit = _unit(state)
    turn = state.turn
    if unit is None or turn is None:
        return ()
    placed = tuple(fp for _, fp in unit.fixed)
    judged: list[tuple[object, Alone]] = []
    for ident, _ in unit.to_come:
        stand = state.stand_named(ident)
        own = _to_move(state, _without(state, ident), _mover_to_come(state, turn, stand))
        waiting = tuple(t for i, t in unit.to_come if i != ident)
        judged.append((Activate(ident), _regiment(placed, waiting + (own,)).alone()))
    return tuple(judged)


_REGIMENTS_KEPT = 2048
_per_thread = threading.local()


def _regiment(placed: tuple[Footprint, ...], to_move: tuple[ToMove, ...], *, size: int = 1) -> Regiment:
    """The :class:`Regiment` of these stands, kept while the same question comes again (issue 26): the decisions of
    one turn, and the states an AI looks ahead to, ask about the same stands, each at the same places, while nothing
    within their reach moves (``ToMove.key``), and a kept regiment answers each place once. Kept per thread (a
    regiment searches in place), at most ``_REGIMENTS_KEPT`` of them."""
    key = regiment_key(placed, to_move, size)
    if key is None:
        return Regiment(placed, to_move, size=size)
    kept: dict[Hashable, Regiment] | None = getattr(_per_thread, "regiments", None)
    if kept is None:
        kept = _per_thread.regiments = {}
    found = kept.get(key)
    if found is None:
        if len(kept) >= _REGIMENTS_KEPT:
            kept.clear()
        found = kept[key] = Regiment(placed, to_move, size=size)
    return found


@per_state
def _unit(state: AcState) -> _Unit | None:
    """The regiment whose turn it is, or None when AC-REG-4 does not bind it (a solo's turn, a skirmisher unit, a
    regiment with one stand on the grid, AC-INTEG-5)."""
    turn = state.turn
    if turn is None or turn.solo or state.unit(turn.actor).type != "regiment":
        return None
    stands = state.unit_stands(turn.actor)
    if len(stands) < 2:
        return None
    moving = {s.id for s in stands if s.id not in turn.done or s.id == turn.piece}
    occupied = {square: o for square, o in occupancy(state).items() if o[2] not in moving}  # they may all move away
    return _Unit(
        turn.actor,
        tuple((s.id, s.footprint) for s in stands if s.id not in moving),
        tuple((s.id, _to_move(state, occupied, _mover_to_come(state, turn, s))) for s in stands if s.id in moving),
        occupied,
    )


def _without(state: AcState, piece: str) -> dict[Square, Occupant]:
    """The squares taken by every piece but *piece*: where a stand may go before the others move."""
    return {square: o for square, o in occupancy(state).items() if o[2] != piece}


def _mover_to_come(state: AcState, turn: Turn, stand: Stand) -> Mover:
    """A stand still to move, with the most it may move this turn: the unit's action, or, for a stand that cannot
    cast in a unit that casts, its own (Dash or Retreat, AC-SPELL-2)."""
    own_action = turn.action == "cast" and not castable(state, stand.id)
    doing = evolve(turn, piece=stand.id, piece_action="dash" if own_action else "")
    return stand_mover(state, stand, stand_budget(state, doing, stand), retreat=own_action or turn.action == "retreat")


def _to_move(state: AcState, occ: dict[Square, Occupant], mover: Mover) -> ToMove:
    """Every anchor *mover* may end its move at, its own included (flights and joins are no end on the grid), found
    only if the search asks: a step costs at least 1, and the road gives one more (AC-MOVE-1, AC-MOVE-7)."""
    here = mover.footprint
    taken, enemy_stands, enemies = stand_search_reads(
        mover, occ.items(), enemy_footprints(state, mover.side, stands_only=True), enemy_footprints(state, mover.side),
    )
    key = (state.static, taken, mover, enemy_stands, enemies, state.wrecked())
    return ToMove(here.size, (here.x, here.y), lambda: _ends(*key), reach=mover.budget + 1, key=key)


@functools.lru_cache(maxsize=1024)
def _ends(
    static: Static, taken: frozenset[tuple[Square, Occupant]], mover: Mover, enemy_stands: tuple[Footprint, ...],
    enemies: tuple[Footprint, ...], wrecked: frozenset[Square],
) -> frozenset[Square]:
    """The squares ``destinations`` ends a move on (``end_anchors``), kept for the same question: a stand still to
    move is asked about again and again, at each activation and each move of its unit's turn, while the squares
    around it stay as they were."""
    return end_anchors(static.grid, dict(taken), mover, enemy_stands=enemy_stands, enemies=enemies, wrecked=wrecked)
