"""Simulation: whole battles between AI sides, many at a time, and sweeps over scenarios and fields.

``battles`` (one battle; many of one scenario), ``chunks`` (work cut into seeded chunks), ``tally`` (counts that add
up in any order), ``executors`` (the process pool, Dask), ``runner``, ``sweepfile`` (sweep files and their cells),
``deployment`` (swapping the sides' deployment), ``store`` (SQLite), ``sweeps`` (running a sweep, its table),
``plots`` (matplotlib).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kessen.sim.battles import BattleStats


def simulate(
    scenario: str, *, runs: int, seed: int, ruleset: str | None = None, workers: int | None = None,
    scheduler: str | None = None,
) -> BattleStats:
    """*runs* AI-vs-AI battles of a scenario file on local cores (or Dask), with seeds drawn from *seed*."""
    from kessen.sim.battles import simulate_file

    return simulate_file(scenario, runs=runs, seed=seed, ruleset=ruleset, workers=workers, scheduler=scheduler)


def sweep(path: str, *, workers: int | None = None, scheduler: str | None = None, db: str | None = None) -> list[dict[str, Any]]:
    """Run a sweep file (results kept in SQLite, *db* or beside the file) and return its table, one row per cell."""
    from kessen.sim.sweeps import sweep as run

    return run(path, workers=workers, scheduler=scheduler, db=db)
