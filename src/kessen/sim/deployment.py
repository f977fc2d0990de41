"""Swapping the sides' deployment in a scenario file (a sweep's ``swap_sides``).

[DECISION] Swapping deployment moves each side to where the other side stood: every piece's position is turned
half a turn about the centre of the table (x → width − x, y → height − y), so each force keeps its shape and
takes the other's ground, while the table itself (terrain, drops, walls, objectives) stays where it is. A
scenario's other asymmetries (who has priority or initiative first) are not deployment and stay as written.
The scenario file formats are the players' documented formats (``docs/scenarios/<ruleset>.md``); a swapped
position that is not legal (on terrain, off the table) is reported by the ruleset's own validation, naming the
cell and the field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kessen.core.errors import InputError

Data = dict[str, Any]

_SQUARES_BY_SIZE = {"tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4}
"""armies-clash: a creature's footprint on the grid, squares a side, by size (AC-STAND-2, AC-SOLO-3)."""


def swap_deployment(ruleset: str, data: Data) -> Data:
    """The scenario *data* (as parsed from TOML) with the sides' deployment swapped; *data* is changed in place."""
    from kessen.rulesets import get_ruleset

    swap = get_ruleset(ruleset).swap_deployment or _SWAPS.get(ruleset)  # the ruleset's own hook, where it has one
    if swap is None:
        raise InputError("swap_sides", True, f"swapping deployment is not known for {ruleset} scenarios")
    swap(data)
    return data


def _turn(entry: Data, width: float, height: float) -> None:
    if "x" in entry:
        entry["x"] = width - entry["x"]
    if "y" in entry:
        entry["y"] = height - entry["y"]


def _battlehost(data: Data) -> None:
    """Models of ``good`` and ``evil`` stand at (x, y) in inches on a ``board`` of 48" × 48" by default."""
    board = data.get("board", {})
    width, height = board.get("width", 48.0), board.get("height", 48.0)
    for side in ("good", "evil"):
        for model in data.get(side, []):
            _turn(model, width, height)


def _armies_clash(data: Data) -> None:
    """Stands and unjoined solos stand with their footprint's corner at ``at = [x, y]`` on the ``grid``; a
    footprint of n squares turned about the centre has its corner at (width − x − n, height − y − n)."""
    grid = data.get("grid", {})
    width, height = grid.get("width", 0), grid.get("height", 0)
    sizes = {c.get("id"): _SQUARES_BY_SIZE.get(c.get("size", "medium"), 1) for c in data.get("creatures", [])}
    for piece in [*data.get("stands", []), *data.get("solos", [])]:
        at = piece.get("at")
        if isinstance(at, list) and len(at) == 2:
            n = sizes.get(piece.get("creature"), 1)
            piece["at"] = [width - at[0] - n, height - at[1] - n]


_SWAPS: dict[str, Callable[[Data], None]] = {
    "battlehost": _battlehost,
    "armies-clash": _armies_clash,
}
