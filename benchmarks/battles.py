"""Whole battles per CPU second on both engines, every shipped scenario, beside the goals (issue 26); the engine's raw
step rate; and how a battle's cost grows with the models on the table.

Every shipped scenario (``examples/*/*.toml``: a new file is a new row) is played in child processes
(``benchmarks.child``), one per engine (``KESSEN_ENGINE=pure`` and ``compiled``) and round, the engines and scenarios
interleaved so that load from other processes falls on all alike. A child plays one battle to warm up, then the same
seeded battles, AI against AI, and then ``apply`` on random legal choices; the rates are per CPU second of the child,
so a busy machine slows them less than it slows a wall clock. Each figure is the best of the rounds (the run least
slowed by the machine's wander), its median beside it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from benchmarks.harness import table, verdict
from benchmarks.scaled import BUILDS, FACTORS, SCALED, scaled_text

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("pure", "compiled")

GOALS = {"song-of-blades/warband-skirmish": 500.0, "battlehost/line-fight": 100.0, "legions": 200.0, "armies-clash": 100.0}
"""Issue 26's goals in battles per CPU second, compiled, one core: by scenario, else by ruleset (every scenario of it)."""

SCALING_GOAL = 6.0
"""At 4× the models a battle may cost at most this many times what it costs at 1× (about n log n)."""


def goal_of(name: str) -> float | None:
    """The goal of the scenario ``<ruleset>/<stem>``, if it has one."""
    return GOALS.get(name, GOALS.get(name.split("/")[0]))


def shipped_scenarios() -> list[Path]:
    """Every shipped scenario file, by ruleset and name."""
    return sorted(ROOT.glob("examples/*/*.toml"))


@dataclass
class Runs:
    """The rounds of one scenario on one engine: battles per CPU second and steps per CPU second, round by round."""

    battles: list[float] = field(default_factory=list)
    steps: list[float] = field(default_factory=list)
    events: float = 0.0

    def best(self, kind: str) -> str:
        rates = getattr(self, kind)
        return f"{max(rates):,.0f} ({statistics.median(rates):,.0f})" if rates else "-"


