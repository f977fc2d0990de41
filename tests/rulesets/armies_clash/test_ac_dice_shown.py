"""armies-clash's dice shown (issue 24 §3): each attack roll's d20s, the bonus and the AC behind an action's totals
keep the attack rule's exact odds, and the battle report shows them in English and Japanese."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kessen.dice import Dist
from kessen.dice.faces import faces_dist
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash import text
from kessen.rulesets.armies_clash.profiles import Attack
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, AttackTotals, Roll, attack_faces, attack_totals, roll_dist, roll_setting
from kessen.rulesets.armies_clash.rules.d20 import attack_result
from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
from kessen.sim.play import play_battle

ROOT = Path(__file__).resolve().parents[3]
SWORD = Attack("melee", 3, parse_dice("1d2+1"), 5)
BOW = Attack("ranged", 5, parse_dice("2"))


def brute(question: AttackQuestion) -> Dist[Any]:
    """(totals, each roll's d20s, result and damage), every d20 rolled and each hit's damage as the rule deals it."""
    per_roll = []
    for roll in question.rolls:
        dist = roll_dist(question, roll)
        setting = roll_setting(question, roll)
        ways: dict[Any, Fraction] = {}
        if setting is None:
            for o, p in dist.probabilities().items():
                ways[((), o.result, o.damage, roll.push_squares)] = p
        else:
            mode, ac = setting
            pairs = [(n,) for n in range(1, 21)] if mode == "normal" else list(itertools.product(range(1, 21), repeat=2))
            keep = max if mode == "advantage" else min
            for faces in pairs:
                result = attack_result(keep(faces), attack_bonus=roll.attack.attack_bonus, armour_class=ac)
                given = dist.filter_given(lambda o: o.result == result)
                for o, p in given.probabilities().items():
                    key = (faces, result, o.damage, roll.push_squares)
                    ways[key] = ways.get(key, Fraction(0)) + p / len(pairs)
        per_roll.append(ways)
    found: dict[Any, Fraction] = {}
    for combo in itertools.product(*(w.items() for w in per_roll)):
        hits = sum(r != "miss" for (_, r, _, _), _ in combo)
        crits = sum(r == "critical" for (_, r, _, _), _ in combo)
        totals = AttackTotals(hits, crits, sum(d for (_, _, d, _), _ in combo), sum(s for (_, r, _, s), _ in combo if r != "miss"))
        key = (totals, tuple((f, r, d) for (f, r, d, _), _ in combo))
        p = Fraction(1)
        for _, q in combo:
            p *= q
        found[key] = found.get(key, Fraction(0)) + p
    return Dist.from_probabilities(found)


@pytest.mark.parametrize(
    "question",
    [
        AttackQuestion((Roll(SWORD), Roll(SWORD)), target_ac=13),
        AttackQuestion((Roll(BOW, long_range=True),), target_ac=14),
        AttackQuestion((Roll(SWORD, push_squares=1),), target_ac=12, incited=True, target_isolated=True),
        AttackQuestion((Roll(SWORD, push_squares=1), Roll(BOW)), target_ac=12, target_cover="half"),
        AttackQuestion((Roll(SWORD),), target_ac=12, target="objective"),
    ],
)
def test_AC_D20_1_to_3_attack_faces_keep_the_attack_odds_exactly(question: AttackQuestion) -> None:
    """The totals drawn from the attack rule, then each roll's d20s and damage given them, is every d20 rolled
    (advantage and disadvantage roll two; a melee roll on an objective rolls none, AC-OBJ-4)."""
    drawn = faces_dist(
        lambda draw: ((t := draw(attack_totals(question))), tuple((r.d20, r.result, r.damage) for r in attack_faces(question, t, draw)))
    )
    assert drawn == brute(question)


def test_AC_D20_narration_shows_each_d20_bonus_and_AC_in_english_and_japanese() -> None:
    attacked = ev.Attacked(
        attacker="hob-4", defender="elf-1", using="longbow", hits=1, crits=0, damage=4,
        d20=((15, 18), (1,)), modes=("disadvantage", "normal"), bonus=(3, 3), armour_class=(14, 14),
        results=("hit", "miss"), roll_damage=(4, 0),
    )
    assert text.narrate(attacked, "en") == (
        "hob-4 attacks elf-1 with longbow: 1 hit, 4 damage. "
        "(d20 15/18 with disadvantage +3 = 18 vs AC 14: hit, 4 damage; d20 1 +3 = 4 vs AC 14: miss)"
    )
    assert text.narrate(attacked, "ja").endswith("（d20 15/18(不利) +3 = 18 対 AC 14: 命中、ダメージ 4、d20 1 +3 = 4 対 AC 14: 外れ）")


def test_AC_battle_attacks_carry_d20s_that_make_their_results() -> None:
    path = ROOT / "examples" / "armies-clash" / "skirmish-ridge.toml"
    played = play_battle(ruleset_for(str(path), None), read_scenario(str(path)), str(path), 1)
    attacks = [e for e in played.events if isinstance(e, ev.Attacked) and e.results]
    assert attacks
    for a in attacks:
        assert a.hits == sum(r != "miss" for r in a.results) and a.damage == sum(a.roll_damage)
        for d20, mode, bonus, ac, result in zip(a.d20, a.modes, a.bonus, a.armour_class, a.results):
            kept = max(d20) if mode == "advantage" else min(d20)
            assert result == attack_result(kept, attack_bonus=bonus, armour_class=ac)
