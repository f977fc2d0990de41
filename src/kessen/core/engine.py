"""The state machine every ruleset plays on: chance, decision and terminal nodes, and the Game protocol."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from kessen.core.events import Event
from kessen.core.records import picklable, record
from kessen.dice import Dist
from kessen.dice.faces import Draw

if TYPE_CHECKING:
    from kessen.core.board import Board

S = TypeVar("S")
K = TypeVar("K", bound=str)


@dataclass(frozen=True, slots=True)
class Chance:
    """The next step is a procedure's outcome, drawn from its exact distribution; *kind* names the roll.

    *dice*, where the outcome shows dice, draws for a drawn outcome the faces that make it, each from its exact
    conditional distribution (the procedure's faces given its result, :mod:`kessen.dice.faces`); the drivers draw
    them from the game's dice stream (:func:`kessen.dice.sampling.dice_stream`) and hand the outcome on with them
    (:func:`shown`): the result is drawn from *dist* exactly as without faces, so showing the dice changes no draw
    of the battle. It is a module-level function or a ``functools.partial`` of one, so that a node pickles.
    """

    dist: Dist[Any]
    kind: str
    dice: Callable[[Any, Draw], Any] | None = None


def dice_field(default: Any = ()) -> Any:
    """The field of an outcome record that holds the dice that made it: never compared or hashed (the outcome with
    its dice is the outcome the distribution holds), left out of the odds' outcome objects and of saves (a replay
    draws the faces again from the same dice stream)."""
    return dataclasses.field(default=default, compare=False, metadata={"dice": True})


def is_dice_field(f: dataclasses.Field[Any]) -> bool:
    """Whether *f* is an outcome's :func:`dice_field`."""
    return bool(f.metadata.get("dice"))


def shown(node: Chance, outcome: Any, rng: Any) -> Any:
    """*outcome*, drawn at *node*, with the faces that made it drawn from *rng* (the dice stream) when the node
    shows dice; the outcome itself when it does not."""
    if node.dice is None:
        return outcome
    from kessen.dice.sampling import draw

    return dataclasses.replace(outcome, dice=node.dice(outcome, lambda dist: draw(dist, rng)))


@dataclass(frozen=True, slots=True)
class Decision:
    """A player must choose.

    *kind* is one of the ruleset's documented decision kinds (``"move"`` for every free move); *options* are the
    suggested choices (never empty; the default policy's first), which AIs and menus use. A *free* decision also
    accepts any other choice the rules allow, which the ruleset's ``parse`` checks; *actor* names who acts (a model,
    a unit, a Detachment), or is empty when the player as a whole decides.
    """

    player: str
    kind: str
    options: tuple[Hashable, ...]
    free: bool = False
    actor: str = ""

    def __post_init__(self) -> None:
        assert self.options, f"a decision ({self.kind}) needs at least one suggested option"


class Asker(Generic[K]):
    """``ask(player, kind, options, actor=..., free=...)``: a :class:`Decision` of one of a ruleset's documented
    kinds; a ruleset's ``referee/steps.py`` makes ``ask: Asker[DecisionKind] = Asker()``, so that mypy checks every
    *kind* its steps ask against its ``DecisionKind`` literal."""

    def __call__(
        self, player: str, kind: K, options: Sequence[Hashable], *, actor: str = "", free: bool = False
    ) -> Decision:
        return Decision(player, kind, tuple(options), free=free, actor=actor)


picklable(Chance, Decision)  # pickled and copied through their init fields (issue 22 §1)


@record
class Terminal:
    """The battle is over: the winner (None for a draw) and the summary numbers (see docs/architecture.md)."""

    winner: str | None
    summary: dict[str, Any]


Node = Chance | Decision | Terminal


class Game(Protocol[S]):
    """What a ruleset gives the drivers: where a state stands, the pure transition, and the words and data around it.

    Every driver (the terminal, the web page, simulation, scripts) plays through this protocol and
    :class:`kessen.Match`; none re-implements a rule or a turn sequence.
    """

    @property
    def ruleset(self) -> str:
        """The ruleset's id."""
        ...

    def __hash__(self) -> int:
        """A game keys the caches of the scenarios read in it (``kessen.sim.play.initial_state``)."""
        ...

    def start(self, state: S) -> tuple[S, tuple[Event, ...]]:
        """The initial state run up to its first chance or decision, with the events on the way."""
        ...

    def node(self, state: S) -> Node:
        """The kind of node *state* is at, with its distribution or suggested options."""
        ...

    def apply(self, state: S, choice: Any) -> tuple[S, tuple[Event, ...]]:
        """The state after *choice* (an outcome at a chance node, a legal choice at a decision node); pure."""
        ...

    def notation(self, state: S, decision: Decision, choice: Any) -> str:
        """A choice as its short stable text (``attack orc-2``, ``move k1 to 312,440``)."""
        ...

    def parse(self, state: S, decision: Decision, text: str) -> Any:
        """The choice *text* names at *decision*: a suggested option, or for a free decision any other the rules
        allow; else :class:`~kessen.core.errors.IllegalChoice` with the rule ID and the reason."""
        ...

    def odds(self, state: S, decision: Decision, choice: Any) -> Mapping[str, Fraction] | None:
        """The exact numbers shown beside a choice (keys from the ruleset catalogue's ``[odds]`` table), or None."""
        ...

    def describe(self, state: S, option: Any, lang: str) -> str:
        """An option as a player reads it."""
        ...

    def prompt(self, state: S, decision: Decision, lang: str) -> str:
        """The question a decision asks, naming who acts."""
        ...

    def load_scenario(self, text: str, source: str) -> S:
        """The initial state of a scenario file's text; errors name *source*, the field and the value."""
        ...

    def sides(self, state: S) -> tuple[str, ...]:
        """The players, in the scenario's order."""
        ...

    def ai(self, side: str) -> Any:
        """The ruleset's AI policy (a Decider) for *side*: it chooses among the suggested options."""
        ...

    def narrate(self, event: Event, lang: str) -> str:
        """One event as a line of the battle report."""
        ...

    def show(self, state: S, lang: str) -> str:
        """The board state as text, for a person at the terminal."""
        ...

    def board(self, state: S) -> Board:
        """The battlefield as plain data: what a picture of the board needs."""
        ...
