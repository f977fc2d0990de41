"""Train the goblins of song-of-blades hero-against-mob against the greedy hero with a masked policy gradient, and
print how they fare before and after (issue 25 §3).

    .venv/bin/python examples/rl/train_goblins.py                        # see examples/rl/README.md for the time
    .venv/bin/python examples/rl/train_goblins.py --episodes 100 --eval 200

The environment is :func:`kessen.envs.gym_env` (suggested options only; 1 a win, -1 a loss). The
policy scores each legal action by a linear function of that action's features, read from the notation the action
stands for (``activate gob-3 2``, ``move boss to 512,440``, ``attack hero``) and the observation's model table and
board layers: what kind of action it is, crossed with whether an enemy is down, whether the model acting is in
contact, how many friends are, how near the enemy a move or recoil ends and whether it ends over a drop. A softmax over
the mask's actions alone picks one; REINFORCE (return to go less the batch's mean, Adam's steps) trains the weights,
in numpy alone; the reward is mostly for knocking the hero down (see README.md for why and what it reaches). Same
seed, same run.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kessen.envs import gym_env
from kessen.envs.song_of_blades import LAYOUT

SCENARIO = Path(__file__).resolve().parents[1] / "song-of-blades" / "hero-against-mob.toml"
SIDE = "Goblins"

KINDS = ("activate 1", "activate 2", "activate 3", "end turn", "attack", "power blow", "charge", "advance", "withdraw",
         "end activation", "stand up", "break free", "recoil", "hacker", "follow up", "stay")
"""The kinds of action the notation names; a move is a ``charge`` when it ends in base contact with an enemy, an
``advance`` when it ends nearer one, a ``withdraw`` otherwise."""

CONTEXT = ("bias", "enemy down", "actor engaged", "down and engaged", "friends engaged", "ends near", "ends over a drop")
"""What each kind's weights see: a constant; an enemy model fallen or transfixed (SB-MOD-1: +2 and lethal against
it); the model the action concerns in base contact with an enemy; both at once; the share of the goblins in contact; for a move
or recoil, how near the nearest enemy it ends (1 in contact, 0 at a Long move or farther); and over a drop."""

COLUMN = {name: i for i, name in enumerate(LAYOUT.columns)}  # the model table's columns (docs/envs.md)
CONTACT_MM = 1.0  # SB-GEO-3's tolerance
LONG_MM = 300.0
DISCOUNT = 0.9
"""Each decision is credited with the rewards that follow it, discounted by this much a decision: a knock-down is
credited mostly to the attacks just before it."""
KNOCKDOWN_BONUS = 1.0
"""The reward for knocking the hero down. A mob beats the greedy hero in well under one battle in a hundred whatever
it does (see README.md), so a win or a loss alone says next to nothing; a knock-down is the step every win takes
(a fallen hero is struck at +2, and every goblin win against him kills, SB-MOD-1)."""


def features(env: Any, obs: dict[str, Any], action: int) -> tuple[int, np.ndarray]:
    """*action*'s kind (an index of :data:`KINDS`) and its context (:data:`CONTEXT`), read from its notation and *obs*."""
    words = env.notation(action).split()
    table = obs["models"]
    width, depth = env.episode.encoder.width, env.episode.encoder.height
    present = table[:, COLUMN["present"]] > 0
    own, enemy = present & (table[:, COLUMN["own"]] > 0), present & (table[:, COLUMN["own"]] == 0)
    rows = env.episode.encoder.rows
    actor = rows[words[1]] if words[0] == "activate" else int(np.argmax(table[:, COLUMN["acting"]]))
    context = np.zeros(len(CONTEXT))
    context[0] = 1.0
    context[1] = float(np.any((table[enemy, COLUMN["fallen"]] + table[enemy, COLUMN["transfixed"]]) > 0))
    context[2] = table[actor, COLUMN["engaged"]]
    context[3] = context[1] * context[2]
    context[4] = float(table[own, COLUMN["engaged"]].mean()) if own.any() else 0.0
    kind = words[0]  # attack, recoil, hacker, stay
    if words[0] == "activate":
        kind = f"activate {words[2]}"
    elif words[0] in ("end", "power", "follow", "stand", "break"):
        kind = " ".join(words[:2])
    elif words[0] in ("move", "recoil"):
        x, y = (float(v) for v in words[-1].split(","))
        ex, ey = table[enemy, COLUMN["x"]] * width, table[enemy, COLUMN["y"]] * depth
        reach = (table[enemy, COLUMN["base"]] + table[actor, COLUMN["base"]]) * width / 2
        gaps = np.hypot(ex - x, ey - y) - reach
        before = np.hypot(ex - table[actor, COLUMN["x"]] * width, ey - table[actor, COLUMN["y"]] * depth) - reach
        near = float(gaps.min()) if len(gaps) else math.inf
        context[5] = 1.0 - min(1.0, max(0.0, near) / LONG_MM)
        drop = env.episode.layout.layers.index("drop")
        r, c = env.episode.encoder.cell(x, y)
        context[6] = obs["board"][drop, r, c]
        if words[0] == "move":
            kind = "charge" if near <= CONTACT_MM else "advance" if near < float(before.min()) else "withdraw"
    return KINDS.index(kind), context


