"""The candidate points' mask after issue 25 §2 made it cheap (song-of-blades' and battlehost's suggested notations
tabled once per decision, song-of-blades' move rules measured once per placement): every mask and observation of seeded points-mode episodes is
the one main made before the change (hashes recorded from main at fe05c36), and every candidate point parses as the
straightforward scan of the suggested options and a fresh measure of the move rules parse it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from kessen.core.errors import IllegalChoice  # noqa: E402
from kessen.core.notation import find_suggested, parse_point, point, words  # noqa: E402
from kessen.envs import aec_env  # noqa: E402
from kessen.envs.layout import point_text  # noqa: E402
from kessen.rulesets.song_of_blades.referee import moves as sob_moves  # noqa: E402
from kessen.rulesets.song_of_blades.referee.notation import notation as sob_notation  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SOB = ROOT / "examples/song-of-blades/hero-against-mob.toml"
BATTLEHOST = ROOT / "examples/battlehost/line-fight.toml"

# (steps, first 16 hex digits of the sha256 of every observation, reward and flag) made by main before issue 25 §2
MAIN = {
    (SOB, 1): (47, "3eacaa6c1853b0c4"),
    (SOB, 2): (50, "f9e70204e256785a"),
    (BATTLEHOST, 1): (227, "be58a78ce5f9b265"),  # re-recorded when issue 23 §4 gave line-fight fourteen orcs (190 steps with ten)
}


def episode_hash(scenario: Path, seed: int) -> tuple[int, str]:
    """A points-mode episode with actions drawn from the mask by *seed*, hashed observation by observation."""
    env = aec_env(scenario, seed=seed, points=True, max_steps=300)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digest, steps = hashlib.sha256(), 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        for key in sorted(obs):
            digest.update(key.encode())
            digest.update(np.ascontiguousarray(obs[key]).tobytes())
        digest.update(repr((agent, reward, term, trunc)).encode())
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps, digest.hexdigest()[:16]


@pytest.mark.parametrize(("scenario", "seed"), list(MAIN), ids=lambda v: getattr(v, "stem", str(v)))
def test_issue25_2_points_masks_and_observations_are_mains(scenario: Path, seed: int) -> None:
    assert episode_hash(scenario, seed) == MAIN[(scenario, seed)]


def reference_parse(state, decision, text: str):
    """Song-of-blades' parse of a candidate point as it was before issue 25 §2: every suggested option's notation
    written afresh (exact, then as older saves wrote it), else a free move judged by a fresh measure of the rules."""
    found = find_suggested(decision.options, lambda o: sob_notation(decision, o), text)
    if found is None:
        found = find_suggested(decision.options, lambda o: sob_notation(decision, o, point), text)
    if found is not None:
        return found
    said = words(text)
    f = state.get(decision.actor)
    x, y = parse_point(said[3])
    if f.state in ("fallen", "transfixed") or (sob_moves.Point(x, y) - f.centre).length() < sob_moves.NOTATION_MM:
        raise IllegalChoice(None, "refused before the rules are measured")
    problem = sob_moves._Mover(state, f).problem(sob_moves.Point(x, y))
    if problem is not None:
        raise problem
    return sob_moves.Move(x, y, "move", "")


def test_issue25_2_sob_points_parse_as_the_straightforward_path() -> None:
    env = aec_env(SOB, seed=3, points=True, max_steps=300)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    checked = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        episode = env.episode
        menu = episode.menu
        decision, position = menu.decision, menu.position
        if decision.free and decision.kind == "move":
            board = episode.board
            who, x0, y0 = menu.layout.mover(decision, board, position.notation)
            prefix = menu.layout.point_notation(decision, who)
            offered = set()
            for action, dx, dy in menu.layout.offsets():
                text = prefix + point_text(board["units"], x0 + dx, y0 + dy)
                try:
                    want = reference_parse(position.state, decision, text)
                except IllegalChoice:
                    want = None
                try:
                    got = position.parse(text)
                except IllegalChoice:
                    got = None
                assert got == want, text
                if want is not None and want not in decision.options:
                    offered.add(action)
                checked += 1
            assert set(menu.points) == offered
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert checked > 500
