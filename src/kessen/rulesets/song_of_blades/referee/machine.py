"""Whole skirmishes on the core step machine: the step table, one StepRule per kind of pending step (steps.py).

Each step's rule gives the chance it rolls or the decision it asks, and its resolution, which the referee module of
its part of the rules makes (turns, quality, melee, recoil, disengaging, moves), asking rules/ for its odds. When the
queue is empty the turn sequence queues the next action or activation (``turns.refill``); a side wiped out ends the
game (``turns.wiped_out``).
"""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.records import evolve
from kessen.core.steps import Out, StepMachine, StepRule
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.disengaging import begin_move, hack_dice, hack_result
from kessen.rulesets.song_of_blades.referee.melee import combat_result, declare_attack, recoil_hack
from kessen.rulesets.song_of_blades.referee.options import (
    Attack,
    BreakFree,
    EndActivation,
    FollowUp,
    Hacker,
    Move,
    StandUp,
)
from kessen.rulesets.song_of_blades.referee.quality import activation_rolled, morale_result
from kessen.rulesets.song_of_blades.referee.recoil import follow_up, recoil
from kessen.rulesets.song_of_blades.referee.recoiling import recoil_choices
from kessen.rulesets.song_of_blades.referee.state import SobState, push, replace_figure, spend, with_actions, with_current, with_pending
from kessen.rulesets.song_of_blades.referee.steps import (
    ActivationRoll,
    ChooseAction,
    ChooseActivation,
    ChooseRecoil,
    ChooseRecoilHacker,
    CombatRoll,
    Disengaging,
    MoraleTest,
    OfferFollowUp,
    RollOff,
    ask,
)
from kessen.rulesets.song_of_blades.referee.turns import (
    action_options,
    activate,
    activation_options,
    refill,
    rolled_off,
    summary,
    winner,
    wiped_out,
)
from kessen.rulesets.song_of_blades.rules.melee import melee_dice
from kessen.rulesets.song_of_blades.rules.quality import activation_dice, morale_dice
from kessen.rulesets.song_of_blades.rules.turns import ROLL_OFF


# --- the steps: the chance or decision each stands at, and its resolution ----------------------------------------


def _activation_node(state: SobState, step: ChooseActivation) -> Decision:
    return ask(state.turn.active or "", "activation", activation_options(state))


def _action_node(state: SobState, step: ChooseAction) -> Decision:
    """The activated model's next action; free while it can move (any point the rules allow, SB-MOVE-*)."""
    free = state.get(step.model).state == "standing"
    return ask(state.turn.active or "", "move", action_options(state), actor=step.model, free=free)


def _act(state: SobState, step: ChooseAction, choice: Any, out: Out) -> SobState:
    """One action of the activated model (SB-ACTION-1, SB-DOWN-2, SB-DOWN-7)."""
    act = state.current
    assert act is not None
    f = state.get(act.model)
    if isinstance(choice, EndActivation):
        return with_current(state, with_actions(act, 0))
    if isinstance(choice, StandUp):
        out.append(ev.StandUp(model=f.id))
        return replace_figure(spend(state, 1), evolve(f, state="standing"))
    if isinstance(choice, BreakFree):
        out.append(ev.BreakFree(model=f.id))
        return replace_figure(spend(state, 2), evolve(f, state="standing"))
    if isinstance(choice, Attack):
        return declare_attack(state, choice, out)
    assert isinstance(choice, Move)
    return begin_move(spend(state, 1), f, choice, out)


def _recoil_node(state: SobState, step: ChooseRecoil) -> Decision:
    loser, winner_ = state.get(step.loser), state.get(step.winner)
    options = recoil_choices(state.figures, state.table, loser, winner_)
    return ask(loser.side, "recoil", options, actor=loser.id, free=True)


def _hacker_node(state: SobState, step: ChooseRecoilHacker) -> Decision:
    return ask(state.get(step.loser).side, "recoil hacker", tuple(Hacker(m) for m in step.candidates), actor=step.loser)


def _follow_up_node(state: SobState, step: OfferFollowUp) -> Decision:
    return ask(state.get(step.winner).side, "follow-up", (FollowUp(True), FollowUp(False)), actor=step.winner)


def _disengaging_node(state: SobState, step: Disengaging) -> Chance | Decision:
    """The leaving model's player orders the hacks (SB-DIS-5) while more than one is left; the last is rolled."""
    if len(step.hackers) > 1:
        return ask(state.get(step.model).side, "hack order", tuple(Hacker(h) for h in step.hackers), actor=step.model)
    return Chance(hack_dice(step), "free hack")


def _disengaging(state: SobState, step: Disengaging, choice: Any, out: Out) -> SobState:
    if isinstance(choice, Hacker):  # the leaving player picked the next hacker (SB-DIS-5)
        order = (choice.model,) + tuple(h for h in step.hackers if h != choice.model)
        return push(state, evolve(step, hackers=order[:1]), evolve(step, hackers=order[1:]))
    return hack_result(state, step, choice, out)


def _result(state: SobState) -> Terminal | None:
    return Terminal(winner(state), summary(state)) if state.ended else None


MACHINE: StepMachine[SobState] = StepMachine(
    {
        RollOff: StepRule(lambda s, step, rolled, out: rolled_off(s, rolled, out), lambda s, step: Chance(ROLL_OFF, "roll-off")),
        ChooseActivation: StepRule(lambda s, step, choice, out: activate(s, choice, out), _activation_node),
        ActivationRoll: StepRule(
            activation_rolled, lambda s, step: Chance(activation_dice(s.get(step.model).quality, step.dice), "activation roll")
        ),
        ChooseAction: StepRule(_act, _action_node),
        CombatRoll: StepRule(combat_result, lambda s, step: Chance(melee_dice(step.roll), "combat roll")),
        MoraleTest: StepRule(
            lambda s, step, rolled, out: morale_result(s, step.model, rolled, out),
            lambda s, step: Chance(morale_dice(s.get(step.model).quality), "morale test"),
        ),
        ChooseRecoil: StepRule(lambda s, step, option, out: recoil(s, step.loser, step.winner, option, out), _recoil_node),
        ChooseRecoilHacker: StepRule(lambda s, step, choice, out: push(s, recoil_hack(s, choice.model, step.loser)), _hacker_node),
        OfferFollowUp: StepRule(lambda s, step, choice, out: follow_up(s, step, choice.follow, out), _follow_up_node),
        Disengaging: StepRule(_disengaging, _disengaging_node),
    },
    with_pending=with_pending,
    result=_result,
    refill=refill,
    interrupt=wiped_out,
)
