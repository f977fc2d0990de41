"""The ``Executor`` seam: where chunks of battles are played (this process, a local process pool, or Dask).

Every executor takes the same jobs and yields each job's result as it finishes, in whatever order; the caller
keys results by job, so the order never changes a result. ``close`` stops at once: no worker process is left,
whether the work finished, failed or was interrupted (Ctrl-C).
"""

from __future__ import annotations

import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from kessen.core.errors import InputError

J = TypeVar("J")
R = TypeVar("R")


class Executor(Protocol):
    """Plays jobs somewhere and yields their results as they finish."""

    workers: int
    """How many jobs run at once."""

    def run(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        """``fn(job)`` for every job, yielded as each finishes (any order)."""
        ...

    def close(self) -> None:
        """Stop every worker now (unfinished jobs are dropped); closing twice does nothing more."""
        ...


class InlineExecutor:
    """Plays the jobs one after another in this process (``--workers 1``)."""

    workers = 1

    def run(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        return (fn(job) for job in jobs)

    def close(self) -> None:
        """Nothing runs outside this process."""


CLOSE_WAIT = 10.0
"""Seconds :meth:`PoolExecutor.close` waits for the pool to stop."""


def _worker_signals() -> None:
    """A pool worker's signals: Ctrl-C and a hangup reach every process of the terminal's group, and only the parent
    answers them (it stops the pool: SIGTERM to each worker, which ends it); a worker never outlives its parent,
    however the parent ends (issue 22 §2: the parent killed, its workers played on for up to 45 s)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):  # not on Windows
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the handler of the parent it was forked from
    _end_with_parent()


def _end_with_parent() -> None:
    """On Linux, SIGTERM to this process when its parent ends (``prctl(PR_SET_PDEATHSIG)``); elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM))  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the request took hold
        os.kill(os.getpid(), signal.SIGTERM)


class PoolExecutor:
    """A process pool on this machine's cores (the default): ``multiprocessing.Pool`` of *workers* processes.

    The pool is started when the executor is made, before any thread of the caller (a progress bar) runs.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        self._pool = multiprocessing.get_context(method).Pool(workers, initializer=_worker_signals)

    def run(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        return self._pool.imap_unordered(fn, jobs, chunksize=1)

    def close(self) -> None:
        """SIGTERM to every worker, then reaped. ``Pool.terminate`` can wait for good on its task-feeding thread when
        that thread is stuck on the task queue's lock (seen once, a sweep stopped by Ctrl-C while chunks were still
        being handed out): it runs in a helper thread, waited for at most :data:`CLOSE_WAIT` seconds. By then the
        workers have had their SIGTERM; the pool's own threads are daemons and end with the process."""
        stopper = threading.Thread(target=self._stop, name="kessen-pool-close", daemon=True)
        stopper.start()
        stopper.join(CLOSE_WAIT)

    def _stop(self) -> None:
        self._pool.terminate()
        self._pool.join()


QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask's settings for the local cluster (issue 26): its workers' statistical profiler samples the battle thread 100
times a second, and its event loops' watchdogs and monitors wake every 20–500 ms; together about 8% of a core for an
idle cluster of two, and a third of the CPU a sweep spends per battle on top of one process. Battles need neither."""

TASKS_PER_WORKER = 4
"""[DECISION] The jobs a Dask executor is given are sent as about this many tasks per worker, each a run of
consecutive jobs (issue 26): Dask costs some milliseconds of CPU per task in the scheduler and the worker, as much as
a short chunk of battles. Four a worker still shares the work out when some tasks take longer; the results still come
back job by job, as each task ends."""


def _run_each(fn: Callable[[J], R], jobs: list[J]) -> list[R]:
    return [fn(job) for job in jobs]


def _load_engines(rulesets: tuple[str, ...] | None = None) -> None:
    """What a Dask worker imports to play the chunks of *rulesets* (None: of every ruleset it knows), done as it
    starts (a pool's workers are forked with it): about a fifth of a CPU second a worker and ruleset, which its first
    chunk would otherwise pay; a local cluster's workers find it imported already (:func:`_fork_server`). A ruleset
    the worker does not know (a plug-in registered in the caller only) is left to its chunks, which name it."""
    import kessen.sim.chunks  # noqa: F401
    from kessen.core.errors import UnknownRulesetError
    from kessen.rulesets import get_ruleset, ruleset_ids

    for ruleset in ruleset_ids() if rulesets is None else rulesets:
        try:
            get_ruleset(ruleset).game
        except UnknownRulesetError:
            continue


WORKER_START = "forkserver"
"""[DECISION] How a local cluster starts its worker processes (issue 26): forked from one fork server that imported
distributed and the engines to play once (:func:`_fork_server`), not each spawned as a new interpreter that imports
them itself (Dask's default; about 0.55 CPU seconds a worker: distributed 0.3, kessen and one engine 0.25, and the
worker loaded every engine, 0.5).
Not forked from this process: it runs the cluster's threads, and holds what a worker must not inherit (the sweep's
open results store, the command's signal handlers). A fork server is a new, single-threaded interpreter like a
spawned worker, and its workers are fresh forks of it."""


def _fork_server(rulesets: tuple[str, ...] | None) -> dict[str, str]:
    """Dask's settings that start a local cluster's workers from a fork server preloaded with distributed and the
    engines of *rulesets* (None: every engine; :data:`WORKER_START`); none where this platform has no fork server
    (Windows: spawned as Dask does). The first local cluster of a process starts the server: a later one's workers
    fork from it as it is, and import what else they play."""
    if WORKER_START not in multiprocessing.get_all_start_methods():
        return {}
    import distributed.utils

    from kessen.rulesets import engine_modules

    utils: Any = distributed.utils  # typed loosely: distributed's own annotations are partial
    if not getattr(utils, "_forkserver_preload_set", False):  # once the server runs, its preloads are kept
        multiprocessing.get_context(WORKER_START).set_forkserver_preload(
            ["distributed", "kessen.sim.chunks", *engine_modules(rulesets)],
        )
        # Dask would set its own list over ours at its first worker, importing here each package it might name
        # (numpy, pandas, lz4: half a CPU second with pandas installed) to see which are installed; a private flag of
        # the pinned distributed: a version without it sets its own list again, slower but the same workers
        utils._forkserver_preload_set = True
    return {"distributed.worker.multiprocessing-method": WORKER_START}


class DaskExecutor:
    """Dask distributed: the scheduler at *address* (``tcp://HOST:8786``), or ``local``: a ``LocalCluster`` of
    *workers* single-threaded worker processes on this machine (:data:`QUIET_CLUSTER`), closed with the executor.
    Each worker loads the engines of *rulesets* (None: every ruleset) as it starts."""

    def __init__(self, address: str, workers: int, rulesets: Iterable[str] | None = None) -> None:
        try:
            import distributed
        except ImportError:
            raise InputError("--scheduler", address, "Dask is not installed: pip install 'kessen[dask]'") from None
        dask: Any = distributed  # typed loosely: distributed's own annotations are partial
        playing = None if rulesets is None else tuple(sorted(set(rulesets)))
        self._cluster: Any = None
        if address == "local":
            import dask as dask_config

            with dask_config.config.set({**QUIET_CLUSTER, **_fork_server(playing)}):  # read by the scheduler and handed to each worker at its start
                self._cluster = dask.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40,
                )
            self._client: Any = dask.Client(self._cluster)
        else:
            try:
                self._client = dask.Client(address, timeout=10)
            except (OSError, TimeoutError, ValueError) as error:
                raise InputError("--scheduler", address, f"cannot reach the Dask scheduler ({error})") from None
        self.workers = max(1, sum(w.get("nthreads", 1) for w in self._client.scheduler_info()["workers"].values()))
        self._futures: list[Any] = []
        self._client.run(_load_engines, playing)

    def run(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        import distributed

        dask: Any = distributed
        listed = list(jobs)
        size = max(1, -(-len(listed) // (TASKS_PER_WORKER * self.workers)))
        batches = [listed[i : i + size] for i in range(0, len(listed), size)]
        self._futures = self._client.map(functools.partial(_run_each, fn), batches, pure=False)
        return (result for future in dask.as_completed(self._futures) for result in future.result())

    def close(self) -> None:
        if self._futures:
            self._client.cancel(self._futures)
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(
    *, workers: int | None = None, scheduler: str | None = None, jobs: int | None = None, rulesets: Iterable[str] | None = None,
) -> Executor:
    """The executor for ``--workers N`` (default: all cores) or ``--scheduler local | tcp://…``; never more
    local processes than there are *jobs*; Dask's workers load the engines of *rulesets* (None: every one) as they
    start."""
    if workers is not None and workers < 1:
        raise InputError("--workers", workers, "must be ≥ 1")
    count = workers or os.cpu_count() or 1
    if jobs is not None:
        count = max(1, min(count, jobs))
    if scheduler is not None:
        return DaskExecutor(check_scheduler(scheduler), workers or os.cpu_count() or 1, rulesets)
    return InlineExecutor() if count == 1 else PoolExecutor(count)


def check_scheduler(scheduler: str) -> str:
    """``local`` or a Dask scheduler address (``tcp://HOST:8786``), else an InputError."""
    if scheduler != "local" and not scheduler.startswith(("tcp://", "tls://", "ucx://")):
        raise InputError("--scheduler", scheduler, "must be local or a scheduler address such as tcp://HOST:8786")
    return scheduler
