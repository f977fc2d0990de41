"""What a player reads: the choices of `kessen play` in the words of the catalogues (with the exact odds of each
attack and activation), and the board; the battle report's texts are ``i18n.narrate`` of the events
(kessen/i18n/song-of-blades.<lang>.toml)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.markup import escape

from kessen.i18n import option_text, option_word
from kessen.rulesets.song_of_blades.board import render_board
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee import state as st
from kessen.rulesets.song_of_blades.referee.battlefield import RecoilOption
from kessen.rulesets.song_of_blades.referee.melee import attack_roll
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.melee import melee
from kessen.rulesets.song_of_blades.rules.quality import activation_odds

RULESET_ID = "song-of-blades"


def describe(state: SobState, option: Any, lang: str) -> str:
    """An option in the words of the *lang* catalogue; an attack shows its exact odds of each result."""
    if isinstance(option, opt.Attack):
        act = state.current
        assert act is not None
        roll = attack_roll(state, state.get(act.model), state.get(option.target), power_blow=option.power_blow)
        dist = melee(roll)
        win = dist.probability(lambda o: o.affected == "defender")
        kill = dist.probability(lambda o: o.affected == "defender" and o.result in ("kill", "gruesome_kill"))
        hurt = dist.probability(lambda o: o.affected == "attacker")
        key = "power_blow" if option.power_blow else "attack"
        return _say(lang, key, target=option.target, win=_pct(win), kill=_pct(kill), suffer=_pct(hurt))
    if isinstance(option, opt.Activate):
        # the exact odds of the activation procedure (SB-ACT-1, SB-ACT-2), not the AI's score of them
        expected, turnover = activation_odds(state.get(option.model).quality, option.dice)
        key = "activate_one" if option.dice == 1 else "activate"
        return _say(lang, key, model=option.model, dice=option.dice, actions=f"{float(expected):.2f}", turnover=_pct(turnover))
    if isinstance(option, opt.Move):
        where = {"x": f"{option.x:g}", "y": f"{option.y:g}"}
        return _say(lang, "move", purpose=_word(lang, option.purpose), toward=option.toward, **where)
    if isinstance(option, RecoilOption):
        where = {"x": f"{option.x:.1f}", "y": f"{option.y:.1f}"}
        return _say(lang, "recoil", kind=_word(lang, option.kind), k=option.k, **where)
    if isinstance(option, opt.Hacker):
        return _say(lang, "hacker", model=option.model)
    if isinstance(option, opt.FollowUp):
        return _say(lang, "follow_up" if option.follow else "stay")
    keys = {opt.EndTurn: "end_turn", opt.EndActivation: "end_activation", opt.StandUp: "stand_up", opt.BreakFree: "break_free"}
    simple = keys.get(type(option))
    return _say(lang, simple) if simple else repr(option)


def show(state: SobState, lang: str) -> str:
    """The board: the map of the table with its terrain and models, the legend, the models, then who acts."""
    turn = _say(lang, "show_turn", side=escape(state.active)) if state.active else _say(lang, "show_before_roll_off")
    heading = _say(lang, "show_header", name=escape(state.name), round=state.round, turns=state.turns, turn=turn)
    lines = render_board(state.table, state.figures, state.sides, lang, heading=heading)
    prompt = _prompt(state, lang)
    if prompt:
        lines.append(prompt)
    return "\n".join(lines)


def _prompt(state: SobState, lang: str) -> str:
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
