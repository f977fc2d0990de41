"""Plots of a sweep (matplotlib, Agg, PNG): each side's win rate over the varied fields, casualties per cell, rounds.

- Win rate: over two varied fields, a heatmap (rows: the first field's values, columns: the second's); over one, a
  line with its 95% band; with nothing varied, a bar per cell with its 95% interval. One figure per side and per
  group of cells that share the other settings (scenario, swapped deployment, any further varied fields).
- Casualties: a histogram per cell, the sides side by side.
- Rounds: one histogram of the rounds played, every cell's battles together.

Axis labels are the field paths; titles are in the chosen language. Japanese needs a font with Japanese glyphs
(Debian ``fonts-noto-cjk``); without one the titles fall back to English, with a note.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from kessen import i18n
from kessen.core.errors import InputError
from kessen.sim.battles import wilson
from kessen.sim.tally import Value, total

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from kessen.sim.sweepfile import Cell
    from kessen.sim.sweeps import SweepRun

DPI = 100
SIZE_INCHES = (8.0, 6.0)
"""Every plot but the casualty grid is 800 × 600 pixels."""

JAPANESE_FONTS = ("Noto Sans CJK JP", "Noto Serif CJK JP", "IPAexGothic", "IPAGothic", "TakaoGothic", "VL Gothic", "Noto Sans JP")


def write_plots(run: SweepRun, folder: str, *, lang: str = "en", note: Callable[[str], None] = lambda _: None) -> list[Path]:
    """Draw every plot of a sweep's run into *folder* (made if missing); the PNG files written, in order."""
    plt = pyplot()
    target = Path(folder)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError("--plot", folder, f"cannot make the folder ({error.strerror})") from None
    lang, fonts = plot_language(lang, note)
    written: list[Path] = []
    with plt.rc_context({"font.family": [*fonts, "DejaVu Sans"]}):
        figures: list[tuple[str, Figure]] = []
        groups = cell_groups(run)
        sides = max(len(cell.sides) for cell in run.sweep.cells)
        for g, cells in enumerate(groups, 1):
            suffix = f"-{g}" if len(groups) > 1 else ""
            for n in range(1, sides + 1):
                figures.append((f"win-rate-side-{n}{suffix}.png", win_rate_figure(run, cells, n, lang)))
        figures.append(("casualties.png", casualties_figure(run, lang)))
        figures.append(("rounds.png", rounds_figure(run, lang)))
        for name, figure in figures:
            path = target / name
            try:
                figure.savefig(path, dpi=DPI, format="png")
            except OSError as error:
                raise InputError("--plot", str(path), f"cannot write the file ({error.strerror})") from None
            finally:
                plt.close(figure)
            written.append(path)
    return written


def plot_language(lang: str, note: Callable[[str], None]) -> tuple[str, tuple[str, ...]]:
    """The language the titles can be drawn in, and the fonts to draw them with (English when no font has
    Japanese glyphs)."""
    i18n.catalogue("sim", lang)
    if lang != "ja":
        return lang, ()
    font = japanese_font()
    if font is None:
        note(i18n.text("sim", "font_missing", lang))
        return "en", ()
    return lang, (font,)


