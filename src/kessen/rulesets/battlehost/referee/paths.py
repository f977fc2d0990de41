"""Ways around terrain: the shortest way a base can go around the terrain blocks to a point, as straight legs between
the blocks' corners (a visibility graph), so that a model whose straight way to the enemy is walled off is offered a
move toward the gap (BH-MOVE-2, BH-GEO-5, BH-GEO-7; issue 23 §2: orcs stood at a wall 1" from an open door)."""

from __future__ import annotations

import functools
import heapq
import math

from kessen.core.geometry import Point
from kessen.rulesets.battlehost.referee.battlefield import EPS, Board, ground_blocks_at

CORNER_MARGIN = 5 * EPS
"""How far beyond touching a corner of the way stands off a block: a base that touches a block is blocked by it
(BH-GEO-7), so a way that runs along a block keeps this much clear of it."""


@functools.lru_cache(maxsize=4096)
def corners_toward(r: float, start: Point, goal: Point, board: Board, reached: float = 0.0) -> tuple[Point, ...]:
    """The corners a base of radius *r* at *start* can go straight to on its way round the terrain blocks to *goal*
    (each leg a straight move the ground allows, BH-GEO-7), the one on the shortest way first, then by the length of
    the way through each; corners within *reached* of *start* are passed over (the base stands at them already).
    Empty when the straight way is open or there is no way round (models are not counted: they move)."""
    if not board.terrain or not _blocked(r, start, goal, board):
        return ()
    corners = _corners(r, board)
    rest = _ways_to(r, goal, board)
    found = []
    for c, left in zip(corners, rest):
        if left < math.inf and _length(start, c) > reached and not _blocked(r, start, c, board):
            found.append((_length(start, c) + left, c.x, c.y, c))
    return tuple(c for *_key, c in sorted(found))


@functools.lru_cache(maxsize=256)
def _ways_to(r: float, goal: Point, board: Board) -> tuple[float, ...]:
    """The length of the shortest way from each of :func:`_corners` to *goal* (Dijkstra over the corners; inf where
    there is none)."""
    corners = _corners(r, board)
    nodes = (*corners, goal)
    end = len(nodes) - 1
    best = {end: 0.0}
    queue = [(0.0, end)]
    while queue:
        cost, i = heapq.heappop(queue)
        if cost > best.get(i, math.inf):
            continue
        for j in range(len(corners)):
            step = cost + _length(nodes[i], nodes[j])
            if j != i and step < best.get(j, math.inf) and not _blocked(r, nodes[j], nodes[i], board):
                best[j] = step
                heapq.heappush(queue, (step, j))
    return tuple(best.get(j, math.inf) for j in range(len(corners)))


@functools.lru_cache(maxsize=64)
def _corners(r: float, board: Board) -> tuple[Point, ...]:
    """The points just off each block's corners where a base of radius *r* stands on the board, clear of every block."""
    pad = r + CORNER_MARGIN
    found = []
    for block in board.terrain:
        for x in (block.x0 - pad, block.x1 + pad):
            for y in (block.y0 - pad, block.y1 + pad):
                if board.on_board_at(x, y, r) and not board.overlaps_terrain_at(x, y, r + EPS):
                    found.append(Point(x, y))
    return tuple(found)


def _blocked(r: float, a: Point, b: Point, board: Board) -> bool:
    return ground_blocks_at(r, a.x, a.y, b.x, b.y, board)


def _length(a: Point, b: Point) -> float:
    return math.hypot(b.x - a.x, b.y - a.y)
