"""The exact numbers shown beside a choice (``Game.odds``): what an attack, a way of allocating hits or a fight is likely
to do, from the same procedures the engine draws from. The keys are those of the
catalogue's ``[odds]`` table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.dice import Dist
from kessen.rulesets.legions.referee import steps as st
from kessen.rulesets.legions.referee.allocation import AllocateTo, HitByHit, InOrder, hits_dist, one_hit, rest_question
from kessen.rulesets.legions.referee.close_combat import fight_question
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.referee.firing import attack_damage, volley_dist, volley_question
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.targeting import Fire

Odds = dict[str, Fraction]


def choice_odds(state: LiState, choice: Any) -> Odds | None:
    """The exact numbers of *choice* at the decision *state* stands at, or None where there are none to show."""
    step = state.pending[0]
    if isinstance(choice, Fire) and isinstance(step, st.ChooseTarget):
        return attack_odds(state, step.detachment, choice)
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
    damage = attack_damage(state, state.detachment(det_id), choice)
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

