"""legions' dice shown (issue 24 §3): the hit dice and each hit's save behind a volley keep the fire and resolve_hits
rules' exact odds (checked against every die rolled, with R played hit by hit), and the battle report shows them per
model in English and Japanese."""

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
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions import text
from kessen.rulesets.legions.rules.allocation import allocation_indices
from kessen.rulesets.legions.rules.faces import SaveShown
from kessen.rulesets.legions.rules.close_combat import FightQuestion, FightSide, fight, fight_faces
from kessen.rulesets.legions.rules.firing import FireQuestion, HitsQuestion, fire, fire_faces, hit_roll_faces, resolve_faces, resolve_hits
from kessen.rulesets.legions.rules.hit_rolls import hit_pool, hit_roll_hits
from kessen.rulesets.legions.rules.morale import MoraleCheckQuestion, MoraleShown, morale_check, morale_faces
from kessen.rulesets.legions.rules.saves import Attack, TargetProfile, save_passes, save_target, shield_ap
from kessen.rulesets.legions.rules.withdrawal import WithdrawalSaveQuestion, withdrawal_save, withdrawal_save_faces
from kessen.sim.play import play_battle

ROOT = Path(__file__).resolve().parents[3]
TROOPER = TargetProfile("infantry", 1, 1, armour_save=5)
HURT_TANK = TargetProfile("vehicle", 2, 1, armour_save=4, rear_arc=True)
TITAN = TargetProfile("titan", 2, 2, armour_save=3, void_shields=1)
COVERED = TargetProfile("infantry", 1, 1, armour_save=None, cover_save=1)
BARE = TargetProfile("infantry", 1, 1, armour_save=None)


def hits_one_by_one(models: tuple[TargetProfile, ...], allocatable: tuple[bool, ...], attack: Attack, hits: int) -> Dist[Any]:
    """R played hit by hit with every save die rolled (§5.1 R, LI-SAVE, LI-VOID, LI-ALLOC-4): (wounds, destroyed,
    shields lost, each hit's SaveShown)."""
    order = allocation_indices(models, allocatable)
    found: dict[Any, Fraction] = {}

    def go(left: list[list[int]], k: int, shown: tuple[SaveShown, ...], p: Fraction) -> None:
        if k == hits:
            wounds = sum(m.wounds_remaining - w for m, (w, _) in zip(models, left))
            destroyed = sum(m.wounds_remaining > 0 and w == 0 for m, (w, _) in zip(models, left))
            shields = sum(m.void_shields - s for m, (_, s) in zip(models, left))
            key = (wounds, destroyed, shields, shown)
            found[key] = found.get(key, Fraction(0)) + p
            return
        alive = [i for i in order if left[i][0] > 0]
        if not alive:
            return go(left, k + 1, (*shown, SaveShown(-1, 0, 0, "discarded")), p)
        i = alive[0]
        model = models[i]
        if left[i][1]:
            if shield_ap(attack, model.type) > -1:
                return go(left, k + 1, (*shown, SaveShown(-1, 0, 0, "discarded")), p)
            after = [list(x) for x in left]
            after[i][1] -= 1
            return go(after, k + 1, (*shown, SaveShown(i, 0, 0, "shield")), p)
        needed = save_target(model, attack)
        wounded = [list(x) for x in left]
        wounded[i][0] -= 1
        if needed is None:
            return go(wounded, k + 1, (*shown, SaveShown(i, 0, 0, "wound")), p)
        for face in range(1, 7):
            saved = save_passes(face, needed)
            go(left if saved else wounded, k + 1, (*shown, SaveShown(i, face, needed, "saved" if saved else "wound")), p / 6)

    go([[m.wounds_remaining, m.void_shields] for m in models], 0, (), Fraction(1))
    return Dist.from_probabilities(found)


