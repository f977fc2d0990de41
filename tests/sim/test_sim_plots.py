"""Sweep plots: valid PNGs of the right size, with one heatmap square, line point or histogram per cell."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kessen.sim import plots
from kessen.sim.executors import InlineExecutor
from kessen.sim.sweeps import SweepRun, run_sweep

pytest.importorskip("matplotlib")
from matplotlib import image  # noqa: E402

DATA = Path(__file__).parent / "data"


def run_of(tmp_path: Path, vary: str, *, swap: bool = False) -> SweepRun:
    (tmp_path / "song-of-blades").mkdir(exist_ok=True)
    shutil.copy(DATA / "song-of-blades" / "skirmish.toml", tmp_path / "song-of-blades")
    path = tmp_path / "plot.toml"
    path.write_text(f'scenario = "song-of-blades/skirmish.toml"\nruns = 3\nswap_sides = {str(swap).lower()}\n{vary}')
    return run_sweep(str(path), executor=InlineExecutor())


TWO_FIELDS = '[[vary]]\nfield = "sides[0].models[0].combat"\nvalues = [2, 4, 6]\n[[vary]]\nfield = "turns"\nvalues = [2, 3]\n'


def test_heatmap_of_two_fields_has_a_square_per_cell_and_the_field_paths_as_axes(tmp_path: Path) -> None:
    """Two varied fields: a heatmap of 3 rows (combat) × 2 columns (turns), each square the win rate of its cell."""
    run = run_of(tmp_path, TWO_FIELDS)
    figure = plots.win_rate_figure(run, list(run.sweep.cells), 1, "en")
    ax = figure.axes[0]
    grid = ax.images[0].get_array()
    assert grid.shape == (3, 2)
    for cell in run.sweep.cells:
        rate = run.tallies[cell.index].wins["Hero"] / 3
        assert grid[[2, 4, 6].index(cell.settings[0][1]), [2, 3].index(cell.settings[1][1])] == pytest.approx(rate)
    assert (ax.get_ylabel(), ax.get_xlabel()) == ("sides[0].models[0].combat", "turns")
    assert ax.get_title() == "Hero: win rate"


def test_plots_are_valid_pngs_of_the_right_size(tmp_path: Path) -> None:
    """--plot DIR writes a win-rate heatmap per side, the casualty histograms and the rounds histogram, as PNGs
    that matplotlib reads back at 800 × 600 pixels (the casualty grid: 3 × 2 panels, 9 × 6 inches)."""
    run = run_of(tmp_path, TWO_FIELDS)
    written = plots.write_plots(run, str(tmp_path / "plots"))
    assert [p.name for p in written] == ["win-rate-side-1.png", "win-rate-side-2.png", "casualties.png", "rounds.png"]
    for path in written:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        pixels = image.imread(path)
        assert pixels.shape[:2] == ((600, 900) if path.name == "casualties.png" else (600, 800))


def test_casualty_histograms_one_panel_per_cell_with_each_sides_bars(tmp_path: Path) -> None:
    """One histogram per cell (6 cells: a 3 × 2 grid of 6 panels), bars for both sides whose
    heights add up to the cell's battles."""
    run = run_of(tmp_path, TWO_FIELDS)
    figure = plots.casualties_figure(run, "en")
    panels = [ax for ax in figure.axes if ax.axison]
    assert len(panels) == 6
    for ax, cell in zip(panels, run.sweep.cells):
        heights = [bar.get_height() for container in ax.containers for bar in container]
        assert sum(heights) == 2 * 3  # two sides × 3 battles
        assert ax.get_title() == cell.label()


def test_one_field_draws_a_line_with_its_95_percent_band(tmp_path: Path) -> None:
    """One varied field: a line through the win rates with the Wilson band around it, a point per cell."""
    run = run_of(tmp_path, '[[vary]]\nfield = "turns"\nvalues = [1, 2, 3, 4]\n', swap=True)
    groups = plots.cell_groups(run)
    assert len(groups) == 2  # as deployed and swapped
    figure = plots.win_rate_figure(run, groups[1], 2, "en")
    ax = figure.axes[0]
    assert list(ax.lines[0].get_xdata()) == [1, 2, 3, 4]
    assert len(ax.collections) == 1 and ax.get_xlabel() == "turns"
    assert ax.get_title() == "Goblins: win rate and its 95% interval\nswapped"
    written = plots.write_plots(run, str(tmp_path / "plots"))
    assert {p.name for p in written} >= {"win-rate-side-1-1.png", "win-rate-side-2-2.png"}


def test_japanese_titles_with_a_japanese_font_and_english_when_none_is_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--lang ja: titles in Japanese drawn with a font that has the glyphs; with no such font, English titles and a
    note saying so, never boxes for missing glyphs."""
    run = run_of(tmp_path, TWO_FIELDS)
    notes: list[str] = []
    if plots.japanese_font() is not None:
        assert plots.plot_language("ja", notes.append) == ("ja", (plots.japanese_font(),))
        assert plots.win_rate_figure(run, list(run.sweep.cells), 1, "ja").axes[0].get_title() == "Hero の勝率"
    monkeypatch.setattr(plots, "japanese_font", lambda: None)
    assert plots.plot_language("ja", notes.append) == ("en", ())
    assert notes and "fonts-noto-cjk" in notes[-1]
    plots.write_plots(run, str(tmp_path / "plots"), lang="ja", note=notes.append)
    assert image.imread(tmp_path / "plots" / "rounds.png").shape[:2] == (600, 800)
