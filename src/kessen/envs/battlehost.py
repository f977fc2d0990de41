"""battlehost in the environments: a table in inches (issue 25 §1; docs/envs.md).

- models: up to 48; status words ``prone``, ``engaged``; Wounds as the board gives them.
- board: 32 × 32 cells over the table; terrain layer ``impassable``.
- actions: 48 suggested options, then 9 × 9 points 1.5" apart (±6", a Move of 6") around the model the move
  decision's first suggested move names (the side decides for any of its models; the suggestions list the model
  the default policy moves next first): ``move <model> to x,y``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kessen.core.board import Board
from kessen.core.engine import Decision
from kessen.envs.common import decision_kinds, model_at, move_to, terrain_kinds
from kessen.envs.layout import Layout
from kessen.rulesets.battlehost.referee.steps import DecisionKind

_MOVE = re.compile(r"^move (.+) to [-0-9.]+,[-0-9.]+$")


def mover(decision: Decision, board: Board, notation: Callable[[Any], str]) -> tuple[str, float, float] | None:
    """The model of the first suggested ``move <model> to x,y``, where it stands."""
    if decision.kind != "move":
        return None
    for option in decision.options:
        found = _MOVE.match(notation(option))
        if found:
            return model_at(board, found.group(1))
    return None


LAYOUT = Layout(
    ruleset="battlehost",
    max_models=48,
    max_options=48,
    status_words=("prone", "engaged"),
    terrain_kinds=terrain_kinds("battlehost"),
    decision_kinds=decision_kinds(DecisionKind),
    points=9,
    spacing=1.5,
    mover=mover,
    point_notation=move_to,
)
