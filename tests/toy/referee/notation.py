"""Each choice as text and back: ``dash N``, ``confirm``; a dash beyond 1 to 6 is refused by TOY-1."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.notation import find_suggested, unknown, words
from tests.toy.referee.options import Confirm, Dash
from tests.toy.referee.state import ToyState


def notation(state: ToyState, decision: Decision, choice: Any) -> str:
    return "confirm" if isinstance(choice, Confirm) else f"dash {choice.squares}"


def parse(state: ToyState, decision: Decision, text: str) -> Any:
    found = find_suggested(decision.options, lambda o: notation(state, decision, o), text)
    if found is not None:
        return found
    parts = words(text)
    if decision.kind == "dash" and len(parts) == 2 and parts[0] == "dash" and parts[1].isdigit():
        squares = int(parts[1])
        if not 1 <= squares <= 6:
            raise IllegalChoice("TOY-1", f"a dash is 1 to 6 squares (got {squares})")
        return Dash(squares)
    raise unknown(text, (notation(state, decision, o) for o in decision.options))
