"""Scenario files for whole games (§3.4): what loads, and every rejection naming the file, the field and the value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomli_w
from sb_engine_support import model, scenario_text

from kessen.core.errors import InputError
from kessen.rulesets.song_of_blades.referee.game import GAME
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.scenario import load_scenario

SOURCE = "scenarios/bridge.toml"


def load(red: list[dict[str, Any]] | None = None, blue: list[dict[str, Any]] | None = None, **extra: Any) -> SobState:
    text = scenario_text(red if red is not None else [model("A", 100, 100)], blue if blue is not None else [model("B", 300, 100)], **extra)
    return GAME.load_scenario(text, SOURCE)


def refused(field: str, value: str, **kwargs: Any) -> InputError:
    """Loading fails with an InputError whose one line names the file, the field and the value."""
    with pytest.raises(InputError) as caught:
        load(**kwargs)
    message = str(caught.value)
    assert message.startswith(f"{SOURCE}: {field}: "), message
    assert f"(got {value})" in message, message
    assert "\n" not in message
    return caught.value


def test_sb_scenario_defaults_and_derived_profile() -> None:
    """§3.1, §3.3, §3.4: defaults are filled: 12 turns, options off, 28 mm scale, 900 mm table; base by size (big 40),
    move Long if mounted else Medium; the points of each side are totalled for SB-TURN-4."""
    state = load(red=[model("A", 100, 100, size="big"), model("H", 200, 100, mounted=True, points=45)])
    assert state.skirmish.turns == 12 and state.skirmish.options == (False, False)
    assert (state.table.width, state.table.depth, state.table.scale) == (900, 900, "28mm")
    assert state.get("A").base_mm == 40 and state.get("A").move == "medium"
    assert state.get("H").base_mm == 25 and state.get("H").move == "long"
    assert state.skirmish.start_points == (75, 30)
    assert state.skirmish.sides == ("Red", "Blue")


def test_sb_scenario_integers_accepted_as_coordinates() -> None:
    """§3.4: coordinates are numbers: TOML integers are accepted as well as floats."""
    text = scenario_text([model("A", 100, 100) | {"x": 100}], [model("B", 300, 100)], impassable=[[400, 400, 500, 500]])
    state = GAME.load_scenario(text, SOURCE)
    assert state.get("A").x == 100 and state.table.impassable[0].x1 == 500


def test_sb_scenario_unknown_key() -> None:
    """§3.4: unknown keys are refused, at the top, in options and in a model."""
    refused("sea_level", "1", sea_level=1)
    refused("options.folow_up", "True", options={"folow_up": True})
    refused("sides[0].models[0].speed", "'fast'", red=[model("A", 100, 100, speed="fast")])


def test_sb_scenario_wrong_type() -> None:
    """§3.4: values of the wrong type are refused: a string for an integer, an integer for a bool, a string for a
    coordinate."""
    refused("sides[0].models[0].quality", "'4'", red=[model("A", 100, 100, quality="4")])
    refused("sides[0].models[0].mounted", "1", red=[model("A", 100, 100, mounted=1)])
    refused("sides[1].models[0].x", "'300'", blue=[model("B", 300, 100) | {"x": "300"}])
    refused("turns", "'12'", turns="12")


def test_sb_scenario_out_of_range() -> None:
    """§3.1, §3.3, §3.4: values out of range are refused."""
    refused("turns", "31", turns=31)
    refused("sides[0].models[0].combat", "13", red=[model("A", 100, 100, combat=13)])
    refused("options.table_width_mm", "200", options={"table_width_mm": 200})
    refused("drop_areas[0].drop_mm", "0", drop_areas=[{"rect": [400.0, 400.0, 500.0, 500.0], "drop_mm": 0}])
    refused("sides[0].models[0].special_rules[0]", "'stealth'", red=[model("A", 100, 100, special_rules=["stealth"])])


def test_sb_scenario_duplicate_ids_and_rules() -> None:
    """§3.1, §3.4: duplicate model ids (across the sides too) and duplicate special rules are refused."""
    refused("sides[1].models[0].id", "'A'", blue=[model("A", 300, 100)])
    refused("sides[0].models[1].id", "'A'", red=[model("A", 100, 100), model("A", 200, 100)])
    refused("sides[0].models[0].special_rules", "'assassin'", red=[model("A", 100, 100, special_rules=["assassin", "assassin"])])


def test_sb_scenario_side_names_and_counts() -> None:
    """§3.4: exactly two sides with different names, each with at least one model."""
    text = tomli_w.dumps({"name": "t", "sides": [{"side": "Red", "models": [model("A", 100, 100)]}, {"side": "Red", "models": [model("B", 300, 100)]}]})
    with pytest.raises(InputError, match=r"^scenarios/bridge\.toml: sides\[1\]\.side: duplicate side name \(got 'Red'\)$"):
        GAME.load_scenario(text, SOURCE)
    refused("sides[1].models", "[]", blue=[])
    one = tomli_w.dumps({"name": "t", "sides": [{"side": "Red", "models": [model("A", 100, 100)]}]})
    with pytest.raises(InputError, match=r"^scenarios/bridge\.toml: sides\[1\]: required field is missing"):
        GAME.load_scenario(one, SOURCE)


def test_sb_scenario_sb_geo_1_base_off_the_table() -> None:
    """§3.4, SB-GEO-1: a base whose centre is less than r − ε from an edge is refused (11.5 mm is the limit for 25 mm)."""
    load(red=[model("A", 11.5, 100)])
    refused("sides[0].models[0].x", "11.4", red=[model("A", 11.4, 100)])
    refused("sides[1].models[0].y", "889.0", blue=[model("B", 300, 889)])
    refused("sides[1].models[0].x", "nan", blue=[model("B", 300, 100) | {"x": float("nan")}])


def test_sb_scenario_sb_geo_3_overlapping_bases() -> None:
    """§3.4, SB-GEO-3: bases overlapping by more than ε are refused (24 mm apart is allowed, 23.9 mm is not)."""
    load(blue=[model("B", 124, 100)])
    error = refused("sides[1].models[0].x", "[123.9, 100.0]", blue=[model("B", 123.9, 100)])
    assert "overlaps model 'A'" in error.reason


def test_sb_scenario_sb_geo_4_base_in_impassable_terrain() -> None:
    """§3.4, SB-GEO-4: a base within r − ε of an impassable rectangle is refused."""
    load(impassable=[[0.0, 0.0, 900.0, 88.5]])
    error = refused("sides[0].models[0].x", "[100.0, 100.0]", impassable=[[0.0, 0.0, 900.0, 88.6]])
    assert "impassable[0]" in error.reason


def test_sb_scenario_sb_geo_4_centre_in_a_drop_area() -> None:
    """§3.4, SB-GEO-4: a model whose centre lies in a (closed) drop area is refused; a base overhanging one is not."""
    load(drop_areas=[{"rect": [0.0, 0.0, 900.0, 99.99], "drop_mm": 50}])
    error = refused("sides[0].models[0].x", "[100.0, 100.0]", drop_areas=[{"rect": [0.0, 0.0, 900.0, 100.0], "drop_mm": 50}])
    assert "drop_areas[0]" in error.reason


@pytest.mark.parametrize(
    ("key", "rect", "shown"),
    [
        ("impassable", [10.0, 0.0, 0.0, 10.0], "[10.0, 0.0, 0.0, 10.0]"),  # x0 > x1
        ("cover", [0.0, 10.0, 10.0, 10.0], "[0.0, 10.0, 10.0, 10.0]"),  # y0 = y1
        ("cover", [800.0, 0.0, 901.0, 10.0], "[800.0, 0.0, 901.0, 10.0]"),  # off the table
        ("impassable", [-1.0, 0.0, 10.0, 10.0], "[-1.0, 0.0, 10.0, 10.0]"),
        ("impassable", [0.0, 0.0, 10.0], "[0.0, 0.0, 10.0]"),  # three numbers
        ("cover", [0.0, 0.0, 10.0, 10.0, 5.0], "[0.0, 0.0, 10.0, 10.0, 5.0]"),
    ],
)
def test_sb_scenario_bad_rectangle(key: str, rect: list[float], shown: str) -> None:
    """§3.4: a rectangle is [x0, y0, x1, y1] with x0 < x1, y0 < y1, inside the table; anything else is refused."""
    refused(f"{key}[0]", shown, **{key: [rect]})


def test_sb_scenario_bad_rectangle_in_drop_and_high_ground() -> None:
    """§3.4: the rectangles of drop areas and high ground are checked the same way."""
    refused("drop_areas[0]", "[500.0, 0.0, 400.0, 10.0]", drop_areas=[{"rect": [500.0, 0.0, 400.0, 10.0], "drop_mm": 50}])
    refused("high_ground[0]", "[0.0, 0.0, 10.0, 1000.0]", high_ground=[{"rect": [0.0, 0.0, 10.0, 1000.0], "height_mm": 5}])
    refused("high_ground[0].rect[1]", "'a'", high_ground=[{"rect": [0.0, "a", 10.0, 10.0], "height_mm": 5}])


def test_sb_scenario_not_toml() -> None:
    """§3.4: text that is not TOML is refused naming the file."""
    with pytest.raises(InputError, match=r"^scenarios/bridge\.toml: not valid TOML"):
        load_scenario("name = ", SOURCE)


def test_sb_scenario_examples_load() -> None:
    """The example scenarios shipped with kessen load."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[3] / "examples" / "song-of-blades"
    for path in sorted(folder.glob("*.toml")):
        state = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
        assert len(state.skirmish.sides) == 2 and state.figures


