"""Loading a scenario for its ruleset, playing one battle, and playing many on all local cores."""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kessen.core.errors import InputError
from kessen.core.replay import Played, play
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.rulesets import Ruleset, get_ruleset


def play_battle(
    ruleset: Ruleset, text: str, source: str, seed: int, *, replay: tuple[int, ...] = (),
    deciders: dict[str, Any] | None = None, on_events: Callable[..., None] | None = None, record: Played | None = None,
) -> Played:
    """One battle between the ruleset's AI sides (or the given deciders), from a seed; *record* sees it grow."""
    game = ruleset.game
    state = game.load_scenario(text, source)
    chosen = {side: game.ai(side) for side in game.sides(state)}
    chosen.update(deciders or {})
    return play(game, state, chosen, seed, replay=replay, on_events=on_events, record=record)


def child_seeds(seed: int, n: int) -> list[int]:
    """n independent, reproducible seeds spawned from one (numpy SeedSequence)."""
    return [int(s.generate_state(1, dtype=np.uint64)[0]) for s in np.random.SeedSequence(seed).spawn(n)]


@dataclass
class BattleStats:
    """Results of many battles: wins per side, draws, and casualties."""

    sides: tuple[str, ...]
    runs: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    casualties: dict[str, list[int]] = field(default_factory=dict)

    @property
    def draws(self) -> int:
        return self.runs - sum(self.wins.values())

    def add(self, winner: str | None, casualties: dict[str, int]) -> None:
        self.runs += 1
        if winner is not None:
            self.wins[winner] += 1
        for side, n in casualties.items():
            self.casualties.setdefault(side, []).append(n)

    def win_rate(self, side: str) -> tuple[float, float, float]:
        """The win rate with its 95% Wilson confidence interval."""
        return wilson(self.wins[side], self.runs)


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float, float]:
    """A proportion and its Wilson score interval (95% by default).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.5, 0.404, 0.596]
    """
    if n == 0:
        return (0.0, 0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def _one(args: tuple[str, str, str, int]) -> tuple[str | None, dict[str, int]]:
    ruleset_id, text, source, seed = args
    played = play_battle(get_ruleset(ruleset_id), text, source, seed)
    assert played.terminal is not None
    return played.terminal.winner, dict(played.terminal.summary.get("casualties", {}))


def simulate(
    ruleset: Ruleset, text: str, source: str, *, runs: int, seed: int, workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> BattleStats:
    """*runs* battles with independent child streams, on a process pool of local cores."""
    state = ruleset.game.load_scenario(text, source)  # validate once, before any worker starts
    stats = BattleStats(tuple(ruleset.game.sides(state)))
    jobs = [(ruleset.id, text, source, s) for s in child_seeds(seed, runs)]
    workers = workers or min(os.cpu_count() or 1, runs)
    if workers <= 1 or runs < 8:
        results = map(_one, jobs)
        for winner, casualties in results:
            stats.add(winner, casualties)
            if progress:
                progress(1)
        return stats
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for winner, casualties in pool.map(_one, jobs, chunksize=max(1, runs // (workers * 8))):
            stats.add(winner, casualties)
            if progress:
                progress(1)
    return stats


def simulate_file(scenario: str, *, runs: int, seed: int, ruleset: str | None = None, workers: int | None = None) -> BattleStats:
    """*runs* AI-vs-AI battles of a scenario file, with independent child streams of *seed*.

    >>> stats = simulate_file("examples/song-of-blades/hero-against-mob.toml", runs=4, seed=7, workers=1)
    >>> stats.runs, sorted(stats.sides)
    (4, ['Goblins', 'Hero'])
    """
    if runs < 1:
        raise InputError("runs", runs, "must be ≥ 1")
    chosen = ruleset_for(scenario, ruleset)
    return simulate(chosen, read_scenario(scenario), scenario, runs=runs, seed=seed, workers=workers)
