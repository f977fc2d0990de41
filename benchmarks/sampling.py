"""Batched sampling: draws from cached distributions against numpy's raw dice throughput."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from rich.console import Console

from benchmarks.harness import SamplingCase, Settings, best_times, ratio, seconds, table, verdict
from kessen.dice import Dist, d, draw, draw_many, sampler, stream

DRAWS = 10**6
TARGET_SLOWDOWN = 3.0
"""The indices path should take at most this many times numpy's raw dice time."""
SEED = 20240601

GENERIC: tuple[SamplingCase, ...] = (SamplingCase("d6", d(6)), SamplingCase("2d6 sum", d(6) + d(6)))


def _rate(per_batch: float, n: int) -> str:
    return f"{n / per_batch / 1e6:,.1f} M/s"


def run(cases: Sequence[SamplingCase], settings: Settings, out: Console, n: int = DRAWS) -> None:
    """Print the sampling table for the generic distributions and *cases*, then the single-draw table."""
    run_batches(cases, settings, out, n)
    run_single(cases, settings, out)


def run_single(cases: Sequence[SamplingCase], settings: Settings, out: Console) -> None:
    """One draw at a time, as a battle draws (issue 13 §1): from a distribution whose sampler is cached, and from
    a distribution built anew (its sampler built for that one draw)."""
    rng = stream(SEED)
    labelled: list[tuple[str, str, Callable[[], object]]] = [
        ("(reference)", "numpy rng.integers(0, 6)", lambda: rng.integers(0, 6))
    ]
    for case in (*GENERIC, *cases):
        dist = case.dist
        weights = dict(dist.items())
        sampler(dist)
        name = f"{case.name} ({len(weights)} outcomes)"
        labelled += [
            (name, "draw(dist, rng), sampler cached", lambda dist=dist: draw(dist, rng)),
            (name, "draw(Dist(weights), rng), built anew", lambda weights=weights: draw(Dist(weights), rng)),
            (name, "Dist(weights) alone (the build)", lambda weights=weights: Dist(weights)),
        ]
    times = best_times([fn for _, _, fn in labelled], settings)
    rows = [[name, label, seconds(per_draw), ratio(per_draw / times[0])] for (name, label, _), per_draw in zip(labelled, times)]
    out.print(
        table(
            "Single draws: one outcome at a time",
            [("distribution", "left"), ("path", "left"), ("per draw", "right"), ("× numpy scalar", "right")],
            rows,
            caption="per draw = best of the runs; × numpy scalar = time / one scalar numpy integer (lower is better)",
        )
    )


def run_batches(cases: Sequence[SamplingCase], settings: Settings, out: Console, n: int = DRAWS) -> None:
    """Print the batched sampling table for the generic distributions and *cases*."""
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
