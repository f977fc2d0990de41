"""`python -m benchmarks`: run every section and print its comparison table (`make bench`)."""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Sequence
from importlib.metadata import version

from benchmarks import ai, battles, envs, limits, native_moves, odds, sampling, startup, sweeps
from benchmarks.harness import Settings, Suite, console, load_suite, module_name
from kessen.bootstrap import CHOICE, describe
from kessen.rulesets import ruleset_ids

SECTIONS = ("odds", "startup", "sampling", "limits", "battles", "native", "sweeps", "env", "ai")


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--section", choices=SECTIONS, action="append", help="run only this section (repeatable)")
    parser.add_argument("--ruleset", action="append", help="run only this ruleset's cases (repeatable)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per measurement; the best counts (default 5)")
    parser.add_argument("--min-run", type=float, default=0.2, help="seconds one timed run lasts at least (default 0.2)")
    parser.add_argument("--sweep", type=int, default=300, help="random inputs per procedure in the limits sweep (default 300)")
    parser.add_argument("--ai-battles", type=int, default=30, help="battles a seat, search against greedy (default 30)")
    parser.add_argument("--ai-random", type=int, default=10, help="battles a seat, search against random (default 10)")
    parser.add_argument("--ai-greedy", type=int, default=200, help="battles a seat, greedy against greedy (default 200)")
    parser.add_argument("--ai-only", help="the ai section on the scenarios whose path contains this text only")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> int:
    """Run the chosen sections; exit 1 if a reference disagreed with kessen's exact odds."""
    args = _arguments(argv)
    out = console()
    sections = args.section or list(SECTIONS)
    settings = Settings(repeat=args.repeat, min_run=args.min_run)
    started = time.perf_counter()

    out.print(
        f"[bold]kessen benchmarks[/bold] — Python {platform.python_version()}, numpy {version('numpy')}, "
        f"icepool {version('icepool')}, kessen {version('kessen')} ({describe(CHOICE)}), {platform.machine()}, "
        f"{os.cpu_count()} cores; "
        f"best of {settings.repeat} runs of ≥{settings.min_run:g} s each"
    )
    suites: list[Suite] = []
    for ruleset_id in ruleset_ids():
        if args.ruleset and ruleset_id not in args.ruleset:
            continue
        found = load_suite(ruleset_id)
        if found is None:
            out.print(f"{ruleset_id}: no benchmark cases yet (add {module_name(ruleset_id).replace('.', '/')}.py)")
        else:
            suites.append(found)

    failures: list[str] = []
    if "odds" in sections:
        failures = odds.run([case for s in suites for case in s.odds], settings, out)
    if "startup" in sections:
        startup.run(out)
    if "sampling" in sections:
        sampling.run([case for s in suites for case in s.sampling], settings, out)
    if "limits" in sections:
        limits.run([case for s in suites for case in s.limits], out)
        for s in suites:
            if s.sweep is not None and args.sweep > 0:
                failures += limits.run_sweep(s, args.sweep, out)

    if "battles" in sections:
        battles.run(out, rounds=settings.repeat)
    if "native" in sections:
        native_moves.run(out, rounds=min(settings.repeat, 3))
    if "sweeps" in sections:
        sweeps.run(out)
    if "env" in sections:
        envs.run(out, rounds=min(settings.repeat, 3), rulesets=args.ruleset)
    if "ai" in sections:
        ai.run(out, battles=args.ai_battles, greedy_battles=args.ai_greedy, random_battles=args.ai_random, only=args.ai_only)

    out.print(f"done in {time.perf_counter() - started:,.0f} s")
    if failures:
        out.print(f"[red]references that disagree with kessen: {', '.join(failures)}[/red]")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
