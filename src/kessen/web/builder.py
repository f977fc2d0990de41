"""The scenario builder's server side (issue 24 §6): a scenario as data (its TOML read as JSON) and as TOML text,
checked by the referee at every change, with its board at the start and the handles the page drags.

The referee is the judge: a scenario is valid when its ruleset loads it and a match of it starts, exactly as
``kessen check`` and ``kessen battle`` read it. What this module knows of each ruleset's files is only where a
scenario places its models (each entry's ``x, y`` or ``at``) and where it lists rectangles of terrain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import tomli_w

from kessen.core.errors import InputError, KessenError, error_line
from kessen.io.files import parse_toml
from kessen.io.scenarios import scenario_model
from kessen.match import Match
from kessen.rulesets import get_ruleset
from kessen.web.scenarios import PASTED, shipped, shipped_text
from kessen.web.views import legend

Path = list[str | int]


def _entries(data: Any, path: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """The objects at *path* of *data*; ``*`` in the path stands for every entry of a list."""
    if not path:
        if isinstance(data, dict):
            yield [], data
        return
    head, rest = path[0], path[1:]
    if head == "*":
        for i, item in enumerate(data if isinstance(data, list) else []):
            yield from (([i, *p], found) for p, found in _entries(item, rest))
    elif isinstance(data, dict) and head in data:
        yield from (([head, *p], found) for p, found in _entries(data[head], rest))


# ruleset → the paths of the entries that place models (x, y fields, or an ``at`` pair of squares)
_PLACED: dict[str, list[Path]] = {
    "armies-clash": [["stands", "*"], ["solos", "*"]],
    "battlehost": [["good", "*"], ["evil", "*"]],
    "legions": [["formations", "*", "detachments", "*", "models", "*"]],
    "song-of-blades": [["sides", "*", "models", "*"]],
}


def _ac_rect(x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    return {"rect": [int(x0), int(y0), int(x1), int(y1)], "kind": "forest"}


def _plain_rect(x0: float, y0: float, x1: float, y1: float) -> list[float]:
    return [round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)]


# ruleset → where a drawn rectangle goes, and the entry it becomes. [DECISION] armies-clash draws forest (half
# cover, AC-TERR-3), battlehost an impassable block (BH-GEO-5), song-of-blades cover; legions scenarios have no
# terrain with a shape (its cover is the models' Cover Saves, §3.7): no rectangle tool there.
_TERRAIN: dict[str, tuple[Path, str, Callable[[float, float, float, float], Any]]] = {
    "armies-clash": (["grid", "terrain"], "forest", _ac_rect),
    "battlehost": (["terrain"], "impassable", _plain_rect),
    "song-of-blades": (["cover"], "cover", _plain_rect),
}


def handles(ruleset: str, data: Any) -> list[dict[str, Any]]:
    """Each entry that places a model (or a group of models) where it stands: its path in *data*, its point, and
    its label (the entry's id, else its name or profile)."""
    found = []
    for pattern in _PLACED.get(ruleset, []):
        for path, entry in _entries(data, pattern):
            at = entry.get("at")
            if isinstance(at, list) and len(at) == 2 and all(isinstance(v, int | float) for v in at):
                x, y, form = at[0], at[1], "at"
            elif isinstance(entry.get("x"), int | float) and isinstance(entry.get("y"), int | float):
                x, y, form = entry["x"], entry["y"], "xy"
            else:
                continue
            label = entry.get("id") or entry.get("name") or entry.get("profile") or ".".join(map(str, path))
            found.append({"path": path, "x": x, "y": y, "form": form, "label": str(label)})
    return found


def start(ruleset: str) -> dict[str, Any]:
    """What the builder opens with for *ruleset*: its scenario JSON Schema, the shipped scenarios to start from,
    and where a drawn rectangle goes."""
    chosen = get_ruleset(ruleset)
    if not chosen.plays_battles:
        raise InputError("ruleset", chosen.id, "this ruleset does not play whole battles yet")
    terrain = _TERRAIN.get(chosen.id)
    return {
        "ruleset": chosen.id,
        "schema": scenario_model(chosen.id).model_json_schema(),
        "scenarios": [{"name": s.name, "title": s.title} for s in shipped().values() if s.ruleset == chosen.id],
        "terrain": None if terrain is None else {"path": terrain[0], "kind": terrain[1]},
    }


def from_shipped(name: str, lang: str) -> dict[str, Any]:
    found = shipped().get(name)
    if found is None:
        raise InputError("scenario", name, "no shipped scenario has this name (GET /api/scenarios lists them)")
    return judged(found.ruleset, shipped_text(name), lang)


def from_text(ruleset: str, text: str, lang: str) -> dict[str, Any]:
    return judged(get_ruleset(ruleset).id, text, lang)


def from_data(ruleset: str, data: dict[str, Any], lang: str) -> dict[str, Any]:
    return judged(get_ruleset(ruleset).id, to_toml(data), lang)


def add_rectangle(ruleset: str, data: dict[str, Any], box: list[float], lang: str) -> dict[str, Any]:
    """*data* with one more rectangle of terrain from corner to corner of *box* (``[x0, y0, x1, y1]``)."""
    terrain = _TERRAIN.get(get_ruleset(ruleset).id)
    if terrain is None:
        raise InputError("ruleset", ruleset, "its scenarios have no terrain with a shape to draw")
    path, _, make = terrain
    x0, x1 = sorted(box[0::2])
    y0, y1 = sorted(box[1::2])
    holder: Any = data
    for key in path[:-1]:
        holder = holder.setdefault(key, {}) if isinstance(holder, dict) else None
        if not isinstance(holder, dict):
            raise InputError("data", InputError.NOTHING, f"{'.'.join(map(str, path))} is not a table")
    listed = holder.setdefault(path[-1], [])
    if not isinstance(listed, list):
        raise InputError("data", InputError.NOTHING, f"{'.'.join(map(str, path))} is not a list")
    listed.append(make(x0, y0, x1, y1))
    return from_data(ruleset, data, lang)


def to_toml(data: dict[str, Any]) -> str:
    try:
        return tomli_w.dumps(data)
    except (TypeError, ValueError) as error:  # a null, or a value TOML has no form for
        raise InputError("data", InputError.NOTHING, f"cannot be written as TOML: {error}") from None
    except RecursionError:
        raise InputError("data", InputError.NOTHING, "nested too deeply") from None


def judged(ruleset: str, text: str, lang: str) -> dict[str, Any]:
    """The scenario *text* as the builder shows it: its data and text, and the referee's word on it: ``ok`` with its
    sides and board at the start, or the error line ``kessen check`` would print."""
    try:
        data = parse_toml(text, PASTED)
    except InputError as error:  # text being typed: said, not refused
        return {"ruleset": ruleset, "data": None, "text": text, "handles": [], "ok": False, "error": error_line(error)}
    except RecursionError:
        raise InputError("text", InputError.NOTHING, "nested too deeply") from None
    if data.setdefault("ruleset", ruleset) != ruleset:
        raise InputError("ruleset", ruleset, f"the scenario says ruleset = {data['ruleset']!r}")
    chosen = get_ruleset(ruleset)
    answer: dict[str, Any] = {"ruleset": ruleset, "data": data, "text": text, "handles": handles(ruleset, data)}
    try:
        match = Match(chosen, text, PASTED, seed=0, lang=lang)
    except KessenError as error:
        return answer | {"ok": False, "error": error_line(error)}
    except RecursionError:
        return answer | {"ok": False, "error": error_line(InputError(PASTED, InputError.NOTHING, "nested too deeply"))}
    board = match.board()
    return answer | {"ok": True, "error": None, "sides": list(match.sides), "board": board, "legend": legend(ruleset, lang, board["terrain"], board["models"])}
