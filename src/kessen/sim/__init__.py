"""Simulation: whole battles between AI sides, many at a time, with win rates and confidence intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kessen.sim.battles import BattleStats


def simulate(scenario: str, *, runs: int, seed: int, ruleset: str | None = None, workers: int | None = None) -> BattleStats:
    """*runs* AI-vs-AI battles of a scenario file on local cores, with independent child streams of *seed*."""
    from kessen.sim.battles import simulate_file

    return simulate_file(scenario, runs=runs, seed=seed, ruleset=ruleset, workers=workers)
