"""Dense weight tables (weight by damage value 0, 1, 2, ...) and their exact convolution.

The attack procedures add up to ten stands' damage with weights of hundreds of digits; a dictionary
convolution of such tables spends its time on Python-level big-integer products. Packing each table
into one integer (Kronecker substitution) lets a single big-integer product do the whole convolution,
exactly. The tests check :func:`convolve` against the plain double loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kessen.dice import Dist

Table = list[int]


def dense(dist: Dist[int]) -> Table:
    """The weights of a distribution over values ≥ 0, as a list indexed by value.

    >>> dense(Dist({0: 1, 3: 2}))
    [1, 0, 0, 2]
    """
    table = [0] * (max(dist.outcomes()) + 1)
    for value, weight in dist.items():
        table[value] = weight
    return table


def from_weights(weights: Mapping[int, int]) -> Table:
    """A table from value → weight, weights kept as given (not reduced).

    >>> from_weights({2: 5, 0: 1})
    [1, 0, 5]
    """
    table = [0] * (max(weights) + 1)
    for value, weight in weights.items():
        table[value] = weight
    return table


def convolve(a: Sequence[int], b: Sequence[int]) -> Table:
    """The weights of the sum of two independent values (the product of their generating polynomials).

    >>> convolve([1, 1], [1, 2, 1])
    [1, 3, 3, 1]
    """
    if len(a) == 1 or len(b) == 1:
        (scalar,), other = (a, b) if len(a) == 1 else (b, a)
        return [scalar * w for w in other]
    # no coefficient of the product (nor of either factor) exceeds this
    bound = max(min(len(a), len(b)) * max(a) * max(b), max(a), max(b))
    width = bound.bit_length() // 8 + 1
    packed = _pack(a, width) * _pack(b, width)
    size = len(a) + len(b) - 1
    raw = packed.to_bytes(width * size, "little")
    return [int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(size)]


def _pack(table: Sequence[int], width: int) -> int:
    return int.from_bytes(b"".join(w.to_bytes(width, "little") for w in table), "little")


def capped(table: Sequence[int], cap: int) -> Table:
    """Fold every value above *cap* into *cap* (for sums where anything past the cap counts alike).

    >>> capped([1, 2, 3, 4], 2)
    [1, 2, 7]
    """
    if len(table) <= cap + 1:
        return list(table)
    return [*table[:cap], sum(table[cap:])]


def add(tables: Iterable[Sequence[int]]) -> Table:
    """The weight-wise sum of tables of any lengths (a mixture over a common denominator).

    >>> add([[1, 2], [0, 0, 5]])
    [1, 2, 5]
    """
    total: Table = []
    for table in tables:
        if len(table) > len(total):
            total.extend([0] * (len(table) - len(total)))
        for value, weight in enumerate(table):
            total[value] += weight
    return total


def scaled(table: Sequence[int], factor: int) -> Table:
    """Every weight times *factor* (to bring tables to a common denominator)."""
    return [w * factor for w in table]
