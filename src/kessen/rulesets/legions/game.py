"""Whole battles as a state machine: the pending steps, their nodes, and ``apply``.

The state holds a stack of pending steps (``steps``). ``node`` looks at the first step: a chance step
carries the exact distribution of one of the ruleset's own procedures (``fire``, ``fight``,
``morale_check``, ``withdrawal_move``, ``withdrawal_save``); a decision step lists the legal options with
the default policy's choice first. Steps the rules resolve without dice or players run inside ``apply``
(in ``_settle``), and so do a decision with one option and a chance with one outcome. What each step
does is the business of the module of its rulebook section: rounds (Orders, Initiative, Movement, End
phase), stages (stages and activation), attacks (firing), engagement (combats), withdrawal_moves
(Withdrawal), broken_formations (Break Points and Morale).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.rulesets.legions import (
    attacks,
    broken_formations,
    engagement,
    rounds,
    stages,
    withdrawal_moves,
)
from kessen.rulesets.legions.state import LiState
from kessen.rulesets.legions.steps import (
    CONTROL,
    ActTurn,
    AttackEnd,
    BeginRound,
    ChoiceStep,
    ChooseActivation,
    ChooseAllocation,
    ChooseCombat,
    ChooseFight,
    ChooseMover,
    ChoosePairing,
    ChooseTarget,
    ChooseWithdrawer,
    CombatDone,
    CombatPhase,
    ControlStep,
    EndActivation,
    EndMovement,
    EndPhase,
    FightRoll,
    FightsDone,
    IssueOrder,
    MoraleRoll,
    MovementPhase,
    MoveTurn,
    OrdersPhase,
    RollInitiative,
    RunCombat,
    StageEnd,
    StageStart,
    VolleyRoll,
    WithdrawalRoll,
    WithdrawalSaves,
)


def opened(state: LiState) -> LiState:
    """The initial state run up to its first chance or decision; the events on the way wait in ``opening``."""
    out: list[Event] = []
    state = _settle(state, out)
    return replace(state, opening=tuple(out))


def node(state: LiState) -> Node:
    """The next node: the first pending step's chance or decision, or the end of the battle."""
    if state.ended or not state.pending:
        return Terminal(rounds.winner(state), rounds.summary(state))
    step = state.pending[0]
    assert not isinstance(step, CONTROL), step
    found = _node_of(state, step)
    assert found is not None, step
    return found


def _node_of(state: LiState, step: ChoiceStep) -> Chance | Decision | None:
    """The node of a chance or decision step; None when the step has nothing left to decide or roll."""
    if isinstance(step, IssueOrder):
        return rounds.order_decision(state, step)
    if isinstance(step, RollInitiative):
        return rounds.initiative_roll(state)
    if isinstance(step, ChooseMover):
        return rounds.mover_decision(state, step)
    if isinstance(step, ChooseActivation):
        return stages.activation_decision(state, step)
    if isinstance(step, ChooseTarget):
        return attacks.target_decision(state, step)
    if isinstance(step, ChooseAllocation):
        return attacks.allocation_decision(state, step)
    if isinstance(step, VolleyRoll):
        return attacks.volley_roll(state, step)
    if isinstance(step, ChooseCombat):
        return engagement.combat_decision(state, step)
    if isinstance(step, ChoosePairing):
        return engagement.pairing_decision(state, step)
    if isinstance(step, ChooseFight):
        return engagement.fight_decision(state)
    if isinstance(step, FightRoll):
        return engagement.fight_roll(state, step)
    if isinstance(step, MoraleRoll):
        return broken_formations.morale_roll(state, step)
    if isinstance(step, WithdrawalRoll):
        return withdrawal_moves.withdrawal_roll()
    if isinstance(step, ChooseWithdrawer):
        return withdrawal_moves.withdrawer_decision(state, step)
    if isinstance(step, WithdrawalSaves):
        return withdrawal_moves.withdrawal_saves(state, step)
    raise AssertionError(f"not a chance or decision step: {step!r}")


