"""Pairing off the models of a combat: one-to-one wherever possible, every leftover joining one fight (LI-PAIR-1..4).

The valid pairings of LI-PAIR-4 are exactly the minimum edge covers of the base-contact graph G: a set of
vertex-disjoint stars covering every touching model with ν stars has n − ν fights, the fewest that cover n models
(Gallai), and a cover that small has no path of three fights, so it is stars. Their number grows exponentially with
the combat, so the player with Initiative builds one fight by fight (:func:`pairing_options`): each fight offered
can still be completed to a valid pairing (:func:`can_complete`), so every valid pairing, and only those, can be
reached, without ever listing them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

Fight = tuple[str, str]


def maximum_matching_size(edges: Sequence[Fight]) -> int:
    """ν: the size of a maximum matching of the base-contact graph (LI-PAIR-4), by augmenting paths.

    >>> maximum_matching_size([("A", "D"), ("B", "D"), ("C", "E")])
    2
    """
    left = sorted({a for a, _ in edges})
    adj = {a: sorted(b for x, b in edges if x == a) for a in left}
    partner: dict[str, str] = {}

    def augment(a: str, seen: set[str]) -> bool:
        for b in adj[a]:
            if b not in seen:
                seen.add(b)
                if b not in partner or augment(partner[b], seen):
                    partner[b] = a
                    return True
        return False

    return sum(augment(a, set()) for a in left)


def is_valid_pairing(edges: Sequence[Fight], fights: Iterable[Fight]) -> bool:
    """The precise test of LI-PAIR-2/3 (LI-PAIR-4): contact fights only, no pair twice, every touching model
    in a fight, the fights a set of vertex-disjoint stars, and as many stars as a maximum matching.

    Fights are (side-a model, side-b model) pairs, like *edges*.

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


def can_complete(edges: Sequence[Fight], chosen: Sequence[Fight]) -> bool:
    """Whether the fights *chosen* so far are part of at least one valid pairing (LI-PAIR-4).

    The smallest set of fights containing *chosen* that covers every touching model has
    ``|chosen| + |U| − ν(G[U])`` fights, U being the touching models not yet in a fight: pair U one-to-one as far
    as possible, every other model of U joins any fight of its own. *chosen* can be completed exactly when that
    is the size of a valid pairing, ``n − ν(G)``.

    >>> g = [("A", "C"), ("B", "D"), ("E", "C"), ("E", "D")]
    >>> can_complete(g, [("E", "C")]), can_complete(g, [("A", "C"), ("E", "C"), ("E", "D")])
    (True, False)
    """
    if len(set(chosen)) != len(chosen) or not set(chosen) <= set(edges):
        return False
    models = touching_models(edges)
    covered = {m for f in chosen for m in f}
    open_edges = [(a, b) for a, b in edges if a not in covered and b not in covered]
    left = len(models) - len(covered)
    return len(chosen) + left - maximum_matching_size(open_edges) == len(models) - maximum_matching_size(edges)


def next_to_pair(edges: Sequence[Fight], chosen: Sequence[Fight]) -> str | None:
    """The first touching model that is in no fight yet; None once the pairing is complete."""
    covered = {m for f in chosen for m in f}
    return next((m for m in touching_models(edges) if m not in covered), None)


def pairing_options(edges: Sequence[Fight], chosen: Sequence[Fight], default: Sequence[Fight]) -> tuple[Fight, ...]:
    """The fights the next model still in no fight may be given, the one of the *default* pairing first (LI-PAIR-3).

    Each keeps the pairing completable (:func:`can_complete`); choosing one at a time reaches every valid pairing.

    >>> g = [("A", "C"), ("B", "D"), ("E", "C"), ("E", "D")]
    >>> pairing_options(g, [("A", "C"), ("B", "D")], default_pairing(g))
    (('E', 'C'), ('E', 'D'))
    """
    model = next_to_pair(edges, chosen)
    if model is None:
        return ()
    own = [f for f in edges if model in f and can_complete(edges, (*chosen, f))]
    first = [f for f in default if f in own][:1]
    return tuple(first + [f for f in own if f not in first])


def default_pairing(edges: Sequence[Fight]) -> tuple[Fight, ...]:
    """The default pairing: the first of :func:`valid_pairings` (matched models in side-a order, each leftover
    joining its first listed opponent)."""
    return next(valid_pairings(edges))


def all_pairings(edges: Sequence[Fight]) -> tuple[tuple[Fight, ...], ...]:
    """Every valid pairing of a small combat, in the order of :func:`valid_pairings` (their number grows exponentially)."""
    return tuple(valid_pairings(edges))


def valid_pairings(edges: Sequence[Fight]) -> Iterator[tuple[Fight, ...]]:
    """The valid pairings of a combat (LI-PAIR-4), one after another, in a fixed order.

    Each is a maximum matching plus every leftover model joining the fight of one of its (matched)
    opponents, such that no matched pair has both of its models joined. The first pairing lists
    matched models in side-a order, leftovers joining their first listed opponent: the default.
    Fights are listed star by star, in the order of their first model.

    >>> all_pairings([("A", "C"), ("B", "D"), ("E", "C"), ("E", "D")])
    ((('A', 'C'), ('E', 'C'), ('B', 'D')), (('A', 'C'), ('B', 'D'), ('E', 'D')))
    """
    nu = maximum_matching_size(edges)
    left = sorted({a for a, _ in edges})
    adj = {a: [b for x, b in edges if x == a] for a in left}
    seen: set[frozenset[Fight]] = set()

    def matchings(i: int, used: frozenset[str], chosen: tuple[Fight, ...]) -> Iterable[tuple[Fight, ...]]:
        if len(chosen) + (len(left) - i) < nu:
            return
        if i == len(left):
            if len(chosen) == nu:
                yield chosen
            return
        a = left[i]
        for b in adj[a]:
            if b not in used:
                yield from matchings(i + 1, used | {b}, chosen + ((a, b),))
        yield from matchings(i + 1, used, chosen)

    for matching in matchings(0, frozenset(), ()):
        matched = {m for f in matching for m in f}
        partner = {a: b for a, b in matching} | {b: a for a, b in matching}
        leftovers = [m for m in dict.fromkeys(x for e in edges for x in e) if m not in matched]
        options = [[f for f in edges if m in f] for m in leftovers]

        def joins(k: int, centres: frozenset[str], extra: tuple[Fight, ...]) -> Iterable[tuple[Fight, ...]]:
            if k == len(leftovers):
                yield extra
                return
            m = leftovers[k]
            for f in options[k]:
                centre = f[1] if f[0] == m else f[0]
                if partner[centre] in centres:
                    continue  # the centre's partner is already a centre: that fight would join two multi-fight models
                yield from joins(k + 1, centres | {centre}, extra + (f,))

        for extra in joins(0, frozenset(), ()):
            fights = frozenset(matching + extra)
            if fights in seen:
                continue
            seen.add(fights)
            yield ordered(edges, fights)


def ordered(edges: Sequence[Fight], fights: Iterable[Fight]) -> tuple[Fight, ...]:
    """A pairing's fights in their order of resolution by default: star by star, each matched pair (in contact
    order) followed by the fights that joined it."""
    fights = frozenset(fights)
    count: dict[str, int] = {}
    for a, b in fights:
        count[a] = count.get(a, 0) + 1
        count[b] = count.get(b, 0) + 1
    listed = [f for f in edges if f in fights]
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
