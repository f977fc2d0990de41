"""Fights and their order: splitting the engaged models into fights (BH-FIGHT-1).

An allowed split of a group of touching models is a partition into fights, each a lone model and one or more
enemies in base contact with it, with as many fights as a maximum matching of the contact graph has pairs. Every
allowed split is offered: whole, when a group has at most MAX_SPLITS of them, else one fight at a time (the fights
its first model can be in), the rest of the group being split again afterwards. No split is ever left out.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from kessen.core.records import record
from kessen.rulesets.battlehost.referee.battlefield import EPS, Model, in_base_contact

# A group with more allowed splits than this is split one fight at a time, so that no choice lists thousands.
MAX_SPLITS = 12


@record
class Fight:
    """One fight: a lone model and the enemies in base contact with it, listed by side (BH-FIGHT-1)."""

    good: tuple[str, ...]
    evil: tuple[str, ...]

    @property
    def members(self) -> tuple[str, ...]:
        return self.good + self.evil


Split = tuple[Fight, ...]


@record
class OpenGroup:
    """Touching models whose split into fights the priority player chooses (BH-FIGHT-1): the models, and the choices
    offered: every allowed split, or, when there are more than MAX_SPLITS, every fight its first model can be in."""

    models: tuple[str, ...]
    choices: tuple[Split, ...]


def contacts(models: Sequence[Model]) -> dict[str, tuple[str, ...]]:
    """Each engaged model's enemies in base contact, in model order (BH-FIGHT-1, BH-GEO-3): only the pairs near
    enough along x to touch are measured, each as (earlier, later) in model order."""
    found: dict[str, list[str]] = {}
    by_x = sorted(range(len(models)), key=lambda i: models[i].x)
    widest = max((m.r for m in models), default=0.0)
    for k, i in enumerate(by_x):
        reach = models[i].x + models[i].r + widest + EPS + 1e-6
        for j in by_x[k + 1 :]:
            if models[j].x > reach:
                break
            a, b = (models[i], models[j]) if i < j else (models[j], models[i])
            if a.side != b.side and in_base_contact(a, b):
                found.setdefault(a.id, []).append(b.id)
                found.setdefault(b.id, []).append(a.id)
    order = {m.id: i for i, m in enumerate(models)}
    return {k: tuple(sorted(v, key=order.__getitem__)) for k, v in sorted(found.items(), key=lambda kv: order[kv[0]])}


def _components(graph: dict[str, tuple[str, ...]], among: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The connected parts of the contact graph restricted to *among*, each in the order of *among*."""
    inside = set(among)
    order = {m: i for i, m in enumerate(among)}
    seen: set[str] = set()
    out: list[tuple[str, ...]] = []
    for start in among:
        if start in seen:
            continue
        part, todo = {start}, [start]
        while todo:
            for n in graph[todo.pop()]:
                if n in inside and n not in part:
                    part.add(n)
                    todo.append(n)
        seen |= part
        out.append(tuple(sorted(part, key=order.__getitem__)))
    return tuple(out)


def groups(models: Sequence[Model]) -> tuple[tuple[str, ...], ...]:
    """The connected groups of the contact graph, each in model order; each is split on its own."""
    graph = contacts(models)
    return _components(graph, tuple(graph))


