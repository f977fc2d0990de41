"""A scenario's race at its start."""

from __future__ import annotations

from tests.toy.referee.state import ToyState
from tests.toy.scenario import Scenario


def initial_state(scenario: Scenario) -> ToyState:
    return ToyState(scenario.sides)
