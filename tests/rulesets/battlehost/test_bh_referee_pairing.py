"""Splitting the engaged models into fights (BH-FIGHT-1): every allowed split is offered, whole or fight by fight,
checked against an enumeration of every partition of the contacts (no cap on the choices)."""

from __future__ import annotations

import itertools
import math

from bh_referee_support import CONTACT, decision, fight_phase, model, node, step
from hypothesis import given, settings
from hypothesis import strategies as hs

from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee.pairing import MAX_SPLITS, ContactGraph, Fight, groups, splits

Edge = tuple[str, str]


def partitions_by_hand(goods: list[str], evils: list[str], edges: list[Edge]) -> set[frozenset[Fight]]:
    """BH-FIGHT-1 restated: every way to cover each model with fights (a lone model and enemies in contact with it,
    each model in exactly one fight), keeping those with the greatest number of fights; by trying every subset of
    the contacts as the set of 'fights beside each other' edges."""
    found: dict[frozenset[Fight], int] = {}
    for n in range(1, len(edges) + 1):
        for chosen in itertools.combinations(edges, n):
            touched = [m for e in chosen for m in e]
            if set(touched) != set(goods) | set(evils):
                continue
            degree = {m: touched.count(m) for m in touched}
            fights = []
            for g, e in chosen:
                if degree[g] > 1 and degree[e] > 1:
                    break  # a path of three contacts: not a lone model with its enemies
            else:
                centres = {m for m, k in degree.items() if k > 1}
                pieces: dict[str, set[str]] = {}
                for g, e in chosen:
                    centre = g if g in centres else e if e in centres else min(g, e)
                    pieces.setdefault(centre, {centre}).update((g, e))
                for members in pieces.values():
                    fights.append(Fight(tuple(sorted(m for m in members if m in goods)), tuple(sorted(m for m in members if m in evils))))
                found[frozenset(fights)] = len(fights)
    most = max(found.values())
    return {split for split, count in found.items() if count == most}


def graph_of(goods: list[str], evils: list[str], edges: list[Edge]) -> ContactGraph:
    graph: dict[str, list[str]] = {m: [] for m in goods + evils}
    for g, e in edges:
        graph[g].append(e)
        graph[e].append(g)
    order = {m: i for i, m in enumerate(sorted(goods + evils))}
    side = {**{g: "good" for g in goods}, **{e: "evil" for e in evils}}
    return ContactGraph({m: tuple(sorted(v)) for m, v in graph.items()}, side, order)


@hs.composite
def contact_graphs(draw: hs.DrawFn) -> tuple[list[str], list[str], list[Edge]]:
    """A connected bipartite contact graph of up to 4 against 4 models with at most 9 contacts."""
    goods = [f"g{i}" for i in range(draw(hs.integers(1, 4)))]
    evils = [f"e{i}" for i in range(draw(hs.integers(1, 4)))]
    pairs = list(itertools.product(goods, evils))
    edges = draw(hs.lists(hs.sampled_from(pairs), min_size=1, max_size=9, unique=True))
    touched = {m for e in edges for m in e}
    goods, evils = [g for g in goods if g in touched], [e for e in evils if e in touched]
    graph = graph_of(goods, evils, edges)
    if len(_reach(graph, goods[0])) != len(goods) + len(evils):
        edges = edges + [(g, e) for g, e in zip(goods, evils[1:] + evils[:1]) if (g, e) not in edges]
    return goods, evils, edges


def _reach(graph: ContactGraph, start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for n in graph.graph[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


@settings(max_examples=150, deadline=None)
@given(contact_graphs())
def test_bh_fight_1_allowed_splits_are_exactly_the_partitions_with_most_fights(case: tuple[list[str], list[str], list[Edge]]) -> None:
    """BH-FIGHT-1: the splits offered are exactly the partitions into fights (a lone model with enemies in contact)
    with the greatest number of fights, each once."""
    goods, evils, edges = case
    graph = graph_of(goods, evils, edges)
    everyone = frozenset(goods + evils)
    found = [frozenset(s) for s in graph.splits(everyone, graph.matching(everyone))]
    assert len(found) == len(set(found))
    assert set(found) == partitions_by_hand(goods, evils, edges)
    assert {len(s) for s in found} == {len(graph.matching(everyone)) // 2}


def hex_block(columns: int) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Two rows of Good models with a row of Evil models between them, hex-packed: each orc touches two men below
    and two above."""
    h = CONTACT * math.sin(math.pi / 3)
    good = [model(f"G{i}", 5 + i * CONTACT, 10) for i in range(columns)]
    good += [model(f"H{i}", 5 + i * CONTACT, 10 + 2 * h) for i in range(columns)]
    evil = [model(f"E{i}", 5 + CONTACT / 2 + i * CONTACT, 10 + h) for i in range(columns)]
    return good, evil


def test_bh_fight_1_a_group_with_many_splits_is_split_fight_by_fight_and_nothing_is_left_out() -> None:
    """BH-FIGHT-1: a block of 8 men and 4 orcs has 41 allowed splits, more than MAX_SPLITS: the priority player
    chooses the fight of the first model, then the rest is split; every path of choices ends in an allowed split
    and every allowed split is reached (none is dropped, as a cap on the list would)."""
    good, evil = hex_block(4)
    state = fight_phase(good, evil)
    (group,) = groups(state.models)
    allowed = {frozenset(s) for s in splits(state.models, group)}
    assert len(allowed) == 41 > MAX_SPLITS
    first = decision(state, "split")
    assert all(len(o.fights) == 1 and "G0" in o.fights[0].members for o in first.options)
    reached: set[frozenset[Fight]] = set()

    def walk(s: st.BhState) -> None:
        if node(s).kind == "split":
            for option in decision(s, "split").options:
                walk(step(s, option)[0])
            return
        reached.add(frozenset(s.fights) if s.fighting is None else frozenset((*s.fights, s.fighting.fight)))

    walk(state)
    assert reached == allowed


def test_bh_fight_1_a_group_with_few_splits_offers_them_whole() -> None:
    """BH-FIGHT-1: a block of 6 men and 3 orcs has 11 allowed splits, at most MAX_SPLITS: all 11 are offered whole."""
    good, evil = hex_block(3)
    state = fight_phase(good, evil, priority="evil")
    ask = decision(state, "split")
    assert ask.player == "evil"
    (group,) = groups(state.models)
    assert {frozenset(o.fights) for o in ask.options} == {frozenset(s) for s in splits(state.models, group)}
    assert len(ask.options) == 11
