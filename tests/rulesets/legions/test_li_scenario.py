"""Scenario files: what a legions scenario may hold, refused up front with the file, field and value named."""

from __future__ import annotations

from typing import Any

import pytest
from test_li_engine_support import det, m, scenario_text

from kessen.core.errors import InputError
from kessen.rulesets.legions.scenario import MAX_PROFILE_COMBINATIONS, load_scenario


def _weapon(name: str, profiles: int) -> dict[str, Any]:
    return {"name": name, "profiles": [{"range": 24, "dice": 1, "to_hit": 4, "ap": -k} for k in range(profiles)]}


def _refusal(red: list[dict[str, Any]], profiles: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as error:
        load_scenario(scenario_text(red, [det("B", m("inf", 10, 40))], profiles=profiles), "bad.toml")
    return error.value


def test_li_fire_3_a_detachment_with_more_profile_combinations_than_the_limit_is_refused() -> None:
    """LI-FIRE-3 (no silent cap): each weapon with several profiles fires with one of them, so a Detachment's firing
    options multiply; 16 combinations (two 2-profile weapons and one 4-profile) load, 32 are refused up front naming
    the limit, instead of the engine offering only the first 16 in play."""
    sixteen = {"heavy": {"type": "vehicle", "movement": 8, "armour_save": 3, "base_radius": 1.0,
                         "weapons": [_weapon("a", 2), _weapon("b", 2), _weapon("c", 4)]}}
    load_scenario(scenario_text([det("A", m("heavy", 10, 10))], [det("B", m("inf", 10, 40))], profiles=sixteen), "ok.toml")
    more = {"heavy": {**sixteen["heavy"], "weapons": [*sixteen["heavy"]["weapons"], _weapon("d", 2)]}}
    error = _refusal([det("A", m("heavy", 10, 10))], more)
    assert error.field == "bad.toml: formations[0].detachments[0].models" and error.value == 32
    assert f"at most {MAX_PROFILE_COMBINATIONS}" in error.reason


def test_li_fire_2_one_weapon_name_means_one_weapon_in_a_detachment() -> None:
    """LI-FIRE-2, LI-FIRE-3: the Detachment declares its weapons by name, so two models whose weapons share a name
    but not their profiles are refused (the engine would otherwise fire one with the other's profile)."""
    profiles = {"one": {"type": "infantry", "movement": 5, "armour_save": 5, "weapons": [_weapon("gun", 1)]},
                "two": {"type": "infantry", "movement": 5, "armour_save": 5, "weapons": [_weapon("gun", 2)]}}
    error = _refusal([det("A", m("one", 10, 10), m("two", 12, 10))], profiles)
    assert error.field == "bad.toml: formations[0].detachments[0].models[1].profile" and error.value == "two"
