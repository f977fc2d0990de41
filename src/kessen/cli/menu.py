"""A decision's suggested options as the terminal lists them (issue 24 §7): numbered, with their words, notation and
exact odds; on a grid of squares (armies-clash), the many destinations of one move grouped instead of one line each.

A group is every suggested option written ``PREFIX x,y`` with the same prefix (``move gob-m1 to``), when there are
more than :data:`GROUPED_FROM` of them. Its squares on the grid are one line that is not numbered ("move: a square
within reach, e.g. move 5,4; reach shows them"), answered by a square typed as ``x,y`` or ``move x,y``; the squares
off the grid are one numbered line per edge, the first the referee suggests there standing for that edge. Which
squares are suggested, and what each plays, are the referee's (``Match.decision``): the menu only arranges them, and
a typed square that is not suggested goes to the referee in the group's notation, to be judged as typed notation is.
Numbers and notations stay what the referee accepts: a save holds the same steps as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from rich.cells import cell_len

from kessen import i18n
from kessen.core.board import Board
from kessen.core.textmap import row_labels, ruler
from kessen.match import ODDS_IN_WORDS, Option, PendingDecision

GROUPED_FROM = 8
"""Destinations of one form listed one per line up to this many; more are grouped."""
_SQUARE = re.compile(r"(.*) (-?\d+),(-?\d+)")
_TYPED = re.compile(r"(?:(\S+)\s+)?(-?\d+)\s*,\s*(-?\d+)")
EDGES = ("west", "east", "south", "north")


@dataclass
class Destinations:
    """The grouped destinations of one notation *prefix*: squares on the grid, and off it by edge."""

    prefix: str
    reach: dict[tuple[int, int], Option] = field(default_factory=dict)
    off: dict[str, list[tuple[tuple[int, int], Option]]] = field(default_factory=dict)

    @property
    def verb(self) -> str:
        return self.prefix.split()[0]


@dataclass
class Menu:
    """The numbered lines of a decision (*entries*, each standing for one suggested option) and its groups."""

    decision: PendingDecision
    entries: list[Option]
    groups: list[Destinations]
    notes: dict[int, tuple[Destinations, str]]

    @classmethod
    def of(cls, decision: PendingDecision, board: Board) -> Menu:
        forms: dict[str, list[tuple[tuple[int, int], Option]]] = {}
        if board["units"] == "square":
            for option in decision.options:
                found = _SQUARE.fullmatch(option.notation)
                if found:
                    forms.setdefault(found.group(1), []).append(((int(found.group(2)), int(found.group(3))), option))
        grouped = {prefix: squares for prefix, squares in forms.items() if len(squares) > GROUPED_FROM}
        size = _footprint(board, decision.actor)
        groups = {prefix: Destinations(prefix) for prefix in grouped}
        for prefix, squares in grouped.items():
            for point, option in squares:
                edge = _edge(point, size, board)
                if edge is None:
                    groups[prefix].reach[point] = option
                else:
                    groups[prefix].off.setdefault(edge, []).append((point, option))
        standing = {id(squares[0][1]): (group, edge) for group in groups.values() for edge, squares in group.off.items()}
        hidden = {id(option) for squares in grouped.values() for _, option in squares}
        entries: list[Option] = []
        notes: dict[int, tuple[Destinations, str]] = {}
        for option in decision.options:
            if id(option) in standing:
                notes[len(entries)] = standing[id(option)]
                entries.append(option)
            elif id(option) not in hidden:
                entries.append(option)
        return cls(decision, entries, list(groups.values()), notes)

    def lines(self, ruleset: str, lang: str) -> list[str]:
        """The groups' lines, then the numbered options: words, notation (when it says something the words do not),
        exact odds where the words carry none (one odds text an option), in aligned columns."""
        lines = []
        for group in self.groups:
            if group.reach:
                x, y = next(iter(group.reach))
                lines.append("      " + _text(lang, "reach_line", verb=group.verb, count=len(group.reach), example=f"{group.verb} {x},{y}"))
        rows = []
        for n, option in enumerate(self.entries):
            words = option.text
            if n in self.notes:
                group, edge = self.notes[n]
                words += _text(lang, "off_edge_note", edge=_edge_word(lang, edge), count=len(group.off[edge]))
            notation = "" if option.notation == option.text else f"[{option.notation}]"
            odds = odds_text(ruleset, lang, option.odds) if option.odds and not ODDS_IN_WORDS.search(option.text) else ""
            rows.append((words, notation, odds))
        if not rows:
            return lines
        words_width = max(cell_len(r[0]) for r in rows)
        notations_width = max(cell_len(r[1]) for r in rows)
        for n, (words, notation, odds) in enumerate(rows, 1):
            cells = [words + " " * (words_width - cell_len(words))]
            if notations_width:
                cells.append(notation + " " * (notations_width - cell_len(notation)))
            if odds:
                cells.append(odds)
            lines.append(f"{n:4}. " + "  ".join(cells).rstrip())
        return lines

    def numbered(self, number: int) -> Option | None:
        return self.entries[number - 1] if 1 <= number <= len(self.entries) else None

    def destination(self, text: str) -> Option | str | None:
        """A square typed for a group (``4,3``, ``move 4,3``): its suggested option, else the group's notation for it
        (the referee judges it); None when *text* is no square of a group."""
        typed = _TYPED.fullmatch(text.strip())
        if typed is None or not self.groups:
            return None
        verb, point = typed.group(1), (int(typed.group(2)), int(typed.group(3)))
        chosen = [g for g in self.groups if verb is None or g.verb.casefold() == verb.casefold()]
        if not chosen:
            return None
        group = chosen[0]
        offered = group.reach.get(point) or next((o for squares in group.off.values() for p, o in squares if p == point), None)
        return offered or f"{group.prefix} {point[0]},{point[1]}"

    def reach_lines(self, board: Board, lang: str) -> list[str]:
        """Each group's squares within reach on a small grid, north up with its ticks, and the squares off each edge."""
        if not self.groups:
            return [_text(lang, "no_reach")]
        width, height = int(board["width"]), int(board["height"])
        actor = self.decision.actor
        pieces: dict[tuple[int, int], str] = {}
        for model in board["models"]:
            w, d = model["footprint"] or [1, 1]
            for dx in range(w):
                for dy in range(d):
                    square = (int(model["x"]) + dx, int(model["y"]) + dy)
                    pieces[square] = "@" if model["id"] == actor or pieces.get(square) == "@" else "x"
        labels = row_labels(height, 1)
        lines = []
        for group in self.groups:
            lines.append(_text(lang, "reach_head", prefix=group.prefix, count=len(group.reach)))
            for r in range(height):
                y = height - 1 - r
                row = "".join("o" if (x, y) in group.reach else pieces.get((x, y), ".") for x in range(width))
                lines.append(f"  {labels[r]} {row}")
            lines.append(ruler(width, 1, 5, len(labels[0]) + 3))
            lines.append("  " + _text(lang, "reach_legend", actor=actor))
            for edge in EDGES:
                if edge in group.off:
                    squares = " ".join(f"{x},{y}" for (x, y), _ in group.off[edge])
                    lines.append("  " + _text(lang, "reach_off", edge=_edge_word(lang, edge), squares=squares))
        return lines


