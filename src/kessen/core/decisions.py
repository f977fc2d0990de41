"""The one Decider protocol, and the deciders every ruleset gets: scripted and random-legal."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from kessen.core.engine import Decision
from kessen.core.errors import IllegalDecisionError

if TYPE_CHECKING:
    from kessen.dice.sampling import Stream


class Decider(Protocol):
    """Chooses one legal option at a decision node."""

    def decide(self, state: Any, decision: Decision) -> Any: ...


class ScriptedDecider:
    """Plays a fixed list of option indices (for tests and replays); an index out of range is illegal."""

    def __init__(self, indices: Iterable[int]) -> None:
        self._indices: Iterator[int] = iter(indices)

    def decide(self, state: Any, decision: Decision) -> Any:
        try:
            index = next(self._indices)
        except StopIteration:
            raise IllegalDecisionError("end of script", decision.kind) from None
        if not 0 <= index < len(decision.options):
            raise IllegalDecisionError(index, decision.kind)
        return decision.options[index]


class FirstOptionDecider:
    """Always the first legal option: each ruleset lists its default policy's choice first."""

    def decide(self, state: Any, decision: Decision) -> Any:
        return decision.options[0]


class RandomDecider:
    """A uniformly random legal option, from its own seeded stream."""

    def __init__(self, rng: "Stream") -> None:
        self._rng = rng

    def decide(self, state: Any, decision: Decision) -> Any:
        return decision.options[int(self._rng.integers(len(decision.options)))]
