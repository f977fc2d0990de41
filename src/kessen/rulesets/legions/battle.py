"""The legions game as the engine drives it: scenario loading, nodes, apply, AI, narration (kessen.core.engine.Game)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import narrate
from kessen.rulesets.legions import game as g
from kessen.rulesets.legions.ai import LiAI
from kessen.rulesets.legions.deployment import initial_state
from kessen.rulesets.legions.scenario import load_scenario
from kessen.rulesets.legions.shooting import (
    Fire,
    HoldFire,
    describe_fire,
    expected_damage,
    volley_dist,
    volley_input,
    volleys,
)
from kessen.rulesets.legions.state import LiState
from kessen.rulesets.legions.steps import ChooseTarget

RULESET_ID = "legions"


class LegionsGame:
    """legions for the engine."""

    ruleset = RULESET_ID

    def node(self, state: LiState) -> Node:
        return g.node(state)

    def apply(self, state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
        return g.apply(state, choice)

    def load_scenario(self, text: str, source: str) -> LiState:
        """The battle's initial state, settled up to its first chance or decision."""
        return g.opened(initial_state(load_scenario(text, source)))

    def sides(self, state: LiState) -> tuple[str, ...]:
        return state.players

    def ai(self, side: str) -> LiAI:
        return LiAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(RULESET_ID, event, lang)

    def describe(self, state: LiState, option: Any, lang: str) -> str:
        """An option in words; an attack shows its expected Wounds from the exact odds."""
        if isinstance(option, Fire | HoldFire):
            text = describe_fire(option)
            if isinstance(option, Fire):
                step = state.pending[0]
                assert isinstance(step, ChooseTarget)
                det = state.detachment(step.detachment)
                chance = Fraction(0)
                for v in volleys(state, det, option):
                    value = volley_input(state, v)
                    if value is not None:
                        chance = max(chance, volley_dist(value).probability(lambda o: o.wounds > 0))
                text += f"  [expected damage {expected_damage(state, det, option):.2f}; best volley wounds with {float(chance) * 100:.0f}%]"
            return text
        if isinstance(option, tuple) and option and isinstance(option[0], tuple):
            return ", ".join("-".join(str(x) for x in f) for f in option)
        if isinstance(option, tuple):
            return ", ".join(str(x) for x in option)
        return str(option)

    def show(self, state: LiState, lang: str) -> str:
        lines = [f"{state.name}: round {state.round}/{state.rounds}, {state.phase} phase, initiative {state.initiative or '-'}"]
        for p in state.players:
            lines.append(f"  {p} ({state.edge_of(p)} edge):")
            for d in state.detachments_of(p):
                live = d.live
                flags = [x for x, on in (("engaged", d.engaged), ("pinned", d.pinned), ("reserve", d.in_reserve)) if on]
                broken = " BROKEN" if state.formation(d.formation).broken else ""
                lines.append(f"    {d.id:16} {len(live)}/{len(d.models)} models  order {d.order or '-':10} {' '.join(flags)}{broken}")
                for m in live:
                    shields = f" VS{m.void_shields}" if m.void_shields_max else ""
                    lines.append(f"      {m.id:14} ({m.x:.1f}, {m.y:.1f})  W{m.wounds_remaining}/{m.wounds}{shields}")
        return "\n".join(lines)
