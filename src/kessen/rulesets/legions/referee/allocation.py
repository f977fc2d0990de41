"""Allocating an attack's hits on the battlefield (LI-ALLOC): which weapon's hits the target takes next, and, for
each volley, the model each hit goes to.

The target's controlling player allocates hits one at a time, resolving each before the next (LI-ALLOC-1). For each
volley they choose [DECISION] either to let its hits go **in order** (the default order of §5.1 R: wounded models
first, then the Detachment's order; the volley is then one ``fire`` outcome, rolled at once) or to allocate them
**hit by hit**: the hit rolls are made, then before each hit they pick the model it goes to among those the rules
allow (LI-ALLOC-2, LI-ALLOC-3), and its save is rolled (LI-SAVE, LI-VOID); at any hit they may let the rest go in
order. Either way every allocation the rules allow can be made, and the default changes nothing the volley rolls.
"""

from __future__ import annotations

from functools import partial

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.core.records import evolve, record
from kessen.dice import Dist
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.referee.firing import (
    SavesTold,
    apply_volley,
    question_models,
    saves_told,
    told,
    volley_arc,
    volley_question,
)
from kessen.rulesets.legions.referee.state import LiState, Model, push
from kessen.rulesets.legions.referee.steps import (
    AllocateHit,
    ChooseAllocation,
    HitRoll,
    RestRoll,
    SaveRoll,
    Volley,
    VolleyAllocation,
    VolleyRoll,
    ask,
)
from kessen.rulesets.legions.rules.firing import HitsQuestion, ResolveHitsOutcome, resolve_faces
from kessen.rulesets.legions.rules.hit_rolls import hit_pool
from kessen.rulesets.legions.rules.saves import Attack


@record
class InOrder:
    """The volley's hits (or those left of it) go in the default order of §5.1 R."""


@record
class HitByHit:
    """The target's controller allocates the volley's hits one at a time, once they are rolled."""


@record
class AllocateTo:
    """The next hit goes to *model* (LI-ALLOC-1)."""

    model: str


AllocationChoice = InOrder | HitByHit | AllocateTo


# --- which weapon's hits next (LI-ALLOC-5) --------------------------------------------------------------------


def hits_decision(state: LiState, step: ChooseAllocation) -> Decision | None:
    """The target's controlling player picks the weapon profile whose hits it takes next, the declared order first
    (LI-ALLOC-5); none once the target has no model left (the hits still to come are discarded, LI-ALLOC-4)."""
    target = state.detachment(step.volleys[0].target)
    if not target.live:
        return None
    return ask(target.owner, "hits", tuple(dict.fromkeys(v.key for v in step.volleys)), actor=target.id)


def hits_chosen(state: LiState, step: ChooseAllocation, choice: tuple[str, int] | None, out: list[Event]) -> LiState:
    """The chosen weapon profile's volleys are resolved next; then the target's controller picks again among the
    rest (LI-ALLOC-5). Every order of the profiles can be chosen, one profile at a time."""
    if choice is None:
        return state
    rest = tuple(v for v in step.volleys if v.key != choice)
    return push(state, *(VolleyAllocation(v) for v in step.volleys if v.key == choice), *((ChooseAllocation(rest),) if rest else ()))


# --- one volley: in order, or hit by hit -------------------------------------------------------------------------


def allocatable(state: LiState, v: Volley) -> tuple[Model, ...]:
    """The target's models left that the volley's hits may go to (LI-ALLOC-2, LI-OBSC-2)."""
    return tuple(m for m in state.detachment(v.target).live if m.id in v.eligible)


def legal_models(state: LiState, v: Volley) -> tuple[Model, ...]:
    """The models the next hit may go to: a wounded one first, if one may take it (LI-ALLOC-2, LI-ALLOC-3)."""
    found = allocatable(state, v)
    wounded = tuple(m for m in found if m.wounds_remaining < m.wounds)
    return wounded or found


def mode_decision(state: LiState, step: VolleyAllocation) -> Decision | None:
    """In order or hit by hit; none when at most one model may take the volley's hits (nothing to choose)."""
    if len(allocatable(state, step.volley)) < 2:
        return None
    target = state.detachment(step.volley.target)
    return ask(target.owner, "allocation", (InOrder(), HitByHit()), actor=target.id)


def mode_chosen(state: LiState, step: VolleyAllocation, choice: InOrder | HitByHit | None, out: list[Event]) -> LiState:
    return push(state, HitRoll(step.volley) if isinstance(choice, HitByHit) else VolleyRoll(step.volley))


def hit_roll(state: LiState, step: HitRoll) -> Chance | None:
    """The volley's hit rolls (LI-HIT-1, LI-HIT-2); none when no model it may hit is left."""
    question = volley_question(state, step.volley)
    if question is None:
        return None
    return Chance(hit_pool(question.dice, to_hit=question.to_hit, modifier=question.modifier), "hit rolls")


def hits_rolled(state: LiState, step: HitRoll, hits: int | None, out: list[Event]) -> LiState:
    if hits is None:
        return state
    question = volley_question(state, step.volley)
    assert question is not None
    return push(state, AllocateHit(step.volley, hits, hits, question.modifier, volley_arc(question)))


