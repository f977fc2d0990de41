"""How strong the search AI plays, beside issue 23 §5's targets (`make bench --section ai`).

For every shipped scenario (``examples/*/*.toml``) and every mirror (``benchmarks/mirrors/*.toml``), in each seat:

- greedy against greedy: the share of decided battles the seat wins when greedy plays it (the bar search must clear);
- search against greedy: the share search wins in that seat, with its 95% Wilson interval;
- search against random: the share search wins against a random player;
- the CPU time of search's decisions in that seat: the median of all of them (forced steps, where the tactics give
  one candidate, count too: they are decisions the level plays), and the median and p95 of those it searched.

Targets (issue 23 §5): in a mirror, search wins ≥ 65% of the decided battles over both seats; in a shipped scenario's
seat, search's share is at least greedy's (+10 points where greedy's is below 85%); against random ≥ 95% where the
seat can win at all (it won a battle in some pairing); the median searched decision ≤ 0.1 s compiled. A target is judged
on the point estimate; the interval says how far the sample lets one trust it. The battles are spread over one
process per core, each a seat of a pairing (``benchmarks.ai_strength.duel``), so the numbers do not depend on the
number of cores, only the wall time does.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from benchmarks.ai_strength import Seat, duel, median_of, percentile, wilson
from benchmarks.harness import table, verdict
from kessen.ai.levels import parse_level
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.sim.play import initial_state

ROOT = Path(__file__).resolve().parent.parent
MIRROR_TARGET = 0.65
RANDOM_TARGET = 0.95
MEDIAN_TARGET = 0.1
EDGE = 0.10
"""Search must beat greedy's share in a seat by this much where greedy's share is below :data:`STRONG`."""
STRONG = 0.85


def scenarios() -> list[Path]:
    """The shipped scenarios, then the mirrors."""
    return sorted(ROOT.glob("examples/*/*.toml")) + sorted((ROOT / "benchmarks" / "mirrors").glob("*.toml"))


def _sides(path: Path) -> tuple[str, ...]:
    game = ruleset_for(str(path), None).game
    return tuple(game.sides(initial_state(game, read_scenario(str(path)), str(path))))


def _seat(task: tuple[str, str, str, str, int]) -> Seat:
    path, level, against, side, battles = task
    return duel(path, parse_level(level), parse_level(against), battles, seed=23, seats=[side])[0]


@dataclass
class Row:
    """One seat of one scenario: its three pairings."""

    scenario: str
    side: str
    mirror: bool
    greedy: Seat
    search: Seat
    random: Seat


def measure(paths: list[Path], battles: int, greedy_battles: int, random_battles: int, workers: int) -> list[Row]:
    """Every seat of every scenario in *paths*, each pairing played in a worker process. Greedy against greedy is
    played once a scenario: the same battles whichever seat is counted (greedy draws nothing of its own)."""
    tasks: list[tuple[str, str, str, str, int]] = []
    keys: list[tuple[Path, tuple[str, ...]]] = []
    for path in paths:
        sides = _sides(path)
        keys.append((path, sides))
        tasks.append((str(path), "greedy", "greedy", sides[0], greedy_battles))
        for side in sides:
            tasks += [(str(path), "search", "greedy", side, battles), (str(path), "search", "random", side, random_battles)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        seats = iter(list(pool.map(_seat, tasks)))
    rows = []
    for path, sides in keys:
        greedy = next(seats)
        for side in sides:
            search, random = next(seats), next(seats)
            mine = greedy if side == greedy.side else _other_seat(greedy, side)
            rows.append(Row(f"{path.parent.name}/{path.stem}", side, path.parent.name == "mirrors", mine, search, random))
    return rows


def _other_seat(seat: Seat, side: str) -> Seat:
    """*seat*'s battles counted for *side*, the other side of a two-sided battle."""
    return Seat(side, won=seat.lost, lost=seat.won, drawn=seat.drawn)


def _share(seat: Seat) -> str:
    low, high = seat.interval()
    decided = seat.won + seat.lost
    if not decided:
        return f"- ({seat.drawn} drawn)"
    return f"{100 * seat.share:.0f}% [{100 * low:.0f}–{100 * high:.0f}] of {decided}"


