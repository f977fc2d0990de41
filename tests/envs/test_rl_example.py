"""examples/rl/train_goblins.py (issue 25 §3): a few hundred steps of its training run, the same seed gives the
same numbers, its update makes the choices with the higher advantage likelier and moves the value towards the
returns, and its goals reward what they name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl" / "train_goblins.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_goblins", EXAMPLE)
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    sys.modules["train_goblins"] = found  # dataclasses look their module up there
    spec.loader.exec_module(found)
    return found


def test_issue25_3_training_runs_a_few_hundred_steps_moves_the_weights_and_repeats_itself(example: ModuleType) -> None:
    before, after, policy = example.train(6, 2, seed=2, batch=3)
    again = example.train(6, 2, seed=2, batch=3)
    assert (before, after) == again[:2]
    assert np.array_equal(policy.weights, again[2].weights) and np.array_equal(policy.value, again[2].value)
    assert np.count_nonzero(policy.weights) > 10 and policy.value[0] > 0  # the value rises towards the rounds to come
    assert before.battles == after.battles == 2
    assert 1 <= before.rounds.mean <= example.ROUNDS and 0 <= after.hero_down.hits <= 2


def test_issue25_3_held_rewards_sum_to_the_rounds_the_battle_lasted(example: ModuleType) -> None:
    env = example.gym_env(example.SCENARIO, side="Goblins", opponent="greedy", points=False, seed=3)
    policy = example.Policy(np.random.default_rng(3))
    battle = example.play(env, policy, 3, goal="held")
    assert battle.rewards.sum() == battle.rounds == env.episode.terminal.summary["rounds"]
    assert set(np.unique(battle.rewards)) <= {0.0, 1.0} and len(battle.rewards) == len(battle.choices)
    knocks = example.play(env, policy, 3, goal="knockdowns")
    assert knocks.rewards.sum() == knocks.knockdowns + 10 * knocks.won


def test_issue25_3_the_update_makes_the_choice_with_the_higher_advantage_likelier(example: ModuleType) -> None:
    env = example.gym_env(example.SCENARIO, side="Goblins", opponent="greedy", points=False, seed=5)
    obs, _ = env.reset(seed=5)
    policy = example.Policy(np.random.default_rng(5))
    _action, seen = policy.act(env, obs)
    assert len(seen.kinds) > 2 and len(set(seen.kinds)) > 1  # the first activation: several kinds of action
    good = example.Choice(seen.kinds, seen.contexts, int(np.argmax(seen.kinds)), seen.state)
    bad = example.Choice(seen.kinds, seen.contexts, int(np.argmin(seen.kinds)), seen.state)
    battles = [example.Battle([good], np.array([1.0]), False, 1, 8),
               example.Battle([bad], np.array([0.0]), False, 0, 5)]
    likely, unlikely = policy.probability(good), policy.probability(bad)
    actor, critic = example.update(policy, battles, entropy=0.0)
    policy.weights += 0.5 * actor
    assert policy.probability(good) > likely
    assert policy.probability(bad) < unlikely
    assert policy.value @ seen.state == 0 and critic @ seen.state > 0  # towards the mean return, 0.5


def test_issue25_3_the_entropy_bonus_evens_out_a_peaked_choice(example: ModuleType) -> None:
    env = example.gym_env(example.SCENARIO, side="Goblins", opponent="greedy", points=False, seed=5)
    obs, _ = env.reset(seed=5)
    policy = example.Policy(np.random.default_rng(5))
    _action, seen = policy.act(env, obs)
    policy.weights[seen.kinds[0], 0] = 3.0
    p = policy.probabilities(seen.kinds, seen.contexts)
    policy.weights += 0.1 * policy.entropy_gradient(seen)
    q = policy.probabilities(seen.kinds, seen.contexts)
    assert -(q * np.log(q)).sum() > -(p * np.log(p)).sum()


def test_issue25_3_features_read_the_kind_of_action_from_its_notation(example: ModuleType) -> None:
    env = example.gym_env(example.SCENARIO, side="Goblins", opponent="greedy", points=False, seed=1)
    obs, _ = env.reset(seed=1)
    kinds = {env.notation(int(a)): example.KINDS[example.features(env, obs, int(a))[0]]
             for a in np.flatnonzero(obs["action_mask"])}
    activations = {text: kind for text, kind in kinds.items() if text.startswith("activate ")}
    assert len(activations) >= 3 and kinds["end turn"] == "end turn"
    assert all(kind == f"activate {text.split()[-1]}" for text, kind in activations.items())
    state = example.state_features(env, obs)
    assert state[1] == 1 / example.ROUNDS and state[2] == 1.0 and state[4] == 0.0  # round 1, all 7 goblins, hero up
    assert state[8] == 1.0  # the mob starts within 100 mm of itself: every goblin has all its friends within Long
    boss = [a for a in np.flatnonzero(obs["action_mask"]) if env.notation(int(a)) == "activate boss 1"]
    assert example.features(env, obs, int(boss[0]))[1][7] == 1.0


def test_issue25_3_sixty_training_battles_make_the_goblins_attack_the_hero_measurably_more(example: ModuleType) -> None:
    before, after, policy = example.train(60, 60, seed=1)
    assert before.attacks.mean + before.attacks.half < after.attacks.mean - after.attacks.half  # 0.27 → 0.77 a battle
    assert policy.weights[example.KINDS.index("attack"), 0] > 0 > policy.weights[example.KINDS.index("end turn"), 0]
