"""Fuzzing every procedure of every registered ruleset with mutated inputs.

For each procedure, valid inputs come from the public cases (tests/data/<ruleset>.examples.json,
cases without "error"); hypothesis mutates them (drop a key, add an unknown key, replace a value with
a wrong-typed or extreme one, nest garbage in lists, grow or empty lists). Whatever the mutation,
``kessen.odds`` must either answer with a distribution that sums to exactly 1 or raise
``kessen.InputError``; any other exception is a bug. Rulesets registered later are covered
automatically.

The examples are derandomized (the same ones every run, so the suite is stable); set
KESSEN_FUZZ_RANDOM=1 to explore fresh ones.
"""

from __future__ import annotations

import copy
import json
import math
import os
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kessen
from kessen import InputError, get_ruleset, ruleset_ids

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/, for the shared strategies
from strategies import garbage_values  # noqa: E402

DATA = Path(__file__).parent / "data"

FUZZ = settings(
    max_examples=60,
    deadline=None,
    database=None,
    derandomize=not os.environ.get("KESSEN_FUZZ_RANDOM"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _procedures() -> list[Any]:
    params = []
    for rid in ruleset_ids():
        path = DATA / f"{rid}.examples.json"
        cases = json.loads(path.read_text()) if path.exists() else []
        for name in get_ruleset(rid).procedures:
            valid = [c["input"] for c in cases if c["procedure"] == name and not c.get("error")]
            params.append(pytest.param(rid, name, valid or [{}], id=f"{rid}:{name}"))
    return params


def _containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every dict and list inside *value* (the root included)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        found.append(path)
        for key, inner in value.items():
            found += _containers(inner, (*path, key))
    elif isinstance(value, list):
        found.append(path)
        for i, inner in enumerate(value):
            found += _containers(inner, (*path, i))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _extreme(data: st.DataObject, old: Any) -> Any:
    """A value of the wrong type or at or beyond the edge of a range, chosen for what *old* was."""
    if isinstance(old, bool):
        return data.draw(st.sampled_from([0, 1, "true", None, [old]]))
    if isinstance(old, int):
        return data.draw(
            st.sampled_from([old + 1, old - 1, -old, old * 1000, 0, -1, 2**63, float(old), str(old), True, None, [old]])
        )
    if isinstance(old, str):
        return data.draw(st.sampled_from([old.upper(), old + " ", "", 3, None, True, [old], {old: old}]))
    return data.draw(garbage_values)


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """Follow $ref, and prefer the non-null branch of a nullable anyOf."""
    while "$ref" in schema:
        target: Any = root
        for part in schema["$ref"][2:].split("/"):
            target = target[part]
        schema = target
    if "anyOf" in schema:
        branches = [b for b in schema["anyOf"] if b.get("type") != "null"]
        if branches:
            return _resolve(branches[0], root)
    return schema


def _schema_at(root: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any] | None:
    """The JSON Schema of the node at *path* of an input, or None where the input left the schema."""
    schema: dict[str, Any] | None = _resolve(root, root)
    for part in path:
        if schema is None:
            return None
        if isinstance(part, int):
            items = schema.get("items")
            schema = _resolve(items, root) if isinstance(items, dict) else None
        else:
            prop = schema.get("properties", {}).get(part)
            schema = _resolve(prop, root) if prop is not None else None
    return schema


def _edge_value(data: st.DataObject, schema: dict[str, Any], root: dict[str, Any], old: Any) -> Any:
    """A value the schema allows, favouring its limits, or just beyond them."""
    schema = _resolve(schema, root)
    nullable = any(b.get("type") == "null" for b in schema.get("anyOf", ()))
    if "enum" in schema:
        return data.draw(st.sampled_from(schema["enum"]))
    kind = schema.get("type")
    if kind == "boolean":
        return data.draw(st.booleans())
    if kind == "integer":
        low, high = schema.get("minimum", -5), schema.get("maximum", 50)
        edges = sorted({low, high, low + 1, high - 1, low - 1, high + 1} | ({None} if nullable else set()), key=str)
        return data.draw(st.sampled_from(edges) | st.integers(low, high))
    if kind == "array":
        items = schema.get("items")
        if isinstance(old, list) and old:
            size = data.draw(st.sampled_from(sorted({schema.get("minItems", 0), schema.get("maxItems", 8), 1, 2})))
            return [copy.deepcopy(old[i % len(old)]) for i in range(size)]
        if isinstance(items, dict) and "enum" in _resolve(items, root):
            return data.draw(st.lists(st.sampled_from(_resolve(items, root)["enum"]), max_size=4))
        return old
    if kind == "string":
        return data.draw(st.text(max_size=8))
    return old


def mutate(data: st.DataObject, value: Any, root: dict[str, Any], *, valid_leaning: bool = False) -> Any:
    """One mutation of a JSON value, somewhere inside it (*root*: the input's JSON Schema).

    *valid_leaning*: where the schema is known, only set fields to values at its limits.
    """
    paths = _containers(value)
    if not paths:
        return data.draw(garbage_values)
    path = data.draw(st.sampled_from(paths), label="where")
    node = _at(value, path)
    schema = _schema_at(root, path)
    if isinstance(node, dict):
        keys = sorted(node)
        ops = ["add_key", "garbage_root"] + (["drop_key", "replace", "extreme", "wrap"] if keys else [])
        if schema is not None and schema.get("properties"):
            ops = ["edge"] if valid_leaning else ops + ["edge"] * 6
        op = data.draw(st.sampled_from(ops), label="dict op")
        if op == "edge":
            assert schema is not None
            key = data.draw(st.sampled_from(sorted(schema["properties"])), label="key")
            node[key] = _edge_value(data, schema["properties"][key], root, node.get(key))
        elif op == "add_key":
            name = data.draw(st.sampled_from(["bogus", "Combat", "", "a\nb", "enemies_", "__class__"]) | st.text(max_size=6))
            node[name] = data.draw(garbage_values)
        elif op == "garbage_root":
            return data.draw(garbage_values)
        else:
            key = data.draw(st.sampled_from(keys), label="key")
            if op == "drop_key":
                del node[key]
            elif op == "replace":
                node[key] = data.draw(garbage_values)
            elif op == "extreme":
                node[key] = _extreme(data, node[key])
            else:
                node[key] = [node[key]]
    else:
        ops = ["append_garbage", "empty", "grow"] + (["replace", "nest", "extreme"] if node else [])
        op = data.draw(st.sampled_from(ops), label="list op")
        if op == "append_garbage":
            node.append(data.draw(garbage_values))
        elif op == "empty":
            node.clear()
        elif op == "grow":
            node.extend(copy.deepcopy(node[:1]) * data.draw(st.integers(1, 40)) if node else [data.draw(garbage_values)])
        else:
            i = data.draw(st.integers(0, len(node) - 1), label="index")
            if op == "replace":
                node[i] = data.draw(garbage_values)
            elif op == "nest":
                node[i] = [node[i], data.draw(garbage_values)]
            else:
                node[i] = _extreme(data, node[i])
    return value


def assert_answer_or_input_error(ruleset: str, procedure: str, value: Any) -> None:
    try:
        result = kessen.odds(ruleset, procedure, value)
    except InputError as error:
        assert str(error) and error.field, error
        return
    probabilities = [p for _, p in result.outcomes]
    assert all(isinstance(p, Fraction) and p > 0 for p in probabilities)
    assert sum(probabilities) == 1
    keys = [json.dumps(o, sort_keys=True) for o, _ in result.outcomes]
    assert len(set(keys)) == len(keys), "outcomes must be distinct"
    doc = json.loads(result.to_json())  # the contract must be JSON-serialisable
    for row in doc["outcomes"]:
        num, den = (int(x) for x in row["probability"].split("/"))
        assert math.gcd(num, den) == 1


@pytest.mark.parametrize(("ruleset", "procedure", "valid"), _procedures())
@FUZZ
@given(data=st.data())
def test_mutated_inputs_answer_or_raise_input_error(ruleset: str, procedure: str, valid: list[Any], data: st.DataObject) -> None:
    root = get_ruleset(ruleset).procedure(procedure).input_model.model_json_schema()
    value = copy.deepcopy(data.draw(st.sampled_from(valid), label="valid input"))
    valid_leaning = data.draw(st.booleans(), label="valid-leaning")
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        value = mutate(data, value, root, valid_leaning=valid_leaning)
    assert_answer_or_input_error(ruleset, procedure, value)
    try:
        text = json.dumps(value)
    except ValueError:  # an integer too long for str(); the dict path covered it
        return
    assert_answer_or_input_error(ruleset, procedure, text)


@pytest.mark.parametrize(("ruleset", "procedure", "valid"), _procedures())
def test_the_unmutated_valid_inputs_answer(ruleset: str, procedure: str, valid: list[Any]) -> None:
    """The seeds of the fuzzing are themselves answered (so the fuzz starts from valid inputs)."""
    if valid == [{}]:
        pytest.skip(f"{ruleset} {procedure} has no public valid case to mutate")
    for value in valid:
        result = kessen.odds(ruleset, procedure, value)
        assert sum(p for _, p in result.outcomes) == 1
