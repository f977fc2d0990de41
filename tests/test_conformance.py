"""The public odds cases of every shipped ruleset (copied from shared/rules), through the Python API."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import kessen
from kessen.core.errors import InputError
from kessen.rulesets import ruleset_ids

DATA = Path(__file__).parent / "data"


def _cases() -> list[Any]:
    cases = []
    for rid in ruleset_ids():
        for case in json.loads((DATA / f"{rid}.examples.json").read_text()):
            cases.append(pytest.param(rid, case, id=f"{rid}:{case['id']}"))
    return cases


def _matches(outcome: dict[str, Any], where: dict[str, Any]) -> bool:
    for key, want in where.items():
        if key not in outcome:
            return False
        value = outcome[key]
        if isinstance(want, dict):
            if "ge" in want and not value >= want["ge"]:
                return False
            if "le" in want and not value <= want["le"]:
                return False
            if "in" in want and value not in want["in"]:
                return False
        elif value != want:
            return False
    return True


@pytest.mark.parametrize(("ruleset", "case"), _cases())
def test_public_odds_case(ruleset: str, case: dict[str, Any]) -> None:
    """Each public case: the exact fractions it expects, or an InputError for bad input."""
    if case.get("error"):
        with pytest.raises(InputError):
            kessen.odds(ruleset, case["procedure"], case["input"])
        return
    result = kessen.odds(ruleset, case["procedure"], case["input"])
    assert sum(p for _, p in result.outcomes) == 1
    for expected in case["expect"]:
        got = sum((p for o, p in result.outcomes if _matches(o, expected["where"])), Fraction(0))
        assert got == Fraction(expected["probability"]), expected["where"]
