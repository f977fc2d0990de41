"""Where a model may go and what lies between two models, as the referee answers them (issue 24 §2).

Nothing here knows a movement rule: a place is reachable when the match accepts ``move <model> to x,y`` there (the
form every ruleset documents for its ``move`` decision), asked through :meth:`kessen.Match.odds`, which parses and
checks the choice exactly as a move would be checked, changing nothing. The ruler measures with the geometry the
referees use (:mod:`kessen.core.geometry`, armies-clash's squares) and asks a ruleset that has a line-of-sight rule
its own function.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kessen.core.board import Board, BoardModel
from kessen.core.errors import IllegalChoice, InputError
from kessen.core.geometry import base_gap
from kessen.match import Match

RAYS = 48
"""Directions a table's reach is looked for along, one every 7.5 degrees."""
MISSES = 3
"""Refused places in a row along a ray after which it is given up."""
MOST_CHECKS = 6_000
"""[DECISION] The most places one reach asks the referee about (a large grid is looked at near its suggested moves
only): about a second at the slowest ruleset's 0.2 ms a check."""


def _model(board: Board, model_id: str, field: str) -> BoardModel:
    for model in board["models"]:
        if model["id"] == model_id:
            return model
    raise InputError(field, model_id, "no model of this id is on the board")


def _free_move(match: Match) -> None:
    pending = match.decision
    if pending is None or not pending.free:
        raise InputError("match", InputError.NOTHING, "no free decision is asked now: nothing can be moved to a point")


def _legal(match: Match, notation: str) -> bool:
    try:
        match.odds(notation)
    except IllegalChoice:
        return False
    return True


def _point(units: str, x: float, y: float) -> str:
    """A point as notation writes it: whole millimetres, tenths of an inch (as the page's clicks write it)."""
    if units == "inch":
        return f"{round(x, 1):g},{round(y, 1):g}"
    return f"{round(x)},{round(y)}"


def reach(match: Match, model_id: str) -> dict[str, Any]:
    """Where *model_id* may move now: on a grid every square it may end on, each with the notation that moves it
    there (and the suggested option's words where one says it); on a table the area reached along :data:`RAYS`
    rays from its centre and the ring through its farthest point."""
    _free_move(match)
    board = match.board()
    model = _model(board, model_id, "model")
    if board["units"] == "square":
        return {"model": model_id, "squares": _squares(match, board, model_id), "area": None, "ring": None}
    return {"model": model_id, "squares": [], **_area(match, board, model)}


def _squares(match: Match, board: Board, model_id: str) -> list[dict[str, Any]]:
    pending = match.decision
    words = {o.notation: o.text for o in pending.options} if pending else {}
    width, height = int(board["width"]), int(board["height"])
    candidates = [(x, y) for x in range(width) for y in range(height)]
    if len(candidates) > MOST_CHECKS:  # near the suggested ends of moves only
        suggested = [tuple(int(v) for v in n.rsplit(" ", 1)[1].split(",")) for n in words if n.startswith(f"move {model_id} to ")]
        candidates = sorted({(x + dx, y + dy) for x, y in suggested for dx in range(-2, 3) for dy in range(-2, 3) if 0 <= x + dx < width and 0 <= y + dy < height})
    found = []
    for x, y in candidates[:MOST_CHECKS]:
        notation = f"move {model_id} to {x},{y}"
        if _legal(match, notation):
            found.append({"x": x, "y": y, "notation": notation, "text": words.get(notation)})
    return found


def _area(match: Match, board: Board, model: BoardModel) -> dict[str, Any]:
    x0, y0 = model["x"], model["y"]
    step = max((model["base"] or 0) / 2, max(board["width"], board["height"]) / 400)
    longest = math.hypot(board["width"], board["height"])
    checks = 0
    area: list[list[float]] = []
    farthest = 0.0
    for k in range(RAYS):
        angle = 2 * math.pi * k / RAYS
        dx, dy = math.cos(angle), math.sin(angle)
        best, misses, distance = 0.0, 0, step
        while misses < MISSES and distance <= longest and checks < MOST_CHECKS:
            x, y = x0 + dx * distance, y0 + dy * distance
            checks += 1
            inside = 0 <= x <= board["width"] and 0 <= y <= board["height"]
            if inside and _legal(match, f"move {model['id']} to {_point(board['units'], x, y)}"):
                best, misses = distance, 0
            else:
                misses += 1
            distance += step
        farthest = max(farthest, best)
        area.append([round(x0 + dx * best, 3), round(y0 + dy * best, 3)])
    if farthest == 0:
        return {"area": None, "ring": None}
    return {"area": area, "ring": {"x": x0, "y": y0, "r": round(farthest, 3)}}


def measure(match: Match, a: str, b: str) -> dict[str, Any]:
    """The distance between models *a* and *b* (centres, and base edge to base edge, or squares between their
    footprints on a grid), and whether *a* sees *b* where the ruleset has a line-of-sight rule (None where every
    model sees every model)."""
    board = match.board()
    first, second = _model(board, a, "a"), _model(board, b, "b")
    answer: dict[str, Any] = {"a": a, "b": b, "units": board["units"]}
    if board["units"] == "square":
        from kessen.rulesets.armies_clash.rules.grid import Footprint, distance

        feet = [Footprint(int(m["x"]), int(m["y"]), (m["footprint"] or [1])[0]) for m in (first, second)]
        answer |= {"distance": distance(feet[0], feet[1]), "gap": None}
    else:
        ar, br = (first["base"] or 0) / 2, (second["base"] or 0) / 2
        answer |= {
            "distance": round(math.hypot(first["x"] - second["x"], first["y"] - second["y"]), 3),
            "gap": round(base_gap(first["x"], first["y"], ar, second["x"], second["y"], br), 3),
        }
    sight = _SIGHT.get(match.ruleset.id)
    seen = sight(match.state, a, b) if sight is not None else None
    answer |= {"sight": None if seen is None else seen[0], "sight_rule": None if seen is None else seen[1]}
    return answer


def _battlehost_sight(state: Any, a: str, b: str) -> tuple[bool, str]:
    """Terrain meeting the sight triangle blocks it; a model in it only hides the target partly (BH-GEO-8)."""
    from kessen.rulesets.battlehost.referee.battlefield import terrain_blocks_sight

    return not terrain_blocks_sight(state.get(a), state.get(b), state.board), "BH-GEO-8"


def _legions_sight(state: Any, a: str, b: str) -> tuple[bool, str]:
    """Sight is the scenario's (§3.7): every pair unless blocked, a fully obscured Knight or Titan unseen."""
    from kessen.rulesets.legions.referee.battlefield import can_see

    return can_see(state, state.model(a), state.model(b)), "LI-OBSC-1"


_SIGHT: dict[str, Callable[[Any, str, str], tuple[bool, str]]] = {
    "battlehost": _battlehost_sight,
    "legions": _legions_sight,
}
"""The rulesets with a line-of-sight rule, each answered by its referee's own function. [DECISION] song-of-blades
and armies-clash have none (every model sees every model; armies-clash's cover is a square's terrain): None."""
