"""battlehost's dice shown (issue 24 §3): the faces behind a shot, strikes and a duel roll keep the rules' exact odds
(checked against every natural die rolled), and the battle report shows them with the score each needed."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kessen.core.events import to_json_line
from kessen.dice import Dist
from kessen.dice.faces import faces_dist
from kessen.match import Match
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost import text
from kessen.rulesets.battlehost.rules.dice import FACES, score
from kessen.rulesets.battlehost.rules.duel import Duellist, duel_die_modifier, side_best_dist, side_faces
from kessen.rulesets.battlehost.rules.shooting import Shot, ShootOutcome, hit_die_scores, hit_roll_needed, shoot, shot_faces
from kessen.rulesets.battlehost.rules.strikes import Strikes, StrikesOutcome, rolls_per_strike, strikes, strikes_faces
from kessen.rulesets.battlehost.rules.wounding import to_wound_modifier, wound_chart, wound_dice, wound_die_scores
from kessen.sim.play import play_battle
from kessen.io.scenarios import read_scenario, ruleset_for

ROOT = Path(__file__).resolve().parents[3]
LINE_FIGHT = ROOT / "examples" / "battlehost" / "line-fight.toml"


def wound_rolls(strength: int, defence: int, modifier: int) -> list[tuple[tuple[int, ...], bool, Fraction]]:
    """Every To Wound roll with its natural dice, whether it wounds and its chance, rolled die by die (BH-WOUND-1..3)."""
    needs = wound_dice(wound_chart(strength, defence))
    found = []
    for first in FACES:
        passed = wound_die_scores(first, needed=needs[0], modifier=modifier)
        if len(needs) == 1 or not passed:
            found.append(((first,), passed and len(needs) == 1, Fraction(1, 6)))
            continue
        for second in FACES:
            found.append(((first, second), wound_die_scores(second, needed=needs[1], modifier=modifier), Fraction(1, 36)))
    return found


def brute_shot(shot: Shot) -> Dist[Any]:
    """(outcome, natural dice) of one shot, every die rolled (BH-SHOOT-5..9)."""
    found: dict[Any, Fraction] = {}
    needed = hit_roll_needed(shot.shoot_value, moved=shot.moved)
    for hit in FACES:
        if not hit_die_scores(hit, needed=needed):
            found[(ShootOutcome(False, False, False), (hit,))] = Fraction(1, 6)
            continue
        for faces, wounded, p in wound_rolls(shot.strength, shot.defence, 0):
            key = (ShootOutcome(True, wounded, wounded and shot.wounds == 1), (hit, *faces))
            found[key] = found.get(key, Fraction(0)) + p / 6
    return Dist.from_probabilities(found)


@pytest.mark.parametrize("shot", [Shot(4, 3, 5), Shot(5, 2, 8, moved=True, wounds=2), Shot(6, 2, 9, moved=True), Shot(3, 2, 10)])
def test_BH_SHOOT_5_to_9_shot_faces_keep_the_shot_odds_exactly(shot: Shot) -> None:
    """The result drawn from the shoot rule, then its faces, is exactly every die rolled one by one (6/N charts too)."""
    drawn = faces_dist(lambda draw: ((o := draw(shoot(shot))), shot_faces(shot, o, draw)))
    assert drawn == brute_shot(shot)


def brute_strikes(attack: Strikes) -> Dist[Any]:
    """(outcome, each roll's natural dice) of strikes at one target, every roll rolled (BH-STRIKE-2..6)."""
    rolls = attack.strikes * rolls_per_strike(trapped=attack.trapped, prone=attack.prone)
    one = wound_rolls(attack.strength, attack.defence, to_wound_modifier(two_handed=attack.two_handed))
    found: dict[Any, Fraction] = {}
    for combo in itertools.product(one, repeat=rolls):
        hits = sum(wounded for _, wounded, _ in combo)
        key = (StrikesOutcome(min(hits, attack.wounds), hits >= attack.wounds), tuple(faces for faces, _, _ in combo))
        p = Fraction(1)
        for _, _, q in combo:
            p *= q
        found[key] = found.get(key, Fraction(0)) + p
    return Dist.from_probabilities(found)


@pytest.mark.parametrize(
    "attack",
    [Strikes(2, 3, 4, wounds=1), Strikes(1, 3, 4, wounds=2, trapped=True, two_handed=True), Strikes(2, 2, 8, wounds=1), Strikes(3, 4, 4, wounds=2)],
)
def test_BH_STRIKE_2_to_6_strike_faces_keep_the_strikes_odds_exactly(attack: Strikes) -> None:
    """Wounds, slain and each To Wound roll's dice: the strikes rule's result, then its faces, is every roll rolled."""
    drawn = faces_dist(lambda draw: ((o := draw(strikes(attack))), strikes_faces(attack, o, draw)))
    assert drawn == brute_strikes(attack)


@pytest.mark.parametrize(
    "models",
    [(Duellist(4, 2),), (Duellist(4, 1, two_handed=True), Duellist(3, 2)), (Duellist(5, 3, duel_modifier=1),)],
)
def test_BH_DUEL_1_to_4_duel_faces_keep_the_side_best_odds_exactly(models: tuple[Duellist, ...]) -> None:
    """A side's best score, then each model's natural dice given it, is every duel die rolled (modifiers included)."""
    modifiers = [duel_die_modifier(two_handed=m.two_handed, duel_modifier=m.duel_modifier) for m in models]
    found: dict[Any, Fraction] = {}
    for faces in itertools.product(FACES, repeat=sum(m.attacks for m in models)):
        grouped, start, best = [], 0, 0
        for m, k in zip(models, modifiers):
            dice = faces[start : start + m.attacks]
            grouped.append(dice)
            best = max(best, *(score(f, k) for f in dice))
            start += m.attacks
        key = (best, tuple(grouped))
        found[key] = found.get(key, Fraction(0)) + Fraction(1, 6 ** len(faces))
    drawn = faces_dist(lambda draw: ((b := draw(side_best_dist(models))), side_faces(models, b, draw)))
    assert drawn == Dist.from_probabilities(found)


def test_BH_PROC_2_odds_show_no_dice_field() -> None:
    """The odds of a shot are the same outcome objects as before: the dice are no part of the odds."""
    import kessen

    result = kessen.odds("battlehost", "shoot", {"shoot_value": 4, "strength": 3, "defence": 5})
    assert all(set(o["outcome"]) == {"hit", "wounded", "slain"} for o in result.to_json_dict()["outcomes"])


def test_BH_SHOOT_narration_shows_the_hit_and_wound_dice_in_english_and_japanese() -> None:
    shot = ev.Shot(model="Archer 1", target="Orc 2", hit=True, wounded=True, hit_needed=4, wound_needed="6/4", dice=(5, 6, 4))
    assert text.narrate(shot, "en") == "Archer 1 shoots at Orc 2: hit, wounded. (hit roll 5, needs 4+; To Wound 6→4, needs 6/4)"
    assert text.narrate(shot, "ja") == "Archer 1がOrc 2に射撃攻撃: ヒット、負傷。 （命中ロール 5(4以上で成功)、負傷ロール 6→4(必要な値 6/4)）"
    missed = ev.Shot(model="Archer 1", target="Orc 2", hit=False, wounded=False, hit_needed=5, wound_needed="5", dice=(2,))
    assert text.narrate(missed, "en") == "Archer 1 shoots at Orc 2: miss. (hit roll 2, needs 5+)"


def test_BH_STRIKE_and_DUEL_narration_shows_every_die_and_modifier() -> None:
    struck = ev.Struck(model="Orc 1", target="Guard 2", strikes=2, wounds=1, wound_needed="5", modifier=1, dice=((5,), (2,)))
    assert text.narrate(struck, "en") == "Orc 1 strikes Guard 2 twice: 1 wound. (To Wound 5 2, needs 5+; +1 to each die)"
    duel = ev.DuelRolled(
        good_best=5, evil_best=5, good_models=("Captain", "Guard 1"), good_dice=((5, 3), (2,)), good_modifiers=(0, 0),
        evil_models=("Orc 1",), evil_dice=((6,),), evil_modifiers=(-1,),
    )
    assert text.narrate(duel, "en") == "Duel roll: Good's best 5, Evil's best 5. (Good: Captain 5 3, Guard 1 2 | Evil: Orc 1 6−1)"
    assert text.narrate(duel, "ja").endswith("（グッド: Captain 5 3、Guard 1 2 | イーヴィル: Orc 1 6−1）")


def test_BH_battle_events_carry_dice_that_make_their_results() -> None:
    """In a whole battle each shot's hit die agrees with its result and the score it needed (BH-SHOOT-5, BH-SHOOT-7)."""
    played = play_battle(ruleset_for(str(LINE_FIGHT), None), read_scenario(str(LINE_FIGHT)), str(LINE_FIGHT), 1)
    shots = [e for e in played.events if isinstance(e, ev.Shot) and e.dice]
    assert shots
    for shot in shots:
        assert shot.hit == (shot.dice[0] == 6 or shot.dice[0] >= shot.hit_needed)
        assert (len(shot.dice) > 1) == shot.hit
    duels = [e for e in played.events if isinstance(e, ev.DuelRolled)]
    assert duels and all(e.good_dice and max(max(d) for d in e.good_dice) >= e.good_best for e in duels)


def test_BH_saved_match_replays_with_the_same_dice() -> None:
    """A save records results only; loading it draws the same faces again from the same dice stream."""
    match = Match.open(LINE_FIGHT, seed=4)
    match.run()
    loaded = Match.loads(json.loads(match.dumps()), "saved")
    assert [to_json_line(e) for e in loaded.events] == [to_json_line(e) for e in match.events]
    assert any(isinstance(e, ev.Shot) and e.dice for e in loaded.events)
    assert '"dice"' not in match.dumps()
