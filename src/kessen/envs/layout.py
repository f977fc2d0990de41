"""The observation and the action space of a ruleset's environments: one :class:`Layout` per ruleset, the same arrays
for every scenario of it (issue 25 §1).

Everything here is read from the public board data (``Game.board``: models, terrain, in the table's units), the
decision the game tree stands at (its kind, options, actor) and the notation the ruleset parses; no rule is written
again. docs/envs.md gives the layouts of the four rulesets.

Observation (a dict of numpy arrays, ``float32`` unless said):

- ``models`` ``(max_models, len(columns))``: one row per model, in the order the board first listed it (a model
  that leaves the board keeps its row, with ``present`` 0); the columns are :data:`MODEL_COLUMNS` then one per word
  of the ruleset's ``status_words``. Positions and sizes are fractions of the table's width and depth.
- ``board`` ``(3 + len(terrain_kinds), grid, grid)``: the table cut into ``grid`` × ``grid`` cells (on a square grid
  one cell a square, the board in the top-left corner): the observer's models, the enemy's, ``reach`` (the cells of
  the candidate points the referee accepts for the pending free move), then one layer per terrain kind.
- ``decision`` ``(len(decision_kinds) + 2,)``: the pending decision's kind one-hot, then ``free`` and ``to_act``
  (the observer decides now).
- ``action_mask`` ``(actions,)`` ``int8``: 1 for every action the observer may take now.

Actions: ``0 .. max_options - 1`` are the decision's suggested options in the ruleset's order (the default policy's
first; a decision with more options than ``max_options`` offers its first ``max_options``); then ``points × points``
candidate points, row by row, ``spacing`` apart in the table's units and centred on the model (or Detachment) that
moves, each the notation the ruleset's ``point_notation`` writes for it (``move hero to 455,320``), offered where
the referee accepts it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kessen.core.board import Board, BoardModel
from kessen.core.engine import Decision
from kessen.core.records import picklable

MODEL_COLUMNS = ("present", "own", "acting", "x", "y", "base", "width", "depth", "wounds", "wounds_max", "wounds_share")
"""The columns every ruleset's model table starts with; ``wounds`` columns are 0 where a ruleset counts none."""

BOARD_LAYERS = ("own", "enemy", "reach")
"""The board layers before the terrain kinds."""

Mover = Callable[[Decision, Board, Callable[[Any], str]], "tuple[str, float, float] | None"]
"""Who a point action moves at *decision*, and from where: (id, x, y), or None where no point is offered. The third
argument gives a suggested option's notation (battlehost names the mover there)."""

PointNotation = Callable[[Decision, str], "str | None"]
"""The notation that puts the mover *id* at a point at *decision*, without the point (``move hero to ``), or None
where this decision takes no point."""


@dataclass(frozen=True, slots=True)
class Layout:
    """A ruleset's observation and action layout (see the module's docstring)."""

    ruleset: str
    max_models: int
    max_options: int
    status_words: tuple[str, ...]
    terrain_kinds: tuple[str, ...]
    decision_kinds: tuple[str, ...]
    points: int
    spacing: float
    mover: Mover
    point_notation: PointNotation
    max_chance_outcomes: int = 1024
    grid: int = 32

    @property
    def columns(self) -> tuple[str, ...]:
        return MODEL_COLUMNS + self.status_words

    @property
    def layers(self) -> tuple[str, ...]:
        return BOARD_LAYERS + self.terrain_kinds

    @property
    def actions(self) -> int:
        """The size of the discrete action space."""
        return self.max_options + self.points * self.points

    def offsets(self) -> list[tuple[int, float, float]]:
        """Each point action with its offset from the mover, row by row (y, then x)."""
        half = self.points // 2
        return [
            (self.max_options + row * self.points + col, (col - half) * self.spacing, (row - half) * self.spacing)
            for row in range(self.points) for col in range(self.points)
        ]

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Each observation array's shape."""
        return {
            "models": (self.max_models, len(self.columns)),
            "board": (len(self.layers), self.grid, self.grid),
            "decision": (len(self.decision_kinds) + 2,),
            "action_mask": (self.actions,),
        }


picklable(Layout)  # compiled, a native class (setup.py): it pickles through its init fields


def point_text(units: str, x: float, y: float) -> str:
    """A point as notation writes it: whole squares, millimetres to a tenth, inches to a hundredth."""
    if units == "square":
        return f"{round(x)},{round(y)}"
    digits = 1 if units == "mm" else 2
    return f"{round(x, digits):g},{round(y, digits):g}"


OWN, ACTING = MODEL_COLUMNS.index("own"), MODEL_COLUMNS.index("acting")


