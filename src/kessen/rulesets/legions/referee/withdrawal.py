"""Withdrawal on the battlefield (§4.5 Withdrawal): the roll, each model's move toward its edge, its saves for
the enemy Detachments it moves through, and where it ends."""

from __future__ import annotations

from functools import partial
from typing import TypedDict

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.core.geometry import Point
from kessen.dice import Dist
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.battlefield import (
    ENGAGEMENT_ZONE_INCHES,
    distance,
    moved_through,
    nearest_free_point,
    overlaps,
    room_to_edge,
    withdrawal_path,
)
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.referee.state import LiState, Model, push
from kessen.rulesets.legions.referee.steps import (
    ask,
    ChooseWithdrawer,
    WithdrawalRoll,
    WithdrawalSaves,
)
from kessen.rulesets.legions.rules.withdrawal import (
    WithdrawalMoveOutcome,
    WithdrawalSaveOutcome,
    WithdrawalSaveQuestion,
    withdrawal_move,
    withdrawal_passes_automatically,
    withdrawal_save_faces,
    withdrawal_save_target,
)


def withdrawal_roll(state: LiState, step: WithdrawalRoll) -> Chance:
    """The D6 a withdrawing Detachment rolls; each model adds its own Movement when it moves (LI-WD-1)."""
    return Chance(WITHDRAWAL_ROLL, "withdrawal roll")


WITHDRAWAL_ROLL: Dist[WithdrawalMoveOutcome] = withdrawal_move(0)
"""The withdrawal D6 alone: ``withdrawal_move`` of a model of Movement 0."""


def withdraw(state: LiState, step: WithdrawalRoll, roll: WithdrawalMoveOutcome, out: list[Event]) -> LiState:
    """The Detachment withdraws: it may not fire this round (LI-WD-9) and its models move one at a time.

    Each must get out of the Engagement Zone of every model of the Detachments it was Engaged with, whether or not
    those models touched it or still do (LI-WD-8) [DECISION: "was Engaged with" is read when its combat began,
    the moment the combat's Engaged Detachments are fixed (LI-ENG-2)].
    """
    det = state.detachment(step.detachment)
    out.append(ev.Withdrawal(detachment=det.id, roll=roll.distance))
    foes = frozenset(m.id for e in step.engaged_with for m in state.detachment(e).models)
    state = state.with_detachment(evolve(det, withdrew_this_round=True))
    return push(state, ChooseWithdrawer(det.id, roll.distance, foes))


def withdrawer_decision(state: LiState, step: ChooseWithdrawer) -> Decision | None:
    """The controlling player picks the model to move next (LI-WD-6); none once every model has moved."""
    withdrawers = withdrawal_order(state, step)
    if not withdrawers:
        return None
    return ask(state.detachment(step.detachment).owner, "withdrawer", withdrawers, actor=step.detachment)


def withdrawal_order(state: LiState, step: ChooseWithdrawer) -> tuple[str, ...]:
    """The models still to make their Withdrawal move, nearest their battlefield edge first (LI-WD-6 default)."""
    det = state.detachment(step.detachment)
    edge = state.edge_of(det.owner)
    left = [m for m in det.live if m.id not in step.moved]
    return tuple(m.id for m in sorted(left, key=lambda m: (room_to_edge(state, m, edge), m.id)))


def withdraw_model(state: LiState, step: ChooseWithdrawer, model_id: str | None, out: list[Event]) -> LiState:
    """One model's Withdrawal move: straight toward its edge, saves for enemy Detachments moved through (LI-WD-1..5)."""
    if model_id is None:
        return state
    det = state.detachment(step.detachment)
    model = state.model(model_id)
    start, end = withdrawal_path(state, model, state.edge_of(det.owner), step.roll + model.movement)
    through = moved_through(state, model, det.owner, start, end)
    state = push(state, evolve(step, moved=step.moved | {model_id}))
    rolls = [t for t in through if not withdrawal_passes_automatically(scale=model.scale, through_scale=t.scale)]
    saves = WithdrawalSaves(model_id, (end.x, end.y), tuple(t.id for t in through), step.foes)
    if rolls:
        return push(state, saves)
    return _place(state, saves, 0, out)


