"""What a ruleset tells the search AI: the decisions worth searching and what a position is worth (issue 23 §2).

Each ruleset's ``ai.py`` gives a :class:`Tactics` (``kessen.core.tactics``) to its game: ``greedy`` (the fast one-step AI), ``candidates`` (the choices
worth searching at a decision, best first: the suggested options the rules list, and the moves they leave out, such
as a path around a wall) and ``evaluate`` (a position's worth to a side, from what the rules score). The search
itself (:mod:`kessen.ai.search`) knows no ruleset. A ruleset that gives no tactics is searched with
:class:`BoardTactics`: every suggested option, and the material left on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.core.decisions import Decider
from kessen.core.engine import Decision, Game
from kessen.core.tactics import Tactics

__all__ = ["BoardTactics", "Tactics"]


class BoardTactics:
    """Tactics any game has: its greedy AI's choice first, then the other suggested options; worth is the share of
    the Wounds (or of the models, where a ruleset counts no Wounds) each side has left on the board."""

    def __init__(self, game: Game[Any]) -> None:
        self._game = game

    def greedy(self, side: str) -> Decider:
        found: Decider = self._game.ai(side)
        return found

    def candidates(self, state: Any, decision: Decision, limit: int) -> Sequence[Any]:
        first = self._game.ai(decision.player).decide(state, decision)
        rest = [o for o in decision.options if o != first]
        return [first, *rest][:limit]

    def evaluate(self, state: Any, side: str) -> float:
        left: dict[str, float] = {}
        for model in self._game.board(state)["models"]:
            wounds, most = model["wounds"], model["wounds_max"]
            share = 1.0 if wounds is None or not most else wounds / most
            left[model["side"]] = left.get(model["side"], 0.0) + share
        mine = left.get(side, 0.0)
        theirs = sum(v for s, v in left.items() if s != side)
        total = mine + theirs
        return 0.0 if total == 0 else (mine - theirs) / total
