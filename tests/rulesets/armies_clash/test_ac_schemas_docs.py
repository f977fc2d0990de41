"""armies-clash input formats explain themselves: every field of every odds input and of the scenario file has a
description in its JSON Schema, and the scenario format document's example loads and plays (AC-PROC-1, §4)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kessen.core.replay import play
from kessen.rulesets import get_ruleset
from kessen.rulesets.armies_clash.scenario import Scenario

RULESET = get_ruleset("armies-clash")
DOC = Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "armies-clash.md"


def _undescribed(schema: dict[str, Any]) -> list[str]:
    """Every property, in the schema and its definitions, that has no description."""
    missing = []
    for name, model in [("", schema), *schema.get("$defs", {}).items()]:
        for field, spec in model.get("properties", {}).items():
            if not spec.get("description"):
                missing.append(f"{name}.{field}")
    return missing


@pytest.mark.parametrize("procedure", sorted(RULESET.procedures))
def test_ac_proc_1_every_odds_input_field_is_described(procedure: str) -> None:
    """AC-PROC-1: `kessen odds armies-clash PROCEDURE --schema` describes every field of the input."""
    schema = RULESET.procedures[procedure].input_model.model_json_schema()
    assert schema["properties"] and not _undescribed(schema)


def test_ac_setup_1_every_scenario_field_is_described() -> None:
    """AC-SETUP-1, §4: the scenario file's JSON Schema describes every field, nested records included."""
    schema = Scenario.model_json_schema()
    assert len(schema["$defs"]) >= 10 and not _undescribed(schema)


def test_ac_setup_1_the_documented_example_loads_and_plays() -> None:
    """AC-SETUP-1: the example of docs/scenarios/armies-clash.md is a valid scenario that plays to its end, and the
    document states the limits the loader enforces."""
    text = DOC.read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example is not None
    game = RULESET.game
    state = game.load_scenario(example.group(1), str(DOC))
    played = play(game, state, {side: game.ai(side) for side in game.sides(state)}, 1)
    assert played.terminal is not None and played.terminal.summary["rounds"] >= 1
    for limit in ("1 to 100 squares", "at most 50 a side", "at most 26 a side", "at most 10 a side", "60 ft", "300 ft"):
        assert limit in text, limit