class Encoder:
    """Fills one scenario's observation arrays, keeping between calls what seldom changes (issue 25 §2).

    Each model's row of the table, less ``own`` and ``acting``, is kept with the board model it was written from and
    written again only when that model's board data differs (a step of a battle moves or marks a model or two); its
    board cells are kept with it. The board layers are a copy of a blank that already holds the terrain, the
    terrain drawn again only when the board's terrain differs. What depends on who looks (``own``, the own and
    enemy layers) and on the decision (``acting``, ``reach``) is set on the copies at each call, in a few numpy
    calls whatever the number of models. The result is the same as the table and layers written afresh: the same
    arithmetic on the same board data (``tests/envs/test_observations.py``)."""

    def __init__(self, layout: Layout, board: Board, rows: dict[str, int] | None = None) -> None:
        self.layout = layout
        self.rows: dict[str, int] = dict(rows) if rows else {}
        self.width, self.height = float(board["width"]), float(board["height"])
        self.square = board["units"] == "square"
        if self.square and (board["width"] > layout.grid or board["height"] > layout.grid):
            raise ValueError(f"the board is {board['width']:g} × {board['height']:g} squares: "
                             f"the environment's grid holds {layout.grid} × {layout.grid}")
        self.cell_w = 1.0 if self.square else self.width / layout.grid
        self.cell_h = 1.0 if self.square else self.height / layout.grid
        self._status = {word: len(MODEL_COLUMNS) + i for i, word in enumerate(layout.status_words)}
        self._unmarked = [0.0] * len(layout.status_words)
        self._per_x, self._per_y = 1.0 / self.cell_w, 1.0 / self.cell_h
        self._plane = layout.grid * layout.grid
        self._decisions: dict[tuple[str, bool, bool] | None, np.ndarray] = {}
        self._terrain_key: list[Any] | None = None
        self._blank = np.zeros((len(layout.layers), layout.grid, layout.grid), np.float32)
        most = layout.max_models
        self._table = np.zeros((most, len(layout.columns)), np.float32)  # own and acting left 0
        self._seen: list[BoardModel | None] = [None] * most  # a copy of the board model each row was written from
        self._side: list[str] = [""] * most
        self._id: list[str] = [""] * most
        self._group: list[str | None] = [None] * most
        self._cells: list[tuple[list[int], list[int]]] = [([], [])] * most  # the row's cells, flat: own, enemy
        self._present: list[int] = []  # the rows of the models on the board at the last call, in its order
        self._row(board["models"])

    def again(self, board: Board) -> Encoder:
        """An encoder for a new battle of the same scenario from its first *board*: rows numbered afresh, the terrain
        layers already drawn kept (they are never changed in place)."""
        found = Encoder(self.layout, board)
        found._blank, found._terrain_key = self._blank, self._terrain_key
        return found

    def _row(self, models: Sequence[BoardModel]) -> None:
        for m in models:
            if m["id"] not in self.rows:
                if len(self.rows) == self.layout.max_models:
                    raise ValueError(f"more than {self.layout.max_models} models on the board: the environment's "
                                     f"{self.layout.ruleset} layout holds {self.layout.max_models}")
                self.rows[m["id"]] = len(self.rows)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        """The (row, column) of the cell holding (x, y), clipped to the grid."""
        last = self.layout.grid - 1
        return min(last, max(0, int(y / self.cell_h))), min(last, max(0, int(x / self.cell_w)))

    def _write(self, row: int, m: BoardModel) -> None:
        """Row *row* of the table and its cells from the board model *m*."""
        w, h, grid = self.width, self.height, self.layout.grid
        x, y, base, foot = m["x"], m["y"], m["base"] or 0.0, m["footprint"]
        wide, deep = (foot[0], foot[1]) if foot else (base, base)
        wounds, most = m["wounds"] or 0, m["wounds_max"] or 0
        values = [1.0, 0.0, 0.0, x / w, y / h, base / w, wide / w, deep / h, wounds, most,
                  wounds / most if most else 1.0, *self._unmarked]
        status = self._status
        for word in m["status"]:
            column = status.get(word)
            if column is not None:
                values[column] = 1.0
        self._table[row] = values
        if self.square and foot:
            rows = range(max(0, int(y)), min(grid, max(0, int(y + deep))))
            cols = range(max(0, int(x)), min(grid, max(0, int(x + wide))))
            cells = [r * grid + c for r in rows for c in cols]
            self._cells[row] = (cells, [self._plane + c for c in cells])
        else:
            last = grid - 1
            cell = min(last, max(0, int(y * self._per_y))) * grid + min(last, max(0, int(x * self._per_x)))
            self._cells[row] = ([cell], [self._plane + cell])  # the own layer's cells, the enemy layer's
        # a copy, its lists too: the caller may change its board
        self._seen[row] = {**m, "status": list(m["status"]), "footprint": None if foot is None else list(foot)}
        self._side[row], self._id[row], self._group[row] = m["side"], m["id"], m["group"]

    def _erase(self, row: int) -> None:
        """Row *row* of a model no longer on the board: all zero."""
        self._table[row] = 0.0
        self._seen[row] = None
        self._cells[row] = ([], [])

    def encode(self, board: Board, side: str, actor: str, reach: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
        """The model table and the board layers seen by *side*: the model (or Detachment) *actor* marked as acting,
        *reach* the points the pending free move may go to."""
        layout, rows, seen = self.layout, self.rows, self._seen
        terrain = board["terrain"]
        if terrain != self._terrain_key:
            self._blank = np.zeros_like(self._blank)
            self._blank[len(BOARD_LAYERS):] = self._terrain_layers(terrain)
            self._terrain_key = copy.deepcopy(terrain)
        found = board["models"]
        at: list[int] = []
        for m in found:
            row = rows.get(m["id"])
            if row is None:
                self._row(found)
                row = rows[m["id"]]
            at.append(row)
            if seen[row] != m:
                self._write(row, m)
        if at != self._present:
            for row in set(self._present).difference(at):
                self._erase(row)
            self._present = at
        grid = layout.grid
        plane = grid * grid
        mine: list[int] = []
        acting: list[int] = []
        cells: list[int] = []  # the flat indices of the layers' cells to mark
        sides, ids, groups, per_row = self._side, self._id, self._group, self._cells
        for row in at:
            if sides[row] == side:
                mine.append(row)
                cells += per_row[row][0]
            else:
                cells += per_row[row][1]
            if ids[row] == actor or groups[row] == actor:
                acting.append(row)
        if reach:
            per_x, per_y, last = self._per_x, self._per_y, grid - 1
            for x, y in reach:
                cells.append(2 * plane + min(last, max(0, int(y * per_y))) * grid + min(last, max(0, int(x * per_x))))
        layers = self._blank.copy()
        if cells:
            layers.put(cells, 1.0)
        models = self._table.copy()
        for row in mine:  # a few scalar writes cost less than one numpy call with a list of indices
            models[row, OWN] = 1.0
        for row in acting:
            models[row, ACTING] = 1.0
        return models, layers

    def _terrain_layers(self, terrain: list[Any]) -> np.ndarray:
        layout = self.layout
        found = np.zeros((len(layout.terrain_kinds), layout.grid, layout.grid), np.float32)
        kinds = {kind: i for i, kind in enumerate(layout.terrain_kinds)}
        centres_x = (np.arange(layout.grid) + 0.5) * self.cell_w
        centres_y = (np.arange(layout.grid) + 0.5) * self.cell_h
        for piece in terrain:
            layer = kinds.get(piece["kind"])
            if layer is None:
                continue
            points = piece["points"]
            if piece["shape"] == "square":
                r, c = self.cell(points[0][0], points[0][1])
                found[layer, r, c] = 1.0
            elif piece["shape"] == "rect":
                (x0, y0), (x1, y1) = points
                cols = (centres_x >= min(x0, x1)) & (centres_x <= max(x0, x1))
                rows = (centres_y >= min(y0, y1)) & (centres_y <= max(y0, y1))
                found[layer][np.ix_(rows, cols)] = 1.0
                r, c = self.cell((x0 + x1) / 2, (y0 + y1) / 2)
                found[layer, r, c] = 1.0  # a piece smaller than a cell still shows
            else:
                (x0, y0), (x1, y1) = points
                steps = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / (min(self.cell_w, self.cell_h) / 2)))
                for i in range(steps + 1):
                    r, c = self.cell(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
                    found[layer, r, c] = 1.0
        return found

    def decision(self, decision: Decision | None, side: str) -> np.ndarray:
        """The pending decision's kind one-hot, ``free`` and ``to_act`` (a copy of the one made the first time)."""
        key = None if decision is None else (decision.kind, bool(decision.free), decision.player == side)
        found = self._decisions.get(key)
        if found is None:
            kinds = self.layout.decision_kinds
            found = self._decisions[key] = np.zeros(len(kinds) + 2, np.float32)
            if key is not None:
                found[kinds.index(key[0])] = 1.0
                found[-2], found[-1] = key[1], key[2]
        return found.copy()
