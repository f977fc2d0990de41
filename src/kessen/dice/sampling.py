"""Seeded random streams and drawing from exact distributions (cached cumulative tables)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Hashable
from itertools import accumulate
from typing import Any, Generic, TypeVar

import numpy as np

from kessen.dice.dist import Dist

O = TypeVar("O", bound=Hashable)

Stream = np.random.Generator


def stream(seed: int | np.random.SeedSequence) -> Stream:
    """A seeded random stream; the same seed gives the same draws on every machine."""
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.random.Generator(np.random.PCG64(sequence))


def dice_stream(seed: int) -> Stream:
    """The stream a game draws the faces of its outcomes from, apart from its own stream (``stream(seed)``), so that
    showing the dice of an outcome changes no draw of the game."""
    return stream(np.random.SeedSequence(seed, spawn_key=(1,)))


def child_streams(seed: int, n: int) -> list[Stream]:
    """*n* independent streams for parallel work, spawned from one seed."""
    return [stream(child) for child in np.random.SeedSequence(seed).spawn(n)]


class Sampler(Generic[O]):
    """Draws outcomes of one distribution from its cumulative weights, built once.

    While the total weight fits in 63 bits the draw is exact (a uniform integer below the total, located in the
    cumulative integer weights); beyond that it uses float cumulative probabilities. A single draw stays in
    Python (one scalar numpy call and a bisection); a batch is one vectorised numpy call. Both take the same
    numbers from the stream in the same way, so a draw does not depend on which path made it.
    """

    __slots__ = ("outcomes", "_cumulative", "_array", "_total", "_exact", "_table")

    TABLE_LIMIT = 1 << 20  # up to this total weight, a batch uses a lookup table instead of the binary search
    TABLE_BATCH = 256  # the table is built on the first batch of at least this many draws

    def __init__(self, dist: Dist[O]) -> None:
        self.outcomes: tuple[O, ...] = dist.outcomes()
        weights = [w for _, w in dist.items()]
        self._total = dist.total
        self._exact = self._total < 2**63
        self._table: np.ndarray[Any, Any] | None = None
        self._array: np.ndarray[Any, Any] | None = None
        self._cumulative: list[int] | list[float]
        if self._exact:
            self._cumulative = list(accumulate(weights))  # the numpy array for batches is built on the first one
        else:
            self._array = np.cumsum(np.array([w / self._total for w in weights], dtype=np.float64))
            self._array[-1] = 1.0
            self._cumulative = self._array.tolist()

    def _cumulative_array(self) -> np.ndarray[Any, Any]:
        if self._array is None:
            self._array = np.array(self._cumulative, dtype=np.int64)
        return self._array

    def indices(self, rng: Stream, size: int) -> np.ndarray[Any, np.dtype[np.intp]]:
        """Indices into ``outcomes`` of *size* independent draws."""
        if self._exact:
            u = rng.integers(0, self._total, size=size, dtype=np.int64)
            if self._table is None and size >= self.TABLE_BATCH and self._total <= self.TABLE_LIMIT:
                self._table = self._lookup_table()
            if self._table is not None:
                return self._table[u]
            return np.searchsorted(self._cumulative_array(), u, side="right")
        return np.searchsorted(self._cumulative_array(), rng.random(size), side="right")

    def _lookup_table(self) -> np.ndarray[Any, Any]:
        """Index i repeated weight_i times: u in [cum_{i-1}, cum_i) maps to i, exactly as the search does."""
        counts = np.diff(self._cumulative_array(), prepend=0)
        dtype = np.min_scalar_type(max(len(self.outcomes) - 1, 0))
        return np.repeat(np.arange(len(self.outcomes), dtype=dtype), counts)

    def index(self, rng: Stream) -> int:
        """The index into ``outcomes`` of one draw: the number a batch of one would take from *rng*, taken as a
        scalar (the same value, the stream left in the same state), located by bisection as the batch's search
        locates it (``bisect_right`` is ``searchsorted(side="right")``)."""
        u = rng.integers(0, self._total, dtype=np.int64) if self._exact else rng.random()
        return bisect_right(self._cumulative, u)

    def draw(self, rng: Stream) -> O:
        """One outcome."""
        return self.outcomes[self.index(rng)]

    def draw_many(self, rng: Stream, size: int) -> list[O]:
        """*size* independent outcomes."""
        outcomes = self.outcomes
        return [outcomes[i] for i in self.indices(rng, size).tolist()]


def sampler(dist: Dist[O]) -> Sampler[O]:
    """The sampler of *dist*, built once and kept on that object.

    Kept per object, not per equal distribution: an equal distribution built in another order lists its
    outcomes in another order, and the draws of a seed must not depend on what was sampled before.
    """
    found: Sampler[O] | None = dist._sampler
    if found is None:
        found = dist._sampler = Sampler(dist)
    return found


def draw(dist: Dist[O], rng: Stream) -> O:
    """One outcome of *dist* drawn with *rng*."""
    return sampler(dist).draw(rng)


def draw_many(dist: Dist[O], rng: Stream, size: int) -> list[O]:
    """*size* independent outcomes of *dist*, as one vectorised draw."""
    return sampler(dist).draw_many(rng, size)
