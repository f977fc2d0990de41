"""One game played step by step from its seed: the loop every driver runs, its record, and snapshots for undo.

At a chance node the session draws from the node's exact distribution with the game's one seeded stream; at a
decision node it asks the player's Decider, or stops when that player has none (a person decides through
:meth:`Session.choose`). Every step taken is kept (the state it was taken at, its node, the choice), so a save can
write each decision in notation and each chance outcome as drawn.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from kessen.core.decisions import Decider
from kessen.core.engine import Chance, Decision, Game, Node, Terminal, is_dice_field, shown
from kessen.core.errors import IllegalChoice
from kessen.core.events import Event
from kessen.core.records import record
from kessen.dice import Dist, dice_stream, draw, stream

S = TypeVar("S")


@record
class Taken:
    """One step of a played game: the state it was taken at, its node, and the choice made or the outcome drawn."""

    state: Any
    node: Chance | Decision
    choice: Any


@record
class Snapshot:
    """Where a session stood: enough to go back there exactly (the same state object, the same stream)."""

    state: Any
    rng_state: dict[str, Any]
    dice_rng_state: dict[str, Any]
    events: int
    taken: int


class Session(Generic[S]):
    """A game in progress: its state, seeded stream, events and the steps taken so far."""

    def __init__(self, game: Game[S], state: S, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.rng = stream(seed)
        self.dice_rng = dice_stream(seed)
        self.state, opening = game.start(state)
        self.events: list[Event] = list(opening)
        self.taken: list[Taken] = []

    @property
    def node(self) -> Node:
        return self.game.node(self.state)

    def choose(self, choice: Any) -> tuple[Event, ...]:
        """Make *choice* at the pending decision: a suggested option, or for a free decision any the rules allow
        (checked through the ruleset's notation); an illegal one raises IllegalChoice and changes nothing."""
        node = self.node
        if not isinstance(node, Decision):
            raise IllegalChoice(None, "no decision is pending")
        return self._take(node, accepted(self.game, self.state, node, choice))

    def choose_notation(self, text: str) -> tuple[Event, ...]:
        """Make the choice *text* names at the pending decision (IllegalChoice, naming the rule, if it is not legal)."""
        node = self.node
        if not isinstance(node, Decision):
            raise IllegalChoice(None, "no decision is pending")
        return self._take(node, self.game.parse(self.state, node, text))

    def roll(self, outcome: Any = None) -> tuple[Event, ...]:
        """Draw the pending chance node's outcome from the stream, and the dice it shows from the dice stream; with
        *outcome*, draw (so the stream moves on as it did) but take the recorded outcome instead, its dice drawn as
        they were."""
        node = self.node
        assert isinstance(node, Chance), "no chance node is pending"
        drawn = draw(node.dist, self.rng)
        return self._take(node, shown(node, drawn if outcome is None else outcome, self.dice_rng))

    def run(
        self,
        deciders: Mapping[str, Decider],
        *,
        on_events: Callable[[tuple[Event, ...]], None] | None = None,
        max_steps: int = 1_000_000,
    ) -> Node:
        """Roll chance nodes and let the deciders play until a decision of a player who has none, or the end."""
        for _ in range(max_steps):
            node = self.node
            if isinstance(node, Terminal):
                return node
            if isinstance(node, Chance):
                events = self.roll()
            else:
                decider = deciders.get(node.player)
                if decider is None:
                    return node
                events = self._take(node, accepted(self.game, self.state, node, decider.decide(self.state, node)))
            if on_events is not None and events:
                on_events(events)
        raise RuntimeError(f"the game did not end within {max_steps} steps")

    def snapshot(self) -> Snapshot:
        return Snapshot(self.state, self.rng.bit_generator.state, self.dice_rng.bit_generator.state, len(self.events), len(self.taken))

    def restore(self, snap: Snapshot) -> None:
        """Go back to a snapshot of this session: the same state, stream position, events and record."""
        self.state = snap.state
        self.rng.bit_generator.state = snap.rng_state
        self.dice_rng.bit_generator.state = snap.dice_rng_state
        del self.events[snap.events :]
        del self.taken[snap.taken :]

    def _take(self, node: Chance | Decision, choice: Any) -> tuple[Event, ...]:
        before = self.state
        self.state, events = self.game.apply(before, choice)
        self.events.extend(events)
        self.taken.append(Taken(before, node, choice))
        return events


def accepted(game: Game[Any], state: Any, decision: Decision, choice: Any) -> Any:
    """*choice* if it is legal at *decision*: one of the suggested options, or, at a free decision, a choice whose
    notation the ruleset parses back to it; else IllegalChoice."""
    if choice in decision.options:
        return choice
    if decision.free:
        parsed = game.parse(state, decision, game.notation(state, decision, choice))
        if parsed == choice:
            return choice
    raise IllegalChoice(None, f"not a legal choice at this {decision.kind} decision (got {choice!r})")


# --- chance outcomes as a save records them ---------------------------------------------------------------


def encode_outcome(value: Any) -> Any:
    """A chance outcome as plain JSON: a dataclass or named tuple as an object of its fields (not the dice it shows,
    which a replay draws again), tuples as lists, sets as sorted lists, Fractions as ``"n/d"``; scalars as they are."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode_outcome(getattr(value, f.name)) for f in dataclasses.fields(value) if not is_dice_field(f)}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: encode_outcome(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple | list):
        return [encode_outcome(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted((encode_outcome(v) for v in value), key=_canonical)
    if isinstance(value, enum.Enum):
        return encode_outcome(value.value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"a chance outcome of type {type(value).__name__} has no JSON form")


def find_outcome(dist: Dist[Any], recorded: Any) -> Any:
    """The outcome of *dist* that encodes to *recorded*, or None when it has none (or more than one)."""
    wanted = _canonical(recorded)
    found = [o for o in dist.outcomes() if _canonical(encode_outcome(o)) == wanted]
    return found[0] if len(found) == 1 else None


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
