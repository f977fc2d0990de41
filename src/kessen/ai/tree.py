"""The game tree, public: a position of any ruleset's game, forked for nothing, asked where it stands, moved on by a
choice or an outcome (issue 23 §1). The search AI, the advisor and the environments all walk it.

    from kessen.ai.tree import Position
    here = match.position()                 # or Position.start(game, state) from a scenario's initial state
    here.node                               # Chance (exact outcomes), Decision (options) or Terminal
    for outcome, p in here.outcomes(): ...  # at a chance node: each outcome with its exact probability
    there = here.apply(here.options[0])     # a new Position; *here* is unchanged (states are frozen)
    there.scores()                          # at the end: each side's score, 1 a win, 1/2 a draw, 0 a loss

A position is a value: two positions of the same game with equal states are equal and hash alike, so a search may
keep them in a table. Forking one costs nothing (it is immutable), on the pure and the compiled engine alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from kessen.core.engine import Chance, Decision, Game, Node, Terminal
from kessen.core.events import Event

S = TypeVar("S")

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


def scores(terminal: Terminal, sides: tuple[str, ...]) -> dict[str, Fraction]:
    """Each side's score at the end of a battle: 1 for the winner, 0 for the others; 1/2 each in a draw."""
    if terminal.winner is None:
        return {side: DRAW for side in sides}
    return {side: WIN if side == terminal.winner else LOSS for side in sides}


@dataclass(frozen=True, slots=True)
class Position(Generic[S]):
    """A settled state of *game*: at a chance node, a decision node or the end."""

    game: Game[S]
    state: S

    @classmethod
    def start(cls, game: Game[S], state: S) -> Position[S]:
        """The position a scenario's initial state (``game.load_scenario``) settles to before anyone decides."""
        settled, _events = game.start(state)
        return cls(game, settled)

    @property
    def node(self) -> Node:
        """Where the game stands: a :class:`Chance`, a :class:`Decision` or a :class:`Terminal`."""
        return self.game.node(self.state)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.game.sides(self.state))

    @property
    def decision(self) -> Decision | None:
        node = self.node
        return node if isinstance(node, Decision) else None

    @property
    def terminal(self) -> Terminal | None:
        node = self.node
        return node if isinstance(node, Terminal) else None

    @property
    def options(self) -> tuple[Any, ...]:
        """The suggested options of the decision here (empty at a chance node or the end)."""
        node = self.node
        return node.options if isinstance(node, Decision) else ()

    def outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Each outcome of the chance here with its exact probability (empty at a decision or the end)."""
        node = self.node
        if not isinstance(node, Chance):
            return ()
        return tuple(node.dist.probabilities().items())

    def apply(self, choice: Any) -> Position[S]:
        """The position after *choice* (an option, a legal free choice, or a chance outcome)."""
        state, _events = self.game.apply(self.state, choice)
        return Position(self.game, state)

    def step(self, choice: Any) -> tuple[Position[S], tuple[Event, ...]]:
        """:meth:`apply`, with the events it caused."""
        state, events = self.game.apply(self.state, choice)
        return Position(self.game, state), events

    def parse(self, text: str) -> Any:
        """The choice a notation names at the decision here (IllegalChoice, naming the rule, if it is not legal)."""
        decision = self._decision()
        return self.game.parse(self.state, decision, text)

    def notation(self, choice: Any) -> str:
        """A choice at the decision here as its notation (``attack orc-2``)."""
        return self.game.notation(self.state, self._decision(), choice)

    def scores(self) -> dict[str, Fraction]:
        """Each side's score at the end (see :func:`scores`); a ValueError while the battle goes on."""
        terminal = self.terminal
        if terminal is None:
            raise ValueError("the battle is not over: there are no scores yet")
        return scores(terminal, self.sides)

    def _decision(self) -> Decision:
        decision = self.decision
        if decision is None:
            raise ValueError("no decision is pending here")
        return decision
