"""Environment steps and whole episodes per CPU second with random agents, per ruleset, on both engines, one core
(issue 25 §2), beside the public figures of OpenSpiel and botbowl.

Each run is a child process (``python -m benchmarks.envs SCENARIO POINTS SECONDS``) on ``KESSEN_ENGINE=pure`` or
``compiled``: the PettingZoo AEC environment (:func:`kessen.envs.aec_env`), every agent choosing uniformly among the
actions its observation's mask allows, the whole observation made at every step (``env.last()``), chance drawn
inside ``step``; a new battle whenever one ends. Rates are per CPU second of the child, warm (one episode first).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from rich.console import Console

from benchmarks.harness import table

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = {
    "song-of-blades": "examples/song-of-blades/warband-skirmish.toml",
    "battlehost": "examples/battlehost/line-fight.toml",
    "legions": "examples/legions/titan-at-bay.toml",
    "armies-clash": "examples/armies-clash/skirmish-ridge.toml",
}
GOAL = ("song-of-blades", 20_000.0)
"""Issue 25's goal: env steps per CPU second on song-of-blades, compiled."""

PUBLISHED = (
    "OpenSpiel (C++ build) random games/s: chess 941, backgammon 1,076, connect-four 19,596; "
    "botbowl: 72–408 search iterations/s"
)


def measure(scenario: str, points: bool, seconds: float) -> dict[str, float]:
    """Steps and episodes in at least *seconds* of CPU, random agents on the mask."""
    from kessen.envs import aec_env

    env = aec_env(ROOT / scenario, seed=1, points=points)
    rng = np.random.default_rng(1)

    def episode() -> int:
        env.reset()
        steps = 0
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]  # np.flatnonzero's array, at a fifth of its cost
            env.step(int(legal[rng.integers(len(legal))]))  # uniform, as rng.choice but a quarter of its cost
            steps += 1
        return steps

    episode()  # warm
    started, steps, episodes = time.process_time(), 0, 0
    while time.process_time() - started < seconds:
        steps += episode()
        episodes += 1
    cpu = time.process_time() - started
    return {"steps": steps / cpu, "episodes": episodes / cpu}


def child(engine: str, scenario: str, points: bool, seconds: float) -> dict[str, float]:
    env = {**os.environ, "KESSEN_ENGINE": engine, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-m", "benchmarks.envs", scenario, str(int(points)), str(seconds)],
                          cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def run(out: Console, *, rounds: int = 3, seconds: float = 2.0, rulesets: list[str] | None = None) -> None:
    """The table of every ruleset's scenario, with and without candidate points, on both engines."""
    from benchmarks.battles import compiled_engine

    missing = compiled_engine()
    engines = ("pure", "compiled") if missing is None else ("pure",)
    chosen = [r for r in SCENARIOS if not rulesets or r in rulesets]
    runs: dict[tuple[str, bool, str], list[dict[str, float]]] = defaultdict(list)
    for _ in range(rounds):
        for ruleset in chosen:
            for points in (False, True):
                for engine in engines:
                    runs[(ruleset, points, engine)].append(child(engine, SCENARIOS[ruleset], points, seconds))

    def best(key: tuple[str, bool, str], kind: str) -> str:
        found = [r[kind] for r in runs.get(key, [])]
        return f"{max(found):,.0f} ({statistics.median(found):,.0f})" if found else "-"

    rows = []
    for ruleset in chosen:
        for points in (False, True):
            rows.append([
                SCENARIOS[ruleset].removeprefix("examples/").removesuffix(".toml"), "options + points" if points else "options",
                best((ruleset, points, "pure"), "steps"), best((ruleset, points, "compiled"), "steps"),
                best((ruleset, points, "pure"), "episodes"), best((ruleset, points, "compiled"), "episodes"),
            ])
    out.print(table(
        f"Environment steps and episodes per CPU second, random agents on the mask, one core (best of {rounds}, "
        "median in brackets)",
        [("scenario", "left"), ("actions", "left"), ("pure steps/s", "right"), ("compiled steps/s", "right"),
         ("pure episodes/s", "right"), ("compiled episodes/s", "right")],
        rows,
        caption=f"PettingZoo AEC env, the whole observation every step, chance drawn in step; goal: ≥ {GOAL[1]:,.0f} "
        f"steps/s on {GOAL[0]} compiled (options only: "
        + best((GOAL[0], False, "compiled" if missing is None else "pure"), "steps")
        + f"). Published: {PUBLISHED}" + (f"; no compiled engine: {missing}" if missing else ""),
    ))


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], sys.argv[2] == "1", float(sys.argv[3]))))
