"""Exact odds: each question answered by kessen and by the reference, checked equal, then timed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from benchmarks.harness import OddsCase, Settings, best_times, ratio, seconds, table, verdict

TARGET_SPEEDUP = 5.0
"""kessen should answer at least this many times faster than the reference."""


def run(cases: Sequence[OddsCase], settings: Settings, out: Console) -> list[str]:
    """Print the odds table; return the names of the cases whose reference disagreed."""
    rows: list[list[str]] = []
    failures: list[str] = []
    for case in cases:
        try:
            case.check(case.kessen(), case.reference())  # exact agreement first: a wrong reference is caught
        except AssertionError as error:
            failures.append(case.name)
            out.print(f"[red]MISMATCH[/red] {case.ruleset} / {case.name}: {error}")
            rows.append([case.ruleset, case.name, "-", "-", "[red]MISMATCH[/red]", "-"])
            continue
        ours, theirs = best_times([case.kessen, case.reference], settings)
        speedup = theirs / ours
        rows.append(
            [case.ruleset, case.name, seconds(ours), f"{seconds(theirs)} ({case.reference_name})", ratio(speedup),
             verdict(speedup >= TARGET_SPEEDUP)]
        )
    out.print(
        table(
            "Exact odds: kessen against an expert's reference for the same question",
            [("ruleset", "left"), ("question", "left"), ("kessen", "right"), ("reference", "right"),
             ("speed-up", "right"), (f"≥{TARGET_SPEEDUP:g}×", "center")],
            rows,
            caption="time per answer, best of the runs, caches cleared before each call; "
            "speed-up = reference time / kessen time (higher is better); "
            "every row's probabilities were checked equal as exact fractions before timing",
        )
    )
    return failures
