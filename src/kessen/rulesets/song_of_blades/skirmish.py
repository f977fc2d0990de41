"""The song-of-blades game as the engine drives it: scenario loading, nodes, apply, AI, narration."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.markup import escape

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import catalogue, narrate, option_text, option_word
from kessen.rulesets.song_of_blades import game as g
from kessen.rulesets.song_of_blades import state as st
from kessen.rulesets.song_of_blades.ai import SobAI
from kessen.rulesets.song_of_blades.battlefield import RecoilOption
from kessen.rulesets.song_of_blades.board import render_board
from kessen.rulesets.song_of_blades.melee import melee
from kessen.rulesets.song_of_blades.quality import activation_odds
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
        """An option in the words of the *lang* catalogue; an attack shows its exact odds of each result."""
        if isinstance(option, g.Attack):
            act = state.current
            assert act is not None
            roll = g.attack_roll(state, state.get(act.model), state.get(option.target), power_blow=option.power_blow)
            dist = melee(roll)
            win = dist.probability(lambda o: o.affected == "defender")
            kill = dist.probability(lambda o: o.affected == "defender" and o.result in ("kill", "gruesome_kill"))
            hurt = dist.probability(lambda o: o.affected == "attacker")
            key = "power_blow" if option.power_blow else "attack"
            return _say(lang, key, target=option.target, win=_pct(win), kill=_pct(kill), suffer=_pct(hurt))
        if isinstance(option, g.Activate):
            # the exact odds of the activation procedure (SB-ACT-1, SB-ACT-2), not the AI's score of them
            expected, turnover = activation_odds(state.get(option.model).quality, option.dice)
            key = "activate_one" if option.dice == 1 else "activate"
            return _say(lang, key, model=option.model, dice=option.dice, actions=f"{float(expected):.2f}", turnover=_pct(turnover))
        if isinstance(option, g.Move):
            where = {"x": f"{option.x:g}", "y": f"{option.y:g}"}
            return _say(lang, "move", purpose=_word(lang, option.purpose), toward=option.toward, **where)
        if isinstance(option, RecoilOption):
            where = {"x": f"{option.x:.1f}", "y": f"{option.y:.1f}"}
            return _say(lang, "recoil", kind=_word(lang, option.kind), k=option.k, **where)
        if isinstance(option, g.Hacker):
            return _say(lang, "hacker", model=option.model)
        if isinstance(option, g.FollowUp):
            return _say(lang, "follow_up" if option.follow else "stay")
        keys = {g.EndTurn: "end_turn", g.EndActivation: "end_activation", g.StandUp: "stand_up", g.BreakFree: "break_free"}
        simple = keys.get(type(option))
        return _say(lang, simple) if simple else repr(option)

    def show(self, state: g.SobState, lang: str) -> str:
        """The board: the map of the table with its terrain and models, the legend, the models, then who acts."""
        turn = _say(lang, "show_turn", side=escape(state.active)) if state.active else _say(lang, "show_before_roll_off")
        heading = _say(lang, "show_header", name=escape(state.name), round=state.round, turns=state.turns, turn=turn)
        lines = render_board(state.name, state.table, state.figures, state.sides, lang, heading=heading)
        prompt = _prompt(state, lang)
        if prompt:
            lines.append(prompt)
        return "\n".join(lines)


def _prompt(state: g.SobState, lang: str) -> str:
    """Who acts at the next decision, and about what (SB-TURN-3): the last line of the board before a prompt."""
    step = state.pending[0] if state.pending else None
    if isinstance(step, st.ChooseRecoil):
        return _say(lang, "show_recoil", model=step.loser, winner=step.winner)
    if isinstance(step, st.ChooseRecoilHacker):
        return _say(lang, "show_recoil_hacker", model=step.loser)
    if isinstance(step, st.OfferFollowUp):
        return _say(lang, "show_follow_up", model=step.winner, loser=step.loser)
    if isinstance(step, st.Disengaging):
        return _say(lang, "show_hack_order", model=step.model)
    if step is not None or state.ended:
        return ""  # a roll comes next, or nothing
    if state.current is not None:
        return _say(lang, "show_activated", model=state.current.model, actions=state.current.actions)
    return _say(lang, "show_activation", side=state.active) if state.active else ""


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str) -> str:
    return option_word(RULESET_ID, lang, word)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
