"""The exact dice algebra of kessen.dice against icepool and against brute-force enumeration.

Every operation is checked three ways on random small dice: the kessen result, icepool's result
for the same expression, and an enumeration of every combination of faces (itertools.product).
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from functools import reduce
from pathlib import Path

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.dice import Dist, binomial, d, highest, keep_highest, mixture, successes

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the shared strategies
from strategies import (  # noqa: E402
    brute_force,
    brute_force_uniform,
    fractions_of,
    icepool_fractions,
    probabilities,
    small_dists,
    to_icepool,
)

FAST = settings(max_examples=60, deadline=None, database=None)
SLOW = settings(max_examples=25, deadline=None, database=None)


def assert_is_distribution(dist: Dist[object]) -> None:
    """Weights positive, reduced (gcd 1), totalling the denominator; probabilities sum to exactly 1."""
    weights = list(dist.weights().values())
    assert all(isinstance(w, int) and w > 0 for w in weights)
    assert sum(weights) == dist.total
    assert reduce(math.gcd, weights) == 1
    probs = dist.probabilities()
    assert all(isinstance(p, Fraction) for p in probs.values())
    assert sum(probs.values()) == 1


# --- construction ---------------------------------------------------------------------------


@FAST
@given(small_dists)
def test_every_small_die_sums_to_one(die: Dist[int]) -> None:
    assert_is_distribution(die)


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 8, 10, 12, 20, 100])
def test_d_is_a_fair_die_like_icepool(sides: int) -> None:
    assert fractions_of(d(sides)) == icepool_fractions(icepool.d(sides))
    assert_is_distribution(d(sides))


def test_weights_are_reduced_so_equal_distributions_compare_equal() -> None:
    """Dist({1: 2, 2: 4}) is the same distribution as Dist({1: 1, 2: 2}), whatever the insertion order."""
    a, b = Dist({1: 2, 2: 4}), Dist([(2, 2), (1, 1)])
    assert a == b and hash(a) == hash(b)
    assert a.weights() == {1: 1, 2: 2} and a.total == 3


def test_zero_weights_are_dropped_and_repeats_merge() -> None:
    assert Dist({1: 0, 2: 3}).outcomes() == (2,)
    assert Dist.uniform([1, 1, 2]).probability(1) == Fraction(2, 3)
    assert Dist([(5, 1), (5, 2), (6, 3)]).probabilities() == {5: Fraction(1, 2), 6: Fraction(1, 2)}


@pytest.mark.parametrize(
    "bad",
    [{}, {1: 0}, {1: -1, 2: 2}],
)
def test_a_distribution_needs_positive_weights(bad: dict[int, int]) -> None:
    with pytest.raises(ValueError):
        Dist(bad)


def test_invalid_constructions_raise_value_error() -> None:
    with pytest.raises(ValueError):
        d(0)
    with pytest.raises(ValueError):
        Dist.from_probabilities({1: Fraction(1, 2), 2: Fraction(1, 3)})
    with pytest.raises(ValueError):
        Dist.bernoulli(Fraction(3, 2))
    with pytest.raises(ValueError):
        binomial(-1, Fraction(1, 2))
    with pytest.raises(ValueError):
        binomial(3, Fraction(-1, 2))
    with pytest.raises(ValueError):
        highest(2, d(6), 3)
    with pytest.raises(ValueError):
        d(6).repeat(-1)
    with pytest.raises(ValueError):
        d(6).filter_given(lambda face: face > 6)


@FAST
@given(st.dictionaries(st.integers(-3, 3), probabilities, min_size=1, max_size=4))
def test_from_probabilities_keeps_exact_probabilities(raw: dict[int, Fraction]) -> None:
    """Scale the raw probabilities to sum to 1 (if any is positive) and read them back exactly."""
    total = sum(raw.values(), Fraction(0))
    if total == 0:
        return
    wanted = {o: p / total for o, p in raw.items()}
    dist = Dist.from_probabilities(wanted)
    assert_is_distribution(dist)
    assert fractions_of(dist) == {o: p for o, p in wanted.items() if p}


@FAST
@given(probabilities)
def test_bernoulli_and_always(p: Fraction) -> None:
    coin = Dist.bernoulli(p, success="hit", failure="miss")
    assert coin.probability("hit") == p and coin.probability("miss") == 1 - p
    assert_is_distribution(coin)
    assert Dist.always("x").probabilities() == {"x": 1}


# --- reading ------------------------------------------------------------------------------


@FAST
@given(small_dists, st.integers(-5, 10))
def test_probability_mean_variance_and_at_least_match_icepool(die: Dist[int], threshold: int) -> None:
    oracle = to_icepool(die)
    assert die.probability(threshold) == oracle.probability(threshold)
    assert die.probability(lambda face: face >= threshold) == die.at_least(threshold)
    assert die.at_least(threshold) == oracle.probability(">=", threshold)
    assert die.mean() == oracle.mean()
    assert die.variance() == oracle.variance()


# --- algebra ------------------------------------------------------------------------------


@FAST
@given(small_dists, small_dists)
def test_sum_of_two_dice(a: Dist[int], b: Dist[int]) -> None:
    got = fractions_of(a + b)
    assert got == icepool_fractions(to_icepool(a) + to_icepool(b))
    assert got == brute_force(lambda x, y: x + y, [a, b])
    assert_is_distribution(a + b)


@FAST
@given(small_dists, small_dists)
def test_difference_of_two_dice(a: Dist[int], b: Dist[int]) -> None:
    assert fractions_of(a - b) == icepool_fractions(to_icepool(a) - to_icepool(b))
    assert fractions_of(a - b) == brute_force(lambda x, y: x - y, [a, b])


@FAST
@given(small_dists, st.integers(-5, 5))
def test_adding_a_constant_on_either_side_and_subtracting_it(die: Dist[int], k: int) -> None:
    oracle = icepool_fractions(to_icepool(die) + k)
    assert fractions_of(die + k) == oracle
    assert fractions_of(k + die) == oracle
    assert fractions_of(die - k) == icepool_fractions(to_icepool(die) - k)


@SLOW
@given(small_dists, st.integers(0, 4))
def test_repeat_is_the_sum_of_n_copies(die: Dist[int], n: int) -> None:
    got = fractions_of(die.repeat(n))
    assert got == icepool_fractions(n @ to_icepool(die))
    assert got == brute_force(lambda *faces: sum(faces), [die] * n)


def test_repeat_zero_is_zero_and_repeat_one_is_the_die() -> None:
    assert d(6).repeat(0) == Dist.always(0)
    assert d(6).repeat(1) == d(6)


@pytest.mark.parametrize(("n", "sides"), [(5, 6), (7, 6), (13, 4), (60, 6)])
def test_repeat_by_squaring_matches_icepool_for_many_dice(n: int, sides: int) -> None:
    """Repeated squaring (odd n and powers of two) against icepool: 60d6 stays exact."""
    assert fractions_of(d(sides).repeat(n)) == icepool_fractions(n @ icepool.d(sides))


@SLOW
@given(small_dists, st.integers(0, 4))
def test_repeat_with_max_folds_like_brute_force(die: Dist[int], n: int) -> None:
    """The fold with another associative op (max): the highest of n rolls."""
    if n == 0:
        return
    assert fractions_of(die.repeat(n, max)) == brute_force(lambda *faces: max(faces), [die] * n)


@SLOW
@given(small_dists, st.integers(1, 4).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_keep_highest_matches_icepool_pool_and_brute_force(die: Dist[int], n_keep: tuple[int, int]) -> None:
    n, keep = n_keep
    got = fractions_of(keep_highest(n, die, keep))
    assert got == icepool_fractions(to_icepool(die).pool(n).highest(keep).sum())
    assert got == brute_force(lambda *faces: sum(sorted(faces, reverse=True)[:keep]), [die] * n)


@SLOW
@given(small_dists, st.integers(1, 4).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_highest_keeps_the_descending_tuple(die: Dist[int], n_keep: tuple[int, int]) -> None:
    n, keep = n_keep

    def top(*faces: int) -> tuple[int, ...]:
        return tuple(sorted(faces, reverse=True)[:keep])

    got = fractions_of(highest(n, die, keep))
    assert got == brute_force(top, [die] * n)
    if keep:
        oracle = icepool.map(top, *([to_icepool(die)] * n))
        assert got == icepool_fractions(oracle)
    assert_is_distribution(highest(n, die, keep))


def test_highest_of_zero_dice_keeps_nothing() -> None:
    assert highest(0, d(6), 0) == Dist.always(())
    assert keep_highest(3, d(6), 0) == Dist.always(0)


@pytest.mark.parametrize(("n", "keep"), [(10, 3), (20, 1), (12, 12)])
def test_keep_highest_of_large_pools_matches_icepool(n: int, keep: int) -> None:
    assert fractions_of(keep_highest(n, d(6), keep)) == icepool_fractions(icepool.d6.pool(n).highest(keep).sum())


def test_keep_highest_of_two_d6_worked_value() -> None:
    """Hand count: the higher of 2d6 is 6 in 11 of 36 pairs."""
    assert keep_highest(2, d(6)).probability(6) == Fraction(11, 36)


@SLOW
@given(st.integers(0, 8), probabilities)
def test_binomial_is_the_closed_formula_and_icepool(n: int, p: Fraction) -> None:
    dist = binomial(n, p)
    formula = {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}
    assert fractions_of(dist) == {k: q for k, q in formula.items() if q}
    trial = icepool.Die({1: p.numerator, 0: p.denominator - p.numerator})
    assert fractions_of(dist) == icepool_fractions(n @ trial)
    assert_is_distribution(dist)


def test_binomial_sixty_dice_stays_exact() -> None:
    """A volley of 60 dice at 4+: P(30 hits) = C(60, 30) / 2**60 exactly."""
    assert binomial(60, Fraction(1, 2)).probability(30) == Fraction(math.comb(60, 30), 2**60)


@SLOW
@given(small_dists, st.integers(0, 4), st.integers(-4, 9))
def test_successes_counts_passing_dice(die: Dist[int], n: int, target: int) -> None:
    got = fractions_of(successes(n, die, lambda face: face >= target))
    assert got == brute_force(lambda *faces: sum(1 for f in faces if f >= target), [die] * n)
    oracle = n @ to_icepool(die).map(lambda face: 1 if face >= target else 0)
    assert got == icepool_fractions(oracle)


@FAST
@given(small_dists, st.integers(1, 4))
def test_map_merges_equal_outcomes(die: Dist[int], modulus: int) -> None:
    got = die.map(lambda face: face % modulus)
    assert fractions_of(got) == icepool_fractions(to_icepool(die).map(lambda face: face % modulus))
    assert fractions_of(got) == brute_force(lambda face: face % modulus, [die])
    assert len(got) == len({face % modulus for face in die})


@SLOW
@given(small_dists, st.integers(-4, 9))
def test_bind_is_a_compound_roll(die: Dist[int], cut: int) -> None:
    """Roll a die; on a face ≥ cut roll d(3) and add it, else keep the face."""

    def follow(face: int) -> Dist[int]:
        return d(3) + face if face >= cut else Dist.always(face)

    got = fractions_of(die.bind(follow))
    oracle = to_icepool(die).map(lambda face: icepool.d(3) + face if face >= cut else face)
    assert got == icepool_fractions(oracle)
    expected: dict[int, Fraction] = {}
    for face, p in fractions_of(die).items():
        for value, q in (brute_force_uniform(lambda x: x + face, [3]) if face >= cut else {face: Fraction(1)}).items():
            expected[value] = expected.get(value, Fraction(0)) + p * q
    assert got == expected


@SLOW
@given(small_dists, small_dists)
def test_combine_for_opposed_comparisons(a: Dist[int], b: Dist[int]) -> None:
    """An opposed roll: who wins, and by how much when the first wins."""

    def opposed(x: int, y: int) -> tuple[str, int]:
        return ("first", x - y) if x > y else ("second", 0) if y > x else ("tie", 0)

    got = fractions_of(a.combine(b, opposed))
    assert got == brute_force(opposed, [a, b])
    assert got == icepool_fractions(icepool.map(opposed, to_icepool(a), to_icepool(b)))
    win = a.combine(b, lambda x, y: x > y).probability(True)
    assert win == icepool_fractions(icepool.map(lambda x, y: x > y, to_icepool(a), to_icepool(b))).get(True, 0)


@SLOW
@given(st.lists(st.tuples(st.integers(1, 5), small_dists), min_size=1, max_size=3))
def test_mixture_weights_its_parts(parts: list[tuple[int, Dist[int]]]) -> None:
    total = sum(w for w, _ in parts)
    weighted = [(Fraction(w, total), part) for w, part in parts]
    got = fractions_of(mixture(weighted))
    expected: dict[int, Fraction] = {}
    for p, part in weighted:
        for face, q in fractions_of(part).items():
            expected[face] = expected.get(face, Fraction(0)) + p * q
    assert got == expected
    common = math.lcm(*(part.total for _, part in parts))
    oracle = icepool.Die([to_icepool(part) for _, part in parts], times=[w * common for w, _ in parts])
    assert got == icepool_fractions(oracle)


def test_mixture_with_a_zero_weight_part_ignores_it() -> None:
    got = mixture([(Fraction(0), Dist.always(99)), (Fraction(1), d(2))])
    assert got == d(2)


@FAST
@given(small_dists, st.integers(-4, 9))
def test_filter_given_conditions_on_the_test(die: Dist[int], cut: int) -> None:
    passing = [face for face in die if face >= cut]
    if not passing:
        with pytest.raises(ValueError):
            die.filter_given(lambda face: face >= cut)
        return
    got = fractions_of(die.filter_given(lambda face: face >= cut))
    mass = sum(fractions_of(die)[f] for f in passing)
    assert got == {f: fractions_of(die)[f] / mass for f in passing}
    assert got == icepool_fractions(to_icepool(die).reroll(lambda face: face < cut, depth="inf"))


def test_a_distribution_weakly_referenced_and_freed_leaves_the_process_running() -> None:
    """hypothesis keeps a weak reference to each value it draws: freeing a Dist must clear it, on the compiled engine
    too (where a native class with a generic base would not; ``Dist`` is a Python class there, issue 26)."""
    child = (
        "import gc, weakref\nfrom kessen.dice import d\n"
        "refs = [weakref.ref(d(n)) for n in range(1, 200)]\ngc.collect()\nprint(sum(r() is None for r in refs))"
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "199\n"), done.stderr[-500:]
