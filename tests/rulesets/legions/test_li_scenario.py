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


def _limits_text(red: dict[str, Any], **extra: Any) -> str:
    import tomli_w

    from test_li_engine_support import PROFILES

    data = {"name": "limits", "battlefield": {"width": 200, "height": 200}, "profiles": {"inf": PROFILES["inf"]},
            "players": [{"name": "red", "edge": "south"}, {"name": "blue", "edge": "north"}],
            "formations": [red, {"id": "blue-f", "player": "blue", "detachments": [{"id": "B", "models": [{"profile": "inf", "x": 100.0, "y": 190.0}]}]}],
            **extra}
    return tomli_w.dumps(data)


def test_scenario_limits_a_player_has_at_most_200_models() -> None:
    """Issue 14: a player's army is at most 200 models; 200 load, 201 are refused up front naming the limit."""
    ok = {"id": "red-f", "player": "red", "detachments": [
        {"id": f"R{k}", "models": [{"profile": "inf", "x": 1.0 + n * 1.1, "y": 5.0 + 2 * k, "id": f"r{k}.{n}"} for n in range(20)]} for k in range(10)
    ]}
    load_scenario(_limits_text(ok), "ok.toml")
    ok["detachments"][9]["models"].append({"profile": "inf", "x": 150.0, "y": 100.0, "id": "one-more"})  # type: ignore[index]
    with pytest.raises(InputError) as error:
        load_scenario(_limits_text(ok), "big.toml")
    assert (error.value.field, error.value.value) == ("big.toml: formations", 201) and "at most 200 models" in error.value.reason


def test_scenario_limits_a_player_has_at_most_26_detachments() -> None:
    """Issue 14: at most 26 Detachments a player (each has a letter on the board's map); 27 are refused."""
    many = {"id": "red-f", "player": "red", "detachments": [{"id": f"R{k}", "models": [{"profile": "inf", "x": 2.0 + 3 * k, "y": 5.0}]} for k in range(20)]}
    more = {"id": "red-g", "player": "red", "detachments": [{"id": f"S{k}", "models": [{"profile": "inf", "x": 2.0 + 3 * k, "y": 9.0}]} for k in range(7)]}
    text = _limits_text(many).replace("[[formations]]", "[[formations]]", 1)
    import tomllib

    data = tomllib.loads(text)
    data["formations"].insert(1, more)
    import tomli_w

    with pytest.raises(InputError) as error:
        load_scenario(tomli_w.dumps(data), "many.toml")
    assert (error.value.field, error.value.value) == ("many.toml: formations", 27) and "at most 26 Detachments" in error.value.reason


def test_scenario_limits_the_largest_file_is_refused_before_any_placement() -> None:
    """Issue 14: the largest file the format can describe (20 Formations of 20 Detachments of 30 models, 12,000
    models) is refused by the army limits, before any model is placed or compared with another."""
    huge = [{"id": f"F{f}", "player": "red" if f < 10 else "blue", "detachments": [
        {"id": f"D{f}.{d}", "models": [{"profile": "inf", "x": 1.0, "y": 1.0, "count": 30}]} for d in range(20)]} for f in range(20)]
    import tomli_w

    text = tomli_w.dumps({"name": "huge", "profiles": {"inf": {"type": "infantry", "movement": 5, "armour_save": 5}},
                          "players": [{"name": "red", "edge": "south"}, {"name": "blue", "edge": "north"}], "formations": huge})
    with pytest.raises(InputError) as error:
        load_scenario(text, "huge.toml")
    assert error.value.field == "huge.toml: formations" and error.value.value == 200


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["profiles"].update({f"p{k}": d["profiles"]["inf"] for k in range(50)}), "profiles"),
        (lambda d: d.update(no_line_of_sight=[["r0.0", "B-1"]] * 2001), "no_line_of_sight"),
        (lambda d: d["formations"][0]["detachments"][0]["models"][0].update(x=float("nan")), "formations[0].detachments[0].models[0].x"),
        (lambda d: d["formations"][0]["detachments"][0]["models"][0].update(facing=float("inf")), "formations[0].detachments[0].models[0].facing"),
        (lambda d: d["formations"][0]["detachments"][0]["models"][0].update(dx=1e300), "formations[0].detachments[0].models[0].dx"),
    ],
)
def test_scenario_limits_other_fields(change: Any, field: str) -> None:
    """Issue 14: at most 50 profiles and 2,000 blocked lines of sight; coordinates, steps and facings are finite
    numbers of sane size (NaN, infinity and 1e300 are refused, naming the field)."""
    import tomli_w
    import tomllib

    red = {"id": "red-f", "player": "red", "detachments": [{"id": "R", "models": [{"profile": "inf", "x": 5.0, "y": 5.0, "id": "r0.0"}]}]}
    data = tomllib.loads(_limits_text(red))
    change(data)
    with pytest.raises(InputError) as error:
        load_scenario(tomli_w.dumps(data), "bad.toml")
    assert error.value.field == f"bad.toml: {field}"


