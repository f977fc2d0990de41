"""Exact finite distributions with integer weights, and the dice algebra the rules need."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
import functools
from functools import reduce
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

O = TypeVar("O", bound=Hashable)
P = TypeVar("P", bound=Hashable)
Q = TypeVar("Q", bound=Hashable)


_MISSING: Any = object()


def _add_op(a: Any, b: Any) -> Any:
    return a + b


def _sub_op(a: Any, b: Any) -> Any:
    return a - b


@mypyc_attr(native_class=False)
class Dist(Generic[O]):
    """An exact probability distribution: distinct outcomes with positive integer weights.

    The probability of an outcome is its weight over the total. Weights are kept reduced
    (their gcd is 1) and outcomes of weight 0 are dropped, so two equal distributions have
    equal weights.

    >>> d(6).map(lambda face: face >= 4).probability(True)
    Fraction(1, 2)
    >>> (d(6) + d(6)).probability(7)
    Fraction(1, 6)
    """

    __slots__ = ("_weights", "_total", "_hash", "_sampler", "_kept", "__weakref__")
    # A Python class in the compiled engine too (native_class=False), so that it may be weakly referenced (hypothesis
    # keeps a weak reference to every value it draws): mypyc gives a native class with a generic base a weak reference
    # list, but frees its objects without clearing it, and a weak reference to a freed Dist would crash the process.

    def __init__(self, weights: Mapping[O, int] | Iterable[tuple[O, int]]) -> None:
        merged: dict[O, int]
        if isinstance(weights, dict) and weights and min(weights.values()) > 0:
            merged = dict(weights)  # the usual case (the algebra's own tables): taken as it is, copied in C
        else:
            merged = {}
            for outcome, weight in weights.items() if isinstance(weights, Mapping) else weights:
                if weight < 0:
                    raise ValueError(f"negative weight {weight} for {outcome!r}")
                if weight:
                    merged[outcome] = merged.get(outcome, 0) + weight
            if not merged:
                raise ValueError("a distribution needs at least one outcome of positive weight")
        g = math.gcd(*merged.values())
        if g > 1:
            merged = {o: w // g for o, w in merged.items()}
        self._hold(merged, sum(merged.values()))

    def _hold(self, weights: dict[O, int], total: int) -> None:
        """Take *weights* (distinct outcomes, positive weights, gcd 1) and their *total* as this distribution's."""
        self._weights = weights
        self._total = total
        self._hash: int | None = None
        self._sampler: Any = None  # built by kessen.dice.sampling on first draw, for this object only
        self._kept: dict[Callable[[Dist[Any]], Any], Any] | None = None

    @classmethod
    def __class_getitem__(cls, item: object) -> Any:
        """``Dist[int]`` in an annotation read at run time: the class itself (in the compiled engine it is a plain class
        with no ``Generic`` base to subscript)."""
        return cls

    def __reduce__(self) -> tuple[type[Dist[O]], tuple[dict[O, int]]]:
        # pickle and copy make it again from its weights (its sampler is built again on the first draw); the compiled
        # class's __new__ calls __init__ (issue 22)
        return Dist, (dict(self._weights),)

    # --- construction -------------------------------------------------------------------

    @classmethod
    def always(cls, outcome: O) -> Dist[O]:
        """The distribution that gives *outcome* with certainty (what a question that rolls no dice answers)."""
        made = cls.__new__(cls)
        made._hold({outcome: 1}, 1)
        return made

    @classmethod
    def uniform(cls, outcomes: Iterable[O]) -> Dist[O]:
        """Each listed outcome equally likely (repeats add weight)."""
        return cls((o, 1) for o in outcomes)

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[O, Fraction]) -> Dist[O]:
        """From exact probabilities that sum to 1."""
        total = sum(probabilities.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")
        den = reduce(math.lcm, (Fraction(p).denominator for p in probabilities.values()), 1)
        return cls({o: int(Fraction(p) * den) for o, p in probabilities.items()})

    @classmethod
    def bernoulli(cls, p: Fraction, *, success: Any = True, failure: Any = False) -> Dist[Any]:
        """*success* with probability *p*, else *failure*."""
        p = Fraction(p)
        if not 0 <= p <= 1:
            raise ValueError(f"probability {p} outside 0..1")
        return cls({success: p.numerator, failure: p.denominator - p.numerator})

    # --- reading --------------------------------------------------------------------------

    @property
    def total(self) -> int:
        """The sum of the weights (the common denominator)."""
        return self._total

    def weights(self) -> dict[O, int]:
        """A copy of the outcome → weight table."""
        return dict(self._weights)

    def items(self) -> Iterator[tuple[O, int]]:
        return iter(self._weights.items())

    def outcomes(self) -> tuple[O, ...]:
        return tuple(self._weights)

    def __iter__(self) -> Iterator[O]:
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def weight(self, outcome: O) -> int:
        return self._weights.get(outcome, 0)

    def probability(self, outcome_or_test: O | Callable[[O], bool]) -> Fraction:
        """The exact probability of one outcome, or of the outcomes passing a test."""
        if callable(outcome_or_test):
            test = outcome_or_test
            return Fraction(sum(w for o, w in self._weights.items() if test(o)), self._total)
        return Fraction(self._weights.get(outcome_or_test, 0), self._total)

    def probabilities(self) -> dict[O, Fraction]:
        """Outcome → exact probability."""
        return {o: Fraction(w, self._total) for o, w in self._weights.items()}

    def mean(self) -> Fraction:
        """The exact mean of a numeric distribution."""
        total: Any = sum(o * w for o, w in self._weights.items())  # type: ignore[operator,misc]
        return Fraction(total, self._total)

    def variance(self) -> Fraction:
        """The exact variance of a numeric distribution: (T·Σw·o² − (Σw·o)²) / T², in the outcomes' own arithmetic.

        >>> d(6).variance()
        Fraction(35, 12)
        """
        total = self._total
        first: Any = sum(o * w for o, w in self._weights.items())  # type: ignore[operator,misc]
        second: Any = sum(o * o * w for o, w in self._weights.items())  # type: ignore[operator]
        return Fraction(second * total - first * first, total * total)

    def at_least(self, threshold: Any) -> Fraction:
        """P(outcome ≥ threshold) for a numeric distribution."""
        return Fraction(sum(w for o, w in self._weights.items() if o >= threshold), self._total)

    def kept(self, work_out: Callable[[Dist[O]], P]) -> P:
        """``work_out(self)``, worked out once for this distribution and kept with it (it lives as long as the
        distribution does): for a value asked of the same cached distribution again and again.

        >>> d(6).kept(Dist.mean)
        Fraction(7, 2)
        """
        kept = self._kept
        if kept is None:
            kept = self._kept = {}
        found = kept.get(work_out, _MISSING)
        if found is _MISSING:
            found = kept[work_out] = work_out(self)
        result: P = found
        return result

    # --- algebra --------------------------------------------------------------------------

    def map(self, f: Callable[[O], P]) -> Dist[P]:
        """Apply *f* to every outcome, merging outcomes that become equal."""
        out: dict[P, int] = defaultdict(int)
        for o, w in self._weights.items():
            out[f(o)] += w
        return Dist(out)

    def bind(self, f: Callable[[O], Dist[P]]) -> Dist[P]:
        """Follow each outcome with the distribution *f* gives for it (a compound roll)."""
        subs = [(w, f(o)) for o, w in self._weights.items()]
        common = reduce(math.lcm, (sub.total for _, sub in subs), 1)
        out: dict[P, int] = defaultdict(int)
        for w, sub in subs:
            scale = w * (common // sub.total)
            for o, v in sub._weights.items():
                out[o] += scale * v
        return Dist(out)

    def combine(self, other: Dist[P], f: Callable[[O, P], Q]) -> Dist[Q]:
        """The distribution of f(a, b) for independent a from self and b from other."""
        out: dict[Q, int] = defaultdict(int)
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                out[f(a, b)] += wa * wb
        return Dist(out)

    def __add__(self, other: Dist[Any] | int) -> Dist[Any]:
        if isinstance(other, int):
            return self.map(functools.partial(_add_op, b=other))
        return self.combine(other, _add_op)

    def __radd__(self, other: int) -> Dist[Any]:
        return self.__add__(other)

    def __sub__(self, other: Dist[Any] | int) -> Dist[Any]:
        if isinstance(other, int):
            return self.map(functools.partial(_sub_op, b=other))
        return self.combine(other, _sub_op)

    def __rsub__(self, other: int) -> Dist[Any]:
        return self.map(functools.partial(_sub_op, other))

    def repeat(self, n: int, op: Callable[[Any, Any], Any] = _add_op) -> Dist[Any]:
        """The sum (or fold with the associative *op*) of *n* independent copies, by repeated squaring."""
        if n < 0:
            raise ValueError("n must be ≥ 0")
        if n == 0:
            if op is not _add_op:
                raise ValueError("zero copies have no value under a custom op")
            return Dist.always(0)
        result: Dist[Any] | None = None
        power: Dist[Any] = self
        while n:
            if n & 1:
                result = power if result is None else result.combine(power, op)
            n >>= 1
            if n:
                power = power.combine(power, op)
        assert result is not None
        return result

    def filter_given(self, test: Callable[[O], bool]) -> Dist[O]:
        """The distribution conditioned on *test* (for re-rolls of some results)."""
        return Dist((o, w) for o, w in self._weights.items() if test(o))

    # --- comparison -----------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._weights == other._weights

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._weights.items()))
        return self._hash

    def __repr__(self) -> str:
        shown = ", ".join(f"{o!r}: {w}" for o, w in list(self._weights.items())[:8])
        more = ", ..." if len(self._weights) > 8 else ""
        return f"Dist({{{shown}{more}}}, total={self._total})"


