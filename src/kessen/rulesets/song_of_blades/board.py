"""The board as `kessen board` and `kessen play` show it: a map of the table with its terrain and models, a legend,
and the list of models (§3.4, §5); and the same battlefield as plain data for pictures (``Game.board``)."""

from __future__ import annotations

import math

from rich.markup import escape

from kessen.core.board import Board, BoardModel, TerrainPiece
from kessen.core.engine import Decision, Node
from kessen.core.geometry import Point
from kessen.core.textmap import row_labels, row_of, ruler
from kessen.i18n import option_text, option_word
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, Table
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.text import prompt

RULESET_ID = "song-of-blades"
COLUMNS = 45  # the map's width in characters at most; a character is twice as high as it is wide
GLYPHS = {"open": ".", "impassable": "#", "drop": ":", "cover": "%", "high_ground": "^", "obstacle": "=", "crowd": "*"}
MARKERS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
MORE = ("@", "&")  # the marker of each side's 27th model and beyond


def markers(figures: tuple[Figure, ...], sides: tuple[str, str]) -> dict[str, str]:
    """Each model's letter on the map: A-Z for the first side's models, a-z for the second's, in scenario order."""
    found: dict[str, str] = {}
    for i, side in enumerate(sides):
        for n, f in enumerate(f for f in figures if f.side == side):
            found[f.id] = MARKERS[i][n] if n < len(MARKERS[i]) else MORE[i]
    return found


def terrain_at(table: Table, p: Point) -> str:
    """The terrain under a point, the most important first: impassable, drop, cover, high ground, open."""
    if any(rect.contains(p) for rect in table.impassable):
        return "impassable"
    if any(rect.contains(p) for rect, _ in table.drops):
        return "drop"
    if table.cover_at(p) is not None:
        return "cover"
    return "high_ground" if table.ground_height(p) > 0 else "open"


def table_map(table: Table, figures: tuple[Figure, ...], marks: dict[str, str]) -> list[str]:
    """The table as rows of characters, north up, each character a cell of the table, rows counted from the southern
    edge (y = 0); a model shows in the cell of its centre (``*`` where several share a cell), an obstacle in every
    cell its segment crosses; the row labels are the cells' southern edges in mm, the x of every tenth column under
    the map."""
    columns = max(1, min(COLUMNS, round(table.width / 20)))
    cell_w = table.width / columns
    cell_h = 2 * cell_w
    rows = max(1, math.ceil(table.depth / cell_h))
    grid = [
        [GLYPHS[terrain_at(table, Point((c + 0.5) * cell_w, (rows - 1 - r + 0.5) * cell_h))] for c in range(columns)]
        for r in range(rows)
    ]

    def cell(p: Point) -> tuple[int, int]:
        return (row_of(p.y, rows, cell_h), min(columns - 1, max(0, int(p.x / cell_w))))

    for a, b in table.obstacles:
        steps = max(1, math.ceil((b - a).length() / (cell_w / 2)))
        for i in range(steps + 1):
            r, c = cell(a + (b - a).scaled(i / steps))
            grid[r][c] = GLYPHS["obstacle"]
    taken: set[tuple[int, int]] = set()
    for f in figures:
        r, c = cell(f.centre)
        grid[r][c] = GLYPHS["crowd"] if (r, c) in taken else marks[f.id]
        taken.add((r, c))
    labels = row_labels(rows, cell_h)
    lines = [f"{labels[r]} " + "".join(row) for r, row in enumerate(grid)]
    return [*lines, ruler(columns, cell_w, 10, len(labels[0]) + 1)]


def render_board(table: Table, figures: tuple[Figure, ...], sides: tuple[str, str], lang: str, *, heading: str) -> list[str]:
    """The heading, the map with its scale and legend, then each side's models with their markers."""
    marks = markers(figures, sides)
    cell_w = table.width / max(1, min(COLUMNS, round(table.width / 20)))
    lines = [heading]
    lines.append(option_text(RULESET_ID, lang, "show_scale", width=f"{cell_w:.0f}", depth=f"{2 * cell_w:.0f}"))
    lines += table_map(table, figures, marks)
    lines.append(option_text(RULESET_ID, lang, "show_legend", side_a=escape(sides[0]), side_b=escape(sides[1])))
    for side in sides:
        lines.append(f"  {escape(side)}:")
        for f in (f for f in figures if f.side == side):
            state = option_word(RULESET_ID, lang, f.state)
            lines.append(f"    {marks[f.id]} {escape(f.id):12} {escape(f.name):20} Q{f.quality}+ C{f.combat}  ({f.x:.0f}, {f.y:.0f})  {state}")
    return lines


def draw(state: SobState, node: Node, lang: str) -> str:
    """The board: the map of the table with its terrain and models, the legend, the models, then the question of
    the decision the game stands at (who decides, who acts)."""
    turn = option_text(RULESET_ID, lang, "show_turn", side=escape(state.turn.active)) if state.turn.active else option_text(RULESET_ID, lang, "show_before_roll_off")
    heading = option_text(RULESET_ID, lang, "show_header", name=escape(state.skirmish.name), round=state.turn.round, turns=state.skirmish.turns, turn=turn)
    lines = render_board(state.table, state.figures, state.skirmish.sides, lang, heading=heading)
    if isinstance(node, Decision):
        lines.append("  " + escape(prompt(state, node, lang)))
    return "\n".join(lines)


def board_data(state: SobState) -> Board:
    """The battlefield as plain data (``Game.board``): the table in mm, its terrain, and every model with its base
    and status words (``fallen``, ``transfixed``, ``engaged`` in base contact with an enemy, ``activated`` this
    turn, ``acting`` now: words of the catalogue's ``option_words``).

    Made at every step of an environment (issue 25 §2): what every model asks of the state is read once."""
    table = state.table
    terrain: list[TerrainPiece] = [
        {"kind": "impassable", "shape": "rect", "points": [[r.x0, r.y0], [r.x1, r.y1]], "height": None}
        for r in table.impassable
    ]
    for kind, rects in (("drop", table.drops), ("high_ground", table.high_ground)):
        terrain += [{"kind": kind, "shape": "rect", "points": [[r.x0, r.y0], [r.x1, r.y1]], "height": float(height)}
                    for r, height in rects]
    terrain += [{"kind": "cover", "shape": "rect", "points": [[r.x0, r.y0], [r.x1, r.y1]], "height": None}
                for r in table.cover]
    terrain += [{"kind": "obstacle", "shape": "segment", "points": [[a.x, a.y], [b.x, b.y]], "height": None}
                for a, b in table.obstacles]
    acting = state.current.model if state.current is not None else None
    turn = state.turn
    contacts = state.here.contacts
    models: list[BoardModel] = []
    for f in state.figures:
        status = [] if f.state == "standing" else [str(f.state)]
        if contacts(f):
            status.append("engaged")
        if f.id == acting:
            status.append("acting")
        elif f.id in turn.activated and f.side == turn.active:
            status.append("activated")
        models.append({"id": f.id, "name": f.name, "side": f.side, "x": f.x, "y": f.y, "base": float(f.base_mm),
                       "footprint": None, "wounds": None, "wounds_max": None, "status": status, "group": None})
    return {"ruleset": RULESET_ID, "units": "mm", "width": float(table.width), "height": float(table.depth),
            "sides": list(state.skirmish.sides), "terrain": terrain, "models": models}
