"""Withdrawal on the battlefield (§4.5 Withdrawal): the roll, each model's move toward its edge, its saves for
the enemy Detachments it moves through, and where it ends."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from kessen.core.engine import Chance, Decision
from kessen.core.errors import IllegalChoice
from kessen.core.events import Event
from kessen.core.geometry import Point, segment_point_distance
from kessen.core.steps import StepRule
from kessen.dice import Dist
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.battlefield import (
    EDGE_DIRECTION,
    ENGAGEMENT_ZONE_INCHES,
    EPS,
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
    ChooseWithdrawalSpot,
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
    state = state.with_detachment(replace(det, withdrew_this_round=True))
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
    """The chosen model makes its Withdrawal move next: its player places it (LI-WD-1, LI-WD-2)."""
    if model_id is None:
        return state
    model = state.model(model_id)
    state = push(state, replace(step, moved=step.moved | {model_id}))
    return push(state, ChooseWithdrawalSpot(step.detachment, model_id, step.roll + model.movement, step.foes))


@dataclass(frozen=True, slots=True)
class Straight:
    """The model withdraws straight toward its battlefield edge, at right angles to it (LI-WD-2), the default."""


@dataclass(frozen=True, slots=True)
class WithdrawTo:
    """The model withdraws to (x, y), a spot where its base touches its battlefield edge within its distance."""

    x: float
    y: float


WithdrawalChoice = Straight | WithdrawTo

SPOT_TOLERANCE = 1e-3
"""How far a spot written in notation (three decimals) may be from one the rules allow, in inches; the model ends
at the nearest spot the rules allow."""


def edge_stretch(state: LiState, model: Model, edge: str, distance_inches: float) -> tuple[Point, Point] | None:
    """[DECISION LI-WD-2] Where along its battlefield edge a withdrawing model may stop: a model whose move reaches
    the edge with inches to spare stops as soon as its base touches the edge, anywhere its distance reaches (a
    straight move to that spot); None when its move does not reach the edge, which leaves it one spot.

    The two ends of that stretch of the edge are returned, nearer the west or south end first."""
    room = room_to_edge(state, model, edge)
    if distance_inches < room - EPS:
        return None
    along = math.sqrt(max(0.0, distance_inches**2 - room**2))
    toward = EDGE_DIRECTION[edge]
    side = Point(abs(toward.y), abs(toward.x))  # along the edge, toward east or north
    touch = model.centre + toward.scaled(room)
    r = model.base_radius
    size = state.width if side.x else state.height
    at = touch.x if side.x else touch.y
    low, high = max(r, at - along), min(size - r, at + along)
    return touch + side.scaled(low - at), touch + side.scaled(high - at)


def spot_decision(state: LiState, step: ChooseWithdrawalSpot) -> Decision:
    """Where the model withdraws to: straight toward its edge, or, when its move reaches the edge with inches to
    spare, anywhere along the edge it reaches (a free decision; the two ends of that stretch are suggested)."""
    det = state.detachment(step.detachment)
    model = state.model(step.model)
    stretch = edge_stretch(state, model, state.edge_of(det.owner), step.distance)
    options: tuple[WithdrawalChoice, ...] = (Straight(),)
    free = False
    if stretch is not None and (stretch[1] - stretch[0]).length() > 2 * SPOT_TOLERANCE:
        straight = withdrawal_path(state, model, state.edge_of(det.owner), step.distance)[1]
        a, b = stretch
        ends = (_written(a + (b - a).unit().scaled(SPOT_TOLERANCE)), _written(b + (a - b).unit().scaled(SPOT_TOLERANCE)))
        options += tuple(WithdrawTo(p.x, p.y) for p in ends if (p - straight).length() > 2 * SPOT_TOLERANCE)
        free = True
    return ask(det.owner, "withdrawal", options, actor=model.id, free=free)


def _written(p: Point) -> Point:
    """A spot as notation writes it (three decimals)."""
    return Point(round(p.x, 3), round(p.y, 3))


def spot_refusal(state: LiState, step: ChooseWithdrawalSpot, choice: WithdrawTo) -> IllegalChoice | None:
    """Why a withdrawing model may not end at the spot, or None (LI-WD-1, LI-WD-2, LI-WD-7)."""
    det = state.detachment(step.detachment)
    model = state.model(step.model)
    edge = state.edge_of(det.owner)
    stretch = edge_stretch(state, model, edge, step.distance)
    if stretch is None:
        return IllegalChoice(
            "LI-WD-2", f"{model.id} does not reach its battlefield edge: it withdraws straight toward it, {step.distance} inches"
        )
    spot = Point(choice.x, choice.y)
    a, b = stretch
    if segment_point_distance(a, b, spot) > SPOT_TOLERANCE:
        return IllegalChoice(
            "LI-WD-2", f"{model.id} stops where its base touches its battlefield edge, within {step.distance} inches of where it stands"
        )
    return None


def spot_of(state: LiState, step: ChooseWithdrawalSpot, choice: WithdrawalChoice) -> Point:
    """The end of the model's Withdrawal move: the spot chosen, on the stretch of the edge it may stop at."""
    det = state.detachment(step.detachment)
    model = state.model(step.model)
    edge = state.edge_of(det.owner)
    if isinstance(choice, Straight):
        return withdrawal_path(state, model, edge, step.distance)[1]
    stretch = edge_stretch(state, model, edge, step.distance)
    assert stretch is not None
    a, b = stretch
    ab = b - a
    t = 0.0 if ab.length() == 0 else max(0.0, min(1.0, (Point(choice.x, choice.y) - a).dot(ab) / ab.dot(ab)))
    return a + ab.scaled(t)


