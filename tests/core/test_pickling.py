"""A state and a Match survive ``copy.deepcopy`` and ``pickle``, with the pure-Python engine and the compiled one
(issue 22 §1): every shipped scenario, its state equal after the round trip, and the copied match playing on to the
very events the original plays, its undo points kept.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kessen.core.events import to_json_line
from kessen.core.records import rebuilt
from kessen.match import Match
from tests.sim.test_compiled_parity import needs_compiled

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "examples").glob("*/*.toml"))
COPIES: dict[str, Callable[[Any], Any]] = {"deepcopy": copy.deepcopy, "pickle": lambda value: pickle.loads(pickle.dumps(value))}


def lines(m: Match) -> list[str]:
    return [to_json_line(e) for e in m.events]


def plays_on_alike(m: Match, again: Match, decisions: int) -> None:
    """The same next *decisions* choices (the first option) on both: the same events, the same state."""
    for _ in range(decisions):
        if m.decision is None:
            break
        m.choose(m.decision.options[0])
        again.choose(again.decision.options[0])  # type: ignore[union-attr]
    assert lines(again) == lines(m) and again.state == m.state


def check_scenario(path: Path) -> None:
    """States and a match of *path*, each copied both ways (see the module's docstring)."""
    sides = Match.open(path, seed=5).sides
    m = Match.open(path, seed=5, people=sides)
    m.run()
    for _ in range(6):
        if m.decision is not None:
            m.choose(m.decision.options[-1])
    for how, copied in COPIES.items():
        assert copied(m.state) == m.state, how
        again = copied(m)
        assert type(again) is Match and again.state == m.state and lines(again) == lines(m), how
        assert again.dumps() == m.dumps(), how
        if m.can_undo:
            undone, back = copied(m), copied(m)
            undone.undo()
            back.undo()
            assert undone.state == back.state and lines(undone) == lines(back), how
        plays_on_alike(copied(m), again, 4)


def check_all() -> list[str]:
    for path in SCENARIOS:
        check_scenario(path)
    import kessen.core.geometry

    return [str(kessen.core.geometry.__file__)]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}:{p.stem}")
def test_a_state_and_a_match_survive_deepcopy_and_pickle(path: Path) -> None:
    """Issue 22 §1, the pure-Python engine: a state equals itself after deepcopy and a pickle round trip (a legions
    state too, an armies-clash state too); a match copied either way plays on to the very same events."""
    check_scenario(path)


def test_every_record_of_the_engine_pickles_through_its_init_fields() -> None:
    """Issue 22 §1: each dataclass of a module mypyc compiles (setup.py) is a record that pickles and copies as
    ``rebuilt`` says: ``@record`` classes by the decorator, native ones named to ``picklable`` (a new one that is
    not would pickle in pure Python and fail in the compiled engine)."""
    sys.path.insert(0, str(ROOT))
    try:
        from setup import compiled_modules
    finally:
        sys.path.remove(str(ROOT))
    checked = 0
    for source in compiled_modules():
        module = importlib.import_module(source.removeprefix("src/").removesuffix(".py").replace("/", "."))
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__ and dataclasses.is_dataclass(value):
                assert value.__reduce__ is rebuilt, f"{module.__name__}.{value.__name__}: name it to picklable()"
                checked += 1
    assert checked > 100


def test_with_the_compiled_engine_a_state_and_a_match_survive_deepcopy_and_pickle() -> None:
    """Issue 22 §1, the compiled engine (``make compiled``), in a child process: the same checks on every scenario."""
    needs_compiled()
    child = "from tests.core.test_pickling import check_all; print(check_all()[0])"
    env = {**os.environ, "KESSEN_ENGINE": "compiled", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith(".so"), done.stdout