def d(sides: int) -> Dist[int]:
    """One fair die with faces 1..sides.

    >>> d(6).probability(3)
    Fraction(1, 6)
    """
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return Dist.uniform(range(1, sides + 1))


def mixture(parts: Iterable[tuple[Fraction, Dist[O]]]) -> Dist[O]:
    """A weighted mixture of distributions; the weights must sum to 1."""
    parts = list(parts)
    return Dist.from_probabilities({i: p for i, (p, _) in enumerate(parts)}).bind(lambda i: parts[i][1])


def binomial(n: int, p: Fraction) -> Dist[int]:
    """The number of successes in *n* independent trials each succeeding with probability *p*.

    Weights are exact integers: C(n, k) · a^k · (b − a)^(n − k) for p = a/b; no enumeration of dice.

    >>> binomial(2, Fraction(1, 2)).probability(1)
    Fraction(1, 2)
    """
    p = Fraction(p)
    if n < 0 or not 0 <= p <= 1:
        raise ValueError(f"binomial needs n ≥ 0 and 0 ≤ p ≤ 1 (got n={n}, p={p})")
    a, b = p.numerator, p.denominator
    return Dist({k: math.comb(n, k) * a**k * (b - a) ** (n - k) for k in range(n + 1)})


def successes(n: int, die: Dist[Any], test: Callable[[Any], bool]) -> Dist[int]:
    """How many of *n* rolls of *die* pass *test* (a pool of dice counting successes)."""
    return binomial(n, die.probability(test))


