"""The limits of a battlehost scenario (issue 14): 60 models a side, a board of 6" to 96", at most 50 terrain blocks,
1 to 30 turns; beyond them a scenario is refused with one line naming the file, the field and the limit, and a
scenario at the limits plays to the end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from bh_referee_support import model

from kessen.core.errors import InputError
from kessen.rulesets import get_ruleset
from kessen.rulesets.battlehost.scenario import MAX_MODELS_A_SIDE, MAX_TERRAIN_BLOCKS, load_scenario
from kessen.sim.play import play_battle

KESSEN = str(Path(sys.executable).with_name("kessen"))


def at_the_limits(**change: Any) -> dict[str, Any]:
    """60 against 60 on a 48" board with 50 pillars between the lines and 30 turns: archers, heroes with Might and
    two-handed weapons in both forces."""
    pillars = [[3.0 + 6.0 * (k % 7), 15.0 + 2.5 * (k // 7), 4.0 + 6.0 * (k % 7), 16.0 + 2.5 * (k // 7)] for k in range(MAX_TERRAIN_BLOCKS)]

    def force(side: str, y0: float, dy: float) -> list[dict[str, Any]]:
        out = []
        for i in range(MAX_MODELS_A_SIDE):
            row, column = divmod(i, 30)
            extra: dict[str, Any] = {"missile_weapon": "bow" if side == "G" else "orc bow"} if i % 4 == 0 else {}
            if i % 20 == 1:
                extra.update(type="hero", might=3, attacks=2, wounds=2)
            if side == "E" and i % 3 == 0:
                extra["two_handed"] = True
            out.append(model(f"{side}{i}", 1.0 + 1.5 * column, y0 + dy * 1.5 * row, fight="3/4+", defence=5, **extra))
        return out

    data = {"name": "at the limits", "turns": 30, "board": {"width": 48.0, "height": 48.0}, "terrain": pillars,
            "good": force("G", 2.0, 1), "evil": force("E", 46.0, -1)}
    data.update(change)
    return data


def test_bh_limits_a_scenario_at_the_limits_plays_to_the_end() -> None:
    """Issue 14: 60 a side, 50 terrain blocks, 30 turns: valid, and an AI battle of it ends (benchmarks/battlehost.py
    measures how long it takes)."""
    text = tomli_w.dumps(at_the_limits())
    played = play_battle(get_ruleset("battlehost"), text, "limits.toml", 1)
    assert played.terminal is not None and played.events[-1].type == "battle_ended"


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("good", {"good": at_the_limits()["good"] + [model("G60", 40.0, 8.0)]}),
        ("terrain", {"terrain": at_the_limits()["terrain"] + [[40.0, 30.0, 41.0, 31.0]]}),
        ("turns", {"turns": 31}),
        ("board.width", {"board": {"width": 97.0, "height": 48.0}}),
    ],
)
def test_bh_limits_beyond_the_limits_is_refused_naming_the_field(field: str, change: dict[str, Any]) -> None:
    """Issue 14: one model, one block or one turn more, or a board over 96", is refused naming the field."""
    with pytest.raises(InputError) as caught:
        load_scenario(tomli_w.dumps(at_the_limits(**change)), "limits.toml")
    assert caught.value.field == f"limits.toml: {field}"


def test_bh_limits_the_cli_refuses_a_scenario_beyond_the_limits_in_one_line(tmp_path: Path) -> None:
    """Issue 14: the real CLI exits 2 with one line on stderr naming the file and the limit."""
    path = tmp_path / "too-many.toml"
    path.write_text(tomli_w.dumps(at_the_limits(good=at_the_limits()["good"] + [model("G60", 40.0, 8.0)])), encoding="utf-8")
    done = subprocess.run([KESSEN, "board", str(path), "--ruleset", "battlehost"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert f"{path}: good: must have at most {MAX_MODELS_A_SIDE} entries" in done.stderr