def withdrawal_saves(state: LiState, step: WithdrawalSaves) -> Chance:
    """The withdrawing model's save rolls, one per enemy Detachment moved through (LI-WD-4, LI-WD-5)."""
    question = withdrawal_save_question(state, step)
    return Chance(answer(question), "withdrawal saves", dice=partial(withdrawal_save_faces, question))


def withdrawal_save_question(state: LiState, step: WithdrawalSaves) -> WithdrawalSaveQuestion:
    """The ``withdrawal_save`` question of a withdrawing model (§5.7), through however many Detachments."""
    m = state.model(step.model)
    return WithdrawalSaveQuestion(
        scale=m.scale, wounds_remaining=m.wounds_remaining,
        save=withdrawal_save_target(m.armour_save, m.special_save, m.cover_save),
        passed_through_scales=tuple(state.detachment(t).scale for t in step.through),
    )


def withdrawal_saved(state: LiState, step: WithdrawalSaves, outcome: WithdrawalSaveOutcome, out: list[Event]) -> LiState:
    """The Wounds the failed saves cost; a model that survives them is placed (LI-WD-4)."""
    model = state.model(step.model)
    saves = _saves(outcome.dice, withdrawal_save_question(state, step).save)
    if outcome.destroyed:
        return _destroyed(state, model, step, outcome.wounds_lost, "withdrawal_save", out, saves)
    state = state.with_model(evolve(model, wounds_remaining=model.wounds_remaining - outcome.wounds_lost))
    return _place(state, step, outcome.wounds_lost, out, saves)


class SavesTold(TypedDict, total=False):
    """A withdrawing model's save dice as the fields of its Withdrawal move."""

    save_dice: tuple[int, ...]
    save_needed: int


def _saves(dice: tuple[int, ...], needed: int) -> SavesTold:
    """The save dice as the fields of the model's Withdrawal move; none when drawn without them."""
    return SavesTold(save_dice=dice, save_needed=needed) if dice else SavesTold()


def _place(state: LiState, step: WithdrawalSaves, wounds_lost: int, out: list[Event], saves: SavesTold | None = None) -> LiState:
    """Where the model ends: destroyed on an enemy, moved off friends, destroyed inside the Engagement Zone (LI-WD-6, LI-WD-8)."""
    det = state.owner_of_model(step.model)
    model = state.model(step.model).at(Point(*step.end))
    others = [(d, m) for d, m in state.live_models() if m.id != model.id]
    if any(d.owner != det.owner and overlaps(model, m) for d, m in others):
        return _destroyed(state, model, step, wounds_lost, "ended_on_enemy", out, saves)
    if any(overlaps(model, m) for _, m in others):
        model = model.at(nearest_free_point(state, model, model.centre))
    if any(m.id in step.foes and distance(model, m) < ENGAGEMENT_ZONE_INCHES for _, m in others):
        return _destroyed(state, model, step, wounds_lost, "engagement_zone", out, saves)
    out.append(_moved(model, step, wounds_lost, saves))
    return state.with_model(evolve(model, x=round(model.x, 6), y=round(model.y, 6)))


def _destroyed(
    state: LiState, model: Model, step: WithdrawalSaves, wounds_lost: int, how: str, out: list[Event], saves: SavesTold | None = None
) -> LiState:
    """The withdrawing model is destroyed where *model* stands, and told so."""
    out.append(_moved(model, step, wounds_lost, saves))
    out.append(ev.Destroyed(model=model.id, detachment=state.owner_of_model(model.id).id, how=how))
    return state.with_model(evolve(model, wounds_remaining=0, void_shields=0))


def _moved(model: Model, step: WithdrawalSaves, wounds_lost: int, saves: SavesTold | None) -> ev.WithdrawalMove:
    return ev.WithdrawalMove(
        model=model.id, x=round(model.x, 3), y=round(model.y, 3), through=", ".join(step.through), wounds_lost=wounds_lost, **(saves or SavesTold())
    )
