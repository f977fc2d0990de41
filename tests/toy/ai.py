"""The toy's AI: the first suggested option (the longest dash)."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Decision


class FirstOption:
    """Takes a decision's first suggested option."""

    def __init__(self, side: str = "") -> None:
        self.side = side

    def decide(self, state: Any, decision: Decision) -> Any:
        return decision.options[0]


class ShortestDash:
    """A plug-in AI (``--ai tests.toy.ai:ShortestDash``): the last suggested option, the shortest dash."""

    def __init__(self, *, side: str, game: Any, seed: int) -> None:
        self.side = side

    def decide(self, state: Any, decision: Decision) -> Any:
        return decision.options[-1]
