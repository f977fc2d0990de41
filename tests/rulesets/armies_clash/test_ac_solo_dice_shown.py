"""armies-clash's dice shown against a solo (issue 24 §3): the rolls of an action at a solo, judged hit by hit
(AC-DMG-5, AC-SOLO-5), show each d20, the bonus and the AC like the rolls at a stand, keep the rule's exact odds, and
reach the events and the battle report."""

from __future__ import annotations

import itertools
import tomllib
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
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, Roll, SoloAttackQuestion, solo_attack, solo_faces
from kessen.rulesets.armies_clash.rules.d20 import attack_result
from kessen.rulesets.armies_clash.rules.damage import Condition
from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
from kessen.sim.play import play_battle

ROOT = Path(__file__).resolve().parents[3]
DAGGER = Attack("melee", 0, parse_dice("1d4"), 5)
STAFF = Attack("melee", 0, parse_dice("2"), 5)
SLING = Attack("ranged", 2, parse_dice("1d4"), 30)


def _one_roll(attack: Attack, *, mode: str, ac: int, critical_hits: bool) -> dict[tuple[Any, ...], Fraction]:
    """(d20s, result, damage) of one attack roll, every d20 and every damage die rolled: two d20s with advantage, the
    damage dice twice on a critical hit, every hit critical from next to an unconscious solo (AC-D20-1..4, AC-DMG-5)."""
    d20s = [(n,) for n in range(1, 21)] if mode == "normal" else list(itertools.product(range(1, 21), repeat=2))
    found: dict[tuple[Any, ...], Fraction] = {}
    for faces in d20s:
        result = attack_result(max(faces), attack_bonus=attack.attack_bonus, armour_class=ac, hits_critical=critical_hits)
        if result == "miss":
            found[faces, result, 0] = found.get((faces, result, 0), Fraction(0)) + Fraction(1, len(d20s))
            continue
        sides = [s for s, count in attack.damage.dice for _ in range(count * (2 if result == "critical" else 1))]
        rolls = list(itertools.product(*(range(1, s + 1) for s in sides)))
        for dice in rolls:
            key = (faces, result, max(0, sum(dice) + attack.damage.modifier))
            found[key] = found.get(key, Fraction(0)) + Fraction(1, len(d20s) * len(rolls))
    return found


def _brute(question: SoloAttackQuestion) -> Dist[Any]:
    """(the solo's fate, each roll made: d20s, mode, result, damage), every d20 and damage die rolled and each hit
    applied as it lands with the 5e rules written out afresh (AC-DMG-5, AC-SOLO-5): advantage once the solo is
    unconscious, cancelled by the disadvantage of its being prone from afar; no roll at a dead solo."""
    attack, maximum, pc = question.attack, question.maximum, question.pc
    found: dict[tuple[Any, ...], Fraction] = {}

    def walk(k: int, hp: int, status: str, failures: int, told: tuple[int, int, int, int], shown: tuple[Any, ...], p: Fraction) -> None:
        if k == len(attack.rolls) or status == "dead":
            key = (*told, hp, status, failures, shown)
            found[key] = found.get(key, Fraction(0)) + p
            return
        roll = attack.rolls[k]
        down = status in ("dying", "stable")
        mode = "advantage" if down and attack.attacker_adjacent else "normal"
        table = _one_roll(roll.attack, mode=mode, ac=attack.target_ac, critical_hits=down and attack.attacker_adjacent)
        for (faces, result, damage), q in table.items():
            now = (hp, status, failures)
            hits, crits, dealt, pushed = told
            if result != "miss":
                hits, crits, dealt, pushed = hits + 1, crits + (result == "critical"), dealt + damage, pushed + roll.push_squares
                if status == "up":
                    now = (hp - damage, "up", 0) if damage < hp else (0, "dead" if not pc or damage - hp >= maximum else "dying", 0)
                elif damage > 0:
                    failed = failures + (2 if result == "critical" else 1)
                    now = (0, "dead", 0) if damage >= maximum or failed >= 3 else (0, "dying", failed)
            walk(k + 1, *now, (hits, crits, dealt, pushed), (*shown, (faces, mode, result, damage)), p * q)

    walk(0, question.condition.hp, question.condition.status, question.condition.failures, (0, 0, 0, 0), (), Fraction(1))
    return Dist.from_probabilities(found)


def _drawn(question: SoloAttackQuestion) -> Dist[Any]:
    """The solo's fate drawn from ``solo_attack``, then the rolls behind it from ``solo_faces``, every branch followed."""

    def draw_both(draw: Any) -> tuple[Any, ...]:
        o = draw(solo_attack(question))
        shown = tuple((r.d20, r.mode, r.result, r.damage) for r in solo_faces(question, o, draw))
        return (o.hits, o.crits, o.damage, o.pushed, o.hp, o.status, o.failures, shown)

    return faces_dist(draw_both)


def _solo(rolls: tuple[Roll, ...], condition: Condition, *, hp: int, adjacent: bool, pc: bool = True, ac: int = 12) -> SoloAttackQuestion:
    attack = AttackQuestion(rolls, ac, max(1, condition.hp), attacker="stand", target="solo",
                            target_unconscious=condition.unconscious, attacker_adjacent=adjacent)
    return SoloAttackQuestion(attack, condition, hp, pc)


