"""The battlehost game as the engine drives it: scenario loading, nodes, apply, AI, narration."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import narrate
from kessen.rulesets.battlehost import game as g
from kessen.rulesets.battlehost.ai import BattlehostAI
from kessen.rulesets.battlehost.profiles import format_fight
from kessen.rulesets.battlehost.scenario import load_scenario

RULESET_ID = "battlehost"


class BattlehostGame:
    """battlehost for the engine (kessen.core.engine.Game)."""

    ruleset = RULESET_ID

    def node(self, state: g.BhState) -> Node:
        return g.node(state)

    def apply(self, state: g.BhState, choice: Any) -> tuple[g.BhState, tuple[Event, ...]]:
        return g.apply(state, choice)

    def load_scenario(self, text: str, source: str) -> g.BhState:
        return g.initial_state(load_scenario(text, source))

    def sides(self, state: g.BhState) -> tuple[str, ...]:
        return g.SIDES

    def ai(self, side: str) -> BattlehostAI:
        return BattlehostAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(RULESET_ID, event, lang)

    def describe(self, state: g.BhState, option: Any, lang: str) -> str:
        """An option in words; a shot shows its exact odds."""
        if isinstance(option, g.ShootAt):
            dist = g.shot_dist(state, option)
            hit = dist.probability(lambda o: o.hit)
            wound = dist.probability(lambda o: o.wounded)
            return f"{option.model} shoots at {option.target}  [hit {_pct(hit)}, wound {_pct(wound)}]"
        if isinstance(option, g.MoveTo):
            verb = f"charges {option.charge}" if option.charge else "moves"
            stand = "stands up and " if option.stand_up else ""
            return f"{option.model} {stand}{verb} to ({option.x:.2f}, {option.y:.2f})"
        if isinstance(option, g.StandUp):
            return f"{option.model} stands up" if option.stand else f"{option.model} stays prone"
        if isinstance(option, g.ChooseFight):
            return f"fight: {', '.join(option.fight.good)} against {', '.join(option.fight.evil)}"
        if isinstance(option, g.ChooseSplit):
            return "; ".join(f"{', '.join(f.good)} vs {', '.join(f.evil)}" for f in option.fights)
        if isinstance(option, g.UseTwoHanded):
            return f"{option.model} {'uses' if option.use else 'does not use'} its two-handed weapon"
        if isinstance(option, g.SpendMight):
            return f"spend {option.points} Might"
        if isinstance(option, g.NextLoser):
            return f"{option.model} backs away next"
        if isinstance(option, g.MakeWayChoice):
            return "a friend makes way" if option.make_way else "no making way: trapped"
        if isinstance(option, g.NextStriker):
            return f"{option.model} strikes next"
        if isinstance(option, g.StrikeAt):
            return f"strike {option.target}"
        return {g.EndMoves: "end moves", g.EndShooting: "end shooting"}.get(type(option), repr(option))

    def show(self, state: g.BhState, lang: str) -> str:
        lines = [f"{state.name}: turn {state.turn}/{state.turns}, {state.phase} phase, priority {state.priority}"]
        for side in g.SIDES:
            lines.append(f"  {side}:")
            for m in state.side_models(side):
                flags = " prone" if m.prone else ""
                lines.append(
                    f"    {m.id:14} F{format_fight(m.fight, m.shoot_value):6} S{m.strength} D{m.defence} A{m.attacks} "
                    f"W{m.wounds_left}/{m.wounds}  ({m.x:.2f}, {m.y:.2f}){flags}"
                )
        return "\n".join(lines)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
