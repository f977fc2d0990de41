"""The Python odds API (kessen.odds), the registry and input validation, ruleset-independently."""

from __future__ import annotations

import json
from collections import namedtuple
from fractions import Fraction
from typing import Any

import pytest

import kessen
from kessen import InputError, KessenError, OddsResult, get_ruleset, odds, ruleset_ids
from kessen.core.errors import UnknownProcedureError, UnknownRulesetError
from kessen.io.validation import field_path
from kessen.rulesets import outcome_fields
from kessen.rulesets.song_of_blades.procedures import MeleeInput

SB = "song-of-blades"
MELEE = {"attacker_combat": 3, "defender_combat": 2}


def test_public_names() -> None:
    odds_api = {"InputError", "KessenError", "OddsResult", "get_ruleset", "odds", "ruleset_ids", "__version__"}
    assert odds_api <= set(kessen.__all__)
    assert all(hasattr(kessen, name) for name in kessen.__all__)
    assert issubclass(InputError, KessenError) and issubclass(InputError, ValueError)


def test_registry_lists_registered_rulesets_in_a_stable_order() -> None:
    ids = ruleset_ids()
    assert ids == ruleset_ids()
    assert SB in ids
    for rid in ids:
        ruleset = get_ruleset(rid)
        assert ruleset.id == rid and ruleset.procedures
        for name, procedure in ruleset.procedures.items():
            assert procedure.name == name and procedure.summary


def test_unknown_ruleset_is_an_input_error_listing_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError) as caught:
        get_ruleset("chess")
    error = caught.value
    assert isinstance(error, InputError)
    assert (error.field, error.value) == ("ruleset", "chess")
    assert all(rid in str(error) for rid in ruleset_ids())


def test_unknown_procedure_is_an_input_error_listing_the_procedures() -> None:
    with pytest.raises(UnknownProcedureError) as caught:
        odds(SB, "shoot", {})
    assert (caught.value.field, caught.value.value) == ("procedure", "shoot")
    assert all(name in str(caught.value) for name in get_ruleset(SB).procedures)


def test_odds_accepts_a_dict_a_json_string_and_a_model_alike() -> None:
    by_dict = odds(SB, "melee", MELEE)
    by_text = odds(SB, "melee", json.dumps(MELEE))
    by_model = odds(SB, "melee", MeleeInput(attacker_combat=3, defender_combat=2))
    assert by_dict.outcomes == by_text.outcomes == by_model.outcomes
    assert by_dict.input == by_text.input == by_model.input


def test_the_same_input_returns_the_cached_distribution() -> None:
    assert odds(SB, "melee", MELEE).dist is odds(SB, "melee", dict(MELEE)).dist


def test_a_model_instance_still_gets_its_cross_field_check() -> None:
    """The constructor does not run check(); odds() does (§6.1: no ambush on a free hack)."""
    value = MeleeInput(attacker_combat=3, defender_combat=3, free_hack=True, ambush=True)
    with pytest.raises(InputError) as caught:
        odds(SB, "melee", value)
    assert caught.value.field == "ambush"


def test_outcomes_are_sorted_distinct_and_sum_to_one() -> None:
    result = odds(SB, "melee", MELEE)
    rows = result.outcomes
    assert sum(p for _, p in rows) == 1
    keys = [tuple(o.values()) for o, _ in rows]
    assert len(set(keys)) == len(keys)
    assert keys == sorted(keys)  # all three fields are strings here
    assert all(p > 0 for _, p in rows)


def test_probability_sums_the_matching_outcomes() -> None:
    result = odds(SB, "melee", MELEE)
    assert result.probability() == 1
    by_hand = sum((p for o, p in result.outcomes if o["result"] == "kill"), Fraction(0))
    assert result.probability(result="kill") == by_hand == Fraction(1, 6)  # README's example
    assert result.probability(result="no such result") == 0
    assert result.probability(nonexistent_field=1) == 0


def test_to_json_dict_is_the_contract() -> None:
    result = odds(SB, "activation", {"quality": 4, "dice": 3})
    doc = json.loads(result.to_json())
    assert doc == result.to_json_dict()
    assert doc["ruleset"] == SB and doc["procedure"] == "activation"
    assert doc["input"] == {"quality": 4, "dice": 3}
    assert [row["probability"] for row in doc["outcomes"]] == ["1/8", "3/8", "3/8", "1/8"]
    assert [row["p"] for row in doc["outcomes"]] == [0.125, 0.375, 0.375, 0.125]
    assert json.loads(result.to_json(indent=None)) == doc


