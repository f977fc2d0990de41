"""Playing a game to its end from a seed, with the deciders of its sides: the loop simulation runs.

A game a person plays goes through :class:`kessen.Match` (on :class:`kessen.core.session.Session`), and its save
files are :mod:`kessen.core.saves`; this loop keeps only what a simulated battle needs: the events, the decisions
taken as option indices (a random-legal game replays from them) and the end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kessen.core.decisions import Decider
from kessen.core.engine import Chance, Decision, Game, Terminal, shown
from kessen.core.errors import IllegalDecisionError
from kessen.core.events import Event
from kessen.core.records import picklable
from kessen.dice.sampling import dice_stream, draw, stream


@dataclass
class Played:
    """A game as played so far: its state, events, the decisions taken (option indices) and its end."""

    state: Any
    events: list[Event] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    terminal: Terminal | None = None


picklable(Played)  # a native class of the compiled engine: pickled and copied through its init fields (issue 22 §1)


def play(
    game: Game[Any],
    state: Any,
    deciders: Mapping[str, Decider],
    seed: int,
    *,
    replay: Iterable[int] = (),
    on_events: Callable[[tuple[Event, ...]], None] | None = None,
    max_steps: int = 1_000_000,
    record: Played | None = None,
) -> Played:
    """Run the game loop from the initial *state* (``game.start`` first, as :class:`kessen.Match` does): draw at
    chance nodes with the game's one seeded stream (the dice they show from its dice stream), ask the player's
    Decider at decision nodes (first consuming the recorded *replay* indices), apply, repeat."""
    rng, dice_rng = stream(seed), dice_stream(seed)
    pending = deque(replay)
    played = record if record is not None else Played(state)
    played.state, opening = game.start(state)
    played.events.extend(opening)
    if on_events is not None and opening:
        on_events(opening)
    for _ in range(max_steps):
        node = game.node(played.state)
        if isinstance(node, Terminal):
            played.terminal = node
            return played
        if isinstance(node, Chance):
            choice = shown(node, draw(node.dist, rng), dice_rng)
        else:
            assert isinstance(node, Decision)
            if pending:
                index = pending.popleft()
                if not isinstance(index, int) or not 0 <= index < len(node.options):
                    raise IllegalDecisionError(index, node.kind)
                choice = node.options[index]
            else:
                choice = deciders[node.player].decide(played.state, node)
                if choice not in node.options:
                    raise IllegalDecisionError(choice, node.kind)
                index = node.options.index(choice)
            played.decisions.append(index)
        played.state, events = game.apply(played.state, choice)
        played.events.extend(events)
        if on_events is not None and events:
            on_events(events)
    raise RuntimeError(f"the game did not end within {max_steps} steps")
