"""Whole battles on the core step machine: the step table, each step type with its rule.

The state is frozen (state.py) and holds the queue of steps still to play (steps.py). Each step type has its
:class:`~kessen.core.steps.StepRule` in the module of its phase: turns.py (priority), moves.py, shooting.py,
fight.py (the fight phase, standing up, backing away), duel.py, strikes.py and might.py (a Hero's own dice).
Chance nodes carry the distributions of the ruleset's own rules (a shot, strikes, the duel's best scores);
every choice the rules leave to a player is a Decision whose first option is the default policy's. When a turn's
steps are all played the next turn is queued; a side wiped out ends the battle at once (BH-TURN-3).
"""

from __future__ import annotations

from kessen.core.steps import StepMachine, StepRule
from kessen.rulesets.battlehost.referee import duel, fight, might, moves, shooting, strikes, turns
from kessen.rulesets.battlehost.referee import steps as sp
from kessen.rulesets.battlehost.referee.state import BhState, with_pending

MACHINE: StepMachine[BhState] = StepMachine(
    {
        sp.PriorityStep: StepRule(turns.apply_priority, turns.priority_node),
        sp.MoveStep: StepRule(moves.apply_move, moves.move_node),
        sp.ShootPhase: StepRule(shooting.start_shoot_phase),
        sp.ShootStep: StepRule(shooting.apply_shoot, shooting.shoot_node),
        sp.ShotRoll: StepRule(shooting.shot_rolled, shooting.shot_node),
        sp.FightPhase: StepRule(fight.start_fight_phase),
        sp.SplitStep: StepRule(fight.choose_split, fight.split_node),
        sp.PickFight: StepRule(fight.choose_fight, fight.pick_node),
        sp.Declare: StepRule(duel.declare, duel.declare_node),
        sp.DuelRoll: StepRule(duel.duel_rolled, duel.duel_node),
        sp.DuelMight: StepRule(duel.spend_might, duel.might_node),
        sp.DuelDecided: StepRule(duel.after_might),
        sp.RollOff: StepRule(duel.rolled_off, duel.roll_off_node),
        sp.StandUpOffer: StepRule(fight.stand_up, fight.stand_up_node),
        sp.BackAway: StepRule(fight.choose_loser, fight.back_away_node),
        sp.MakeWay: StepRule(fight.make_way, fight.make_way_node),
        sp.ChooseStriker: StepRule(strikes.choose_striker, strikes.striker_node),
        sp.Aim: StepRule(strikes.aim, strikes.aim_node),
        sp.StrikeRoll: StepRule(strikes.strike_result, strikes.strike_node),
        sp.FightOver: StepRule(fight.fight_over),
        sp.HeroRoll: StepRule(might.hero_die_rolled, might.hero_die_node),
        sp.HeroMight: StepRule(might.might_on_roll, might.might_on_roll_node),
    },
    with_pending=with_pending,
    result=turns.result,
    refill=turns.next_turn,
    interrupt=turns.wiped_out,
)
