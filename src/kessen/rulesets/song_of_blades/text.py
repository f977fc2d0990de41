"""What a player reads: the choices of `kessen play` in the words of the catalogues (with the exact odds of each
attack and activation) and the questions the decisions ask; the board drawn is board.py, the battle report's texts
are ``i18n.narrate`` of the events (kessen/i18n/song-of-blades.<lang>.toml)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.i18n import option_text, option_word
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.battlefield import RecoilOption
from kessen.rulesets.song_of_blades.referee.odds import activation_numbers, attack_odds
from kessen.rulesets.song_of_blades.referee.state import SobState

RULESET_ID = "song-of-blades"


def describe(state: SobState, option: Any, lang: str) -> str:
    """An option in the words of the *lang* catalogue; an attack and an activation show their exact odds."""
    if isinstance(option, opt.Attack):
        act = state.current
        assert act is not None
        odds = attack_odds(state, act.model, option)
        key = "power_blow" if option.power_blow else "attack"
        return _say(lang, key, target=option.target, win=_pct(odds["win"]), kill=_pct(odds["kill"]), suffer=_pct(odds["suffer"]))
    if isinstance(option, opt.Activate):
        numbers = activation_numbers(state, option)
        key = "activate_one" if option.dice == 1 else "activate"
        return _say(lang, key, model=option.model, dice=option.dice, actions=f"{float(numbers['expected_actions']):.2f}",
                    turnover=_pct(numbers["turnover"]))
    if isinstance(option, opt.Move):
        where = {"x": f"{option.x:g}", "y": f"{option.y:g}"}
        if not option.toward:  # into cover, onto high ground, or anywhere the player named
            return _say(lang, "move_free" if option.purpose == "move" else f"move_{option.purpose}", **where)
        return _say(lang, "move", purpose=_word(lang, option.purpose), toward=option.toward, **where)
    if isinstance(option, RecoilOption):
        where = {"x": f"{option.x:.1f}", "y": f"{option.y:.1f}"}
        if option.k is None:  # a spot of the player's or of the room search, not one of SB-GEO-5's candidates
            return _say(lang, "recoil_free", kind=_word(lang, option.kind), **where)
        return _say(lang, "recoil", kind=_word(lang, option.kind), k=option.k, **where)
    if isinstance(option, opt.Hacker):
        return _say(lang, "hacker", model=option.model)
    if isinstance(option, opt.FollowUp):
        return _say(lang, "follow_up" if option.follow else "stay")
    keys = {opt.EndTurn: "end_turn", opt.EndActivation: "end_activation", opt.StandUp: "stand_up", opt.BreakFree: "break_free"}
    simple = keys.get(type(option))
    return _say(lang, simple) if simple else repr(option)


def prompt(state: SobState, decision: Decision, lang: str) -> str:
    """The question a decision asks, naming the player who decides and the model that acts or is acted on
    (SB-TURN-3): one sentence per kind, the catalogue's ``prompt_<kind>`` options."""
    step = state.pending[0] if state.pending else None
    fields: dict[str, object] = {"player": decision.player, "actor": decision.actor}
    if isinstance(step, sp.ChooseRecoil):
        fields["winner"] = step.winner
    elif isinstance(step, sp.OfferFollowUp):
        fields["loser"] = step.loser
    elif isinstance(step, sp.ChooseAction) and state.current is not None:
        fields["actions"] = state.current.actions
    return _say(lang, "prompt_" + decision.kind.replace(" ", "_").replace("-", "_"), **fields)


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str) -> str:
    return option_word(RULESET_ID, lang, word)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
