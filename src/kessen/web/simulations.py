"""Simulations asked for through the page: many AI battles of a scenario, played in the background one simulation
after another (``kessen.sim``'s seeded chunks, on a small process pool or on the runner's own thread), with their
progress, their finished chunks and their result kept in the store.

A simulation ends done, stopped (its time ran out: :data:`SIMULATION_SECONDS`), cancelled (``DELETE``) or failed.
Its result is always that of its first chunks that all finished, in chunk order: exactly the numbers of a simulation
of that many battles with the same seed (the chunks' seeds depend on their index only), never a set of battles that
depends on which worker was quicker. A simulation the server was stopped in the middle of goes on, when the server
starts again, from the chunks it had finished (kept in the store as ``kessen sweep`` keeps its chunks): its result is
the one an uninterrupted run gives.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from kessen.core.errors import InputError, KessenError, error_line
from kessen.core.records import record
from kessen.rulesets import get_ruleset
from kessen.sim import simulate
from kessen.sim.chunks import Chunk, chunk_plan
from kessen.sim.executors import Executor, InlineExecutor
from kessen.sim.report import result_view
from kessen.sim.tally import Tally, total
from kessen.web.errors import NotFound
from kessen.web.store import Room, SimulationRecord, SimulationStatus, Store

J = TypeVar("J")
R = TypeVar("R")

MAX_RUNS = 10_000
"""[DECISION] Battles one simulation may ask for: 10,000 gives a win rate to within about ±1% (95%), and takes
minutes, not hours, for the largest shipped scenarios on one core."""

WAITING = 16
"""Simulations that may wait or run at once; the next is refused (429) until one ends."""

SIMULATION_ROOM = Room(limit=1_000, idle=7 * 24 * 3600.0)
"""The store keeps 1,000 simulations; a new one drops the oldest ended one first."""

SIMULATION_SECONDS = 600.0
"""[DECISION] The running time one simulation may take: ten minutes (the time it waits in the queue does not count,
the time before a server stop does). 10,000 battles of the largest shipped scenario take about as long on four
workers; a pasted 60-a-side scenario projected to six hours would hold the queue for all of them. When the time is
up the simulation ends as ``stopped`` with the battles of its first chunks that all finished."""

_log = logging.getLogger("kessen.web")


def default_workers() -> int:
    """[DECISION] The processes ``kessen serve`` plays simulations on: all cores but one (for the server itself),
    at least one and at most four."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class UnknownSimulation(NotFound):
    """A simulation id the store does not hold."""

    def __init__(self, simulation_id: str) -> None:
        super().__init__("simulation", simulation_id, "no such simulation")


class AlreadyEnded(InputError):
    """A simulation that has ended cannot be cancelled: 409."""

    status = 409

    def __init__(self, ended: SimulationRecord) -> None:
        super().__init__("simulation", ended.id, f"it has ended already ({ended.status}); there is nothing to cancel")


class Halted(Exception):
    """The simulation in play stops here: the server is stopping, it was cancelled, or its time is up."""


