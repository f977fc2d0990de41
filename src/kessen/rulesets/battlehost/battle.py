"""The battlehost game as the engine drives it: scenario loading, nodes, apply, AI, narration."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import narrate
from kessen.rulesets.battlehost import game as g
from kessen.rulesets.battlehost import shoot_phase
from kessen.rulesets.battlehost import state as st
from kessen.rulesets.battlehost.ai import BattlehostAI
from kessen.rulesets.battlehost.profiles import format_fight
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
        return narrate(RULESET_ID, event, lang)

    def describe(self, state: st.BhState, option: Any, lang: str) -> str:
        """An option in words; a shot shows its exact odds."""
        if isinstance(option, st.ShootAt):
            dist = shoot_phase.shot_dist(state, option)
            hit = dist.probability(lambda o: o.hit)
            wound = dist.probability(lambda o: o.wounded)
            return f"{option.model} shoots at {option.target}  [hit {_pct(hit)}, wound {_pct(wound)}]"
        if isinstance(option, st.MoveTo):
            verb = f"charges {option.charge}" if option.charge else "moves"
            stand = "stands up and " if option.stand_up else ""
            return f"{option.model} {stand}{verb} to ({option.x:.2f}, {option.y:.2f})"
        if isinstance(option, st.StandUp):
            return f"{option.model} stands up" if option.stand else f"{option.model} stays prone"
        if isinstance(option, st.ChooseFight):
            return f"fight: {', '.join(option.fight.good)} against {', '.join(option.fight.evil)}"
        if isinstance(option, st.ChooseSplit):
            return "; ".join(f"{', '.join(f.good)} vs {', '.join(f.evil)}" for f in option.fights)
        if isinstance(option, st.UseTwoHanded):
            return f"{option.model} {'uses' if option.use else 'does not use'} its two-handed weapon"
        if isinstance(option, st.SpendMight):
            return f"spend {option.points} Might"
        if isinstance(option, st.NextLoser):
            return f"{option.model} backs away next"
        if isinstance(option, st.MakeWayChoice):
            return "a friend makes way" if option.make_way else "no making way: trapped"
        if isinstance(option, st.NextStriker):
            return f"{option.model} strikes next"
        if isinstance(option, st.StrikeAt):
            return f"strike {option.target}"
        return {st.EndMoves: "end moves", st.EndShooting: "end shooting"}.get(type(option), repr(option))

    def show(self, state: st.BhState, lang: str) -> str:
        lines = [f"{state.name}: turn {state.turn}/{state.turns}, {state.phase} phase, priority {state.priority}"]
        for side in st.SIDES:
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
