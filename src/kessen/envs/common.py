"""What the four rulesets' layouts share: the mover found on the board by id, and the vocabularies read from the
ruleset's own tables (its decision kinds, its catalogue's terrain kinds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from kessen import i18n
from kessen.core.board import Board
from kessen.core.engine import Decision


def decision_kinds(literal: Any) -> tuple[str, ...]:
    """The kinds of a ruleset's ``DecisionKind`` literal, in its order."""
    return tuple(get_args(literal))


def terrain_kinds(ruleset: str) -> tuple[str, ...]:
    """The kinds of terrain the ruleset's board data names (its catalogue's ``[terrain]`` table), in its order."""
    return tuple(i18n.catalogue(ruleset, "en").get("terrain", {}))


def model_at(board: Board, model_id: str) -> tuple[str, float, float] | None:
    """The model *model_id* and where it stands, or None if it is not on the board."""
    for m in board["models"]:
        if m["id"] == model_id:
            return model_id, m["x"], m["y"]
    return None


def actor_mover(kinds: frozenset[str]) -> Callable[[Decision, Board, Callable[[Any], str]], tuple[str, float, float] | None]:
    """The mover of a decision of one of *kinds*: its actor, where the board shows it."""

    def mover(decision: Decision, board: Board, notation: Callable[[Any], str]) -> tuple[str, float, float] | None:
        return model_at(board, decision.actor) if decision.kind in kinds and decision.actor else None

    return mover


def move_to(decision: Decision, who: str) -> str | None:
    """``move <who> to `` at a ``move`` decision (the form every ruleset documents for its free move), else None."""
    return f"move {who} to " if decision.kind == "move" else None
