"""The battlehost game as the engine drives it: scenario loading, nodes, apply, AI, narration."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import catalogue, narrate, option_text, option_word
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

    def start(self, state: st.BhState) -> tuple[st.BhState, tuple[Event, ...]]:
        """The initial state, settled already by the scenario loader; the first events come with the first step."""
        return state, ()

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
        """An option in the words of the *lang* catalogue; a shot shows its exact odds."""
        if isinstance(option, st.ShootAt):
            dist = shoot_phase.shot_dist(state, option)
            hit = dist.probability(lambda o: o.hit)
            wound = dist.probability(lambda o: o.wounded)
            return _say(lang, "shoot_at", model=option.model, target=option.target, hit=_pct(hit), wound=_pct(wound))
        if isinstance(option, st.MoveTo):
            key = ("stand_" if option.stand_up else "") + ("charge" if option.charge else "move")
            return _say(lang, key, model=option.model, charge=option.charge, x=f"{option.x:.2f}", y=f"{option.y:.2f}")
        if isinstance(option, st.StandUp):
            return _say(lang, "stand_up" if option.stand else "stay_prone", model=option.model)
        if isinstance(option, st.ChooseFight):
            return _say(lang, "fight", good=_names(lang, option.fight.good), evil=_names(lang, option.fight.evil))
        if isinstance(option, st.ChooseSplit):
            return _say(lang, "split_separator").join(
                _say(lang, "split_fight", good=_names(lang, f.good), evil=_names(lang, f.evil)) for f in option.fights
            )
        if isinstance(option, st.UseTwoHanded):
            return _say(lang, "two_handed" if option.use else "one_handed", model=option.model)
        if isinstance(option, st.SpendMight):
            return _say(lang, "spend_might", points=option.points)
        if isinstance(option, st.NextLoser):
            return _say(lang, "next_loser", model=option.model)
        if isinstance(option, st.MakeWayChoice):
            return _say(lang, "make_way" if option.make_way else "no_make_way")
        if isinstance(option, st.NextStriker):
            return _say(lang, "next_striker", model=option.model)
        if isinstance(option, st.StrikeAt):
            return _say(lang, "strike_at", target=option.target)
        simple = {st.EndMoves: "end_moves", st.EndShooting: "end_shooting"}.get(type(option))
        return _say(lang, simple) if simple else repr(option)

    def show(self, state: st.BhState, lang: str) -> str:
        phase = _word(lang, state.phase)
        lines = [_say(lang, "show_header", name=state.name, turn=state.turn, turns=state.turns, phase=phase, priority=state.priority)]
        prone = _say(lang, "show_prone")
        for side in st.SIDES:
            lines.append(f"  {side}:")
            for m in state.side_models(side):
                flags = prone if m.prone else ""
                lines.append(
                    f"    {m.id:14} F{format_fight(m.fight, m.shoot_value):6} S{m.strength} D{m.defence} A{m.attacks} "
                    f"W{m.wounds_left}/{m.wounds}  ({m.x:.2f}, {m.y:.2f}){flags}"
                )
        return "\n".join(lines)


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str) -> str:
    return option_word(RULESET_ID, lang, word)


def _names(lang: str, names: tuple[str, ...]) -> str:
    return _say(lang, "name_separator").join(names)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
