"""The options-only environment after issue 25 §2 made its step cheaper (the AEC bookkeeping inlined, the options'
mask copied from one made per count, the encoder, the menu and song-of-blades' board data compiled, song-of-blades'
suggested moves native and its hot copies through evolvers): every observation of both sides, every reward, flag
and action's notation of seeded options-only episodes of every ruleset, with shaping, is the one main made before
the change (hashes recorded from main at 5ffe023; legions' and battlehost's again when issue 23 §5 added suggested
moves, which the random agent now draws among: legions' move back in line with an Advance or March order,
battlehost's moves round what stands in the way; legions' once more when issue 23 §4 gave titan-at-bay's
Warhound CAF +6, again at +5 for search against search, and again when titan-at-bay came to open at the Orders
phase; battlehost's when issue 23 §5 dropped the evaluation's caution, the shaping's rewards)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from kessen.envs import aec_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# (scenario, seed): (steps, first 16 hex digits of the sha256 of the episode) made by main at 5ffe023
MAIN = {
    ("song-of-blades/warband-skirmish", 3): (90, "c7acf8286865bb34"),
    ("battlehost/line-fight", 3): (90, "e4185036c867389e"),  # again when issue 23 §5 counted joined fights at their worth (shaping)
    ("legions/titan-at-bay", 3): (80, "0877dbd0197cd957"),  # again when issue 23 §4/§5 opened it at the Orders phase
    ("armies-clash/skirmish-ridge", 3): (90, "0d6200c5a107a6ed"),
}


def episode_hash(scenario: str, seed: int) -> tuple[int, str]:
    """An options-only episode with shaping, actions drawn from the mask by *seed*, hashed step by step: both sides'
    observations, the rewards, the flags and the notation of each action."""
    env = aec_env(ROOT / "examples" / f"{scenario}.toml", seed=seed, points=False, shaping=0.5, max_steps=90)
    rng = np.random.default_rng(seed)
    digest, steps = hashlib.sha256(), 0
    for agent in env.agent_iter():
        for side in [agent, *(a for a in env.agents if a != agent)]:
            obs = env.observe(side)
            for key in sorted(obs):
                digest.update(key.encode() + str(obs[key].dtype).encode())
                digest.update(np.ascontiguousarray(obs[key]).tobytes())
        _obs, reward, term, trunc, info = env.last(observe=False)
        digest.update(repr((agent, reward, term, trunc, info, sorted(env.rewards.items()),
                            sorted(env._cumulative_rewards.items()), list(env.agents))).encode())
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        digest.update(env.notation(action).encode())
        env.step(action)
        steps += 1
    return steps, digest.hexdigest()[:16]


@pytest.mark.parametrize(("scenario", "seed"), list(MAIN), ids=lambda v: str(v))
def test_issue25_2_options_observations_rewards_are_mains(scenario: str, seed: int) -> None:
    assert episode_hash(scenario, seed) == MAIN[(scenario, seed)]
