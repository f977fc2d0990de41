"""Limits: the worst valid inputs answered within a second and 500 MB, each measured in a fresh process.

Run as ``python -m benchmarks.limits RULESET PROCEDURE`` with the input JSON on stdin, this module is
the worker: it validates the input, times one cold ``compute``, computes it again under ``tracemalloc``
for the peak of Python allocations, and prints one JSON line with those and the process's peak RSS.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks.harness import LimitCase, Suite, cold, seconds, table, verdict
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset

MAX_SECONDS = 1.0
MAX_BYTES = 500 * 2**20
SWEEP_SEED = 7


def _answer(ruleset_id: str, procedure_name: str, data: Mapping[str, Any]) -> Callable[[], Any]:
    """A cold call of the procedure on the validated input (validation is not timed)."""
    procedure = get_ruleset(ruleset_id).procedure(procedure_name)
    value = validate_data(procedure.input_model, data)
    return cold(lambda: procedure.compute(value), "kessen.rulesets", "kessen.dice")


def measure(ruleset_id: str, procedure_name: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """One cold answer's seconds, its peak of traced allocations, and this process's peak RSS."""
    answer = _answer(ruleset_id, procedure_name, data)
    start = time.perf_counter()
    dist = answer()  # the first answer in this process: nothing cached, nothing warmed
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    answer()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux
    return {"seconds": elapsed, "traced_peak": peak, "max_rss": rss, "outcomes": len(dist)}


def _in_subprocess(case: LimitCase) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.limits", case.ruleset, case.procedure],
        input=json.dumps(case.input), capture_output=True, text=True, check=False,
        cwd=Path(__file__).resolve().parent.parent,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{case.ruleset} {case.procedure} ({case.name}) failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _cli_seconds(args: Sequence[str], stdin: str = "") -> float | None:
    """Wall time of the real CLI, process start included (None if the ``kessen`` script is not installed)."""
    kessen = Path(sys.executable).with_name("kessen")
    if not kessen.exists():
        return None
    start = time.perf_counter()
    done = subprocess.run([str(kessen), *args], input=stdin, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"kessen {' '.join(args)} failed:\n{done.stderr}")
    return elapsed


def _bytes(value: float) -> str:
    if value < 2**20:
        return f"{value / 2**10:,.1f} KB"
    return f"{value / 2**20:,.1f} MB"


def run(cases: Sequence[LimitCase], out: Console) -> None:
    """Print the limits table: each case in its own subprocess, plus the real CLI's wall time."""
    rows: list[list[str]] = []
    for case in cases:
        m = _in_subprocess(case)
        cli = _cli_seconds(["odds", case.ruleset, case.procedure, "--input", "-"], json.dumps(case.input))
        ok = m["seconds"] < MAX_SECONDS and m["max_rss"] < MAX_BYTES
        shown_cli = "-" if cli is None else seconds(cli) if cli < MAX_SECONDS else f"[red]{seconds(cli)}[/red]"
        rows.append(
            [case.ruleset, case.procedure, case.name, str(m["outcomes"]), seconds(m["seconds"]), _bytes(m["traced_peak"]),
             _bytes(m["max_rss"]), verdict(ok), shown_cli]
        )
    floors = []
    for ruleset_id in dict.fromkeys(case.ruleset for case in cases):
        floor = _cli_seconds(["odds", ruleset_id])
        if floor is not None:
            floors.append(f"`kessen odds {ruleset_id}` (start-up, no computation) {seconds(floor)}")
    out.print(
        table(
            "Limits: worst valid inputs, each in a fresh process",
            [("ruleset", "left"), ("procedure", "left"), ("input", "left"), ("outcomes", "right"),
             ("compute", "right"), ("traced peak", "right"), ("process RSS", "right"), ("<1 s, <500 MB", "center"),
             ("CLI wall", "right")],
            rows,
            caption="compute = the first call of the procedure in a fresh process (caches cleared); traced peak = "
            "tracemalloc peak of a second cold call; process RSS = the worker's peak resident memory, interpreter "
            "and imports included; the verdict is on compute and RSS. CLI wall = `kessen odds ... --input -` end to "
            "end, interpreter start-up included (red when ≥ 1 s); for comparison " + "; ".join(floors),
        )
    )


def run_sweep(suite: Suite, n: int, out: Console) -> list[str]:
    """Print the slowest cold answer among *n* random valid inputs per procedure (in this process).

    Where the suite has a reference for the procedure, every input is also checked against it;
    returns a description of each disagreement.
    """
    assert suite.sweep is not None
    worst: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    agreed: dict[str, int] = defaultdict(int)
    failures: list[str] = []
    for procedure_name, data in suite.sweep(SWEEP_SEED, n):
        procedure = get_ruleset(suite.ruleset).procedure(procedure_name)
        value = validate_data(procedure.input_model, data)
        answer = cold(lambda: procedure.compute(value), "kessen.rulesets", "kessen.dice")
        start = time.perf_counter()
        dist = answer()
        worst[procedure_name] = max(worst[procedure_name], time.perf_counter() - start)
        count[procedure_name] += 1
        reference = suite.references.get(procedure_name)
        if reference is not None and suite.check is not None:
            try:
                suite.check(dist, reference(value.model_dump(mode="json")))
                agreed[procedure_name] += 1
            except AssertionError as error:
                failures.append(f"{suite.ruleset} {procedure_name} {json.dumps(data)}: {error}")
    rows = [
        [suite.ruleset, name, f"{count[name]:,}", seconds(worst[name]), verdict(worst[name] < MAX_SECONDS),
         f"{agreed[name]:,} of {count[name]:,}" if name in suite.references else "-"]
        for name in worst
    ]
    out.print(
        table(
            f"Limits sweep: random valid inputs (seed {SWEEP_SEED})",
            [("ruleset", "left"), ("procedure", "left"), ("inputs", "right"), ("slowest compute", "right"),
             ("<1 s", "center"), ("reference agrees", "right")],
            rows,
        )
    )
    for failure in failures:
        out.print(f"[red]MISMATCH[/red] {failure}")
    return failures


def main(argv: Sequence[str]) -> int:
    """The worker: ``python -m benchmarks.limits RULESET PROCEDURE < input.json``."""
    ruleset_id, procedure_name = argv
    print(json.dumps(measure(ruleset_id, procedure_name, json.load(sys.stdin))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