def apply(state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = list(state.opening)
    state = replace(state, opening=())
    step, rest = state.pending[0], state.pending[1:]
    assert not isinstance(step, CONTROL), step
    state = _resolve(replace(state, pending=rest), step, choice, out)
    state = _settle(state, out)
    return state, tuple(out)


def _settle(state: LiState, out: list[Event]) -> LiState:
    """Run every step that needs no dice and no player, until a real chance or decision (or the end)."""
    while not state.ended:
        if state.combat is None and rounds.a_side_is_gone(state):  # a combat in progress still gets its result
            return rounds.end_battle(state, out)
        if not state.pending:
            return state
        step = state.pending[0]
        if isinstance(step, CONTROL):
            state = _control(replace(state, pending=state.pending[1:]), step, out)
            continue
        found = _node_of(state, step)
        if found is None:
            state = replace(state, pending=state.pending[1:])
            continue
        if isinstance(found, Decision) and len(found.options) == 1:
            state = _resolve(replace(state, pending=state.pending[1:]), step, found.options[0], out)
            continue
        if isinstance(found, Chance) and len(found.dist) == 1:
            state = _resolve(replace(state, pending=state.pending[1:]), step, found.dist.outcomes()[0], out)
            continue
        return state
    return state


def _resolve(state: LiState, step: ChoiceStep, choice: Any, out: list[Event]) -> LiState:
    """The chosen option or the rolled outcome of *step*, already taken off the pending steps."""
    if isinstance(step, IssueOrder):
        return rounds.issue_order(state, step, choice, out)
    if isinstance(step, RollInitiative):
        return rounds.initiative_won(state, choice, out)
    if isinstance(step, ChooseMover):
        return rounds.move(state, choice, out)
    if isinstance(step, ChooseActivation):
        return stages.activate(state, step, choice, out)
    if isinstance(step, ChooseTarget):
        return attacks.declare(state, step.detachment, choice, out)
    if isinstance(step, ChooseAllocation):
        return attacks.allocate(state, step, choice)
    if isinstance(step, VolleyRoll):
        return attacks.volley_result(state, step.volley, choice, out)
    if isinstance(step, ChooseCombat):
        return engagement.choose_combat(state, step, choice)
    if isinstance(step, ChoosePairing):
        return engagement.pair_off(state, step, choice, out)
    if isinstance(step, ChooseFight):
        return engagement.choose_fight(state, choice)
    if isinstance(step, FightRoll):
        return engagement.fight(state, step, choice.winner, out)
    if isinstance(step, MoraleRoll):
        return broken_formations.morale_result(state, step, choice.result, out)
    if isinstance(step, WithdrawalRoll):
        return withdrawal_moves.withdraw(state, step, choice, out)
    if isinstance(step, ChooseWithdrawer):
        return withdrawal_moves.withdraw_model(state, step, choice, out)
    if isinstance(step, WithdrawalSaves):
        return withdrawal_moves.withdrawal_saved(state, step, choice, out)
    raise AssertionError(f"unknown step {step!r}")


def _control(state: LiState, step: ControlStep, out: list[Event]) -> LiState:
    """A step the rules resolve without dice or players, already taken off the pending steps."""
    if isinstance(step, BeginRound):
        return rounds.begin_round(state, out)
    if isinstance(step, OrdersPhase):
        return rounds.orders_phase(state, out)
    if isinstance(step, MovementPhase):
        return rounds.movement_phase(state, out)
    if isinstance(step, MoveTurn):
        return rounds.move_turn(state, step)
    if isinstance(step, EndMovement):
        return rounds.end_movement(state)
    if isinstance(step, CombatPhase):
        return stages.combat_phase(state, out)
    if isinstance(step, StageStart):
        return stages.stage_start(state, step.stage, out)
    if isinstance(step, ActTurn):
        return stages.act_turn(state, step)
    if isinstance(step, AttackEnd):
        return attacks.attack_end(state, step, out)
    if isinstance(step, EndActivation):
        return stages.end_activation(state, step, out)
    if isinstance(step, StageEnd):
        return stages.stage_end(state, step.stage, out)
    if isinstance(step, RunCombat):
        return engagement.run_combat(state, step.detachments, out)
    if isinstance(step, FightsDone):
        return engagement.combat_result(state, step.detachments, out)
    if isinstance(step, CombatDone):
        return engagement.combat_done(state, step.detachments, out)
    if isinstance(step, EndPhase):
        return rounds.end_phase(state, out)
    raise AssertionError(f"unknown control step {step!r}")
