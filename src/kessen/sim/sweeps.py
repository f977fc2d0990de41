"""Running a sweep: the chunks of every cell not yet in the results store, on an executor, then one row per cell.

A row holds the cell (its index, scenario, ruleset, each varied field's value by its path, ``swapped``) and, for
the cell's sides in the scenario's order (``side_1``, ``side_2``): wins, win rate and its 95% Wilson interval;
draws; for every {side: number} key of the battle summary (``casualties``, ``survivors``, ``vp``, ``points_lost``,
...) the mean and the distribution per side (``side_1_casualties_mean``, ``side_1_casualties_counts``); for every
number key (``rounds``) its mean and distribution (``rounds_mean``, ``rounds_counts``); for every word or list key
(``result``, ``broken``) how many battles had each value (``result_counts``). A distribution is {value: battles};
the ``_counts`` and ``_mean`` names never meet a varied field's path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kessen.core.errors import InputError
from kessen.sim.battles import Interrupted, wilson
from kessen.sim.chunks import ChunkJob, battle_seeds, chunk_plan
from kessen.sim.executors import Executor, make_executor
from kessen.sim.runner import play_all
from kessen.sim.store import Store
from kessen.ai.levels import AI
from kessen.sim.sweepfile import Cell, Sweep, load_sweep
from kessen.sim.tally import Tally, distribution, mean, total

Row = dict[str, Any]


@dataclass
class SweepRun:
    """A sweep's outcome: its cells with their tallies, and how many chunks came from the store."""

    sweep: Sweep
    tallies: dict[int, Tally]
    chunks: int
    reused: int
    db: str

    @property
    def computed(self) -> int:
        """Chunks played in this run."""
        return self.chunks - self.reused

    def rows(self) -> list[Row]:
        """One row per cell, in cell order (the table that ``--export`` writes and ``kessen.sweep`` returns)."""
        return [cell_row(cell, self.tallies[cell.index], self.sweep) for cell in self.sweep.cells]


def default_db(sweep_path: str) -> str:
    """The results store beside a sweep file: ``balance.toml`` → ``balance.sqlite``."""
    return str(Path(sweep_path).with_suffix(".sqlite"))


def run_sweep(
    path: str, *, workers: int | None = None, scheduler: str | None = None, db: str | None = None,
    progress: Callable[[int, int], None] | None = None, executor: Executor | None = None,
    on_start: Callable[[int, int, int], None] | None = None, ai: AI = None,
) -> SweepRun:
    """Run the sweep file at *path*: validate every cell, reuse the chunks the store has, play the rest.

    *on_start(battles to play, chunks reused, chunks in all)* is called once before any battle;
    *progress(battles, cell)* after each chunk. Ctrl-C raises :class:`Interrupted` with the partial
    :class:`SweepRun` (every finished chunk is in the store already).
    """
    try:
        sweep = load_sweep(path, ai)
        store = Store(db or default_db(path))
    except BaseException:
        if executor is not None:  # a given executor is closed however the run ends
            executor.close()
        raise
    try:
        ident = store.sweep_id(sweep)
        done = store.tallies(ident)
        plans = {cell.index: chunk_plan(cell.index, sweep.spec.runs) for cell in sweep.cells}
        chunks = sum(len(plan) for plan in plans.values())
        missing = [(cell, chunk) for cell in sweep.cells for chunk in plans[cell.index] if (cell.index, chunk.index) not in done]
        run = SweepRun(sweep, {}, chunks, chunks - len(missing), store.path)
        seed = sweep.spec.seed
        where = {(cell.index, chunk.index): (cell, chunk) for cell, chunk in missing}
        jobs = (
            ChunkJob((cell.index, chunk.index), cell.ruleset, cell.text, cell.scenario, battle_seeds(seed, chunk), cell.ai)
            for cell, chunk in missing
        )

        def finished(key: tuple[int, int], tally: Tally) -> None:
            cell, chunk = where[key]
            store.record(ident, cell, chunk, seed=seed, battle_seeds=battle_seeds(seed, chunk), tally=tally)
            done[key] = tally
            if progress is not None:
                progress(tally.battles, cell.index)

        def tallies() -> dict[int, Tally]:
            return {c.index: total(done[(c.index, k.index)] for k in plans[c.index] if (c.index, k.index) in done) for c in sweep.cells}

        rulesets = {cell.ruleset for cell, _ in missing}  # a Dask worker loads these engines as it starts
        try:
            with closing(executor or make_executor(workers=workers, scheduler=scheduler, jobs=len(missing), rulesets=rulesets)) as chosen:
                if on_start is not None:  # after the executor started its processes: on_start may start threads
                    on_start(sum(chunk.size for _, chunk in missing), run.reused, chunks)
                play_all(jobs, chosen, finished)
        except KeyboardInterrupt:
            run.tallies = tallies()
            raise Interrupted(run) from None
        run.tallies = tallies()
        return run
    finally:
        store.close()


