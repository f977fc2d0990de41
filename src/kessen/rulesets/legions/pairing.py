"""Pairing off the models of a combat: one-to-one wherever possible, every leftover joining one fight (LI-PAIR-1..4)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Fight = tuple[str, str]
MAX_PAIRINGS = 24
"""At most this many pairings are offered to the player with Initiative (the first ones found)."""


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


def pairings(edges: Sequence[Fight], limit: int = MAX_PAIRINGS) -> tuple[tuple[Fight, ...], ...]:
    """The valid pairings of a combat (LI-PAIR-4), the first *limit* found, in a fixed order.

    Each is a maximum matching plus every leftover model joining the fight of one of its (matched)
    opponents, such that no matched pair has both of its models joined. The first pairing lists
    matched models in side-a order, leftovers joining their first listed opponent: the default.
    Fights are listed star by star, in the order of their first model.

    >>> pairings([("A", "C"), ("B", "D"), ("E", "C"), ("E", "D")])
    ((('A', 'C'), ('E', 'C'), ('B', 'D')), (('A', 'C'), ('B', 'D'), ('E', 'D')))
    """
    nu = maximum_matching_size(edges)
    left = sorted({a for a, _ in edges})
    adj = {a: [b for x, b in edges if x == a] for a in left}
    found: list[tuple[Fight, ...]] = []
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
            found.append(_ordered(edges, fights))
            if len(found) >= limit:
                return tuple(found)
    return tuple(found)


def _ordered(edges: Sequence[Fight], fights: frozenset[Fight]) -> tuple[Fight, ...]:
    """Fights star by star: each matched pair (in edge order) followed by the fights that joined it."""
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
