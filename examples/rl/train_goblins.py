"""Train the goblins of song-of-blades hero-against-mob against the greedy hero with a masked actor-critic, and
print how they fare before and after (issue 25 §3).

    .venv/bin/python examples/rl/train_goblins.py                        # see examples/rl/README.md for the time
    .venv/bin/python examples/rl/train_goblins.py --seeds 1 2 3 --goal knockdowns

The environment is :func:`kessen.envs.gym_env` (suggested options only). The policy scores each legal action by a
linear function of that action's features, read from the notation the action stands for (``activate gob-3 2``,
``move boss to 512,440``, ``attack hero``) and the observation's model table and board layers; a softmax over the
mask's actions alone picks one. A linear value function of the position (round, goblins left, in contact, how far
from the hero, …) is each decision's baseline: the policy's step is each choice's advantage (generalised advantage
estimation over the decisions of one battle) times the gradient of its log-probability, plus an entropy bonus, by
Adam, in numpy alone. The goal (the reward, :data:`GOALS`) is by default the pressure on the hero (``attacks``: 1 an
attack on him, 10 a knock-down), or knock-downs alone, or the battle's length. Same seed, same run; see README.md for
what it reaches.
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
ROUNDS = 8  # the scenario's ``turns``

KINDS = ("activate 1", "activate 2", "activate 3", "end turn", "attack", "power blow", "charge", "advance", "withdraw",
         "end activation", "stand up", "break free", "recoil", "hacker", "follow up", "stay")
"""The kinds of action the notation names; a move is a ``charge`` when it ends in base contact with an enemy, an
``advance`` when it ends nearer one, a ``withdraw`` otherwise."""

CONTEXT = ("bias", "enemy down", "actor engaged", "down and engaged", "friends engaged", "ends near",
           "ends over a drop", "friends within Long")
"""What each kind's weights see: a constant; an enemy model fallen or transfixed (SB-MOD-1: +2 and lethal against
it); the model the action concerns in base contact with an enemy; both at once; the share of the goblins in contact;
for a move or recoil, how near the nearest enemy it ends (1 in contact, 0 at 300 mm or farther) and whether over a
drop; and the share of its friends within Long of where it ends (of where it stands, for other actions): a gruesome
kill makes every friend within Long take a morale test (SB-MELEE-7), which a Quality 5 goblin fails outright (three
failures: destroyed) one time in four and more (SB-MOR-2)."""

STATE = ("bias", "round", "goblins left", "goblins engaged", "hero down", "nearest goblin", "mean goblin distance",
         "goblins activated", "goblins crowded")
"""What the value function sees of a position: a constant; the round over 8; the share of the goblins still on the
table, of them in contact with the hero, and of them activated this turn; the hero fallen; the nearest and the mean
goblin's distance to the hero over the table's width; the mean share of a goblin's friends within Long of it."""

COLUMN = {name: i for i, name in enumerate(LAYOUT.columns)}  # the model table's columns (docs/envs.md)
CONTACT_MM = 1.0  # SB-GEO-3's tolerance
NEAR_MM = 300.0
LONG_MM = 180.0  # SB-GEO-7, 28 mm scale


def features(env: Any, obs: dict[str, Any], action: int) -> tuple[int, np.ndarray]:
    """*action*'s kind (an index of :data:`KINDS`) and its context (:data:`CONTEXT`), from its notation and *obs*."""
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
    context[7] = crowding(table, own, actor, table[actor, COLUMN["x"]], table[actor, COLUMN["y"]], width)
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
        context[5] = 1.0 - min(1.0, max(0.0, near) / NEAR_MM)
        drop = env.episode.layout.layers.index("drop")
        r, c = env.episode.encoder.cell(x, y)
        context[6] = obs["board"][drop, r, c]
        context[7] = crowding(table, own, actor, x / width, y / depth, width)
        if words[0] == "move":
            kind = "charge" if near <= CONTACT_MM else "advance" if near < float(before.min()) else "withdraw"
    return KINDS.index(kind), context