@dataclass
class Policy:
    """A linear softmax over the legal actions: each action's logit is its kind's weights times its context."""

    rng: np.random.Generator
    weights: np.ndarray = field(default_factory=lambda: np.zeros((len(KINDS), len(CONTEXT))))

    def probabilities(self, kinds: np.ndarray, contexts: np.ndarray) -> np.ndarray:
        logits = np.einsum("ac,ac->a", self.weights[kinds], contexts)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, env: Any, obs: dict[str, Any]) -> tuple[int, Choice]:
        """An action drawn from the policy over the mask's actions, and the choice as the update reads it."""
        legal = np.flatnonzero(obs["action_mask"])
        read = [features(env, obs, int(a)) for a in legal]
        choice = Choice(np.array([k for k, _ in read]), np.array([c for _, c in read]), 0)
        choice.chosen = int(self.rng.choice(len(legal), p=self.probabilities(choice.kinds, choice.contexts)))
        return int(legal[choice.chosen]), choice

    def probability(self, choice: Choice) -> float:
        """The probability the policy now gives the action *choice* took."""
        return float(self.probabilities(choice.kinds, choice.contexts)[choice.chosen])

    def gradient(self, choice: Choice) -> np.ndarray:
        """The gradient of the log-probability of the action *choice* took, by the weights."""
        minus = self.probabilities(choice.kinds, choice.contexts)
        minus[choice.chosen] -= 1.0
        found = np.zeros_like(self.weights)
        np.add.at(found, choice.kinds, -minus[:, None] * choice.contexts)
        return found


@dataclass
class Choice:
    """One decision as the policy saw it: each legal action's kind and context, and the index of the one taken."""

    kinds: np.ndarray
    contexts: np.ndarray
    chosen: int


@dataclass
class Battle:
    """One battle's choices, the return from each on, and how it went."""

    choices: list[Choice]
    to_go: np.ndarray
    won: bool
    knockdowns: int


def enemy_down(obs: dict[str, Any]) -> bool:
    """An enemy model lies fallen (the model table's ``fallen`` column)."""
    table = obs["models"]
    enemy = (table[:, COLUMN["present"]] > 0) & (table[:, COLUMN["own"]] == 0)
    return bool(np.any(table[enemy, COLUMN["fallen"]] > 0))


def play(env: Any, policy: Policy, seed: int, *, bonus: float = KNOCKDOWN_BONUS, discount: float = DISCOUNT) -> Battle:
    """One battle of the goblins' policy against the greedy hero. Each choice's reward is the environment's plus one
    at the end (2 a win, 1 a draw, 0 a loss: the loss that ends nearly every battle, counted -1, would only tell the
    choices near the end from the others) and *bonus* when the goblins next see the hero fallen who was standing
    before."""
    obs, _ = env.reset(seed=seed)
    choices: list[Choice] = []
    rewards: list[float] = []
    done, knockdowns = False, 0
    down = enemy_down(obs)
    while not done:
        action, choice = policy.act(env, obs)
        choices.append(choice)
        obs, reward, done, truncated, _ = env.step(action)
        now = enemy_down(obs)
        knocked = now and not down
        knockdowns += knocked
        rewards.append(reward + (done or truncated) + bonus * knocked)
        down = now
        done = done or truncated
    to_go = np.zeros(len(rewards))
    ahead = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        ahead = rewards[i] + discount * ahead
        to_go[i] = ahead
    terminal = env.episode.terminal
    return Battle(choices, to_go, terminal is not None and terminal.winner == SIDE, knockdowns)


