"""Pairing off (LI-PAIR-1..4): the precise test, the valid pairings against brute force, building a pairing fight by
fight without a cap, and the default pairing."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.rulesets.legions.rules.pairing import (
    default_pairing,
    is_valid_pairing,
    maximum_matching_size,
    ordered,
    pairing_options,
)

Fight = tuple[str, str]


def brute_force(edges: list[Fight]) -> set[frozenset[Fight]]:
    """Every subset of the contacts that passes the precise test of LI-PAIR-4."""
    return {frozenset(s) for k in range(1, len(edges) + 1) for s in itertools.combinations(edges, k) if is_valid_pairing(edges, s)}


def reached_fight_by_fight(edges: tuple[Fight, ...]) -> set[frozenset[Fight]]:
    """The pairings reached by choosing, at every step, each fight ``pairing_options`` offers."""
    default = default_pairing(edges)
    found: set[frozenset[Fight]] = set()

    def go(chosen: tuple[Fight, ...]) -> None:
        options = pairing_options(edges, chosen, default)
        if not options:
            found.add(frozenset(chosen))
        for f in options:
            go((*chosen, f))

    go(())
    return found


def first_by_enumeration(edges: tuple[Fight, ...]) -> tuple[Fight, ...]:
    """The default pairing as the engine first defined it: the first pairing of an enumeration of maximum matchings
    (side-a models by id, each trying its contacts in order, then none) with every leftover joining its first
    contact that does not join two multi-fight models. Kept here as the oracle of the faster search."""
    nu = maximum_matching_size(edges)
    left = sorted({a for a, _ in edges})
    adj = {a: [b for x, b in edges if x == a] for a in left}

    def matchings(i: int, used: frozenset[str], chosen: tuple[Fight, ...]) -> Iterator[tuple[Fight, ...]]:
        if len(chosen) + (len(left) - i) < nu:
            return
        if i == len(left):
            if len(chosen) == nu:
                yield chosen
            return
        for b in adj[left[i]]:
            if b not in used:
                yield from matchings(i + 1, used | {b}, (*chosen, (left[i], b)))
        yield from matchings(i + 1, used, chosen)

    for matching in matchings(0, frozenset(), ()):
        matched = {m for f in matching for m in f}
        partner = {a: b for a, b in matching} | {b: a for a, b in matching}
        leftovers = [m for m in dict.fromkeys(x for e in edges for x in e) if m not in matched]

        def joins(k: int, centres: frozenset[str], extra: tuple[Fight, ...]) -> Iterable[tuple[Fight, ...]]:
            if k == len(leftovers):
                yield extra
                return
            for f in (f for f in edges if leftovers[k] in f):
                centre = f[1] if f[0] == leftovers[k] else f[0]
                if partner[centre] not in centres:
                    yield from joins(k + 1, centres | {centre}, (*extra, f))

        for extra in joins(0, frozenset(), ()):
            return ordered(edges, (*matching, *extra))
    raise AssertionError("no pairing")


contacts = st.sets(st.tuples(st.sampled_from(["a0", "a1", "a2", "a3"]), st.sampled_from(["b0", "b1", "b2", "b3"])), min_size=1, max_size=9)


def test_li_pair_4_sc_pair_1_seed_example() -> None:
    """SC-PAIR-1, LI-PAIR-2/4: contacts A–D, B–D, C–E, ν = 2: the only pairing is {A–D, B–D, C–E}."""
    edges = [("A", "D"), ("B", "D"), ("C", "E")]
    assert maximum_matching_size(edges) == 2
    assert brute_force(edges) == {frozenset(edges)} and default_pairing(tuple(edges)) == tuple(edges)


def test_li_pair_3_sc_pair_2_one_to_one_where_possible() -> None:
    """SC-PAIR-2, LI-PAIR-3: everyone touches everyone (2 × 2): the two one-to-one pairings, not a star."""
    edges = [("A1", "B1"), ("A1", "B2"), ("A2", "B1"), ("A2", "B2")]
    assert brute_force(edges) == {frozenset({("A1", "B1"), ("A2", "B2")}), frozenset({("A1", "B2"), ("A2", "B1")})}
    assert not is_valid_pairing(edges, [("A1", "B1"), ("A1", "B2"), ("A2", "B1")])


def test_li_pair_4_sc_pair_3_the_fight_e_joins() -> None:
    """SC-PAIR-3, LI-PAIR-3/4: contacts A–C, B–D, E–C, E–D: valid {A–C, B–D, E–C} and {A–C, B–D, E–D}; invalid
    {A–C, E–C, E–D, B–D} (E–C would join two multi-fight models) and {A–C, B–D} (E unpaired)."""
    edges = [("A", "C"), ("B", "D"), ("E", "C"), ("E", "D")]
    assert brute_force(edges) == {frozenset({("A", "C"), ("B", "D"), ("E", "C")}), frozenset({("A", "C"), ("B", "D"), ("E", "D")})}
    assert not is_valid_pairing(edges, [("A", "C"), ("E", "C"), ("E", "D"), ("B", "D")])
    assert not is_valid_pairing(edges, [("A", "C"), ("B", "D")])


@settings(max_examples=200, deadline=None)
@given(contacts)
def test_li_pair_4_fight_by_fight_reaches_exactly_the_valid_pairings(found: set[Fight]) -> None:
    """LI-PAIR-3, LI-PAIR-4: building the pairing one fight at a time from the offered fights reaches every valid
    pairing and nothing else: the same set as every subset of the contacts that passes the precise test of
    LI-PAIR-4 (brute force over all subsets)."""
    edges = tuple(sorted(found))
    assert reached_fight_by_fight(edges) == brute_force(list(edges))


@settings(max_examples=200, deadline=None)
@given(contacts, st.randoms(use_true_random=False))
def test_li_pair_3_default_pairing_is_the_first_of_the_enumeration(found: set[Fight], rnd: object) -> None:
    """LI-PAIR-3: the default pairing (the one the first options lead to, and the AI's) is the first pairing of the
    enumeration the engine always used, whatever the order the contacts are listed in; it is valid."""
    edges = list(found)
    rnd.shuffle(edges)  # type: ignore[attr-defined]
    assert default_pairing(tuple(edges)) == first_by_enumeration(tuple(edges))
    assert is_valid_pairing(edges, default_pairing(tuple(edges)))


def test_li_pair_3_no_cap_on_the_pairings_offered() -> None:
    """LI-PAIR-3 (no silent cap): when five models each touch five enemies, all 5! = 120 one-to-one pairings can be
    chosen (the engine used to offer the first 24 only)."""
    edges = tuple((f"a{i}", f"b{j}") for i in range(5) for j in range(5))
    reached = reached_fight_by_fight(edges)
    assert len(reached) == 120 and all(is_valid_pairing(edges, p) for p in reached)


def test_li_pair_4_a_large_block_pairs_quickly_and_validly() -> None:
    """LI-PAIR-4 at the scenario limits: a 20 × 20 checkerboard of models, each touching its four neighbours (200 a
    side in one combat): the default pairing is a valid one-to-one pairing of all 400 models."""
    cells = {(i, j): f"{'a' if (i + j) % 2 == 0 else 'b'}{i}.{j}" for i in range(20) for j in range(20)}
    edges = tuple(
        (cells[p], cells[q]) if cells[p][0] == "a" else (cells[q], cells[p])
        for p in cells for q in ((p[0] + 1, p[1]), (p[0], p[1] + 1)) if q in cells
    )
    pairing = default_pairing(edges)
    assert len(pairing) == 200 and is_valid_pairing(edges, pairing)
    assert pairing_options(edges, pairing[:-1], pairing) == (pairing[-1],)
