"""The C prototype of battlehost's legal-move geometry (native/bhmoves.c, issue 26) answers every call of recorded
battles exactly as the referee does: the same charge point to the last bit, the same breach and the same model."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from kessen.core.geometry import Point
from kessen.rulesets.battlehost.referee import moves

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the checkout: native/ and setup.py's own test for a compiler

from native.recorded import Calls, recorded  # noqa: E402
from setup import c_compiler  # noqa: E402

pytestmark = pytest.mark.skipif(c_compiler() is None, reason="no C compiler to build native/bhmoves.c with")


@pytest.fixture(scope="module")
def bhmoves() -> Any:
    from native.build import built

    built()
    sys.path.insert(0, str(ROOT / "native"))
    import _bhmoves  # type: ignore[import-not-found]

    _bhmoves.configure(Point, moves._CHARGE_TURNS)
    return _bhmoves


@pytest.fixture(scope="module", params=["line-fight", "doorway"])
def calls(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Calls:
    """Every call of two battles of an open field (line-fight) and of walls with a door (doorway: terrain)."""
    found = recorded(ROOT / "examples" / "battlehost" / f"{request.param}.toml", [1, 2],
                     tmp_path_factory.mktemp("calls") / "calls.pickle")
    assert found.charge and found.breach, "the battles charge and move"
    return found


def test_BH_MOVE_5_charge_point_in_c_is_the_referees(bhmoves: Any, calls: Calls) -> None:
    """The contact point of each charge (or None), from C, on the arguments of every call the battles made: equal to
    the referee's answer then (pure engine) and now (this process's engine), and so is the kernel alone."""
    for args, answer in calls.charge:
        mover, target, models, board, limit, engaged = args
        assert bhmoves.charge_point(*args) == answer
        assert bhmoves.answer(bhmoves.read_call(*args)) == answer
        assert moves.charge_point(mover, target, models, board, limit=limit, engaged=engaged) == answer
    assert any(answer is not None for _, answer in calls.charge)
    assert any(answer is None for _, answer in calls.charge)


def test_BH_MOVE_2_to_5_breach_in_c_is_the_referees(bhmoves: Any, calls: Calls) -> None:
    """The first rule a move breaks and the model it names (or None), from C, as the referee answered every call of
    the battles outside charge_point (moves into line, round terrain)."""
    for args, answer in calls.breach:
        assert bhmoves.breach(*args) == answer
        assert bhmoves.answer(bhmoves.read_call(*args)) == answer
        assert moves._breach(*args) == answer


def test_c_hypot_is_math_hypot(bhmoves: Any, calls: Calls) -> None:
    """C's hypot is Python's to the last bit: on the offsets between the recorded battles' models and on random
    offsets from a hundredth of an inch to a table's width."""
    rng = random.Random(26)
    offsets = [(a.x - b.x, a.y - b.y) for args, _ in calls.charge[:200] for a in args[2] for b in args[2]]
    offsets += [(rng.uniform(-60, 60), rng.uniform(-60, 60) * 10 ** -rng.randint(0, 6)) for _ in range(100_000)]
    offsets += [(0.0, 0.0), (3.0, 4.0), (-0.0, 2.5), (1e-300, 1e-300)]
    for dx, dy in offsets:
        assert bhmoves.hypot(dx, dy) == math.hypot(dx, dy), (dx, dy)
