"""legions' dice shown (issue 24 §3): the hit dice and each hit's save behind a volley keep the fire and resolve_hits
rules' exact odds (checked against every die rolled, with R played hit by hit), and the battle report shows them per
model in English and Japanese."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kessen.dice import Dist
from kessen.dice.faces import faces_dist
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions import text
from kessen.rulesets.legions.rules.allocation import allocation_indices
from kessen.rulesets.legions.rules.faces import SaveShown
from kessen.rulesets.legions.rules.firing import FireQuestion, HitsQuestion, fire, fire_faces, resolve_faces, resolve_hits
from kessen.rulesets.legions.rules.hit_rolls import hit_roll_hits
from kessen.rulesets.legions.rules.saves import Attack, TargetProfile, save_passes, save_target, shield_ap
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
