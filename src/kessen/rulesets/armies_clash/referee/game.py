"""The armies-clash game as every driver plays it (``kessen.core.engine.Game``): scenario loading, the step machine's
nodes and transitions, notation, odds, words, the board, the AI."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from kessen.core.board import Board
from kessen.core.engine import Decision, Node
from kessen.core.events import Event
from kessen.rulesets import Engine
from kessen.rulesets.armies_clash import text
from kessen.rulesets.armies_clash.ai import AcAI
from kessen.rulesets.armies_clash.board import board_data, render_board
from kessen.rulesets.armies_clash.referee import notation
from kessen.rulesets.armies_clash.referee.machine import MACHINE
from kessen.rulesets.armies_clash.referee.odds import choice_odds
from kessen.rulesets.armies_clash.referee.setup import initial_state
from kessen.rulesets.armies_clash.referee.state import SIDES, AcState
from kessen.rulesets.armies_clash.scenario import load_scenario, swap_deployment

RULESET_ID = "armies-clash"


class AcGame:
    """armies-clash for the engine (kessen.core.engine.Game)."""

    ruleset = RULESET_ID

    def start(self, state: AcState) -> tuple[AcState, tuple[Event, ...]]:
        return MACHINE.start(state)

    def node(self, state: AcState) -> Node:
        return MACHINE.node(state)

    def apply(self, state: AcState, choice: Any) -> tuple[AcState, tuple[Event, ...]]:
        return MACHINE.apply(state, choice)

    def notation(self, state: AcState, decision: Decision, choice: Any) -> str:
        return notation.notation(state, decision, choice)

    def parse(self, state: AcState, decision: Decision, text_: str) -> Any:
        return notation.parse(state, decision, text_)

    def odds(self, state: AcState, decision: Decision, choice: Any) -> Mapping[str, Fraction] | None:
        return choice_odds(state, decision, choice)

    def describe(self, state: AcState, option: Any, lang: str) -> str:
        """An option in the words of the *lang* catalogue; an attack or a spell shows its exact odds."""
        return text.describe(state, option, lang)

    def prompt(self, state: AcState, decision: Decision, lang: str) -> str:
        return text.prompt(state, decision, lang)

    def load_scenario(self, text_: str, source: str) -> AcState:
        return initial_state(load_scenario(text_, source))

    def sides(self, state: AcState) -> tuple[str, ...]:
        return SIDES

    def ai(self, side: str) -> AcAI:
        return AcAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return text.narrate(event, lang)

    def show(self, state: AcState, lang: str) -> str:
        return render_board(state, lang)

    def board(self, state: AcState) -> Board:
        return board_data(state)


ENGINE = Engine(AcGame(), swap_deployment)
"""What the registry plays armies-clash battles with (``Ruleset.of_package``)."""