def test_odds_result_is_frozen() -> None:
    result = odds(SB, "morale", {"quality": 4})
    assert isinstance(result, OddsResult)
    with pytest.raises(AttributeError):
        result.procedure = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "field", "reason_part"),
    [
        ({"quality": 3, "extra": 1}, "extra", "unknown field"),
        ({"dice": 2}, "quality", "required"),
        ({"quality": True}, "quality", "integer"),
        ({"quality": 3.0}, "quality", "integer"),
        ({"quality": "3"}, "quality", "integer"),
        ({"quality": 7}, "quality", "≤ 6"),
        ({"quality": 1}, "quality", "≥ 2"),
        ([], "input", "object"),
        ("not json", "input", "JSON"),
        ("[1, 2]", "input", "object"),
        (b"bytes", "input", "JSON"),
        ({"quality": {1, 2}}, "input", "JSON"),
        ({(1, 2): 3}, "input", "JSON"),
    ],
)
def test_bad_input_raises_input_error_naming_the_field(data: Any, field: str, reason_part: str) -> None:
    with pytest.raises(InputError) as caught:
        odds(SB, "activation", data)
    assert caught.value.field == field
    assert reason_part in caught.value.reason


def test_bad_list_entry_is_named_with_its_index() -> None:
    with pytest.raises(InputError) as caught:
        odds(SB, "disengage", {"combat": 3, "enemies": [{"combat": 3}, {"combat": 3, "state": "asleep"}]})
    assert caught.value.field == "enemies[1].state"
    assert caught.value.value == "asleep"
    assert "(got 'asleep')" in str(caught.value)


def test_input_nested_too_deeply_is_an_input_error() -> None:
    """A Python structure too deep for JSON is bad input, not a RecursionError."""
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(InputError):
        odds(SB, "activation", {"quality": deep})


def test_input_error_message_shape() -> None:
    assert str(InputError("enemies[0].combat", 13, "must be ≤ 12")) == "enemies[0].combat: must be ≤ 12 (got 13)"
    assert str(InputError("quality", InputError.NOTHING, "required field is missing")) == "quality: required field is missing"
    long = str(InputError("name", "x" * 200, "too long"))
    assert long.endswith("...)") and len(long) < 120


@pytest.mark.parametrize(
    ("loc", "path"),
    [((), "input"), (("quality",), "quality"), (("enemies", 0, "combat"), "enemies[0].combat"), (("a", "b"), "a.b")],
)
def test_field_path(loc: tuple[int | str, ...], path: str) -> None:
    assert field_path(loc) == path


def test_outcome_fields_of_dataclasses_and_named_tuples() -> None:
    pair = namedtuple("pair", "left right")
    assert outcome_fields(pair(1, "x")) == {"left": 1, "right": "x"}
    with pytest.raises(TypeError):
        outcome_fields((1, 2))
    row = odds(SB, "morale", {"quality": 4}).dist.outcomes()[0]
    assert list(outcome_fields(row)) == ["failures", "result", "flee_moves"]


@pytest.mark.parametrize("rid", ruleset_ids())
def test_every_procedure_echoes_input_that_validates_again(rid: str) -> None:
    """The normalised input is itself a valid input that gives the same odds (for the public cases)."""
    from pathlib import Path

    cases = json.loads((Path(__file__).parent / "data" / f"{rid}.examples.json").read_text())
    for case in cases:
        if case.get("error"):
            continue
        first = odds(rid, case["procedure"], case["input"])
        again = odds(rid, case["procedure"], first.input)
        assert again.input == first.input, case["id"]
        assert again.outcomes == first.outcomes, case["id"]


def test_nested_models_cross_field_checks_run_with_their_full_path() -> None:
    """A nested input model's own check() runs too, and its error names the field by its full path."""
    from pydantic import Field

    from kessen.core.errors import InputError as Error
    from kessen.io.validation import StrictModel, validate_data

    class Entry(StrictModel):
        low: int = Field(ge=0)
        high: int = Field(ge=0)

        def check(self) -> None:
            if self.low > self.high:
                raise Error("low", self.low, f"must be ≤ high ({self.high})")

    class Outer(StrictModel):
        entries: tuple[Entry, ...]
        single: Entry | None = None

    assert validate_data(Outer, {"entries": [{"low": 1, "high": 2}]}).entries[0].high == 2
    with pytest.raises(Error) as listed:
        validate_data(Outer, {"entries": [{"low": 1, "high": 2}, {"low": 5, "high": 3}]})
    assert listed.value.field == "entries[1].low" and listed.value.value == 5
    with pytest.raises(Error) as single:
        validate_data(Outer, {"entries": [], "single": {"low": 4, "high": 0}})
    assert single.value.field == "single.low"
