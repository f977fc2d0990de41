"""Simulation: whole battles between AI sides, many at a time, and sweeps over scenarios and fields.

``battles`` (one battle; many of one scenario), ``chunks`` (work cut into seeded chunks), ``tally`` (counts that add
up in any order), ``executors`` (the process pool, Dask), ``runner``, ``sweepfile`` (sweep files and their cells),
``deployment`` (swapping the sides' deployment), ``store`` (SQLite), ``sweeps`` (running a sweep, its table),
``plots`` (matplotlib).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kessen.ai.levels import AI
    from kessen.sim.battles import BattleStats
    from kessen.sim.executors import Executor
    from kessen.sim.tally import Tally


def simulate(
    scenario: str, *, runs: int, seed: int, ruleset: str | None = None, workers: int | None = None,
    scheduler: str | None = None, text: str | None = None, progress: Callable[[int], None] | None = None,
    executor: Executor | None = None, ai: AI = None, played: Mapping[int, Tally] | None = None,
    on_chunk: Callable[[int, Tally], None] | None = None,
) -> BattleStats:
    """*runs* AI-vs-AI battles of a scenario file on local cores (or Dask), with seeds drawn from *seed*; *ai* is the
    level of every side (``"search"``) or side → level (``{"Hero": "search"}``; the others play greedy): see
    ``kessen.ai.levels``. A plug-in's module must be importable by the worker processes.

    *text* is the scenario's text when it comes from no file (a page's upload): *scenario* then only names it in
    errors, and its ruleset is its ``ruleset`` key or *ruleset*. *progress* hears the number of battles of each
    chunk as it finishes. *executor* runs the chunks instead of *workers*' process pool or *scheduler*'s Dask
    cluster, and is closed at the end. Ctrl-C raises ``kessen.sim.battles.Interrupted`` with the battles finished.
    *played* (chunk index → tally of a run that stopped) is counted and not played again; *on_chunk* hears each
    chunk's index and tally as it finishes, so a caller can keep them and go on later (the web server does).
    """
    from kessen.core.errors import InputError
    from kessen.io.scenarios import read_scenario, ruleset_for, text_ruleset
    from kessen.sim.battles import check_runs, check_seed
    from kessen.sim.battles import simulate as run

    try:
        check_runs(runs)
        check_seed(seed)
        if text is None:
            chosen, text = ruleset_for(scenario, ruleset), read_scenario(scenario)
        else:
            chosen = text_ruleset(text, scenario, ruleset)
    except InputError:
        if executor is not None:  # a given executor is closed however the run ends
            executor.close()
        raise
    return run(
        chosen, text, scenario, runs=runs, seed=seed, workers=workers, scheduler=scheduler, progress=progress, executor=executor, ai=ai,
        played=played, on_chunk=on_chunk,
    )


def sweep(
    path: str, *, workers: int | None = None, scheduler: str | None = None, db: str | None = None, ai: AI = None
) -> list[dict[str, Any]]:
    """Run a sweep file (results kept in SQLite, *db* or beside the file) and return its table, one row per cell;
    *ai* takes the place of the file's ``ai`` table."""
    from kessen.sim.sweeps import sweep as run

    return run(path, workers=workers, scheduler=scheduler, db=db, ai=ai)
