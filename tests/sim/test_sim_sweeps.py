"""Sweeps: identical tables on every executor and across an interrupted and resumed run; the store's reuse."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import kessen
from kessen.sim.battles import Interrupted, simulate_file
from kessen.sim.chunks import chunk_plan
from kessen.sim.executors import DaskExecutor, InlineExecutor, PoolExecutor
from kessen.sim.sweeps import export, run_sweep

DATA = Path(__file__).parent / "data"
SKIRMISH = DATA / "song-of-blades" / "skirmish.toml"


def sweep_file(tmp_path: Path, **changes: str) -> str:
    """The test sweep (2 × 2 cells of the skirmish, swapped too: 8 cells of 6 battles) copied into *tmp_path*."""
    folder = tmp_path / "song-of-blades"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SKIRMISH, folder / SKIRMISH.name)
    text = (DATA / "sweep.toml").read_text(encoding="utf-8")
    for old, new in changes.items():
        text = text.replace(old.replace("_", " "), new)
    path = tmp_path / "sweep.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The table of the test sweep played in this process, one chunk after another."""
    path = sweep_file(tmp_path_factory.mktemp("reference"))
    return run_sweep(path, executor=InlineExecutor()).rows()


def test_sweep_cells_are_the_product_of_the_vary_lists_and_the_deployments(reference: list[dict[str, Any]]) -> None:
    """Cells: every (combat, turns) pair, each also swapped, the last vary list changing fastest; 6 battles each."""
    settings = [(r["sides[0].models[0].combat"], r["turns"], r["swapped"]) for r in reference]
    assert settings == [(c, t, s) for c in (3, 5) for t in (2, 4) for s in (False, True)]
    assert all(r["battles"] == 6 and r["side_1"] == "Hero" and r["side_2"] == "Goblins" for r in reference)
    for r in reference:
        assert r["side_1_wins"] + r["side_2_wins"] + r["draws"] == 6
        assert r["side_1_win_low"] <= r["side_1_win_rate"] <= r["side_1_win_high"]
        assert sum(r["side_2_casualties_counts"].values()) == 6 and sum(r["rounds_counts"].values()) == 6
        assert max(int(k) for k in r["rounds_counts"]) <= r["turns"]


def test_sweep_identical_on_a_process_pool_of_one_and_two_workers(tmp_path: Path, reference: list[dict[str, Any]]) -> None:
    """The same table, to the last battle, on a pool of 1 or 2 processes as in this process."""
    for workers in (1, 2):
        path = sweep_file(tmp_path / str(workers))
        assert run_sweep(path, executor=PoolExecutor(workers)).rows() == reference


def test_sweep_identical_on_a_dask_local_cluster_of_two_workers(tmp_path: Path, reference: list[dict[str, Any]]) -> None:
    """A real Dask LocalCluster with two worker processes gives the same table as the process pool."""
    path = sweep_file(tmp_path)
    executor = DaskExecutor("local", 2)
    assert executor.workers == 2
    assert run_sweep(path, executor=executor).rows() == reference


