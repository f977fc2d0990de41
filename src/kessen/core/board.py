"""The battlefield as plain data (``Game.board``): what a picture of the board needs, the same shape in every ruleset.

Coordinates are in the ruleset's own units (``units``): millimetres or inches on a table whose origin is a
corner, or squares on a grid (x to the right, y down, the top-left square is 0,0). Every value is a JSON scalar,
list or object, so a board goes to the web page as it is.
"""

from __future__ import annotations

from typing import Literal, TypedDict


class TerrainPiece(TypedDict):
    """One piece of terrain: *kind* is a word of the ruleset catalogue's ``terrain`` table (``wall``, ``drop``,
    ``cover``, ``high_ground``, ``obstacle``, ``deep_water``, ...). A ``rect`` is ``[[x0, y0], [x1, y1]]``, a
    ``segment`` its two ends, a ``square`` one grid square ``[[x, y]]``; *height* is its height or depth in board
    units where it has one (a drop's depth, a hill's height), else None."""

    kind: str
    shape: Literal["rect", "segment", "square"]
    points: list[list[float]]
    height: float | None


class BoardModel(TypedDict):
    """One model, stand or solo on the board.

    Round bases have a *base* diameter and (x, y) is the centre; on a grid, *footprint* is [width, depth] in
    squares and (x, y) the top-left square. *wounds* and *wounds_max* are None where the ruleset counts none;
    *status* lists the ruleset's words for its state (``fallen``, ``prone``, ``engaged``, ``routed``, ...);
    *group* is the unit or Detachment it belongs to, or None.
    """

    id: str
    name: str
    side: str
    x: float
    y: float
    base: float | None
    footprint: list[int] | None
    wounds: int | None
    wounds_max: int | None
    status: list[str]
    group: str | None


class Board(TypedDict):
    """The whole battlefield: its size, its terrain and every model on it, sides in the scenario's order."""

    ruleset: str
    units: Literal["mm", "inch", "square"]
    width: float
    height: float
    sides: list[str]
    terrain: list[TerrainPiece]
    models: list[BoardModel]
