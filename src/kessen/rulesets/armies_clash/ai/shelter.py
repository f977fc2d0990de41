"""Where the search moves a caster solo and the stands around it (issue 23 §5): the goblin-horde wizard, AC 12 and
40 HP, is the bows' first target, and an unattached solo with no friendly stand within 2 squares is isolated
(AC-INTEG-4): every shot at it has advantage and deals double damage (AC-INTEG-1). So a caster ends its moves
within 2 squares of a friendly stand (AC-SOLO-4), before its spell as far from the enemy as keeps its best area
spell in reach, after it as far as it may; and a stand that is the last to shelter it does not walk away."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.rulesets.armies_clash.ai.area import area_harm
from kessen.rulesets.armies_clash.referee.options import CastArea, Stay
from kessen.rulesets.armies_clash.referee.pieces import castable, piece_footprint
from kessen.rulesets.armies_clash.referee.state import AcState, Solo, other
from kessen.rulesets.armies_clash.referee.steps import PieceMove
from kessen.rulesets.armies_clash.rules.grid import Footprint, distance, reach_squares
from kessen.rulesets.armies_clash.rules.movement import Destination

SHELTER = 2
"""A solo with a friendly stand this near is not isolated (AC-INTEG-4)."""

FIRE_KEPT = 0.85
"""Of the ends of a caster's move before its spell, those that keep in reach at least this share of the best area
spell's harm are taken for their distance from the enemy (a fireball that burns a little less, cast from out of
the bows' short range, AC-RANGE-2)."""


def caster(state: AcState, piece: str) -> Solo | None:
    """*piece* as an unattached solo on the grid that can cast a spell, else None."""
    solo = state.solo(piece)
    if solo is None or not solo.on_grid or solo.joined_to is not None or solo.status != "up":
        return None
    return solo if castable(state, piece) else None


def _end(state: AcState, piece: str, option: Any) -> Footprint | None:
    """Where a move option leaves *piece* on the grid (None for a flight or a join)."""
    here = piece_footprint(state, piece)
    if isinstance(option, Stay):
        return here
    if isinstance(option, Destination) and option.kind == "move":
        return Footprint(option.x, option.y, here.size)
    return None


def sheltered(state: AcState, piece: str, option: Any) -> bool:
    """Whether the move *option* leaves *piece* within ``SHELTER`` squares of a friendly stand (a flight or a join
    counts as sheltered: it leaves the grid or joins one)."""
    end = _end(state, piece, option)
    if end is None:
        return True
    return any(distance(end, s.footprint) <= SHELTER for s in state.side_stands(state.side_of(piece)))


def area_reach(state: AcState, piece: str, foes: list[Footprint]) -> tuple[dict[tuple[int, int], float], int]:
    """The harm of the caster's first castable area spell at each origin that reaches an enemy (the origin square
    or one next to it: a 20-ft sphere is one square round its origin, AC-AOE-4), and its range in squares."""
    for sp in castable(state, piece):
        if sp.form == "area" and sp.range_ft != "self":
            origins = {(f.x + dx, f.y + dy) for f in foes for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
            harms = {o: area_harm(state, piece, CastArea(sp.id, o[0], o[1])) for o in origins if state.grid.on_grid(o)}
            return harms, reach_squares(int(sp.range_ft))
    return {}, 0


def safest_end(state: AcState, piece: str, options: Sequence[Any], *, second: bool) -> Any | None:
    """The end of a caster's move that keeps it safest: within ``SHELTER`` squares of a friendly stand, before its
    spell (a declared Cast a Spell, not *second*) with ``FIRE_KEPT`` of the best area spell's harm in reach, then
    farthest from the nearest enemy piece, then near the most friendly stands (one may walk away), then cheapest.
    None where no end is sheltered or no enemy stands."""
    side = state.side_of(piece)
    allies = [s.footprint for s in state.side_stands(side)]
    foes = [s.footprint for s in state.side_stands(other(side)) if s.hp > 0]
    foes += [piece_footprint(state, s.id) for s in state.solos if s.side != side and s.on_grid and s.status == "up"]
    ends = [(o, end) for o in options if (end := _end(state, piece, o)) is not None]
    ends = [(o, end) for o, end in ends if any(distance(end, a) <= SHELTER for a in allies)]
    if not ends or not foes:
        return None
    turn = state.turn
    if not second and turn is not None and turn.action == "cast":
        harms, reach = area_reach(state, piece, foes)
        fire = {id(o): max((h for sq, h in harms.items() if 0 < distance(end, Footprint(sq[0], sq[1], 1)) <= reach),
                           default=0.0) for o, end in ends}
        best = max(fire.values())
        if best > 0:
            ends = [(o, end) for o, end in ends if fire[id(o)] >= FIRE_KEPT * best]

    def rank(item: tuple[Any, Footprint]) -> tuple[int, int, int]:
        option, end = item
        near = min(distance(end, f) for f in foes)
        mates = sum(1 for a in allies if distance(end, a) <= SHELTER)
        return (-near, -mates, option.cost if isinstance(option, Destination) else 0)

    return min(ends, key=rank)[0]


def after_action(state: AcState) -> bool:
    """Whether the move to decide is the one after the piece's action (AC-SOLO-6)."""
    step = state.pending[0] if state.pending else None
    return isinstance(step, PieceMove) and step.second


def sheltering_ends(state: AcState, stand_id: str, options: Sequence[Any]) -> list[Any] | None:
    """The ends of a stand's move that keep within ``SHELTER`` squares every friendly caster solo this stand alone
    now shelters (AC-INTEG-4: the stand walking off would leave it isolated); None where it shelters no one alone,
    or where every end (or none) does."""
    stand = state.stand(stand_id)
    if stand is None:
        return None
    side = state.side_of(stand_id)
    others = [s.footprint for s in state.side_stands(side) if s.id != stand_id]
    needy = [piece_footprint(state, s.id) for s in state.solos if s.side == side and caster(state, s.id) is not None]
    needy = [fp for fp in needy if distance(stand.footprint, fp) <= SHELTER
             and not any(distance(o, fp) <= SHELTER for o in others)]
    if not needy:
        return None
    size = stand.footprint.size
    kept = [o for o in options if isinstance(o, Stay) or (isinstance(o, Destination) and o.kind == "move"
            and all(distance(Footprint(o.x, o.y, size), fp) <= SHELTER for fp in needy))]
    return kept if kept and len(kept) < len(options) else None
