"""Maps drawn as text for the terminal, the same way in every ruleset (issue 24 §7): north up (y grows up the page, as
on the web board), rows counted from the southern edge, the y of each row's southern edge on its left and the x of
every few columns' western edge on a ruler under the map. Only the drawing: a ruleset's coordinates never change."""

from __future__ import annotations


def row_of(y: float, rows: int, down: float) -> int:
    """The drawn row (0 at the top) of a board *y*, for *rows* rows of *down* board units from y = 0 up."""
    return rows - 1 - min(rows - 1, max(0, int(y // down)))


def row_labels(rows: int, down: float) -> list[str]:
    """Each drawn row's label, top row first: the y of its southern edge, right-aligned to one width."""
    labels = [number((rows - 1 - r) * down) for r in range(rows)]
    width = max(len(label) for label in labels)
    return [label.rjust(width) for label in labels]


def ruler(columns: int, across: float, every: int, indent: int) -> str:
    """A line under a map of *columns* columns of *across* board units: the x of every *every*-th column's western
    edge written from that column (a label that would run into the one before it is left out), after *indent*
    spaces."""
    line: list[str] = []
    for c in range(0, columns, max(1, every)):
        label = number(c * across)
        if len(line) < c or not line:
            line += [" "] * (c - len(line)) + list(label)
    return " " * indent + "".join(line).rstrip()


def number(value: float) -> str:
    """A coordinate as a tick shows it: to one decimal below 10 (half inches), else whole (millimetres)."""
    return f"{value:.1f}" if abs(value) < 10 and not float(value).is_integer() else str(round(value))
