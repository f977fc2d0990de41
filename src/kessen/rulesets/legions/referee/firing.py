"""Firing on the battlefield: a declared attack's volleys, their ``fire`` questions and results, and the steps of an
attack from its declaration to the Break Point and Morale check that follow it (§4.4, LI-FIRE, LI-ALLOC, LI-ARC).

A declared attack is split into **volleys**: the firing models of one weapon profile whose view of
the target is the same (which target models are in their range and sight, which they see from the
rear arc). Each volley is exactly one ``fire`` question (§5.2), so its dice are drawn from that
procedure's exact distribution; the volleys are resolved one after another in the declared weapon
order (LI-ALLOC-5), which the target's controlling player may change.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Literal, TypedDict

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.core.records import evolve, record
from kessen.dice import Dist
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.profiles import Profile
from kessen.rulesets.legions.referee.battlefield import engaged_with, in_rear_arc
from kessen.rulesets.legions.referee.broken import check_break_point
from kessen.rulesets.legions.referee.memo import MISSING
from kessen.rulesets.legions.referee.state import Detachment, LiState, Model, board_fact, push
from kessen.rulesets.legions.referee.steps import (
    AttackEnd,
    ChooseAllocation,
    ChooseTarget,
    MoraleRoll,
    Volley,
    VolleyAllocation,
    VolleyRoll,
    ask,
)
from kessen.rulesets.legions.referee.targeting import Fire, HoldFire, fire_options, sightlines
from kessen.rulesets.legions.rules.allocation import allocation_indices, morale_threshold_reached
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.rules.firing import (
    MAX_HIT_DICE,
    MAX_TARGET_MODELS,
    FireOutcome,
    FireQuestion,
    HitsQuestion,
    ResolveHitsOutcome,
    fire_faces,
)
from kessen.rulesets.legions.rules.faces import SaveShown, VolleyShown
from kessen.rulesets.legions.rules.saves import Attack
from kessen.rulesets.legions.rules.targeting import hit_modifier

Arc = Literal["front", "rear", "mixed"]


@board_fact
def volleys(state: LiState, det: Detachment, option: Fire) -> tuple[Volley, ...]:
    """The volleys of a declared attack, in the declared weapon order (LI-FIRE-2, LI-TGT-2, LI-TGT-3, LI-ALLOC-2, LI-ARC-1).

    A firing model fires each weapon whose chosen profile reaches the closest target model it can
    see; its hits may go only to target models in that profile's range and its sight, hidden no more
    than the chosen penalty. Models that see the target alike fire together (LI-FAST-1).
    """
    target = state.detachment(option.target)
    scales = tuple(sorted({state.detachment(e).scale for e in engaged_with(state, target.id)}))
    known = det.aims.get(option)  # kept on *det* with what else it reads (issue 23 §2)
    if known is not None and known[0] is target.models and known[1] is state.no_sight and known[2] == scales:
        kept: tuple[Volley, ...] = known[3]
        return kept
    chosen = dict(option.profiles)
    weapon_order: list[str] = []
    for f in det.live:
        for w in f.weapons:
            if w.name not in weapon_order:
                weapon_order.append(w.name)
    lines = sightlines(state, det, target)
    found: list[Volley] = []
    for name in weapon_order:
        groups: dict[tuple[int, frozenset[str], frozenset[str]], int] = {}
        for f, reach, seen in lines:
            weapon = next((w for w in f.weapons if w.name == name), None)
            if reach is None or weapon is None or (option.weapons is not None and (f.id, name) not in option.weapons):
                continue
            index = chosen.get(name, 0)  # a weapon name has the same profiles throughout the Detachment
            profile = weapon.profiles[index]
            if profile.range < reach:
                continue
            eligible = frozenset(
                m.id for m, gap in seen if gap <= profile.range and m.penalty <= option.penalty
            )
            if not eligible:
                continue
            rear = frozenset(m.id for m in target.live if m.id in eligible and in_rear_arc(m, f))
            groups[(index, eligible, rear)] = groups.get((index, eligible, rear), 0) + 1
        for (index, eligible, rear), count in groups.items():
            profile = _profile(det, name, index)
            per_volley = max(1, min(MAX_TARGET_MODELS, MAX_HIT_DICE // profile.dice))
            while count > 0:  # more than 60 dice: rolled as several volleys, which changes no probability (LI-FAST-1)
                n = min(count, per_volley)
                found.append(Volley(det.id, target.id, name, index, profile, n, eligible, rear, option.penalty, scales))
                count -= n
    result = tuple(found)
    det.aims[option] = (target.models, state.no_sight, scales, result)
    return result


def weapon_profiles(det: Detachment, weapon: str) -> tuple[Profile, ...]:
    """The profiles of the Detachment's weapon named *weapon* (LI-FIRE-3); none if no model carries it."""
    for m in det.models:
        for w in m.weapons:
            if w.name == weapon:
                return w.profiles
    return ()


