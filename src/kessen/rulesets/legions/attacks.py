"""Firing in the Combat phase (§4.4): declaring an attack, the order its hits are taken in, its volleys, and
the Break Point and Morale check that follow it."""

from __future__ import annotations

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.allocation import morale_threshold_reached
from kessen.rulesets.legions.broken_formations import check_break_point
from kessen.rulesets.legions.firing import FireOutcome
from kessen.rulesets.legions.shooting import (
    Fire,
    HoldFire,
    Volley,
    apply_volley,
    fire_options,
    volley_arc,
    volley_dist,
    volley_question,
    volleys,
    weapon_profiles,
)
from kessen.rulesets.legions.state import LiState
from kessen.rulesets.legions.steps import (
    AttackEnd,
    ChooseAllocation,
    ChooseTarget,
    MoraleRoll,
    VolleyRoll,
    push,
)


def target_decision(state: LiState, step: ChooseTarget) -> Decision | None:
    """The attacks the activated Detachment may declare; none once it has no model left."""
    det = state.detachment(step.detachment)
    if not det.live:
        return None
    return Decision(det.owner, "target", fire_options(state, det))


def allocation_decision(state: LiState, step: ChooseAllocation) -> Decision | None:
    """The target's controlling player picks the weapon profile whose hits it takes next, the declared order first
    (LI-ALLOC-5); none once the target has no model left (the hits still to come are discarded, LI-ALLOC-4)."""
    target = state.detachment(step.volleys[0].target)
    if not target.live:
        return None
    return Decision(target.owner, "allocation", tuple(dict.fromkeys(v.key for v in step.volleys)))


def volley_roll(state: LiState, step: VolleyRoll) -> Chance | None:
    """A volley's ``fire`` distribution against the target as it stands; none when no model it may hit is left."""
    question = volley_question(state, step.volley)
    return None if question is None else Chance(volley_dist(question), "volley")


def declare(state: LiState, det_id: str, choice: Fire | HoldFire, out: list[Event]) -> LiState:
    """The declared attack, split into its volleys (LI-FIRE-2), or fire held (LI-ACT-5)."""
    det = state.detachment(det_id)
    if isinstance(choice, HoldFire):
        reason = "chose_not_to" if len(fire_options(state, det)) > 1 else ("withdrew" if det.withdrew_this_round else "no_target")
        out.append(ev.HeldFire(detachment=det_id, reason=reason))
        return state
    out.append(ev.TargetDeclared(detachment=det_id, target=choice.target, penalty=choice.penalty))
    vs = volleys(state, det, choice)  # LI-FIRE-2: everything is declared before any dice are rolled
    target = state.detachment(choice.target)
    end = AttackEnd(det_id, target.id, len(target.live), sum(m.wounds_remaining for m in target.live))
    if len({v.key for v in vs}) > 1:
        return push(state, ChooseAllocation(vs), end)
    return push(state, *(VolleyRoll(v) for v in vs), end)


def allocate(state: LiState, step: ChooseAllocation, choice: tuple[str, int]) -> LiState:
    """The chosen weapon profile's volleys are resolved next; then the target's controller picks again among the
    rest (LI-ALLOC-5). Every order of the profiles can be chosen, one profile at a time."""
    rest = tuple(v for v in step.volleys if v.key != choice)
    return push(state, *(VolleyRoll(v) for v in step.volleys if v.key == choice), *((ChooseAllocation(rest),) if rest else ()))


def volley_result(state: LiState, v: Volley, outcome: FireOutcome, out: list[Event]) -> LiState:
    """The target after a volley's outcome, told as a report."""
    question = volley_question(state, v)
    assert question is not None
    state, dead = apply_volley(state, question, v.target, outcome)
    out.append(ev.Volley(
        detachment=v.attacker, target=v.target, weapon=v.weapon if len(weapon_profiles(state.detachment(v.attacker), v.weapon)) == 1 else f"{v.weapon}#{v.profile_index + 1}",
        firing_models=v.firing_models, dice=question.dice, to_hit=v.profile.to_hit, modifier=question.modifier,
        arc=volley_arc(question), hits=outcome.hits, wounds=outcome.wounds, destroyed=outcome.destroyed,
        shields_lost=outcome.shields_lost,
    ))
    out.extend(ev.Destroyed(model=m, detachment=v.target, how="fire") for m in dead)
    return state


def attack_end(state: LiState, step: AttackEnd, out: list[Event]) -> LiState:
    """After the attacker has completely resolved its attack: the Break Point, then the Morale check (LI-BREAK-4, LI-BREAK-7, LI-MORALE-1, LI-MORALE-2)."""
    target = state.detachment(step.target)
    state = check_break_point(state, target.formation, out)
    lost = step.wounds_at_start - sum(m.wounds_remaining for m in target.live)
    if target.live and morale_threshold_reached(lost, step.models_at_start):
        return push(state, MoraleRoll(target.id, "casualties"))
    return state
