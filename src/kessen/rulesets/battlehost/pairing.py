"""Fights and their order: splitting the engaged models into fights (BH-FIGHT-1)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from kessen.rulesets.battlehost.battlefield import Model, in_base_contact

# The most splits offered for one group of touching models: the first ones found in model order.
MAX_SPLITS = 12
_MAX_MATCHINGS = 400


@dataclass(frozen=True, slots=True)
class Fight:
    """One fight: a lone model and the enemies in base contact with it, listed by side (BH-FIGHT-1)."""

    good: tuple[str, ...]
    evil: tuple[str, ...]

    @property
    def members(self) -> tuple[str, ...]:
        return self.good + self.evil


Split = tuple[Fight, ...]


def contacts(models: Sequence[Model]) -> dict[str, tuple[str, ...]]:
    """Each engaged model's enemies in base contact, in model order (BH-FIGHT-1, BH-GEO-3)."""
    found: dict[str, list[str]] = {}
    for a, b in itertools.combinations(models, 2):
        if a.side != b.side and in_base_contact(a, b):
            found.setdefault(a.id, []).append(b.id)
            found.setdefault(b.id, []).append(a.id)
    order = {m.id: i for i, m in enumerate(models)}
    return {k: tuple(sorted(v, key=order.__getitem__)) for k, v in sorted(found.items(), key=lambda kv: order[kv[0]])}


def groups(models: Sequence[Model]) -> tuple[tuple[str, ...], ...]:
    """The connected groups of the contact graph, each in model order; each is split on its own."""
    graph = contacts(models)
    order = {m.id: i for i, m in enumerate(models)}
    seen: set[str] = set()
    out: list[tuple[str, ...]] = []
    for start in graph:
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for n in graph[todo.pop()]:
                if n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        out.append(tuple(sorted(group, key=order.__getitem__)))
    return tuple(out)


def _maximum_matching_size(goods: Sequence[str], graph: dict[str, tuple[str, ...]]) -> int:
    partner: dict[str, str] = {}

    def augment(g: str, visited: set[str]) -> bool:
        for e in graph[g]:
            if e in visited:
                continue
            visited.add(e)
            if e not in partner or augment(partner[e], visited):
                partner[e] = g
                return True
        return False

    return sum(augment(g, set()) for g in goods)


def _maximum_matchings(goods: Sequence[str], graph: dict[str, tuple[str, ...]]) -> Iterator[dict[str, str]]:
    """Every maximum matching (good → evil), good models in order, each trying its enemies in order first."""
    best = _maximum_matching_size(goods, graph)

    def extend(i: int, chosen: dict[str, str], used: frozenset[str]) -> Iterator[dict[str, str]]:
        if len(chosen) + (len(goods) - i) < best:
            return
        if i == len(goods):
            yield dict(chosen)
            return
        g = goods[i]
        for e in graph[g]:
            if e not in used:
                chosen[g] = e
                yield from extend(i + 1, chosen, used | {e})
                del chosen[g]
        yield from extend(i + 1, chosen, used)

    yield from extend(0, {}, frozenset())


def splits(models: Sequence[Model], group: Sequence[str]) -> tuple[Split, ...]:
    """The allowed splits of one group into fights: the greatest number of fights (BH-FIGHT-1).

    Each comes from a maximum matching of the contact graph, every unmatched model joining the fight
    of a matched enemy it touches. At most MAX_SPLITS are offered, the first found in model order.
    """
    graph = contacts(models)
    side = {m.id: m.side for m in models}
    order = {m.id: i for i, m in enumerate(models)}
    goods = [m for m in group if side[m] == "good"]
    found: dict[Split, None] = {}
    for matching in itertools.islice(_maximum_matchings(goods, graph), _MAX_MATCHINGS):
        partner = {**matching, **{e: g for g, e in matching.items()}}
        unmatched = [m for m in group if m not in partner]
        choices = [[e for e in graph[m] if e in partner] for m in unmatched]
        for picks in itertools.product(*choices):
            joined: dict[str, list[str]] = {}
            for m, lone in zip(unmatched, picks):
                joined.setdefault(lone, []).append(m)
            fights = []
            for g, e in matching.items():
                good = [g] + joined.get(e, [])
                evil = [e] + joined.get(g, [])
                fights.append(Fight(tuple(sorted(good, key=order.__getitem__)), tuple(sorted(evil, key=order.__getitem__))))
            split = tuple(sorted(fights, key=lambda f: min(order[m] for m in f.members)))
            found.setdefault(split, None)
            if len(found) >= MAX_SPLITS:
                return tuple(found)
    return tuple(found)