def _profile(det: Detachment, weapon: str, index: int) -> Profile:
    profiles = weapon_profiles(det, weapon)
    if not profiles:
        raise KeyError(weapon)
    return profiles[index]


QUESTIONS_KEPT = 256
"""How many volleys' questions a Detachment keeps (``Detachment.questions``) before it forgets them all."""


def volley_question(state: LiState, v: Volley) -> FireQuestion | None:
    """The ``fire`` question of a volley against the target as it stands now, or None when no model it may hit is left.

    Every live model of the target is in T, in Detachment order; those in the volley's range and sight, hidden no
    more than the chosen penalty, may be allocated hits (LI-ALLOC-2, LI-OBSC-2). Each model carries its own arc
    toward the volley's firing models, so each hit is saved from the arc of the model it is allocated to
    (LI-ARC-1): the firing models of a volley see every target model from the same arc (they are grouped so).
    Kept on the target while its models do not change: it reads nothing else of the state (issue 23 §2).
    """
    target = state.detachment(v.target)
    questions = target.questions
    known: Any = questions.get(v, MISSING)  # typed Any: the compiled engine checks a FireQuestion | None at once
    if known is MISSING:
        if len(questions) >= QUESTIONS_KEPT:
            questions.clear()
        known = questions[v] = _volley_question(target, v)
    found: FireQuestion | None = known
    return found


def _volley_question(target: Detachment, v: Volley) -> FireQuestion | None:
    live = target.live
    allocatable = tuple(m.id in v.eligible for m in live)
    if not any(allocatable):
        return None
    modifier = hit_modifier(target_scale=target.scale, engaged_with_scales=v.engaged_with_scales, obscuration_penalty=v.penalty)
    return FireQuestion(
        dice=v.firing_models * v.profile.dice,
        to_hit=v.profile.to_hit,
        modifier=modifier,
        attack=Attack(v.profile.ap, v.profile.light_at),
        models=tuple(m.target_profile(rear_arc=m.id in v.rear) for m in live),
        allocatable=allocatable,
    )


def volley_arc(question: FireQuestion) -> Arc:
    """From which arc the volley's firing models see the models it may hit: all front, all rear, or mixed (LI-ARC-1)."""
    rear = {m.rear_arc for m, ok in zip(question.models, question.allocatable, strict=True) if ok}
    return "mixed" if len(rear) > 1 else ("rear" if True in rear else "front")


def volley_dist(question: FireQuestion) -> Dist[FireOutcome]:
    """The exact distribution of a volley: the ``fire`` procedure itself (§5.2), from the engine's one cache."""
    return answer(question)


def apply_volley(
    state: LiState, question: FireQuestion | HitsQuestion, target_id: str, outcome: FireOutcome | ResolveHitsOutcome
) -> tuple[LiState, tuple[str, ...]]:
    """The target after a volley's outcome: the hits went to the models in allocation order (§5.1 R).

    R's result fixes every model: the first ``destroyed`` models of the allocation order lost all
    their Wounds and Void Shields, the next one the rest of the Wounds and shields lost.
    Returns the new state and the ids of the models destroyed.
    """
    target = state.detachment(target_id)
    live = target.live
    order = allocation_indices(question.models, question.allocatable)
    wounds, shields = outcome.wounds, outcome.shields_lost
    dead: list[str] = []
    updated: dict[str, Model] = {}
    for k, i in enumerate(order):
        m = live[i]
        if k < outcome.destroyed:
            wounds -= m.wounds_remaining
            shields -= m.void_shields
            updated[m.id] = evolve(m, wounds_remaining=0, void_shields=0)
            dead.append(m.id)
        else:
            updated[m.id] = evolve(m, wounds_remaining=m.wounds_remaining - wounds, void_shields=m.void_shields - shields)
            break
    assert wounds >= 0 and shields >= 0
    det = evolve(target, models=tuple(updated.get(m.id, m) for m in target.models))
    return state.with_detachment(det), tuple(dead)


@record
class AttackDamage:
    """What a whole attack does to its target: Wounds lost, models destroyed, Void Shield levels removed."""

    wounds: int
    destroyed: int
    shields_lost: int

    @property
    def losses(self) -> int:
        """Every loss on the damage track: the Wounds and the Void Shield levels."""
        return self.wounds + self.shields_lost


def attack_damage(state: LiState, det: Detachment, option: Fire) -> Dist[AttackDamage]:
    """The exact distribution of what a declared attack does to its target (LI-FIRE-2, §5.2 chained).

    Its volleys are resolved one after another in the declared weapon order (the default of LI-ALLOC-5), each
    ``fire`` question asked of the target as the earlier volleys left it; the target's possible states are carried
    from volley to volley, equal ones merged.
    """
    target_id = option.target
    start = state.detachment(target_id)

    def after(v: Volley) -> Callable[[Detachment], Dist[Detachment]]:
        def resolve(target: Detachment) -> Dist[Detachment]:
            now = state.with_detachment(target)
            question = volley_question(now, v)
            if question is None:
                return Dist.always(target)
            taken = volley_dist(question).map(lambda o: evolve(o, hits=0, morale_threshold_reached=False))
            return taken.map(lambda o: apply_volley(now, question, target_id, o)[0].detachment(target_id))

        return resolve

    targets: Dist[Detachment] = Dist.always(start)
    for v in volleys(state, det, option):
        targets = targets.bind(after(v))

    def damage(target: Detachment) -> AttackDamage:
        wounds = sum(a.wounds_remaining - b.wounds_remaining for a, b in zip(start.models, target.models, strict=True))
        shields = sum(a.void_shields - b.void_shields for a, b in zip(start.models, target.models, strict=True))
        return AttackDamage(wounds, len(start.live) - len(target.live), shields)

    return targets.map(damage)


