"""Playing chunk jobs on an executor, handing each finished chunk's tally to the caller as it arrives."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kessen.sim.chunks import ChunkJob, play_chunk
from kessen.sim.executors import Executor
from kessen.sim.tally import Tally


def play_all(jobs: Sequence[ChunkJob], executor: Executor, finished: Callable[[tuple[int, int], Tally], None]) -> None:
    """Play every job on *executor*; call ``finished(key, tally)`` in this process as each chunk ends.

    The executor is closed however this ends: done, an error, or Ctrl-C (``KeyboardInterrupt`` goes on up after
    every worker has stopped, and the chunks finished before it have all been handed over).
    """
    try:
        if jobs:
            for key, data in executor.run(play_chunk, jobs):
                finished(key, Tally.from_json(data))
    finally:
        executor.close()
