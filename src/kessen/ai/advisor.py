"""The advisor: each option's chance to win, and to draw, if it is taken and both sides then play on as a given AI
plays (issue 23 §3).

Where the rest of the battle is small enough to walk whole (a song-of-blades duel to the end, a battlehost fight of
one against one), the chances are **exact**: every chance outcome weighted by its exact probability, every decision
made as that AI makes it (a random side weighs each of its options alike), summed as fractions. There the advisor
also gives the option's worth under best play for both sides (expectiminimax over every suggested option: a win
counts 1, a draw 1/2). Otherwise each option is played out to the end many times from seeded streams, and the
chance comes with its 95% interval and the number of playouts. The same position, AI, playouts and seed give the
same advice.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

import numpy as np

from kessen.ai.levels import Level, deciders
from kessen.core.decisions import Decider, RandomDecider
from kessen.core.engine import Chance, Decision, Game, Terminal
from kessen.core.replay import play

V = TypeVar("V")

EXACT_POSITIONS = 20_000
"""The most positions the advisor walks to give exact chances; a larger rest of the battle is played out."""

_DEEPEST = 300


@dataclass(frozen=True, slots=True)
class Chances:
    """What one option is worth to the side that decides.

    *win* and *draw* are Fractions when *exact*, else the share of *playouts* won and drawn, with *low* .. *high*
    the 95% Wilson interval of the win chance; *best* is the option's worth under best play for both sides (a win
    1, a draw 1/2), where the battle is small enough to solve, else None.
    """

    notation: str
    win: Fraction | float
    draw: Fraction | float
    exact: bool
    playouts: int
    low: float
    high: float
    best: Fraction | None = None


class _TooBig(Exception):
    pass


def advise(
    game: Game[Any],
    state: Any,
    decision: Decision,
    levels: Mapping[str, Level],
    *,
    seed: int,
    playouts: int = 100,
    exact_positions: int = EXACT_POSITIONS,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[Chances]:
    """The chances of every suggested option of *decision*, for its player, with *levels* playing every side after
    it. *on_progress(done, total)* counts the work in playouts, *total* being options × *playouts* (an option found
    exact counts as its playouts): it is called after every playout, after every option, and every
    :data:`PROGRESS_POSITIONS` positions an exact walk visits; an exception it raises ends the advice (a caller
    cancels so)."""
    side = decision.player
    sides = tuple(game.sides(state))
    found: list[Chances] = []
    total = len(decision.options) * playouts
    walkable = True
    for index, option in enumerate(decision.options):
        notation = game.notation(state, decision, option)
        child, _events = game.apply(state, option)
        told = _Told(on_progress, index * playouts, total)
        exact = _exact_chances(game, child, side, levels, sides, seed, exact_positions, told) if walkable else None
        walkable = exact is not None  # one option's rest too big to walk: the others' are too, as a rule
        if exact is not None:
            win, draw = exact
            best = _best_play(game, child, side, exact_positions, told)
            found.append(Chances(notation, win, draw, True, 0, float(win), float(win), best))
        else:
            found.append(_played_out(game, child, side, levels, sides, seed, index, playouts, notation, told))
        told(playouts)
    return found


PROGRESS_POSITIONS = 1_000
"""How often (in positions visited) an exact walk tells its progress, unchanged, so that a caller may stop it."""


@dataclass(frozen=True, slots=True)
class _Told:
    """The progress of one option: *before* playouts were done before it, of *total*."""

    on_progress: Callable[[int, int], None] | None
    before: int
    total: int

    def __call__(self, done: int = 0) -> None:
        if self.on_progress is not None:
            self.on_progress(self.before + done, self.total)


def _played_out(
    game: Game[Any], state: Any, side: str, levels: Mapping[str, Level], sides: tuple[str, ...], seed: int, index: int,
    playouts: int, notation: str, told: _Told,
) -> Chances:
    from kessen.sim.battles import wilson

    wins = draws = 0
    for j in range(playouts):
        battle_seed = int(np.random.SeedSequence([seed, index, j]).generate_state(1, np.uint64)[0])
        played = play(game, state, deciders(levels, game, sides, battle_seed), battle_seed)
        assert played.terminal is not None
        wins += played.terminal.winner == side
        draws += played.terminal.winner is None
        told(j + 1)
    rate, low, high = wilson(wins, playouts)
    return Chances(notation, rate, draws / playouts, False, playouts, low, high)


def _exact_chances(
    game: Game[Any], state: Any, side: str, levels: Mapping[str, Level], sides: tuple[str, ...], seed: int, most: int,
    told: _Told,
) -> tuple[Fraction, Fraction] | None:
    """The exact chances to win and to draw from *state* with *levels* deciding, or None if the rest of the battle
    is larger than *most* positions (or an AI in it is not a pure function of the position)."""
    if any(level.name == "plugin" for level in levels.values()):
        return None
    chosen = deciders(levels, game, sides, seed)
    walk: _Walk[tuple[Fraction, Fraction]] = _Walk(game, most, told)

    def chances(state: Any, depth: int) -> tuple[Fraction, Fraction]:
        known = walk.memo.get(state)
        if known is not None:
            return known
        node = walk.visit(state, depth)
        if isinstance(node, Terminal):
            found = (Fraction(node.winner == side), Fraction(node.winner is None))
        elif isinstance(node, Chance):
            found = _mean((p, chances(walk.apply(state, o), depth + 1)) for o, p in node.dist.probabilities().items())
        else:
            decider: Decider = chosen[node.player]
            if isinstance(decider, RandomDecider):
                share = Fraction(1, len(node.options))
                found = _mean((share, chances(walk.apply(state, o), depth + 1)) for o in node.options)
            else:
                found = chances(walk.apply(state, decider.decide(state, node)), depth + 1)
        walk.memo[state] = found
        return found

    return walk.run(lambda: chances(state, 0))


def _best_play(game: Game[Any], state: Any, side: str, most: int, told: _Told) -> Fraction | None:
    """*side*'s score from *state* when both sides choose the best suggested option for themselves at every
    decision (expectiminimax; a win 1, a draw 1/2, a loss 0), or None if the rest is larger than *most* positions."""
    walk: _Walk[Fraction] = _Walk(game, most, told)

    def worth(state: Any, depth: int) -> Fraction:
        known = walk.memo.get(state)
        if known is not None:
            return known
        node = walk.visit(state, depth)
        if isinstance(node, Terminal):
            found = Fraction(1, 2) if node.winner is None else Fraction(node.winner == side)
        elif isinstance(node, Chance):
            found = sum((p * worth(walk.apply(state, o), depth + 1) for o, p in node.dist.probabilities().items()), Fraction(0))
        else:
            values = [worth(walk.apply(state, o), depth + 1) for o in node.options]
            found = max(values) if node.player == side else min(values)
        walk.memo[state] = found
        return found

    return walk.run(lambda: worth(state, 0))


def _mean(parts: Any) -> tuple[Fraction, Fraction]:
    win = draw = Fraction(0)
    for p, (w, d) in parts:
        win += p * w
        draw += p * d
    return win, draw


class _Walk(Generic[V]):
    """The bookkeeping of an exact walk: positions seen, the limit, the memo of positions already worked out, and
    the progress told every :data:`PROGRESS_POSITIONS` positions."""

    def __init__(self, game: Game[Any], most: int, told: _Told) -> None:
        self.game, self.most, self.seen, self.told = game, most, 0, told
        self.memo: dict[Any, V] = {}

    def visit(self, state: Any, depth: int) -> Any:
        self.seen += 1
        if self.seen > self.most or depth > _DEEPEST:
            raise _TooBig
        if self.seen % PROGRESS_POSITIONS == 0:
            self.told()
        return self.game.node(state)

    def apply(self, state: Any, choice: Any) -> Any:
        return self.game.apply(state, choice)[0]

    def run(self, work: Callable[[], V]) -> V | None:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * _DEEPEST + 200))
        try:
            return work()
        except _TooBig:
            return None
        finally:
            sys.setrecursionlimit(limit)
