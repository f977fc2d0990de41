"""``kessen sweep`` errors in the style of every other flag (issue 24 §7): a bad ``--ai`` is named as the flag with
its value, a missing matplotlib as ``--plot`` with no value, exit status 2, no Python None or types."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import subprocess
from kessen.core.errors import InputError
from kessen.sim.plots import pyplot

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
SWEEP = str(ROOT / "examples" / "battlehost" / "sweeps" / "captain-might.toml")


@pytest.mark.parametrize(("flag", "said"), [
    ("x=greedy", "--ai: not a side of this scenario (its sides are good, evil) (got 'x')"),
    ("good=nosuch", "--ai: must be an AI level: greedy, search, search:N, random or package.module:Name (got 'nosuch')"),
    ("bogus", "--ai: must be an AI level"),
])
def test_sweep_a_bad_ai_flag_is_named_as_the_flag(flag: str, said: str, tmp_path: Path) -> None:
    """A level or side given on the command line is the flag that is wrong, not the sweep file's ``ai`` field."""
    result = subprocess.run(
        [KESSEN, "sweep", SWEEP, "--ai", flag, "--db", str(tmp_path / "r.db")], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 2 and result.stdout == ""
    line = result.stderr.strip().splitlines()[-1]
    assert said in line and "captain-might.toml: ai" not in line
    assert "None" not in line and "<class" not in line and "Traceback" not in result.stderr


def test_plots_without_matplotlib_name_the_flag_and_no_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """No matplotlib: the error names --plot and how to get it, with no "(got None)"."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    with pytest.raises(InputError) as raised:
        pyplot()
    assert str(raised.value) == "--plot: plots need matplotlib: pip install 'kessen[plot]'"


def test_i24_7_sweep_ai_sides_in_any_case_with_did_you_mean(tmp_path: Path) -> None:
    """``kessen sweep --ai EVIL=random`` plays the scenario's ``evil`` side as ``kessen battle`` does; a near miss is
    refused with the side meant, and so is a sweep file's ``ai`` table."""
    sweep = tmp_path / "two.toml"
    sweep.write_text(f'scenario = "{ROOT / "examples" / "battlehost" / "doorway.toml"}"\nruns = 2\nseed = 1\n')
    played = subprocess.run(
        [KESSEN, "sweep", str(sweep), "--ai", "EVIL=random", "--ai", "Good=greedy", "--db", str(tmp_path / "r.db")],
        capture_output=True, text=True, timeout=300,
    )
    assert played.returncode == 0, played.stderr
    missed = subprocess.run(
        [KESSEN, "sweep", str(sweep), "--ai", "evl=random", "--db", str(tmp_path / "r.db")], capture_output=True, text=True, timeout=300
    )
    assert missed.returncode == 2
    assert missed.stderr.strip().splitlines()[-1] == (
        "kessen: error: --ai: not a side of this scenario (its sides are good, evil); did you mean evil? (got 'evl')"
    )


def test_i24_7_ai_table_sides_in_any_case() -> None:
    """The Python API and a sweep file's ``ai`` table read sides as ``--ai`` does (one place: ``parse_ai``)."""
    from kessen.ai.levels import level_table

    assert level_table({"EVIL": "random"}, ("good", "evil")) == (("good", "greedy"), ("evil", "random"))
    with pytest.raises(InputError) as wrong:
        level_table({"Evel": "random"}, ("good", "evil"), "ai")
    assert str(wrong.value) == "ai.Evel: not a side of this scenario (its sides are good, evil); did you mean evil? (got 'Evel')"
