"""The Combat phase's three stages and the activation of Detachments in the firing stages (§4.1, §4.2)."""

from __future__ import annotations

from kessen.core.engine import Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.battlefield import combats, has_enemy_contact
from kessen.rulesets.legions.referee.broken import check_break_point
from kessen.rulesets.legions.referee.phases import STAGES, Stage
from kessen.rulesets.legions.referee.state import LiState, progressed, push
from kessen.rulesets.legions.referee.steps import (
    ask,
    ActTurn,
    ChooseActivation,
    ChooseCombat,
    ChooseTarget,
    CombatPhase,
    EndActivation,
    StageEnd,
    StageStart,
)


def combat_phase(state: LiState, step: CombatPhase, _: None, out: list[Event]) -> LiState:
    """The Combat phase begins: each Detachment's Order is noted, then the three stages in order (LI-STAGE-1)."""
    out.append(ev.PhaseStarted(phase="combat_phase"))
    dets = tuple(evolve(d, order_at_phase_start=d.order, morale_this_phase="none") for d in state.detachments)
    state = evolve(state, detachments=dets, course=evolve(state.course, phase="combat"))
    return push(state, *(s for stage in STAGES for s in (StageStart(stage), StageEnd(stage))))


def eligible(state: LiState, stage: Stage, player: str) -> tuple[str, ...]:
    """The Detachments of *player* that must still activate in a firing stage (LI-ACT-2, LI-ACT-3, LI-ACT-6, LI-ACT-8, LI-STAGE-2).

    First Fire stage: holds a First Fire order, on the battlefield, not Engaged & Pinned at the start
    of the stage. Advancing Fire stage: holds an Advance order, on the battlefield, not Engaged &
    Pinned. March and Fall Back never activate; Reserves do not.
    """
    wanted = "first_fire" if stage == "first_fire" else "advance"
    return tuple(
        d.id for d in state.detachments_of(player)
        if d.order == wanted and d.on_battlefield and d.id not in state.activated
        and not (d.id in state.pinned_at_stage_start if stage == "first_fire" else d.pinned)
    )


def stage_start(state: LiState, step: StageStart, _: None, out: list[Event]) -> LiState:
    """A stage begins: the combats are found (LI-ENG-2), or the players take turns to activate (LI-ACT-1)."""
    stage = step.stage
    out.append(ev.StageStarted(stage=stage))
    state = progressed(state, stage=stage, activated=frozenset())
    if stage == "engagement":
        found = combats(state)  # LI-ENG-2: identified at the start of the stage
        state = progressed(state, in_combat=frozenset())
        return push(state, ChooseCombat(found)) if found else state
    if stage == "first_fire":
        state = progressed(state, pinned_at_stage_start=frozenset(d.id for d in state.detachments if d.pinned))
    return push(state, ActTurn(stage, state.player_with_initiative()))


def act_turn(state: LiState, step: ActTurn, _: None, out: list[Event]) -> LiState:
    """LI-ACT-1: ``p = initiative; while anyone has an eligible unactivated detachment: if p has one, p activates one; p = other(p)``."""
    mine, theirs = eligible(state, step.stage, step.player), eligible(state, step.stage, state.other(step.player))
    if not mine and not theirs:
        return state
    nxt = ActTurn(step.stage, state.other(step.player))
    return push(state, ChooseActivation(step.stage, step.player), nxt) if mine else push(state, nxt)


def activation_decision(state: LiState, step: ChooseActivation) -> Decision | None:
    """The player picks which of its eligible Detachments activates next; none when it has none left."""
    ready = eligible(state, step.stage, step.player)
    return ask(step.player, "activation", ready) if ready else None


def activate(state: LiState, step: ChooseActivation, det_id: str | None, out: list[Event]) -> LiState:
    """The Detachment activates: it declares its attack, then its activation ends."""
    if det_id is None:
        return state
    out.append(ev.Activated(detachment=det_id, side=step.player, stage=step.stage))
    return push(progressed(state, activated=state.activated | {det_id}), ChooseTarget(det_id), EndActivation(det_id))


def end_activation(state: LiState, step: EndActivation, _: None, out: list[Event]) -> LiState:
    """LI-ACT-5, LI-ACT-6: the Order token goes when the activation ends."""
    det = state.detachment(step.detachment)
    if det.order in ("first_fire", "advance"):
        out.append(ev.OrderRemoved(detachment=det.id, order=det.order, why="activated"))
        return state.with_detachment(evolve(det, order=None))
    return state


def stage_end(state: LiState, step: StageEnd, _: None, out: list[Event]) -> LiState:
    """A stage ends: the Orders it removes go (LI-ACT-4, LI-ACT-8, LI-ENG-6), then, after the Engagement stage, the Break Points."""
    stage = step.stage
    dets = []
    for d in state.detachments:
        if stage == "first_fire" and d.id in state.pinned_at_stage_start and d.order == "first_fire":
            out.append(ev.OrderRemoved(detachment=d.id, order="first_fire", why="pinned"))  # LI-ACT-4
            d = evolve(d, order=None)
        if stage == "advancing_fire" and d.order == "advance" and d.pinned and not d.in_reserve:
            out.append(ev.OrderRemoved(detachment=d.id, order="advance", why="pinned"))  # LI-ACT-8
            d = evolve(d, order=None)
        if stage == "engagement":
            if d.order == "charge":  # LI-ENG-6: every Charge order goes, fought or not
                out.append(ev.OrderRemoved(detachment=d.id, order="charge", why="engagement_over"))
                d = evolve(d, order=None)
            if d.engaged and not has_enemy_contact(state, d):
                out.append(ev.NoLongerEngaged(detachment=d.id))
                d = evolve(d, engaged=False, pinned=False)
        dets.append(d)
    state = evolve(state, detachments=tuple(dets), course=evolve(state.course, activated=frozenset(), stage=None))
    if stage == "engagement":  # LI-BREAK-4: Formations with a Detachment in a combat are checked now, not after each combat
        for f in dict.fromkeys(state.detachment(d).formation for d in sorted(state.in_combat)):
            state = check_break_point(state, f, out)
    return state
