"""Whole battles as a state machine: the pending steps, their nodes, and ``apply``.

The state holds a stack of pending steps (``steps``). ``node`` looks at the first step: a chance step
carries the exact distribution of one of the ruleset's own procedures (``fire``, ``fight``,
``morale_check``, ``withdrawal_move``, ``withdrawal_save``); a decision step lists the legal options with
the default policy's choice first. Steps the rules resolve without dice or players run inside ``apply``
(in ``_settle``), and so do a decision with one option and a chance with one outcome. What each step
does is the business of the module of its rulebook section: rounds (Orders, Initiative, Movement, End
phase), stages (stages and activation), firing, pairing and close_combat (combats), morale, withdrawal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.rulesets.legions.ai import LiAI
from kessen.rulesets.legions.board import render
from kessen.rulesets.legions.referee import (
    close_combat,
    firing,
    morale,
    pairing,
    rounds,
    stages,
    withdrawal,
)
from kessen.rulesets.legions.referee import steps as st
from kessen.rulesets.legions.referee.setup import initial_state
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.scenario import load_scenario
from kessen.rulesets.legions.text import describe, narrate

RULESET_ID = "legions"


class LegionsGame:
    """legions for the engine (``kessen.core.engine.Game``): a scenario's state, its nodes and transitions, the AI,
    and the words a person reads."""

    ruleset = RULESET_ID

    def node(self, state: LiState) -> Node:
        return node(state)

    def apply(self, state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
        return apply(state, choice)

    def load_scenario(self, text: str, source: str) -> LiState:
        """The battle's initial state, settled up to its first chance or decision."""
        return opened(initial_state(load_scenario(text, source)))

    def sides(self, state: LiState) -> tuple[str, ...]:
        return state.players

    def ai(self, side: str) -> LiAI:
        return LiAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(event, lang)

    def describe(self, state: LiState, option: Any, lang: str) -> str:
        return describe(state, option, lang)

    def show(self, state: LiState, lang: str) -> str:
        """The board: Detachments and models, the battlefield to scale with its terrain, and who decides next."""
        return render(state, lang)


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
    assert not isinstance(step, st.CONTROL), step
    found = _node_of(state, step)
    assert found is not None, step
    return found


def _node_of(state: LiState, step: st.ChoiceStep) -> Chance | Decision | None:
    """The node of a chance or decision step; None when the step has nothing left to decide or roll."""
    if isinstance(step, st.IssueOrder):
        return rounds.order_decision(state, step)
    if isinstance(step, st.RollInitiative):
        return rounds.initiative_roll(state)
    if isinstance(step, st.ChooseMover):
        return rounds.mover_decision(state, step)
    if isinstance(step, st.ChooseActivation):
        return stages.activation_decision(state, step)
    if isinstance(step, st.ChooseTarget):
        return firing.target_decision(state, step)
    if isinstance(step, st.ChooseAllocation):
        return firing.allocation_decision(state, step)
    if isinstance(step, st.VolleyRoll):
        return firing.volley_roll(state, step)
    if isinstance(step, st.ChooseCombat):
        return close_combat.combat_decision(state, step)
    if isinstance(step, st.ChoosePairing):
        return pairing.pairing_decision(state, step)
    if isinstance(step, st.ChooseFight):
        return close_combat.fight_decision(state)
    if isinstance(step, st.FightRoll):
        return close_combat.fight_roll(state, step)
    if isinstance(step, st.MoraleRoll):
        return morale.morale_roll(state, step)
    if isinstance(step, st.WithdrawalRoll):
        return withdrawal.withdrawal_roll()
    if isinstance(step, st.ChooseWithdrawer):
        return withdrawal.withdrawer_decision(state, step)
    if isinstance(step, st.WithdrawalSaves):
        return withdrawal.withdrawal_saves(state, step)
    raise AssertionError(f"not a chance or decision step: {step!r}")


def apply(state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = list(state.opening)
    state = replace(state, opening=())
    step, rest = state.pending[0], state.pending[1:]
    assert not isinstance(step, st.CONTROL), step
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
        if isinstance(step, st.CONTROL):
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


def _resolve(state: LiState, step: st.ChoiceStep, choice: Any, out: list[Event]) -> LiState:
    """The chosen option or the rolled outcome of *step*, already taken off the pending steps."""
    if isinstance(step, st.IssueOrder):
        return rounds.issue_order(state, step, choice, out)
    if isinstance(step, st.RollInitiative):
        return rounds.initiative_won(state, choice, out)
    if isinstance(step, st.ChooseMover):
        return rounds.move(state, choice, out)
    if isinstance(step, st.ChooseActivation):
        return stages.activate(state, step, choice, out)
    if isinstance(step, st.ChooseTarget):
        return firing.declare(state, step.detachment, choice, out)
    if isinstance(step, st.ChooseAllocation):
        return firing.allocate(state, step, choice)
    if isinstance(step, st.VolleyRoll):
        return firing.volley_result(state, step.volley, choice, out)
    if isinstance(step, st.ChooseCombat):
        return close_combat.choose_combat(state, step, choice)
    if isinstance(step, st.ChoosePairing):
        return pairing.pair_off(state, step, choice, out)
    if isinstance(step, st.ChooseFight):
        return close_combat.choose_fight(state, choice)
    if isinstance(step, st.FightRoll):
        return close_combat.fought(state, step, choice.winner, out)
    if isinstance(step, st.MoraleRoll):
        return morale.morale_result(state, step, choice.result, out)
    if isinstance(step, st.WithdrawalRoll):
        return withdrawal.withdraw(state, step, choice, out)
    if isinstance(step, st.ChooseWithdrawer):
        return withdrawal.withdraw_model(state, step, choice, out)
    if isinstance(step, st.WithdrawalSaves):
        return withdrawal.withdrawal_saved(state, step, choice, out)
    raise AssertionError(f"unknown step {step!r}")


def _control(state: LiState, step: st.ControlStep, out: list[Event]) -> LiState:
    """A step the rules resolve without dice or players, already taken off the pending steps."""
    if isinstance(step, st.BeginRound):
        return rounds.begin_round(state, out)
    if isinstance(step, st.OrdersPhase):
        return rounds.orders_phase(state, out)
    if isinstance(step, st.MovementPhase):
        return rounds.movement_phase(state, out)
    if isinstance(step, st.MoveTurn):
        return rounds.move_turn(state, step)
    if isinstance(step, st.EndMovement):
        return rounds.end_movement(state)
    if isinstance(step, st.CombatPhase):
        return stages.combat_phase(state, out)
    if isinstance(step, st.StageStart):
        return stages.stage_start(state, step.stage, out)
    if isinstance(step, st.ActTurn):
        return stages.act_turn(state, step)
    if isinstance(step, st.AttackEnd):
        return firing.attack_end(state, step, out)
    if isinstance(step, st.EndActivation):
        return stages.end_activation(state, step, out)
    if isinstance(step, st.StageEnd):
        return stages.stage_end(state, step.stage, out)
    if isinstance(step, st.RunCombat):
        return close_combat.run_combat(state, step.detachments, out)
    if isinstance(step, st.FightsDone):
        return close_combat.combat_result(state, step.detachments, out)
    if isinstance(step, st.CombatDone):
        return close_combat.combat_done(state, step.detachments, out)
    if isinstance(step, st.EndPhase):
        return rounds.end_phase(state, out)
    raise AssertionError(f"unknown control step {step!r}")
