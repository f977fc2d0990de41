"""Broken Formations on the battlefield (§4.6): a Formation's losses, and when it becomes Broken (LI-BREAK)."""

from __future__ import annotations

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.state import LiState, Model, board_fact
from kessen.rulesets.legions.rules.broken import FormationModels, break_point_of, counts_by_wounds, is_broken, losses


def as_counted(model: Model) -> FormationModels:
    """One model as a Formation's Break Point counts it: destroyed or not, and the Wounds a surviving Knight or Titan
    has lost (LI-BREAK-1, LI-BREAK-3)."""
    lost = model.wounds - model.wounds_remaining if model.alive and counts_by_wounds(model.type) else 0
    return FormationModels(type=model.type, wounds=model.wounds, destroyed=0 if model.alive else 1, wounds_lost=lost)


def formation_losses(state: LiState, formation_id: str) -> tuple[int, int]:
    """(losses, Break Point) of a Formation now (LI-BREAK-1..3), through the ``break_point`` rules."""
    return _losses(state, formation_id), break_point_of(state.formation(formation_id).starting_size)


@board_fact
def _losses(state: LiState, formation_id: str) -> int:
    return losses([as_counted(m) for d in state.detachments if d.formation == formation_id for m in d.models])


def check_break_point(state: LiState, formation_id: str, out: list[Event]) -> LiState:
    """A Formation becomes Broken once its losses reach its Break Point, and stays so (LI-BREAK-3, LI-BREAK-6)."""
    formation = state.formation(formation_id)
    if formation.broken:
        return state
    lost, point = formation_losses(state, formation_id)
    if is_broken(losses=lost, break_point=point, already_broken=False):
        out.append(ev.FormationBroken(formation=formation_id, losses=lost, break_point=point))
        return state.with_formation(evolve(formation, broken=True))
    return state
