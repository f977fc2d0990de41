"""The JSON Schemas of the song-of-blades odds inputs and scenario files explain themselves (issue 8 §4)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from kessen.rulesets import get_ruleset
from kessen.rulesets.song_of_blades.referee.game import GAME
from kessen.rulesets.song_of_blades.referee.steps import DecisionKind
from kessen.rulesets.song_of_blades.scenario import Scenario

MODELS: list[type[BaseModel]] = [p.input_model for p in get_ruleset("song-of-blades").procedures.values()] + [Scenario]


def properties(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every property of a schema and of each of its definitions, as (path, property schema)."""
    for name, prop in schema.get("properties", {}).items():
        yield f"{schema.get('title', '?')}.{name}", prop
    for definition in schema.get("$defs", {}).values():
        yield from properties(definition)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_sb_schema_every_property_has_a_description(model: type[BaseModel]) -> None:
    """Every field of every odds input and of the scenario file, nested objects included, has a description in its
    JSON Schema (what `--schema` prints and a form is built from)."""
    found = list(properties(model.model_json_schema()))
    assert found
    for path, prop in found:
        assert str(prop.get("description", "")).strip(), path


DOC = Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "song-of-blades.md"


def test_sb_scenario_doc_names_every_field_and_its_example_loads() -> None:
    """docs/scenarios/song-of-blades.md (issue 8 §4): it names every field of the scenario format, and its example
    is a valid scenario."""
    text = DOC.read_text(encoding="utf-8")
    for path, _ in properties(Scenario.model_json_schema()):
        assert f"`{path.rsplit('.', 1)[1]}`" in text, path
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example is not None
    state = GAME.load_scenario(example.group(1), str(DOC))
    assert state.skirmish.name == "Hedge fight" and state.follow_up and len(state.table.obstacles) == 1


def test_sb_turn_3_the_doc_gives_the_notation_of_every_decision_kind() -> None:
    """docs/scenarios/song-of-blades.md (issue 10 §2): its notation table has a row for every decision kind, and
    each refusal it shows names a rule the referee refuses with."""
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("| kind | who decides, who acts | forms | examples |"):]
    for kind in get_args(DecisionKind):
        assert f"\n| `{kind}` |" in table, kind
    source = "".join(p.read_text(encoding="utf-8") for p in (DOC.parents[2] / "src" / "kessen" / "rulesets" / "song_of_blades" / "referee").glob("*.py"))
    refused = set(re.findall(r'IllegalChoice\(\s*"(SB-[A-Z]+-\d+)"', source))
    shown = re.findall(r"^    (SB-[A-Z]+-\d+): ", text, re.M)
    assert len(shown) >= 5 and set(shown) <= refused, (shown, refused)

