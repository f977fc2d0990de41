"""The exact numbers shown beside a choice (``Game.odds``): what an attack, a way of allocating hits or a fight is likely
to do, and what an Order, a move or an activation leads to (``referee.prospects``), from the same procedures the engine
draws from; and the odds calculator's input that gives them (``Game.odds_input``). The keys are those of the
catalogue's ``[odds]`` table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.dice import Dist
from kessen.rulesets.legions.referee import steps as st
from kessen.rulesets.legions.referee.allocation import AllocateTo, HitByHit, InOrder, hits_dist, one_hit, rest_question
from kessen.rulesets.legions.referee.calculator import attack_input, procedure_input, volley_input
from kessen.rulesets.legions.referee.close_combat import fight_question
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.referee.firing import AttackDamage, attack_damage, volley_dist, volley_question
from kessen.rulesets.legions.referee.prospects import FIRING_ORDERS, Prospect, after_move, best_attack, charge_combat
from kessen.rulesets.legions.referee.state import Detachment, LiState
from kessen.rulesets.legions.referee.targeting import Fire
from kessen.rulesets.legions.rules.close_combat import CombatQuestion, Side

Odds = dict[str, Fraction]


def choice_odds(state: LiState, choice: Any) -> Odds | None:
    """The exact numbers of *choice* at the decision *state* stands at, or None where there are none to show."""
    step = state.pending[0]
    if isinstance(choice, Fire) and isinstance(step, st.ChooseTarget):
        return attack_odds(state, step.detachment, choice)
    leads = _leads_to(state, step, choice)
    if leads is not None:
        return _leads_odds(leads)
    if isinstance(step, st.VolleyAllocation | st.AllocateHit):
        return _allocation_odds(state, step, choice)
    if isinstance(step, st.ChooseFight) and isinstance(choice, tuple):
        a, b = (state.model(m) for m in choice)
        won = answer(fight_question(state, a, b))
        return {
            "first_wins": won.probability(lambda o: o.winner == "a"),
            "second_wins": won.probability(lambda o: o.winner == "b"),
            "draw": won.probability(lambda o: o.winner == "draw"),
        }
    return None


def attack_odds(state: LiState, det_id: str, choice: Fire) -> Odds:
    """A declared attack as a whole (LI-FIRE-2, §5.2 chained): the mean of every loss it causes (Wounds and Void
    Shield levels), the chance of at least one Wound, and the mean number of models destroyed."""
    return _whole_attack_odds(attack_damage(state, state.detachment(det_id), choice))


def _whole_attack_odds(damage: Dist[AttackDamage]) -> Odds:
    return {
        "expected_damage": damage.map(lambda d: d.losses).mean(),
        "p_wound": damage.probability(lambda d: d.wounds > 0),
        "expected_destroyed": damage.map(lambda d: d.destroyed).mean(),
    }


def _allocation_odds(state: LiState, step: st.VolleyAllocation | st.AllocateHit, choice: Any) -> Odds | None:
    v = step.volley
    if isinstance(choice, AllocateTo):
        hit = answer(one_hit(state, v, state.model(choice.model)))
        return {
            "p_wound": hit.probability(lambda o: o.wounds > 0),
            "p_destroyed": hit.probability(lambda o: o.destroyed > 0),
            "p_shield": hit.probability(lambda o: o.shields_lost > 0),
        }
    if isinstance(choice, HitByHit):
        hits = hits_dist(state, v)
        return None if hits is None else {"expected_hits": hits.mean()}
    assert isinstance(choice, InOrder)
    if isinstance(step, st.AllocateHit):
        return _damage_odds(answer(rest_question(state, step)))
    question = volley_question(state, v)
    return None if question is None else _damage_odds(volley_dist(question))


def _damage_odds(dist: Dist[Any]) -> Odds:
    return {
        "expected_wounds": dist.map(lambda o: o.wounds).mean(),
        "p_wound": dist.probability(lambda o: o.wounds > 0),
        "expected_destroyed": dist.map(lambda o: o.destroyed).mean(),
    }




Leads = tuple[LiState, Detachment, Prospect] | tuple[CombatQuestion, Side]
"""What an Order, a move or an activation leads to: the attack the Detachment could make (the battlefield it fires
on, the Detachment, its best attack) or the combat its charge starts (the question, the Detachment's side in it)."""


def _leads_to(state: LiState, step: Any, choice: Any) -> Leads | None:
    """The attack or the combat *choice* leads to (``referee.prospects``): an Order that fires (LI-STAGE-2), a
    Detachment activated to fire (LI-ACT-1), an Advance Detachment's move (then it fires) or a Charge Detachment's
    move (then it fights); None where it leads to no dice of its own."""
    if isinstance(step, st.IssueOrder) and choice in FIRING_ORDERS:
        det_id, at = step.detachment, state
    elif isinstance(step, st.ChooseActivation) and isinstance(choice, str):
        det_id, at = choice, state
    elif isinstance(step, st.MoveDetachment) and state.detachment(step.detachment).order in ("advance", "charge"):
        moved = after_move(state, step, choice)
        if moved is None:
            return None
        det_id, at = step.detachment, moved
        if at.detachment(det_id).order == "charge":
            return charge_combat(at, det_id)
    else:
        return None
    det = at.detachment(det_id)
    best = best_attack(at, det)
    return None if best is None else (at, det, best)


def _leads_odds(leads: Leads) -> Odds:
    """A combat's chance to be won and lost by the Detachment's side (LI-RESULT-1..2), or the best attack's odds."""
    if isinstance(leads[0], CombatQuestion):
        question, side = leads
        won = answer(question)
        return {
            "combat_won": won.probability(lambda o: o.winner == side),
            "combat_lost": won.probability(lambda o: o.winner not in (side, "draw")),
        }
    return _whole_attack_odds(leads[2].damage)


def best_target(state: LiState, choice: Any) -> str | None:
    """The target of the best attack an Order, an activation or a move leads to (its odds are shown beside it), or
    None."""
    step = state.pending[0]
    leads = None if isinstance(step, st.ChooseTarget) else _leads_to(state, step, choice)
    return None if leads is None or isinstance(leads[0], CombatQuestion) else leads[2].attack.target


def odds_input(state: LiState, choice: Any) -> tuple[str, dict[str, Any]] | None:
    """The procedure and its JSON input whose odds :func:`choice_odds` shows beside *choice*: an attack's ``fire``
    when the attack is one volley (an Order's, an activation's and a move's too), a charge's ``combat``, a fight's
    ``fight``, a volley's ``fire`` when its hits go in the default order; None where no one procedure gives them."""
    step = state.pending[0]
    if isinstance(choice, Fire) and isinstance(step, st.ChooseTarget):
        return attack_input(state, state.detachment(step.detachment), choice)
    if isinstance(step, st.ChooseFight) and isinstance(choice, tuple):
        return procedure_input("fight", fight_question(state, *(state.model(m) for m in choice)))
    if isinstance(step, st.VolleyAllocation) and isinstance(choice, InOrder):
        return volley_input(state, step.volley)
    leads = _leads_to(state, step, choice)
    if leads is None:
        return None
    if isinstance(leads[0], CombatQuestion):
        return procedure_input("combat", leads[0])
    at, det, best = leads
    return attack_input(at, det, best.attack)
