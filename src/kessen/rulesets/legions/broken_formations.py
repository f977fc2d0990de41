"""Broken Formations and Morale on the battlefield (§4.6): Break Points, Morale checks and what a failed one does."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.engine import Chance
from kessen.core.events import Event
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.broken import break_point_of, is_broken, losses
from kessen.rulesets.legions.inputs import (
    FormationEntry,
    MoraleCheckInput,
    MoraleTrigger,
)
from kessen.rulesets.legions.morale import MoraleResult
from kessen.rulesets.legions.procedures import PROCEDURES
from kessen.rulesets.legions.state import Detachment, LiState
from kessen.rulesets.legions.steps import MoraleRoll, WithdrawalRoll, push


def formation_losses(state: LiState, formation_id: str) -> tuple[int, int]:
    """(losses, Break Point) of a Formation now (LI-BREAK-1..3), through the ``break_point`` rules."""
    formation = state.formation(formation_id)
    entries = tuple(
        FormationEntry(
            type=m.type,
            wounds=m.wounds,
            count=1,
            destroyed=0 if m.alive else 1,
            wounds_lost=(m.wounds - m.wounds_remaining) if m.alive and m.type in ("knight", "titan") else 0,
        )
        for d in state.detachments if d.formation == formation_id for m in d.models
    )
    return losses(entries), break_point_of(formation.starting_size)


def check_break_point(state: LiState, formation_id: str, out: list[Event]) -> LiState:
    """A Formation becomes Broken once its losses reach its Break Point, and stays so (LI-BREAK-3, LI-BREAK-6)."""
    formation = state.formation(formation_id)
    if formation.broken:
        return state
    lost, point = formation_losses(state, formation_id)
    if is_broken(losses=lost, break_point=point, already_broken=False):
        out.append(ev.FormationBroken(formation=formation_id, losses=lost, break_point=point))
        return state.with_formation(replace(formation, broken=True))
    return state


def morale_input(state: LiState, det: Detachment, trigger: MoraleTrigger) -> MoraleCheckInput:
    """A Detachment's Morale check as the ``morale_check`` procedure asks it (LI-MORALE-3..8, LI-RESULT-6).

    During the Engagement stage the Formation's Broken state is still the one it had when the stage
    began: Break Points are checked only at its end (LI-BREAK-4).
    """
    return MoraleCheckInput(
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
    return Chance(PROCEDURES["morale_check"].dist(morale_input(state, det, step.trigger)), "morale check")


def morale_result(state: LiState, step: MoraleRoll, result: MoraleResult, out: list[Event]) -> LiState:
    """A Morale check's effect (LI-MORALE-5..7, LI-RESULT-3, LI-RESULT-4)."""
    det = state.detachment(step.detachment)
    out.append(ev.MoraleChecked(detachment=det.id, trigger=step.trigger, result=result))
    if result == "pass":
        return state.with_detachment(replace(det, morale_this_phase="passed"))
    if result != "fail":
        return state  # auto_pass, not_taken; auto_fail has no further effect (LI-MORALE-7)
    if det.order is not None and det.order != "fall_back":
        out.append(ev.OrderRemoved(detachment=det.id, order=det.order, why="morale"))
    out.append(ev.OrderIssued(detachment=det.id, order="fall_back"))
    state = state.with_detachment(replace(det, order="fall_back", morale_this_phase="failed"))
    if step.trigger == "combat":
        return push(state, WithdrawalRoll(det.id, step.engaged_with))  # LI-RESULT-3: a failed combat check withdraws
    return state
