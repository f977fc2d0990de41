"""Whole battles per second: every shipped scenario of every ruleset that plays battles, AI against AI."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from benchmarks.harness import seconds, table
from kessen.rulesets import get_ruleset
from kessen.sim.play import play_battle

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(ruleset_ids: Sequence[str], out: Console, *, seconds_each: float = 2.0) -> None:
    """For each scenario, play seeded battles one after another for about *seconds_each* and print the rate."""
    rows: list[list[str]] = []
    for ruleset_id in ruleset_ids:
        ruleset = get_ruleset(ruleset_id)
        if not ruleset.plays_battles:
            continue
        for path in sorted((EXAMPLES / ruleset_id).glob("*.toml")):
            text = path.read_text(encoding="utf-8")
            played, events, started = 0, 0, time.perf_counter()
            while played < 3 or time.perf_counter() - started < seconds_each:
                events += len(play_battle(ruleset, text, str(path), seed=played).events)
                played += 1
            elapsed = time.perf_counter() - started
            rows.append([ruleset_id, path.name, str(played), seconds(elapsed / played), f"{played / elapsed:,.1f}", f"{events / played:,.0f}"])
    out.print(
        table(
            "Whole battles, AI against AI, one core (seeds 0, 1, 2, ...)",
            [("ruleset", "left"), ("scenario", "left"), ("battles", "right"), ("per battle", "right"),
             ("battles/s", "right"), ("events/battle", "right")],
            rows,
            caption="a process pool (kessen battle --runs N) multiplies the rate by the number of cores",
        )
    )
