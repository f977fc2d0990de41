"""The battlehost game as the engine drives it: scenario loading, nodes, apply, AI, narration."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.rulesets.battlehost import game as g
from kessen.rulesets.battlehost import state as st
from kessen.rulesets.battlehost import text
from kessen.rulesets.battlehost.ai import BattlehostAI
from kessen.rulesets.battlehost.scenario import load_scenario

RULESET_ID = "battlehost"


class BattlehostGame:
    """battlehost for the engine (kessen.core.engine.Game)."""

    ruleset = RULESET_ID

    def node(self, state: st.BhState) -> Node:
        return g.node(state)

    def apply(self, state: st.BhState, choice: Any) -> tuple[st.BhState, tuple[Event, ...]]:
        return g.apply(state, choice)

    def load_scenario(self, text: str, source: str) -> st.BhState:
        return st.initial_state(load_scenario(text, source))

    def sides(self, state: st.BhState) -> tuple[str, ...]:
        return st.SIDES

    def ai(self, side: str) -> BattlehostAI:
        return BattlehostAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return text.narrate(event, lang)

    def describe(self, state: st.BhState, option: Any, lang: str) -> str:
        return text.describe(state, option, lang)

    def show(self, state: st.BhState, lang: str) -> str:
        return text.show(state, lang)
