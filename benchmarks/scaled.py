"""The same scenario with 2× and 4× the models (issue 26): how a battle's cost grows with the models on the table.

A scaled scenario is the shipped one copied: every model keeps its profile, ids get ``-2``, ``-3``, ..., the same
rules questions. Two builds (:data:`BUILDS`):

- ``tiles`` (what the goal is judged on): whole copies of the table, its deployment and its terrain, laid side by
  side (2×) and two by two (4×): the table grows with the models, as a bigger battle is played on a bigger table, so
  the models stand as densely as at 1× and each has as many neighbours. The issue asks a battle's cost to grow at most
  as n log n *in the models on the table*; a build that also doubles the density doubles each model's neighbours (the
  charges it can make, the moves each move makes stale), which grows the work per model by the build, not by n.
- ``ranks`` (the older build, still reported beside it): side by side on a table twice as wide, and for 4× a second
  rank of copies behind each side's first, a rank's depth further from the centre line, on the same depth of table:
  four times the models at twice the density.

    .venv/bin/python -m benchmarks.scaled examples/battlehost/line-fight.toml 4 [tiles|ranks] > out/line-fight-4x.toml
"""

from __future__ import annotations

import copy
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomli_w

SCALED = {"battlehost": "line-fight", "song-of-blades": "warband-skirmish"}
"""The scenario of each ruleset whose cost is measured at 1×, 2× and 4× the models (``make bench``)."""

FACTORS = (1, 2, 4)

BUILDS = ("tiles", "ranks")
"""How a scenario is scaled: whole tables two by two (the same density, judged), or ranks on a wider table (twice
the density at 4×)."""

_LAYOUT: dict[str, dict[str, Any]] = {
    "battlehost": {"width": ("board", "width", 48.0), "depth": ("board", "height", 48.0), "rank": 5.0},
    "song-of-blades": {"width": ("options", "table_width_mm", 900), "depth": ("options", "table_depth_mm", 900), "rank": 100.0},
}
"""Where each ruleset keeps the table's size (section, key, default), and a rank's depth in its unit."""


def scaled(ruleset: str, scenario: dict[str, Any], factor: int, build: str = "tiles") -> dict[str, Any]:
    """*scenario* (a parsed scenario file of *ruleset*) with *factor* (1, 2 or 4) times the models of each side, laid
    out as *build* says (:data:`BUILDS`)."""
    if factor not in FACTORS:
        raise ValueError(f"factor must be one of {FACTORS} (got {factor})")
    if build not in BUILDS:
        raise ValueError(f"build must be one of {BUILDS} (got {build!r})")
    layout = _LAYOUT[ruleset]
    out = copy.deepcopy(scenario)
    section, key, default = layout["width"]
    depth_section, depth_key, depth_default = layout["depth"]
    width = out.get(section, {}).get(key, default)
    depth = out.get(depth_section, {}).get(depth_key, depth_default)
    columns, rows = (1, 1) if factor == 1 else (2, factor // 2)
    tiles = build == "tiles"
    out.setdefault(section, {})[key] = type(default)(width * columns)
    if tiles:
        out.setdefault(depth_section, {})[depth_key] = type(depth_default)(depth * rows)
    out["name"] = f"{scenario['name']} ×{factor}"[:64]
    for field in _terrain_fields(ruleset):
        if field in out:
            out[field] = [_moved(piece, dx=width * c, dy=depth * r if tiles else 0.0)
                          for r in range(rows if tiles else 1) for c in range(columns) for piece in out[field]]
    for models in _sides(ruleset, out):
        back = -1.0 if sum(m["y"] for m in models) / len(models) < depth / 2 else 1.0
        step = depth if tiles else back * layout["rank"]  # a whole table further on, or a rank further back
        originals = list(models)
        models.clear()
        for n, (c, r) in enumerate((c, r) for r in range(rows) for c in range(columns)):
            for model in originals:
                moved = dict(model, x=model["x"] + width * c, y=model["y"] + step * r)
                if n and "id" in moved:
                    moved["id"] = f"{model['id']}-{n + 1}"
                models.append(moved)
    return out


def _terrain_fields(ruleset: str) -> tuple[str, ...]:
    if ruleset == "battlehost":
        return ("terrain",)
    return ("impassable", "drop_areas", "high_ground", "cover", "obstacles")


def _sides(ruleset: str, scenario: dict[str, Any]) -> Iterator[list[dict[str, Any]]]:
    if ruleset == "battlehost":
        yield from (scenario[side] for side in ("good", "evil"))
    else:
        yield from (side["models"] for side in scenario["sides"])


def _moved(piece: Any, *, dx: float, dy: float) -> Any:
    """A terrain piece moved *dx* across and *dy* up: a rectangle or segment [x0, y0, x1, y1], or a table with a
    ``rect``."""
    if isinstance(piece, dict):
        return {**piece, "rect": _moved(piece["rect"], dx=dx, dy=dy)}
    x0, y0, x1, y1 = piece
    return [x0 + dx, y0 + dy, x1 + dx, y1 + dy]


def scaled_text(path: Path, factor: int, build: str = "tiles") -> str:
    """The scenario file at *path* (``examples/<ruleset>/<name>.toml``) with *factor* times the models, as TOML."""
    scenario = tomllib.loads(path.read_text(encoding="utf-8"))
    return tomli_w.dumps(scaled(scenario["ruleset"], scenario, factor, build))


if __name__ == "__main__":
    sys.stdout.write(scaled_text(Path(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:4]))