def _target(row: Row) -> float | None:
    """The share search must reach in this seat against greedy (None in a mirror: judged over both seats)."""
    if row.mirror or not row.greedy.won + row.greedy.lost:
        return None
    bar = row.greedy.share
    return bar + EDGE if bar < STRONG else bar


def _can_win(row: Row) -> bool:
    return row.greedy.won + row.search.won + row.random.won > 0


def _yes(ok: bool) -> str:
    return "yes" if ok else "no"


def run(out: Console, *, battles: int = 30, greedy_battles: int = 200, random_battles: int = 10,
        workers: int | None = None, only: str | None = None) -> None:
    """The strength table, then the mirrors' totals, beside issue 23 §5's targets; then both as Markdown (what the
    READMEs show)."""
    paths = [p for p in scenarios() if only is None or only in str(p)]
    rows = measure(paths, battles, greedy_battles, random_battles, workers or os.cpu_count() or 1)
    lines = []
    for row in rows:
        target = _target(row)
        searched = median_of(row.search.searched)
        against_random = row.random.share if row.random.won + row.random.lost else float("nan")
        lines.append([
            row.scenario, row.side, _share(row.greedy), _share(row.search),
            f"≥ {100 * min(1.0, target):.0f}%" if target is not None else "mirror",
            _yes(row.search.share >= min(1.0, target) - 1e-9) if target is not None else "",
            _share(row.random),
            _yes(against_random >= RANDOM_TARGET) if _can_win(row) else "can't win",
            f"{1000 * median_of(row.search.times):.0f} / {1000 * searched:.0f} / "
            f"{1000 * percentile(row.search.searched, 0.95):.0f}",
            _yes(not searched > MEDIAN_TARGET),
        ])
    title = (f"Search against greedy and random, each seat ({battles} battles a seat against greedy, {random_battles} "
             f"against random; greedy against greedy {greedy_battles})")
    columns = [("scenario", "left"), ("seat", "left"), ("greedy vs greedy", "right"), ("search vs greedy", "right"),
               ("target", "right"), ("met", "left"), ("search vs random", "right"), ("≥ 95%", "left"),
               ("decision ms: median all / searched, p95 searched", "right"), ("≤ 0.1 s", "left")]
    out.print(table(
        title, columns, [[_coloured(cell) for cell in line] for line in lines],
        caption="share = battles the seat won of those decided (draws left out), [95% Wilson interval] of how many were "
        "decided; target = greedy's share in the seat (+10 points where it is below 85%); decision time = CPU of "
        "search's decide: every decision of the seat, and those it searched (more than one candidate)",
    ))
    mirrors = []
    for name in dict.fromkeys(r.scenario for r in rows if r.mirror):
        seats = [r.search for r in rows if r.scenario == name]
        won, decided = sum(s.won for s in seats), sum(s.won + s.lost for s in seats)
        low, high = wilson(won, decided)
        share = won / decided if decided else float("nan")
        mirrors.append([name, f"{100 * share:.0f}% [{100 * low:.0f}–{100 * high:.0f}] of {decided}",
                        f"≥ {100 * MIRROR_TARGET:.0f}%", _yes(share >= MIRROR_TARGET)])
    mirror_columns = [("mirror", "left"), ("search wins", "right"), ("target", "right"), ("met", "left")]
    if mirrors:
        out.print(table("Mirrors: search against greedy over both seats", mirror_columns,
                        [[_coloured(cell) for cell in line] for line in mirrors]))
    out.print(f"As Markdown:\n\n{markdown(columns, lines)}\n\n{markdown(mirror_columns, mirrors)}", markup=False, soft_wrap=True)


def _coloured(cell: str) -> str:
    return verdict(cell == "yes") if cell in ("yes", "no") else cell


def markdown(columns: list[tuple[str, str]], lines: list[list[str]]) -> str:
    """A Markdown table of *lines* under *columns*' headers."""
    rule = ["---:" if justify == "right" else "---" for _header, justify in columns]
    rows = [[header for header, _justify in columns], rule, *lines]
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)
