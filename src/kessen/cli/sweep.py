"""``kessen sweep`` (battles over a grid of scenario fields, kept in SQLite, printed, exported, plotted), and the
table and progress bar of ``kessen battle --runs N``."""

from __future__ import annotations

import functools
from collections import Counter
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TimeRemainingColumn
from rich.table import Table

from kessen import i18n
from kessen.cli.stopping import like_ctrl_c
from kessen.core.errors import InputError
from kessen.ai.levels import AI
from kessen.sim.battles import BattleStats, Interrupted, wilson
from kessen.sim.executors import check_scheduler
from kessen.sim.sweeps import SweepRun, check_export, default_db, export, run_sweep
from kessen.sim.tally import mean


def sweep_command(
    path: str, *, workers: int | None, scheduler: str | None, db: str | None, plot: str | None, export_path: str | None,
    lang: str, out: Console, err: Console, ai: AI = None,
) -> None:
    """Run a sweep file with a progress bar; then its table, and the export and plots asked for."""
    text = functools.partial(i18n.text, "sim", lang=lang)
    check_export(export_path)
    if scheduler is not None:
        check_scheduler(scheduler)
    if scheduler is not None and scheduler != "local" and workers is not None:
        raise InputError("--workers", workers, "a Dask cluster's scheduler decides its workers: leave --workers out")
    if plot is not None:
        from kessen.sim.plots import plot_language

        plot_language(lang, lambda _: None)  # matplotlib installed, --lang known: before any battle
    db_file = db or default_db(path)
    bar = progress_bar(err)
    task: list[TaskID] = []

    def started(battles: int, reused: int, chunks: int) -> None:
        err.print(text("reused", db=escape(db_file), reused=reused, chunks=chunks, battles=battles))
        bar.start()
        task.append(bar.add_task(text("battles"), total=battles))

    try:
        with like_ctrl_c():
            run = run_sweep(
                path, workers=workers, scheduler=scheduler, db=db_file, on_start=started, ai=ai,
                progress=lambda battles, _cell: bar.advance(task[0], battles),
            )
    except Interrupted:
        bar.stop()
        err.print(text("sweep_interrupted", db=escape(db_file)))
        raise
    finally:
        if task:  # a bar never started prints nothing (stopping it would print an empty line before an error)
            bar.stop()
    out.print(sweep_table(run, lang))
    rows = run.rows()
    if export_path is not None:
        export(rows, export_path)
        err.print(text("exported", path=escape(export_path)))
    if plot is not None:
        from kessen.sim.plots import write_plots

        write_plots(run, plot, lang=lang, note=lambda line: err.print(escape(line)))
        err.print(text("plotted", path=escape(plot)))


def battle_table(stats: BattleStats, *, seed: int, lang: str) -> Table:
    """Wins, win rate with its 95% interval and mean casualties per side, and the draws, in *lang*."""
    text = functools.partial(i18n.text, "sim", lang=lang)
    table = Table(title=text("battles_title", runs=stats.runs, seed=seed), title_justify="left")
    for key in ("side", "wins", "win_rate", "interval", "mean_casualties"):
        table.add_column(text(key), justify="left" if key == "side" else "right")
    for side in stats.sides:
        p, lo, hi = stats.win_rate(side)
        casualties = mean(stats.casualties.get(side, Counter()))
        shown = "" if casualties is None else f"{casualties:.2f}"
        table.add_row(escape(side), str(stats.wins[side]), f"{p:.1%}", f"{lo:.1%} – {hi:.1%}", shown)
    p, lo, hi = wilson(stats.draws, stats.runs)
    table.add_row(text("draw"), str(stats.draws), f"{p:.1%}", f"{lo:.1%} – {hi:.1%}", "")
    return table


def progress_bar(console: Console) -> Progress:
    """The progress bar of battles played: description, bar, n of N, time left; gone when done."""
    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    return Progress(*columns, console=console, transient=True)


def sweep_table(run: SweepRun, lang: str) -> Table:
    """One line per cell: its settings, each side's win rate with its 95% interval, draws, mean rounds."""
    text = functools.partial(i18n.text, "sim", lang=lang)
    spec = run.sweep.spec
    table = Table(title=text("sweep_title", cells=len(run.sweep.cells), runs=spec.runs, seed=spec.seed), title_justify="left")
    sides = max(len(c.sides) for c in run.sweep.cells)
    table.add_column(text("cell"), justify="right")
    table.add_column("", justify="left")
    for _ in range(sides):
        table.add_column(f"{text('win_rate')} ({text('interval')})", justify="left")
    table.add_column(text("draw"), justify="right")
    table.add_column(text("mean_rounds"), justify="right")
    for cell, row in zip(run.sweep.cells, run.rows()):
        shown = [
            f"{escape(row[f'side_{n}'])} {row[f'side_{n}_win_rate']:.1%} "
            f"({row[f'side_{n}_win_low']:.1%} – {row[f'side_{n}_win_high']:.1%})"
            for n in range(1, len(cell.sides) + 1)
        ]
        rounds = row.get("rounds_mean")
        table.add_row(
            str(cell.index), escape(cell.label(text("swapped"))), *shown, *([""] * (sides - len(shown))),
            f"{row['draw_rate']:.1%}", "" if rounds is None else f"{rounds:.2f}",
        )
    return table
