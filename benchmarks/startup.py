"""Start-up of ``kessen odds …`` (issue 26: at most 0.25 s): the whole command, interpreter start included, on both
engines, one example question of each ruleset; CPU seconds of the finished child (``RUSAGE_CHILDREN``), the median of
the runs (one slow or one lucky run does not move it), the runs of the two engines interleaved. The commands keep
their bytecode as an installation does (``PYTHONDONTWRITEBYTECODE`` is unset for them: without it every module would
be compiled from its source at every start, a fifth of the time)."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console

from benchmarks.battles import ENGINES, compiled_engine
from benchmarks.harness import seconds, table, verdict

ROOT = Path(__file__).resolve().parent.parent
KESSEN = str(Path(sys.executable).with_name("kessen"))
GOAL = 0.25
"""Seconds of CPU for the whole ``kessen odds`` command."""

QUESTIONS = {
    "song-of-blades": ("melee", "examples/song-of-blades/melee.json"),
    "battlehost": ("fight", "examples/battlehost/fight.json"),
    "legions": ("fire", "examples/legions/fire.json"),
    "armies-clash": ("attack", "examples/armies-clash/attack.json"),
}


def timed(command: list[str], engine: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of *command* on *engine*."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "KESSEN_ENGINE": engine}
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def run(out: Console, *, runs: int = 9) -> None:
    engines = ENGINES if compiled_engine() is None else ("pure",)
    rows = []
    for ruleset, (procedure, example) in QUESTIONS.items():
        command = [KESSEN, "odds", ruleset, procedure, "--input", example]
        cpu: dict[str, list[float]] = {engine: [] for engine in engines}
        wall: dict[str, list[float]] = {engine: [] for engine in engines}
        for engine in engines:
            timed(command, engine)  # warm: the files in the page cache, the bytecode written
        for _ in range(runs):
            for engine in engines:
                c, w = timed(command, engine)
                cpu[engine].append(c)
                wall[engine].append(w)
        medians = {engine: statistics.median(cpu[engine]) for engine in engines}
        rows.append([
            f"kessen odds {ruleset} {procedure}",
            *(f"{seconds(medians[e])} ({seconds(statistics.median(wall[e]))})" if e in medians else "-" for e in ENGINES),
            f"≤ {seconds(GOAL)}", verdict(medians[engines[-1]] <= GOAL),
        ])
    out.print(table(
        f"Start-up: a whole `kessen odds` command, CPU seconds (wall in brackets), median of {runs}",
        [("command", "left"), ("pure", "right"), ("compiled", "right"), ("goal", "right"), ("reached", "left")],
        rows,
        caption="each run a fresh process (interpreter start, imports, the question's validation and answer, the JSON "
        f"printed); goal = issue 26, judged on the {engines[-1]} engine",
    ))
