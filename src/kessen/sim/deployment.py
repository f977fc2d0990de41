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

_OPPOSITE_EDGE = {"north": "south", "south": "north", "east": "west", "west": "east"}
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


def _song_of_blades(data: Data) -> None:
    """Models stand at (x, y) in mm on a table of ``options.table_width_mm`` × ``table_depth_mm`` (900 × 900)."""
    options = data.get("options", {})
    width, depth = options.get("table_width_mm", 900), options.get("table_depth_mm", 900)
    for side in data.get("sides", []):
        for model in side.get("models", []):
            _turn(model, width, depth)


def _legions(data: Data) -> None:
    """Model lines start at (x, y) and step (dx, dy) on a ``battlefield`` of 72" × 48"; each player's battlefield
    edge goes over to the opposite edge, and a model's given facing (degrees) turns with it."""
    field = data.get("battlefield", {})
    width, height = field.get("width", 72), field.get("height", 48)
    for formation in data.get("formations", []):
        for detachment in formation.get("detachments", []):
            for model in detachment.get("models", []):
                _turn(model, width, height)
                for step in ("dx", "dy"):
                    if step in model:
                        model[step] = -model[step]
                if model.get("facing") is not None:
                    model["facing"] = (model["facing"] + 180) % 360
    players = data.setdefault("players", [{"name": "player1", "edge": "south"}, {"name": "player2", "edge": "north"}])
    for player in players:
        if player.get("edge") in _OPPOSITE_EDGE:
            player["edge"] = _OPPOSITE_EDGE[player["edge"]]


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
    "song-of-blades": _song_of_blades,
    "legions": _legions,
    "armies-clash": _armies_clash,
}