def test_li_save_5_a_scenario_writes_no_armour_save_as_a_dash() -> None:
    """LI-SAVE-5, LI-SAVE-9: a profile's Armour Save (and Morale) of "-" is written as the string "-" (TOML has no
    null): such a model has no save, so every hit with no Cover or Special Save destroys it."""
    from test_li_engine_support import state_of

    cultists = {"cultist": {"type": "infantry", "movement": 5, "armour_save": "-", "morale": "-", "weapons": []}}
    state = state_of([det("A", m("gun", 10, 10))], [det("C", m("cultist", 10, 20, id="c1"))], profiles=cultists)
    model = state.model("c1")
    assert model.armour_save is None and model.morale is None
    with pytest.raises(InputError) as error:
        load_scenario(scenario_text([det("A", m("gun", 10, 10))], [det("C", m("bad", 10, 20))],
                                    profiles={"bad": {**cultists["cultist"], "armour_save": "none"}}), "bad.toml")
    assert error.value.field == "bad.toml: profiles.bad.armour_save"


def test_a_battle_at_the_scenario_limits_plays_to_the_end() -> None:
    """Issue 14: 200 models a side in 26 Detachments, 10 rounds, AI against AI, plays to its end (a few seconds of one
    core: see ``python -m benchmarks.legions``)."""
    from benchmarks.legions import open_battle_at_the_limits

    from kessen.core.replay import play
    from kessen.rulesets import get_ruleset

    game = get_ruleset("legions").game
    state = game.load_scenario(open_battle_at_the_limits(), "limits.toml")
    assert all(sum(len(d.models) for d in state.detachments_of(p)) == 200 for p in game.sides(state))
    played = play(game, state, {side: game.ai(side) for side in game.sides(state)}, 1)
    assert played.terminal is not None and played.terminal.summary["rounds"] >= 1


def _undescribed(schema: dict[str, Any]) -> list[str]:
    """Every property of every object in a JSON Schema (its definitions included) that has no description."""
    missing: list[str] = []
    for name, part in [("input", schema), *schema.get("$defs", {}).items()]:
        for key, prop in part.get("properties", {}).items():
            if not prop.get("description"):
                missing.append(f"{name}.{key}")
    return missing


def test_every_field_of_the_scenario_and_odds_inputs_explains_itself() -> None:
    """Issue 8 §4: every field of the scenario file's schema and of every odds input's schema has a description,
    so ``--schema`` and any form built from it explain themselves."""
    from kessen.rulesets import get_ruleset
    from kessen.rulesets.legions.scenario import Scenario

    schemas = {"scenario": Scenario.model_json_schema()}
    schemas |= {name: p.input_model.model_json_schema() for name, p in get_ruleset("legions").procedures.items()}
    assert {name: _undescribed(schema) for name, schema in schemas.items() if _undescribed(schema)} == {}
    assert len(schemas["scenario"]["$defs"]) >= 8  # the nested models are walked too


def test_the_scenario_format_doc_example_loads_and_states_the_limits_of_the_code() -> None:
    """docs/scenarios/legions.md: its example is a valid scenario, and the limits it states are the ones enforced."""
    from pathlib import Path

    from kessen.rulesets.legions import scenario as sc

    doc = (Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "legions.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    state = load_scenario(example, "docs/scenarios/legions.md")
    assert state.formations[0].detachments[0].models[0].cover_save == 5
    for stated in (f"at most {sc.MAX_PLAYER_MODELS}", f"at most {sc.MAX_PLAYER_DETACHMENTS}", f"at most {sc.MAX_DETACHMENT_MODELS}",
                   f"at most {sc.MAX_PROFILES}", f"at most {sc.MAX_PROFILE_COMBINATIONS}", f"at most {sc.MAX_BLOCKED_SIGHT:,}"):
        assert stated in doc, stated
