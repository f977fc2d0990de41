"""How strong each AI level plays (issue 23 §5): one level against another in each seat of a scenario, the share of
decided battles each wins, and the CPU time of its decisions.

    python -m benchmarks.ai_strength examples/song-of-blades/hero-against-mob.toml --level search --against greedy

Each battle of a seat is seeded from ``--seed`` and its number, so a row replays the same. CPU time (not wall clock:
the machine is shared) is measured around each ``decide`` of the level under test.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kessen.ai.levels import Level, decider, parse_level
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.sim.play import initial_state, play_from


class Timed:
    """A Decider that keeps the CPU seconds of each of its decisions, and apart those of the decisions it searched
    (where its ``visited`` says it made positions: more than one candidate)."""

    def __init__(self, inner: Decider, times: list[float], searched: list[float]) -> None:
        self.inner, self.times, self.searched = inner, times, searched

    def decide(self, state: Any, decision: Decision) -> Any:
        started = time.process_time()
        choice = self.inner.decide(state, decision)
        spent = time.process_time() - started
        self.times.append(spent)
        if getattr(self.inner, "visited", 0):
            self.searched.append(spent)
        return choice


@dataclass
class Seat:
    """*level* playing *side* against *against* on the other sides: battles won, lost and drawn, decision times."""

    side: str
    won: int = 0
    lost: int = 0
    drawn: int = 0
    times: list[float] = field(default_factory=list)
    searched: list[float] = field(default_factory=list)

    @property
    def share(self) -> float:
        decided = self.won + self.lost
        return self.won / decided if decided else float("nan")

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the share of decided battles won."""
        return wilson(self.won, self.won + self.lost)


def wilson(won: int, decided: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of *won* successes in *decided* trials (0 .. 1 with none decided)."""
    if decided == 0:
        return 0.0, 1.0
    p = won / decided
    middle = (p + z * z / (2 * decided)) / (1 + z * z / decided)
    half = z * math.sqrt(p * (1 - p) / decided + z * z / (4 * decided * decided)) / (1 + z * z / decided)
    return max(0.0, middle - half), min(1.0, middle + half)


def duel(
    path: str, level: Level, against: Level, battles: int, seed: int = 1, seats: Sequence[str] | None = None,
) -> list[Seat]:
    """*battles* battles per side of the scenario at *path* (or per side of *seats*): *level* plays that side,
    *against* the others."""
    ruleset = ruleset_for(path, None)
    text = read_scenario(path)
    game = ruleset.game
    state = initial_state(game, text, path)
    sides = tuple(game.sides(state))
    played = []
    for seat_side in seats if seats is not None else sides:
        seat = Seat(seat_side)
        for n in range(battles):
            battle_seed = seed * 1_000_003 + n
            chosen: dict[str, Decider] = {}
            for i, side in enumerate(sides):
                made = decider(level if side == seat_side else against, game, side, battle_seed, side_index=i)
                chosen[side] = Timed(made, seat.times, seat.searched) if side == seat_side else made
            winner = play_from(game, state, battle_seed, deciders=chosen).terminal
            assert winner is not None
            if winner.winner is None:
                seat.drawn += 1
            elif winner.winner == seat_side:
                seat.won += 1
            else:
                seat.lost += 1
        played.append(seat)
    return played


def median_of(values: Sequence[float]) -> float:
    """The median of *values* (nan when there are none)."""
    return statistics.median(values) if values else float("nan")


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(path: str, level: Level, against: Level, seats: list[Seat]) -> str:
    """The seats as lines: side, won/lost/drawn, share of decided battles won, decision time median and p95."""
    lines = [f"{Path(path).stem}: {level} against {against}"]
    for seat in seats:
        median = median_of(seat.times)
        lines.append(
            f"  {seat.side:>12}: {seat.won:4d} won {seat.lost:4d} lost {seat.drawn:4d} drawn  "
            f"{100 * seat.share:5.1f}% of decided  decision median {1000 * median:7.1f} ms  "
            f"p95 {1000 * percentile(seat.times, 0.95):7.1f} ms  ({len(seat.times)} decisions, "
            f"{len(seat.searched)} searched: median {1000 * median_of(seat.searched):7.1f} ms)"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_strength", description=__doc__)
    parser.add_argument("scenarios", nargs="+", help="scenario files")
    parser.add_argument("--level", default="search", help="the level under test (default search)")
    parser.add_argument("--against", default="greedy", help="the level on the other sides (default greedy)")
    parser.add_argument("--battles", type=int, default=20, help="battles per seat (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    level, against = parse_level(args.level, "--level"), parse_level(args.against, "--against")
    for path in args.scenarios:
        print(report(path, level, against, duel(path, level, against, args.battles, args.seed)), flush=True)


if __name__ == "__main__":
    main()