AT_THE_LIMITS = Path(__file__).resolve().parent / "data" / "at-the-limits.toml"


def limit_refused(field: str, reason: str, **kwargs: Any) -> None:
    with pytest.raises(InputError) as caught:
        load(**kwargs)
    message = str(caught.value)
    assert message.startswith(f"{SOURCE}: {field}: {reason}"), message
    assert "\n" not in message


@pytest.mark.parametrize("key", ["impassable", "cover", "obstacles"])
def test_sb_scenario_limits_refused_beyond(key: str) -> None:
    """§3.4, issue 14: at most 50 models a side and 25 pieces of each kind of terrain; one more is refused in one
    line naming the field and the limit; an obstacle must lie on the table (both ends)."""
    fifty = [model(f"A{i}", 20 + 30 * (i % 25), 20 + 30 * (i // 25)) for i in range(50)]
    load(red=fifty, **{key: [[1.0, 1.0, 2.0, 2.0]] * 25})
    limit_refused("sides[0].models", "must have at most 50 entries", red=fifty + [model("A50", 800, 200)])
    limit_refused(key, "must have at most 25 entries", **{key: [[1.0, 1.0, 2.0, 2.0]] * 26})
    limit_refused("drop_areas", "must have at most 25 entries", drop_areas=[{"rect": [1.0, 1.0, 2.0, 2.0], "drop_mm": 5}] * 26)
    limit_refused("high_ground", "must have at most 25 entries", high_ground=[{"rect": [1.0, 1.0, 2.0, 2.0], "height_mm": 5}] * 26)
    limit_refused("obstacles[0]", "must be [x0, y0, x1, y1] with both ends on the table", obstacles=[[0.0, 0.0, 950.0, 10.0]])
    limit_refused("obstacles[0]", "must be [x0, y0, x1, y1] with both ends on the table", obstacles=[[0.0, -5.0, 9.0, 10.0]])


def test_sb_scenario_at_the_limits_plays_to_the_end() -> None:
    """§3.4, issue 14: a table at every limit at once (50 models a side, 3000 mm, 30 rounds, 25 pieces of each
    terrain kind, both optional rules) loads and its AI battle plays to the end (the seconds it takes are measured
    in benchmarks/song_of_blades.py, not asserted)."""
    from kessen.core.engine import Terminal
    from kessen.core.replay import play

    game = GAME
    state = game.load_scenario(AT_THE_LIMITS.read_text(encoding="utf-8"), str(AT_THE_LIMITS))
    assert [len(state.side_figures(side)) for side in state.skirmish.sides] == [50, 50]
    assert (state.table.width, state.table.depth, state.skirmish.turns) == (3000, 3000, 30)
    assert len(state.table.impassable) == len(state.table.drops) == len(state.table.cover) == 25
    played = play(game, state, {side: game.ai(side) for side in game.sides(state)}, 1)
    assert isinstance(played.terminal, Terminal) and played.terminal.summary["rounds"] == 30