class _SharedPool:
    """The runner's process pool as a ``kessen.sim`` executor: started on first use and kept for every simulation
    after (``close`` at the end of a simulation keeps it; :meth:`stop` ends it). Workers are spawned, never forked
    from the server's threads. While it waits for a chunk it asks *halted* every fifth of a second, so that a
    stopping server, a cancel or the end of the time is not held up by a chunk in play."""

    def __init__(self, workers: int, halted: Callable[[], bool]) -> None:
        self.workers = workers
        self._halted = halted
        self._pool: Any = None

    def run(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(self.workers)
        results = self._pool.imap_unordered(fn, jobs, chunksize=1)
        while True:
            try:
                yield results.next(timeout=0.2)
            except multiprocessing.TimeoutError:
                if self._halted():
                    raise Halted from None
            except StopIteration:
                return

    def close(self) -> None:
        """A simulation is over; the pool waits for the next."""

    def stop(self) -> None:
        """End the workers (the chunks they were given go with them); the next simulation starts a new pool.

        The pool and its result iterators hold one another, so only a collection frees the pool's semaphores; done
        here, before the server's process exits, so that the resource tracker has no leaked semaphores to warn of."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
            gc.collect()


@record
class _Playing:
    """The simulation in play and the moment (``time.monotonic``) its time is up."""

    id: str
    deadline: float


class SimulationRunner:
    """Plays the store's simulations in the order they were asked for, on one background thread.

    *workers* processes play the battles (0: the runner's thread plays them itself, which tests use); each
    simulation may run *seconds* in all.
    """

    def __init__(self, store: Store, *, workers: int, seconds: float = SIMULATION_SECONDS) -> None:
        self.store = store
        self.seconds = seconds
        self._stopping = threading.Event()
        self._pool = _SharedPool(workers, self._halted) if workers > 0 else None
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._cancelled: set[str] = set()
        self._playing: _Playing | None = None

    def resume(self) -> None:
        """Queue again the simulations a stopped server left unfinished (they go on from their finished chunks)."""
        for simulation_id in self.store.unfinished_simulations():
            self.submit(simulation_id)

    def submit(self, simulation_id: str) -> None:
        """Play a stored simulation once those asked for before it have ended."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="kessen-simulations", daemon=True)
                self._thread.start()
        self._queue.put(simulation_id)

    def cancel(self, simulation_id: str) -> SimulationRecord:
        """End a waiting or running simulation as cancelled, with the result of its first chunks that finished; the
        workers playing it stop within a fifth of a second. Its record as it is now."""
        found = self.store.simulation(simulation_id)
        if found is None:
            raise UnknownSimulation(simulation_id)
        with self._lock:
            self._cancelled.add(simulation_id)
        ended = self._end(found, _tallies(self.store.chunks(simulation_id)), "cancelled")
        now = self.store.simulation(simulation_id)
        if now is None:
            raise UnknownSimulation(simulation_id)
        if not ended:
            raise AlreadyEnded(now)
        return now

    def stop(self) -> None:
        """Stop playing (the simulation in play stays unfinished in the store, its finished chunks kept) and end the
        worker processes."""
        self._stopping.set()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout=5)  # at most one chunk on this thread, or a fifth of a second on the pool
        if self._pool is not None:
            self._pool.stop()

    def _halted(self) -> bool:
        playing = self._playing
        if self._stopping.is_set():
            return True
        if playing is None:
            return False
        with self._lock:
            cancelled = playing.id in self._cancelled
        return cancelled or time.monotonic() >= playing.deadline

    def _work(self) -> None:
        while not self._stopping.is_set():
            simulation_id = self._queue.get()
            if simulation_id is None:
                return
            found = self.store.simulation(simulation_id)
            if found is not None and found.unfinished:
                self._run(found)
            with self._lock:
                self._cancelled.discard(simulation_id)
            if self._stopping.is_set():
                return

    def _run(self, found: SimulationRecord) -> None:
        kept: dict[int, Tally] = {}
        status: SimulationStatus = "done"
        error: str | None = None
        try:
            self._play(found, kept)
        except Halted:
            if self._stopping.is_set():
                return  # unfinished in the store: the next start goes on from its chunks
            status = "stopped"  # or cancelled, which ended it already
        except KessenError as refused:
            status, error = "failed", error_line(refused)
        except Exception as fault:  # a fault of the engine: said on the page and in the log, the runner goes on
            _log.exception("simulation %s failed", found.id)
            status, error = "failed", error_line(f"the simulation stopped: {type(fault).__name__}: {fault}")
        finally:
            self._playing = None
        if status != "done" and self._pool is not None:
            # its workers still hold the chunks after the ones that ended it; stopped here, out of the except block,
            # whose traceback would keep the pool alive
            self._pool.stop()
        self._end(found, kept, status, error=error)  # nothing when a cancel ended it already

    def _play(self, found: SimulationRecord, kept: dict[int, Tally]) -> None:
        """Play the chunks *found* has not finished into *kept* (which starts with those it has), recording each,
        through the public ``kessen.simulate``."""
        plan = chunk_plan(0, found.runs)
        kept.update(_tallies(self.store.chunks(found.id)))
        if not self.store.start_simulation(found.id):
            return
        started = time.monotonic()
        self._playing = _Playing(found.id, started + self.seconds - found.seconds)

        def finished(index: int, tally: Tally) -> None:
            kept[index] = tally
            seconds = found.seconds + time.monotonic() - started
            if not self.store.record_chunk(found.id, chunk=index, tally=tally.to_json(), done=_prefix(plan, kept)[0], seconds=seconds):
                raise Halted  # cancelled (or dropped) meanwhile
            if self._halted():
                raise Halted

        executor: Executor = self._pool if self._pool is not None else InlineExecutor()
        simulate(
            found.source, text=found.scenario, ruleset=found.ruleset, runs=found.runs, seed=found.seed,
            ai=dict(found.ai) or None, executor=executor, played=dict(kept), on_chunk=finished,
        )  # a scenario this kessen no longer reads, or an AI it no longer has, is refused before any chunk

    def _end(self, found: SimulationRecord, kept: Mapping[int, Tally], status: SimulationStatus, *, error: str | None = None) -> bool:
        """End *found* with the result of its first chunks that all finished (none: no result)."""
        battles, tally = _prefix(chunk_plan(0, found.runs), kept)
        result = {"sides": list(_sides(found)), "tally": tally.to_json()} if battles else None
        return self.store.end_simulation(found.id, status=status, done=battles, result=result, error=error)


def _tallies(chunks: Mapping[int, dict[str, Any]]) -> dict[int, Tally]:
    return {index: Tally.from_json(data) for index, data in chunks.items()}


def _prefix(plan: Iterable[Chunk], kept: Mapping[int, Tally]) -> tuple[int, Tally]:
    """The battles of the first chunks of *plan* that are all in *kept*, and their tally."""
    first: list[Tally] = []
    for chunk in plan:
        if chunk.index not in kept:
            break
        first.append(kept[chunk.index])
    tally = total(first)
    return tally.battles, tally


def _sides(found: SimulationRecord) -> tuple[str, ...]:
    """The simulation's sides as it was asked for (a store of an older kessen kept none: read from the scenario)."""
    if found.sides:
        return found.sides
    game = get_ruleset(found.ruleset).game
    return tuple(game.sides(game.load_scenario(found.scenario, found.source)))


def simulation_view(record: SimulationRecord, lang: str) -> dict[str, Any]:
    """A simulation as the page shows it: its request, progress and running time and, once ended with battles, each
    side's win rate with its 95% Wilson interval, the draws, and the distribution and mean of every summary number
    (casualties by side, rounds, ...), with the labels of the ruleset's catalogues."""
    view: dict[str, Any] = {
        "id": record.id, "ruleset": record.ruleset, "scenario": record.source, "runs": record.runs, "seed": record.seed,
        "done": record.done, "status": record.status, "error": record.error, "seconds": round(record.seconds, 1), "result": None,
        "ai": dict(record.ai),
    }
    if record.result is not None:
        view["result"] = result_view(record.ruleset, lang, list(record.result["sides"]), Tally.from_json(record.result["tally"]))
    return view