def crowding(table: np.ndarray, own: np.ndarray, actor: int, x: float, y: float, width: float) -> float:
    """The share of *actor*'s friends (rows *own* of *table*) within Long of the point *x*, *y* (in table widths and
    depths), base edge to base edge (SB-GEO-8)."""
    friends = own.copy()
    friends[actor] = False
    if not friends.any():
        return 0.0
    gaps = np.hypot(table[friends, COLUMN["x"]] - x, table[friends, COLUMN["y"]] - y) * width
    reach = (table[friends, COLUMN["base"]] + table[actor, COLUMN["base"]]) * width / 2
    return float(np.mean(gaps - reach <= LONG_MM))


def state_features(env: Any, obs: dict[str, Any]) -> np.ndarray:
    """The position as the value function reads it (:data:`STATE`)."""
    table = obs["models"]
    present = table[:, COLUMN["present"]] > 0
    own, enemy = present & (table[:, COLUMN["own"]] > 0), present & (table[:, COLUMN["own"]] == 0)
    found = np.zeros(len(STATE))
    found[0] = 1.0
    found[1] = env.episode.position.state.turn.round / ROUNDS
    found[2] = own.sum() / 7
    if own.any():
        found[3] = table[own, COLUMN["engaged"]].mean()
        found[7] = table[own, COLUMN["activated"]].mean()
    found[4] = float(enemy_down(obs))
    if own.any() and enemy.any():
        hero = np.flatnonzero(enemy)[0]
        x, y = table[hero, COLUMN["x"]], table[hero, COLUMN["y"]]
        gaps = np.hypot(table[own, COLUMN["x"]] - x, table[own, COLUMN["y"]] - y)
        found[5], found[6] = gaps.min(), gaps.mean()
    width = env.episode.encoder.width
    found[8] = float(np.mean([crowding(table, own, int(row), table[row, COLUMN["x"]], table[row, COLUMN["y"]], width)
                              for row in np.flatnonzero(own)])) if own.any() else 0.0
    return found


def softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max())
    return np.asarray(p / p.sum())


@dataclass
class Policy:
    """A linear softmax over the legal actions (each action's logit is its kind's weights times its context), and a
    linear value of the position (:data:`STATE`)."""

    rng: np.random.Generator
    weights: np.ndarray = field(default_factory=lambda: np.zeros((len(KINDS), len(CONTEXT))))
    value: np.ndarray = field(default_factory=lambda: np.zeros(len(STATE)))

    def probabilities(self, kinds: np.ndarray, contexts: np.ndarray) -> np.ndarray:
        return softmax(np.einsum("ac,ac->a", self.weights[kinds], contexts))

    def act(self, env: Any, obs: dict[str, Any]) -> tuple[int, Choice]:
        """An action drawn from the policy over the mask's actions, and the choice as the update reads it."""
        legal = np.flatnonzero(obs["action_mask"])
        read = [features(env, obs, int(a)) for a in legal]
        choice = Choice(np.array([k for k, _ in read]), np.array([c for _, c in read]), 0, state_features(env, obs))
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

    def entropy_gradient(self, choice: Choice) -> np.ndarray:
        """The gradient of the entropy of the policy's choice at *choice*, by the weights."""
        p = self.probabilities(choice.kinds, choice.contexts)
        logp = np.log(np.maximum(p, 1e-12))
        by_logit = -p * (logp - float(p @ logp))
        found = np.zeros_like(self.weights)
        np.add.at(found, choice.kinds, by_logit[:, None] * choice.contexts)
        return found


@dataclass
class Choice:
    """One decision as the policy saw it: each legal action's kind and context, the index of the one taken, and the
    position's features (:data:`STATE`)."""

    kinds: np.ndarray
    contexts: np.ndarray
    chosen: int
    state: np.ndarray = field(default_factory=lambda: np.zeros(len(STATE)))


@dataclass
class Battle:
    """One battle's choices, the reward after each, and how it went."""

    choices: list[Choice]
    rewards: np.ndarray
    won: bool
    knockdowns: int
    rounds: int
    attacks: int = 0


def enemy_down(obs: dict[str, Any]) -> bool:
    """An enemy model lies fallen (the model table's ``fallen`` column)."""
    table = obs["models"]
    enemy = (table[:, COLUMN["present"]] > 0) & (table[:, COLUMN["own"]] == 0)
    return bool(np.any(table[enemy, COLUMN["fallen"]] > 0))


