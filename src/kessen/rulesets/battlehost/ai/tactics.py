"""The battlehost tactics the search AI asks (``kessen.core.tactics.Tactics``, issue 23 §2): the choices worth
searching at a decision, the greedy AI's first, and what a position is worth (:mod:`.evaluation`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from kessen.ai.search import Budget
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.core.geometry import Point
from kessen.core.tactics import first_then
from kessen.rulesets.battlehost.ai.evaluation import evaluate, models_lost
from kessen.rulesets.battlehost.ai.greedy import BattlehostAI, behind
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.battlefield import enemies_in_contact
from kessen.rulesets.battlehost.referee.state import BhState, put_model
from kessen.rulesets.battlehost.rules.sides import SIDES

CAUTION = 0.25
"""How much more than their worth a side not behind weighs its own expected losses in a lone charge (each side's as a
fraction of its starting models, BH-TURN-3) before leading with it (:func:`coin_tosses`): with 1/4, a 1-vs-1 charge
of like warriors is a coin toss for a side of ten against ten, or against fourteen, but not for the fourteen
(line-fight's orcs, who win by numbers)."""

CAUTION_AHEAD = 1.0
"""The same for a side ahead on casualties by no more than one of its own models (BH-TURN-3: one more lost and it
is level or behind): its own expected losses in a lone charge count double, so that it does not stake its lead on a
charge whose exchange only just favours it (issue 23 §5: against ``random`` on Broken ground, search lost battles it
led by a model in lone charges at like models trapped against a wall, where the loser is struck twice: about 0.28 of
a model taken for 0.17 lost, a gain to the evaluation, but a fight as likely lost as won). A greater lead survives
the loss of a model, and the numbers that won it (line-fight's orcs) still trade at :data:`CAUTION`."""


class BattlehostTactics:
    """Candidates: the greedy AI's choice (in a Move phase, its choice among the moves without the coin tosses of
    :func:`coin_tosses`, which are not weighed at all), then in a Move phase the charges (into a fight friends already
    make first), the moves round terrain, ending the moves and the advances; in a Shoot phase the shots only, while
    there is one (:func:`_shots`); elsewhere the options as the referee lists them (its default policy first)."""

    budget = Budget(nodes=600, width=4, horizon=12)
    """The search's default budget here: what one core searches in about 0.1 s compiled (issue 23 §2)."""

    def greedy(self, side: str) -> Decider:
        return BattlehostAI(side)

    def candidates(self, state: BhState, decision: Decision, limit: int) -> Sequence[Any]:
        if decision.kind != "move":
            first = BattlehostAI(decision.player).decide(state, decision)
            return first_then(first, _shots(decision) if decision.kind == "shoot" else list(decision.options), limit)
        tosses = coin_tosses(state, decision)
        if tosses:  # greedy's choice without them, and no rival among them: the playouts' dice would pick one
            decision = Decision(decision.player, decision.kind, tuple(o for o in decision.options if o not in tosses),
                                decision.free, decision.actor)
        return first_then(BattlehostAI(decision.player).decide(state, decision), _moves(state, decision), limit)

    def evaluate(self, state: BhState, side: str) -> float:
        return evaluate(state, side)


def coin_tosses(state: BhState, decision: Decision) -> list[op.MoveTo]:
    """The charges a side not behind on casualties (BH-TURN-3) should not lead with: lone charges (no friend on the
    target, none other that can charge it this phase) whose exact fight (BH-PROC-5, trapped losers struck twice) is
    expected to cost the side a greater fraction of its starting models than it takes of the enemy's, its own losses
    weighed up by :data:`CAUTION`. Greedy charges at even odds while level; the search's playouts rarely tell such a
    charge from waiting (the fight's dice outweigh its worth), so it followed greedy into them, and weighed as rivals
    they were still taken where the dice favoured them (issue 23 §5: 57 of the 67 fights in five of search's battles
    against ``random`` on Broken ground, three not won, were 1-vs-1; with the tosses as rivals, three were taken in
    one lost battle). Counted in fractions of each side (issue 23 §5, line-fight), a side that wins by numbers leads
    with the even charges its numbers pay for."""
    if behind(state, decision.player):
        return []
    caution = CAUTION_AHEAD if _narrowly_ahead(state, decision.player) else CAUTION
    mine_start = state.start[SIDES.index(decision.player)]
    theirs_start = state.start[1 - SIDES.index(decision.player)]
    charges = [o for o in decision.options if isinstance(o, op.MoveTo) and o.charge is not None]
    found = []
    for o in charges:
        target = state.get(o.charge or "")
        if any(f.side == decision.player for f in enemies_in_contact(state.models, target)):
            continue  # joining a fight: it adds to it
        if any(c.charge == o.charge and c.model != o.model for c in charges):
            continue  # friends may follow it in (greedy counts them)
        charged = state.get(o.model).at(Point(o.x, o.y))
        good_lost, evil_lost = models_lost(put_model(state, charged), *(
            ([charged], [target]) if decision.player == "good" else ([target], [charged])))
        mine, theirs = (good_lost, evil_lost) if decision.player == "good" else (evil_lost, good_lost)
        if theirs / theirs_start - (1 + caution) * mine / mine_start < 0:
            found.append(o)
    return found


def _narrowly_ahead(state: BhState, side: str) -> bool:
    """*side* has lost a smaller fraction of its starting models than the enemy (BH-TURN-3), but would not after
    losing one more: its lead is at most one of its own models."""
    lost = [0, 0]
    for _model, s in state.casualties:
        lost[SIDES.index(s)] += 1
    mine = SIDES.index(side)
    lead = Fraction(lost[1 - mine], state.start[1 - mine]) - Fraction(lost[mine], state.start[mine])
    return 0 < lead <= Fraction(1, state.start[mine])


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
