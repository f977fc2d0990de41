"""The actions at one decision: each action index as the choice it applies and the notation it stands for
(issue 25 §1). Suggested options are taken as the game offers them; a candidate point is offered only where the
ruleset's ``parse`` accepts its notation, so every action in the mask is legal and replays from its notation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from kessen.ai.tree import Position
from kessen.core.board import Board
from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.envs.layout import Layout, point_text


_OPTIONS_MASKS: dict[tuple[int, int], np.ndarray] = {}
"""The mask of the first *n* actions in a space of *actions*, by (actions, n): what every decision without candidate
points offers."""


class Menu:
    """The actions of the decision at *position* (see :mod:`kessen.envs.layout` for their numbering); *board* gives
    the board data, asked only where candidate points are offered (most decisions need none)."""

    __slots__ = ("layout", "position", "decision", "options", "points", "_mask")

    def __init__(self, layout: Layout, position: Position[Any], decision: Decision, board: Callable[[], Board]) -> None:
        self.layout = layout
        self.position = position
        self.decision = decision
        self.options = decision.options[: layout.max_options]
        self.points: dict[int, tuple[str, Any, float, float]] = {}
        self._mask: np.ndarray | None = None
        if decision.free and layout.points:
            self._find_points(board())

    def _find_points(self, board: Board) -> None:
        position, decision, layout = self.position, self.decision, self.layout
        mover = layout.mover(decision, board, position.notation)
        if mover is None:
            return
        who, x0, y0 = mover
        prefix = layout.point_notation(decision, who)
        if prefix is None:
            return
        units = board["units"]
        suggested = set(decision.options)
        for action, dx, dy in layout.offsets():
            x, y = x0 + dx, y0 + dy
            text = prefix + point_text(units, x, y)
            try:
                choice = position.parse(text)
            except IllegalChoice:
                continue
            if choice not in suggested:  # a point a suggestion already names is that suggestion's action
                self.points[action] = (text, choice, x, y)

    @property
    def mask(self) -> np.ndarray:
        """1 for every legal action (``int8``)."""
        if self._mask is None:
            actions, offered = self.layout.actions, len(self.options)
            blank = _OPTIONS_MASKS.get((actions, offered))
            if blank is None:
                blank = _OPTIONS_MASKS[(actions, offered)] = np.zeros(actions, np.int8)
                blank[:offered] = 1
            mask = blank.copy()  # the caller's own: a copy of the options' mask, made once per count of options
            if self.points:
                mask.put(list(self.points), 1)
            self._mask = mask
        return self._mask

    def reach(self) -> list[tuple[float, float]]:
        """The candidate points the referee accepts here."""
        return [(x, y) for _text, _choice, x, y in self.points.values()]

    def is_legal(self, action: int) -> bool:
        return 0 <= action < len(self.options) or action in self.points

    def choice(self, action: int) -> Any:
        """The choice *action* stands for; a ValueError naming it if it is not legal here."""
        if 0 <= action < len(self.options):
            return self.options[action]
        found = self.points.get(action)
        if found is None:
            raise ValueError(f"action: {action} is not legal at this {self.decision.kind} decision "
                             f"(its mask offers {int(self.mask.sum())} actions)")
        return found[1]

    def notation(self, action: int) -> str:
        """The notation *action* stands for (what a save records and ``kessen.Match.choose`` takes)."""
        found = self.points.get(action)
        if found is not None:
            return found[0]
        return self.position.notation(self.choice(action))
