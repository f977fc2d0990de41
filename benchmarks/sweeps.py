"""Sweep throughput: the same sweep on 1 and 2 local worker processes and on a Dask LocalCluster, side by side."""

from __future__ import annotations

import os
import resource
import tempfile
import time
from pathlib import Path

from rich.console import Console

from benchmarks.harness import ratio, seconds, table, verdict
from kessen.sim.executors import DaskExecutor, Executor, InlineExecutor, PoolExecutor
from kessen.sim.sweeps import run_sweep

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCENARIO = EXAMPLES / "song-of-blades" / "hero-against-mob.toml"
SCALING_TARGET = 1.8
"""From 1 to 2 workers on an idle 2-core machine."""


def _sweep_file(folder: Path, runs: int) -> str:
    path = folder / "bench.toml"
    path.write_text(
        f'scenario = "{SCENARIO}"\nruns = {runs}\nseed = 1\n[[vary]]\nfield = "sides[0].models[0].combat"\nvalues = [4, 5]\n',
        encoding="utf-8",
    )
    return str(path)


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _measure(make: type[Executor] | None, workers: int, path: str, db: str) -> tuple[float, float, float, int]:
    """(start-up seconds, seconds playing, CPU seconds of the processes that played, battles) of one fresh run of
    the sweep (a new store: nothing reused). The CPU seconds of pool and cluster workers are counted when they have
    ended (``RUSAGE_CHILDREN``), so a loaded machine shows as CPU seconds well below workers × playing time."""
    who = resource.RUSAGE_SELF if make is None else resource.RUSAGE_CHILDREN
    cpu = _cpu(who)
    started = time.perf_counter()
    if make is None:
        executor: Executor = InlineExecutor()
    elif make is DaskExecutor:
        executor = DaskExecutor("local", workers)
    else:
        executor = PoolExecutor(workers)
    ready = time.perf_counter()
    run = run_sweep(path, executor=executor, db=db)
    playing = time.perf_counter() - ready
    return ready - started, playing, _cpu(who) - cpu, sum(t.battles for t in run.tallies.values())


def run(out: Console, *, runs: int = 200) -> None:
    """Play a 2-cell sweep of *runs* battles a cell on each executor and print battles per second and the scaling."""
    load_before = os.getloadavg()[0]
    rows: list[list[str]] = []
    rates: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = _sweep_file(Path(folder), runs)
        cases: list[tuple[str, type[Executor] | None, int]] = [
            ("this process", None, 1), ("process pool", PoolExecutor, 1), ("process pool", PoolExecutor, 2),
        ]
        try:
            import distributed  # noqa: F401

            cases.append(("Dask LocalCluster", DaskExecutor, 2))
        except ImportError:
            out.print("Dask is not installed (pip install 'kessen[dask]'): its row is left out")
        for n, (name, make, workers) in enumerate(cases):
            startup, playing, cpu, battles = _measure(make, workers, path, str(Path(folder) / f"run-{n}.sqlite"))
            rate = battles / playing
            rates[f"{name}/{workers}"] = rate
            rows.append([
                name, str(workers), str(battles), seconds(startup), seconds(playing), f"{rate:,.1f}", "",
                f"{battles / cpu:,.1f}" if cpu > 0 else "", f"{cpu / (playing * workers):.0%}",
            ])
    base = rates["process pool/1"]
    for row in rows:
        row[6] = ratio(rates[f"{row[0]}/{row[1]}"] / base)
    scaling = rates["process pool/2"] / base
    load_after = os.getloadavg()[0]
    out.print(
        table(
            f"Sweep throughput: 2 cells × {runs} battles of {SCENARIO.name}, a fresh results store each run",
            [("executor", "left"), ("workers", "right"), ("battles", "right"), ("start-up", "right"),
             ("playing", "right"), ("battles/s", "right"), ("× 1 worker", "right"), ("battles/CPU s", "right"),
             ("CPU got", "right")],
            rows,
            caption=(
                f"scaling from 1 to 2 workers: {ratio(scaling)} (target ≥ {SCALING_TARGET:g}× on an idle 2-core machine: "
                f"{verdict(scaling >= SCALING_TARGET)}); {os.cpu_count()} cores, load average {load_before:.2f} before, "
                f"{load_after:.2f} after (other processes share the cores: above ~0.5 the ratio says more about them)"
            ),
        )
    )