CASES = {
    "conscious NPC, one dagger": _solo((Roll(DAGGER),), Condition(3), hp=3, adjacent=True, pc=False),
    "dying PC, a dagger from next to it": _solo((Roll(DAGGER),), Condition(0, "dying", 1), hp=3, adjacent=True),
    "stable PC, a sling from afar": _solo((Roll(SLING),), Condition(0, "stable"), hp=3, adjacent=False),
    "NPC killed by the first of two daggers": _solo((Roll(DAGGER, push_squares=1), Roll(DAGGER)), Condition(2), hp=4, adjacent=True, pc=False),
    "PC falls to a dagger, then a staff from next to it": _solo((Roll(DAGGER), Roll(STAFF)), Condition(3), hp=3, adjacent=True, ac=19),
    "PC falls to a sling, then a sling from afar": _solo((Roll(SLING), Roll(SLING)), Condition(2), hp=3, adjacent=False, ac=19),
}


@pytest.mark.parametrize("question", CASES.values(), ids=CASES.keys())
def test_ac_dmg_5_ac_solo_5_solo_faces_keep_the_solo_attack_odds_exactly(question: SoloAttackQuestion) -> None:
    """AC-DMG-5, AC-SOLO-5: the solo's fate drawn from the hit-by-hit rule, then each roll's result and d20s given it,
    is every d20 and damage die rolled: P(fate) × P(rolls | fate) = P(rolls and fate). A roll at an unconscious solo
    has advantage (two d20s, every hit critical) from next to it, a single d20 from afar; a dead solo takes no more
    rolls, so none is shown."""
    assert _drawn(question) == _brute(question)


def test_ac_dmg_5_the_rolls_after_a_solo_falls_are_shown_with_advantage() -> None:
    """AC-DMG-5: the first dagger (d20 + 0 vs AC 19: 19 hits, 20 is critical) drops a PC at 3 of 3 HP to dying when it
    deals 3 to 5 (6 or more is 3 over, its maximum: dead); the staff's roll after it is made with two d20s and hits
    critically when the higher is 19 or 20 (1 − (18/20)² = 19/100): 2 damage, two failed death saves."""
    question = CASES["PC falls to a dagger, then a staff from next to it"]
    fate = solo_attack(question)
    # dying: 19 with 3 or 4 on the d4 (1/20 × 2/4), or 20 with 3, 4 or 5 on 2d4 (1/20 × 9/16)
    drop = Fraction(1, 20) * Fraction(2, 4) + Fraction(1, 20) * Fraction(9, 16)
    assert fate.probability(lambda o: o.status == "dying" and o.failures == 2) == drop * Fraction(19, 100)
    felled = next(o for o in fate.outcomes() if o.status == "dying" and o.failures == 2 and o.crits == 1)
    shown = faces_dist(lambda draw: tuple((r.mode, len(r.d20), r.result) for r in solo_faces(question, felled, draw)))
    assert shown.outcomes() == ((("normal", 1, "hit"), ("advantage", 2, "critical")),)


def test_ac_dmg_5_battle_attacks_on_solos_carry_d20s_that_make_their_results() -> None:
    """AC-DMG-5, AC-SOLO-5 in play: in goblin-horde (seed 3) the goblins' shortbows shoot the wizard, a PC solo, and
    the goblin boss and the captain strike each other; each such attack shows one d20 (two with advantage or
    disadvantage) per roll made, whose kept die makes the roll's result against the bonus and AC shown, and the
    report prints them (en, ja)."""
    path = ROOT / "examples" / "armies-clash" / "goblin-horde.toml"
    solos = {s["id"] for s in tomllib.loads(path.read_text(encoding="utf-8"))["solos"]}
    played = play_battle(ruleset_for(str(path), None), read_scenario(str(path)), str(path), 3)
    attacks = [e for e in played.events if isinstance(e, ev.Attacked) and e.defender in solos]
    assert attacks
    for a in attacks:
        assert a.results and len(a.d20) == len(a.modes) == len(a.bonus) == len(a.armour_class) == len(a.results)
        assert a.hits == sum(r != "miss" for r in a.results) and a.crits == a.results.count("critical")
        assert a.damage == sum(a.roll_damage)
        for d20, mode, bonus, ac, result in zip(a.d20, a.modes, a.bonus, a.armour_class, a.results):
            assert len(d20) == (1 if mode == "normal" else 2)
            kept = max(d20) if mode == "advantage" else min(d20)
            if result == "critical" and kept < 20:  # every hit critical: from next to an unconscious solo, with advantage
                assert mode == "advantage" and attack_result(kept, attack_bonus=bonus, armour_class=ac) == "hit"
            else:
                assert result == attack_result(kept, attack_bonus=bonus, armour_class=ac)
        english, japanese = text.narrate(a, "en"), text.narrate(a, "ja")
        assert english.count("d20 ") == japanese.count("d20 ") == len(a.results)
        assert f"vs AC {a.armour_class[0]}" in english and f"対 AC {a.armour_class[0]}" in japanese
