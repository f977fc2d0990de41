"""Simulations asked for through the page: many AI battles of a scenario, played in the background one simulation
after another (``kessen.sim``'s seeded chunks, on a small process pool or on the runner's own thread), with their
progress and result kept in the store.

A simulation the server did not finish (it was stopped) is played again from its first battle when the server
starts: its battles are seeded, so the result is the one it would have had.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from kessen import i18n
from kessen.core.errors import KessenError
from kessen.rulesets import get_ruleset
from kessen.sim.battles import BattleStats, simulate, wilson
from kessen.sim.executors import Executor, InlineExecutor
from kessen.sim.tally import Tally, distribution, mean
from kessen.core.errors import error_line
from kessen.web.store import Room, SimulationRecord, Store

J = TypeVar("J")
R = TypeVar("R")

MAX_RUNS = 10_000
"""[DECISION] Battles one simulation may ask for: 10,000 gives a win rate to within about ±1% (95%), and takes
minutes, not hours, for the largest shipped scenarios on one core."""

WAITING = 16
"""Simulations that may wait or run at once; the next is refused (429) until one finishes."""

SIMULATION_ROOM = Room(limit=1_000, idle=7 * 24 * 3600.0)
"""The store keeps 1,000 simulations; a new one drops the oldest finished one first."""

_log = logging.getLogger("kessen.web")


def default_workers() -> int:
    """[DECISION] The processes ``kessen serve`` plays simulations on: all cores but one (for the server itself),
    at least one and at most four."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class Stopped(Exception):
    """The server is stopping: the simulation in play is left unfinished (it runs again at the next start)."""


class _SharedPool:
    """The runner's process pool as a ``kessen.sim`` executor: started on first use and kept for every simulation
    after (``close`` at the end of a simulation keeps it; :meth:`stop` ends it). Workers are spawned, never forked
    from the server's threads. While it waits for a chunk it looks at *stopping* every fifth of a second, so that a
    stopping server is not held up by a chunk in play."""

    def __init__(self, workers: int, stopping: threading.Event) -> None:
        self.workers = workers
        self._stopping = stopping
        self._pool: Any = None

    def run(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(self.workers)
        results = self._pool.imap_unordered(fn, jobs, chunksize=1)
        while True:
            try:
                yield results.next(timeout=0.2)
            except multiprocessing.TimeoutError:
                if self._stopping.is_set():
                    raise Stopped from None
            except StopIteration:
                return

    def close(self) -> None:
        """A simulation is over; the pool waits for the next."""

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class SimulationRunner:
    """Plays the store's simulations in the order they were asked for, on one background thread.

    *workers* processes play the battles (0: the runner's thread plays them itself, which tests use).
    """

    def __init__(self, store: Store, *, workers: int) -> None:
        self.store = store
        self._stopping = threading.Event()
        self._pool = _SharedPool(workers, self._stopping) if workers > 0 else None
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def resume(self) -> None:
        """Queue again the simulations a stopped server left unfinished."""
        for simulation_id in self.store.unfinished_simulations():
            self.store.restart_simulation(simulation_id)
            self.submit(simulation_id)

    def submit(self, simulation_id: str) -> None:
        """Play a stored simulation once those asked for before it are done."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="kessen-simulations", daemon=True)
                self._thread.start()
        self._queue.put(simulation_id)

    def stop(self) -> None:
        """Stop playing (the simulation in play stays unfinished in the store) and end the worker processes."""
        self._stopping.set()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout=5)  # at most one battle on this thread, or a fifth of a second on the pool
        if self._pool is not None:
            self._pool.stop()

    def _work(self) -> None:
        while not self._stopping.is_set():
            simulation_id = self._queue.get()
            if simulation_id is None:
                return
            record = self.store.simulation(simulation_id)
            if record is None or record.status not in ("queued", "running"):
                continue
            try:
                stats = self._play(record)
            except Stopped:
                return
            except KessenError as error:
                self.store.record_failure(simulation_id, error=error_line(error))
            except Exception as error:  # a fault of the engine: said on the page and in the log, the runner goes on
                _log.exception("simulation %s failed", simulation_id)
                self.store.record_failure(simulation_id, error=error_line(f"the simulation stopped: {type(error).__name__}: {error}"))
            else:
                self.store.record_progress(simulation_id, done=stats.runs, result={"sides": list(stats.sides), "tally": stats.tally.to_json()})

    def _play(self, record: SimulationRecord) -> BattleStats:
        done = 0

        def progress(battles: int) -> None:
            nonlocal done
            if self._stopping.is_set():
                raise Stopped
            done += battles
            self.store.record_progress(record.id, done=done)

        self.store.record_progress(record.id, done=0)
        executor: Executor = self._pool if self._pool is not None else InlineExecutor()
        return simulate(get_ruleset(record.ruleset), record.scenario, record.source, runs=record.runs, seed=record.seed, progress=progress, executor=executor)


def simulation_view(record: SimulationRecord, lang: str) -> dict[str, Any]:
    """A simulation as the page shows it: its request and progress and, once done, each side's win rate with its
    95% Wilson interval, the draws, and the distribution and mean of every summary number (casualties by side,
    rounds, ...), with the labels of the ruleset's catalogues."""
    view: dict[str, Any] = {
        "id": record.id, "ruleset": record.ruleset, "scenario": record.source, "runs": record.runs, "seed": record.seed,
        "done": record.done, "status": record.status, "error": record.error, "result": None,
    }
    if record.result is not None:
        view["result"] = result_view(record.ruleset, lang, list(record.result["sides"]), Tally.from_json(record.result["tally"]))
    return view


def result_view(ruleset: str, lang: str, sides: list[str], tally: Tally) -> dict[str, Any]:
    """What many battles came to, from their tally (the same numbers as a sweep's row)."""

    def rate(count: int) -> dict[str, float | int]:
        p, low, high = wilson(count, tally.battles)
        return {"count": count, "rate": p, "low": low, "high": high}

    return {
        "battles": tally.battles,
        "wins": [{"side": side, **rate(tally.wins[side])} for side in sides],
        "draws": rate(tally.draws),
        "per_side": {
            key: {side: {"mean": mean(counts), "counts": distribution(counts)} for side, counts in by_side.items()}
            for key, by_side in sorted(tally.per_side.items())
        },
        "numbers": {key: {"mean": mean(counts), "counts": distribution(counts)} for key, counts in sorted(tally.numbers.items())},
        "words": {key: distribution(counts) for key, counts in sorted(tally.words.items())},
        "labels": {key: i18n.summary_label(ruleset, lang, key) for key in [*tally.per_side, *tally.numbers, *tally.words]},
    }
