"""The search AI: depth-limited expectiminimax on the exact chance nodes, within a budget of nodes (issue 23 §2).

At its decision the AI looks ahead over the candidates its ruleset's tactics give (:mod:`kessen.ai.tactics`):

- a **decision** of its own side takes the best candidate, one of another side the worst for it (each side plays
  to win); only the first few candidates are searched below the root, the tactics' most promising first;
- a **chance** node is worth the mean of its outcomes, each weighted by its exact probability from ``rules/``; a node
  with more outcomes than the search can afford is represented by a fixed, evenly spread choice of them
  (:func:`spread`), so the search draws no random numbers at all;
- a decision at the depth limit is worth the tactics' evaluation; the end of the battle is worth a win, a draw or
  a loss; a decision the tactics give one candidate (a forced step, such as allocating hits) is played through and
  costs no depth, so that every line is cut at a real choice, not in the middle of resolving an attack.

The depth is deepened one decision at a time while the budget lasts (iterative deepening); the choice of the
deepest search that finished is played. The budget is counted in positions visited, never in time, and nothing is
drawn at random, so a decision is a pure function of the position: a battle replays the same on any machine, any
number of workers, either engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kessen.ai.tactics import Tactics
from kessen.core.engine import Chance, Decision, Game, Terminal
from kessen.core.records import picklable
from kessen.dice import Dist

WIN = 1000.0
"""What the end of a battle is worth to its winner (the loser gets -WIN, a draw 0); an evaluation lies in -1 .. 1."""

GOLDEN = 0.6180339887498949


@dataclass(frozen=True, slots=True)
class Budget:
    """How much the search AI may look ahead at one decision.

    *nodes*: positions visited (each a call of the game's ``apply``); *root_width*: the candidates weighed at the
    decision itself; *width*: those searched at later decisions; *breadth*: the outcomes of the chance nodes between
    two decisions that are followed (a node with more outcomes than its share is spread); *depth*: the most decisions
    looked ahead.
    """

    nodes: int = 800
    root_width: int = 12
    width: int = 4
    breadth: int = 6
    depth: int = 8

    def scaled(self, nodes: int) -> Budget:
        """This budget with *nodes* positions (``search:N``): wider at the root as the budget grows."""
        extra = max(0, nodes // self.nodes - 1)
        return Budget(nodes, self.root_width + 4 * min(extra, 3), self.width + min(extra, 2), self.breadth, self.depth)


picklable(Budget)  # a native class of the compiled engine: pickled and copied through its init fields (issue 26)


class _OutOfNodes(Exception):
    pass


def spread(dist: Dist[Any], k: int) -> list[tuple[Any, float]]:
    """*k* outcomes of *dist* standing for all of them, each with an equal share of the probability: the outcomes at
    the evenly spread points ``frac(0.5 + j·φ)`` of the cumulative distribution (a fixed, low-discrepancy choice,
    so the same distribution always gives the same outcomes); an outcome met twice gets both shares. A distribution
    of at most *k* outcomes is given whole, with its exact probabilities."""
    total = dist.total
    items = list(dist.items())
    if len(items) <= k:
        return [(o, w / total) for o, w in items]
    cumulative: list[int] = []
    running = 0
    for _o, w in items:
        running += w
        cumulative.append(running)
    chosen: dict[int, float] = {}
    for j in range(k):
        point = ((0.5 + j * GOLDEN) % 1.0) * total
        index = _bisect(cumulative, point)
        chosen[index] = chosen.get(index, 0.0) + 1.0 / k
    return [(items[i][0], share) for i, share in sorted(chosen.items())]


def _bisect(cumulative: list[int], point: float) -> int:
    lo, hi = 0, len(cumulative) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumulative[mid] > point:
            hi = mid
        else:
            lo = mid + 1
    return lo


class SearchAI:
    """A Decider that searches: see the module docstring. Pure: the same position always gets the same choice."""

    def __init__(self, game: Game[Any], tactics: Tactics, side: str, budget: Budget = Budget()) -> None:
        self.game, self.tactics, self.side, self.budget = game, tactics, side, budget
        self._left = 0
        self._cut = False
        self.visited = 0
        """Positions visited by the last decision (for the benchmark)."""

    def decide(self, state: Any, decision: Decision) -> Any:
        candidates = list(self.tactics.candidates(state, decision, self.budget.root_width))
        if len(candidates) <= 1:
            return candidates[0] if candidates else decision.options[0]
        self._left = self.budget.nodes
        best = candidates[0]
        for depth in range(1, self.budget.depth + 1):
            self._cut = False
            try:
                values = [self._after(state, c, depth - 1, float(self.budget.breadth)) for c in candidates]
            except _OutOfNodes:
                break
            best = candidates[max(range(len(candidates)), key=lambda i: (values[i], -i))]
            if not self._cut:
                break  # every line reached the end of the battle: looking deeper changes nothing
        self.visited = self.budget.nodes - self._left
        return best

    def _after(self, state: Any, choice: Any, depth: int, breadth: float) -> float:
        """The worth of *state* after *choice* (a decision's option or a chance outcome)."""
        self._left -= 1
        if self._left < 0:
            raise _OutOfNodes
        child, _events = self.game.apply(state, choice)
        return self._worth(child, depth, breadth)

    def _worth(self, state: Any, depth: int, breadth: float) -> float:
        node = self.game.node(state)
        if isinstance(node, Terminal):
            if node.winner is None:
                return 0.0
            return WIN if node.winner == self.side else -WIN
        if isinstance(node, Chance):
            picks = spread(node.dist, max(1, int(breadth)))
            share = breadth / len(picks)
            return sum(p * self._after(state, outcome, depth, share) for outcome, p in picks)
        candidates: Sequence[Any] = self.tactics.candidates(state, node, self.budget.width)
        if len(candidates) == 1:  # a forced step (allocating hits, say) is no choice: it costs no depth
            return self._after(state, candidates[0], depth, breadth)
        if depth <= 0:
            self._cut = True
            return self.tactics.evaluate(state, self.side)
        return self._choose(state, node, depth, candidates)

    def _choose(self, state: Any, decision: Decision, depth: int, candidates: Sequence[Any]) -> float:
        fresh = float(self.budget.breadth)
        values = [self._after(state, c, depth - 1, fresh) for c in candidates]
        return max(values) if decision.player == self.side else min(values)