def test_sweep_identical_on_a_dask_scheduler_given_by_its_address(tmp_path: Path, reference: list[dict[str, Any]]) -> None:
    """--scheduler tcp://HOST:PORT: a cluster that runs apart from kessen (here one on loopback) gives the same table."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1") as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        executor = DaskExecutor(cluster.scheduler_address, 1)
        assert executor.workers == 2  # the cluster's, whatever was asked
        assert run_sweep(sweep_file(tmp_path), executor=executor).rows() == reference


def test_sweep_interrupted_then_resumed_gives_the_same_table_and_reuses_the_finished_chunks(
    tmp_path: Path, reference: list[dict[str, Any]],
) -> None:
    """Ctrl-C after 5 chunks keeps those 5 in the store; the same sweep run again plays only the others."""
    path = sweep_file(tmp_path)
    seen: list[int] = []

    def interrupt_after_five(battles: int, cell: int) -> None:
        seen.append(battles)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stopped:
        run_sweep(path, executor=PoolExecutor(2), progress=interrupt_after_five)
    assert sum(t.battles for t in stopped.value.partial.tallies.values()) == sum(seen)
    resumed = run_sweep(path, workers=2)
    assert resumed.reused == 5 and resumed.computed == resumed.chunks - 5
    assert resumed.rows() == reference


def test_sweep_run_again_reuses_every_chunk_and_a_changed_file_is_a_new_sweep(tmp_path: Path) -> None:
    """The same file again: every chunk reused, none played; a changed file (more runs) starts afresh."""
    path = sweep_file(tmp_path)
    first = run_sweep(path, workers=1)
    again = run_sweep(path, workers=1)
    assert (first.reused, again.reused, again.computed) == (0, first.chunks, 0)
    assert again.rows() == first.rows()
    Path(path).write_text(Path(path).read_text().replace("runs = 6", "runs = 7"))
    changed = run_sweep(path, workers=1)
    assert changed.reused == 0 and all(row["battles"] == 7 for row in changed.rows())
    assert Path(path).with_suffix(".sqlite").is_file()  # the default store, beside the sweep file


def test_sweep_python_api_returns_the_table_as_rows(tmp_path: Path, reference: list[dict[str, Any]]) -> None:
    """kessen.sweep(path, workers=…) returns the same rows as the runner."""
    assert kessen.sweep(sweep_file(tmp_path), workers=2) == reference


def test_sweep_exports_one_row_per_cell_as_csv_and_parquet(tmp_path: Path, reference: list[dict[str, Any]]) -> None:
    """--export: CSV and Parquet hold one row per cell, the same columns, distributions as JSON."""
    export(reference, str(tmp_path / "table.csv"))
    with open(tmp_path / "table.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(reference) and list(rows[0]) == list(reference[0])
    assert json.loads(rows[3]["rounds_counts"]) == reference[3]["rounds_counts"]
    assert float(rows[2]["side_1_win_rate"]) == reference[2]["side_1_win_rate"]
    pq = pytest.importorskip("pyarrow.parquet")
    export(reference, str(tmp_path / "table.parquet"))
    table = pq.read_table(tmp_path / "table.parquet").to_pylist()
    assert len(table) == len(reference) and table[5]["side_2_wins"] == reference[5]["side_2_wins"]
    assert json.loads(table[5]["side_1_casualties_counts"]) == reference[5]["side_1_casualties_counts"]


def test_battle_runs_play_the_same_battles_as_a_one_cell_sweep(tmp_path: Path) -> None:
    """kessen battle --runs N --seed S uses the sweep's chunks and seeds: cell 0 of a sweep of that scenario alone."""
    folder = tmp_path / "song-of-blades"
    folder.mkdir()
    shutil.copy(SKIRMISH, folder / SKIRMISH.name)
    (tmp_path / "one.toml").write_text('scenario = "song-of-blades/skirmish.toml"\nruns = 13\nseed = 9\n')
    row = run_sweep(str(tmp_path / "one.toml"), workers=1).rows()[0]
    for workers in (1, 2):
        stats = simulate_file(str(folder / SKIRMISH.name), runs=13, seed=9, workers=workers)
        assert (stats.wins["Hero"], stats.wins["Goblins"], stats.draws) == (row["side_1_wins"], row["side_2_wins"], row["draws"])
        assert {str(k): v for k, v in sorted(stats.casualties["Goblins"].items())} == row["side_2_casualties_counts"]


def test_battle_runs_progress_moves_from_the_first_battle_whatever_the_runs() -> None:
    """The first chunks of a cell are 1, 1, 2, 2, ... battles, for 10 runs as for a million."""
    for runs in (10, 1_000_000):
        assert [c.size for c in chunk_plan(0, runs)[:4]] == [1, 1, 2, 2]
    heard: list[int] = []
    from kessen.io.scenarios import read_scenario
    from kessen.rulesets import get_ruleset
    from kessen.sim.battles import simulate

    simulate(get_ruleset("song-of-blades"), read_scenario(str(SKIRMISH)), str(SKIRMISH), runs=8, seed=1, workers=1, progress=heard.append)
    assert heard[:3] == [1, 1, 2] and sum(heard) == 8


@pytest.mark.parametrize("seed", [-1, 2**64, True])
def test_simulate_refuses_a_seed_outside_64_bits(seed: Any) -> None:
    """kessen.simulate(seed=-1) raises the project's InputError naming the seed."""
    with pytest.raises(kessen.InputError, match="seed"):
        kessen.simulate(str(SKIRMISH), runs=2, seed=seed)


def test_closing_a_pool_whose_terminate_hangs_returns_after_the_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``Pool.terminate`` stuck on its task queue (multiprocessing's own race) does not hang the sweep's exit."""
    import threading
    import time

    from kessen.sim import executors

    executor = PoolExecutor(1)
    real_terminate, release = executor._pool.terminate, threading.Event()
    monkeypatch.setattr(executor._pool, "terminate", lambda: release.wait(30))
    monkeypatch.setattr(executors, "CLOSE_WAIT", 0.5)
    started = time.monotonic()
    executor.close()
    assert time.monotonic() - started < 5
    release.set()
    real_terminate()
