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


_SWAPS: dict[str, Callable[[Data], None]] = {
    "battlehost": _battlehost,
}
