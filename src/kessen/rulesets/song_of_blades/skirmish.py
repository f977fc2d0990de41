"""The song-of-blades game as the engine drives it: scenario loading, nodes, apply, AI, narration."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import narrate
from kessen.rulesets.song_of_blades import game as g
from kessen.rulesets.song_of_blades.ai import SobAI
from kessen.rulesets.song_of_blades.battlefield import RecoilOption
from kessen.rulesets.song_of_blades.melee import melee
from kessen.rulesets.song_of_blades.scenario import load_scenario

RULESET_ID = "song-of-blades"


class SobGame:
    """song-of-blades for the engine (kessen.core.engine.Game)."""

    ruleset = RULESET_ID

    def node(self, state: g.SobState) -> Node:
        return g.node(state)

    def apply(self, state: g.SobState, choice: Any) -> tuple[g.SobState, tuple[Event, ...]]:
        return g.apply(state, choice)

    def load_scenario(self, text: str, source: str) -> g.SobState:
        return g.initial_state(load_scenario(text, source))

    def sides(self, state: g.SobState) -> tuple[str, ...]:
        return state.sides

    def ai(self, side: str) -> SobAI:
        return SobAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(RULESET_ID, event, lang)

    def describe(self, state: g.SobState, option: Any, lang: str) -> str:
        """An option in words; an attack shows its exact odds of each result."""
        if isinstance(option, g.Attack):
            act = state.current
            assert act is not None
            roll = g.attack_roll(state, state.get(act.model), state.get(option.target), power_blow=option.power_blow)
            dist = melee(roll)
            win = dist.probability(lambda o: o.affected == "defender")
            kill = dist.probability(lambda o: o.affected == "defender" and o.result in ("kill", "gruesome_kill"))
            hurt = dist.probability(lambda o: o.affected == "attacker")
            label = "power blow on" if option.power_blow else "attack"
            return f"{label} {option.target}  [win {_pct(win)}, kill {_pct(kill)}, suffer {_pct(hurt)}]"
        if isinstance(option, g.Activate):
            return f"activate {option.model} with {option.dice} dice"
        if isinstance(option, g.Move):
            return f"move ({option.purpose} {option.toward}) to ({option.x:g}, {option.y:g})"
        if isinstance(option, RecoilOption):
            return f"recoil {option.kind} k={option.k} to ({option.x:.1f}, {option.y:.1f})"
        if isinstance(option, g.Hacker):
            return f"{option.model} hacks"
        if isinstance(option, g.FollowUp):
            return "follow up" if option.follow else "stay"
        return {g.EndTurn: "end the turn", g.EndActivation: "end the activation", g.StandUp: "stand up", g.BreakFree: "break free"}.get(type(option), repr(option))

    def show(self, state: g.SobState, lang: str) -> str:
        turn = f"{state.active}'s turn" if state.active else "before the roll-off"
        lines = [f"{state.name}: round {state.round}/{state.turns}, {turn}"]
        for side in state.sides:
            lines.append(f"  {side}:")
            for f in state.side_figures(side):
                lines.append(f"    {f.id:12} {f.name:20} Q{f.quality}+ C{f.combat}  ({f.x:.0f}, {f.y:.0f})  {f.state}")
        if state.current is not None:
            lines.append(f"  activated: {state.current.model}, {state.current.actions} actions left")
        return "\n".join(lines)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
