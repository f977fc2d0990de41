"""Test helpers shared by every ruleset's engine tests: apply a choice only after checking it is legal there."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kessen.core.engine import Chance, Decision, Game
from kessen.core.events import Event
from kessen.core.session import accepted


def apply_checked(game: Game[Any], state: Any, choice: Any) -> tuple[Any, tuple[Event, ...]]:
    """Apply *choice* at *state*'s node after checking it is legal there: a suggested option (or, at a free
    decision, a choice the ruleset's notation parses back to), or an outcome the chance node's distribution has."""
    node = game.node(state)
    if isinstance(node, Decision):
        accepted(game, state, node, choice)
    elif isinstance(node, Chance):
        assert node.dist.probability(choice) > 0, (choice, node.kind, node.dist.outcomes())
    else:
        raise AssertionError(f"the battle is over: {node}")
    return game.apply(state, choice)


def apply_all(game: Game[Any], state: Any, choices: Iterable[Any]) -> tuple[Any, list[Event]]:
    """Several checked choices in a row, and the events of all of them."""
    events: list[Event] = []
    for choice in choices:
        state, new = apply_checked(game, state, choice)
        events.extend(new)
    return state, events