class ContactGraph:
    """The contact graph of one group with a maximum matching kept up to date (BH-FIGHT-1).

    The number of fights of an allowed split is the size of a maximum matching; a fight (a star of the graph) can
    begin an allowed split exactly when the models left have no model without an enemy and a matching one pair
    smaller. (Fewer is impossible to exceed: the models left never hold more fights than their matching has pairs.)
    """

    def __init__(self, graph: dict[str, tuple[str, ...]], side: dict[str, str], order: dict[str, int]) -> None:
        self.graph, self.side, self.order = graph, side, order

    def matching(self, alive: frozenset[str], start: dict[str, str] | None = None) -> dict[str, str]:
        """A maximum matching among *alive* (partner of each matched model), grown from *start* where given."""
        partner = {a: b for a, b in (start or {}).items() if a in alive and b in alive}
        for v in sorted(alive, key=self.order.__getitem__):
            if self.side[v] == "good" and v not in partner:
                self._augment(v, alive, partner, set())
        return partner

    def _augment(self, v: str, alive: frozenset[str], partner: dict[str, str], visited: set[str]) -> bool:
        for w in self.graph[v]:
            if w in alive and w not in visited:
                visited.add(w)
                mate = partner.get(w)
                if mate is None or self._augment(mate, alive, partner, visited):
                    partner[v], partner[w] = w, v
                    return True
        return False

    def fights_of_first(self, alive: frozenset[str], partner: dict[str, str]) -> Iterator[tuple[Fight, frozenset[str], dict[str, str]]]:
        """Each fight containing the first model of *alive* that begins an allowed split of *alive*, with the models
        left and their maximum matching; in order of the fights' members."""
        first = min(alive, key=self.order.__getitem__)
        size = len(partner) // 2
        found: dict[Fight, tuple[frozenset[str], dict[str, str]]] = {}
        centres = [(first, ())] + [(c, (first,)) for c in self.graph[first] if c in alive]
        for centre, must in centres:
            for leaves, rest, matched in self._stars(centre, must, alive, partner, size):
                members = (centre, *leaves)
                fight = Fight(
                    tuple(sorted((m for m in members if self.side[m] == "good"), key=self.order.__getitem__)),
                    tuple(sorted((m for m in members if self.side[m] == "evil"), key=self.order.__getitem__)),
                )
                found.setdefault(fight, (rest, matched))
        for fight in sorted(found, key=lambda f: sorted(self.order[m] for m in f.members)):
            rest, matched = found[fight]
            yield fight, rest, matched

    def _stars(
        self, centre: str, must: tuple[str, ...], alive: frozenset[str], partner: dict[str, str], size: int
    ) -> Iterator[tuple[tuple[str, ...], frozenset[str], dict[str, str]]]:
        """The leaf sets of fights around *centre* (containing *must*) that leave a splittable rest."""
        around = [w for w in self.graph[centre] if w in alive]
        # an enemy of the centre touching nothing else left must join it, or it would be left without a fight
        forced = tuple(w for w in around if w in must or all(x == centre or x not in alive for x in self.graph[w]))
        optional = [w for w in around if w not in forced]

        def grow(i: int, leaves: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], frozenset[str], dict[str, str]]]:
            rest = alive - {centre, *leaves}
            matched = self.matching(rest, partner)
            if len(matched) // 2 < size - 1:
                return  # more leaves only shrink the matching further
            if i == len(optional):
                if leaves and all(any(x in rest for x in self.graph[m]) for m in rest):
                    yield tuple(sorted(leaves, key=self.order.__getitem__)), rest, matched
                return
            yield from grow(i + 1, leaves)
            yield from grow(i + 1, (*leaves, optional[i]))

        yield from grow(0, forced)

    def splits(self, alive: frozenset[str], partner: dict[str, str]) -> Iterator[Split]:
        """Every allowed split of *alive*, each fight after the one holding the earliest model left."""
        if not alive:
            yield ()
            return
        for fight, rest, matched in self.fights_of_first(alive, partner):
            for more in self.splits(rest, matched):
                yield (fight, *more)


def _in_order(split: Split, order: dict[str, int]) -> Split:
    return tuple(sorted(split, key=lambda f: min(order[m] for m in f.members)))


def _graph_of(models: Sequence[Model]) -> ContactGraph:
    return ContactGraph(contacts(models), {m.id: m.side for m in models}, {m.id: i for i, m in enumerate(models)})


def splits(models: Sequence[Model], group: Sequence[str], *, limit: int | None = None) -> tuple[Split, ...]:
    """The allowed splits of one group into fights, the greatest number of fights (BH-FIGHT-1); at most *limit*.

    Each split's fights are in the order of their earliest model.
    """
    g = _graph_of(models)
    alive = frozenset(group)
    found = g.splits(alive, g.matching(alive))
    return tuple(_in_order(s, g.order) for s in itertools.islice(found, limit))


def split_into_fights(models: Sequence[Model], group: Sequence[str]) -> tuple[Split, tuple[OpenGroup, ...]]:
    """The fights of a group that no choice can change, and the parts of it the priority player still splits
    (BH-FIGHT-1): whole splits when a part has at most MAX_SPLITS, else the fights of its first model."""
    g = _graph_of(models)
    fixed: list[Fight] = []
    open_groups: list[OpenGroup] = []
    todo = list(_components(g.graph, tuple(group)))
    while todo:
        part = todo.pop(0)
        alive = frozenset(part)
        partner = g.matching(alive)
        whole = tuple(itertools.islice(g.splits(alive, partner), MAX_SPLITS + 1))
        if len(whole) == 1:
            fixed.extend(whole[0])
            continue
        if len(whole) <= MAX_SPLITS:
            open_groups.append(OpenGroup(part, tuple(_in_order(s, g.order) for s in whole)))
            continue
        firsts = tuple((fight,) for fight, _, _ in g.fights_of_first(alive, partner))
        if len(firsts) == 1:
            fixed.extend(firsts[0])
            rest = tuple(m for m in part if m not in firsts[0][0].members)
            todo[:0] = _components(g.graph, rest)
            continue
        open_groups.append(OpenGroup(part, firsts))
    return _in_order(tuple(fixed), g.order), tuple(open_groups)


def after_choice(models: Sequence[Model], group: OpenGroup, chosen: Split) -> tuple[Split, tuple[OpenGroup, ...]]:
    """What is left of an open group once the priority player has chosen *chosen* (a whole split, or one fight of
    its first model): the fights now fixed and the parts still to split (BH-FIGHT-1)."""
    taken = {m for f in chosen for m in f.members}
    rest = tuple(m for m in group.models if m not in taken)
    if not rest:
        return (), ()
    return split_into_fights(models, rest)
