"""armies-clash scenario limits (issue 14; §4.6, §4.8, AC-PROC-DICE): what a person would write is accepted, beyond
that each is refused with one line naming the field, before any unbounded work."""

from __future__ import annotations

from typing import Any

import pytest
from armies_clash_engine_helpers import HOB, creature, scenario, unit

from kessen.core.errors import InputError
from kessen.rulesets.armies_clash import scenario as sc


def _refused(**data: Any) -> InputError:
    with pytest.raises(InputError) as info:
        scenario(**data)
    return info.value


def _stands(side_unit: str, count: int, row: int) -> list[tuple[str, str, str, tuple[int, int]]]:
    return [(f"{side_unit}{i}", side_unit, "hob", (i % 50, row + i // 50)) for i in range(count)]


def test_ac_terr_1_a_terrain_rectangle_is_checked_against_the_grid_before_it_is_laid_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """§4.6: a rectangle reaching past the grid is refused from its corners alone, square by square nothing is
    expanded (one edited line once cost 5 s and 2 GB); a corner beyond any grid is refused by the field's bound."""

    def never(self: Any) -> Any:
        raise AssertionError("terrain laid out before its bounds were checked")

    monkeypatch.setattr(sc.TerrainEntry, "squares", never)
    error = _refused(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")], width=16, height=10,
                     terrain=[{"rect": [0, 0, 99, 99], "rough": True}])
    assert (error.field, error.reason) == ("grid.terrain[0].rect", "square off the grid")
    error = _refused(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")],
                     terrain=[{"rect": [0, 0, 1_500_000_000, 15]}])
    assert error.field == "grid.terrain[0].rect[2]" and "< 100" in error.reason


def test_ac_terr_1_terrain_entries_cover_at_most_four_grids_of_squares() -> None:
    """§4.6, issue 14: terrain entries may cover at most 4 × 100 × 100 squares in all (the fifth full-grid rectangle
    is refused, naming it)."""
    whole = {"rect": [0, 0, 99, 99], "kind": "forest"}
    error = _refused(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")], width=100, height=100,
                     terrain=[whole] * 5)
    assert error.field == "grid.terrain[4]" and "at most 40000 squares" in error.reason
    assert scenario(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")], width=100, height=100, terrain=[whole] * 4)


def test_ac_unit_1_at_most_50_stands_26_units_and_10_solos_a_side() -> None:
    """§4.4, issue 14: 50 stands, 26 units and 10 solos a side are accepted; one more of any is refused."""
    fine = scenario(stands=_stands("u", 50, 0) + _stands("v", 50, 10), units=[unit("u"), unit("v", "b")], width=100, height=100)
    assert len(fine.stands) == 100
    error = _refused(stands=_stands("u", 51, 0), units=[unit("u")], width=100, height=100)
    assert (error.field, error.reason) == ("stands", "at most 50 stands a side (side a has more)")
    many = [unit(f"u{i}") for i in range(27)]
    error = _refused(stands=[(f"s{i}", f"u{i}", "hob", (i, 0)) for i in range(27)], units=many)
    assert error.field == "units" and "at most 26 units" in error.reason
    solos = [{"id": f"h{i}", "side": "b", "creature": "hob", "at": [i, 5]} for i in range(11)]
    error = _refused(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")], solos=solos)
    assert error.field == "solos" and "at most 10 solos" in error.reason


@pytest.mark.parametrize(("changes", "field", "bound"), [
    ({"speed_ft": 65}, "creatures[0].speed_ft", "≤ 60"),
    ({"swim_ft": 70}, "creatures[0].swim_ft", "≤ 60"),
    ({"spells": [{"id": "far", "range_ft": 305, "form": "targeted", "max_targets": 1, "resolution": "automatic"}]},
     "creatures[0].spells[0].range_ft", "from 0 to 300"),
    ({"spells": [{"id": "big", "range_ft": "self", "form": "area", "shape": "sphere", "size_ft": 105, "resolution": "automatic"}]},
     "creatures[0].spells[0].size_ft", "≤ 100"),
])
def test_ac_stand_3_speeds_and_spells_beyond_the_limits_are_refused(changes: dict[str, Any], field: str, bound: str) -> None:
    """AC-STAND-3, AC-AOE-1, issue 14: speeds above 60 ft, spell ranges above 300 ft and areas above 100 ft are
    refused (every square a move or a spell could reach is a choice of the battle)."""
    error = _refused(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")], creatures=[creature("hob", **changes)])
    assert error.field == field and bound in error.reason


def test_ac_proc_dice_a_long_dice_string_is_refused_before_it_is_read() -> None:
    """AC-PROC-DICE, issue 14: a damage string of 100,000 terms is refused for its length, in the scenario too."""
    attack = {"id": "swarm", "kind": "melee", "attack_bonus": 3, "damage": "+".join(["1"] * 100_000)}
    error = _refused(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")],
                     creatures=[creature("hob", attacks=[attack])])
    assert error.field == "creatures[0].attacks[0].damage" and error.reason.startswith("at most 120 characters")


def test_ac_grid_1_a_grid_of_100_squares_a_side_at_most() -> None:
    """§4.6, issue 14: the grid is at most 100 × 100 squares."""
    assert scenario(stands=[("s1", "u", "hob", (99, 99))], units=[unit("u")], width=100, height=100)
    error = _refused(stands=[("s1", "u", "hob", (0, 0))], units=[unit("u")], width=101)
    assert error.field == "grid.width" and "≤ 100" in error.reason
    assert HOB["speed_ft"] == 30
