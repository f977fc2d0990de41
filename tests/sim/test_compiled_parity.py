"""The engine compiled with mypyc plays exactly the battles the pure-Python engine plays (issue 13 §3, issue 26).

``make compiled`` (part of ``make test``) builds the compiled engine into ``.venv/compiled``; each test plays every
shipped scenario of one ruleset on many seeds in two child processes, one on the compiled engine
(``KESSEN_ENGINE=compiled``) and one on the source (``KESSEN_ENGINE=pure``), and compares the sha256 of each battle's
events file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kessen.bootstrap import CHOICE, Choice

ROOT = Path(__file__).resolve().parents[2]
COMPILED = Path(sys.prefix) / "compiled"
"""Where ``make compiled`` installs the built package (kessen.bootstrap looks there)."""
SEEDS = range(1, 21)

_CHILD = r"""
import json, sys
from pathlib import Path
import kessen.core.geometry
from tests.golden_events import ROOT, events_digest
paths = sorted((ROOT / "examples" / sys.argv[1]).glob("*.toml"))
digests = {f"{p.name}@{s}": events_digest(p, s) for p in paths for s in json.loads(sys.argv[2])}
print(json.dumps({"engine": kessen.core.geometry.__file__, "digests": digests}))
"""


def _c_compiler() -> str | None:
    sys.path.insert(0, str(ROOT))
    try:
        from setup import c_compiler  # the build's own test for a compiler
    finally:
        sys.path.remove(str(ROOT))
    return c_compiler()


def needs_compiled() -> None:
    """Skip, saying why, when the compiled engine does not run here (``make test`` builds it first)."""
    if CHOICE.engine == "compiled":
        return
    if _c_compiler() is None:
        pytest.skip("no C compiler on this machine: kessen runs as pure Python only")
    pytest.skip(f"the compiled engine does not run here ({CHOICE.reason}): `make compiled` builds it")


def _play(engine: str, ruleset: str) -> dict[str, object]:
    env = {**os.environ, "KESSEN_ENGINE": engine, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, ruleset, json.dumps(list(SEEDS))],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize("ruleset", ["song-of-blades", "battlehost", "legions", "armies-clash"])
def test_the_compiled_engine_plays_the_same_battles_byte_for_byte(ruleset: str) -> None:
    """Every shipped scenario of *ruleset*, seeds 1–20, AI against AI: the same events file from both engines."""
    needs_compiled()
    compiled, pure = _play("compiled", ruleset), _play("pure", ruleset)
    assert str(compiled["engine"]).endswith(".so"), compiled["engine"]
    assert str(pure["engine"]).endswith(".py"), pure["engine"]
    assert len(pure["digests"]) >= 2 * len(SEEDS)  # type: ignore[arg-type]
    assert compiled["digests"] == pure["digests"]


def test_a_compiled_point_refuses_a_write() -> None:
    """``Point`` is a native class of the compiled engine: its coordinates are Final there at run time too."""
    needs_compiled()
    child = (
        "from kessen.core.geometry import Point\n"
        "p = Point(1.0, 2.0)\n"
        "try:\n    p.x = 3.0\nexcept AttributeError:\n    print('refused', p.x)\n"
    )
    env = {**os.environ, "KESSEN_ENGINE": "compiled"}
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "refused 1.0", done.stderr[-2000:]


def test_without_a_compiled_engine_the_parity_tests_skip_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """(issue 22 §1) No compiled engine (``.venv/compiled`` not built, or stale): a skip that says how to build it (or
    that no C compiler is here), not a failure."""
    not_built = Choice("pure", "the compiled engine is not built (make compiled)", {})
    monkeypatch.setattr(sys.modules[__name__], "CHOICE", not_built)
    with pytest.raises(pytest.skip.Exception) as skipped:
        needs_compiled()
    assert "make compiled" in str(skipped.value) or "no C compiler" in str(skipped.value)
