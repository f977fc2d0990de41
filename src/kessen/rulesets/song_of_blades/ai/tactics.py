"""The song-of-blades tactics the search AI asks (``kessen.core.tactics.Tactics``, issue 23 §2): the choices worth
searching at a decision, the greedy AI's first, and what a position is worth (:mod:`.evaluation`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.ai.search import Budget
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.core.tactics import first_then
from kessen.rulesets.song_of_blades.ai.evaluation import evaluate
from kessen.rulesets.song_of_blades.ai.greedy import SobAI, attack_value, best_dice, first_to_activate
from kessen.rulesets.song_of_blades.referee.options import Activate, Attack, EndActivation, EndTurn, Move, StandUp
from kessen.rulesets.song_of_blades.referee.state import SobState

MOVE_ORDER = {"charge": 0, "advance": 1, "retreat": 3, "line": 2, "cover": 2, "high_ground": 2, "move": 4}
"""The order moves are searched in, by what they are for: into contact first, away from it last."""


class SobTactics:
    """Candidates: the greedy AI's choice, then the rest of the options a player weighs first (activations with the
    dice that pay best, the model nearest the enemy first, greedy's model with one die more second; attacks by their
    exact worth; charges, ending the activation, advances and the other moves; recoils and hack orders as the
    default policy lists them)."""

    budget = Budget(nodes=2000, width=4, horizon=12, settle=12)
    """The search's default budget here: what one core searches in about 0.1 s compiled (issue 23 §2, §5). Playouts
    settle at the side's next decision of the kind weighed (an activation is judged at the side's next activation,
    not mid-way through the enemy's turn, where the side about to strike decides what a contact is worth). A playout
    runs a turn or two (25-30 positions at the opening), so 1,000 positions gave the four candidates 5 to 13
    playouts each (the rivals halved away get the fewest), too few to tell a choice's gain (a few hundredths of a
    game) from its dice (tenths): on the hill-crossing mirror against greedy, 60 battles a seat, search won 56% of
    103 decided battles with 1,000 positions and 67% of 105 with 2,000, its searched decision's median 57-58 ms CPU
    on a loaded machine (``benchmarks/README.md``)."""

    def greedy(self, side: str) -> Decider:
        return SobAI(side)

    def candidates(self, state: SobState, decision: Decision, limit: int) -> Sequence[Any]:
        first = SobAI(decision.player).decide(state, decision)
        if decision.kind == "activation":
            ranked = _activations(state, decision)
        elif decision.kind == "move":
            ranked = _actions(state, decision)
        else:
            ranked = list(decision.options)
        return first_then(first, ranked, limit)

    def evaluate(self, state: SobState, side: str) -> float:
        return evaluate(state, side)


def _activations(state: SobState, decision: Decision) -> list[Any]:
    """Each model with its best dice, in greedy's order (the models that cannot cause a turnover first, the nearest
    the enemy first), the first one also with one die more (not the last model, whose best is three); ending the
    turn; then the other dice. A Quality-4 model's one, two or three dice are all worth half an action to greedy's
    rule of thumb (SB-ACT-1, SB-ACT-2), which takes one: the playouts weigh a second die's chance of a charge and an
    attack in one activation against its turnover (issue 23 §5)."""
    models = list(dict.fromkeys(o.model for o in decision.options if isinstance(o, Activate)))
    last = len(models) == 1
    ordered: list[str] = []
    while models:
        nearest = first_to_activate(state, tuple(models), decision.player)
        ordered.append(nearest)
        models.remove(nearest)
    best = [Activate(m, best_dice(state.get(m).quality, last)) for m in ordered]
    rest = [o for o in decision.options if isinstance(o, Activate) and o not in best]
    bolder = [] if last else [o for o in rest if o.model == ordered[0] and o.dice == best[0].dice + 1]
    return [*best[:1], *bolder, *best[1:], EndTurn(), *(o for o in rest if o not in bolder)]


def _actions(state: SobState, decision: Decision) -> list[Any]:
    """Standing up; attacks by their exact worth; then moves by purpose; ending the activation after the charges."""
    act = state.current
    assert act is not None
    attacks = [o for o in decision.options if isinstance(o, Attack)]
    attacks.sort(key=lambda o: (-attack_value(state, act.model, o.target, o.power_blow), o.target, o.power_blow))
    moves = sorted((o for o in decision.options if isinstance(o, Move)), key=lambda m: MOVE_ORDER.get(m.purpose, 4))
    charges = [m for m in moves if m.purpose == "charge"]
    others = [m for m in moves if m.purpose != "charge"]
    stand = [o for o in decision.options if isinstance(o, StandUp)]
    rest = [o for o in decision.options if not isinstance(o, Attack | Move | StandUp | EndActivation)]
    return [*stand, *attacks, *charges, EndActivation(), *others, *rest]
