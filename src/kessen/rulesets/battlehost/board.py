"""The battlehost board drawn: as text for a person at the terminal (``kessen board``, ``kessen play``), and as plain
data for a picture of it (``Game.board``, kessen.core.board). Its geometry is referee/battlefield.py."""

from __future__ import annotations

import math
from typing import Any

from rich.markup import escape

from kessen.core.board import Board
from kessen.core.engine import Node
from kessen.core.textmap import row_labels, row_of, ruler
from kessen.i18n import option_text, option_word
from kessen.rulesets.battlehost.profiles import format_fight
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee.battlefield import Model, engaged_ids
from kessen.rulesets.battlehost.rules.sides import SIDES
from kessen.rulesets.battlehost.text import next_step

RULESET_ID = "battlehost"

# --- the board drawn as text -------------------------------------------------------------------------------------------------

_GOOD_GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_EVIL_GLYPHS = "abcdefghijklmnopqrstuvwxyz"
_MORE = {"good": "+", "evil": "%"}  # models beyond the 26 letters of a side
_MAP_COLUMNS = 64  # the widest map drawn: wider boards take more inches per column


def glyphs(state: st.BhState) -> dict[str, str]:
    """Each model's letter on the map: A–Z for Good, a–z for Evil, in the scenario's order; '+' and '%' beyond."""
    out: dict[str, str] = {}
    for side, letters in zip(SIDES, (_GOOD_GLYPHS, _EVIL_GLYPHS)):
        for i, m in enumerate(state.side_models(side)):
            out[m.id] = letters[i] if i < len(letters) else _MORE[side]
    return out


def board_map(state: st.BhState) -> tuple[list[str], int, int]:
    """The board as rows of text, north up (y grows up the page, as on the web board and the other rulesets'
    maps; the referee's coordinates are unchanged): terrain blocks '#', open ground '.', each model's letter at its
    centre (a digit for several of one side in one cell, '*' for both sides), framed by the board edge (BH-GEO-5),
    each row labelled with the y of its southern edge and the x of every 12" under the map; with the inches a column
    and a row stand for."""
    board = state.board
    across = max(1, math.ceil(board.width / _MAP_COLUMNS))
    down = 2 * across  # a character is about twice as tall as it is wide
    columns, rows = math.ceil(board.width / across), math.ceil(board.height / down)
    cells: dict[tuple[int, int], list[Model]] = {}
    for m in state.models:
        cell = (min(columns - 1, int(m.x // across)), row_of(m.y, rows, down))
        cells.setdefault(cell, []).append(m)
    letter = glyphs(state)
    labels = row_labels(rows, down)
    margin = " " * len(labels[0])
    lines = [f"{margin} +" + "-" * columns + "+"]
    for r in range(rows):
        row = []
        south = (rows - 1 - r) * down
        for c in range(columns):
            here = cells.get((c, r))
            if here:
                sides = {m.side for m in here}
                row.append(letter[here[0].id] if len(here) == 1 else "*" if len(sides) > 1 else str(min(9, len(here))))
            elif any(_overlaps(block, c * across, south, (c + 1) * across, south + down) for block in board.terrain):
                row.append("#")
            else:
                row.append(".")
        lines.append(f"{labels[r]} |" + "".join(row) + "|")
    lines += [f"{margin} +" + "-" * columns + "+", ruler(columns, across, max(1, 12 // across), len(margin) + 2)]
    return lines, across, down


def _overlaps(block: Any, x0: float, y0: float, x1: float, y1: float) -> bool:
    return bool(block.x0 < x1 and block.x1 > x0 and block.y0 < y1 and block.y1 > y0)


def draw(state: st.BhState, node: Node, lang: str) -> str:
    """The board for a person at the terminal: the map with its legend, every model's profile, position and
    state, and what *node* (the state's next node) asks and of whom."""
    if state.turn == 0:
        header = _say(lang, "show_start", name=escape(state.name), turns=state.turns)
    else:
        priority = _say(lang, "show_priority", side=_word(lang, state.priority))
        header = _say(lang, "show_header", name=escape(state.name), turn=state.turn, turns=state.turns, phase=_word(lang, state.phase), priority=priority)
    rows, across, down = board_map(state)
    lines = [header, *rows, _say(lang, "board_legend", across=across, down=down)]
    letter = glyphs(state)
    for side in SIDES:
        lines.append(_say(lang, "show_side", side=_word(lang, side)))
        for m in state.side_models(side):
            lines.append("  " + _model_line(m, letter[m.id], lang))
    lines.append(_say(lang, "now", what=next_step(state, node, lang)))
    return "\n".join(lines)


def _model_line(m: Model, glyph: str, lang: str) -> str:
    might = _say(lang, "show_might", might=m.might_left) if m.is_hero else ""
    weapon = "" if m.weapon is None else _say(lang, "show_weapon", weapon=escape(m.weapon.name), range=m.weapon.range_inches, strength=m.weapon.strength)
    return _say(
        lang, "show_model", glyph=glyph, name=escape(m.id), f=format_fight(m.fight, m.shoot_value), s=m.strength, d=m.defence,
        a=m.attacks, w=m.wounds_left, wounds=m.wounds, might=might, weapon=weapon, x=f"{m.x:.2f}", y=f"{m.y:.2f}",
        prone=_say(lang, "show_prone") if m.prone else "",
    )


# --- the battlefield as plain data (Game.board) -------------------------------------------------------------


def board_data(state: st.BhState) -> Board:
    """The battlefield for a picture of it (kessen.core.board), in inches: the board, its terrain blocks
    (``impassable``, BH-GEO-5) and every model with its base diameter, wounds and statuses (``prone``, ``engaged``)."""
    board, models = state.board, state.models
    engaged = engaged_ids(models)
    return {
        "ruleset": "battlehost", "units": "inch", "width": board.width, "height": board.height, "sides": ["good", "evil"],
        "terrain": [
            {"kind": "impassable", "shape": "rect", "points": [[k.x0, k.y0], [k.x1, k.y1]], "height": None} for k in board.terrain
        ],
        "models": [
            {
                "id": m.id, "name": m.name, "side": m.side, "x": m.x, "y": m.y, "base": 2 * m.r, "footprint": None,
                "wounds": m.wounds_left, "wounds_max": m.wounds,
                "status": [s for s, on in (("prone", m.prone), ("engaged", m.id in engaged)) if on], "group": None,
            }
            for m in models
        ],
    }


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str | None) -> str:
    return option_word(RULESET_ID, lang, word or "")
