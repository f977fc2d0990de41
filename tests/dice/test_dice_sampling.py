"""Seeded random streams and drawing: frequencies agree with the exact distribution, draws reproduce.

Every statistical test uses a fixed seed, so it is deterministic; the significance level (0.001) is
what a wrong sampler (an off-by-one in the cumulative table, a wrong float fallback) fails by far.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

import kessen
from kessen.dice import Dist, Sampler, binomial, child_streams, d, draw, draw_many, keep_highest, sampler, stream

ALPHA = 0.001
N = 20_000


def chi_square_p(dist: Dist[Any], draws: list[Any]) -> float:
    """The p-value of the draws against *dist*, pooling outcomes whose expected count is below 5."""
    counts = Counter(draws)
    assert set(counts) <= set(dist.outcomes()), "drew an outcome the distribution does not have"
    n = len(draws)
    observed: list[int] = []
    expected: list[float] = []
    pool_obs, pool_exp = 0, 0.0
    for outcome, p in sorted(dist.probabilities().items(), key=lambda row: row[1]):
        e = float(p) * n
        if e < 5:
            pool_obs += counts.get(outcome, 0)
            pool_exp += e
        else:
            observed.append(counts.get(outcome, 0))
            expected.append(e)
    if pool_exp:
        observed.append(pool_obs)
        expected.append(pool_exp)
    if len(observed) < 2:
        return 1.0
    scale = sum(observed) / sum(expected)  # float rounding only
    return float(chisquare(observed, [e * scale for e in expected]).pvalue)


SKEWED = Dist({"rare": 1, "sometimes": 30, "often": 969})

DISTRIBUTIONS = {
    "d6": d(6),
    "2d6": d(6) + d(6),
    "best 3 of 5d6": keep_highest(5, d(6), 3),
    "skewed": SKEWED,
    "song-of-blades melee": kessen.odds(
        "song-of-blades", "melee", {"attacker_combat": 3, "defender_combat": 2}
    ).dist,
}


@pytest.mark.parametrize("name", list(DISTRIBUTIONS))
def test_draw_many_frequencies_agree_with_the_exact_distribution(name: str) -> None:
    dist = DISTRIBUTIONS[name]
    assert chi_square_p(dist, draw_many(dist, stream(20240601), N)) > ALPHA


def test_chi_square_check_rejects_a_wrong_distribution() -> None:
    """The check itself can fail: draws of a fair d6 do not pass as draws of 2d6 − 6 clipped to 1..6."""
    wrong = (d(6) + d(6)).map(lambda total: min(6, max(1, total - 4)))
    assert chi_square_p(wrong, draw_many(d(6), stream(7), N)) < ALPHA


def test_float_fallback_for_totals_of_2_to_the_63_or_more_agrees() -> None:
    """40 trials at 1/3: total weight 3**40 ≥ 2**63, so the sampler uses float cumulative probabilities."""
    dist = binomial(40, Fraction(1, 3))
    assert dist.total >= 2**63
    assert chi_square_p(dist, draw_many(dist, stream(99), N)) > ALPHA


def test_float_fallback_with_a_huge_weight_and_a_tiny_one() -> None:
    """Weights 2**64 and 1: the tiny outcome is essentially never drawn, the others split as weighted."""
    dist = Dist({"a": 2**64, "b": 1, "c": 2**64 + 1})
    assert dist.total >= 2**63
    draws = draw_many(dist, stream(5), N)
    assert set(draws) <= {"a", "b", "c"}
    assert chi_square_p(Dist({"a": 1, "c": 1}), [x for x in draws if x != "b"]) > ALPHA


def test_exact_path_at_the_largest_total_below_2_to_the_63() -> None:
    dist = Dist({0: 2**62, 1: 2**62 - 1})
    assert dist.total == 2**63 - 1
    assert chi_square_p(dist, draw_many(dist, stream(11), N)) > ALPHA


@pytest.mark.parametrize("dist", [Dist({0: 2**62, 1: 2**62 - 1}), binomial(40, Fraction(1, 3))], ids=["exact", "float"])
def test_every_drawn_index_is_an_outcome(dist: Dist[int]) -> None:
    indices = Sampler(dist).indices(stream(3), 5000)
    assert indices.min() >= 0 and indices.max() < len(dist)


def test_a_certain_outcome_is_always_drawn() -> None:
    assert draw_many(Dist.always("x"), stream(1), 100) == ["x"] * 100
    assert draw(Dist.always(4), stream(1)) == 4


@pytest.mark.parametrize("name", list(DISTRIBUTIONS))
def test_the_same_seed_gives_the_same_draws(name: str) -> None:
    dist = DISTRIBUTIONS[name]
    assert draw_many(dist, stream(42), 500) == draw_many(dist, stream(42), 500)
    one_by_one_a = [draw(dist, stream(42)) for _ in range(3)]
    assert len(set(map(repr, one_by_one_a))) == 1  # a fresh stream with the same seed starts the same


def test_different_seeds_give_different_draws() -> None:
    assert draw_many(d(6), stream(1), 200) != draw_many(d(6), stream(2), 200)


def test_a_seed_sequence_seeds_a_stream_like_its_entropy() -> None:
    assert draw_many(d(20), stream(np.random.SeedSequence(8)), 50) == draw_many(d(20), stream(8), 50)


def test_child_streams_are_reproducible() -> None:
    first = [draw_many(d(6), s, 100) for s in child_streams(123, 4)]
    again = [draw_many(d(6), s, 100) for s in child_streams(123, 4)]
    assert first == again
    fewer = [draw_many(d(6), s, 100) for s in child_streams(123, 2)]
    assert fewer == first[:2]  # child i does not depend on how many siblings were spawned


def test_child_streams_differ_from_each_other_and_from_the_parent() -> None:
    children = [tuple(draw_many(d(100), s, 50)) for s in child_streams(5, 4)]
    parent = tuple(draw_many(d(100), stream(5), 50))
    assert len(set(children) | {parent}) == 5


def test_child_streams_are_independent() -> None:
    """Pairs (child 0's draw, child 1's draw) of d6: the 6×6 contingency table shows no dependence."""
    a, b = child_streams(77, 2)
    xs, ys = draw_many(d(6), a, N), draw_many(d(6), b, N)
    table = np.zeros((6, 6), dtype=np.int64)
    for x, y in zip(xs, ys):
        table[x - 1, y - 1] += 1
    assert chi2_contingency(table).pvalue > ALPHA
    assert chi_square_p(d(6), xs) > ALPHA and chi_square_p(d(6), ys) > ALPHA


def test_sampler_is_cached_per_distribution() -> None:
    dist = d(6) + d(6)
    assert sampler(dist) is sampler(dist)


def test_draws_for_a_seed_do_not_depend_on_what_was_sampled_before() -> None:
    """Same seed, same distribution → same draws, whatever equal distribution was drawn from earlier."""
    reversed_order = Dist({3: 1, 2: 1, 1: 1})
    alone = Sampler(reversed_order).draw_many(stream(0), 30)  # what a fresh cache would give
    earlier = Dist({1: 1, 2: 1, 3: 1})
    draw_many(earlier, stream(0), 1)  # caches a sampler under the equal key
    assert draw_many(reversed_order, stream(0), 30) == alone


SCALAR_CASES = {
    **DISTRIBUTIONS,
    "certain": Dist.always("x"),
    "largest exact total": Dist({0: 2**62, 1: 2**62 - 1}),
    "float fallback": binomial(40, Fraction(1, 3)),
    "huge and tiny weights": Dist({"a": 2**64, "b": 1, "c": 2**64 + 1}),
}


@pytest.mark.parametrize("name", list(SCALAR_CASES))
def test_issue_13_1_a_single_draw_takes_what_a_batch_of_one_took(name: str) -> None:
    """Issue 13 §1, a scalar path for single draws: ``draw`` no longer goes through numpy arrays, and for every
    stream state it gives the outcome a batch of one gives and leaves the stream where that batch leaves it
    (so every seeded battle draws what it drew before), on the exact path and the float fallback alike, with
    other draws (a 32-bit bounded one, a float) interleaved."""
    dist, scalar, batch = SCALAR_CASES[name], stream(20261201), stream(20261201)
    one = Sampler(dist)
    for i in range(400):
        assert draw(dist, scalar) == one.outcomes[int(one.indices(batch, 1)[0])], f"draw {i}"
        if i % 7 == 0:
            assert scalar.integers(0, 6) == batch.integers(0, 6, size=1)[0]
        if i % 11 == 0:
            assert scalar.random() == batch.random(1)[0]
    assert scalar.bit_generator.state == batch.bit_generator.state


def test_issue_13_1_single_draws_agree_with_the_exact_distribution() -> None:
    """The scalar path draws with the distribution's frequencies (2d6: eleven outcomes of unequal weight)."""
    dist, rng = d(6) + d(6), stream(8)
    assert chi_square_p(dist, [draw(dist, rng) for _ in range(N)]) > ALPHA
