"""What the search AI knows of legions (``kessen.core.tactics.Tactics``): which decisions are worth searching, in
what order, and what a position is worth (``evaluation``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.ai.search import Budget
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.rulesets.legions.ai.evaluation import worth
from kessen.rulesets.legions.ai.greedy import LiAI, expected_damage
from kessen.rulesets.legions.referee.battlefield import EDGE_DIRECTION, free_run, room_to_edge
from kessen.rulesets.legions.referee.movement import Hold, InLine, MoveTo, allowance, block_offset, move_refusal, origins_of
from kessen.rulesets.legions.referee.state import Detachment, LiState
from kessen.rulesets.legions.referee.targeting import Fire

SEARCHED = frozenset({"target", "move"})
"""The decisions whose options are weighed against each other: the target of each attack, whose worth the search
sees within its budget (the volley, the saves and the losses on the target). The others are played as the greedy AI
plays them. [DECISION] Orders and moves are not searched: their worth shows only after the rest of the Orders and
Movement phases, beyond the default budget, and measured against greedy (issue 23 §5) a search over them on the
losses alone did worse than greedy's rules (titan-at-bay, Traitors: 2 of 8 battles won against greedy's 84%)."""

ORDER_RIVALS = ("advance", "first_fire", "march", "charge")
"""The Orders weighed against greedy's, in this order, when Orders are searched."""


class LiTactics:
    """Greedy's choice first; at a target, the other attacks after it by their expected damage from the exact
    ``fire`` odds, holding fire last."""

    budget = Budget(nodes=800, width=4, horizon=16)
    """The search's default budget here: what one core searches in about 0.1 s compiled (issue 23 §2)."""

    def greedy(self, side: str) -> Decider:
        return LiAI(side)

    def candidates(self, state: LiState, decision: Decision, limit: int) -> Sequence[Any]:
        first = LiAI(decision.player).decide(state, decision)
        if decision.kind not in SEARCHED or limit <= 1:
            return [first]
        rest = [o for o in decision.options if o != first]
        if decision.kind == "target":
            det = state.detachment(decision.actor)
            rest.sort(key=lambda o: -expected_damage(state, det, o) if isinstance(o, Fire) else 0.0)
        elif decision.kind == "order":
            rest = [o for o in ORDER_RIVALS if o in rest]
        elif decision.kind == "move":
            rest = [o for o in _moves(state, state.detachment(decision.actor), decision.options) if o != first]
        return [first, *rest][:limit]

    def evaluate(self, state: LiState, side: str) -> float:
        return worth(state, side)


def _moves(state: LiState, det: Detachment, options: Sequence[Any]) -> list[Any]:
    """A move's rivals to greedy's (as ordered): holding still, falling back toward the own edge out of the enemy's
    reach, a move in line toward the nearest enemy Detachment."""
    found: list[Any] = []
    if Hold() in options:
        found.append(Hold())
    back = _retreat(state, det)
    if back is not None:
        found.append(back)
    found += [o for o in options if isinstance(o, InLine)][:1]
    return found


def _retreat(state: LiState, det: Detachment) -> MoveTo | None:
    """The block move straight toward the Detachment's own battlefield edge, as far as every model may go (an
    Advance or March order only), or None when it is not legal or goes nowhere."""
    if det.order not in ("advance", "march"):
        return None
    movers, _ = block_offset(state, det, det.live[0].centre if det.live else EDGE_DIRECTION["south"])
    if not movers:
        return None
    edge = state.edge_of(det.owner)
    direction = EDGE_DIRECTION[edge]
    ignore = frozenset(m.id for m in movers)
    run = min(
        min(free_run(state, m, direction, allowance(det, m), zone_from=state.other(det.owner), ignore=ignore), room_to_edge(state, m, edge))
        for m in movers
    )
    if run < 1.0:
        return None
    cx = sum(m.x for m in movers) / len(movers) + direction.x * run
    cy = sum(m.y for m in movers) / len(movers) + direction.y * run
    choice = MoveTo(round(cx, 6), round(cy, 6))
    return choice if move_refusal(state, det.id, origins_of(det), choice) is None else None
