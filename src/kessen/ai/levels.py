"""AI levels: what a user names for a side the machine plays (issue 23 §1), and the Decider each one makes.

    greedy            the ruleset's fast one-step AI (for big sweeps)
    search            the search AI (kessen.ai.search) with its default budget
    search:N          the search AI with a budget of N positions per decision
    random            a uniformly random suggested option (a baseline)
    package.module:Name   a plug-in: ``Name(side=..., game=..., seed=...)`` must give an object with
                      ``decide(state, decision)`` returning a suggested option or another legal choice

``--ai LEVEL`` (every machine side) or ``--ai SIDE=LEVEL`` on the command line, ``ai="search"`` or
``ai={"Hero": "search"}`` in Python, ``ai = { Hero = "search" }`` in a sweep file. Every level is deterministic
under the battle's seed: the search counts its budget in positions and draws its playouts' dice from streams seeded
from the battle's seed, the side and the position; random draws from a stream of its own seeded from the battle's
seed and the side. ``search`` plays the budget the ruleset's tactics give (``budget``: what one core searches in
about 0.1 s compiled), else :class:`kessen.ai.search.Budget`'s default.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from kessen.ai.search import Budget, SearchAI
from kessen.ai.tactics import BoardTactics, Tactics
from kessen.core.decisions import Decider, RandomDecider
from kessen.core.engine import Game
from kessen.core.errors import InputError
from kessen.core.names import find_side
from kessen.dice.sampling import stream

AI = str | Mapping[str, str] | None
"""What a caller names as the AI: one level for every machine side, side → level, or None (every side greedy)."""

DEFAULT = "greedy"
"""The level a machine side plays when none is named (see the README: why)."""

MOST_NODES = 1_000_000
_PLUGIN = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")


@dataclass(frozen=True, slots=True)
class Level:
    """One AI level: *name* is ``greedy``, ``search``, ``random`` or ``plugin``; *nodes* a search budget;
    *plugin* the ``package.module:Name`` of a plug-in."""

    name: str
    nodes: int | None = None
    plugin: str | None = None

    def __str__(self) -> str:
        if self.plugin is not None:
            return self.plugin
        return f"{self.name}:{self.nodes}" if self.nodes is not None else self.name


def parse_level(text: object, field: str = "ai") -> Level:
    """The level *text* names, or an InputError naming *field* and the value."""
    if not isinstance(text, str):
        raise InputError(field, text, "must be an AI level: greedy, search, search:N, random or package.module:Name")
    word = text.strip()
    if word in ("greedy", "search", "random"):
        return Level(word)
    if word.startswith("search:"):
        count = word.removeprefix("search:")
        if not count.isdigit() or not 1 <= int(count) <= MOST_NODES:
            raise InputError(field, text, f"search:N takes a budget N of 1 to {MOST_NODES:,} positions")
        return Level("search", nodes=int(count))
    if _PLUGIN.match(word):
        return Level("plugin", plugin=word)
    raise InputError(field, text, "must be an AI level: greedy, search, search:N, random or package.module:Name")


def parse_ai(ai: AI, sides: tuple[str, ...], field: str = "ai") -> dict[str, Level]:
    """The level of every side: *ai* is one level for them all, or side → level (the others play greedy; a side typed
    in any case, issue 24 §7); a side the scenario does not have is an InputError naming it and the one meant."""
    if ai is None:
        return {side: Level(DEFAULT) for side in sides}
    if isinstance(ai, str):
        level = parse_level(ai, field)
        return {side: level for side in sides}
    if not isinstance(ai, Mapping):
        raise InputError(field, ai, "must be a level or a table of side = level")
    levels = {side: Level(DEFAULT) for side in sides}
    for typed, text in ai.items():
        side = find_side(str(typed), sides, f"{field}.{typed}")
        levels[side] = parse_level(text, f"{field}.{typed}")
    return levels


def level_table(ai: AI, sides: tuple[str, ...], field: str = "ai") -> tuple[tuple[str, str], ...]:
    """*ai* checked against the scenario's *sides* (an InputError naming *field* otherwise), as the side → level pairs a
    worker is sent (a plug-in is imported here too, so a bad path fails before any battle)."""
    levels = parse_ai(ai, sides, field)
    for level in levels.values():
        if level.plugin is not None:
            _plugin(level.plugin)
    return tuple((side, str(level)) for side, level in levels.items())


SERVED_NODES = 20_000
"""The largest search budget a web server plays (``search:N``): a request may not keep a core busy for minutes."""


def check_served(ai: object, field: str = "ai") -> None:
    """[DECISION] What a web request may ask for: the built-in levels, search up to :data:`SERVED_NODES`; never a
    plug-in (its path would make the server import any module it names). An InputError naming *field* otherwise."""
    if ai is None:
        return
    named = ai.items() if isinstance(ai, Mapping) else [("", ai)]
    for side, text in named:
        where = f"{field}.{side}" if side else field
        level = parse_level(text, where)
        if level.plugin is not None:
            raise InputError(where, text, "a plug-in AI plays only from the command line or Python, not on the web page")
        if level.nodes is not None and level.nodes > SERVED_NODES:
            raise InputError(where, text, f"the web page searches at most {SERVED_NODES:,} positions a decision")


def parse_assignments(words: list[str], field: str = "--ai") -> str | dict[str, str] | None:
    """``--ai`` as the command line gives it: one ``LEVEL`` for every side, or repeated ``SIDE=LEVEL``."""
    if not words:
        return None
    if len(words) == 1 and "=" not in words[0]:
        return words[0]
    found: dict[str, str] = {}
    for word in words:
        side, equals, level = word.partition("=")
        if not equals or not side.strip():
            raise InputError(field, word, "give one LEVEL for every AI side, or SIDE=LEVEL for each")
        found[side.strip()] = level.strip()
    return found


def tactics_of(game: Game[Any]) -> Tactics:
    """The tactics the ruleset's game gives its search (``StepGame(tactics=...)``), else what any game has."""
    found: Tactics | None = getattr(game, "tactics", None)
    return found if found is not None else BoardTactics(game)


