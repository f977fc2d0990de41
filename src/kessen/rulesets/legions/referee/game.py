"""Whole battles on the core step machine: the step rules of every module, and the ``Game`` object.

The state holds the queue of pending steps (``pending``). Each module of ``referee`` gives the ``StepRule`` of the
steps of its part of the rules: rounds (Orders, Initiative, Movement, End phase), stages (stages and activation),
firing, pairing and close_combat (combats), morale, withdrawal. A chance step carries the exact distribution of one
of the ruleset's own procedures (``fire``, ``fight``, ``morale_check``, ``withdrawal_move``, ``withdrawal_save``); a
decision step lists its options with the default policy's choice first. When a round has been played through, the
next one is queued (``rounds.next_round``); a player with nothing left on the battlefield ends the battle at once
(``rounds.side_gone``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from kessen.core.board import Board
from kessen.core.engine import Decision, Node
from kessen.core.events import Event
from kessen.core.steps import StepMachine, StepRule
from kessen.rulesets import Engine
from kessen.rulesets.legions.ai import LiAI
from kessen.rulesets.legions.board import awaiting, board_data, render
from kessen.rulesets.legions.referee import (
    allocation,
    close_combat,
    firing,
    morale,
    movement_phase,
    notation,
    odds,
    pairing,
    rounds,
    stages,
    withdrawal,
)
from kessen.rulesets.legions.referee.setup import initial_state
from kessen.rulesets.legions.referee.state import LiState, with_pending
from kessen.rulesets.legions.referee.steps import KINDS_SINCE_V1
from kessen.rulesets.legions.scenario import load_scenario, swap_deployment
from kessen.rulesets.legions.text import describe, narrate, say

RULESET_ID = "legions"

RULES: dict[type, StepRule[LiState, Any]] = {
    **rounds.RULES, **movement_phase.RULES, **stages.RULES, **firing.RULES, **allocation.RULES, **pairing.RULES, **close_combat.RULES, **morale.RULES, **withdrawal.RULES,
}

MACHINE: StepMachine[LiState] = StepMachine(
    RULES,
    with_pending=with_pending,
    result=rounds.result,
    refill=rounds.next_round,
    interrupt=rounds.side_gone,
)


def start(state: LiState) -> tuple[LiState, tuple[Event, ...]]:
    """The battle run up to its first chance or decision, with the events on the way (a round begins, Orders...)."""
    return MACHINE.start(state)


def settled(state: LiState) -> bool:
    """Whether *state* stands at a chance, a decision or the end, as every state ``start`` and ``apply`` give does;
    a scenario's initial state usually stands at a step the rules settle alone (a round begins)."""
    return state.ended or (bool(state.pending) and RULES[type(state.pending[0])].node is not None)


def ready(state: LiState) -> LiState:
    """*state*, run up to its first chance or decision if it is not there yet: a driver may go from ``load_scenario``
    straight to ``node`` and ``apply``, as ``core.replay.play`` does, without ``start``."""
    return state if settled(state) else start(state)[0]


def node(state: LiState) -> Node:
    """The node a state stands at: the first pending step's chance or decision, or the end of the battle."""
    return MACHINE.node(ready(state))


def apply(state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure); a state never started
    (see :func:`ready`) is started first, and the opening's events come with the first choice's."""
    if settled(state):
        return MACHINE.apply(state, choice)
    started, opening = start(state)
    after, events = MACHINE.apply(started, choice)
    return after, opening + events


class LegionsGame:
    """legions for the engine (``kessen.core.engine.Game``): a scenario's state, its nodes and transitions, the AI,
    and the words a person reads."""

    ruleset = RULESET_ID

    def start(self, state: LiState) -> tuple[LiState, tuple[Event, ...]]:
        return start(state)

    def node(self, state: LiState) -> Node:
        return node(state)

    def apply(self, state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
        return apply(state, choice)

    def notation(self, state: LiState, decision: Decision, choice: Any) -> str:
        """A choice as its short stable text (the forms are listed in ``referee.notation``)."""
        return notation.notation(ready(state), decision, choice)

    def parse(self, state: LiState, decision: Decision, text: str) -> Any:
        """The choice a text names: a suggested option, or any other the rules allow; else IllegalChoice."""
        return notation.parse(ready(state), decision, text)

    def odds(self, state: LiState, decision: Decision, choice: Any) -> Mapping[str, Fraction] | None:
        """The exact numbers of a choice (keys of the catalogue's ``[odds]`` table), or None."""
        return odds.choice_odds(ready(state), choice)

    def prompt(self, state: LiState, decision: Decision, lang: str) -> str:
        """The question a decision asks: the player who decides, then what is decided and who acts."""
        return say(lang, "prompt", player=decision.player, what=awaiting(ready(state), lang))

    def board(self, state: LiState) -> Board:
        return board_data(ready(state))

    def load_scenario(self, text: str, source: str) -> LiState:
        """The battle's initial state as the scenario sets it (``start`` runs it up to its first node)."""
        return initial_state(load_scenario(text, source))

    def sides(self, state: LiState) -> tuple[str, ...]:
        return state.players

    def ai(self, side: str) -> LiAI:
        return LiAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(event, lang)

    def describe(self, state: LiState, option: Any, lang: str) -> str:
        return describe(ready(state), option, lang)

    def show(self, state: LiState, lang: str) -> str:
        """The board: Detachments and models, the battlefield to scale with its terrain, and who decides next."""
        return render(ready(state), lang)


ENGINE = Engine(LegionsGame(), swap_deployment, KINDS_SINCE_V1)
"""What the registry plays legions battles with (``Ruleset.of_package``)."""
