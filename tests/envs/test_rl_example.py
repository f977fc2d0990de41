"""examples/rl/train_goblins.py (issue 25 §3): a few hundred steps of its training run, the same seed gives the
same numbers, and its update makes the rewarded choices likelier."""

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


def test_training_runs_a_few_hundred_steps_moves_the_weights_and_repeats_itself(example: ModuleType) -> None:
    before, after, policy = example.train(6, 2, seed=2, batch=3)
    again = example.train(6, 2, seed=2, batch=3)
    assert (before, after) == again[:2]
    assert np.array_equal(policy.weights, again[2].weights)
    assert np.count_nonzero(policy.weights) > 10  # a knock-down among these battles: the updates moved the weights
    assert before.battles == after.battles == 2
    assert 0 <= before.won <= 1 and 0 <= after.hero_down <= 1


def test_the_update_makes_the_choice_with_the_higher_return_likelier(example: ModuleType) -> None:
    env = example.gym_env(example.SCENARIO, side="Goblins", opponent="greedy", points=False, seed=5)
    obs, _ = env.reset(seed=5)
    policy = example.Policy(np.random.default_rng(5))
    _action, seen = policy.act(env, obs)
    assert len(seen.kinds) > 2 and len(set(seen.kinds)) > 1  # the first activation: several kinds of action
    good = example.Choice(seen.kinds, seen.contexts, int(np.argmax(seen.kinds)))
    bad = example.Choice(seen.kinds, seen.contexts, int(np.argmin(seen.kinds)))
    battles = [example.Battle([good], np.array([1.0]), False, 1), example.Battle([bad], np.array([0.0]), False, 0)]
    likely, unlikely = policy.probability(good), policy.probability(bad)
    policy.weights += 0.5 * example.update(policy, battles)
    assert policy.probability(good) > likely
    assert policy.probability(bad) < unlikely


def test_features_read_the_kind_of_action_from_its_notation(example: ModuleType) -> None:
    env = example.gym_env(example.SCENARIO, side="Goblins", opponent="greedy", points=False, seed=5)
    obs, _ = env.reset(seed=5)
    kinds = {env.notation(int(a)): example.KINDS[example.features(env, obs, int(a))[0]]
             for a in np.flatnonzero(obs["action_mask"])}
    activations = {text: kind for text, kind in kinds.items() if text.startswith("activate ")}
    assert len(activations) >= 3 and kinds["end turn"] == "end turn"
    assert all(kind == f"activate {text.split()[-1]}" for text, kind in activations.items())
