"""armies-clash in the environments: a grid of 20-ft squares (issue 25 §1; docs/envs.md).

- models: up to 48 (stands and solos); status words ``casualty``, ``isolated``, ``hidden``, ``routed``, ``dying``,
  ``stable``, ``joined``, ``commander``; HP as Wounds.
- board: one cell a square, up to 32 × 32 squares, the board in the top-left corner; terrain layers ``road``,
  ``forest``, ``shallow_water``, ``deep_water``, ``rough``, ``obscured``, ``high_ground``, ``objective``,
  ``objective_destroyed``.
- actions: 256 suggested options (a move's suggestions are the squares it reaches), then 9 × 9 squares (±4) around
  the moving piece's north-west square: ``move <piece> to x,y``.
"""

from __future__ import annotations

from kessen.envs.common import actor_mover, decision_kinds, move_to, terrain_kinds
from kessen.envs.layout import Layout
from kessen.rulesets.armies_clash.referee.steps import DecisionKind


LAYOUT = Layout(
    ruleset="armies-clash",
    max_models=48,
    max_options=256,
    status_words=("casualty", "isolated", "hidden", "routed", "dying", "stable", "joined", "commander"),
    terrain_kinds=terrain_kinds("armies-clash"),
    decision_kinds=decision_kinds(DecisionKind),
    points=9,
    spacing=1.0,
    mover=actor_mover(frozenset({"move"})),
    point_notation=move_to,
)
