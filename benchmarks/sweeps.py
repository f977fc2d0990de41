"""Sweep throughput: the same sweep in this process, on a process pool and on a Dask LocalCluster; the CPU each spends
per battle beside one process's (issue 26: a pool at most 10% more, Dask at most 25% more).

CPU is counted for every process of the run (this one, the pool's or the cluster's workers and nannies), from the
moment the executor is ready to the moment the sweep is played, so it is a cost per battle that a busy machine does not
change: wall-clock rates on a shared machine say more about the other processes. Starting the executor (forking the
pool; starting the cluster's workers, which import kessen) is shown apart.

Every process that plays is warm before the timing, alike on every executor: it has played :data:`WARM_UP` battles a
cell on other seeds (this process before it plays or forks the pool; each Dask worker through ``Client.run``, which runs
once on every worker). A fresh Dask worker otherwise fills its caches (the dice distributions a battle asks for, each
scenario's first parse) in the timed battles, while this process and the pool forked from it have them already: with
battles of a few milliseconds that cold start was most of Dask's "overhead" (issue 26).

Each row names the engine its battles ran on. A Dask worker is a new Python process, which chooses its engine as it
starts (``kessen.bootstrap``): when an engine source changed after this process started (a checkout or a merge during
``make bench``), this process and the pool forked from it play compiled while the workers fall back to pure Python,
2–2.5× the CPU per battle. That is how Dask once measured +161% over one process; such a row is not judged.
"""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console

from benchmarks.harness import seconds, table, verdict
from kessen.bootstrap import ENGINE
from kessen.sim.chunks import Chunk, ChunkJob, battle_seeds, play_chunk
from kessen.sim.executors import DaskExecutor, Executor, InlineExecutor, PoolExecutor
from kessen.sim.sweepfile import load_sweep
from kessen.sim.sweeps import run_sweep

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCENARIO = EXAMPLES / "song-of-blades" / "hero-against-mob.toml"
GOALS = {"process pool": 0.10, "Dask LocalCluster": 0.25}
"""Issue 26: the CPU per battle an executor may spend over one process's."""

WARM_UP = 16
"""Battles a cell every playing process plays before the timing, on seeds the timed sweep does not play."""

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _sweep_file(folder: Path, runs: int) -> str:
    path = folder / "bench.toml"
    path.write_text(
        f'scenario = "{SCENARIO}"\nruns = {runs}\nseed = 1\n[[vary]]\nfield = "sides[0].models[0].combat"\nvalues = [4, 5]\n',
        encoding="utf-8",
    )
    return str(path)


def warm_jobs(path: str) -> list[ChunkJob]:
    """One chunk of :data:`WARM_UP` battles for each cell of the sweep at *path*, on the seeds of another sweep seed."""
    sweep = load_sweep(path, None)
    chunk_seeds = (battle_seeds(sweep.spec.seed + 1, Chunk(cell.index, 0, 0, WARM_UP)) for cell in sweep.cells)
    return [
        ChunkJob((cell.index, -1), cell.ruleset, cell.text, cell.scenario, seeds, cell.ai)
        for cell, seeds in zip(sweep.cells, chunk_seeds, strict=True)
    ]


def warm_up(jobs: list[ChunkJob]) -> str:
    """Play the warm-up chunks here (in this process, or in a Dask worker through ``Client.run``); the engine that
    played them (a Dask worker imports this module itself: its own choice)."""
    for job in jobs:
        play_chunk(job)
    return ENGINE


