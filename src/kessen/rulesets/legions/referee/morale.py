"""Morale checks on the battlefield (§4.6): the question a Detachment's check asks, and what a failed one does
(LI-MORALE, LI-RESULT-3..6)."""

from __future__ import annotations

from functools import partial

from kessen.core.engine import Chance
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.referee.state import Detachment, LiState, push
from kessen.rulesets.legions.referee.steps import MoraleRoll, WithdrawalRoll
from kessen.rulesets.legions.rules.morale import MoraleCheckQuestion, MoraleOutcome, MoraleResult, MoraleShown, MoraleTrigger, morale_faces


def morale_question(state: LiState, det: Detachment, trigger: MoraleTrigger) -> MoraleCheckQuestion:
    """A Detachment's Morale check as the ``morale_check`` procedure asks it (LI-MORALE-3..8, LI-RESULT-6).

    During the Engagement stage the Formation's Broken state is still the one it had when the stage
    began: Break Points are checked only at its end (LI-BREAK-4).
    """
    return MoraleCheckQuestion(
        morale=det.morale,
        trigger=trigger,
        broken=state.formation(det.formation).broken,
        earlier_check_this_phase=det.morale_this_phase,
        fall_back_at_phase_start=det.order_at_phase_start == "fall_back",
    )


def morale_roll(state: LiState, step: MoraleRoll) -> Chance | None:
    """The Morale check's chance node; none for a Detachment with no model left."""
    det = state.detachment(step.detachment)
    if not det.live:
        return None
    question = morale_question(state, det, step.trigger)
    return Chance(answer(question), "morale check", dice=partial(morale_faces, question))


def morale_result(state: LiState, step: MoraleRoll, outcome: MoraleOutcome | None, out: list[Event]) -> LiState:
    """A Morale check's effect (LI-MORALE-5..7, LI-RESULT-3, LI-RESULT-4)."""
    if outcome is None:
        return state
    result: MoraleResult = outcome.result
    det = state.detachment(step.detachment)
    shown = outcome.dice or MoraleShown((), 0, 0)
    out.append(ev.MoraleChecked(
        detachment=det.id, trigger=step.trigger, result=result, dice=shown.dice, modifier=shown.modifier, morale=shown.morale
    ))
    if result == "pass":
        return state.with_detachment(evolve(det, morale_this_phase="passed"))
    if result != "fail":
        return state  # auto_pass, not_taken; auto_fail has no further effect (LI-MORALE-7)
    if det.order is not None and det.order != "fall_back":
        out.append(ev.OrderRemoved(detachment=det.id, order=det.order, why="morale"))
    out.append(ev.OrderIssued(detachment=det.id, order="fall_back"))
    state = state.with_detachment(evolve(det, order="fall_back", morale_this_phase="failed"))
    if step.trigger == "combat":
        return push(state, WithdrawalRoll(det.id, step.engaged_with))  # LI-RESULT-3: a failed combat check withdraws
    return state