GOALS = ("attacks", "knockdowns", "held")
"""What the goblins are rewarded for: ``attacks``, 1 each melee attack (a plain attack or a power blow) a goblin
makes on the hero, and 10 each knock-down (below): each attack is a combat roll a goblin wins with a 6 against his 1,
and a win with an even die knocks him down (SB-MELEE-6); ``knockdowns``, 1 each time they next see the hero fallen
who was standing (every win takes one: a fallen hero is struck at +2 and every goblin win against him kills,
SB-MOD-1), and 10 a win (5 a draw); ``held``, 1 each round the battle goes on with them on the bridge (the return of
a battle is the rounds it lasts: 8 at most, the scenario's ``turns``)."""
ATTACKS = (KINDS.index("attack"), KINDS.index("power blow"))


def play(env: Any, policy: Policy, seed: int, *, goal: str = "attacks") -> Battle:
    """One battle of the goblins' policy against the greedy hero, with each choice's reward for *goal*."""
    obs, _ = env.reset(seed=seed)
    choices: list[Choice] = []
    rewards: list[float] = []
    done, knockdowns, attacks = False, 0, 0
    down, held = enemy_down(obs), env.episode.position.state.turn.round
    while not done:
        action, choice = policy.act(env, obs)
        choices.append(choice)
        attacked = int(choice.kinds[choice.chosen] in ATTACKS)
        attacks += attacked
        obs, reward, done, truncated, _ = env.step(action)
        done = done or truncated
        now = enemy_down(obs)
        knocked = now and not down
        knockdowns += knocked
        down = now
        terminal = env.episode.terminal
        lasted = terminal.summary["rounds"] + 1 if terminal is not None else env.episode.position.state.turn.round
        if goal == "held":
            rewards.append(float(lasted - held))
        elif goal == "attacks":
            rewards.append(float(attacked + 10 * knocked))
        else:
            rewards.append(float(knocked) + 5.0 * (reward + 1.0) * done)
        held = lasted
    terminal = env.episode.terminal
    assert terminal is not None
    return Battle(choices, np.array(rewards), terminal.winner == SIDE, knockdowns, int(terminal.summary["rounds"]),
                  attacks)


def advantages(policy: Policy, battle: Battle, *, discount: float, trace: float) -> tuple[np.ndarray, np.ndarray]:
    """Each choice's advantage (generalised advantage estimation: the value function's temporal differences,
    discounted by *discount* × *trace* a decision) and its return to go (the value function's target)."""
    values = np.array([policy.value @ c.state for c in battle.choices] + [0.0])
    deltas = battle.rewards + discount * values[1:] - values[:-1]
    found, to_go = np.zeros(len(deltas)), np.zeros(len(deltas))
    ahead = returned = 0.0
    for i in range(len(deltas) - 1, -1, -1):
        ahead = deltas[i] + discount * trace * ahead
        returned = battle.rewards[i] + discount * returned
        found[i], to_go[i] = ahead, returned
    return found, to_go


@dataclass(frozen=True)
class Rate:
    """A share of battles with its Wilson 95% interval."""

    hits: int
    battles: int

    def __str__(self) -> str:
        n, p, z = self.battles, self.hits / self.battles, 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return f"{p:.1%} [{max(0.0, centre - half):.1%}, {min(1.0, centre + half):.1%}]"


@dataclass(frozen=True)
class Mean:
    """A mean over battles with its normal 95% interval."""

    mean: float
    half: float

    def __str__(self) -> str:
        return f"{self.mean:.2f} [{self.mean - self.half:.2f}, {self.mean + self.half:.2f}]"


@dataclass(frozen=True)
class Measure:
    """How the goblins fared over some battles: their wins; the battles in which they knocked the hero down at least
    once (saw him fallen at one of their decisions: the way to kill him, SB-MOD-1); and the rounds the battle lasted
    (the hero wins by clearing the bridge, or at the end of round 8)."""

    battles: int
    won: Rate
    hero_down: Rate
    rounds: Mean
    attacks: Mean

    def __str__(self) -> str:
        return (f"attacks on the hero {self.attacks}, hero knocked down in {self.hero_down}, "
                f"rounds {self.rounds}, won {self.won}")


