"""The same scenario with 2× and 4× the models (issue 26): how a battle's cost grows with the models on the table.

A scaled scenario is the shipped one copied side by side: the table twice as wide, each copy of the deployment and of
the terrain moved across by the original width; for 4× each side also stands a second rank of copies behind its
first, a rank's depth further from the centre line. Every model keeps its profile; ids get ``-2``, ``-3``, ... So a
4× battle has four times the models of each side, at twice the density, and the same rules questions.

    .venv/bin/python -m benchmarks.scaled examples/battlehost/line-fight.toml 4 > out/line-fight-4x.toml
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

_LAYOUT: dict[str, dict[str, Any]] = {
    "battlehost": {"width": ("board", "width", 48.0), "depth": ("board", "height", 48.0), "rank": 5.0},
    "song-of-blades": {"width": ("options", "table_width_mm", 900), "depth": ("options", "table_depth_mm", 900), "rank": 100.0},
}
"""Where each ruleset keeps the table's size (section, key, default), and a rank's depth in its unit."""


def scaled(ruleset: str, scenario: dict[str, Any], factor: int) -> dict[str, Any]:
    """*scenario* (a parsed scenario file of *ruleset*) with *factor* (1, 2 or 4) times the models of each side."""
    if factor not in FACTORS:
        raise ValueError(f"factor must be one of {FACTORS} (got {factor})")
    layout = _LAYOUT[ruleset]
    out = copy.deepcopy(scenario)
    section, key, default = layout["width"]
    width = out.get(section, {}).get(key, default)
    depth = out.get(layout["depth"][0], {}).get(layout["depth"][1], layout["depth"][2])
    columns, ranks = (1, 1) if factor == 1 else (2, factor // 2)
    out.setdefault(section, {})[key] = type(default)(width * columns)
    out["name"] = f"{scenario['name']} ×{factor}"[:64]
    for field in _terrain_fields(ruleset):
        if field in out:
            out[field] = [_moved(piece, dx=width * c) for c in range(columns) for piece in out[field]]
    for models in _sides(ruleset, out):
        centre = depth / 2
        back = -1.0 if sum(m["y"] for m in models) / len(models) < centre else 1.0
        originals = list(models)
        models.clear()
        for n, (c, r) in enumerate((c, r) for r in range(ranks) for c in range(columns)):
            for model in originals:
                moved = dict(model, x=model["x"] + width * c, y=model["y"] + back * layout["rank"] * r)
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


def _moved(piece: Any, *, dx: float) -> Any:
    """A terrain piece moved *dx* across: a rectangle or segment [x0, y0, x1, y1], or a table with a ``rect``."""
    if isinstance(piece, dict):
        return {**piece, "rect": _moved(piece["rect"], dx=dx)}
    x0, y0, x1, y1 = piece
    return [x0 + dx, y0, x1 + dx, y1]


def scaled_text(path: Path, factor: int) -> str:
    """The scenario file at *path* (``examples/<ruleset>/<name>.toml``) with *factor* times the models, as TOML."""
    scenario = tomllib.loads(path.read_text(encoding="utf-8"))
    return tomli_w.dumps(scaled(scenario["ruleset"], scenario, factor))


if __name__ == "__main__":
    sys.stdout.write(scaled_text(Path(sys.argv[1]), int(sys.argv[2])))
