"""Shared machinery: benchmark cases, best-of-n timing, cold caches, exact comparison, rich tables."""

from __future__ import annotations

import functools
import importlib
import sys
import timeit
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.table import Table

from kessen.dice import Dist
from kessen.rulesets import outcome_fields

# --- the cases a ruleset module supplies --------------------------------------------------------


@dataclass(frozen=True)
class OddsCase:
    """One exact-odds question, answered by kessen and by a reference, timed side by side.

    *kessen* and *reference* each answer the question from scratch; *check* receives both answers
    and raises ``AssertionError`` unless they give exactly the same probabilities.
    """

    ruleset: str
    name: str
    kessen: Callable[[], Any]
    reference: Callable[[], Any]
    check: Callable[[Any, Any], None]
    reference_name: str = "icepool"
    procedure: str = ""
    """The procedure asked, and *data* its input as a caller gives it: the API call ``kessen.odds(ruleset,
    procedure, data)`` is timed too, validation included."""
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SamplingCase:
    """A cached distribution to draw batches from (its sampler is built before timing)."""

    name: str
    dist: Dist[Any]


@dataclass(frozen=True)
class LimitCase:
    """A valid input at the spec's limits: one procedure of one ruleset and its JSON input."""

    ruleset: str
    procedure: str
    name: str
    input: Mapping[str, Any]


@dataclass(frozen=True)
class Suite:
    """What one ruleset's benchmark module supplies (every part optional)."""

    ruleset: str
    odds: tuple[OddsCase, ...] = ()
    sampling: tuple[SamplingCase, ...] = ()
    limits: tuple[LimitCase, ...] = ()
    sweep: Callable[[int, int], Iterable[tuple[str, Mapping[str, Any]]]] | None = field(default=None)
    """``sweep(seed, n)``: *n* random valid inputs as (procedure, input) pairs, for the limits sweep."""
    references: Mapping[str, Callable[[Mapping[str, Any]], Any]] = field(default_factory=dict)
    """procedure name → the reference answering its normalised input; the sweep checks it against kessen."""
    check: Callable[[Any, Any], None] | None = None
    """How the sweep compares kessen's answer with a reference's (raises ``AssertionError``)."""


def module_name(ruleset_id: str) -> str:
    """The benchmark module of a ruleset: its package name under ``benchmarks`` (``armies-clash`` → ``armies_clash``)."""
    return "benchmarks." + ruleset_id.replace("-", "_")


def load_suite(ruleset_id: str) -> Suite | None:
    """The ruleset's benchmark suite, or None while ``benchmarks/<package>.py`` does not exist.

    The hook for a new ruleset: add that module with a ``suite() -> Suite`` function; nothing else changes.
    """
    name = module_name(ruleset_id)
    try:
        module: ModuleType = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            return None
        raise
    suite: Suite = module.suite()
    return suite


# --- timing ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """How hard to time: best of *repeat* runs, each of enough calls to last *min_run* seconds."""

    repeat: int = 5
    min_run: float = 0.2


def _calls_per_run(timer: timeit.Timer, min_run: float) -> int:
    """Calls per timed run, chosen like ``timeit.Timer.autorange`` (1, 2, 5, 10, 20, 50, ...)."""
    number = 1
    while True:
        for factor in (1, 2, 5):
            if timer.timeit(number * factor) >= min_run:
                return number * factor
        number *= 10


def best_times(fns: Sequence[Callable[[], object]], settings: Settings) -> list[float]:
    """Seconds per call of each of *fns*: the best of ``settings.repeat`` runs, in the manner of ``timeit``.

    The runs are interleaved (one run of each function per round) so that a burst of load from other
    processes on the machine falls on every side of a comparison alike. Each run lasts at least
    ``settings.min_run`` seconds; garbage collection is off while timing, as in ``timeit``.
    """
    timers = [timeit.Timer(fn) for fn in fns]
    calls = [_calls_per_run(timer, settings.min_run) for timer in timers]
    best = [float("inf")] * len(timers)
    for _ in range(settings.repeat):
        for i, (timer, number) in enumerate(zip(timers, calls)):
            best[i] = min(best[i], timer.timeit(number) / number)
    return best


def _lru_caches(prefixes: tuple[str, ...]) -> list[Any]:
    found: list[Any] = []
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(prefixes):
            continue
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                found.append(value)
    return found


def cold(fn: Callable[[], Any], *packages: str) -> Callable[[], Any]:
    """*fn* preceded by clearing every ``functools.lru_cache`` in the named packages.

    So a timed call answers the question from scratch even if a ruleset memoises inner
    distributions (plain dict caches cannot be seen and are not cleared).
    """
    prefixes = tuple(packages)
    # Looked up now, outside any timed call, and again only when a module was imported since.
    found, seen_modules = _lru_caches(prefixes), len(sys.modules)

    def run() -> Any:
        nonlocal found, seen_modules
        if len(sys.modules) != seen_modules:
            found, seen_modules = _lru_caches(prefixes), len(sys.modules)
        for cache in found:
            cache.cache_clear()
        return fn()

    return run


# --- exact comparison -----------------------------------------------------------------------------


def kessen_table(dist: Dist[Any]) -> dict[tuple[Any, ...], Fraction]:
    """A kessen distribution as {outcome field values in order: probability}."""
    return {tuple(outcome_fields(o).values()): p for o, p in dist.probabilities().items()}


def icepool_table(die: Any) -> dict[tuple[Any, ...], Fraction]:
    """An icepool die as {outcome as a tuple: probability}."""
    total = die.denominator()
    return {
        (o if isinstance(o, tuple) else (o,)): Fraction(q, total) for o, q in die.items() if q
    }


def same_probabilities(kessen_answer: Dist[Any], reference_answer: Any) -> None:
    """Raise ``AssertionError`` unless kessen's distribution and the icepool die agree exactly."""
    ours, theirs = kessen_table(kessen_answer), icepool_table(reference_answer)
    if ours != theirs:
        keys = sorted(set(ours) | set(theirs), key=repr)
        lines = [f"  {k}: kessen {ours.get(k, 0)}, reference {theirs.get(k, 0)}" for k in keys if ours.get(k) != theirs.get(k)]
        raise AssertionError("the reference disagrees with kessen:\n" + "\n".join(lines))


# --- output ---------------------------------------------------------------------------------------


def console() -> Console:
    """A console wide enough that the tables never wrap when the output is piped to a file."""
    out = Console()
    return out if out.is_terminal else Console(width=150)


def table(title: str, columns: Iterable[tuple[str, str]], rows: Iterable[Iterable[str]], caption: str = "") -> Table:
    """A rich table; each column is (header, justify)."""
    result = Table(title=title, caption=caption or None, title_justify="left", caption_justify="left")
    for header, justify in columns:
        result.add_column(header, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        result.add_row(*row)
    return result


def seconds(value: float) -> str:
    """A duration with a unit a reader takes in at a glance."""
    if value < 1e-3:
        return f"{value * 1e6:,.1f} µs"
    if value < 1:
        return f"{value * 1e3:,.2f} ms"
    return f"{value:,.2f} s"


def ratio(value: float) -> str:
    return f"{value:,.2f}×"


def verdict(ok: bool) -> str:
    return "[green]yes[/green]" if ok else "[red]no[/red]"