def target_decision(state: LiState, step: ChooseTarget) -> Decision | None:
    """The attacks the activated Detachment may declare; none once it has no model left."""
    det = state.detachment(step.detachment)
    if not det.live:
        return None
    return ask(det.owner, "target", fire_options(state, det), actor=det.id)


def volley_roll(state: LiState, step: VolleyRoll) -> Chance | None:
    """A volley's ``fire`` distribution against the target as it stands; none when no model it may hit is left."""
    question = volley_question(state, step.volley)
    return None if question is None else Chance(volley_dist(question), "volley", dice=partial(fire_faces, question))


def declare(state: LiState, step: ChooseTarget, choice: Fire | HoldFire | None, out: list[Event]) -> LiState:
    """The declared attack, split into its volleys (LI-FIRE-2), or fire held (LI-ACT-5)."""
    if choice is None:
        return state
    det_id = step.detachment
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
    return push(state, *(VolleyAllocation(v) for v in vs), end)


def volley_result(state: LiState, step: VolleyRoll, outcome: FireOutcome | None, out: list[Event]) -> LiState:
    """The target after a volley's outcome, told as a report."""
    if outcome is None:
        return state
    v = step.volley
    question = volley_question(state, v)
    assert question is not None
    models = question_models(state, v)
    state, dead = apply_volley(state, question, v.target, outcome)
    out.append(told(
        state, v, question.dice, question.modifier, volley_arc(question), outcome.hits, outcome.wounds, outcome.destroyed, outcome.shields_lost,
        shown=outcome.dice, models=models,
    ))
    out.extend(ev.Destroyed(model=m, detachment=v.target, how="fire") for m in dead)
    return state


def told(
    state: LiState, v: Volley, dice: int, modifier: int, arc: str, hits: int, wounds: int, destroyed: int, shields_lost: int,
    *, shown: VolleyShown | None = None, models: tuple[str, ...] = (),
) -> ev.Volley:
    """A volley's report: the weapon (and its profile, if it has several), its dice and what its hits did; with
    *shown*, its natural hit dice and each hit's save on the model (of *models*, the question's) it went to."""
    several = len(weapon_profiles(state.detachment(v.attacker), v.weapon)) > 1
    return ev.Volley(
        detachment=v.attacker, target=v.target, weapon=f"{v.weapon}#{v.profile_index + 1}" if several else v.weapon,
        firing_models=v.firing_models, dice=dice, to_hit=v.profile.to_hit, modifier=modifier, arc=arc, hits=hits,
        wounds=wounds, destroyed=destroyed, shields_lost=shields_lost,
        hit_dice=shown.hit_dice if shown is not None else (), **saves_told(shown.saves if shown is not None else (), models),
    )


def question_models(state: LiState, v: Volley) -> tuple[str, ...]:
    """The ids of the target's models as a volley's question lists them (every live model, in Detachment order)."""
    return tuple(m.id for m in state.detachment(v.target).live)


class SavesTold(TypedDict):
    """Each hit's save as the fields of a volley's report."""

    save_models: tuple[str, ...]
    save_dice: tuple[int, ...]
    save_needed: tuple[int, ...]
    save_results: tuple[str, ...]


def saves_told(saves: tuple[SaveShown, ...], models: tuple[str, ...]) -> SavesTold:
    """Each hit's save as a report's fields: the model it went to (none for a hit discarded), the save die and the
    score it needed (0 where none was rolled), and what it did (§5.1 R)."""
    return SavesTold(
        save_models=tuple(models[s.model] if s.model >= 0 else "" for s in saves),
        save_dice=tuple(s.face for s in saves),
        save_needed=tuple(s.needed for s in saves),
        save_results=tuple(s.result for s in saves),
    )


def attack_end(state: LiState, step: AttackEnd, _: None, out: list[Event]) -> LiState:
    """After the attacker has completely resolved its attack: the Break Point, then the Morale check (LI-BREAK-4, LI-BREAK-7, LI-MORALE-1, LI-MORALE-2)."""
    target = state.detachment(step.target)
    state = check_break_point(state, target.formation, out)
    lost = step.wounds_at_start - sum(m.wounds_remaining for m in target.live)
    if target.live and morale_threshold_reached(lost, step.models_at_start):
        return push(state, MoraleRoll(target.id, "casualties"))
    return state
