"""The odds contract for armies-clash (§6.1): strict input, errors, the normalised echo, sorted outcomes, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import kessen
from kessen.core.errors import InputError
from kessen.rulesets import get_ruleset

KESSEN = Path(sys.executable).with_name("kessen")

SAMPLES: dict[str, dict[str, Any]] = {
    "attack": {"attacks": [{"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}, {"kind": "ranged", "attack_bonus": 2, "damage": "1d6"}], "target_ac": 13, "target_hp": 7},
    "unit_attack": {"stands": 3, "attacks": [{"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}], "target_ac": 13, "target_hp": 7, "target_stands": 3},
    "save": {"ability": "dex", "save_bonus": 1, "dc": 13, "damage": "2d6"},
    "morale": {"wisdom_modifiers": [0, 1], "starting_stands": 6, "stands_lost": 3},
    "commander_check": {"check_bonus": 5},
    "initiative": {"units": [{"id": "a", "type": "regiment", "dex_modifiers": [0, 2]}, {"id": "b", "type": "solo", "dex_modifiers": [1]}]},
    "decisive_rout": {"vp_a": 11, "vp_b": 7, "units_a": 4, "units_b": 3},
    "death_saves": {"failures": 1},
}

OUTCOME_FIELDS = {
    "attack": ["hits", "crits", "damage", "reduced_to_zero", "overflow"],
    "unit_attack": ["stands_reduced"],
    "save": ["result", "damage"],
    "morale": ["checked", "routed"],
    "commander_check": ["success"],
    "initiative": ["order", "first"],
    "decisive_rout": ["result", "winner", "eliminated"],
    "death_saves": ["result", "rolls"],
}


def test_ac_proc_4_the_eight_procedures_and_their_outcome_fields() -> None:
    """AC-PROC-4: the ruleset offers exactly §6's procedures; each outcome holds exactly its listed fields, in order."""
    assert list(get_ruleset("armies-clash").procedures) == list(SAMPLES)
    for name, data in SAMPLES.items():
        result = kessen.odds("armies-clash", name, data)
        assert all(list(o) == OUTCOME_FIELDS[name] for o, _ in result.outcomes)
        assert sum(p for _, p in result.outcomes) == 1
        assert all(p > 0 for _, p in result.outcomes)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_ac_proc_4_outcomes_sorted_by_field_values(name: str) -> None:
    """AC-PROC-4: entries ascend by their outcome values in field order (false < true, strings by code point)."""
    keys = [tuple(o.values()) for o, _ in kessen.odds("armies-clash", name, SAMPLES[name]).outcomes]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def test_ac_proc_3_attack_echo_fills_defaults_in_order() -> None:
    """AC-PROC-3: every field in the listed order; entries kind, attack_bonus, damage, count, reach_ft (melee only)."""
    echo = kessen.odds("armies-clash", "attack", SAMPLES["attack"]).input
    assert list(echo) == [
        "attacker", "action", "attacks", "target", "target_ac", "target_hp", "target_isolated", "target_defensive",
        "target_cover", "resistance", "attacker_isolated", "attacker_formation", "supported", "incited",
        "higher_ground", "long_range", "adjacent_enemy", "extra_advantage", "extra_disadvantage",
    ]
    assert echo["attacks"] == [
        {"kind": "melee", "attack_bonus": 3, "damage": "1d8+1", "count": 1, "reach_ft": 5},
        {"kind": "ranged", "attack_bonus": 2, "damage": "1d6", "count": 1},
    ]


def test_ac_proc_3_unit_attack_echo_order() -> None:
    """AC-PROC-3: stands, supporting_stands, attacks, target_ac, target_hp, target_stands, then the flags."""
    echo = kessen.odds("armies-clash", "unit_attack", SAMPLES["unit_attack"]).input
    assert list(echo)[:6] == ["stands", "supporting_stands", "attacks", "target_ac", "target_hp", "target_stands"]
    assert list(echo)[6:] == [
        "target_isolated", "target_defensive", "target_cover", "resistance", "attacker_isolated", "attacker_formation",
        "incited", "higher_ground", "long_range", "adjacent_enemy", "extra_advantage", "extra_disadvantage",
    ]


