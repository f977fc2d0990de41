"""Whole skirmishes as a state machine: what the next node is, the pure transition, and the engine's Game.

The state is frozen (state.py); ``node`` says what comes next and ``apply`` is pure. Each step is settled by the
referee module of its part of the rules (turns, quality, melee, recoil, disengaging, moves), which asks the
rules/ procedures for its odds and applies the outcome drawn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.i18n import narrate
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.ai import SobAI
from kessen.rulesets.song_of_blades.referee.battlefield import recoil_options
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
from kessen.rulesets.song_of_blades.referee.setup import initial_state
from kessen.rulesets.song_of_blades.referee.state import (
    ActivationRoll,
    ChooseRecoil,
    ChooseRecoilHacker,
    CombatRoll,
    Disengaging,
    MoraleTest,
    OfferFollowUp,
    Pending,
    RollOff,
    SobState,
    push,
    replace_figure,
    spend,
)
from kessen.rulesets.song_of_blades.referee.turns import (
    action_options,
    activate,
    activation_options,
    rolled_off,
    settle,
    summary,
    winner,
)
from kessen.rulesets.song_of_blades.rules.melee import melee_dice
from kessen.rulesets.song_of_blades.rules.quality import activation_dice, morale_dice
from kessen.rulesets.song_of_blades.rules.turns import ROLL_OFF
from kessen.rulesets.song_of_blades.scenario import load_scenario
from kessen.rulesets.song_of_blades.text import describe, show

RULESET_ID = "song-of-blades"


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
    return Chance(hack_dice(step), "free hack")


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
        return rolled_off(state, choice, out)
    if isinstance(step, ActivationRoll):
        return activation_rolled(state, step, choice, out)
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
    """One action of the activated model (SB-ACTION-1, SB-DOWN-2, SB-DOWN-7)."""
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
        return declare_attack(state, choice, out)
    assert isinstance(choice, Move)
    return begin_move(spend(state, 1), f, choice, out)


class SobGame:
    """song-of-blades for the engine (kessen.core.engine.Game)."""

    ruleset = RULESET_ID

    def node(self, state: SobState) -> Node:
        return node(state)

    def apply(self, state: SobState, choice: Any) -> tuple[SobState, tuple[Event, ...]]:
        return apply(state, choice)

    def load_scenario(self, text: str, source: str) -> SobState:
        return initial_state(load_scenario(text, source))

    def sides(self, state: SobState) -> tuple[str, ...]:
        return state.sides

    def ai(self, side: str) -> SobAI:
        return SobAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(RULESET_ID, event, lang)

    def describe(self, state: SobState, option: Any, lang: str) -> str:
        return describe(state, option, lang)

    def show(self, state: SobState, lang: str) -> str:
        return show(state, lang)
