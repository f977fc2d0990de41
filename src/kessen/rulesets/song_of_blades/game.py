"""Whole skirmishes as a state machine: what the next node is, and the pure transition.

The state is frozen (state.py); ``node`` says what comes next and ``apply`` is pure. Steps that the rules
resolve without dice or players (ending an activation, completing a move) happen inside ``apply``; the rules
themselves live in turns.py, moves.py and fights.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.dice import Dist
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.battlefield import recoil_options
from kessen.rulesets.song_of_blades.disengaging import free_hack_input
from kessen.rulesets.song_of_blades.fights import (
    attack_roll,
    combat_result,
    follow_up,
    hack_result,
    morale_result,
    recoil,
    recoil_hack,
)
from kessen.rulesets.song_of_blades.melee import MeleeDice, melee_dice
from kessen.rulesets.song_of_blades.moves import begin_move
from kessen.rulesets.song_of_blades.quality import ActivationDice, activation_dice, faces_text, morale_dice
from kessen.rulesets.song_of_blades.state import (
    Activate,
    Activation,
    ActivationRoll,
    Attack,
    BreakFree,
    ChooseRecoil,
    ChooseRecoilHacker,
    CombatRoll,
    Disengaging,
    EndActivation,
    EndTurn,
    FollowUp,
    Hacker,
    MoraleTest,
    Move,
    OfferFollowUp,
    Pending,
    RollOff,
    SobState,
    StandUp,
    initial_state,
    push,
    replace_figure,
)
from kessen.rulesets.song_of_blades.turns import (
    ROLL_OFF,
    action_options,
    activate,
    activation_options,
    roll_off_winner,
    settle,
    spend,
    start_turn,
    summary,
    winner,
)

__all__ = [
    "Activate", "Attack", "BreakFree", "EndActivation", "EndTurn", "FollowUp", "Hacker", "Move", "SobState", "StandUp",
    "action_options", "activation_options", "apply", "attack_roll", "initial_state", "node", "summary", "winner",
]


def node(state: SobState) -> Node:
    """The next node: the top pending step, else the active player's next choice, else the end."""
    if state.ended:
        return Terminal(winner(state), summary(state))
    if state.pending:
        return _pending_node(state, state.pending[0])
    if state.current is not None:
        return Decision(state.active or "", "action", action_options(state))
    return Decision(state.active or "", "activation", activation_options(state))


def _pending_node(state: SobState, step: Pending) -> Node:
    if isinstance(step, RollOff):
        return Chance(ROLL_OFF, "roll-off")
    if isinstance(step, ActivationRoll):
        return Chance(activation_dice(state.get(step.model).quality, step.dice), "activation roll")
    if isinstance(step, CombatRoll):
        return Chance(melee_dice(step.roll), "combat roll")
    if isinstance(step, MoraleTest):
        return Chance(morale_dice(state.get(step.model).quality), "morale test")
    if isinstance(step, ChooseRecoil):
        loser, winner_ = state.get(step.loser), state.get(step.winner)
        return Decision(loser.side, "recoil", recoil_options(state.figures, state.table, loser, winner_))
    if isinstance(step, ChooseRecoilHacker):
        return Decision(state.get(step.loser).side, "recoil hacker", tuple(Hacker(m) for m in step.candidates))
    if isinstance(step, OfferFollowUp):
        return Decision(state.get(step.winner).side, "follow-up", (FollowUp(True), FollowUp(False)))
    assert isinstance(step, Disengaging)
    if len(step.hackers) > 1:
        return Decision(state.get(step.model).side, "hack order", tuple(Hacker(h) for h in step.hackers))
    return Chance(_hack_dist(step, step.hackers[0]), "free hack")


def _hack_dist(step: Disengaging, hacker: str) -> Dist[MeleeDice]:
    enemy = step.setup.enemies[step.positions.index(hacker)]
    return melee_dice(free_hack_input(step.setup, enemy))


def apply(state: SobState, choice: Any) -> tuple[SobState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = []
    if state.pending:
        step, rest = state.pending[0], state.pending[1:]
        state = replace(state, pending=rest)
        state = _resolve(state, step, choice, out)
    elif state.current is not None:
        state = _act(state, choice, out)
    else:
        state = activate(state, choice, out)
    state = settle(state, out)
    return state, tuple(out)


def _resolve(state: SobState, step: Pending, choice: Any, out: list[Event]) -> SobState:
    if isinstance(step, RollOff):
        first, other = roll_off_winner(choice, state.sides)
        dice = (choice.first_die, choice.second_die) if first == state.sides[0] else (choice.second_die, choice.first_die)
        out.append(ev.RollOff(first=first, first_die=dice[0], side=other, side_die=dice[1]))
        return start_turn(replace(state, first=first, round=1, active=first, second_half=False), out)
    if isinstance(step, ActivationRoll):
        rolled: ActivationDice = choice
        o = rolled.outcome
        quality = state.get(step.model).quality
        out.append(ev.Activation(model=step.model, dice=step.dice, quality=quality, faces=faces_text(rolled.faces),
                                 actions=o.actions, failures=o.failures, turnover=o.turnover))
        return replace(state, current=Activation(step.model, o.actions, o.turnover))
    if isinstance(step, CombatRoll):
        return combat_result(state, step, choice, out)
    if isinstance(step, MoraleTest):
        return morale_result(state, step.model, choice, out)
    if isinstance(step, ChooseRecoil):
        return recoil(state, step.loser, step.winner, choice, out)
    if isinstance(step, ChooseRecoilHacker):
        return push(state, recoil_hack(state, choice.model, step.loser))
    if isinstance(step, OfferFollowUp):
        return follow_up(state, step, choice.follow, out)
    assert isinstance(step, Disengaging)
    if isinstance(choice, Hacker):  # the leaving player picked the next hacker (SB-DIS-5)
        order = (choice.model,) + tuple(h for h in step.hackers if h != choice.model)
        return push(state, replace(step, hackers=order[:1]), replace(step, hackers=order[1:]))
    return hack_result(state, step, choice, out)


def _act(state: SobState, choice: Any, out: list[Event]) -> SobState:
    act = state.current
    assert act is not None
    f = state.get(act.model)
    if isinstance(choice, EndActivation):
        return replace(state, current=replace(act, actions=0))
    if isinstance(choice, StandUp):
        out.append(ev.StandUp(model=f.id))
        return replace_figure(spend(state, 1), replace(f, state="standing"))
    if isinstance(choice, BreakFree):
        out.append(ev.BreakFree(model=f.id))
        return replace_figure(spend(state, 2), replace(f, state="standing"))
    if isinstance(choice, Attack):
        state = spend(state, 2 if choice.power_blow else 1, attacked=True)
        target = state.get(choice.target)
        ambush = (f.id, target.id) in state.hidden and f.id not in state.ambushed
        out.append(ev.AttackDeclared(attacker=f.id, defender=target.id, power_blow=choice.power_blow, ambush=ambush))
        if ambush:
            state = replace(state, ambushed=state.ambushed | {f.id})
        roll = attack_roll(state, f, target, power_blow=choice.power_blow, ambush=ambush)
        return push(state, CombatRoll(f.id, target.id, "attack", roll))
    assert isinstance(choice, Move)
    state = spend(state, 1)
    return begin_move(state, f, choice, out)