def spot_chosen(state: LiState, step: ChooseWithdrawalSpot, choice: WithdrawalChoice, out: list[Event]) -> LiState:
    """The model's Withdrawal move to its spot, with a save for each enemy Detachment moved through (LI-WD-3..5)."""
    saves = planned(state, step, choice)
    return push(state, saves) if rolls_saves(state, saves) else _place(state, saves, 0, out)


def planned(state: LiState, step: ChooseWithdrawalSpot, choice: WithdrawalChoice) -> WithdrawalSaves:
    """The move to the spot: where it ends and the enemy Detachments it moves through, in order (LI-WD-4)."""
    det = state.detachment(step.detachment)
    model = state.model(step.model)
    end = spot_of(state, step, choice)
    through = moved_through(state, model, det.owner, model.centre, end)
    return WithdrawalSaves(model.id, (end.x, end.y), tuple(t.id for t in through), step.foes)


def rolls_saves(state: LiState, saves: WithdrawalSaves) -> bool:
    """Whether the model rolls a save for a Detachment it moves through (not all pass automatically, LI-WD-5)."""
    model = state.model(saves.model)
    return any(not withdrawal_passes_automatically(scale=model.scale, through_scale=state.detachment(t).scale) for t in saves.through)


def withdrawal_saves(state: LiState, step: WithdrawalSaves) -> Chance:
    """The withdrawing model's save rolls, one per enemy Detachment moved through (LI-WD-4, LI-WD-5)."""
    return Chance(answer(withdrawal_save_question(state, step)), "withdrawal saves")


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
    if outcome.destroyed:
        return _destroyed(state, model, step, outcome.wounds_lost, "withdrawal_save", out)
    state = state.with_model(replace(model, wounds_remaining=model.wounds_remaining - outcome.wounds_lost))
    return _place(state, step, outcome.wounds_lost, out)


def _place(state: LiState, step: WithdrawalSaves, wounds_lost: int, out: list[Event]) -> LiState:
    """Where the model ends: destroyed on an enemy, moved off friends, destroyed inside the Engagement Zone (LI-WD-6, LI-WD-8)."""
    model, how = placed(state, step)
    if how is not None:
        return _destroyed(state, model, step, wounds_lost, how, out)
    out.append(_moved(model, step, wounds_lost))
    return state.with_model(replace(model, x=round(model.x, 6), y=round(model.y, 6)))


def placed(state: LiState, step: WithdrawalSaves) -> tuple[Model, str | None]:
    """The model where its Withdrawal move leaves it, and how that destroys it, if it does: ended on an enemy model,
    or (after being moved off friendly ones) inside the Engagement Zone of a model it was Engaged with (LI-WD-6,
    LI-WD-8)."""
    det = state.owner_of_model(step.model)
    model = state.model(step.model).at(Point(*step.end))
    others = [(d, m) for d, m in state.live_models() if m.id != model.id]
    if any(d.owner != det.owner and overlaps(model, m) for d, m in others):
        return model, "ended_on_enemy"
    if any(overlaps(model, m) for _, m in others):
        model = model.at(nearest_free_point(state, model, model.centre))
    if any(m.id in step.foes and distance(model, m) < ENGAGEMENT_ZONE_INCHES for _, m in others):
        return model, "engagement_zone"
    return model, None


def _destroyed(state: LiState, model: Model, step: WithdrawalSaves, wounds_lost: int, how: str, out: list[Event]) -> LiState:
    """The withdrawing model is destroyed where *model* stands, and told so."""
    out.append(_moved(model, step, wounds_lost))
    out.append(ev.Destroyed(model=model.id, detachment=state.owner_of_model(model.id).id, how=how))
    return state.with_model(replace(model, wounds_remaining=0, void_shields=0))


def _moved(model: Model, step: WithdrawalSaves, wounds_lost: int) -> ev.WithdrawalMove:
    return ev.WithdrawalMove(model=model.id, x=round(model.x, 3), y=round(model.y, 3), through=", ".join(step.through), wounds_lost=wounds_lost)


RULES: dict[type, StepRule[LiState, Any]] = {
    WithdrawalRoll: StepRule(withdraw, withdrawal_roll),
    ChooseWithdrawer: StepRule(withdraw_model, withdrawer_decision),
    ChooseWithdrawalSpot: StepRule(spot_chosen, spot_decision),
    WithdrawalSaves: StepRule(withdrawal_saved, withdrawal_saves),
}
"""The steps of a Withdrawal."""
