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


# --- the odds cache: bounded by memory (issue 14) -------------------------------------------------------------


def test_bounded_cache_drops_the_least_recently_used_past_its_budget() -> None:
    """A cache bounded by the cost of what it holds: the least recently used value goes first, a value dearer
    than the whole budget is answered but not kept, the total cost never exceeds the budget."""
    from kessen.dice.cache import BoundedCache

    cache: BoundedCache[str, str] = BoundedCache(budget=10, cost=lambda key, value: len(value))
    assert cache.get("a", lambda: "aaaa") == "aaaa" and cache.get("b", lambda: "bbbb") == "bbbb"
    assert cache.get("a", lambda: "recomputed") == "aaaa"  # a hit: "a" is now the most recent
    cache.get("c", lambda: "cccc")
    assert cache.keys() == ["a", "c"] and cache.cost == 8
    assert cache.get("huge", lambda: "x" * 11) == "x" * 11 and "huge" not in cache.keys()
    cache.clear()
    assert (len(cache), cache.cost) == (0, 0)


def test_bounded_cache_is_safe_to_share_between_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from kessen.dice.cache import BoundedCache

    cache: BoundedCache[int, str] = BoundedCache(budget=50, cost=lambda key, value: len(value))
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda i: cache.get(i % 40, lambda: str(i % 40) * 2), range(4000)))
    assert got == [str(i % 40) * 2 for i in range(4000)]
    assert cache.cost <= 50 and cache.cost == sum(len(str(k)) * 2 for k in cache.keys())


def test_dist_bytes_grows_with_the_outcomes() -> None:
    from kessen.dice import d
    from kessen.dice.cache import dist_bytes

    assert dist_bytes(d(6)) < dist_bytes(d(6) + d(6)) < dist_bytes(d(6) + d(6) + d(6) + d(6))


def test_the_odds_cache_is_bounded_by_memory_not_by_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: the API's result cache keeps at most its budget of bytes, however many distinct questions it is
    asked; a repeated question is still answered from it."""
    from kessen import rulesets
    from kessen.dice.cache import BoundedCache, deep_bytes, dist_bytes

    small: Any = BoundedCache(budget=40_000, cost=lambda key, dist: deep_bytes(key[1]) + dist_bytes(dist))
    monkeypatch.setattr(rulesets, "_odds_cache", small)
    for attacker in range(13):
        for defender in range(13):
            odds(SB, "melee", {"attacker_combat": attacker, "defender_combat": defender})
            assert small.cost <= 40_000
    assert 0 < len(small) < 13 * 13
    assert odds(SB, "melee", MELEE).dist is odds(SB, "melee", dict(MELEE)).dist
    assert rulesets.ODDS_CACHE_BYTES == 128 * 2**20
