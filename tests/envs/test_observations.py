"""The observation the environments make, kept between steps (issue 25 §2), is byte for byte the one written afresh
from the board data by the layout's definition (issue 25 §1, docs/envs.md), on seeded episodes of every ruleset, in
the episode's order and in any other (OpenSpiel's searches jump between positions)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from kessen.envs import aec_env  # noqa: E402
from kessen.envs.layout import MODEL_COLUMNS, Encoder, Layout  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {
    "song-of-blades": ["examples/song-of-blades/warband-skirmish.toml",
                       "examples/song-of-blades/hero-against-mob.toml"],
    "battlehost": ["examples/battlehost/monster.toml"],
    "legions": ["examples/legions/titan-at-bay.toml"],
    "armies-clash": ["examples/armies-clash/skirmish-ridge.toml"],
}


def afresh(layout: Layout, board: Any, rows: dict[str, int], side: str, actor: str,
           reach: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """The model table and board layers written from nothing, model by model and cell by cell."""
    w, h, grid = float(board["width"]), float(board["height"]), layout.grid
    square = board["units"] == "square"
    cell_w, cell_h = (1.0, 1.0) if square else (w / grid, h / grid)
    models = np.zeros((layout.max_models, len(layout.columns)), np.float32)
    layers = np.zeros((len(layout.layers), grid, grid), np.float32)

    def cell(x: float, y: float) -> tuple[int, int]:  # a model's centre or a candidate point
        return min(grid - 1, max(0, int(y * (1.0 / cell_h)))), min(grid - 1, max(0, int(x * (1.0 / cell_w))))

    for m in board["models"]:
        rows.setdefault(m["id"], len(rows))
        base, foot = m["base"] or 0.0, m["footprint"]
        wide, deep = (foot[0], foot[1]) if foot else (base, base)
        wounds, most = m["wounds"] or 0, m["wounds_max"] or 0
        row = models[rows[m["id"]]]
        row[: len(MODEL_COLUMNS)] = [1.0, m["side"] == side, m["id"] == actor or m["group"] == actor, m["x"] / w,
                                     m["y"] / h, base / w, wide / w, deep / h, wounds, most,
                                     wounds / most if most else 1.0]
        for word in m["status"]:
            if word in layout.status_words:
                row[len(MODEL_COLUMNS) + layout.status_words.index(word)] = 1.0
        layer = 0 if m["side"] == side else 1
        if square and foot:
            for r in range(max(0, int(m["y"])), max(0, int(m["y"] + deep))):
                for c in range(max(0, int(m["x"])), max(0, int(m["x"] + wide))):
                    if r < grid and c < grid:
                        layers[layer, r, c] = 1.0
        else:
            layers[(layer, *cell(m["x"], m["y"]))] = 1.0
    for x, y in reach:
        layers[(2, *cell(x, y))] = 1.0
    layers[3:] = terrain_layers(layout, board, cell_w, cell_h)
    return models, layers


_TERRAIN: dict[tuple[str, str], np.ndarray] = {}


def terrain_layers(layout: Layout, board: Any, cell_w: float, cell_h: float) -> np.ndarray:
    """The terrain layers drawn piece by piece, cell by cell (kept by the terrain's text: drawing them is slow)."""
    key = (layout.ruleset, repr(board["terrain"]))
    if key in _TERRAIN:
        return _TERRAIN[key]
    grid = layout.grid
    layers = np.zeros((len(layout.terrain_kinds), grid, grid), np.float32)

    def at(x: float, y: float) -> tuple[int, int]:
        return min(grid - 1, max(0, int(y / cell_h))), min(grid - 1, max(0, int(x / cell_w)))

    for piece in board["terrain"]:
        if piece["kind"] not in layout.terrain_kinds:
            continue
        layer = layout.terrain_kinds.index(piece["kind"])
        (x0, y0), *rest = piece["points"]
        if piece["shape"] == "square":
            layers[(layer, *at(x0, y0))] = 1.0
        elif piece["shape"] == "rect":
            x1, y1 = rest[0]
            for r in range(grid):
                for c in range(grid):
                    inside_x = min(x0, x1) <= (c + 0.5) * cell_w <= max(x0, x1)
                    if inside_x and min(y0, y1) <= (r + 0.5) * cell_h <= max(y0, y1):
                        layers[layer, r, c] = 1.0
            layers[(layer, *at((x0 + x1) / 2, (y0 + y1) / 2))] = 1.0
        else:
            x1, y1 = rest[0]
            steps = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / (min(cell_w, cell_h) / 2)))
            for i in range(steps + 1):
                layers[(layer, *at(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps))] = 1.0
    _TERRAIN[key] = layers
    return layers


