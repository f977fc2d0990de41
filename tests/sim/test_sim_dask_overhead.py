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