def child(engine: str, scenario: Path, seeds: list[int], steps: int) -> dict[str, float]:
    """One timed child process on *engine* (see :mod:`benchmarks.child`)."""
    env = {**os.environ, "KESSEN_ENGINE": engine, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.child", str(scenario), json.dumps(seeds), str(steps)],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def compiled_engine() -> str | None:
    """Why the compiled engine cannot run (None when it can): ``KESSEN_ENGINE=compiled`` refuses to start without it."""
    done = subprocess.run([sys.executable, "-c", "import kessen"], env={**os.environ, "KESSEN_ENGINE": "compiled"},
                          capture_output=True, text=True)
    return None if done.returncode == 0 else done.stderr.strip().splitlines()[-1]


def measure(scenarios: Iterable[tuple[str, Path]], engines: tuple[str, ...], *, rounds: int, seeds: list[int],
            steps: int) -> dict[tuple[str, str], Runs]:
    """*rounds* interleaved runs of every scenario on every engine."""
    runs: dict[tuple[str, str], Runs] = defaultdict(Runs)
    listed = list(scenarios)
    for _ in range(rounds):
        for name, path in listed:
            for engine in engines:
                found = child(engine, path, seeds, steps)
                run = runs[(name, engine)]
                run.battles.append(found["battles"] / found["cpu"])
                if found["steps"]:
                    run.steps.append(found["steps"] / found["step_cpu"])
                run.events = found["events"] / found["battles"]
    return runs


def run(out: Console, *, rounds: int = 5, battles: int = 12, steps: int = 2000) -> None:
    """The battle-rate table of every shipped scenario on both engines, then the scaling table."""
    missing = compiled_engine()
    engines = ENGINES if missing is None else ("pure",)
    scenarios = [(f"{path.parent.name}/{path.stem}", path) for path in shipped_scenarios()]
    runs = measure(scenarios, engines, rounds=rounds, seeds=list(range(1, battles + 1)), steps=steps)
    judged = "compiled" if missing is None else "pure"
    rows = []
    for name, _ in scenarios:
        goal = goal_of(name)
        best = max(runs[(name, judged)].battles)
        rows.append([
            name, f"{runs[(name, 'pure')].events:,.0f}", runs[(name, "pure")].best("battles"),
            runs[(name, "compiled")].best("battles") if missing is None else "-",
            f"≥ {goal:g}" if goal else "", verdict(best >= goal) if goal else "",
            runs[(name, "pure")].best("steps"), runs[(name, "compiled")].best("steps") if missing is None else "-",
        ])
    out.print(table(
        f"Whole battles per CPU second, AI against AI, one core (seeds 1–{battles}, best of {rounds}, median in brackets)",
        [("scenario", "left"), ("events/battle", "right"), ("pure", "right"), ("compiled", "right"), ("goal", "right"),
         ("reached", "left"), ("pure steps/s", "right"), ("compiled steps/s", "right")],
        rows,
        caption=f"each run a child process on KESSEN_ENGINE=pure or compiled, interleaved; rate = battles / child CPU "
        f"seconds, warm (one battle first); goal = issue 26, judged on the {judged} engine's best; steps/s = apply on "
        f"random legal choices ({steps:,} steps, no AI): the engine's raw step rate"
        + (f"; no compiled engine: {missing}" if missing else ""),
    ))
    scaling(out, judged, rounds=rounds)


def scaling(out: Console, engine: str, *, rounds: int, battles: int = 6) -> None:
    """The cost per battle of each ruleset's :data:`~benchmarks.scaled.SCALED` scenario at 1×, 2× and 4× the models,
    in each of :data:`~benchmarks.scaled.BUILDS` (the goal judged on the first: the same density)."""
    with tempfile.TemporaryDirectory() as folder:
        scenarios = []
        for ruleset, stem in SCALED.items():
            for factor in FACTORS:
                for build in BUILDS if factor == 4 else BUILDS[:1]:  # the builds differ only at 4×
                    path = Path(folder) / f"{stem}-{factor}x-{build}.toml"
                    path.write_text(scaled_text(ROOT / "examples" / ruleset / f"{stem}.toml", factor, build), encoding="utf-8")
                    scenarios.append((f"{ruleset}/{stem}@{factor}/{build}", path))
        runs = measure(scenarios, (engine,), rounds=rounds, seeds=list(range(1, battles + 1)), steps=0)
    rows = []
    for ruleset, stem in SCALED.items():
        for build in BUILDS:
            base = 1 / max(runs[(f"{ruleset}/{stem}@1/{BUILDS[0]}", engine)].battles)
            judged = build == BUILDS[0]
            for factor in FACTORS if judged else (4,):
                cost = 1 / max(runs[(f"{ruleset}/{stem}@{factor}/{build if factor == 4 else BUILDS[0]}", engine)].battles)
                ratio = cost / base
                goal = factor == 4 and judged
                rows.append([
                    f"{ruleset}/{stem}", build, f"×{factor}", f"{cost * 1e3:,.1f} ms", f"×{ratio:.1f}",
                    f"≤ ×{SCALING_GOAL:g}" if goal else "", verdict(ratio <= SCALING_GOAL) if goal else "",
                ])
    out.print(table(
        f"Cost per battle as the models grow ({engine} engine, seeds 1–{battles}, best of {rounds})",
        [("scenario", "left"), ("build", "left"), ("models", "right"), ("CPU per battle", "right"),
         ("× the 1× cost", "right"), ("goal", "right"), ("reached", "left")],
        rows,
        caption="benchmarks/scaled.py: tiles = whole copies of the table side by side and two by two (the same "
        "density: judged); ranks = side by side on a table twice as wide and for 4× a second rank behind each side "
        "(twice the density); goal = issue 26: 4× the models at most 6× the cost",
    ))
