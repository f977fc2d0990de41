"""The armies-clash game as the engine drives it: scenario loading, nodes, apply, AI, narration, the board."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.rulesets.armies_clash import text
from kessen.rulesets.armies_clash.ai import AcAI
from kessen.rulesets.armies_clash.board import render_board
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee.setup import initial_state
from kessen.rulesets.armies_clash.referee.state import SIDES, AcState
from kessen.rulesets.armies_clash.scenario import load_scenario

RULESET_ID = "armies-clash"


def load_state(text_: str, source: str) -> AcState:
    """The settled initial state of a scenario file's text."""
    return g.settle(initial_state(load_scenario(text_, source)), [])


class AcGame:
    """armies-clash for the engine (kessen.core.engine.Game)."""

    ruleset = RULESET_ID

    def start(self, state: AcState) -> tuple[AcState, tuple[Event, ...]]:
        """The initial state, settled already by the scenario loader; the first events come with the first step."""
        return state, ()

    def node(self, state: AcState) -> Node:
        return g.node(state)

    def apply(self, state: AcState, choice: Any) -> tuple[AcState, tuple[Event, ...]]:
        return g.apply(state, choice)

    def load_scenario(self, text: str, source: str) -> AcState:
        return load_state(text, source)

    def sides(self, state: AcState) -> tuple[str, ...]:
        return SIDES

    def ai(self, side: str) -> AcAI:
        return AcAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return text.narrate(event, lang)

    def show(self, state: AcState, lang: str) -> str:
        return render_board(state, lang)

    def describe(self, state: AcState, option: Any, lang: str) -> str:
        """An option in the words of the *lang* catalogue; an attack shows its exact odds."""
        return text.describe(state, option, lang)