def decider(level: Level, game: Game[Any], side: str, seed: int, *, side_index: int = 0) -> Decider:
    """The Decider of *level* for *side* in a battle of *seed*."""
    tactics = tactics_of(game)
    if level.name == "greedy":
        return tactics.greedy(side)
    if level.name == "search":
        own: Budget = getattr(tactics, "budget", Budget())
        budget = own if level.nodes is None else own.scaled(level.nodes)
        return SearchAI(game, tactics, side, budget, seed)
    if level.name == "random":
        return RandomDecider(stream(np.random.SeedSequence([seed, 1 + side_index])))
    assert level.plugin is not None
    try:
        made: Decider = _plugin(level.plugin)(side=side, game=game, seed=seed)
    except TypeError as error:
        raise InputError("ai", level.plugin, f"must take side=, game= and seed= ({error})") from None
    if not callable(getattr(made, "decide", None)):
        raise InputError("ai", level.plugin, "makes no decide(state, decision)")
    return made


def deciders(levels: Mapping[str, Level], game: Game[Any], sides: tuple[str, ...], seed: int) -> dict[str, Decider]:
    """The Decider of every side *levels* names, for a battle of *seed*."""
    return {side: decider(levels[side], game, side, seed, side_index=sides.index(side)) for side in sides if side in levels}


def _plugin(path: str) -> Any:
    """The class a plug-in path names, or an InputError saying why it cannot be loaded."""
    module_name, _colon, name = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise InputError("ai", path, f"cannot import {module_name} ({error})") from None
    found = getattr(module, name, None)
    if found is None or not callable(found):
        raise InputError("ai", path, f"{module_name} has no class {name}")
    return found
