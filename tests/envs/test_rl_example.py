"""examples/rl/train_goblins.py (issue 25 §3): a few hundred steps of its training run, and the same seed gives the
same numbers."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl" / "train_goblins.py"


def test_training_runs_a_few_hundred_steps_and_repeats_itself() -> None:
    spec = importlib.util.spec_from_file_location("train_goblins", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    first = example.train(6, 2, seed=3)
    assert first == example.train(6, 2, seed=3)
    (won, worth), (won_after, worth_after) = first
    assert 0 <= won <= 1 and 0 <= won_after <= 1
    assert -1 <= worth <= 1 and -1 <= worth_after <= 1
