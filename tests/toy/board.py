"""The race drawn: as a line of text, and as plain data (a track of 11 squares, a row per racer)."""

from __future__ import annotations

from kessen.core.board import Board
from kessen.core.engine import Node
from tests.toy.referee.state import GOAL, ToyState


def draw(state: ToyState, node: Node, lang: str) -> str:
    return f"{state.sides[0]} {state.position[0]}, {state.sides[1]} {state.position[1]}"


def board_data(state: ToyState) -> Board:
    return {
        "ruleset": "toy", "units": "square", "width": GOAL + 1, "height": 2, "sides": list(state.sides), "terrain": [],
        "models": [
            {"id": f"racer-{i}", "name": side, "side": side, "x": state.position[i], "y": i, "base": None, "footprint": [1, 1],
             "wounds": None, "wounds_max": None, "status": [], "group": None}
            for i, side in enumerate(state.sides)
        ],
    }
