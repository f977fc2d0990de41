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
from kessen.rulesets.legions.referee.movement import ChargeAt, Hold, InLine, MoveTo
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.targeting import Fire

SEARCHED = frozenset({"target", "move"})
"""The decisions whose options are weighed against each other: the target of each attack, whose worth the search
sees within its budget (the volley, the saves and the losses on the target), and each move, whose worth shows in
the firing that follows and in who can shoot whom after it (the evaluation's threat). The others are played as the
greedy AI plays them. [DECISION] Orders are not searched: measured against greedy (issue 23 §5) a search over them
on the losses alone did worse than greedy's rules (titan-at-bay, Traitors: 2 of 8 battles won against greedy's 84%),
and with the threat term it changed nothing measurable (titan-at-bay Loyalists 13 of 60 won against 12 of 60,
armoured-spearhead Traitors 11 of 60 against 12 of 60). What the Orders miss, the moves make up: a line ordered to
Advance out of its range may still pull back in line out of the enemy's."""

class LiTactics:
    """Greedy's choice first; at a target, the other attacks after it by their expected damage from the exact
    ``fire`` odds, holding fire last; at a move, a charge at each of the two nearest enemy Detachments in reach, holding
    still, the move back in line toward the own edge and the move in line toward the nearest enemy."""

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
        elif decision.kind == "move":
            rest = [o for o in _moves(decision.options) if o != first]
        return [first, *rest][:limit]

    def evaluate(self, state: LiState, side: str) -> float:
        return worth(state, side)


def _moves(options: Sequence[Any]) -> list[Any]:
    """A move's rivals to greedy's (as ordered): a charge at each of the two nearest enemy Detachments in reach (the
    charge as ordered goes for the nearest model, which may be the wrong Detachment to fight), holding still, the
    move back in line toward the own edge (out of the enemy's reach), a move in line toward the nearest enemy
    Detachment."""
    found: list[Any] = [o for o in options if isinstance(o, ChargeAt)][:2]
    if Hold() in options:
        found.append(Hold())
    found += [o for o in options if isinstance(o, MoveTo)][:1]
    found += [o for o in options if isinstance(o, InLine)][:1]
    return found

