"""Whole battles on the core step machine: the step table, each step type of steps.py with its rule.

The state holds the queue of pending steps (``pending``). Each module of ``referee`` plays the steps of its part of
the rules (their nodes and resolutions): rounds (Orders, Initiative, End phase), movement_phase, stages (stages and
activation), firing, allocation, pairing and close_combat (combats), morale, withdrawal. A chance step carries the
exact distribution of one of the ruleset's own procedures (``fire``, ``fight``, ``morale_check``,
``withdrawal_move``, ``withdrawal_save``); a decision step lists its options with the default policy's choice first.
When a round has been played through, the next one is queued (``rounds.next_round``); a player with nothing left on
the battlefield ends the battle at once (``rounds.side_gone``).
"""

from __future__ import annotations

from typing import Any

from kessen.core.steps import StepMachine, StepRule
from kessen.rulesets.legions.referee import (
    allocation,
    close_combat,
    firing,
    morale,
    movement_phase,
    pairing,
    rounds,
    stages,
    withdrawal,
)
from kessen.rulesets.legions.referee import steps as sp
from kessen.rulesets.legions.referee.state import LiState, with_pending

RULES: dict[type, StepRule[LiState, Any]] = {
    # the round: Orders, Initiative, the End phase (rounds.py)
    sp.BeginRound: StepRule(rounds.begin_round),
    sp.OrdersPhase: StepRule(rounds.orders_phase),
    sp.IssueOrder: StepRule(rounds.issue_order, rounds.order_decision),
    sp.RollInitiative: StepRule(rounds.initiative_won, rounds.initiative_roll),
    sp.EndPhase: StepRule(rounds.end_phase),
    # the Movement phase (movement_phase.py)
    sp.MovementPhase: StepRule(movement_phase.movement_phase),
    sp.MoveTurn: StepRule(movement_phase.move_turn),
    sp.ChooseMover: StepRule(movement_phase.chosen_mover, movement_phase.mover_decision),
    sp.MoveDetachment: StepRule(movement_phase.moved, movement_phase.move_decision),
    sp.EndMovement: StepRule(movement_phase.end_movement),
    # the Combat phase's stages and activations (stages.py)
    sp.CombatPhase: StepRule(stages.combat_phase),
    sp.StageStart: StepRule(stages.stage_start),
    sp.ActTurn: StepRule(stages.act_turn),
    sp.ChooseActivation: StepRule(stages.activate, stages.activation_decision),
    sp.EndActivation: StepRule(stages.end_activation),
    sp.StageEnd: StepRule(stages.stage_end),
    # firing (firing.py)
    sp.ChooseTarget: StepRule(firing.declare, firing.target_decision),
    sp.VolleyRoll: StepRule(firing.volley_result, firing.volley_roll),
    sp.AttackEnd: StepRule(firing.attack_end),
    # hits allocated and saved (allocation.py)
    sp.ChooseAllocation: StepRule(allocation.hits_chosen, allocation.hits_decision),
    sp.VolleyAllocation: StepRule(allocation.mode_chosen, allocation.mode_decision),
    sp.HitRoll: StepRule(allocation.hits_rolled, allocation.hit_roll),
    sp.AllocateHit: StepRule(allocation.allocated, allocation.allocation_decision),
    sp.SaveRoll: StepRule(allocation.saved, allocation.save_roll),
    sp.RestRoll: StepRule(allocation.rest_resolved, allocation.rest_roll),
    # close combat: pairing off (pairing.py)
    sp.ChoosePairing: StepRule(pairing.pair_off, pairing.pairing_decision),
    # close combat: combats and fights (close_combat.py)
    sp.ChooseCombat: StepRule(close_combat.choose_combat, close_combat.combat_decision),
    sp.RunCombat: StepRule(close_combat.run_combat),
    sp.ChooseFight: StepRule(close_combat.choose_fight, close_combat.fight_decision),
    sp.FightRoll: StepRule(close_combat.fought, close_combat.fight_roll),
    sp.FightsDone: StepRule(close_combat.combat_result),
    sp.CombatDone: StepRule(close_combat.combat_done),
    # Morale checks (morale.py)
    sp.MoraleRoll: StepRule(morale.morale_result, morale.morale_roll),
    # Withdrawal (withdrawal.py)
    sp.WithdrawalRoll: StepRule(withdrawal.withdraw, withdrawal.withdrawal_roll),
    sp.ChooseWithdrawer: StepRule(withdrawal.withdraw_model, withdrawal.withdrawer_decision),
    sp.WithdrawalSaves: StepRule(withdrawal.withdrawal_saved, withdrawal.withdrawal_saves),
}

MACHINE: StepMachine[LiState] = StepMachine(
    RULES,
    with_pending=with_pending,
    result=rounds.result,
    refill=rounds.next_round,
    interrupt=rounds.side_gone,
)
"""The legions battle on the core step machine."""
