"""Playing a game to its end from a seed, with the deciders of its sides: what a simulated battle keeps.

The loop is :meth:`kessen.core.session.Session.run`, the one every driver runs (:class:`kessen.Match` steps the same
session); this module keeps only what a simulated battle needs of it: the events, the decisions taken as option
indices (a random-legal game replays from them) and the end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kessen.core.decisions import Decider
from kessen.core.engine import Decision, Game, Terminal
from kessen.core.errors import IllegalDecisionError
from kessen.core.events import Event
from kessen.core.records import picklable
from kessen.core.session import Session


@dataclass
class Played:
    """A game played to its end: its last state, events, the decisions taken (option indices) and its end."""

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
) -> Played:
    """Play the game from the initial *state* to its end (``game.start`` first, as :class:`kessen.Match` does): a
    :class:`Session` drawing at chance nodes from the game's seeded streams, each player's Decider deciding after the
    recorded *replay* indices are used up. A decider's choice must be one of the suggested options (a replay keeps
    indices), else IllegalDecisionError."""
    session: Session[Any] = Session(game, state, seed, keep=False)
    if on_events is not None and session.events:
        on_events(tuple(session.events))
    recorder = _Recorded(deciders, replay)
    end = session.run(dict.fromkeys((*game.sides(session.state), *deciders), recorder), on_events=on_events, max_steps=max_steps)
    assert isinstance(end, Terminal)
    return Played(session.state, session.events, recorder.decisions, end)


class _Recorded:
    """Every player's decider behind the replay: the recorded option indices first, then the player's decider (a
    KeyError for a player with none); each decision taken is kept as its option index."""

    def __init__(self, deciders: Mapping[str, Decider], replay: Iterable[int]) -> None:
        self.deciders = deciders
        self.pending = deque(replay)
        self.decisions: list[int] = []

    def decide(self, state: Any, decision: Decision) -> Any:
        if self.pending:
            index = self.pending.popleft()
            if not isinstance(index, int) or not 0 <= index < len(decision.options):
                raise IllegalDecisionError(index, decision.kind)
        else:
            choice = self.deciders[decision.player].decide(state, decision)
            if choice not in decision.options:
                raise IllegalDecisionError(choice, decision.kind)
            index = decision.options.index(choice)
        self.decisions.append(index)
        return decision.options[index]
