"""A sweep's swap_sides for battlehost scenarios: the ruleset's own swap_deployment (BH-GEO-5)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import tomli_w

from kessen.rulesets import get_ruleset
from kessen.rulesets.battlehost.scenario import load_scenario
from kessen.sim.deployment import swap_deployment

DOORWAY = Path(__file__).resolve().parents[3] / "examples" / "battlehost" / "doorway.toml"


def test_bh_geo_5_swapping_deployment_turns_each_force_onto_the_other_ground() -> None:
    """BH-GEO-5: positions are turned half a turn about the board's centre (x → width − x, y → height − y), the
    terrain stays; the swapped doorway is still a valid scenario, and swapping twice gives it back."""
    assert get_ruleset("battlehost").swap_deployment is not None
    data = tomllib.loads(DOORWAY.read_text(encoding="utf-8"))
    original = tomllib.loads(DOORWAY.read_text(encoding="utf-8"))
    swap_deployment("battlehost", data)
    width, height = original.get("board", {}).get("width", 48.0), original.get("board", {}).get("height", 48.0)
    first, turned = original["good"][0], data["good"][0]
    assert (turned["x"], turned["y"]) == (width - first["x"], height - first["y"])
    assert data.get("terrain") == original.get("terrain")
    load_scenario(tomli_w.dumps(data), "swapped.toml")
    swap_deployment("battlehost", data)
    assert data == original