QUESTIONS = [
    HitsQuestion(3, Attack(), (TROOPER, HURT_TANK, TROOPER), (True, True, False)),
    HitsQuestion(3, Attack(ap=-1), (TITAN, TROOPER), (True, True)),
    HitsQuestion(4, Attack(ap=0), (TITAN, TROOPER), (True, True)),
    HitsQuestion(2, Attack(), (BARE, COVERED), (True, True)),
    HitsQuestion(3, Attack(light_at=True, ap=-2), (HURT_TANK,), (True,)),
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_LI_SAVE_R_saves_behind_resolve_hits_keep_its_odds_exactly(question: HitsQuestion) -> None:
    """Each hit's model, save die and result given R's total is every save die rolled hit by hit (wounded models
    first, Void Shields without a save, a Cover Save of 1+ always passing, hits past the last model discarded)."""
    drawn = faces_dist(lambda draw: (
        (o := draw(resolve_hits(question))).wounds, o.destroyed, o.shields_lost, resolve_faces(question, o, draw)
    ))
    assert drawn == hits_one_by_one(question.models, question.allocatable, question.attack, question.hits)


@pytest.mark.parametrize(("dice", "to_hit", "modifier"), [(3, 4, 0), (2, 3, -3), (3, 2, 2)])
def test_LI_HIT_1_2_hit_dice_and_saves_behind_a_volley_keep_the_fire_odds_exactly(dice: int, to_hit: int, modifier: int) -> None:
    """Every hit die rolled (a natural 6 always hits, a natural 1 always misses), then R hit by hit, is the fire
    rule's result with its dice drawn after it."""
    models, allocatable, attack = (TROOPER, HURT_TANK), (True, True), Attack()
    question = FireQuestion(dice, to_hit, modifier, attack, models, allocatable)
    drawn = faces_dist(lambda draw: (
        (o := draw(fire(question))).hits, o.wounds, (shown := fire_faces(question, o, draw)).hit_dice, shown.saves
    ))
    found: dict[Any, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        hits = sum(hit_roll_hits(f, to_hit=to_hit, modifier=modifier) for f in faces)
        for (wounds, _, _, saves), p in hits_one_by_one(models, allocatable, attack, hits).probabilities().items():
            key = (hits, wounds, faces, saves)
            found[key] = found.get(key, Fraction(0)) + p / 6**dice
    assert drawn == Dist.from_probabilities(found)


VOLLEY = ev.Volley(
    detachment="russ-1", target="tactical-1", weapon="battle cannon", firing_models=3, dice=3, to_hit=4, modifier=0,
    arc="front", hits=2, wounds=1, destroyed=1, shields_lost=0, hit_dice=(2, 4, 5),
    save_models=("tactical-1-1", "tactical-1-2"), save_dice=(2, 6), save_needed=(6, 6), save_results=("wound", "saved"),
)


def test_LI_SAVE_narration_shows_hit_dice_and_each_models_save_in_english_and_japanese() -> None:
    assert text.narrate(VOLLEY, "en").endswith(
        "Void Shields lost 0. (hit dice 2 4 5; saves: tactical-1-1 2 vs 6+: Wound lost, tactical-1-2 6 vs 6+: saved)"
    )
    assert text.narrate(VOLLEY, "ja").endswith("（ヒットダイス 2 4 5、セーブ: tactical-1-1 2（6+）: 傷を失う、tactical-1-2 6（6+）: 成功）")
    allocated = ev.HitAllocated(model="knight-1", detachment="knights", result="no_effect", save_die=5, save_needed=4)
    assert text.narrate(allocated, "en") == "A hit allocated to knight-1 of knights: no effect (saved). (save 5 vs 4+)"
    assert text.narrate(allocated, "ja").endswith("（セーブ 5（4+））")
    bare = ev.Volley(**{**VOLLEY.fields(), "hit_dice": (), "save_models": (), "save_dice": (), "save_needed": (), "save_results": ()})
    assert text.narrate(bare, "en").endswith("Void Shields lost 0.")


def test_LI_battle_volleys_carry_dice_that_make_their_results() -> None:
    path = ROOT / "examples" / "legions" / "hold-the-line.toml"
    played = play_battle(ruleset_for(str(path), None), read_scenario(str(path)), str(path), 1)
    volleys = [e for e in played.events if isinstance(e, ev.Volley) and e.hit_dice]
    assert volleys
    for v in volleys:
        assert len(v.hit_dice) == v.dice
        assert v.hits == sum(hit_roll_hits(f, to_hit=v.to_hit, modifier=v.modifier) for f in v.hit_dice)
        assert len(v.save_results) == v.hits
        assert v.save_results.count("wound") == v.wounds and v.save_results.count("shield") == v.shields_lost
        for face, needed, result in zip(v.save_dice, v.save_needed, v.save_results):
            if face:
                assert save_passes(face, needed) == (result == "saved")


# --- close combat, Morale, Withdrawal and hits allocated by hand (issue 24 §3) --------------------------------------


@pytest.mark.parametrize(("a", "b"), [
    (FightSide(caf=1), FightSide(caf=0)),
    (FightSide(caf=2, charged=True), FightSide(caf=3, fight_number=2)),
    (FightSide(caf=0, modifier=-1, fight_number=3), FightSide(caf=1, extra_dice=1)),
])
def test_LI_FIGHT_2_5_fight_dice_behind_a_winner_keep_the_fight_odds_exactly(a: FightSide, b: FightSide) -> None:
    """Every fight die rolled (2D6, one more for each earlier fight of the opponent, LI-FIGHT-4), CAF and +1 for a
    charge added (LI-FIGHT-3), the higher total winning (LI-FIGHT-5), is the fight rule's winner with its dice drawn
    after it."""
    question = FightQuestion(a, b)
    drawn = faces_dist(lambda draw: (
        (o := draw(fight(question))).winner, (s := fight_faces(question, o, draw)).a_dice, s.b_dice, s.a_bonus, s.b_bonus
    ))
    a_bonus, b_bonus = a.caf + a.modifier + a.charged, b.caf + b.modifier + b.charged
    a_n, b_n = 2 + b.fight_number - 1 + a.extra_dice, 2 + a.fight_number - 1 + b.extra_dice
    found: dict[Any, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=a_n + b_n):
        x, y = sum(faces[:a_n]) + a_bonus, sum(faces[a_n:]) + b_bonus
        key = ("draw" if x == y else "a" if x > y else "b", faces[:a_n], faces[a_n:], a_bonus, b_bonus)
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 6 ** (a_n + b_n))
    assert drawn == Dist.from_probabilities(found)


@pytest.mark.parametrize("question", [
    MoraleCheckQuestion(morale=4),
    MoraleCheckQuestion(morale=3, trigger="combat", broken=True, roll_modifier=1),
    MoraleCheckQuestion(morale=5, broken=True),
    MoraleCheckQuestion(morale=4, earlier_check_this_phase="passed"),
])
def test_LI_MORALE_3_4_morale_dice_keep_the_check_odds_exactly(question: MoraleCheckQuestion) -> None:
    """One D6 (two keeping the lower for a Broken Formation's combat check, LI-RESULT-6), −1 when Broken, other
    modifiers, against the Morale; a check settled without dice shows none (LI-MORALE-7)."""
    drawn = faces_dist(lambda draw: ((o := draw(morale_check(question))).result, morale_faces(question, o, draw)))
    if question.earlier_check_this_phase != "none":
        assert drawn == Dist.always(("auto_pass", None))
        return
    assert question.morale is not None
    n = 2 if question.trigger == "combat" and question.broken else 1
    modifier = question.roll_modifier - question.broken
    found: dict[Any, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        key = ("pass" if min(faces) + modifier >= question.morale else "fail", MoraleShown(faces, modifier, question.morale))
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 6**n)
    assert drawn == Dist.from_probabilities(found)


@pytest.mark.parametrize("question", [
    WithdrawalSaveQuestion(scale=1, wounds_remaining=1, save=4, passed_through_scales=(1, 1)),
    WithdrawalSaveQuestion(scale=2, wounds_remaining=2, save=5, passed_through_scales=(1, 2, 2)),
    WithdrawalSaveQuestion(scale=4, wounds_remaining=3, save=3, passed_through_scales=(1, 2, 1, 3)),
])
def test_LI_WD_4_5_withdrawal_save_dice_keep_the_odds_exactly(question: WithdrawalSaveQuestion) -> None:
    """One save die per enemy Detachment moved through, in order, none where a much bigger model passes
    automatically (LI-WD-5), none after the failure that destroys the model (LI-WD-4)."""
    drawn = faces_dist(lambda draw: (
        (o := draw(withdrawal_save(question))).wounds_lost, o.destroyed, withdrawal_save_faces(question, o, draw)
    ))
    rolls = sum(question.scale < t + 3 for t in question.passed_through_scales)
    found: dict[Any, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=rolls):
        shown, lost = [], 0
        for face in faces:
            if lost == question.wounds_remaining:
                break
            shown.append(face)
            lost += face < question.save
        key = (lost, lost == question.wounds_remaining, tuple(shown))
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 6**rolls)
    assert drawn == Dist.from_probabilities(found)


