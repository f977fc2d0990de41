"""The search AI: greedy playouts from each candidate, the candidates halved on their results (issue 23 §2).

At a decision of its own the AI asks its ruleset's tactics (:mod:`kessen.ai.tactics`) for the candidates worth
weighing, greedy's choice first. Each candidate is played out: the candidate taken, then both sides play on as the
greedy AI plays, every chance drawn from its exact distribution, until the battle ends (a win is worth 1, a loss
-1, a draw 0) or until *horizon* more decisions were taken, where the tactics' evaluation judges the position.
Candidates that lead to the same position count once. Greedy's choice is played out throughout; the rivals are
compared by the mean of the paired differences between their playouts and greedy's, and the worse half of them is
dropped, round after round, until one is left (sequential halving: the budget goes to the rivals still in the
race). The j-th playout of every candidate draws from the same stream (common random numbers), so that candidates
are compared on the same dice where their lines meet the same rolls, and a difference is the choice's, not the
dice's; with ``stratify`` the first chance of the j-th playouts is read at the j-th point of a low-discrepancy
sequence, so a few playouts cover its outcomes as their probabilities say. The last rival is taken only if its gain
over greedy's choice exceeds ``sure`` standard errors (:data:`SURE` by default). With ``settle`` a playout past its
horizon goes on, up to that many decisions more, to the next decision of the searching side of the kind being
weighed, so that every candidate is judged at the same point of play (the same side about to act).

This is policy improvement over greedy (a rollout algorithm), not a deep tree: the battles turn on dice far more
than on any one choice (measured on a song-of-blades mirror: candidates differ by a few hundredths of a game, one
playout's dice by tenths), so the search leaves greedy only where its playouts show a gain, and otherwise plays as
greedy does; it gains where one step's exact odds mislead (a charge that leaves a model alone, a move that walks into
a wall, a target whose loss does not show until the Morale check).

The budget is counted in positions visited (the playouts' steps, each as if the game's ``apply`` made it, though a
step already taken at the same position is looked up, not made again), never in time; the streams are seeded
from the battle's seed, the side and a digest of the position, so a decision is a pure function of the position
and the seed: a battle replays the same on any machine, any number of workers, either engine, and a resumed match
goes on as the uninterrupted one would.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from kessen.ai.tactics import Tactics
from kessen.core.decisions import Decider
from kessen.core.engine import Chance, Decision, Game, Terminal
from kessen.core.records import picklable
from kessen.dice.sampling import draw, stream

GREEDY_TRUST = 0.0
"""What another candidate must gain over greedy's own choice (the mean of the paired differences of their playouts,
on the -1 .. 1 scale), beyond :data:`SURE` standard errors, to be taken."""

SURE = 1.0
"""How many standard errors of the paired differences a candidate's gain over greedy's choice must exceed: the
search leaves greedy's choice only where the playouts show it is better, not where the dice happened to favour
another (most candidates differ by a few hundredths, the dice of a playout by tenths)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much the search AI may look ahead at one decision.

    *nodes*: positions visited (each a step of the game's ``apply``) by all the playouts of the decision; *width*:
    the candidates weighed; *horizon*: the decisions a playout takes before the evaluation judges where it stands;
    *sure*: the standard errors a rival's gain must exceed; *stratify*: the playouts' first chances spread over its
    outcomes; *settle*: the decisions a playout may go on past its horizon to reach the search's own point of play.
    """

    nodes: int = 800
    width: int = 4
    horizon: int = 12
    sure: float = SURE
    stratify: bool = False
    settle: int = 0

    def scaled(self, nodes: int) -> Budget:
        """This budget with *nodes* positions (``search:N``): more candidates weighed as the budget grows."""
        extra = max(0, nodes // self.nodes - 1)
        return Budget(nodes, self.width + 2 * min(extra, 3), self.horizon, self.sure, self.stratify, self.settle)


picklable(Budget)  # a native class of the compiled engine: pickled and copied through its init fields (issue 26)


class SearchAI:
    """A Decider that searches: see the module docstring. The same position and seed always get the same choice."""

    def __init__(self, game: Game[Any], tactics: Tactics, side: str, budget: Budget = Budget(), seed: int = 0) -> None:
        self.game, self.tactics, self.side, self.budget, self.seed = game, tactics, side, budget, seed
        self._greedy: dict[str, Decider] = {}
        self.visited = 0
        """Positions visited by the last decision (for the benchmark)."""
        self._kind = ""
        self._seen: dict[Any, _Seen] = {}
        """What the playouts of the decision in hand found at each position they visited (see :class:`_Seen`)."""
        self._earlier: dict[Any, _Seen] = {}
        """The same of the decision before: the next decision's playouts pass some of its positions again."""
        self._by_id: dict[int, tuple[Any, _Seen]] = {}
        """``_seen`` by the position object itself: a playout that walks a known line meets the very objects the
        table holds, found without hashing a whole position (the other objects are kept with it: ids stay theirs)."""

    def decide(self, state: Any, decision: Decision) -> Any:
        try:
            return self._decide(state, decision)
        finally:
            if self._seen:  # kept through the next decision that searches (its playouts meet a sixth of its
                self._earlier, self._seen, self._by_id = self._seen, {}, {}  # positions again): tables stay small

    def _decide(self, state: Any, decision: Decision) -> Any:
        candidates, children, applied = self._distinct(state, decision)
        self.visited = applied
        if len(candidates) <= 1:
            return candidates[0]
        base = self._seed_of(state, decision)
        self._kind = decision.kind
        results: list[list[float]] = [[] for _ in candidates]
        rivals = list(range(1, len(candidates)))
        left = self.budget.nodes - applied
        rounds = max(1, math.ceil(math.log2(len(rivals) + 1)))
        certain = False
        for done in range(rounds):
            share = left // (rounds - done)
            spent = 0
            while spent < share or not results[0]:
                j = len(results[0])
                row = 0
                first = _spread(j, base) if self.budget.stratify else -1.0
                for arm in (0, *rivals):
                    value, cost = self._playout(children[arm], np.random.SeedSequence([base, j]), first)
                    results[arm].append(value)
                    row += cost
                spent += row
                if row == 0:  # every line in the race ends where it starts: one playout each is its exact worth
                    certain = True
                    break
            left -= spent
            rivals.sort(key=lambda arm: (-_gain(results[arm], results[0]), arm))
            rivals = rivals[: max(1, len(rivals) // 2)]
            if left <= 0 or certain:
                break
        self.visited = self.budget.nodes - left
        best = rivals[0]
        gain = _gain(results[best], results[0])
        error = 0.0 if certain else _error(results[best], results[0])
        return candidates[best] if gain > GREEDY_TRUST + self.budget.sure * error else candidates[0]

    def _distinct(self, state: Any, decision: Decision) -> tuple[list[Any], list[Any], int]:
        """The tactics' candidates that lead to different positions (the first of those that lead to the same one),
        with the position each leads to, and the positions visited to find them."""
        candidates = list(self.tactics.candidates(state, decision, self.budget.width)) or [decision.options[0]]
        if len(candidates) == 1:
            return candidates, [], 0
        kept: list[Any] = []
        children: list[Any] = []
        for candidate in candidates:
            child = self._apply(state, candidate)
            if child not in children:
                kept.append(candidate)
                children.append(child)
        return kept, children, len(candidates)

    def _seed_of(self, state: Any, decision: Decision) -> int:
        """A number from the battle's seed, the side and the position (its models as the board shows them, and the
        decision): stable across processes and hash seeds, unlike ``hash``."""
        board = self.game.board(state)
        text = json.dumps([board.get("models"), decision.player, decision.kind, decision.actor, len(decision.options)],
                          sort_keys=True, default=str)
        digest = hashlib.blake2b(f"{self.seed}|{self.side}|{text}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def _greedy_of(self, side: str) -> Decider:
        found = self._greedy.get(side)
        if found is None:
            found = self._greedy[side] = self.tactics.greedy(side)
        return found

    def _playout(self, start: Any, seed: np.random.SeedSequence, first: float) -> tuple[float, int]:
        """The worth to the side of the position *start* (a candidate taken), both sides then playing on greedily
        for *horizon* decisions, and the positions visited. The first chance is drawn at the quantile *first*
        where it is 0 .. 1 (the j-th playouts spread over its outcomes), from the stream otherwise."""
        rng = stream(seed)
        current = start
        visited, decisions = 0, 0
        while True:
            seen = self._seen_at(current)
            node = seen.node
            if isinstance(node, Terminal):
                return (0.0 if node.winner is None else 1.0 if node.winner == self.side else -1.0), visited
            if isinstance(node, Chance):
                if first >= 0.0:
                    choice = _quantile(node.dist, first)
                    first = -1.0
                else:
                    choice = draw(node.dist, rng)
            else:
                assert isinstance(node, Decision)
                if decisions >= self.budget.horizon and (
                        decisions >= self.budget.horizon + self.budget.settle
                        or (node.player == self.side and node.kind == self._kind)):
                    worth = seen.worth
                    if worth is None:
                        worth = seen.worth = self.tactics.evaluate(current, self.side)
                    return worth, visited
                decisions += 1
                choice = seen.greedy
                if choice is _UNASKED:
                    choice = seen.greedy = self._greedy_of(node.player).decide(current, node)
            current = self._apply(current, choice, seen)
            visited += 1

    def _seen_at(self, state: Any) -> _Seen:
        """What the decision's playouts found at *state* so far: its node at once, the rest as they ask."""
        known = self._by_id.get(id(state))
        if known is not None and known[0] is state:
            return known[1]
        seen = self._seen.get(state)
        if seen is None:
            seen = self._earlier.get(state)
            if seen is None:
                seen = _Seen(self.game.node(state))
            self._seen[state] = seen
        self._by_id[id(state)] = (state, seen)
        return seen

    def _apply(self, state: Any, choice: Any, seen: _Seen | None = None) -> Any:
        """The position ``apply`` makes of *state* and *choice*, worked out once per decision: the game's ``apply``
        is pure, and the playouts of a decision pass the same positions again and again (every playout of a
        candidate takes the same choices up to its first roll; the rolls repeat; 70% of an armies-clash decision's
        positions were visited before). It counts as a position visited each time, as the budget says."""
        if seen is None:
            seen = self._seen_at(state)
        try:
            child = seen.children.get(choice)
        except TypeError:  # a choice that cannot be a key (the engine's options are records, which can)
            child, _events = self.game.apply(state, choice)
            return child
        if child is None:
            child, _events = self.game.apply(state, choice)
            seen.children[choice] = child
        return child


_UNASKED: Any = object()
"""The greedy choice of a position not yet asked for."""


class _Seen:
    """What the playouts of one decision found at a position: its node, the greedy AI's choice there (asked once:
    it is a function of the position, as the greedy AIs are), the position each choice taken there led to, and the
    tactics' evaluation of it for the searching side (worked out once: a function of the position too; a quarter of
    a legions decision's playouts end on a position another one ended on)."""

    __slots__ = ("node", "greedy", "children", "worth")

    def __init__(self, node: Any) -> None:
        self.node = node
        self.greedy: Any = _UNASKED
        self.children: dict[Any, Any] = {}
        self.worth: float | None = None


def _gain(values: list[float], greedy: list[float]) -> float:
    """The mean of the paired differences between a candidate's playouts and greedy's (the same streams)."""
    return sum(v - g for v, g in zip(values, greedy, strict=False)) / len(values)


def _error(values: list[float], greedy: list[float]) -> float:
    """The standard error of :func:`_gain`."""
    diffs = [v - g for v, g in zip(values, greedy, strict=False)]
    n = len(diffs)
    if n < 2:
        return math.inf
    mean = sum(diffs) / n
    return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)


def _spread(j: int, base: int) -> float:
    """The j-th of a low-discrepancy sequence in 0 .. 1 (van der Corput in base 2), turned by an offset from *base*:
    the first chances of the j-th playouts spread evenly over their outcomes instead of clumping as draws do."""
    u, scale = 0.0, 0.5
    while j:
        if j & 1:
            u += scale
        j >>= 1
        scale /= 2
    return (u + (base % 1_000_003) / 1_000_003) % 1.0


def _quantile(dist: Any, u: float) -> Any:
    """The outcome of *dist* at the quantile *u* (0 .. 1) of its outcomes in their listed order."""
    target = u * float(dist.total)
    seen = 0.0
    last = None
    for outcome, weight in dist.items():
        seen += float(weight)
        last = outcome
        if target < seen:
            return outcome
    return last