def keep_highest(n: int, die: Dist[int], keep: int = 1) -> Dist[int]:
    """The sum of the *keep* highest of *n* rolls of *die*.

    Computed over sorted tuples of kept values with multinomial weights, never over all n-tuples.

    >>> keep_highest(2, d(6)).probability(6)
    Fraction(11, 36)
    """
    return highest(n, die, keep).map(sum)


def highest(n: int, die: Dist[int], keep: int = 1) -> Dist[tuple[int, ...]]:
    """The *keep* highest of *n* rolls of *die*, as a descending tuple.

    Walks the faces from the highest down, choosing how many dice show each face (binomial
    ways); once *keep* values are chosen the other dice may show any lower face.
    """
    if not 0 <= keep <= n:
        raise ValueError(f"cannot keep {keep} of {n} dice")
    faces = sorted(die.outcomes(), reverse=True)
    weights = [die.weight(f) for f in faces]
    done: dict[tuple[int, ...], int] = defaultdict(int)
    states: dict[tuple[tuple[int, ...], int], int] = {((), n): 1}
    for i, face in enumerate(faces):
        below = sum(weights[i + 1 :])
        nxt: dict[tuple[tuple[int, ...], int], int] = defaultdict(int)
        for (kept, left), w in states.items():
            for j in range(left + 1):
                now_kept = kept + (face,) * min(j, keep - len(kept))
                rest = left - j
                ways = w * math.comb(left, j) * weights[i] ** j
                if rest == 0:
                    done[now_kept] += ways
                elif len(now_kept) == keep:
                    done[now_kept] += ways * below**rest
                elif below:
                    nxt[(now_kept, rest)] += ways
        states = nxt
    return Dist(done)
