"""Work cut into chunks of battles of one cell, each with its own seeds, and the worker that plays a chunk.

A chunk's seeds come from ``numpy.random.SeedSequence(seed, spawn_key=(cell, chunk))``: they depend on the
sweep's seed, the cell and the chunk index only, never on which process plays the chunk or when. So a sweep
gives the same battles, to the last one, on one process, on N workers or on Dask, and however it was
interrupted and resumed. Each battle's seed is a plain integer: ``kessen battle SCENARIO --seed N`` replays it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from kessen.ai.levels import deciders, parse_ai
from kessen.core.engine import Terminal
from kessen.core.records import record
from kessen.rulesets import get_ruleset
from kessen.sim.play import initial_state, play_from
from kessen.sim.tally import Tally

FIRST_CHUNKS = (1, 1, 2, 2, 4, 4, 8, 8)
"""[DECISION] The first chunks of a cell are small (1, 1, 2, 2, 4, ... battles) so that progress shows from the
first battles on, whatever the number of runs; then every chunk has :data:`CHUNK_BATTLES` battles."""

CHUNK_BATTLES = 16
"""Battles per chunk after the first ones: a whole battle takes 40–600 ms, so a chunk is a few seconds at most
and the cost of sending it to a worker and keeping its result is well under 1%."""


@record
class Chunk:
    """Battles ``first`` to ``first + size - 1`` of cell ``cell`` (chunk number ``index`` of that cell)."""

    cell: int
    index: int
    first: int
    size: int


def chunk_plan(cell: int, runs: int) -> tuple[Chunk, ...]:
    """The chunks of a cell of *runs* battles, in order; they depend on *runs* only.

    >>> [c.size for c in chunk_plan(0, 40)]
    [1, 1, 2, 2, 4, 4, 8, 8, 10]
    """
    chunks: list[Chunk] = []
    first = 0
    while first < runs:
        index = len(chunks)
        wanted = FIRST_CHUNKS[index] if index < len(FIRST_CHUNKS) else CHUNK_BATTLES
        size = min(wanted, runs - first)
        chunks.append(Chunk(cell, index, first, size))
        first += size
    return tuple(chunks)


def battle_seeds(seed: int, chunk: Chunk) -> tuple[int, ...]:
    """The seeds of a chunk's battles, from ``SeedSequence(seed, spawn_key=(cell, chunk index))``.

    >>> battle_seeds(7, Chunk(0, 0, 0, 1)) == battle_seeds(7, Chunk(0, 0, 0, 1))
    True
    """
    sequence = np.random.SeedSequence(seed, spawn_key=(chunk.cell, chunk.index))
    return tuple(int(s) for s in sequence.generate_state(chunk.size, dtype=np.uint64))


@record
class ChunkJob:
    """What a worker needs to play one chunk: the cell's scenario (its ruleset, text and name) and the seeds."""

    key: tuple[int, int]
    ruleset: str
    scenario: str
    source: str
    seeds: tuple[int, ...]
    ai: tuple[tuple[str, str], ...] = ()
    """Side → AI level (``kessen.ai.levels``), validated before any worker starts; a side not named plays greedy."""


def play_chunk(job: ChunkJob) -> tuple[tuple[int, int], dict[str, Any]]:
    """Play a chunk's battles, AI against AI, and return its key with the tally as JSON data (a worker's task)."""
    tally = Tally()
    for terminal in _terminals(job):
        tally.add(terminal)
    return job.key, tally.to_json()


def _terminals(job: ChunkJob) -> Iterator[Terminal]:
    game = get_ruleset(job.ruleset).game
    state = initial_state(game, job.scenario, job.source)
    levels = parse_ai(dict(job.ai), tuple(game.sides(state)))
    for seed in job.seeds:
        played = play_from(game, state, seed, deciders=deciders(levels, game, tuple(game.sides(state)), seed))
        assert played.terminal is not None
        yield played.terminal
