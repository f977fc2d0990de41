"""legions in the environments: a table in inches (issue 25 §1; docs/envs.md).

- models: up to 128 (every model of every Detachment, its Detachment as the acting mark); status words
  ``engaged``, ``pinned``, ``reserve``, ``broken``, the Orders ``advance``, ``charge``, ``march``, ``first_fire``,
  ``fall_back``, and ``cover``, ``hidden``; Wounds as the board gives them.
- board: 32 × 32 cells over the table; no terrain layers (legions terrain is state of the models: ``cover``,
  ``hidden``).
- actions: 16 suggested options, then 9 × 9 points 1.25" apart (±5") around the centre of the moving Detachment's
  models: ``move <detachment> to x,y`` (the block's centre goes there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kessen.core.board import Board
from kessen.core.engine import Decision
from kessen.envs.common import decision_kinds, move_to, terrain_kinds
from kessen.envs.layout import Layout
from kessen.rulesets.legions.referee.steps import DecisionKind


def mover(decision: Decision, board: Board, notation: Callable[[Any], str]) -> tuple[str, float, float] | None:
    """The Detachment that moves, at the centre of its models on the board."""
    if decision.kind != "move" or not decision.actor:
        return None
    spots = [(m["x"], m["y"]) for m in board["models"] if m["group"] == decision.actor]
    if not spots:
        return None
    return decision.actor, sum(x for x, _ in spots) / len(spots), sum(y for _, y in spots) / len(spots)


LAYOUT = Layout(
    ruleset="legions",
    max_models=128,
    max_options=16,
    status_words=("engaged", "pinned", "reserve", "broken", "advance", "charge", "march", "first_fire", "fall_back",
                  "cover", "hidden"),
    terrain_kinds=terrain_kinds("legions"),
    decision_kinds=decision_kinds(DecisionKind),
    points=9,
    spacing=1.25,
    mover=mover,
    point_notation=move_to,
)