def japanese_font() -> str | None:
    """The first installed font family with Japanese glyphs, or None."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in JAPANESE_FONTS if name in installed), None)


def cell_groups(run: SweepRun) -> list[list[Cell]]:
    """The cells in groups that share everything but the first two varied fields, in cell order."""
    groups: dict[tuple[Any, ...], list[Cell]] = {}
    for cell in run.sweep.cells:
        key = (cell.scenario, cell.swapped, tuple(repr(v) for _, v in cell.settings[2:]))
        groups.setdefault(key, []).append(cell)
    return list(groups.values())


def win_rate_figure(run: SweepRun, cells: Sequence[Cell], side: int, lang: str) -> Figure:
    """Side number *side*'s win rate over the group's cells: a heatmap, a line with its band, or bars."""
    plt = pyplot()
    text = _texts(lang)
    figure: Figure
    figure, ax = plt.subplots(figsize=SIZE_INCHES, dpi=DPI)
    name = next((c.sides[side - 1] for c in cells if len(c.sides) >= side), f"side {side}")
    rates = [_rate(run, cell, side) for cell in cells]
    fields = [v.field for v in run.sweep.spec.vary]
    if len(fields) >= 2:
        rows = _values(run, 0)
        columns = _values(run, 1)
        grid = [[math.nan] * len(columns) for _ in rows]
        for cell, (p, _, _) in zip(cells, rates):
            grid[rows.index(cell.settings[0][1])][columns.index(cell.settings[1][1])] = p
        image = ax.imshow(grid, vmin=0.0, vmax=1.0, cmap="viridis", origin="lower", aspect="auto")
        for r, line in enumerate(grid):
            for c, p in enumerate(line):
                ax.text(c, r, f"{p:.0%}", ha="center", va="center", color="white" if p < 0.6 else "black")
        ax.set_xticks(range(len(columns)), [_show(v) for v in columns])
        ax.set_yticks(range(len(rows)), [_show(v) for v in rows])
        ax.set_xlabel(fields[1])
        ax.set_ylabel(fields[0])
        figure.colorbar(image, ax=ax, label=text("axis_win_rate"))
        title = text("plot_win_rate", side=name)
    elif len(fields) == 1:
        xs = [cell.settings[0][1] for cell in cells]
        numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
        at = xs if numeric else list(range(len(xs)))
        ax.plot(at, [p for p, _, _ in rates], marker="o")
        ax.fill_between(at, [lo for _, lo, _ in rates], [hi for _, _, hi in rates], alpha=0.25)
        if not numeric:
            ax.set_xticks(at, [_show(x) for x in xs])
        ax.set_xlabel(fields[0])
        ax.set_ylabel(text("axis_win_rate"))
        ax.set_ylim(0.0, 1.0)
        title = text("plot_win_rate_band", side=name)
    else:
        at = list(range(len(cells)))
        ax.bar(at, [p for p, _, _ in rates], yerr=[[p - lo for p, lo, _ in rates], [hi - p for p, _, hi in rates]], capsize=4)
        ax.set_xticks(at, [cell.label(text("swapped")) for cell in cells])
        ax.set_ylabel(text("axis_win_rate"))
        ax.set_ylim(0.0, 1.0)
        title = text("plot_win_rate_band", side=name)
    ax.set_title(_titled(title, cells[0], run, text("swapped")))
    return figure


def casualties_figure(run: SweepRun, lang: str) -> Figure:
    """A grid of histograms, one per cell: battles by casualties, each side's bars beside the other's."""
    plt = pyplot()
    from matplotlib import ticker

    text = _texts(lang)
    cells = run.sweep.cells
    columns = math.ceil(math.sqrt(len(cells)))
    rows = math.ceil(len(cells) / columns)
    figure: Figure
    figure, axes = plt.subplots(
        rows, columns, figsize=(max(SIZE_INCHES[0], 3.0 * columns), max(SIZE_INCHES[1], 2.4 * rows)), dpi=DPI,
        squeeze=False, constrained_layout=True,
    )
    for ax in axes.flat[len(cells):]:
        ax.set_axis_off()
    for ax, cell in zip(axes.flat, cells):
        counts = run.tallies[cell.index].per_side.get("casualties", {})
        width = 0.8 / max(1, len(cell.sides))
        for n, side in enumerate(cell.sides):
            values = _numbers(counts.get(side, Counter()))
            ax.bar([v + (n - (len(cell.sides) - 1) / 2) * width for v, _ in values], [c for _, c in values], width=width, label=side)
        ax.set_title(cell.label(text("swapped")), fontsize=8)
        ax.set_xlabel(text("axis_casualties"), fontsize=8)
        ax.set_ylabel(text("axis_battles"), fontsize=8)
        ax.tick_params(labelsize=7)
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    axes.flat[0].legend(fontsize=7)
    figure.suptitle(text("plot_casualties"), fontsize=11)
    return figure


def rounds_figure(run: SweepRun, lang: str) -> Figure:
    """One histogram: battles by rounds played, over every cell."""
    plt = pyplot()
    text = _texts(lang)
    figure: Figure
    figure, ax = plt.subplots(figsize=SIZE_INCHES, dpi=DPI)
    values = _numbers(total(run.tallies.values()).numbers.get("rounds", Counter()))
    ax.bar([v for v, _ in values], [c for _, c in values], width=0.8)
    ax.set_xlabel(text("axis_rounds"))
    ax.set_ylabel(text("axis_battles"))
    ax.set_title(text("plot_rounds"))
    return figure


def _rate(run: SweepRun, cell: Cell, side: int) -> tuple[float, float, float]:
    tally = run.tallies[cell.index]
    wins = tally.wins[cell.sides[side - 1]] if len(cell.sides) >= side else 0
    return wilson(wins, tally.battles)


def _values(run: SweepRun, field: int) -> list[Any]:
    return list(run.sweep.spec.vary[field].values)


def _numbers(counts: Counter[Value]) -> list[tuple[float, int]]:
    return sorted((float(v), n) for v, n in counts.items() if isinstance(v, (int, float)))


def _titled(title: str, cell: Cell, run: SweepRun, swapped: str) -> str:
    """The title, with the group's other settings on a second line when there are any."""
    extra = [Path(cell.scenario).name] if cell.named else []
    extra += [f"{name} = {_show(value)}" for name, value in cell.settings[2:]]
    extra += [swapped] if cell.swapped else []
    return title + ("\n" + ", ".join(extra) if extra else "")


def _show(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _texts(lang: str) -> Callable[..., str]:
    def text(key: str, **fields: Any) -> str:
        return i18n.text("sim", key, lang, **fields)

    return text


def pyplot() -> ModuleType:
    """``matplotlib.pyplot`` on the Agg backend (files only, no screen), or an InputError saying how to get it."""
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot", InputError.NOTHING, "plots need matplotlib: pip install 'kessen[plot]'") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    return plt
