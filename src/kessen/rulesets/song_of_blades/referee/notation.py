"""Notation: every choice as a short stable text a person types and the referee parses back (docs/scenarios/
song-of-blades.md has the table of forms). Coordinates are millimetres, written by ``core.notation``.

    activation     activate k1 3 · end turn
    action         attack orc-2 · power blow orc-2 · move k1 to 312,440 · stand up · break free · end activation
    recoil         recoil to 290,455
    recoil hacker  hacker orc-1          hack order   hacker orc-1
    follow-up      follow up · stay
"""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Decision
from kessen.core.notation import find_suggested, point, unknown
from kessen.rulesets.song_of_blades.referee.battlefield import RecoilOption
from kessen.rulesets.song_of_blades.referee.options import (
    Activate,
    Attack,
    BreakFree,
    EndActivation,
    EndTurn,
    FollowUp,
    Hacker,
    Move,
    StandUp,
)
from kessen.rulesets.song_of_blades.referee.state import SobState

_FIXED = {EndTurn: "end turn", EndActivation: "end activation", StandUp: "stand up", BreakFree: "break free"}


def notation(decision: Decision, choice: Any) -> str:
    """The notation of a choice at *decision* (a move names the model that moves: the decision's actor)."""
    fixed = _FIXED.get(type(choice))
    if fixed is not None:
        return fixed
    if isinstance(choice, Activate):
        return f"activate {choice.model} {choice.dice}"
    if isinstance(choice, Attack):
        return f"{'power blow' if choice.power_blow else 'attack'} {choice.target}"
    if isinstance(choice, Move):
        return f"move {decision.actor} to {point(choice.x, choice.y)}"
    if isinstance(choice, RecoilOption):
        return f"recoil to {point(choice.x, choice.y)}"
    if isinstance(choice, Hacker):
        return f"hacker {choice.model}"
    if isinstance(choice, FollowUp):
        return "follow up" if choice.follow else "stay"
    raise TypeError(f"no notation for {choice!r}")


def parse(state: SobState, decision: Decision, text: str) -> Any:
    """The choice *text* names at *decision*: one of its suggested options; else IllegalChoice."""
    found = find_suggested(decision.options, lambda o: notation(decision, o), text)
    if found is not None:
        return found
    raise unknown(text, (notation(decision, o) for o in decision.options))
