"""Every shipped scenario file, mutated: loading it either succeeds or raises InputError naming the file — never
another exception — and a scenario that loads plays a first few steps without crashing."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.errors import InputError
from kessen.dice import draw, stream
from kessen.rulesets import get_ruleset, ruleset_ids

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCENARIOS = [(rid, p) for rid in ruleset_ids() for p in sorted((EXAMPLES / rid).glob("*.toml"))]

GARBAGE = st.one_of(
    st.none().map(lambda _: "x"), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(), st.text(max_size=5), st.lists(st.integers(-5, 5), max_size=3), st.just({}),
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            found += _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += _paths(v, prefix + (i,))
    return found


def _mutate(data: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    if not path:
        return data
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "drop" and isinstance(parent, dict):
        del parent[last]
    elif how == "drop" and isinstance(parent, list) and len(parent) > 1:
        del parent[last]
    elif how == "extra" and isinstance(parent, dict):
        parent["unexpected_field"] = value
    else:
        parent[last] = value
    return data


def _first_steps(rid: str, state: Any, steps: int = 60) -> None:
    game = get_ruleset(rid).game
    rng = stream(3)
    deciders = {side: RandomDecider(stream(9)) for side in game.sides(state)}
    state, _ = game.start(state)
    for _ in range(steps):
        node = game.node(state)
        if isinstance(node, Terminal):
            return
        choice = draw(node.dist, rng) if isinstance(node, Chance) else deciders[node.player].decide(state, node)
        assert isinstance(node, Chance | Decision)
        state, _ = game.apply(state, choice)


@pytest.mark.parametrize(("rid", "path"), SCENARIOS, ids=[f"{r}:{p.stem}" for r, p in SCENARIOS])
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_scenario_loads_or_names_the_file(rid: str, path: Path, data: st.DataObject) -> None:
    original = tomllib.loads(path.read_text(encoding="utf-8"))
    where = data.draw(st.sampled_from(_paths(original)))
    how = data.draw(st.sampled_from(["drop", "extra", "replace"]))
    value = data.draw(GARBAGE)
    mutated = _mutate(tomllib.loads(path.read_text(encoding="utf-8")), where, how, value)
    try:
        text = tomli_w.dumps(mutated)
    except (TypeError, ValueError):
        return  # not expressible as TOML: nothing a user could write
    game = get_ruleset(rid).game
    try:
        state = game.load_scenario(text, "mutated.toml")
    except InputError as error:
        assert str(error).startswith("mutated.toml"), str(error)
        assert "\n" not in str(error)
        return
    _first_steps(rid, state)
