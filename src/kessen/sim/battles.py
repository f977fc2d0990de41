"""Playing one battle, and many battles of one scenario on local cores or Dask, with win rates and intervals."""

from __future__ import annotations

import math
from collections import Counter
from contextlib import closing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kessen.ai.levels import AI, level_table
from kessen.core.errors import InputError
from kessen.dice import SEED_LIMIT
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.rulesets import Ruleset
from kessen.sim.tally import Tally

if TYPE_CHECKING:
    from kessen.sim.executors import Executor



def check_seed(seed: object, field: str = "seed") -> int:
    """*seed* if it is a whole number from 0 to 2**64 - 1, else an InputError naming *field*."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InputError(field, seed, "must be a whole number")
    if not 0 <= seed < SEED_LIMIT:
        raise InputError(field, seed, "must be from 0 to 2**64 - 1")
    return seed


@dataclass
class BattleStats:
    """Results of many battles of one scenario: the tally of every battle finished, by side."""

    sides: tuple[str, ...]
    tally: Tally
    asked: int
    """How many battles were asked for (more than ``runs`` when the run was interrupted)."""

    @property
    def runs(self) -> int:
        """Battles finished."""
        return self.tally.battles

    @property
    def wins(self) -> Counter[str]:
        return self.tally.wins

    @property
    def draws(self) -> int:
        return self.tally.draws

    @property
    def casualties(self) -> dict[str, Counter[Any]]:
        """Side → {casualties: battles}."""
        return self.tally.per_side.get("casualties", {})

    def win_rate(self, side: str) -> tuple[float, float, float]:
        """The win rate with its 95% Wilson confidence interval."""
        return wilson(self.wins[side], self.runs)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped the battles: ``partial`` holds the ones that finished (no worker is left running)."""

    def __init__(self, partial: Any) -> None:
        super().__init__()
        self.partial = partial


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


def simulate(
    ruleset: Ruleset, text: str, source: str, *, runs: int, seed: int, workers: int | None = None,
    scheduler: str | None = None, progress: Callable[[int], None] | None = None, executor: Executor | None = None,
    ai: AI = None, played: Mapping[int, Tally] | None = None, on_chunk: Callable[[int, Tally], None] | None = None,
) -> BattleStats:
    """*runs* AI-vs-AI battles of a scenario's text, each side played by its level in *ai* (``kessen.ai.levels``), in chunks seeded like cell 0 of a sweep (so a sweep of this
    scenario alone, with the same runs and seed, plays the same battles); *progress* hears each chunk's battles.
    *played* holds the tallies of chunks (by index) an earlier run finished: they are counted, not played again;
    *on_chunk* hears each chunk's index and tally as it finishes (a server keeps them, to go on after a restart).

    The chunks run on *executor* if given (it is closed at the end), else on ``--workers``/``--scheduler``'s.
    Ctrl-C raises :class:`Interrupted` with the battles finished so far.
    """
    from kessen.sim.chunks import ChunkJob, battle_seeds, chunk_plan
    from kessen.sim.executors import make_executor
    from kessen.sim.runner import play_all

    try:
        check_runs(runs)
        check_seed(seed)
        state = ruleset.game.load_scenario(text, source)  # validate once, before any worker starts
        levels = level_table(ai, tuple(ruleset.game.sides(state)))
    except InputError:
        if executor is not None:  # a given executor is closed however the run ends
            executor.close()
        raise
    stats = BattleStats(tuple(ruleset.game.sides(state)), Tally(), runs)
    done = dict(played or {})
    for tally in done.values():
        stats.tally.merge(tally)
    plan = [c for c in chunk_plan(0, runs) if c.index not in done]
    jobs = (ChunkJob((0, c.index), ruleset.id, text, source, battle_seeds(seed, c), levels) for c in plan)

    def finished(key: tuple[int, int], tally: Tally) -> None:
        stats.tally.merge(tally)
        if on_chunk is not None:
            on_chunk(key[1], tally)
        if progress is not None:
            progress(tally.battles)

    try:
        with closing(executor or make_executor(workers=workers, scheduler=scheduler, jobs=len(plan), rulesets=(ruleset.id,))) as chosen:
            play_all(jobs, chosen, finished)
    except KeyboardInterrupt:
        raise Interrupted(stats) from None
    return stats


def check_runs(runs: object, field: str = "runs") -> int:
    """*runs* if it is a whole number of battles from 1 to 10,000,000."""
    if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= 10_000_000:
        raise InputError(field, runs, "must be a whole number from 1 to 10,000,000")
    return runs


def simulate_file(
    scenario: str, *, runs: int, seed: int, ruleset: str | None = None, workers: int | None = None,
    scheduler: str | None = None,
) -> BattleStats:
    """*runs* AI-vs-AI battles of a scenario file, with independent seeds drawn from *seed*.

    >>> stats = simulate_file("examples/song-of-blades/hero-against-mob.toml", runs=4, seed=7, workers=1)
    >>> stats.runs, sorted(stats.sides)
    (4, ['Goblins', 'Hero'])
    """
    check_runs(runs)
    check_seed(seed)
    chosen = ruleset_for(scenario, ruleset)
    return simulate(chosen, read_scenario(scenario), scenario, runs=runs, seed=seed, workers=workers, scheduler=scheduler)