def test_LI_HIT_1_hit_dice_rolled_before_hits_are_allocated_by_hand_keep_the_pool_odds() -> None:
    """A volley whose hits are allocated one at a time rolls its hit dice first: drawn after the count of hits, they
    are every die rolled (a natural 6 hits, a natural 1 misses, LI-HIT-2)."""
    question = FireQuestion(3, 4, -1, Attack(), (TROOPER,), (True,))
    drawn = faces_dist(lambda draw: (
        (o := draw(hit_pool(3, to_hit=4, modifier=-1).map(Rolled))).value, hit_roll_faces(question, o, draw)
    ))
    found: dict[Any, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        key = (sum(hit_roll_hits(f, to_hit=4, modifier=-1) for f in faces), faces)
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 216)
    assert drawn == Dist.from_probabilities(found)


def test_LI_FIGHT_LI_MORALE_LI_WD_narration_shows_the_dice_in_english_and_japanese() -> None:
    fought = ev.FightRolled(
        attacker="knight-1", defender="ork-3", attacker_dice=2, defender_dice=3, winner="knight-1",
        attacker_faces=(5, 3), defender_faces=(1, 2, 2), attacker_bonus=3, defender_bonus=1,
    )
    assert text.narrate(fought, "en").endswith("winner: knight-1. (knight-1 5 3 +3 = 11; ork-3 1 2 2 +1 = 6)")
    assert text.narrate(fought, "ja").endswith("（knight-1 5 3 +3 = 11、ork-3 1 2 2 +1 = 6）")
    checked = ev.MoraleChecked(detachment="orks", trigger="combat", result="fail", dice=(2, 5), modifier=-1, morale=3)
    assert text.narrate(checked, "en").endswith("(D6 2 5 (lower kept) -1 = 1 vs Morale 3+)")
    assert text.narrate(checked, "ja").endswith("（D6 2 5（低い方を採用） -1 = 1（士気 3+））")
    moved = ev.WithdrawalMove(model="ork-1", x=1.0, y=2.0, through="knights, guns", wounds_lost=1, save_dice=(2, 6), save_needed=5)
    assert text.narrate(moved, "en").endswith("Wounds lost: 1. (saves 2 6 vs 5+)")
    assert text.narrate(moved, "ja").endswith("（セーブ 2 6（5+））")


def test_LI_FIGHT_LI_MORALE_a_battles_fights_and_checks_carry_dice_that_make_their_results() -> None:
    path = ROOT / "examples" / "legions" / "hold-the-line.toml"
    events = [e for seed in (1, 2, 3) for e in play_battle(ruleset_for(str(path), None), read_scenario(str(path)), str(path), seed).events]
    fights = [e for e in events if isinstance(e, ev.FightRolled)]
    checks = [e for e in events if isinstance(e, ev.MoraleChecked) and e.result in ("pass", "fail")]
    assert fights and checks
    for f in fights:
        a, b = sum(f.attacker_faces) + f.attacker_bonus, sum(f.defender_faces) + f.defender_bonus
        assert (len(f.attacker_faces), len(f.defender_faces)) == (f.attacker_dice, f.defender_dice)
        assert f.winner == ("draw" if a == b else f.attacker if a > b else f.defender)
    for c in checks:
        assert (min(c.dice) + c.modifier >= c.morale) == (c.result == "pass")
