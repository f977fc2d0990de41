"""Playing chunk jobs on an executor, handing each finished chunk's tally to the caller as it arrives."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from kessen.sim.chunks import ChunkJob, play_chunk
from kessen.sim.executors import Executor
from kessen.sim.tally import Tally


def play_all(jobs: Iterable[ChunkJob], executor: Executor, finished: Callable[[tuple[int, int], Tally], None]) -> None:
    """Play every job on *executor*; call ``finished(key, tally)`` in this process as each chunk ends.

    *jobs* may be a generator: a process pool takes the jobs as its workers free up, so the first battles start
    before the last chunk's seeds are drawn. The caller closes the executor (``contextlib.closing``), so that
    Ctrl-C at any moment stops every worker.
    """
    for key, data in executor.run(play_chunk, jobs):
        finished(key, Tally.from_json(data))