def test_ac_proc_3_save_damage_null_and_dice_string_unchanged() -> None:
    """AC-PROC-3: `save.damage` is null when absent; a dice string is echoed unchanged."""
    assert kessen.odds("armies-clash", "save", {"ability": "wis", "save_bonus": 0, "dc": 10}).input["damage"] is None
    assert kessen.odds("armies-clash", "save", {"ability": "wis", "save_bonus": 0, "dc": 10, "damage": "1d4-0+0"}).input["damage"] == "1d4-0+0"


def test_ac_proc_3_morale_mode_forbidden_fields_absent() -> None:
    """AC-PROC-3: check mode echoes starting_stands and stands_lost; rally mode commander_cha_modifier instead."""
    check = kessen.odds("armies-clash", "morale", SAMPLES["morale"]).input
    assert list(check) == ["mode", "wisdom_modifiers", "starting_stands", "stands_lost", "advantage", "disadvantage"]
    rally = kessen.odds("armies-clash", "morale", {"mode": "rally", "wisdom_modifiers": [1], "commander_cha_modifier": 2}).input
    assert list(rally) == ["mode", "wisdom_modifiers", "commander_cha_modifier", "advantage", "disadvantage"]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"check_bonus": 2.0}', "check_bonus"),
        ('{"check_bonus": true}', "check_bonus"),
        ('{"check_bonus": 2, "advantage": 1}', "advantage"),
        ('{"check_bonus": 2, "advantage": "true"}', "advantage"),
        ("[1, 2]", "input"),
        ("{not json", "input"),
    ],
)
def test_ac_proc_1_strict_json_types(text: str, field: str) -> None:
    """AC-PROC-1: an int is never 2.0 or true; a bool is only true/false; input must be a JSON object."""
    with pytest.raises(InputError) as caught:
        kessen.odds("armies-clash", "commander_check", text)
    assert caught.value.field == field


def test_ac_proc_2_cli_error_line_and_exit_status() -> None:
    """AC-PROC-2: bad input → exit 2, nothing on stdout, one stderr line naming field and value."""
    bad = {"attacks": [{"kind": "melee", "attack_bonus": 3, "damage": "2d7+1"}], "target_ac": 12, "target_hp": 5}
    run = subprocess.run([str(KESSEN), "odds", "armies-clash", "attack", "--input", "-"], input=json.dumps(bad), capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.strip() == 'kessen: error: attacks[0].damage: die size d7 not allowed ("2d7+1")'


def test_ac_proc_5_cli_prints_reduced_exact_fractions() -> None:
    """AC-PROC-5, AC-PROC-4: the CLI prints reduced fractions summing to exactly 1 (E13a)."""
    run = subprocess.run([str(KESSEN), "odds", "armies-clash", "commander_check", "--input", "-"], input='{"check_bonus": 5}', capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["input"] == {"check_bonus": 5, "advantage": False, "disadvantage": False}
    assert [(e["outcome"], e["probability"]) for e in out["outcomes"]] == [({"success": False}, "9/20"), ({"success": True}, "11/20")]
    assert sum(Fraction(e["probability"]) for e in out["outcomes"]) == 1


def test_ac_proc_6_largest_tables_within_limits() -> None:
    """AC-PROC-6: at the limits `attack` stays within 6,321 entries, `unit_attack` 11, `initiative` 24, `decisive_rout` 51."""
    big_attack = {"attacks": [{"kind": "melee", "attack_bonus": 5, "damage": "3d10", "count": 4, "reach_ft": 10}], "target_ac": 15, "target_hp": 150}
    assert len(kessen.odds("armies-clash", "attack", big_attack).outcomes) <= 6321
    chain = {"stands": 10, "attacks": [{"kind": "melee", "attack_bonus": 9, "damage": "2d10+5", "count": 3}], "target_ac": 12, "target_hp": 10, "target_stands": 10}
    assert len(kessen.odds("armies-clash", "unit_attack", chain).outcomes) == 11
    rout = {"vp_a": 50, "vp_b": 0, "units_a": 1, "units_b": 50}
    assert len(kessen.odds("armies-clash", "decisive_rout", rout).outcomes) == 51
