"""Pairing off the models of a combat: one-to-one wherever possible, every leftover joining one fight (LI-PAIR-1..4).

The valid pairings of LI-PAIR-4 are exactly the minimum edge covers of the base-contact graph G: a set of
vertex-disjoint stars covering every touching model with ν stars has n − ν fights, the fewest that cover n models
(Gallai), and a cover that small has no path of three fights, so it is stars. Their number grows exponentially with
the combat, so the player with Initiative builds one fight by fight (:func:`pairing_options`): each fight offered
can still be completed to a valid pairing, so every valid pairing, and only those, can be
reached, without ever listing them all. Each test is one maximum matching, grown from the last one.

Fights and contacts are (side-a model, side-b model) pairs.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache

Fight = tuple[str, str]
Matching = dict[str, str]
"""A matching as side-b model → its side-a partner."""


@lru_cache(maxsize=64)
def _graph(edges: tuple[Fight, ...]) -> tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]]:
    """The side-a models in id order, and each one's side-b neighbours in contact order."""
    adj: dict[str, list[str]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
    return tuple(sorted(adj)), {a: tuple(bs) for a, bs in adj.items()}


def _grown(edges: tuple[Fight, ...], within: Collection[str] | None, start: Matching) -> Matching:
    """A maximum matching of G (or of G restricted to the models *within*), grown from *start* by augmenting paths.

    Each pass searches an augmenting path from every free side-a model, sharing the visited models; the passes
    stop at the first one that finds none, when no augmenting path is left (Berge).
    """
    left, adj = _graph(edges)
    partner = dict(start)
    matched = set(partner.values())

    def augment(a: str, seen: set[str]) -> bool:
        for b in adj[a]:
            if b not in seen and (within is None or b in within):
                seen.add(b)
                if b not in partner or augment(partner[b], seen):
                    partner[b] = a
                    return True
        return False

    grew = True
    while grew:
        grew, seen = False, set[str]()
        for a in left:
            if a not in matched and (within is None or a in within) and augment(a, seen):
                matched.add(a)
                grew = True
    return partner


def maximum_matching_size(edges: Sequence[Fight]) -> int:
    """ν: the size of a maximum matching of the base-contact graph (LI-PAIR-4).

    >>> maximum_matching_size([("A", "D"), ("B", "D"), ("C", "E")])
    2
    """
    return len(_grown(tuple(edges), None, {}))


def is_valid_pairing(edges: Sequence[Fight], fights: Iterable[Fight]) -> bool:
    """The precise test of LI-PAIR-2/3 (LI-PAIR-4): contact fights only, no pair twice, every touching model
    in a fight, the fights a set of vertex-disjoint stars, and as many stars as a maximum matching.

    >>> g = [("A", "D"), ("B", "D"), ("C", "E")]
    >>> is_valid_pairing(g, [("A", "D"), ("B", "D"), ("C", "E")]), is_valid_pairing(g, [("A", "D"), ("C", "E")])
    (True, False)
    """
    fights = list(fights)
    edge_set = set(edges)
    if len(set(fights)) != len(fights) or not all(f in edge_set for f in fights):
        return False
    touching = {m for e in edges for m in e}
    count: dict[str, int] = {}
    for a, b in fights:
        count[a] = count.get(a, 0) + 1
        count[b] = count.get(b, 0) + 1
    if set(count) != touching:
        return False
    if any(count[a] > 1 and count[b] > 1 for a, b in fights):
        return False  # a fight never has both its models in other fights: the fights are stars
    centres = {m for m, n in count.items() if n > 1}
    stars = len(centres) + sum(1 for a, b in fights if count[a] == 1 and count[b] == 1)
    return stars == maximum_matching_size(edges)


def touching_models(edges: Sequence[Fight]) -> tuple[str, ...]:
    """The models with at least one enemy in base contact, in the order the contacts list them (LI-PAIR-1)."""
    return tuple(dict.fromkeys(m for e in edges for m in e))


@lru_cache(maxsize=64)
def _pairing_size(edges: tuple[Fight, ...]) -> int:
    """The number of fights of every valid pairing: n − ν (the size of a minimum edge cover)."""
    return len(touching_models(edges)) - maximum_matching_size(edges)


def _completable(edges: tuple[Fight, ...], chosen: Sequence[Fight], open_matching: Matching, added: Fight) -> bool:
    """Whether *chosen* plus the fight *added* is part of at least one valid pairing (LI-PAIR-4).

    The smallest set of fights containing them that covers every touching model has ``|chosen| + 1 + |U| − ν(G[U])``
    fights, U being the touching models still in no fight: pair U one-to-one as far as possible, every other model
    of U joins any fight of its own. They can be completed exactly when that is the size of a valid pairing,
    ``n − ν(G)``. ν(G[U]) is grown from *open_matching*, a maximum matching of the models no chosen fight holds.
    """
    covered = {m for f in (*chosen, added) for m in f}
    uncovered = [m for m in touching_models(edges) if m not in covered]
    start = {b: a for b, a in open_matching.items() if a not in covered and b not in covered}
    nu = len(_grown(edges, set(uncovered), start))
    return len(chosen) + 1 + len(uncovered) - nu == _pairing_size(edges)


def next_to_pair(edges: Sequence[Fight], chosen: Sequence[Fight]) -> str | None:
    """The first touching model that is in no fight yet; None once the pairing is complete."""
    covered = {m for f in chosen for m in f}
    return next((m for m in touching_models(edges) if m not in covered), None)


@lru_cache(maxsize=256)
def pairing_options(edges: tuple[Fight, ...], chosen: tuple[Fight, ...], default: tuple[Fight, ...]) -> tuple[Fight, ...]:
    """The fights the next model still in no fight may be given, the one of the *default* pairing first (LI-PAIR-3).

    Each keeps the pairing completable (a minimum edge cover can still contain it); choosing one at a time reaches
    every valid pairing.

    >>> g = (("A", "C"), ("B", "D"), ("E", "C"), ("E", "D"))
    >>> pairing_options(g, (("A", "C"), ("B", "D")), default_pairing(g))
    (('E', 'C'), ('E', 'D'))
    """
    model = next_to_pair(edges, chosen)
    if model is None:
        return ()
    covered = {m for f in chosen for m in f}
    open_matching = _grown(edges, {m for m in touching_models(edges) if m not in covered}, {})
    own = [f for f in edges if model in f and _completable(edges, chosen, open_matching, f)]
    first = [f for f in default if f in own][:1]
    return tuple(first + [f for f in own if f not in first])


def default_pairing(edges: tuple[Fight, ...]) -> tuple[Fight, ...]:
    """The default pairing: the first maximum matching in lexicographic order (side-a models by id, each taking its
    first contact that still allows a maximum matching, else none), then every leftover model joining its first
    listed contact (with a maximum matching that is always a valid pairing: two leftovers joining both models of
    one matched pair would form an augmenting path)."""
    left, adj = _graph(edges)
    nu = maximum_matching_size(edges)
    free = {b for _, b in edges}
    matching: list[Fight] = []
    for i, a in enumerate(left):
        later = set(left[i + 1 :])
        for b in adj[a]:
            if b in free and len(matching) + 1 + len(_grown(edges, later | (free - {b}), {})) == nu:
                matching.append((a, b))
                free.discard(b)
                break
    matched = {m for f in matching for m in f}
    joins = [next(f for f in edges if m in f) for m in touching_models(edges) if m not in matched]
    return ordered(edges, (*matching, *joins))


def ordered(edges: Sequence[Fight], fights: Iterable[Fight]) -> tuple[Fight, ...]:
    """A pairing's fights in their order of resolution by default: star by star, each matched pair (in contact
    order) followed by the fights that joined it."""
    chosen = frozenset(fights)
    count: dict[str, int] = {}
    for a, b in chosen:
        count[a] = count.get(a, 0) + 1
        count[b] = count.get(b, 0) + 1
    listed = [f for f in edges if f in chosen]
    out: list[Fight] = []
    for f in listed:
        if f in out:
            continue
        centre = f[0] if count[f[0]] > 1 else f[1] if count[f[1]] > 1 else None
        if centre is None:
            out.append(f)
        else:
            out += [g for g in listed if centre in g and g not in out]
    return tuple(out)
