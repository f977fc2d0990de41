"""``kessen.simulate``, the public call the CLI and the web page use to play many battles (issue 27 §5): a progress
hook, an executor of the caller's, a scenario given as text, and the types it gives back exported from ``kessen``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import kessen
from kessen.core.errors import InputError
from kessen.sim.executors import InlineExecutor
from kessen.sim.tally import Tally

SKIRMISH = Path(__file__).resolve().parents[2] / "examples" / "song-of-blades" / "hero-against-mob.toml"


class Counted(InlineExecutor):
    """Plays in this process and counts the jobs it ran and whether it was closed."""

    def __init__(self) -> None:
        self.jobs, self.closed = 0, False

    def run(self, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
        for job in jobs:
            self.jobs += 1
            yield fn(job)

    def close(self) -> None:
        self.closed = True


def test_simulate_reports_progress_on_the_callers_executor_and_closes_it() -> None:
    """Every battle is heard by the progress hook (chunk by chunk); the executor given plays every chunk and is closed
    at the end; the result is the one the default executor gives for the same seed."""
    heard: list[int] = []
    executor = Counted()
    stats = kessen.simulate(str(SKIRMISH), runs=6, seed=11, progress=heard.append, executor=executor)
    assert isinstance(stats, kessen.BattleStats)
    assert sum(heard) == 6 == stats.runs and executor.jobs == len(heard) and executor.closed
    alone = kessen.simulate(str(SKIRMISH), runs=6, seed=11, workers=1)
    assert (alone.wins, alone.draws, alone.casualties) == (stats.wins, stats.draws, stats.casualties)


def test_simulate_goes_on_from_the_chunks_an_earlier_run_finished() -> None:
    """Issue 27 §5 (what the web server's simulations need): each finished chunk is heard with its index and tally;
    given the chunks a stopped run kept, a run plays only the others and counts the kept ones, so the result is the
    whole run's."""
    whole: dict[int, Tally] = {}
    stats = kessen.simulate(str(SKIRMISH), runs=6, seed=11, workers=1, on_chunk=whole.__setitem__)
    assert sorted(whole) == [0, 1, 2, 3] and sum(t.battles for t in whole.values()) == 6
    kept = {0: whole[0], 2: whole[2]}
    heard: dict[int, Tally] = {}
    executor = Counted()
    rest = kessen.simulate(str(SKIRMISH), runs=6, seed=11, executor=executor, played=kept, on_chunk=heard.__setitem__)
    assert sorted(heard) == [1, 3] and executor.jobs == 2 and all(heard[i] == whole[i] for i in heard)
    assert (rest.runs, rest.wins, rest.draws, rest.casualties) == (stats.runs, stats.wins, stats.draws, stats.casualties)


def test_simulate_a_scenario_given_as_text_names_it_by_the_given_source() -> None:
    """A scenario's text plays as its file does; its ruleset is its own ``ruleset`` key; an error names the source."""
    text = SKIRMISH.read_text(encoding="utf-8")
    from_text = kessen.simulate("upload.toml", text=text, runs=3, seed=5, workers=1)
    from_file = kessen.simulate(str(SKIRMISH), runs=3, seed=5, workers=1)
    assert (from_text.sides, from_text.wins) == (from_file.sides, from_file.wins)
    with pytest.raises(InputError, match=r"^ruleset: .*upload.toml is a song-of-blades scenario"):
        kessen.simulate("upload.toml", text=text, ruleset="legions", runs=3, seed=5)
    executor = Counted()
    with pytest.raises(InputError, match="^upload.toml"):
        kessen.simulate("upload.toml", text="name = 3\n[[", runs=3, seed=5, executor=executor)
    assert executor.closed and executor.jobs == 0


def test_the_types_a_user_gets_back_are_kessens() -> None:
    """Issue 27 §5: what ``Match`` and ``simulate`` give back is importable from ``kessen`` itself."""
    from kessen.core.engine import Terminal
    from kessen.match import Option, PendingDecision
    from kessen.sim.battles import BattleStats

    assert (kessen.Terminal, kessen.Option, kessen.PendingDecision, kessen.BattleStats) == (Terminal, Option, PendingDecision, BattleStats)
    assert {"Terminal", "Option", "PendingDecision", "BattleStats"} <= set(kessen.__all__)
