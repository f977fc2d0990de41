"""Batched sampling: draws from cached distributions against numpy's raw dice throughput."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from rich.console import Console

from benchmarks.harness import SamplingCase, Settings, best_times, ratio, seconds, table, verdict
from kessen.dice import d, draw_many, sampler, stream

DRAWS = 10**6
TARGET_SLOWDOWN = 3.0
"""The indices path should take at most this many times numpy's raw dice time."""
SEED = 20240601

GENERIC: tuple[SamplingCase, ...] = (SamplingCase("d6", d(6)), SamplingCase("2d6 sum", d(6) + d(6)))


def _rate(per_batch: float, n: int) -> str:
    return f"{n / per_batch / 1e6:,.1f} M/s"


def run(cases: Sequence[SamplingCase], settings: Settings, out: Console, n: int = DRAWS) -> None:
    """Print the sampling table for the generic distributions and *cases*."""
    rng = stream(SEED)
    labelled: list[tuple[str, str, Callable[[], object], bool]] = [
        ("(reference)", "numpy rng.integers(1, 7, size=n)", lambda: rng.integers(1, 7, size=n), False)
    ]
    for case in (*GENERIC, *cases):
        dist = case.dist
        outcomes = len(sampler(dist).outcomes)  # the sampler is built and cached here, as a simulation would
        probabilities = np.array([float(p) for p in dist.probabilities().values()])
        name = f"{case.name} ({outcomes} outcomes)"
        labelled += [
            (name, "kessen sampler(dist).indices(rng, n)", lambda dist=dist: sampler(dist).indices(rng, n), True),
            (name, "kessen draw_many(dist, rng, n): outcome objects", lambda dist=dist: draw_many(dist, rng, n), False),
            (name, "numpy rng.choice(k, size=n, p=floats) (inexact)",
             lambda k=outcomes, p=probabilities: rng.choice(k, size=n, p=p), False),
        ]
    times = best_times([fn for _, _, fn, _ in labelled], settings)
    raw = times[0]
    rows: list[list[str]] = []
    for (name, label, _, targeted), per_batch in zip(labelled, times):
        slowdown = per_batch / raw
        rows.append(
            [name, label, seconds(per_batch), _rate(per_batch, n), ratio(slowdown),
             verdict(slowdown <= TARGET_SLOWDOWN) if targeted else ""]
        )
    out.print(
        table(
            f"Batched sampling: n = {n:,} draws per batch from cached distributions",
            [("distribution", "left"), ("path", "left"), ("per batch", "right"), ("draws/s", "right"),
             ("× numpy raw", "right"), (f"≤{TARGET_SLOWDOWN:g}×", "center")],
            rows,
            caption="× numpy raw = batch time / the time of numpy's raw d6 batch (lower is better); the target "
            "applies to the indices path; draw_many adds the cost of materialising Python outcome objects",
        )
    )
