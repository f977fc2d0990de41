"""The Movement phase's steps: the players take turns to move a Detachment, and each is moved where its player
places it (LI-MOVE-1; the rules of moving are ``movement``)."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.battlefield import closest_gap, distance, has_enemy_contact
from kessen.rulesets.legions.referee.movement import (
    AsOrdered,
    ChargeAt,
    Done,
    Hold,
    InLine,
    MoveChoice,
    MoveModel,
    back_in_line,
    coherency_refusal,
    finish_move,
    locked,
    may_move,
    move,
    move_refusal,
    origins_of,
    refresh_engagement,
    reset,
)
from kessen.rulesets.legions.referee.state import Detachment, LiState, progressed, push
from kessen.rulesets.legions.referee.steps import ChooseMover, EndMovement, MoveDetachment, MovementPhase, MoveTurn, ask

LINE_SUGGESTIONS = 3
"""[DECISION] A move in line is suggested toward the three nearest enemy Detachments (any other is a free choice)."""


def movement_phase(state: LiState, step: MovementPhase, _: None, out: list[Event]) -> LiState:
    """The players take turns to move a Detachment, the player with Initiative first."""
    out.append(ev.PhaseStarted(phase="movement_phase"))
    return push(progressed(state, phase="movement", activated=frozenset()), MoveTurn(state.player_with_initiative()), EndMovement())


def movers(state: LiState, player: str) -> tuple[str, ...]:
    """The Detachments of *player* still to move this phase."""
    return tuple(d.id for d in state.detachments_of(player) if d.id not in state.activated and may_move(d))


def move_turn(state: LiState, step: MoveTurn, _: None, out: list[Event]) -> LiState:
    """The player moves a Detachment if it has one left; the turns go on while either player has one."""
    if not (movers(state, step.player) or movers(state, state.other(step.player))):
        return state
    if movers(state, step.player):
        return push(state, ChooseMover(step.player), MoveTurn(state.other(step.player)))
    return push(state, MoveTurn(state.other(step.player)))


def mover_decision(state: LiState, step: ChooseMover) -> Decision | None:
    """Which of its Detachments the player moves next; none when it has none left."""
    found = movers(state, step.player)
    return ask(step.player, "mover", found) if found else None


def chosen_mover(state: LiState, step: ChooseMover, det_id: str | None, out: list[Event]) -> LiState:
    """The chosen Detachment moves next."""
    if det_id is None:
        return state
    state = progressed(state, activated=state.activated | {det_id})
    return push(state, MoveDetachment(det_id, origins_of(state.detachment(det_id))))


def move_decision(state: LiState, step: MoveDetachment) -> Decision:
    """Where the Detachment's models go: any legal placement (a free decision, LI-MOVE-2..8); suggested, the move
    as ordered first, holding still, a charge at each enemy Detachment in reach, a move in line toward the
    nearest enemy Detachments, the move back in line toward its own edge (and, once models were placed one at a
    time, being done)."""
    det = state.detachment(step.detachment)
    return ask(det.owner, "move", move_options(state, det, step), actor=det.id, free=True)


def move_options(state: LiState, det: Detachment, step: MoveDetachment) -> tuple[MoveChoice, ...]:
    options: list[MoveChoice] = []
    if step.moved and coherency_refusal(state, det.id, step.origins) is None:
        options.append(Done())
    options += [AsOrdered(), Hold()]
    held = locked(reset(state, step.origins), det)
    free = [m for m in det.live if m.id not in held]
    enemies = sorted(
        ((closest_gap(det, d), d.id) for d in state.detachments if d.owner != det.owner and d.on_battlefield),
    )
    if det.order == "charge":
        options += [ChargeAt(d) for gap, d in enemies if _in_reach(state, free, d)]
    if det.order in ("advance", "march", "charge") and free and not held:
        options += [InLine(d) for _, d in enemies[:LINE_SUGGESTIONS]]
        back = back_in_line(state, det) if not step.moved else None
        if back is not None and move_refusal(state, det.id, step.origins, back) is None:
            options.append(back)
    return tuple(options)


def _in_reach(state: LiState, free: list[Any], target: str) -> bool:
    """Whether a model free to move is within its Movement of a model of *target* (base to base)."""
    return any(distance(m, e) <= m.movement for m in free for e in state.detachment(target).live)


def moved(state: LiState, step: MoveDetachment, choice: MoveChoice, out: list[Event]) -> LiState:
    """The Detachment's models where its player placed them; one model placed alone leaves the move open."""
    state = move(state, step.detachment, step.origins, choice)
    if isinstance(choice, MoveModel):
        placed = state.model(choice.model)
        out.append(ev.ModelMoved(model=placed.id, detachment=step.detachment, x=round(placed.x, 3), y=round(placed.y, 3)))
        return push(state, evolve(step, moved=step.moved | {choice.model}))
    state, longest = finish_move(state, step.detachment, step.origins)
    det = state.detachment(step.detachment)
    out.append(ev.Moved(detachment=det.id, order=det.order or "", distance=round(longest, 3), engaged=has_enemy_contact(state, det)))
    return state


def end_movement(state: LiState, step: EndMovement, _: None, out: list[Event]) -> LiState:
    """Engaged and Engaged & Pinned are read from the bases (LI-ENG-1)."""
    return progressed(refresh_engagement(state), activated=frozenset())
