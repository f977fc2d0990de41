"""How far a piece must walk to strike its goals, around deep water and off-grid edges: the path-finding the greedy
AI's moves and the search's move ends use (AC-MOVE-4, AC-TERR-4, AC-GRID-2)."""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Mapping
from types import MappingProxyType

from kessen.rulesets.armies_clash.rules.grid import DIRECTIONS, Footprint, Grid, Square, distance

UNREACHABLE = 1000
"""Added to the straight distance of an anchor from which no path leads to striking distance of any goal, so that
such anchors still rank by it, but behind every anchor with a path."""


def passable(grid: Grid, footprint: Footprint, *, swimmer: bool) -> bool:
    """A footprint the terrain lets a piece stand on: wholly on the grid, and on deep water only with a swim speed
    (AC-MOVE-4, AC-TERR-4). Pieces are left out: they move, the river does not."""
    return grid.holds(footprint) and (swimmer or not any(s in grid.deep_water for s in footprint.squares()))


@functools.lru_cache(maxsize=256)
def walking_gaps(grid: Grid, size: int, swimmer: bool, goals: tuple[Footprint, ...]) -> Mapping[Square, int]:
    """For each anchor of a footprint of side *size* that a path joins to a goal: 1 + the orthogonal steps to the
    nearest anchor next to (or on) a goal, where a melee strike reaches (AC-ATTACK-2; 1 for such an anchor itself,
    as the straight distance would say). Breadth-first over the terrain alone; worked out once per goal set (the
    goals stand still while the other side moves) and read-only, as every caller shares it."""
    gaps: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for x in range(grid.width - size + 1):
        for y in range(grid.height - size + 1):
            fp = Footprint(x, y, size)
            if passable(grid, fp, swimmer=swimmer) and any(distance(fp, g) <= 1 for g in goals):
                gaps[(x, y)] = 1
                queue.append((x, y))
    while queue:
        x, y = queue.popleft()
        for dx, dy in DIRECTIONS:
            nxt = (x + dx, y + dy)
            if nxt not in gaps and passable(grid, Footprint(nxt[0], nxt[1], size), swimmer=swimmer):
                gaps[nxt] = gaps[(x, y)] + 1
                queue.append(nxt)
    return MappingProxyType(gaps)


def walking_gap(grid: Grid, footprint: Footprint, swimmer: bool, goals: tuple[Footprint, ...]) -> int:
    """``walking_gaps`` of *footprint*; with no path to any goal, ``UNREACHABLE`` plus the straight distance."""
    return gap_in(walking_gaps(grid, footprint.size, swimmer, goals), footprint, goals)


def gap_in(gaps: Mapping[Square, int], footprint: Footprint, goals: tuple[Footprint, ...]) -> int:
    """``walking_gap`` of *footprint* read from *gaps* (its size's ``walking_gaps``), for a caller that asks about
    many footprints of one size toward the same goals (the ends of one move)."""
    found = gaps.get((footprint.x, footprint.y))
    if found is not None:
        return found
    return UNREACHABLE + min((distance(footprint, g) for g in goals), default=0)