Seen = tuple[Any, str, str, list[tuple[float, float]], dict[str, np.ndarray]]
"""What an observation was made from (board, side, actor, reach) and the observation."""


def seen_along(path: str, seed: int, limit: int) -> list[tuple[dict[str, int], list[Seen]]]:
    """Two battles of one seeded environment (the second after a reset), random actions with candidate points: at
    every step, for every side, what the environment showed and what it was made from; with each battle's rows."""
    env = aec_env(ROOT / path, seed=seed)
    rng = np.random.default_rng(seed)
    battles = []
    for battle in range(2):
        if battle:
            env.reset()
        seen = []
        for _agent in env.agent_iter(limit):
            episode = env.episode
            decision = episode.decision
            for side in env.possible_agents:
                reach = episode.menu.reach() if decision is not None else []
                seen.append((episode.board, side, decision.actor if decision else "", reach, env.observe(side)))
            obs, _reward, term, trunc, _info = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        battles.append((dict(env.episode.encoder.rows), seen))
    return battles


@pytest.mark.parametrize("path", [p for paths in SCENARIOS.values() for p in paths])
def test_observation_kept_between_steps_is_the_one_written_afresh_issue25_2(path: str) -> None:
    """Every observation of two seeded battles (both sides, every step, the second after a reset) equals, byte for
    byte, the table and layers written afresh from the same board data; and one encoder fed the same boards in a
    shuffled order gives the same arrays again (a model's row rewritten, a model gone and back, the terrain
    unchanged)."""
    layout = aec_env(ROOT / path, seed=0).episode.layout
    for rows_used, seen in seen_along(path, 1, 60):
        rows: dict[str, int] = {}
        expected = []
        for board, side, actor, reach, obs in seen:
            models, layers = afresh(layout, board, rows, side, actor, reach)
            assert obs["models"].tobytes() == models.tobytes()
            assert obs["board"].tobytes() == layers.tobytes()
            expected.append((models, layers))
        assert rows == rows_used
        shuffled = list(range(len(seen)))
        random.Random(1).shuffle(shuffled)
        encoder = Encoder(layout, seen[0][0], rows)
        for i in shuffled:
            board, side, actor, reach, _obs = seen[i]
            models, layers = encoder.encode(board, side, actor, reach)
            assert models.tobytes() == expected[i][0].tobytes()
            assert layers.tobytes() == expected[i][1].tobytes()


def test_observation_arrays_are_the_callers_own_issue25_2() -> None:
    """Writing into an observation, or into the board it was made from, changes no later observation."""
    env = aec_env(ROOT / SCENARIOS["song-of-blades"][1], seed=4)
    side = env.agent_selection
    first = env.observe(side)
    again = {k: v.copy() for k, v in first.items()}
    first["models"][:] = 7.0
    first["board"][:] = 7.0
    for m in env.episode.board["models"]:
        m["status"].append("fallen")
        m["x"] = -1.0
    env.episode._board = None  # the board asked again from the game
    later = env.observe(side)
    assert later["models"].tobytes() == again["models"].tobytes()
    assert later["board"].tobytes() == again["board"].tobytes()