def measure(env: Any, policy: Policy, seeds: range) -> Measure:
    found = [play(env, policy, seed) for seed in seeds]
    return Measure(len(found), Rate(sum(b.won for b in found), len(found)),
                   Rate(sum(b.knockdowns > 0 for b in found), len(found)), mean([b.rounds for b in found]),
                   mean([b.attacks for b in found]))


def mean(values: list[int]) -> Mean:
    found = np.array(values, float)
    half = 1.96 * float(found.std(ddof=1)) / math.sqrt(len(found)) if len(found) > 1 else math.inf
    return Mean(float(found.mean()), half)


def update(policy: Policy, battles: list[Battle], *, discount: float = 1.0, trace: float = 0.9,
           entropy: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """The directions of the policy's and the value function's weights a batch of battles played by *policy* asks
    for: the mean of each choice's log-probability gradient times its advantage (over the batch's spread), plus
    *entropy* times the entropy's gradient; and the value's step towards each choice's return to go."""
    found = [advantages(policy, b, discount=discount, trace=trace) for b in battles]
    advantage = np.concatenate([a for a, _ in found])
    to_go = np.concatenate([g for _, g in found])
    advantage = advantage / (advantage.std() + 1e-8)
    choices = [c for b in battles for c in b.choices]
    actor = np.zeros_like(policy.weights)
    for a, c in zip(advantage, choices):
        actor += a * policy.gradient(c) + entropy * policy.entropy_gradient(c)
    states = np.array([c.state for c in choices])
    critic = states.T @ (to_go - states @ policy.value)
    return actor / len(choices), critic / len(choices)


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


def train(episodes: int, evaluate: int, *, seed: int = 1, goal: str = "attacks", rate: float = 0.05, batch: int = 10,
          before: Measure | None = None) -> tuple[Measure, Measure, Policy]:
    """The goblins' measure before and after *episodes* of training for *goal*, each over the same *evaluate*
    battles (seeds 10,000 on), and the trained policy. The weights move once every *batch* battles (Adam, *rate*).
    *before*, when given, is the untrained policy's measure (the same for every training seed: all weights 0)."""
    env = gym_env(SCENARIO, side=SIDE, opponent="greedy", points=False, seed=seed)
    trials = range(10_000, 10_000 + evaluate)
    if before is None:
        before = measure(env, Policy(np.random.default_rng(seed)), trials)
    policy = Policy(np.random.default_rng(seed))
    actor, critic = Adam(rate), Adam(rate)
    for first in range(0, episodes, batch):
        battles = [play(env, policy, seed * 100_000 + n, goal=goal) for n in range(first, min(episodes, first + batch))]
        step, towards = update(policy, battles)
        policy.weights += actor.step(step)
        policy.value += critic.step(towards)
    policy.rng = np.random.default_rng(seed)
    after = measure(env, policy, trials)
    return before, after, policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=800, help="training battles per seed (default 800)")
    parser.add_argument("--eval", type=int, default=1000, help="battles to measure on, before and after (default 1000)")
    parser.add_argument("--goal", choices=GOALS, default="attacks", help="what the goblins are rewarded for")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1], help="training seeds (default 1)")
    args = parser.parse_args()
    started = time.process_time()
    print(f"goblins against the greedy hero, goal {args.goal}, over the same {args.eval} battles "
          f"(seeds 10000-{10_000 + args.eval - 1}; 95% intervals):")
    before = None
    for seed in args.seeds:
        before, after, policy = train(args.episodes, args.eval, seed=seed, goal=args.goal, before=before)
        if seed == args.seeds[0]:
            print(f"  before:                           {before}")
        print(f"  after {args.episodes} battles, seed {seed:<8}  {after}")
        for kind, row in zip(KINDS, policy.weights):
            if np.abs(row).max() > 0.3:
                print(f"    {kind:15}" + " ".join(f"{name} {w:+.2f}" for name, w in zip(CONTEXT, row) if abs(w) > 0.3))
    print(f"  {time.process_time() - started:.0f} s of CPU")


if __name__ == "__main__":
    main()
