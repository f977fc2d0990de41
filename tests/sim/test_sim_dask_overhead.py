"""What keeps a Dask sweep's CPU per battle near one process's (issue 26): a quiet local cluster, workers that load the
engines as they start, and jobs sent as a few tasks a worker, each job's result still its own."""

from __future__ import annotations

import sys

import pytest

from kessen.sim.executors import QUIET_CLUSTER, TASKS_PER_WORKER, DaskExecutor

pytest.importorskip("distributed")


def _worker_state() -> tuple[bool, bool, list[str]]:
    import dask

    return (
        dask.config.get("distributed.worker.profile.enabled"),
        "kessen.rulesets.song_of_blades.referee.game" in sys.modules,
        sorted(name for name in sys.modules if name.startswith("kessen.rulesets.") and name.endswith(".referee.game")),
    )


def test_a_local_cluster_runs_quiet_workers_with_the_engines_loaded_and_batches_the_jobs() -> None:
    executor = DaskExecutor("local", 2)
    try:
        states = executor._client.run(_worker_state)
        assert len(states) == 2
        for profiled, loaded, engines in states.values():
            assert profiled is QUIET_CLUSTER["distributed.worker.profile.enabled"] is False
            assert loaded and len(engines) == 4  # every ruleset's engine, before the first chunk
        jobs = list(range(37))
        assert sorted(executor.run(abs, jobs)) == jobs  # one result a job, each once
        assert len(executor._futures) == 2 * TASKS_PER_WORKER  # 37 jobs in tasks of 5: eight tasks for two workers
    finally:
        executor.close()


def _worker_start() -> tuple[int, bool, bool]:
    import os

    return os.getppid(), "distributed" in sys.modules, "kessen.rulesets.song_of_blades.referee.game" in sys.modules


def test_issue_26_a_local_clusters_workers_fork_from_a_preloaded_fork_server() -> None:
    """Issue 26, Dask's start-up: a local cluster's workers are forked from a fork server (their parent is not this
    process, where the nannies run and would spawn them), which had imported distributed and the engines the sweep
    plays; the sweep's chunks play as before."""
    import os

    from kessen.sim.executors import WORKER_START, _fork_server

    assert _fork_server(("song-of-blades",)) == {"distributed.worker.multiprocessing-method": WORKER_START}
    executor = DaskExecutor("local", 2, ["song-of-blades", "song-of-blades"])
    try:
        starts = executor._client.run(_worker_start)
        assert len(starts) == 2
        for parent, dask_loaded, engine_loaded in starts.values():
            assert parent != os.getpid() and dask_loaded and engine_loaded
        assert len({parent for parent, _, _ in starts.values()}) == 1  # the one fork server
    finally:
        executor.close()
