"""The battlehost tactics the search AI asks (``kessen.core.tactics.Tactics``, issue 23 §2): the choices worth
searching at a decision, the greedy AI's first, and what a position is worth (:mod:`.evaluation`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.ai.search import Budget
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.core.tactics import first_then
from kessen.rulesets.battlehost.ai.evaluation import evaluate
from kessen.rulesets.battlehost.ai.greedy import BattlehostAI
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.battlefield import enemies_in_contact
from kessen.rulesets.battlehost.referee.state import BhState


class BattlehostTactics:
    """Candidates: the greedy AI's choice, then in a Move phase the charges (into a fight friends already make
    first), the moves round terrain, ending the moves and the advances; in a Shoot phase the shots only, while there
    is one (:func:`_shots`); elsewhere the options as the referee lists them (its default policy first)."""

    budget = Budget(nodes=600, width=4, horizon=12)
    """The search's default budget here: what one core searches in about 0.1 s compiled (issue 23 §2)."""

    def greedy(self, side: str) -> Decider:
        return BattlehostAI(side)

    def candidates(self, state: BhState, decision: Decision, limit: int) -> Sequence[Any]:
        first = BattlehostAI(decision.player).decide(state, decision)
        ranked = _moves(state, decision) if decision.kind == "move" else _shots(decision) if decision.kind == "shoot" else list(
            decision.options)
        return first_then(first, ranked, limit)

    def evaluate(self, state: BhState, side: str) -> float:
        return evaluate(state, side)


def _shots(decision: Decision) -> list[Any]:
    """The shots offered, without ending the shooting while there is one: a shot costs the shooter nothing (BH-SHOOT-1,
    BH-SHOOT-9: no roll hits a friend), so declining it is never better; weighed against shots, the end only won
    where the playouts' dice happened to favour it (issue 23 §5: search ended its shooting with archers still to
    shoot, three times in two battles it lost to ``random``)."""
    shots = [o for o in decision.options if isinstance(o, op.ShootAt)]
    return shots or list(decision.options)


def _moves(state: BhState, decision: Decision) -> list[Any]:
    """Charges at a model already fighting a friend first, then the other charges, the moves after ending the moves
    (round terrain, into line: the last listed first), ending the moves, then the advances."""
    options = list(decision.options)
    end = options.index(op.EndMoves())
    joined = {e.id for f in state.models if f.side == decision.player for e in enemies_in_contact(state.models, f)}
    charges = [o for o in options[:end] if isinstance(o, op.MoveTo) and o.charge is not None]
    first = [o for o in charges if o.charge in joined]
    return [*first, *(o for o in charges if o not in first), *reversed(options[end + 1:]), op.EndMoves(),
            *(o for o in options[:end] if o not in charges)]
