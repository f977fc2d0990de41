"""song-of-blades in the environments: a 900 mm table (issue 25 §1; docs/envs.md).

- models: up to 32; status words ``fallen``, ``transfixed``, ``engaged``, ``activated``, ``acting`` (the board
  data's words); no Wounds (a model is in or out).
- board: 32 × 32 cells over the table; terrain layers ``impassable``, ``drop``, ``high_ground``, ``cover``,
  ``obstacle``.
- actions: 32 suggested options, then 9 × 9 points 30 mm apart around the acting model (±120 mm, a Medium move):
  ``move <model> to x,y`` at a ``move`` decision, ``recoil to x,y`` at a ``recoil`` (SB-RECOIL-1 accepts only
  spots one base depth away, so the recoils in practice are the thirteen suggested ones).
"""

from __future__ import annotations

from kessen.core.engine import Decision
from kessen.envs.common import actor_mover, decision_kinds, terrain_kinds
from kessen.envs.layout import Layout
from kessen.rulesets.song_of_blades.referee.steps import DecisionKind


def point_notation(decision: Decision, who: str) -> str | None:
    if decision.kind == "move":
        return f"move {who} to "
    return "recoil to " if decision.kind == "recoil" else None


LAYOUT = Layout(
    ruleset="song-of-blades",
    max_models=32,
    max_options=32,
    status_words=("fallen", "transfixed", "engaged", "activated", "acting"),
    terrain_kinds=terrain_kinds("song-of-blades"),
    decision_kinds=decision_kinds(DecisionKind),
    points=9,
    spacing=30.0,
    mover=actor_mover(frozenset({"move", "recoil"})),
    point_notation=point_notation,
)
