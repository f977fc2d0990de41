"""Checked by mypy, never run: the registry takes only a game that keeps the ``Game`` protocol (issue 27 §1).

mypy (``make test`` runs it over ``src/kessen`` and this folder) must refuse each wrong game below; each refusal is
silenced by its own ``type: ignore``, and strict mypy reports an ignore that silences nothing, so if the registry
ever took any object again (``game: Any``), these lines would fail the type check.
"""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Game
from kessen.rulesets import Engine, Ruleset, get_ruleset


class NoBoard:
    """A game with everything but ``board``."""

    ruleset = "no-board"

    def start(self, state: int) -> tuple[int, tuple[()]]:
        return state, ()


def wrong_games() -> None:
    Engine(NoBoard())  # type: ignore[arg-type]
    Engine("a game")  # type: ignore[arg-type]
    Ruleset("x", "X", "X", {}, game=NoBoard())  # type: ignore[arg-type]


def every_shipped_game_keeps_the_protocol() -> list[Game[Any]]:
    """What a driver gets back from the registry is a checked ``Game``."""
    return [get_ruleset(rid).game for rid in ("battlehost", "armies-clash", "legions", "song-of-blades")]


def wrong_decision_kinds() -> None:
    """A step may ask only a decision of its ruleset's documented kinds."""
    from kessen.rulesets.battlehost.referee.steps import ask

    ask("good", "dance", ())  # type: ignore[arg-type]
    ask("good", "move", ())
