"""What the search AI knows of armies-clash (``kessen.core.tactics.Tactics``): which decisions are worth searching,
which of a move's many ends are worth weighing, and what a position is worth (``evaluation``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.ai.search import Budget
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.rulesets.armies_clash.ai.evaluation import worth
from kessen.rulesets.armies_clash.ai.greedy import AcAI, cohesive_anchors, expected_damage, spell_value
from kessen.rulesets.armies_clash.ai.paths import gap_in, walking_gaps
from kessen.rulesets.armies_clash.referee.options import AttackWith, Cast, CastArea, NoAction
from kessen.rulesets.armies_clash.referee.pieces import goals, piece_footprint, stats
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.rules.grid import Footprint, goal_distances
from kessen.rulesets.armies_clash.rules.movement import Destination

SEARCHED = frozenset({"action", "move", "act", "benefit"})
"""The decisions whose options are weighed against each other: a unit's battle action, where each piece moves, what
it attacks or casts, and the commander's benefit. The others (which stand activates next, where a pushed enemy goes,
overflow and shifts, rallying) are played as the greedy AI plays them."""


def distinct_ends(state: AcState, options: Sequence[Any]) -> list[Any]:
    """A move's ends worth weighing: for each distance the piece may end from its nearest goal (enemy or objective;
    for a piece that must walk to strike, the walking distance around deep water, as greedy reckons it, ``paths``),
    one end that keeps the piece within its unit's spacing (AC-INTEG-2, AC-INTEG-3: an isolated stand is struck
    with advantage for double damage) and one that does not, in cover (AC-TERR-3) where one is, else the cheapest.
    The ends that keep the unit together come first, nearest first; the many ends at one distance differ little."""
    turn = state.turn
    if turn is None:
        return list(options)
    piece = turn.piece
    side = state.side_of(piece)
    targets = goals(state, side)
    here = piece_footprint(state, piece)
    size = here.size
    walker = AcAI.reach(state, piece) == 1
    paths = walking_gaps(state.grid, size, stats(state, piece).swim_ft > 0, targets) if walker else None
    aims = goal_distances(state.grid.width, state.grid.height, targets)
    close = cohesive_anchors(state, piece, size)
    best: dict[tuple[int, int], tuple[tuple[bool, int], Destination]] = {}
    for o in options:
        if isinstance(o, Destination) and o.kind == "move":
            end = Footprint(o.x, o.y, size)
            gap = gap_in(paths, end, targets) if paths is not None else aims.at(o.x, o.y, size)
            loose = int(close is not None and (o.x, o.y) not in close)
            rank = (not any(state.grid.at(sq).kind == "forest" for sq in end.squares()), o.cost)
            found = best.get((loose, gap))
            if found is None or rank < found[0]:
                best[(loose, gap)] = (rank, o)
    return [best[key][1] for key in sorted(best)]


def distinct_acts(state: AcState, options: Sequence[Any]) -> list[Any]:
    """A piece's acts worth weighing against each other, in the order given, each once: of the attacks with the
    same routine, as likely to do as much, on stands of one unit with as many HP (AC-ATTACK-1: an orc regiment's
    three unhurt stands), only the first, as the playouts could tell them apart only by the dice; no action
    (AC-ACT-1) only where no attack or spell would do anything (it gains nothing over striking)."""
    turn = state.turn
    seen: set[Any] = set()
    kept: list[Any] = []
    useful = turn is not None and any(_act_value(state, o) > 0 for o in options)
    for o in options:
        key: Any = o
        if isinstance(o, NoAction) and useful:
            continue
        if isinstance(o, AttackWith) and turn is not None:
            stand = state.stand(o.target)
            if stand is not None:
                key = (stand.unit, stand.hp, o.using, expected_damage(state, turn.piece, o))
        if key not in seen:
            seen.add(key)
            kept.append(o)
    return kept


class AcTactics:
    """Greedy's choice first; then, at a searched decision, the other options: at a move one end per distance from
    the nearest goal, at an attack or a spell the others by their expected damage from the exact odds."""

    budget = Budget(nodes=1000, width=4, horizon=16, settle=16)
    """The search's default budget here: what one core searches in about 0.1 s compiled (issue 23 §2). Playouts of
    16 decisions (a unit's turn is about 7: its action, then each stand's move and attack) settled at the side's next
    decision of the kind weighed, so that each candidate is judged after the enemy has answered it; on the two-fords
    mirror 400 nodes over 8 decisions won 47% of 38 decided battles against greedy, 1,200 over 20 settled 64% of 39
    (issue 23 §5)."""

    def greedy(self, side: str) -> Decider:
        return AcAI(side)

    def candidates(self, state: AcState, decision: Decision, limit: int) -> Sequence[Any]:
        first = AcAI(decision.player).decide(state, decision)
        if decision.kind not in SEARCHED or limit <= 1:
            return [first]
        options: list[Any] = list(decision.options)
        if decision.kind == "move" and decision.player == state.side_of(decision.actor):
            options = distinct_ends(state, options) + [o for o in options if not isinstance(o, Destination)]
        elif decision.kind == "act":
            return distinct_acts(state, [first, *sorted(options, key=lambda o: -_act_value(state, o))])[:limit]
        rest = [o for o in options if o != first]
        return [first, *rest][:limit]

    def evaluate(self, state: AcState, side: str) -> float:
        return worth(state, side)


def _act_value(state: AcState, option: Any) -> float:
    turn = state.turn
    if turn is None:
        return 0.0
    if isinstance(option, AttackWith):
        return float(expected_damage(state, turn.piece, option))
    if isinstance(option, (Cast, CastArea)):
        return float(spell_value(state, turn.piece, option))
    return 0.0