def allocation_decision(state: LiState, step: AllocateHit) -> Decision | None:
    """The model the next hit goes to, every one the rules allow, or the rest in order; none once every hit is
    allocated or no model may take one (the rest are discarded, LI-ALLOC-4)."""
    if step.left == 0 or not allocatable(state, step.volley):
        return None
    target = state.detachment(step.volley.target)
    options: tuple[AllocationChoice, ...] = (InOrder(),)
    if len(allocatable(state, step.volley)) > 1:
        options += tuple(AllocateTo(m.id) for m in legal_models(state, step.volley))
    return ask(target.owner, "allocation", options, actor=target.id)


def allocated(state: LiState, step: AllocateHit, choice: InOrder | AllocateTo | None, out: list[Event]) -> LiState:
    if choice is None:
        return _volley_told(state, step, out)
    if isinstance(choice, AllocateTo):
        return push(state, SaveRoll(step, choice.model))
    return push(state, RestRoll(step))


def one_hit(state: LiState, v: Volley, model: Model) -> HitsQuestion:
    """One hit of the volley resolved against *model* alone: its Void Shields or its save (§5.1 R, LI-ARC-1)."""
    return HitsQuestion(1, Attack(v.profile.ap, v.profile.light_at), (model.target_profile(rear_arc=model.id in v.rear),), (True,))


def save_roll(state: LiState, step: SaveRoll) -> Chance:
    question = one_hit(state, step.allocation.volley, state.model(step.model))
    return Chance(answer(question), "save", dice=partial(resolve_faces, question))


def saved(state: LiState, step: SaveRoll, outcome: ResolveHitsOutcome, out: list[Event]) -> LiState:
    """The hit's result on its model: a Void Shield struck down, a Wound lost (destroyed at 0), or nothing."""
    a = step.allocation
    model = state.model(step.model)
    hurt = evolve(
        model,
        wounds_remaining=model.wounds_remaining - outcome.wounds,
        void_shields=0 if outcome.destroyed else model.void_shields - outcome.shields_lost,
    )
    result = "shield" if outcome.shields_lost else ("wound" if outcome.wounds else "no_effect")
    save = outcome.dice[0] if outcome.dice else None
    out.append(ev.HitAllocated(
        model=model.id, detachment=a.volley.target, result=result,
        save_die=save.face if save else 0, save_needed=save.needed if save else 0,
    ))
    if outcome.destroyed:
        out.append(ev.Destroyed(model=model.id, detachment=a.volley.target, how="fire"))
    tally = evolve(
        a, left=a.left - 1, wounds=a.wounds + outcome.wounds, destroyed=a.destroyed + outcome.destroyed,
        shields_lost=a.shields_lost + outcome.shields_lost,
    )
    return push(state.with_model(hurt), tally)


def rest_question(state: LiState, step: AllocateHit) -> HitsQuestion:
    """The hits left of the volley, in the default order, against the target as it stands now (§5.1 R)."""
    v = step.volley
    live = state.detachment(v.target).live
    return HitsQuestion(
        step.left, Attack(v.profile.ap, v.profile.light_at),
        tuple(m.target_profile(rear_arc=m.id in v.rear) for m in live), tuple(m.id in v.eligible for m in live),
    )


def rest_roll(state: LiState, step: RestRoll) -> Chance:
    question = rest_question(state, step.allocation)
    return Chance(answer(question), "hits in order", dice=partial(resolve_faces, question))


def rest_resolved(state: LiState, step: RestRoll, outcome: ResolveHitsOutcome, out: list[Event]) -> LiState:
    a = step.allocation
    models = question_models(state, a.volley)
    state, dead = apply_volley(state, rest_question(state, a), a.volley.target, outcome)
    tally = evolve(
        a, left=0, wounds=a.wounds + outcome.wounds, destroyed=a.destroyed + outcome.destroyed,
        shields_lost=a.shields_lost + outcome.shields_lost,
    )
    state = _volley_told(state, tally, out, saves_told(outcome.dice, models))
    out.extend(ev.Destroyed(model=m, detachment=a.volley.target, how="fire") for m in dead)
    return state


def _volley_told(state: LiState, a: AllocateHit, out: list[Event], saves: SavesTold | None = None) -> LiState:
    """The volley's report once every hit of it is allocated (or discarded), with the saves of the hits that went in
    order at the end (those allocated one by one were told as each was)."""
    v = a.volley
    told_volley = told(state, v, v.firing_models * v.profile.dice, a.modifier, a.arc, a.hits, a.wounds, a.destroyed, a.shields_lost)
    out.append(evolve(told_volley, **saves) if saves else told_volley)
    return state


def hits_dist(state: LiState, v: Volley) -> Dist[int] | None:
    """The number of hits of a volley (for the odds shown beside a choice)."""
    question = volley_question(state, v)
    return None if question is None else hit_pool(question.dice, to_hit=question.to_hit, modifier=question.modifier)
