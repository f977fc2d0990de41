"""The C prototype of battlehost's legal-move geometry beside the referee's Python (issue 26): the cost of the function
on the pure and the compiled engine and in C, and the battle rate the compiled engine would reach with it.

The calls are those of real battles (``native.recorded``: every ``charge_point`` and every other ``_breach`` of
line-fight at 1× and 4× the models, seeds 1–6 after a warm battle, as the battle table plays them), answered again in
a child process per engine (``python -m benchmarks.native_moves FILE``): by the referee's function, by the C function
(which reads the models' places off the Python objects at each call), and by the C kernel alone (the call read
beforehand, as a native core that kept the models in arrays would find it). The battle rate is measured in the same
rounds (``benchmarks.child``); the projection takes the compiled function's time out of a battle and puts C's in.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks.battles import ROOT, child, compiled_engine, goal_of
from benchmarks.harness import table
from benchmarks.scaled import scaled_text

SEEDS = list(range(1, 7))


def timed(path: Path, rounds: int = 5) -> dict[str, float]:
    """CPU seconds per battle in the recorded calls of *path*, on this process's engine: the referee's functions, C,
    and C's kernel alone (each the best of *rounds*)."""
    sys.path.insert(0, str(ROOT / "native"))
    from native.build import built

    built()
    import _bhmoves  # type: ignore[import-not-found]

    from kessen.bootstrap import ENGINE
    from kessen.core.geometry import Point
    from kessen.rulesets.battlehost.referee import moves
    from native.recorded import Calls, replay_seconds

    _bhmoves.configure(Point, moves._CHARGE_TURNS)
    with path.open("rb") as file:
        calls = Calls(*pickle.load(file))
    python = replay_seconds(calls, moves.charge_point, moves._breach, keywords=True, rounds=rounds)
    native = replay_seconds(calls, _bhmoves.charge_point, _bhmoves.breach, keywords=False, rounds=rounds)
    read = [_bhmoves.read_call(*args) for args, _ in calls.charge + calls.breach]
    kernel = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for call in read:
            _bhmoves.answer(call)
        kernel = min(kernel, time.process_time() - started)
    battles = calls.battles
    return {"engine": ENGINE, "calls": (len(calls.charge) + len(calls.breach)) / battles, "python": python / battles,
            "c": native / battles, "kernel": kernel / battles}


def _timed_in(engine: str, path: Path) -> dict[str, Any]:
    env = {**os.environ, "KESSEN_ENGINE": engine, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-m", "benchmarks.native_moves", str(path)], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def run(out: Console, *, rounds: int = 5) -> None:
    """The table: the function's cost per battle on each engine and in C, and the projected battle rates."""
    missing = compiled_engine()
    if missing is not None:
        out.print(f"C prototype of battlehost's legal moves: not measured ({missing})")
        return
    try:
        from native.build import built

        built()
    except Exception as error:  # noqa: BLE001 - no C compiler, no setuptools: the table says why it is missing
        out.print(f"C prototype of battlehost's legal moves: not built ({error})")
        return
    from native.recorded import recorded

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for factor in (1, 4):
            scenario = Path(folder) / f"line-fight-{factor}x.toml"
            scenario.write_text(scaled_text(ROOT / "examples" / "battlehost" / "line-fight.toml", factor, "ranks"), encoding="utf-8")
            calls = Path(folder) / f"calls-{factor}.pickle"
            recorded(scenario, SEEDS, calls)
            best: dict[str, dict[str, float]] = {}
            battle = float("inf")
            for _ in range(rounds):
                for engine in ("pure", "compiled"):
                    found = _timed_in(engine, calls)
                    kept = best.setdefault(engine, found)
                    for key in ("python", "c", "kernel"):
                        kept[key] = min(kept[key], found[key])
                played = child("compiled", scenario, SEEDS, 0)
                battle = min(battle, played["cpu"] / played["battles"])
            compiled = best["compiled"]
            goal = goal_of("battlehost/line-fight") if factor == 1 else None
            rows.append([
                f"line-fight ×{factor}", f"{compiled['calls']:,.0f}", f"{best['pure']['python'] * 1e3:.2f} ms",
                f"{compiled['python'] * 1e3:.2f} ms", f"{compiled['c'] * 1e3:.2f} ms", f"{compiled['kernel'] * 1e3:.2f} ms",
                f"{compiled['python'] / battle:.0%}", f"{1 / battle:,.1f}",
                f"{1 / (battle - compiled['python'] + compiled['c']):,.1f}",
                f"{1 / (battle - compiled['python'] + compiled['kernel']):,.1f}", f"≥ {goal:g}" if goal else "",
            ])
    out.print(table(
        f"C prototype of the hottest path: battlehost's legal-move geometry (charge_point and _breach), CPU per battle "
        f"(seeds {SEEDS[0]}–{SEEDS[-1]}, best of {rounds})",
        [("scenario", "left"), ("calls/battle", "right"), ("pure", "right"), ("compiled", "right"),
         ("C", "right"), ("C kernel", "right"), ("share", "right"), ("battles/s", "right"),
         ("with C", "right"), ("with kernel", "right"), ("goal", "right")],
        rows,
        caption="the calls recorded from the battles (native/recorded.py) answered again by the referee's functions "
        "(pure, compiled), by C reading the models off the Python objects (native/bhmoves.c), and by the C kernel on "
        "calls read beforehand (a native core keeping the models in arrays); share = the compiled function's part of "
        "a compiled battle; battles/s = compiled, and projected with the function in C or its kernel alone",
    ))


if __name__ == "__main__":
    print(json.dumps(timed(Path(sys.argv[1]))))
