"""The state machine every ruleset plays on: chance, decision and terminal nodes, and a pure apply."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from kessen.core.events import Event
from kessen.dice import Dist

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Chance:
    """The next step is a procedure's outcome, drawn from its exact distribution."""

    dist: Dist[Any]
    what: str


@dataclass(frozen=True, slots=True)
class Decision:
    """A player must choose one of the legal options (never empty)."""

    player: str
    what: str
    options: tuple[Hashable, ...]

    def __post_init__(self) -> None:
        assert self.options, f"a decision ({self.what}) needs at least one legal option"


@dataclass(frozen=True, slots=True)
class Terminal:
    """The battle is over."""

    winner: str | None
    summary: dict[str, Any]


Node = Chance | Decision | Terminal


class Game(Protocol[S]):
    """What a ruleset gives the engine: where a state stands, and the pure transition."""

    ruleset: str

    def node(self, state: S) -> Node:
        """The kind of node *state* is at, with its distribution or legal options."""
        ...

    def apply(self, state: S, choice: Any) -> tuple[S, tuple[Event, ...]]:
        """The state after *choice* (an outcome at a chance node, an option at a decision node)."""
        ...

    def describe(self, state: S, option: Any, lang: str) -> str:
        """An option as a player reads it."""
        ...

    def load_scenario(self, text: str, source: str) -> S:
        """The initial state of a scenario file's text; errors name *source*, the field and the value."""
        ...

    def sides(self, state: S) -> tuple[str, ...]:
        """The players, in the scenario's order."""
        ...

    def ai(self, side: str) -> Any:
        """The ruleset's simple AI policy (a Decider) for *side*."""
        ...

    def narrate(self, event: Event, lang: str) -> str:
        """One event as a line of the battle report."""
        ...

    def show(self, state: S, lang: str) -> str:
        """The board state as text, for a person at the terminal."""
        ...


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """One transition of a played game: the choice made and the events it produced."""

    node: Node
    choice: Any
    events: tuple[Event, ...]
    state: S


def option_index(decision: Decision, option: Any) -> int:
    """The index of *option* among the decision's legal options (for replays)."""
    return decision.options.index(option)


def legal(decision: Decision, index: int) -> Any:
    """The option at *index*, or ``IndexError`` when there is none."""
    if not 0 <= index < len(decision.options):
        raise IndexError(index)
    return decision.options[index]


def is_over(nodes: Sequence[Node]) -> bool:
    return bool(nodes) and isinstance(nodes[-1], Terminal)
