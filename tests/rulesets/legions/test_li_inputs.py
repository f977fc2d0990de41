"""Validation and the normalised input of the legions procedures (§5.0, §3.8, §5.1–5.9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import kessen
from kessen.core.errors import InputError

KESSEN = str(Path(sys.executable).with_name("kessen"))
FIRE = {"firing_models": 2, "to_hit": 4, "target_models": [{"armour_save": 4}]}


def rejects(procedure: str, data: dict[str, Any] | str) -> InputError:
    with pytest.raises(InputError) as caught:
        kessen.odds("legions", procedure, data)
    return caught.value


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"to_hit": "4"}, "to_hit"),
        ({"to_hit": "4+"}, "to_hit"),
        ({"to_hit": 4.0}, "to_hit"),
        ({"to_hit": True}, "to_hit"),
        ({"to_hit": 1}, "to_hit"),
        ({"to_hit": 7}, "to_hit"),
        ({"firing_models": 0}, "firing_models"),
        ({"firing_models": 31}, "firing_models"),
        ({"dice": 11}, "dice"),
        ({"firing_models": 7, "dice": 9}, "dice"),
        ({"hit_modifier": 7}, "hit_modifier"),
        ({"ap": 1}, "ap"),
        ({"ap": -7}, "ap"),
        ({"light_at": 1}, "light_at"),
        ({"armour_save_modifier": 4}, "armour_save_modifier"),
        ({"target_scale": 0}, "target_scale"),
        ({"target_scale": None}, "target_scale"),
        ({"target_engaged_with_scales": [6]}, "target_engaged_with_scales[0]"),
        ({"target_engaged_with_scales": [1] * 11}, "target_engaged_with_scales"),
        ({"obscuration_penalty": 3}, "obscuration_penalty"),
        ({"obscuration_penalty": None}, "obscuration_penalty"),
        ({"obscuration_penalty": 1}, "obscuration_penalty"),
        ({"bogus": 1}, "bogus"),
        ({"target_models": []}, "target_models"),
        ({"target_models": [{}]}, "target_models[0].armour_save"),
        ({"target_models": [{"armour_save": 1}]}, "target_models[0].armour_save"),
        ({"target_models": [{"armour_save": 7}]}, "target_models[0].armour_save"),
        ({"target_models": [{"armour_save": 4, "special_save": 1}]}, "target_models[0].special_save"),
        ({"target_models": [{"armour_save": 4, "cover_save": "4+"}]}, "target_models[0].cover_save"),
        ({"target_models": [{"armour_save": 4, "type": "tank"}]}, "target_models[0].type"),
        ({"target_models": [{"armour_save": 4, "count": 0}]}, "target_models[0].count"),
        ({"target_models": [{"armour_save": 4, "count": 20}, {"armour_save": 4, "count": 11}]}, "target_models"),
        ({"target_models": [{"armour_save": 4, "wounds": 21}]}, "target_models[0].wounds"),
        ({"target_models": [{"armour_save": 4, "wounds": 2, "wounds_remaining": 3}]}, "target_models[0].wounds_remaining"),
        ({"target_models": [{"armour_save": 4, "wounds_remaining": 0}]}, "target_models[0].wounds_remaining"),
        ({"target_models": [{"armour_save": 4, "wounds_remaining": None}]}, "target_models[0].wounds_remaining"),
        ({"target_models": [{"armour_save": 4, "void_shields": 13}]}, "target_models[0].void_shields"),
        ({"target_models": [{"armour_save": 4, "obscured": 30}]}, "target_models[0].obscured"),
        ({"target_models": [{"armour_save": 4, "eligible": 0}]}, "target_models[0].eligible"),
        ({"target_models": [{"armour_save": 4, "extra": 0}]}, "target_models[0].extra"),
    ],
)
def test_li_obsc_1_fire_bad_inputs_name_the_field(change: dict[str, Any], field: str) -> None:
    """§5.0, §5.1, §5.2, LI-OBSC-1, LI-OBSC-2: wrong types, ranges and cross-field rules name the field."""
    assert rejects("fire", {**FIRE, **change}).field == field


def test_li_obsc_1_only_knights_and_titans_are_obscured() -> None:
    """LI-OBSC-1, §3.8: an obscured value on a super-heavy vehicle is rejected, on a titan accepted."""
    assert rejects("fire", {**FIRE, "target_models": [{"type": "super_heavy_vehicle", "armour_save": 3, "obscured": 25}]}).field == "target_models[0].obscured"
    kessen.odds("legions", "fire", {**FIRE, "target_models": [{"type": "titan", "wounds": 8, "armour_save": 3, "obscured": 50}]})


def test_li_obsc_2_penalty_must_be_offered_by_an_eligible_model() -> None:
    """LI-OBSC-2, §5.2: the chosen penalty must be that of an eligible model; a hidden but ineligible Knight offers none."""
    targets = [{"type": "knight", "wounds": 3, "armour_save": 3, "obscured": 50, "eligible": False}, {"type": "knight", "wounds": 3, "armour_save": 3}]
    assert rejects("fire", {**FIRE, "obscuration_penalty": 2, "target_models": targets}).field == "obscuration_penalty"
    assert kessen.odds("legions", "fire", {**FIRE, "target_models": targets}).input["obscuration_penalty"] == 0


def test_li_hit_3_resolve_hits_bad_inputs() -> None:
    """LI-HIT-3, §5.3: hits 0–60; no eligible model is needed; obscured accepted on a knight."""
    assert rejects("resolve_hits", {"hits": 61, "target_models": [{"armour_save": 4}]}).field == "hits"
    assert rejects("resolve_hits", {"hits": -1, "target_models": [{"armour_save": 4}]}).field == "hits"
    assert rejects("resolve_hits", {"target_models": [{"armour_save": 4}]}).field == "hits"
    assert rejects("resolve_hits", {"hits": 1, "to_hit": 4, "target_models": [{"armour_save": 4}]}).field == "to_hit"
    r = kessen.odds("legions", "resolve_hits", {"hits": 3, "target_models": [{"armour_save": None, "eligible": False}]})
    assert r.probability(wounds=0) == 1


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"a": {"caf": 2}}, "b"),
        ({"a": {"caf": 31}, "b": {"caf": 0}}, "a.caf"),
        ({"a": {"caf": 0, "modifier": 11}, "b": {"caf": 0}}, "a.modifier"),
        ({"a": {"caf": 0}, "b": {"caf": 0, "fight_number": 11}}, "b.fight_number"),
        ({"a": {"caf": 0}, "b": {"caf": 0, "extra_dice": -1}}, "b.extra_dice"),
        ({"a": {"caf": 0, "charged": "yes"}, "b": {"caf": 0}}, "a.charged"),
    ],
)
def test_li_fight_2_fight_bad_inputs(data: dict[str, Any], field: str) -> None:
    """LI-FIGHT-2, §5.4: sides need a CAF in −10–30 and modifiers in range."""
    assert rejects("fight", data).field == field


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"models": [{"id": "A", "side": "a", "caf": 1}], "fights": [["A", "A"]]}, "models"),
        ({"models": [{"id": "A", "side": "a", "caf": 1}, {"id": "A", "side": "b", "caf": 1}], "fights": [["A", "A"]]}, "models[1].id"),
        ({"models": [{"id": "A", "side": "c", "caf": 1}, {"id": "B", "side": "b", "caf": 1}], "fights": [["A", "B"]]}, "models[0].side"),
        ({"models": [{"id": "", "side": "a", "caf": 1}, {"id": "B", "side": "b", "caf": 1}], "fights": [["", "B"]]}, "models[0].id"),
        ({"models": [{"id": "A", "side": "a", "caf": 1}, {"id": "B", "side": "b", "caf": 1}], "fights": []}, "fights"),
        ({"models": [{"id": "A", "side": "a", "caf": 1}, {"id": "B", "side": "b", "caf": 1}], "fights": [["A", "B", "A"]]}, "fights[0]"),
        ({"models": [{"id": "A", "side": "a", "caf": 1, "wounds_remaining": 0}, {"id": "B", "side": "b", "caf": 1}], "fights": [["A", "B"]]}, "models[0].wounds_remaining"),
        ({"models": [{"id": "A", "side": "a", "caf": 1}, {"id": "B", "side": "b", "caf": 1}], "fights": [["A", "B"]], "a_other_models": 101}, "a_other_models"),
    ],
)
def test_li_pair_4_combat_bad_inputs(data: dict[str, Any], field: str) -> None:
    """LI-PAIR-4, §5.5: model and fight lists in range, ids unique, sides a or b."""
    assert rejects("combat", data).field == field


@pytest.mark.parametrize(
    ("procedure", "data", "field"),
    [
        ("morale_check", {}, "morale"),
        ("morale_check", {"morale": 1}, "morale"),
        ("morale_check", {"morale": 4, "trigger": "fear"}, "trigger"),
        ("morale_check", {"morale": 4, "roll_modifier": 4}, "roll_modifier"),
        ("morale_check", {"morale": 4, "earlier_check_this_phase": "yes"}, "earlier_check_this_phase"),
        ("withdrawal_save", {"scale": 6, "armour_save": 4, "passed_through_scales": []}, "scale"),
        ("withdrawal_save", {"scale": 2, "armour_save": 4}, "passed_through_scales"),
        ("withdrawal_save", {"scale": 2, "armour_save": 4, "passed_through_scales": [1] * 11}, "passed_through_scales"),
        ("withdrawal_save", {"scale": 2, "armour_save": 4, "passed_through_scales": [0]}, "passed_through_scales[0]"),
        ("withdrawal_move", {"movement": 31}, "movement"),
        ("withdrawal_move", {"movement": -1}, "movement"),
        ("break_point", {"models": []}, "models"),
        ("break_point", {"models": [{"type": "ogre"}]}, "models[0].type"),
    ],
)
def test_li_morale_3_li_wd_1_other_bad_inputs(procedure: str, data: dict[str, Any], field: str) -> None:
    """LI-MORALE-3, LI-WD-1, §5.6–5.9: fields out of range or of the wrong type name the field."""
    assert rejects(procedure, data).field == field


def test_li_tgt_5_normalised_input_fills_derived_defaults() -> None:
    """LI-TGT-5, LI-OBSC-2, §5.0: the echoed input fills target_scale, obscuration_penalty and wounds_remaining; count is kept."""
    r = kessen.odds(
        "legions",
        "fire",
        {"firing_models": 1, "to_hit": 4, "target_models": [{"type": "knight", "wounds": 3, "armour_save": 3, "obscured": 25, "count": 2}, {"armour_save": 5}]},
    )
    assert r.input["target_scale"] == 4
    assert r.input["obscuration_penalty"] == 1
    assert r.input["target_engaged_with_scales"] == []
    assert [t["wounds_remaining"] for t in r.input["target_models"]] == [3, 1]
    assert r.input["target_models"][0]["count"] == 2
    assert set(r.input) == {
        "firing_models", "dice", "to_hit", "hit_modifier", "ap", "light_at", "rear_arc", "armour_save_modifier",
        "target_scale", "target_engaged_with_scales", "obscuration_penalty", "target_models",
    }


def test_li_hit_1_cli_prints_contract_and_rejects_bad_input() -> None:
    """LI-HIT-1, §5.0 through the real command: exact fractions on stdout; bad input is one stderr line, exit 2."""
    good = subprocess.run([KESSEN, "odds", "legions", "fire", "--input", "-"], input=json.dumps(FIRE), capture_output=True, text=True, timeout=60)
    assert good.returncode == 0
    printed = json.loads(good.stdout)
    assert {e["outcome"]["hits"]: e["probability"] for e in printed["outcomes"] if e["outcome"]["wounds"] == 0}[0] == "1/4"
    bad = subprocess.run(
        [KESSEN, "odds", "legions", "fire", "--input", "-"], input=json.dumps({**FIRE, "to_hit": "4+"}), capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == ["kessen: error: to_hit: must be an integer (got '4+')"]