@dataclass(frozen=True)
class Measure:
    """How the goblins fared over some battles: their win rate, the share of battles in which they knocked the hero
    down at least once (saw him fallen at one of their decisions: the way to kill him, SB-MOD-1), and the mean
    number of knock-downs a battle."""

    battles: int
    won: float
    hero_down: float
    knockdowns: float

    def __str__(self) -> str:
        return (f"win rate {self.won:.1%}, hero knocked down in {self.hero_down:.1%} of battles "
                f"({self.knockdowns:.3f} times a battle)")


def measure(env: Any, policy: Policy, seeds: range) -> Measure:
    found = [play(env, policy, seed) for seed in seeds]
    return Measure(len(found), float(np.mean([b.won for b in found])), float(np.mean([b.knockdowns > 0 for b in found])),
                   float(np.mean([b.knockdowns for b in found])))


def update(policy: Policy, battles: list[Battle]) -> np.ndarray:
    """The direction of the weights a batch of battles played by *policy* asks for (REINFORCE): the mean gradient
    of each choice's log-probability times its advantage, its return to go less the batch's mean, over their
    spread."""
    to_go = np.concatenate([b.to_go for b in battles])
    advantage = (to_go - to_go.mean()) / (to_go.std() + 1e-8)
    choices = [c for b in battles for c in b.choices]
    return sum((a * policy.gradient(c) for a, c in zip(advantage, choices)), np.zeros_like(policy.weights)) / len(choices)


@dataclass
class Adam:
    """Adam's step (Kingma and Ba, 2015): each weight's gradient over the running size of its own."""

    rate: float
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    mean: Any = 0.0
    square: Any = 0.0

    def step(self, gradient: np.ndarray) -> np.ndarray:
        self.steps += 1
        self.mean = self.beta1 * self.mean + (1 - self.beta1) * gradient
        self.square = self.beta2 * self.square + (1 - self.beta2) * gradient**2
        mean = self.mean / (1 - self.beta1**self.steps)
        square = self.square / (1 - self.beta2**self.steps)
        return np.asarray(self.rate * mean / (np.sqrt(square) + 1e-8))


def train(episodes: int, evaluate: int, *, seed: int = 1, rate: float = 0.05, batch: int = 10) -> tuple[Measure, Measure, Policy]:
    """The goblins' measure before and after *episodes* of training, each over the same *evaluate* battles (seeds
    10,000 on), and the trained policy. The weights move once every *batch* battles (Adam, *rate*)."""
    env = gym_env(SCENARIO, side=SIDE, opponent="greedy", points=False, seed=seed)
    policy = Policy(np.random.default_rng(seed))
    trials = range(10_000, 10_000 + evaluate)
    before = measure(env, policy, trials)
    adam = Adam(rate)
    for first in range(0, episodes, batch):
        battles = [play(env, policy, seed + n) for n in range(first, min(episodes, first + batch))]
        policy.weights += adam.step(update(policy, battles))
    after = measure(env, policy, trials)
    return before, after, policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=400, help="training battles (default 400)")
    parser.add_argument("--eval", type=int, default=500, help="battles to measure on, before and after (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.process_time()
    before, after, policy = train(args.episodes, args.eval, seed=args.seed)
    print(f"goblins against the greedy hero, over the same {args.eval} battles (seeds 10000-{10_000 + args.eval - 1}):")
    print(f"  before: {before}")
    print(f"  after {args.episodes} training battles (seed {args.seed}): {after}")
    print(f"  {time.process_time() - started:.0f} s of CPU")
    for kind, row in zip(KINDS, policy.weights):
        if row.any():
            print(f"  {kind:15}" + " ".join(f"{name} {w:+.2f}" for name, w in zip(CONTEXT, row) if w))


if __name__ == "__main__":
    main()
