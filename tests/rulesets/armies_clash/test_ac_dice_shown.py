"""armies-clash's dice shown (issue 24 §3): each attack roll's d20s, the bonus and the AC behind an action's totals,
and the d20s of saves, morale checks, rallies and commander checks, keep the rules' exact odds, and the battle report
shows them in English and Japanese."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kessen.core.engine import Rolled
from kessen.dice import Dist
from kessen.dice.faces import faces_dist
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash import text
from kessen.rulesets.armies_clash.profiles import Attack
from kessen.rulesets.armies_clash.rules.commanders import COMMAND_DC, CommanderCheckQuestion, commander_check, commander_faces
from kessen.rulesets.armies_clash.rules.morale import MORALE_DC, MoraleQuestion, morale, morale_bonus, morale_faces
from kessen.rulesets.armies_clash.referee.machine import ROUT
from kessen.rulesets.armies_clash.rules.d20 import success_chance, success_faces
from kessen.rulesets.armies_clash.rules.dying import DeathSavesQuestion, death_faces, death_saves
from kessen.rulesets.armies_clash.rules.ending import rout_faces
from kessen.rulesets.armies_clash.rules.spells import SaveQuestion, SpellEffect, automatic_damage, automatic_damage_faces, doublings, halvings, save, save_faces
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, AttackTotals, Roll, attack_faces, attack_totals, roll_dist, roll_setting
from kessen.rulesets.armies_clash.rules.d20 import attack_result
from kessen.rulesets.armies_clash.rules.damage import scaled_damage
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


def brute_check(bonus: int, target: int, mode: str) -> Dist[Any]:
    """(success, d20s) of a check, every d20 rolled (AC-D20-1..3)."""
    pairs = [(n,) for n in range(1, 21)] if mode == "normal" else list(itertools.product(range(1, 21), repeat=2))
    keep = max if mode == "advantage" else min
    found: dict[Any, Fraction] = {}
    for faces in pairs:
        key = (keep(faces) + bonus >= target, faces)
        found[key] = found.get(key, Fraction(0)) + Fraction(1, len(pairs))
    return Dist.from_probabilities(found)


@pytest.mark.parametrize(
    "question", [MoraleQuestion((0, 2), starting_stands=4, stands_lost=2), MoraleQuestion((1,), mode="rally", commander_cha_modifier=3, advantage=True)]
)
def test_AC_MORALE_2_6_morale_and_rally_d20s_keep_the_morale_odds_exactly(question: MoraleQuestion) -> None:
    drawn = faces_dist(lambda draw: (not (o := draw(morale(question))).routed, morale_faces(question, o, draw).d20))
    bonus = morale_bonus(question.wisdom_modifiers, commander_cha_modifier=question.commander_cha_modifier or 0)
    assert drawn == brute_check(bonus, MORALE_DC, "advantage" if question.advantage else "normal")


def test_AC_MORALE_1_no_check_shows_no_dice() -> None:
    question = MoraleQuestion((0,), starting_stands=4, stands_lost=1)
    assert faces_dist(lambda draw: morale_faces(question, draw(morale(question)), draw)) == Dist.always(None)


def test_AC_CMD_3_commander_check_d20s_keep_its_odds_exactly() -> None:
    question = CommanderCheckQuestion(4, disadvantage=True)
    drawn = faces_dist(lambda draw: ((o := draw(commander_check(question))).success, commander_faces(question, o, draw).d20))
    assert drawn == brute_check(4, COMMAND_DC, "disadvantage")


def test_AC_SPELL_5_save_d20s_keep_the_save_odds_exactly() -> None:
    """The save's d20 given its result; the damage that follows it is the rule's, whatever the die (§6.5)."""
    question = SaveQuestion("dex", 2, 13, effect=SpellEffect(damage=parse_dice("2d4")), skirmisher=True)
    drawn = faces_dist(lambda draw: ((o := draw(save(question))).result == "success", save_faces(question, o, draw).d20))
    assert drawn == brute_check(2, 13, "advantage")
    objective = SaveQuestion("dex", 2, 13, effect=SpellEffect(damage=parse_dice("2d4"), target="objective"))
    assert faces_dist(lambda draw: save_faces(objective, draw(save(objective)), draw)) == Dist.always(None)


def test_AC_D20_checks_narrated_with_their_d20_bonus_and_DC_in_english_and_japanese() -> None:
    morale_event = ev.MoraleChecked(unit="pikes", routed=True, d20=(4, 12), mode="disadvantage", bonus=1, dc=10)
    assert text.narrate(morale_event, "en") == "pikes fails its morale check and is routed! (d20 4/12 with disadvantage +1 = 5 vs DC 10)"
    assert text.narrate(morale_event, "ja").endswith("（d20 4/12(不利) +1 = 5 対 DC 10）")
    spell = ev.SpellResult(caster="wizard", spell="fireball", target="boss", result="success", damage=14, d20=(13,), mode="normal", bonus=2, dc=15)
    assert text.narrate(spell, "en").endswith("(d20 13 +2 = 15 vs DC 15)")
    assert text.narrate(ev.MoraleChecked(unit="pikes", routed=False), "en") == "pikes checks morale and holds."


def test_AC_battle_checks_carry_d20s_that_make_their_results() -> None:
    path = ROOT / "examples" / "armies-clash" / "goblin-horde.toml"
    played = play_battle(ruleset_for(str(path), None), read_scenario(str(path)), str(path), 1)
    checks = [e for e in played.events if isinstance(e, ev.MoraleChecked | ev.RallyRolled | ev.CommanderBenefit | ev.SpellResult) and e.d20]
    assert checks
    for c in checks:
        kept = max(c.d20) if c.mode == "advantage" else min(c.d20)
        passed = kept + c.bonus >= c.dc
        if isinstance(c, ev.MoraleChecked):
            assert passed == (not c.routed)
        elif isinstance(c, ev.SpellResult):
            assert passed == (c.result == "success")
        else:
            assert passed == c.success


# --- stealth, death saves, rout rolls and automatic damage (issue 24 §3) ---------------------------------------------


@pytest.mark.parametrize(("bonus", "dc"), [(3, 14), (-1, 20), (12, 10)])
def test_AC_HIDE_1_stealth_d20_keeps_the_check_odds_exactly(bonus: int, dc: int) -> None:
    """A Stealth check's d20, drawn after whether it hid, is every d20 rolled: d20 + bonus ≥ the highest passive
    Perception hides (AC-HIDE-1, no natural 1 or 20, AC-D20-3)."""
    drawn = faces_dist(lambda draw: (
        (o := draw(success_chance(bonus=bonus, target=dc).map(Rolled))).value, success_faces(bonus, dc, o, draw).d20
    ))
    assert drawn == Dist.from_probabilities({(n + bonus >= dc, (n,)): Fraction(1, 20) for n in range(1, 21)})


@pytest.mark.parametrize(("successes", "failures"), [(1, 1), (0, 2), (2, 0), (2, 1), (1, 2)])
def test_AC_END_4_death_save_d20s_keep_the_death_saves_odds_exactly(successes: int, failures: int) -> None:
    """The d20s behind a fate and a count of rolls are every sequence of death saves rolled until it is settled: 20
    revives, 10–19 a success, 2–9 a failure, 1 two failures; three of either settle it. (Started from no saves it
    takes up to five d20s, 20^5 sequences: minutes to walk, so the cases start from one or two saves made.)"""
    question = DeathSavesQuestion(successes, failures)
    drawn = faces_dist(lambda draw: ((o := draw(death_saves(question))).result, o.rolls, death_faces(question, o, draw)))
    found: dict[Any, Fraction] = {}

    def roll(s: int, f: int, faces: tuple[int, ...]) -> None:
        for n in range(1, 21):
            rolled = (*faces, n)
            ns, nf = s + (10 <= n < 20), f + (n < 10) + (n == 1)
            fate = "revived" if n == 20 else "stable" if ns >= 3 else "dead" if nf >= 3 else None
            if fate is None:
                roll(ns, nf, rolled)
            else:
                key = (fate, len(rolled), rolled)
                found[key] = found.get(key, Fraction(0)) + Fraction(1, 20 ** len(rolled))

    roll(successes, failures, ())
    assert drawn == Dist.from_probabilities(found)


def test_AC_WIN_2_rout_d20_eliminates_on_10_or_more() -> None:
    drawn = faces_dist(lambda draw: ((o := draw(ROUT)).value, rout_faces(o, draw)))
    assert drawn == Dist.from_probabilities({(n >= 10, (n,)): Fraction(1, 20) for n in range(1, 21)})


@pytest.mark.parametrize(("damage", "partial"), [("2d6", True), ("1d10+1d4+2", False), ("1d4-2", False)])
def test_AC_AOE_9_automatic_damage_dice_keep_the_damage_odds_exactly(damage: str, partial: bool) -> None:
    """An automatic effect's damage dice, drawn after its damage (doubled and halved per AC-AOE-9, never below 0),
    are every die rolled (AC-AOE-9, AC-PROC-DICE)."""
    effect = SpellEffect(damage=parse_dice(damage), partial_coverage=partial)
    expr = parse_dice(damage)
    drawn = faces_dist(lambda draw: (
        (o := draw(automatic_damage(effect).map(Rolled))).value, automatic_damage_faces(effect, o, draw).dice
    ))
    sides = [s for s, count in expr.dice for _ in range(count)]
    up, down = doublings(effect, failed_save=False), halvings(effect, saved=False)  # a stand's area spell doubles, cover halves
    found: dict[Any, Fraction] = {}
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        raw = max(0, sum(faces) + expr.modifier)
        key = (scaled_damage(raw, doublings=up, halvings=down, resistance=effect.resistance), faces)
        found[key] = found.get(key, Fraction(0)) + Fraction(1, len(list(itertools.product(*(range(1, s + 1) for s in sides)))))
    assert drawn == Dist.from_probabilities(found)


def test_AC_HIDE_AC_END_4_AC_WIN_2_AC_AOE_9_narration_shows_the_dice_in_english_and_japanese() -> None:
    hid = ev.Hid(piece="scout-1", hidden=True, d20=(14,), mode="normal", bonus=5, dc=13)
    assert text.narrate(hid, "en") == "scout-1 hides. (d20 14 +5 = 19 vs DC 13)"
    assert text.narrate(hid, "ja").endswith("（d20 14 +5 = 19 対 DC 13）")
    dying = ev.DeathSaves(piece="hero", result="stable", rolls=3, faces=(12, 4, 15))
    assert text.narrate(dying, "en").endswith("after 3 rolls. (d20 12 4 15)")
    assert text.narrate(dying, "ja").endswith("（d20 12 4 15）")
    rout = ev.RoutRolled(unit="goblins", eliminated=True, die=13)
    assert text.narrate(rout, "en") == "goblins breaks in the rout and flees the field. (d20 13 vs 10+)"
    assert text.narrate(rout, "ja").endswith("（d20 13（10+で敗走））")
    burnt = ev.SpellResult(caster="mage", spell="fire", target="orc-1", result="hit", damage=4, damage_dice=(3, 6), damage_modifier=-1)
    assert text.narrate(burnt, "en").endswith("4 damage. (damage dice 3 6 −1 = 8)")
    assert text.narrate(burnt, "ja").endswith("（ダメージダイス 3 6 −1 = 8）")
