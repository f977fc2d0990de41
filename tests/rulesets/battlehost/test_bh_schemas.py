"""The JSON Schemas of every battlehost odds input and of the scenario file explain themselves: every property of
every object in them has a description (issue 8 §4, BH-PROC-0)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from kessen.rulesets import get_ruleset
from kessen.rulesets.battlehost.referee.setup import initial_state
from kessen.rulesets.battlehost.scenario import BoardSize, InlineWeapon, ModelEntry, Scenario, load_scenario

MODELS: dict[str, type[BaseModel]] = {
    **{f"odds {name}": p.input_model for name, p in get_ruleset("battlehost").procedures.items()},
    "scenario": Scenario,
}


def undescribed(schema: dict[str, Any]) -> list[str]:
    """The properties, in the schema and its $defs, that carry no description."""
    missing = []
    for where, obj in [("", schema), *((f"$defs.{k}.", v) for k, v in schema.get("$defs", {}).items())]:
        for name, prop in obj.get("properties", {}).items():
            if not str(prop.get("description", "")).strip():
                missing.append(where + name)
    return missing


@pytest.mark.parametrize("name", sorted(MODELS))
def test_bh_proc_0_every_schema_property_has_a_description(name: str) -> None:
    """BH-PROC-0 and section 4: every field of the odds inputs and of the scenario file is described in its schema."""
    schema = MODELS[name].model_json_schema()
    assert schema.get("properties")
    assert undescribed(schema) == []


DOC = Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "battlehost.md"


def test_bh_the_scenario_doc_names_every_field_and_its_example_loads() -> None:
    """docs/scenarios/battlehost.md: every field of the scenario format appears in its tables, and its example is a
    valid scenario."""
    doc = DOC.read_text(encoding="utf-8")
    for model in (Scenario, BoardSize, ModelEntry, InlineWeapon):
        for name in model.model_fields:
            assert f"`{name}`" in doc, (model.__name__, name)
    example = re.search(r"```toml\n(.*?)```", doc, re.S)
    assert example is not None
    state = initial_state(load_scenario(example.group(1), str(DOC)))
    assert [m.id for m in state.models] == ["Captain", "Guard", "Orc", "Orc Archer"]