def tree_cpu() -> float:
    """CPU seconds of this process, of its children that ended, and of every live descendant (read from ``/proc``,
    their own ended children included)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        ticks[pid] = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    me = os.getpid()
    for pid in ticks:
        ancestor = parents.get(pid)
        while ancestor not in (None, 0, 1, me):
            ancestor = parents.get(ancestor)
        if ancestor == me and pid != me:
            total += ticks[pid] / _TICK
    return total


Measured = tuple[float, float, float, float, int, frozenset[str]]


def measure(name: str, workers: int, path: str, db: str) -> Measured:
    """(start-up wall seconds, start-up CPU, playing wall seconds, playing CPU, battles, the engines the battles ran
    on) of one fresh run of the sweep (a new store: nothing reused); start-up includes warming every process that
    plays (:func:`warm_up`)."""
    cpu, started = tree_cpu(), time.perf_counter()
    jobs = warm_jobs(path)
    executor: Executor
    if name == "Dask LocalCluster":
        executor = DaskExecutor("local", workers, {job.ruleset for job in jobs})  # as run_sweep makes it
        engines = frozenset(executor._client.run(warm_up, jobs).values())  # once on every worker, before the timing
    else:
        engines = frozenset({warm_up(jobs)})  # this process, and the pool's workers forked from it
        executor = InlineExecutor() if name == "this process" else PoolExecutor(workers)
    ready, ready_cpu = time.perf_counter(), tree_cpu()
    closed = executor.close
    finished: list[float] = []

    def close() -> None:  # the sweep closes its executor: the CPU is read just before, while every worker still runs
        finished.extend((time.perf_counter(), tree_cpu()))
        closed()

    executor.close = close  # type: ignore[method-assign]
    run = run_sweep(path, executor=executor, db=db)
    battles = sum(t.battles for t in run.tallies.values())
    return ready - started, ready_cpu - cpu, finished[0] - ready, finished[1] - ready_cpu, battles, engines


def run(out: Console, *, runs: int = 200, rounds: int = 3) -> None:
    """Play a 2-cell sweep of *runs* battles a cell on each executor, *rounds* times interleaved; print the CPU per
    battle of each (the median round) beside one process's."""
    load_before = os.getloadavg()[0]
    cases: list[tuple[str, int]] = [("this process", 1), ("process pool", 1), ("process pool", 2)]
    try:
        import distributed  # noqa: F401

        cases.append(("Dask LocalCluster", 2))
    except ImportError:
        out.print("Dask is not installed (pip install 'kessen[dask]'): its row is left out")
    found: dict[tuple[str, int], list[Measured]] = {case: [] for case in cases}
    with tempfile.TemporaryDirectory() as folder:
        path = _sweep_file(Path(folder), runs)
        for r in range(rounds):
            for n, (name, workers) in enumerate(cases):
                found[(name, workers)].append(measure(name, workers, path, str(Path(folder) / f"run-{r}-{n}.sqlite")))
    per_battle = {case: statistics.median(m[3] / m[4] for m in runs_) for case, runs_ in found.items()}
    base = per_battle[("this process", 1)]
    rows = []
    for (name, workers), measured in found.items():
        startup, startup_cpu, playing, battles = (
            statistics.median(column) for column in zip(*((m[0], m[1], m[2], m[4]) for m in measured), strict=True)
        )
        engines = frozenset[str]().union(*(m[5] for m in measured))
        over = per_battle[(name, workers)] / base - 1
        goal = GOALS.get(name)
        reached = verdict(over <= goal) if goal else ""
        if goal and engines != {ENGINE}:
            reached = f"[red]not judged: not all on the {ENGINE} engine[/red]"
        rows.append([
            name, str(workers), " + ".join(sorted(engines)), f"{battles:,.0f}",
            f"{seconds(startup)} ({seconds(startup_cpu)} CPU)", seconds(playing), f"{battles / playing:,.1f}",
            f"{per_battle[(name, workers)] * 1e3:,.2f} ms", f"{over:+.0%}" if name != "this process" else "",
            f"≤ +{goal:.0%}" if goal else "", reached,
        ])
    out.print(table(
        f"Sweeps: 2 cells × {runs} battles of {SCENARIO.name}, a fresh results store each run, median of {rounds} rounds",
        [("executor", "left"), ("workers", "right"), ("engine", "left"), ("battles", "right"), ("start-up", "right"), ("playing", "right"),
         ("battles/s", "right"), ("CPU per battle", "right"), ("over one process", "right"), ("goal", "right"),
         ("reached", "left")],
        rows,
        caption=f"start-up includes {WARM_UP} warm-up battles a cell in every playing process; CPU per battle = CPU "
        f"seconds of every process of the run while playing (this one, the workers, Dask's nannies and scheduler) / battles; goal = issue 26; {os.cpu_count()} cores, load average {load_before:.2f} "
        f"before, {os.getloadavg()[0]:.2f} after (battles/s is wall clock: other processes share the cores)",
    ))
