"""Train the goblins of song-of-blades hero-against-mob against the greedy hero with a masked policy gradient, and
print their win rate before and after (issue 25 §3).

    .venv/bin/python examples/rl/train_goblins.py                 # about a minute
    .venv/bin/python examples/rl/train_goblins.py --episodes 50 --eval 20

The policy is a linear softmax over the environment's discrete actions (kessen.envs.gym_env, suggested options
only), illegal actions masked out, trained with REINFORCE (a running mean of the return as the baseline) in numpy
alone. Its features are the observation's model table and decision kind. Same seed, same run.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from kessen.envs import gym_env

SCENARIO = Path(__file__).resolve().parents[1] / "song-of-blades" / "hero-against-mob.toml"


def features(obs: dict[str, Any]) -> np.ndarray:
    """The policy's input: the model table and the decision, flattened, and a constant."""
    return np.concatenate([obs["models"].ravel(), obs["decision"], [1.0]]).astype(np.float64)


class Policy:
    """A linear softmax over the actions, the mask applied before the softmax."""

    def __init__(self, inputs: int, actions: int, rng: np.random.Generator) -> None:
        self.weights = np.zeros((actions, inputs))
        self.rng = rng

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.weights @ x
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: dict[str, Any]) -> tuple[int, np.ndarray, np.ndarray]:
        x = features(obs)
        p = self.probabilities(x, obs["action_mask"])
        return int(self.rng.choice(len(p), p=p)), x, p


def episode(env: Any, policy: Policy, seed: int) -> list[tuple[int, np.ndarray, np.ndarray, float]]:
    """One battle: each step's (action, features, probabilities, return from that step on)."""
    obs, _ = env.reset(seed=seed)
    steps, rewards, done = [], [], False
    while not done:
        action, x, p = policy.act(obs)
        steps.append((action, x, p))
        obs, reward, done, truncated, _ = env.step(action)
        rewards.append(reward)
        done = done or truncated
    to_go = np.cumsum(rewards[::-1])[::-1]
    return [(a, x, p, float(g)) for (a, x, p), g in zip(steps, to_go)]


def measure(env: Any, policy: Policy, seeds: range) -> tuple[float, float]:
    """The goblins' win rate and the mean of the ruleset's evaluation of their side at the end (-1 to 1)."""
    wins, worth = [], []
    for seed in seeds:
        episode(env, policy, seed)
        wins.append(env.episode.terminal.winner == "Goblins")
        worth.append(env.episode.worth()["Goblins"])
    return float(np.mean(wins)), float(np.mean(worth))


def train(episodes: int, evaluate: int, *, seed: int = 1, rate: float = 0.01) -> tuple[tuple[float, float], tuple[float, float]]:
    """The goblins' (win rate, evaluation at the end) before and after *episodes* of training, each over
    *evaluate* battles. The reward is the win (1) or loss (-1) and the change of the ruleset's evaluation at every
    step (shaping 1): a mob rarely beats the hero, and the evaluation says how close it came."""
    env = gym_env(SCENARIO, side="Goblins", opponent="greedy", points=False, seed=seed, shaping=1.0)
    obs, _ = env.reset(seed=seed)
    policy = Policy(len(features(obs)), env.action_space.n, np.random.default_rng(seed))
    trials = range(10_000, 10_000 + evaluate)  # the same battles before and after
    before = measure(env, policy, trials)
    baseline = 0.0
    for n in range(episodes):
        for action, x, p, to_go in episode(env, policy, seed + n):
            grad = -np.outer(p, x)
            grad[action] += x
            policy.weights += rate * (to_go - baseline) * grad
            baseline += 0.01 * (to_go - baseline)
    after = measure(env, policy, trials)
    return before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300, help="training battles (default 300)")
    parser.add_argument("--eval", type=int, default=50, help="battles to measure the win rate on (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    (won, worth), (won_after, worth_after) = train(args.episodes, args.eval, seed=args.seed)
    print(f"goblins against greedy, over {args.eval} battles: win rate {won:.0%} before, {won_after:.0%} after "
          f"{args.episodes} training battles; their evaluation at the end {worth:+.2f} before, {worth_after:+.2f} after")


if __name__ == "__main__":
    main()
