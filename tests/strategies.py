"""Shared hypothesis strategies and independent oracles for the tests.

Test files in sub-folders import this module after putting ``tests/`` on ``sys.path``
(pytest runs without ``__init__.py`` files, so only a test file's own folder is on the path).
The oracles here never use ``kessen.dice`` algebra: they are the independent check of it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from itertools import product
from math import prod
from typing import Any

import icepool
from hypothesis import strategies as st

from kessen.dice import Dist

# --- small dice -----------------------------------------------------------------------------

#: A small die as a table face → positive integer weight (faces may be negative or zero).
weight_tables: st.SearchStrategy[dict[int, int]] = st.dictionaries(
    st.integers(min_value=-4, max_value=9), st.integers(min_value=1, max_value=5), min_size=1, max_size=5
)

#: A small die as a kessen ``Dist``.
small_dists: st.SearchStrategy[Dist[int]] = weight_tables.map(Dist)

#: A probability with a small denominator, 0 and 1 included.
probabilities: st.SearchStrategy[Fraction] = st.integers(min_value=1, max_value=12).flatmap(
    lambda den: st.integers(min_value=0, max_value=den).map(lambda num: Fraction(num, den))
)


# --- oracles --------------------------------------------------------------------------------


def fractions_of(dist: Dist[Any]) -> dict[Any, Fraction]:
    """A kessen distribution as outcome → exact probability."""
    return {o: Fraction(w, dist.total) for o, w in dist.items()}


def to_icepool(dist: Dist[int]) -> icepool.Die:
    """The same die in icepool (the independent oracle)."""
    return icepool.Die(dist.weights())


def icepool_fractions(die: icepool.Die) -> dict[Any, Fraction]:
    """An icepool die as outcome → exact probability, outcomes of probability 0 dropped."""
    den = die.denominator()
    return {o: Fraction(die.quantity(o), den) for o in die.outcomes() if die.quantity(o)}


def faces_with_probability(dist: Dist[Any]) -> list[tuple[Any, Fraction]]:
    """Every face of a die with its probability: the rows a brute-force enumeration walks."""
    return [(o, Fraction(w, dist.total)) for o, w in dist.items()]


def brute_force(f: Callable[..., Hashable], dists: Sequence[Dist[Any]]) -> dict[Any, Fraction]:
    """The distribution of f(x1, …, xn) by enumerating every combination of faces (itertools.product)."""
    table: defaultdict[Any, Fraction] = defaultdict(Fraction)
    for combo in product(*(faces_with_probability(dd) for dd in dists)):
        faces = tuple(face for face, _ in combo)
        table[f(*faces)] += prod((p for _, p in combo), start=Fraction(1))
    return {o: p for o, p in table.items() if p}


def brute_force_uniform(f: Callable[..., Hashable], sides: Sequence[int]) -> dict[Any, Fraction]:
    """The distribution of f(faces) over fair dice with the given numbers of sides."""
    weight = Fraction(1, prod(sides))
    table: defaultdict[Any, Fraction] = defaultdict(Fraction)
    for faces in product(*(range(1, n + 1) for n in sides)):
        table[f(*faces)] += weight
    return dict(table)


# --- mutations of valid JSON inputs (for the fuzz test) -----------------------------------

#: Values of every JSON type plus extremes that validation must reject or accept cleanly.
garbage_values: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([0, -1, 1, 7, 8, 9, 13, 10_000, 10_001, 2**31, 2**63, -(2**63)]),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([3.0, 0.5, -0.0, 1e308]),
        st.text(max_size=8),
        st.sampled_from(["3", "true", "standing", "STANDING", "fallen ", "normal", "", "huge", "\n"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=6), inner, max_size=3),
    ),
    max_leaves=8,
)
