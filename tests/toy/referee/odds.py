"""The exact numbers beside a choice: a dash's chance to be made, from the rules' own procedure (TOY-1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from tests.toy.referee.options import Dash
from tests.toy.referee.state import ToyState
from tests.toy.rules.dash import DashOutcome, DashQuestion, dash


def choice_odds(state: ToyState, decision: Decision, choice: Any) -> dict[str, Fraction] | None:
    if not isinstance(choice, Dash):
        return None
    return {"made_it": dash(DashQuestion(choice.squares)).probability(DashOutcome(True))}