def _footprint(board: Board, actor: str) -> tuple[int, int]:
    model = next((m for m in board["models"] if m["id"] == actor), None)
    footprint = model["footprint"] if model else None
    return (footprint[0], footprint[1]) if footprint else (1, 1)


def _edge(point: tuple[int, int], size: tuple[int, int], board: Board) -> str | None:
    """The edge a footprint at *point* crosses, None when it lies on the grid (north up: y grows towards north)."""
    (x, y), (w, d) = point, size
    crossed = {"west": x < 0, "east": x + w > board["width"], "south": y < 0, "north": y + d > board["height"]}
    return next((edge for edge in EDGES if crossed[edge]), None)


def _text(lang: str, key: str, **fields: object) -> str:
    return i18n.text("cli", key, lang, **fields)


def _edge_word(lang: str, edge: str) -> str:
    return str(i18n.catalogue("cli", lang)["edges"][edge])


def odds_text(ruleset: str, lang: str, odds: Mapping[str, Fraction], *, exact: bool = False) -> str:
    """The odds of a choice as a player reads them, each labelled from the ruleset catalogue's ``[odds]`` table.

    [DECISION] A number whose key starts with ``expected_`` or ``mean_`` is an expectation (a count, damage),
    shown as its exact fraction and its decimal; every other is a probability, shown as a percentage beside its
    exact fraction (the menu rounds to one decimal, ``odds NOTATION`` to two).

    >>> odds_text("song-of-blades", "en", {"made_it": Fraction(5, 6), "expected_hits": Fraction(2, 3)})
    'made it 83.3% (5/6), expected hits 2/3 = 0.667'
    >>> odds_text("song-of-blades", "en", {"mean_wounds": Fraction(7), "sure": Fraction(1)}, exact=True)
    'mean wounds 7, sure 100.00% (1)'
    """
    labels = i18n.catalogue(ruleset, lang).get("odds", {})
    return ", ".join(f"{labels.get(key, key.replace('_', ' '))} {_number(key, Fraction(value), exact)}" for key, value in odds.items())


def _number(key: str, value: Fraction, exact: bool) -> str:
    fraction = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    if key.startswith(("expected_", "mean_")):
        return fraction if value.denominator == 1 else f"{fraction} = {float(value):.3g}"
    return f"{float(value) * 100:.{2 if exact else 1}f}% ({fraction})"