def sweep(
    path: str, *, workers: int | None = None, scheduler: str | None = None, db: str | None = None, ai: AI = None
) -> list[Row]:
    """Run a sweep file and return its table, one row per cell (see :mod:`kessen.sim.sweeps` for the columns);
    *ai* takes the place of the file's ``ai``."""
    return run_sweep(path, workers=workers, scheduler=scheduler, db=db, ai=ai).rows()


def cell_row(cell: Cell, tally: Tally, sweep: Sweep) -> Row:
    """The row of one cell (columns in a fixed order: the cell, then each side, then the summary numbers)."""
    scenario = os.path.relpath(cell.scenario, Path(sweep.path).parent)  # as the sweep file names it
    row: Row = {"cell": cell.index, "scenario": scenario, "ruleset": cell.ruleset}
    for v in sweep.spec.vary:
        row[v.field] = dict(cell.settings)[v.field]
    if sweep.spec.swap_sides:
        row["swapped"] = cell.swapped
    row["battles"] = tally.battles
    for n, side in enumerate(cell.sides, 1):
        p, low, high = wilson(tally.wins[side], tally.battles)
        row |= {f"side_{n}": side, f"side_{n}_wins": tally.wins[side], f"side_{n}_win_rate": p,
                f"side_{n}_win_low": low, f"side_{n}_win_high": high}
    p, low, high = wilson(tally.draws, tally.battles)
    row |= {"draws": tally.draws, "draw_rate": p, "draw_low": low, "draw_high": high}
    for key, sides in sorted(tally.per_side.items()):
        for n, side in enumerate(cell.sides, 1):
            counts = sides.get(side)
            if counts is not None:
                row[f"side_{n}_{key}_mean"] = mean(counts)
                row[f"side_{n}_{key}_counts"] = distribution(counts)
    for key, counts in sorted(tally.numbers.items()):
        row[f"{key}_mean"] = mean(counts)
        row[f"{key}_counts"] = distribution(counts)
    for key, counts in sorted(tally.words.items()):
        row[f"{key}_counts"] = distribution(counts)
    return row


def export(rows: list[Row], path: str) -> None:
    """Write the table to *path*: CSV (``.csv``) or Parquet (``.parquet``, with pyarrow); distributions as JSON."""
    import json

    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    flat = [{k: json.dumps(v) if isinstance(v, dict) else v for k, v in row.items()} for row in rows]
    check_export(path)
    try:
        if Path(path).suffix.lower() == ".csv":
            import csv

            with open(path, "w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, fieldnames=columns)
                writer.writeheader()
                writer.writerows(flat)
        else:
            _parquet(flat, columns, path)
    except OSError as error:
        raise InputError("--export", path, f"cannot write the file ({error.strerror})") from None


def _parquet(rows: list[Row], columns: list[str], path: str) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("--export", path, "Parquet needs pyarrow: pip install 'kessen[parquet]'") from None
    try:
        table = pa.table({c: [row.get(c) for row in rows] for c in columns})
    except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
        raise InputError("--export", path, f"a column mixes kinds of values ({error})") from None
    pq.write_table(table, path)


def check_export(path: str | None) -> None:
    """An ``--export`` path that can be written, checked before any battle is played."""
    if path is None:
        return
    if Path(path).suffix.lower() not in (".csv", ".parquet"):
        raise InputError("--export", path, "must end in .csv or .parquet")
    folder = Path(path).parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise InputError("--export", path, "no such folder, or not writable")
