"""song-of-blades odds procedures: the worked examples of §7 and one test per rule they implement.

Numbers are exact fractions, from the spec's worked examples (cited EX-n) or from a hand count
written in the comment. Hand counts use X = attacker's die − defender's die, whose law on two
fair d6 is P(X = k) = (6 − |k|)/36; so P(X ≥ 0) = 21/36, P(X ≥ 1) = 15/36, P(X ≥ 2) = 10/36,
P(X ≥ 3) = 6/36, P(X ≥ −1) = 26/36, P(X ≥ −2) = 30/36.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

import kessen
from kessen import InputError
from kessen.rulesets.song_of_blades.rules.melee import Melee, combat_roll, melee_dice
from kessen.rulesets.song_of_blades.rules.melee import melee as melee_dist
from kessen.rulesets.song_of_blades.rules.quality import ActivationDice, ActivationOutcome, activation, activation_dice, morale, morale_dice

SB = "song-of-blades"


def odds(procedure: str, data: dict[str, Any]) -> kessen.OddsResult:
    result = kessen.odds(SB, procedure, data)
    assert sum(p for _, p in result.outcomes) == 1
    return result


def table(result: kessen.OddsResult) -> dict[tuple[Any, ...], F]:
    """The full distribution as {outcome values in field order: probability}."""
    return {tuple(o.values()): p for o, p in result.outcomes}


def melee(**fields: Any) -> kessen.OddsResult:
    return odds("melee", fields)


def disengage(**fields: Any) -> kessen.OddsResult:
    return odds("disengage", fields)


def winners(result: kessen.OddsResult) -> dict[str, F]:
    return {side: result.probability(winner=side) for side in ("attacker", "defender", "none")}


def bad(procedure: str, data: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as caught:
        kessen.odds(SB, procedure, data)
    return caught.value


EVEN = {"attacker": F(5, 12), "defender": F(5, 12), "none": F(1, 6)}  # C3 against C3 (EX-1)


# --- §7 worked examples ----------------------------------------------------------------------


def test_sb_ex_1_even_fight_sb_melee_4_sb_melee_6() -> None:
    """EX-1: C3 against C3; the defender hurts the attacker as often as the reverse (SB-MELEE-4)."""
    assert table(melee(attacker_combat=3, defender_combat=3)) == {
        ("none", "nothing", "none"): F(1, 6),
        ("attacker", "fall", "defender"): F(2, 9),
        ("attacker", "recoil", "defender"): F(5, 36),
        ("attacker", "kill", "defender"): F(1, 18),
        ("defender", "fall", "attacker"): F(2, 9),
        ("defender", "recoil", "attacker"): F(5, 36),
        ("defender", "kill", "attacker"): F(1, 18),
    }


def test_sb_ex_2_fallen_defender_sb_mod_1_sb_down_4() -> None:
    """EX-2: attacking a fallen model: +2 and lethal, but the fallen defender can still win."""
    r = melee(attacker_combat=4, defender_combat=2, defender_state="fallen")
    assert r.probability(result="kill", affected="defender") == F(7, 9)
    assert r.probability(result="gruesome_kill", affected="defender") == F(5, 36)
    assert r.probability(affected="attacker") == F(1, 36)
    assert r.probability(result="nothing") == F(1, 18)
    assert table(r)[("defender", "fall", "attacker")] == F(1, 36)  # 8–7 with a 6: the attacker falls


def test_sb_ex_3_transfixed_defender_rolls_defensively_sb_down_6() -> None:
    """EX-3: a transfixed defender's win hurts no one; the attacker gets +2 and a lethal win."""
    r = melee(attacker_combat=3, defender_combat=5, defender_state="transfixed", attacker_transfixed_in_contact=1)
    assert table(r) == {
        ("attacker", "kill", "defender"): F(5, 12),
        ("defender", "nothing", "none"): F(5, 12),
        ("none", "nothing", "none"): F(1, 6),
    }
    assert r.probability(affected="attacker") == 0


def test_sb_ex_4_power_blow_sb_mod_2() -> None:
    """EX-4: a power blow gives the defender −1; 9 against 3 is exactly triple (SB-MELEE-8)."""
    r = melee(attacker_combat=3, defender_combat=3, power_blow=True)
    assert r.probability(winner="attacker") == F(7, 12)
    assert r.probability(result="kill", affected="defender") == F(5, 36)
    assert r.probability(result="gruesome_kill", affected="defender") == F(1, 36)
    assert r.probability(affected="attacker") == F(5, 18)


def test_sb_ex_5_outnumbering_with_a_transfixed_enemy_sb_out_1_sb_out_2() -> None:
    """EX-5: 4 enemies in contact, one transfixed: the defender is at −2, not −3."""
    r = melee(attacker_combat=3, defender_combat=3, defender_enemies_in_contact=4, defender_transfixed_in_contact=1)
    assert r.probability(winner="attacker") == F(13, 18)
    assert r.probability(result="kill", affected="defender") == F(7, 36)
    assert r.probability(result="gruesome_kill", affected="defender") == F(5, 36)
    assert r.probability(result="nothing") == F(1, 9)


def test_sb_ex_6_free_hack_defensive_victim_sb_dis_3() -> None:
    """EX-6: the victim of a free hack rolls defensively: its win has no effect."""
    assert table(melee(attacker_combat=2, defender_combat=4, free_hack=True)) == {
        ("defender", "nothing", "none"): F(13, 18),
        ("none", "nothing", "none"): F(1, 9),
        ("attacker", "fall", "defender"): F(1, 9),
        ("attacker", "recoil", "defender"): F(1, 18),
    }


def test_sb_ex_7_a_fallen_model_attacks_sb_mod_7() -> None:
    """EX-7: a fallen attacker: the defender gets +2 and its win is lethal."""
    r = melee(attacker_combat=4, defender_combat=2, attacker_state="fallen")
    assert r.probability(winner="attacker") == F(5, 12)
    assert r.probability(result="kill", affected="attacker") == F(5, 12)
    assert r.probability(result="gruesome_kill", affected="attacker") == 0
    assert r.probability(result="nothing") == F(1, 6)
    assert r.probability(result="fall", affected="defender") == F(2, 9)
    assert r.probability(result="recoil", affected="defender") == F(1, 6)
    assert r.probability(result="kill", affected="defender") == F(1, 36)


def test_sb_ex_8_stacked_attacker_bonuses_sb_mod_3_sb_mod_4_sb_mod_6() -> None:
    """EX-8: ambush, mounted against foot and bigger: +3 together."""
    r = melee(attacker_combat=3, defender_combat=3, ambush=True, attacker_mounted=True, attacker_size="big")
    assert r.probability(winner="attacker") == F(5, 6)
    assert r.probability(result="kill", affected="defender") == F(2, 9)
    assert r.probability(result="gruesome_kill", affected="defender") == F(1, 36)
    assert r.probability(affected="attacker") == F(1, 12)


def test_sb_ex_9_no_room_to_recoil_sb_recoil_5() -> None:
    """EX-9: a defender with no legal recoil falls instead; the attacker can still recoil."""
    r = melee(attacker_combat=3, defender_combat=2, defender_can_recoil=False)
    assert r.probability(result="fall", affected="defender") == F(5, 12)
    assert r.probability(result="recoil") == F(1, 9)
    assert r.probability(result="recoil", affected="defender") == 0
    assert r.probability(result="kill", affected="defender") == F(5, 36)


def test_sb_ex_10_disengaging_from_two_sb_dis_2_sb_dis_6_sb_dis_8() -> None:
    """EX-10: two C3 enemies hack a C3 model at −1 in order, stopping at the first effect."""
    r = disengage(combat=3, enemies=[{"combat": 3}, {"combat": 3}])
    assert table(r) == {
        ("disengaged", 2, 0): F(25, 144),
        ("fall", 1, 1): F(1, 4),
        ("recoil", 1, 1): F(1, 6),
        ("kill", 1, 1): F(5, 36),
        ("gruesome_kill", 1, 1): F(1, 36),
        ("fall", 2, 2): F(5, 48),
        ("recoil", 2, 2): F(5, 72),
        ("kill", 2, 2): F(25, 432),
        ("gruesome_kill", 2, 2): F(5, 432),
    }
    assert r.probability(by=1) == F(7, 12)
    assert r.probability(by=2) == F(35, 144)
    assert r.probability(result="kill") == F(85, 432)
    assert r.probability(result="recoil") == F(17, 72)
    assert r.probability(free_hacks=2) == F(5, 12)


def test_sb_ex_11_seed_cavalry_example_sb_dis_4() -> None:
    """EX-11: mounted leaving foot and mounted: only the mounted enemy hacks; the foot one still counts."""
    r = disengage(combat=3, mounted=True, enemies=[{"combat": 4}, {"combat": 3, "mounted": True}])
    assert r.probability(result="disengaged") == F(5, 12)
    assert r.probability(by=1) == 0
    assert r.probability(by=2, result="kill") == F(5, 36)
    assert r.probability(free_hacks=1) == 1


def test_sb_ex_12_fleeing_after_a_failed_morale_test_sb_dis_7() -> None:
    """EX-12: lethal hacks from the standing enemy only; the fallen one counts for outnumbering."""
    r = disengage(combat=2, failed_morale=True, enemies=[{"combat": 3}, {"combat": 2, "state": "fallen"}])
    assert r.probability(result="disengaged") == F(5, 18)
    assert r.probability(result="kill") == F(7, 12)
    assert r.probability(result="gruesome_kill") == F(5, 36)
    assert r.probability(result="fall") == 0


def test_sb_ex_13_activation_sb_act_1_sb_act_2() -> None:
    """EX-13: three dice at Quality 4."""
    r = odds("activation", {"quality": 4, "dice": 3})
    assert r.probability(actions=3) == F(1, 8)
    assert r.probability(actions=2) == F(3, 8)
    assert r.probability(turnover=True) == F(1, 2)
    assert r.probability(actions=1, turnover=True) == F(3, 8)


def test_sb_ex_14_morale_sb_mor_2() -> None:
    """EX-14: a morale test at Quality 3."""
    r = odds("morale", {"quality": 3})
    assert r.probability(result="stands") == F(8, 27)
    assert r.probability(result="flees") == F(2, 3)
    assert r.probability(flee_moves=2) == F(2, 9)
    assert r.probability(result="destroyed") == F(1, 27)


def test_sb_ex_15_melee_priority_sb_prio_3() -> None:
    """EX-15: 30 ≤ 60 lets the 60-point fallen enemy be chosen; 30 > 25 does not."""
    r = odds(
        "melee_targets",
        {"melee_priority": True, "enemies": [{"points": 30}, {"state": "fallen", "points": 60}, {"state": "fallen", "points": 25}]},
    )
    assert table(r) == {(True, True, False): 1}


@pytest.mark.parametrize(
    ("procedure", "data", "field"),
    [
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "free_hack": True, "ambush": True}, "ambush"),
        ("activation", {"dice": 2}, "quality"),
        ("melee", {"attacker_combat": 3.0, "defender_combat": 3}, "attacker_combat"),
    ],
    ids=["ambush on a free hack", "missing quality", "float combat"],
)
def test_sb_ex_16_bad_input(procedure: str, data: dict[str, Any], field: str) -> None:
    """EX-16: each is rejected, naming the field."""
    assert bad(procedure, data).field == field


# --- §4.2 melee combat ---------------------------------------------------------------------


def test_sb_melee_3_score_is_die_plus_combat() -> None:
    """SB-MELEE-3: score = d6 + Combat + modifiers. C4 against C2: the attacker wins when X ≥ −1
    (26/36), ties when X = −2 (4/36), loses when X ≤ −3 (6/36)."""
    assert winners(melee(attacker_combat=4, defender_combat=2)) == {
        "attacker": F(13, 18), "none": F(1, 9), "defender": F(1, 6)
    }


def test_sb_melee_3_sb_melee_8_scores_are_never_clamped() -> None:
    """SB-MELEE-3: a score may be 0 or negative and is never clamped. Both C0 and both at −7
    (8 enemies in contact each): scores −6…−1. Clamped at 0 every roll would tie; unclamped they tie
    only on equal dice (1/6), and every win is over a score ≤ 0, so a gruesome kill (SB-MELEE-8)."""
    r = melee(attacker_combat=0, defender_combat=0, attacker_enemies_in_contact=8, defender_enemies_in_contact=8)
    assert table(r) == {
        ("none", "nothing", "none"): F(1, 6),
        ("attacker", "gruesome_kill", "defender"): F(5, 12),
        ("defender", "gruesome_kill", "attacker"): F(5, 12),
    }


def test_sb_melee_4_the_defender_can_win_and_hurt_the_attacker() -> None:
    """SB-MELEE-4: whoever attacked, the higher score wins and the loser suffers the result."""
    r = melee(attacker_combat=1, defender_combat=5)
    # D > A ⇔ dd + 5 > da + 1 ⇔ X ≤ 3: 1 − P(X ≥ 4) = 1 − 3/36 = 33/36
    assert r.probability(winner="defender", affected="attacker") == F(33, 36)
    assert r.probability(winner="defender", result="nothing") == 0


def test_sb_melee_4_result_nothing_exactly_when_no_one_is_affected() -> None:
    """SB-MELEE-4/§6.1 invariant: result nothing ⇔ affected none, for ordinary and defensive rolls."""
    for data in (
        {"attacker_combat": 3, "defender_combat": 3},
        {"attacker_combat": 2, "defender_combat": 4, "free_hack": True},
        {"attacker_combat": 3, "defender_combat": 5, "defender_state": "transfixed", "attacker_transfixed_in_contact": 1},
    ):
        for outcome, _ in odds("melee", data).outcomes:
            assert (outcome["result"] == "nothing") == (outcome["affected"] == "none")
            if outcome["winner"] == "none":
                assert outcome["result"] == "nothing"


def test_sb_melee_5_equal_scores_tie() -> None:
    """SB-MELEE-5: equal scores, nothing happens. C3 against C4 ties when X = 1: 5/36."""
    r = melee(attacker_combat=3, defender_combat=4)
    assert table(r)[("none", "nothing", "none")] == F(5, 36)
    assert r.probability(winner="none") == F(5, 36)


@pytest.mark.parametrize(
    ("da", "dd", "expected"),
    [
        (6, 1, "kill"),  # 9 against 4: ≥ double, < triple
        (5, 1, "kill"),  # 8 against 4: exactly double counts (SB-MELEE-8)
        (4, 1, "fall"),  # 7 against 4, even die
        (3, 1, "recoil"),  # 6 against 4, odd die
        (6, 5, "fall"),  # 9 against 8, even die
        (5, 4, "recoil"),  # 8 against 7, odd die
    ],
)
def test_sb_melee_6_result_ladder_for_c3_against_c3(da: int, dd: int, expected: str) -> None:
    """SB-MELEE-6: W ≥ 3L gruesome; W ≥ 2L kill; else even winner's die fall, odd recoil."""
    outcome = combat_roll(Melee(attacker_combat=3, defender_combat=3), da, dd)
    assert (outcome.winner, outcome.result, outcome.affected) == ("attacker", expected, "defender")


def test_sb_melee_6_sb_melee_8_exactly_triple_is_gruesome() -> None:
    """SB-MELEE-6/8: C6 against C0: 9 against 3 (exactly triple) is a gruesome kill; 8 against 3 a kill."""
    m = Melee(attacker_combat=6, defender_combat=0)
    assert combat_roll(m, 3, 3).result == "gruesome_kill"
    assert combat_roll(m, 2, 3).result == "kill"  # 8 ≥ 6
    # Whole distribution (A = da + 6 always beats D = dd): gruesome A ≥ 3D: D=1,2 every da (12),
    # D=3 da ≥ 3 (4), D=4 da = 6 (1): 17/36. Kill 2D ≤ A < 3D: D=3 da ≤ 2 (2), D=4 2 ≤ da ≤ 5 (4),
    # D=5 da ≥ 4 (3), D=6 da = 6 (1): 10/36.
    r = melee(attacker_combat=6, defender_combat=0)
    assert r.probability(result="gruesome_kill") == F(17, 36)
    assert r.probability(result="kill") == F(5, 18)


def test_sb_melee_6_the_winners_die_decides_fall_or_recoil_for_the_defender_too() -> None:
    """SB-MELEE-6: when the defender wins, its own natural die's parity decides fall or recoil."""
    m = Melee(attacker_combat=3, defender_combat=3)
    assert combat_roll(m, 1, 4).result == "fall"  # the defender's 7 against 4: not double, its die 4 even
    assert combat_roll(m, 1, 3).result == "recoil"  # 6 against 4, odd 3
    assert combat_roll(m, 1, 3).affected == "attacker"


def test_sb_melee_8_minus_one_beats_minus_two_gruesome() -> None:
    """SB-MELEE-8: −1 beats −2: a gruesome kill (any win over a score ≤ 0)."""
    m = Melee(attacker_combat=0, defender_combat=0, attacker_enemies_in_contact=8, defender_enemies_in_contact=8)
    outcome = combat_roll(m, 6, 5)  # −1 against −2
    assert (outcome.winner, outcome.result) == ("attacker", "gruesome_kill")


def test_sb_melee_8_win_over_zero_is_gruesome() -> None:
    """SB-MELEE-8: C0 against C0 with the defender at −6 (7 enemies): D = dd − 6 ≤ 0 < 1 ≤ A = da, so
    the attacker always wins, and every win over a score ≤ 0 is gruesome."""
    r = melee(attacker_combat=0, defender_combat=0, defender_enemies_in_contact=7)
    assert table(r) == {("attacker", "gruesome_kill", "defender"): F(1)}


def test_sb_melee_9_no_natural_roll_overrides() -> None:
    """SB-MELEE-9: a natural 6 does not win a hopeless roll, a natural 1 does not lose a sure one."""
    assert winners(melee(attacker_combat=0, defender_combat=12))["defender"] == 1
    assert winners(melee(attacker_combat=12, defender_combat=0))["attacker"] == 1


def test_sb_melee_10_lethal_win_kills_even_when_not_double() -> None:
    """SB-MELEE-10: C3 against C3 with lethal: every attacker win (15/36) is a kill (A ≤ 9 < 3·4, so
    never gruesome); the defender's wins are unaffected (EX-1's numbers)."""
    r = melee(attacker_combat=3, defender_combat=3, lethal=True)
    assert table(r) == {
        ("none", "nothing", "none"): F(1, 6),
        ("attacker", "kill", "defender"): F(5, 12),
        ("defender", "fall", "attacker"): F(2, 9),
        ("defender", "recoil", "attacker"): F(5, 36),
        ("defender", "kill", "attacker"): F(1, 18),
    }


def test_sb_melee_10_lethal_never_lowers_a_gruesome_kill() -> None:
    """SB-MELEE-10: C6 against C0: gruesome 17/36 with or without lethal; lethal turns the rest into kills."""
    r = melee(attacker_combat=6, defender_combat=0, lethal=True)
    assert table(r) == {
        ("attacker", "gruesome_kill", "defender"): F(17, 36),
        ("attacker", "kill", "defender"): F(19, 36),
    }


# --- §4.3 modifiers and §4.4 outnumbering --------------------------------------------------


def test_sb_mod_1_fallen_defender_gives_plus_2_and_lethal() -> None:
    """SB-MOD-1: C3 against a fallen C5: scores even (A = da + 3 + 2, D = dd + 5, both 6…11); the
    attacker's wins (15/36) are never double (A ≥ 12 impossible), so only lethality makes them kills."""
    r = melee(attacker_combat=3, defender_combat=5, defender_state="fallen")
    assert r.probability(winner="attacker") == F(5, 12)
    assert r.probability(winner="attacker", result="kill") == F(5, 12)


def test_sb_mod_2_power_blow_only_on_a_real_attack() -> None:
    """SB-MOD-2: −1 to the defender; [DECISION] a free hack cannot be a power blow."""
    assert winners(melee(attacker_combat=3, defender_combat=3, power_blow=True))["attacker"] == F(7, 12)
    assert bad("melee", {"attacker_combat": 3, "defender_combat": 3, "free_hack": True, "power_blow": True}).field == "power_blow"


def test_sb_mod_3_ambush_only_on_the_first_attack() -> None:
    """SB-MOD-3: +1 on attack 1 (attacker wins when X ≥ 0: 7/12); none on attack 2 (5/12)."""
    assert winners(melee(attacker_combat=3, defender_combat=3, ambush=True))["attacker"] == F(7, 12)
    assert winners(melee(attacker_combat=3, defender_combat=3, ambush=True, attack_number=2)) == EVEN


def test_sb_mod_4_mounted_attacker_against_foot_only() -> None:
    """SB-MOD-4: +1 to a mounted attacker of an unmounted model; nothing when both are mounted or
    only the defender is."""
    assert winners(melee(attacker_combat=3, defender_combat=3, attacker_mounted=True))["attacker"] == F(7, 12)
    assert winners(melee(attacker_combat=3, defender_combat=3, attacker_mounted=True, defender_mounted=True)) == EVEN
    assert winners(melee(attacker_combat=3, defender_combat=3, defender_mounted=True)) == EVEN


def test_sb_mod_5_obstacle_for_the_defender() -> None:
    """SB-MOD-5a: defender behind an obstacle +1: the attacker wins when X ≥ 2 (10/36), the
    defender when X ≤ 0 (21/36)."""
    assert winners(melee(attacker_combat=3, defender_combat=3, defender_obstacle=True)) == {
        "attacker": F(5, 18), "defender": F(7, 12), "none": F(5, 36)
    }


def test_sb_mod_5_high_ground_for_the_attacker() -> None:
    """SB-MOD-5b: attacker on higher ground +1: wins when X ≥ 0 (7/12)."""
    assert winners(melee(attacker_combat=3, defender_combat=3, attacker_high_ground=True)) == {
        "attacker": F(7, 12), "defender": F(5, 18), "none": F(5, 36)
    }


@pytest.mark.parametrize(
    ("attacker_size", "defender_size", "attacker_wins"),
    [
        ("big", "normal", F(7, 12)),
        ("gargantuan", "normal", F(7, 12)),  # +1 whatever the gap
        ("huge", "big", F(7, 12)),
        ("big", "big", F(5, 12)),
        ("normal", "huge", F(5, 12)),  # a smaller attacker gets nothing, the bigger defender nothing
    ],
)
def test_sb_mod_6_attacking_a_smaller_model(attacker_size: str, defender_size: str, attacker_wins: F) -> None:
    """SB-MOD-6: +1 to an attacker of a larger size class, attacker only."""
    r = melee(attacker_combat=3, defender_combat=3, attacker_size=attacker_size, defender_size=defender_size)
    assert r.probability(winner="attacker") == attacker_wins


def test_sb_mod_7_both_fallen_both_get_plus_2_and_lethal() -> None:
    """SB-MOD-7: if both are fallen both get +2 and both wins are lethal: C3 against C3 is even again
    (scores 6…11, never double), and every win is a kill, never a fall or recoil."""
    r = melee(attacker_combat=3, defender_combat=3, attacker_state="fallen", defender_state="fallen")
    assert table(r) == {
        ("none", "nothing", "none"): F(1, 6),
        ("attacker", "kill", "defender"): F(5, 12),
        ("defender", "kill", "attacker"): F(5, 12),
    }


@pytest.mark.parametrize(
    "irrelevant",
    [
        {"defender_mounted": True},
        {"defender_size": "gargantuan"},
        {"attack_number": 6},
        {"attacker_can_recoil": False, "defender_can_recoil": False},
        {"lethal": True},
        {"free_hack": True},
        {"attacker_transfixed_in_contact": 1, "attacker_enemies_in_contact": 2},
    ],
    ids=lambda d: ",".join(d),
)
def test_sb_mod_8_nothing_else_modifies_a_combat_roll(irrelevant: dict[str, Any]) -> None:
    """SB-MOD-8: none of these inputs changes who wins C3 against C3 (EX-1: 5/12, 5/12, 1/6).
    (One transfixed enemy beside the defender leaves the attacker at one counted enemy, SB-OUT-2.)"""
    assert winners(melee(attacker_combat=3, defender_combat=3, **irrelevant)) == EVEN


def test_sb_out_1_minus_one_per_enemy_beyond_the_first() -> None:
    """SB-OUT-1: 3 enemies on the defender (−2): the attacker wins when X ≥ −1 (13/18); the same on
    the attacker's side helps the defender; both at −2 cancel out."""
    assert winners(melee(attacker_combat=3, defender_combat=3, defender_enemies_in_contact=3))["attacker"] == F(13, 18)
    assert winners(melee(attacker_combat=3, defender_combat=3, attacker_enemies_in_contact=3))["defender"] == F(13, 18)
    both = melee(attacker_combat=3, defender_combat=3, attacker_enemies_in_contact=3, defender_enemies_in_contact=3)
    assert winners(both) == EVEN


def test_sb_out_1_every_enemy_in_contact_counts_up_to_the_side_limit() -> None:
    """SB-OUT-1 (issue 8, no silent caps): the engine asks the rules' own melee and disengage with every enemy in
    contact, up to 50 (the most models a side may field): C12 against C0 at −49 always wins, by a gruesome kill (a
    loser's score ≤ 0, SB-MELEE-8); 12 C0 hackers on a C12 model at −11 each win only by 2 or more (10/36), so it
    gets away with (26/36)**12. The odds inputs keep §6's 1–8, and refuse 9 naming the field."""
    from kessen.rulesets.song_of_blades.rules.disengaging import Disengage, HackingEnemy
    from kessen.rulesets.song_of_blades.rules.disengaging import disengage as rules_disengage
    from kessen.rulesets.song_of_blades.rules.melee import Melee
    from kessen.rulesets.song_of_blades.rules.melee import melee as rules_melee

    crowded = rules_melee(Melee(attacker_combat=12, defender_combat=0, defender_enemies_in_contact=50))
    assert crowded.probability(lambda o: o.result == "gruesome_kill") == 1
    hacked = rules_disengage(Disengage(combat=12, enemies=(HackingEnemy(combat=0),) * 12))
    assert hacked.probability(lambda o: o.result == "disengaged") == F(26, 36) ** 12
    assert bad("melee", {"attacker_combat": 3, "defender_combat": 3, "defender_enemies_in_contact": 9}).field == "defender_enemies_in_contact"
    assert bad("disengage", {"combat": 3, "enemies": [{"combat": 3}] * 9}).field == "enemies"
    assert bad("melee_targets", {"enemies": [{"points": 1}] * 9}).field == "enemies"


def test_sb_out_2_transfixed_enemies_are_not_counted() -> None:
    """SB-OUT-2: 3 enemies in contact with the attacker, 2 of them transfixed: no penalty."""
    r = melee(attacker_combat=3, defender_combat=3, attacker_enemies_in_contact=3, attacker_transfixed_in_contact=2)
    assert winners(r) == EVEN


def test_sb_out_2_fallen_enemies_are_counted_when_disengaging() -> None:
    """SB-OUT-2 [DECISION]: fallen enemies count. One standing C3 hacker and one fallen enemy: the
    leaving C3 model is at −1, so the hacker wins when X ≥ 0 (7/12), not X ≥ 1 (5/12)."""
    r = disengage(combat=3, enemies=[{"combat": 3}, {"combat": 3, "state": "fallen"}])
    assert r.probability(result="disengaged") == F(5, 12)


def test_sb_out_3_outnumbering_applies_to_the_hacker_of_a_free_hack() -> None:
    """SB-OUT-3: the hacker is in contact with 2 enemies (−1): it wins when X ≥ 2 (10/36), so the
    C3 model leaving its only enemy gets away with 26/36."""
    r = disengage(combat=3, enemies=[{"combat": 3, "enemies_in_contact": 2}])
    assert r.probability(result="disengaged") == F(13, 18)


def test_sb_out_3_outnumbering_applies_to_the_victim_of_a_free_hack() -> None:
    """SB-OUT-3: the victim's penalty in a free hack: C3 hacker on a C3 victim at −2 wins when X ≥ −1."""
    r = melee(attacker_combat=3, defender_combat=3, free_hack=True, defender_enemies_in_contact=3)
    assert r.probability(winner="attacker") == F(13, 18)


# --- §4.5 fallen and transfixed models -----------------------------------------------------


def test_sb_down_4_attack_on_a_fallen_model_is_not_a_free_hack() -> None:
    """SB-DOWN-4: a fallen defender that wins hurts the attacker (EX-2: 1/36)."""
    r = melee(attacker_combat=4, defender_combat=2, defender_state="fallen")
    assert r.probability(affected="attacker") == F(1, 36)
    assert r.probability(winner="defender", result="nothing") == 0


def test_sb_down_5_fallen_and_transfixed_enemies_make_no_free_hacks() -> None:
    """SB-DOWN-5 and SB-DIS-1: leaving only fallen and transfixed enemies is free."""
    r = disengage(combat=0, enemies=[{"combat": 12, "state": "fallen"}, {"combat": 12, "state": "transfixed"}])
    assert table(r) == {("disengaged", 0, 0): F(1)}


def test_sb_down_6_transfixed_win_is_defensive() -> None:
    """SB-DOWN-6: a transfixed C12 defender against C0 always wins, and nothing happens."""
    r = melee(attacker_combat=0, defender_combat=12, defender_state="transfixed", attacker_transfixed_in_contact=1)
    assert table(r) == {("defender", "nothing", "none"): F(1)}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"attacker_state": "transfixed"}, "attacker_state"),
        ({"free_hack": True, "attacker_state": "fallen"}, "attacker_state"),
        ({"free_hack": True, "defender_state": "fallen"}, "defender_state"),
        ({"free_hack": True, "defender_state": "transfixed", "attacker_transfixed_in_contact": 1}, "defender_state"),
    ],
)
def test_sb_down_8_free_hacks_are_standing_on_standing_and_transfixed_never_attacks(data: dict[str, Any], field: str) -> None:
    """SB-DOWN-8: a transfixed model never attacks; a free hack is made only by a standing model on a standing model."""
    assert bad("melee", {"attacker_combat": 3, "defender_combat": 3, **data}).field == field


# --- §4.6 recoil ---------------------------------------------------------------------------


def test_sb_recoil_5_an_attacker_with_no_recoil_falls_instead() -> None:
    """SB-RECOIL-5: the mirror of EX-9: the attacker (C2) has no legal recoil."""
    r = melee(attacker_combat=2, defender_combat=3, attacker_can_recoil=False)
    assert r.probability(result="fall", affected="attacker") == F(5, 12)
    assert r.probability(result="recoil", affected="attacker") == 0
    assert r.probability(result="recoil", affected="defender") == F(1, 9)


def test_sb_recoil_3_the_recoiling_model_rolls_defensively_sc_5() -> None:
    """SB-RECOIL-3: the free hack on a model that recoiled into an active enemy is the melee procedure
    with free_hack: SC-5, hacker E (C2), victim B (C3)."""
    m = Melee(attacker_combat=2, defender_combat=3, free_hack=True)
    assert combat_roll(m, 4, 1).result == "fall"  # 6 against 4, even
    assert combat_roll(m, 5, 1).result == "recoil"  # 7 against 4, odd: B recoils again
    won = combat_roll(m, 1, 5)  # B's 8 wins: defensive, nothing happens
    assert (won.winner, won.result, won.affected) == ("defender", "nothing", "none")
    assert melee(attacker_combat=2, defender_combat=3, free_hack=True).probability(affected="attacker") == 0


# --- §4.8 melee priority -------------------------------------------------------------------


def targets(enemies: list[dict[str, Any]], **fields: Any) -> tuple[bool, ...]:
    r = odds("melee_targets", {"enemies": enemies, **fields})
    [(outcome, p)] = r.outcomes
    assert p == 1
    assert list(outcome) == [f"target_{i}" for i in range(1, len(enemies) + 1)]
    return tuple(outcome.values())


def test_sb_prio_1_standing_before_fallen() -> None:
    """SB-PRIO-1: with the option on, a standing enemy must be chosen before a (cheaper) fallen one;
    [DECISION] a transfixed enemy counts as standing."""
    assert targets([{"points": 30}, {"state": "fallen", "points": 25}], melee_priority=True) == (True, False)
    assert targets([{"state": "transfixed", "points": 30}, {"state": "fallen", "points": 25}], melee_priority=True) == (True, False)


@pytest.mark.parametrize("rule", ["opportunistic", "combat_master", "assassin"])
def test_sb_prio_2_exempt_special_rules(rule: str) -> None:
    """SB-PRIO-2: Opportunistic, Combat Master and Assassin may always choose a fallen enemy."""
    assert targets([{"points": 30}, {"state": "fallen", "points": 25}], melee_priority=True, special_rules=[rule]) == (True, True)


def test_sb_prio_2_free_disengage_gives_no_exemption() -> None:
    """SB-PRIO-2 lists only three rules: Free Disengage does not exempt."""
    got = targets([{"points": 30}, {"state": "fallen", "points": 25}], melee_priority=True, special_rules=["free_disengage"])
    assert got == (True, False)


def test_sb_prio_3_each_fallen_enemy_against_the_total_of_the_standing_ones() -> None:
    """SB-PRIO-3: standing 20 + 20 = 40: a fallen 40 (≤, equal counts) may be chosen, a fallen 39 not."""
    enemies = [{"points": 20}, {"points": 20}, {"state": "fallen", "points": 40}, {"state": "fallen", "points": 39}]
    assert targets(enemies, melee_priority=True) == (True, True, True, False)


def test_sb_prio_4_all_fallen_or_option_off() -> None:
    """SB-PRIO-4: every enemy fallen, or the option off: any enemy may be chosen."""
    assert targets([{"state": "fallen", "points": 5}, {"state": "fallen", "points": 500}], melee_priority=True) == (True, True)
    assert targets([{"points": 500}, {"state": "fallen", "points": 5}]) == (True, True)


# --- §4.9 disengaging ----------------------------------------------------------------------


def test_sb_dis_1_leaving_helpless_enemies_is_free() -> None:
    """SB-DIS-1: enemies all fallen or transfixed: no free hacks (SC-13)."""
    r = disengage(combat=3, enemies=[{"combat": 5, "state": "fallen"}, {"combat": 5, "state": "transfixed"}, {"combat": 5, "state": "fallen"}])
    assert r.probability(result="disengaged", free_hacks=0) == 1


def test_sb_dis_2_each_active_enemy_makes_one_hack() -> None:
    """SB-DIS-2: three standing C0 enemies against a C12 model at −2 (D ≥ 11 > A ≤ 6): three hacks, all
    failing."""
    r = disengage(combat=12, enemies=[{"combat": 0}] * 3)
    assert table(r) == {("disengaged", 3, 0): F(1)}


def test_sb_dis_3_a_tie_lets_the_leaving_model_go_on() -> None:
    """SB-DIS-3: one C3 hacker on a C3 model: only the hacker's wins (15/36) stop it; the model's
    wins and ties (21/36) let it go."""
    r = disengage(combat=3, enemies=[{"combat": 3}])
    assert r.probability(result="disengaged") == F(7, 12)
    assert r.probability(result="fall") == F(2, 9)  # EX-1's attacker falls
    assert r.probability(result="recoil") == F(5, 36)
    assert r.probability(result="kill") == F(1, 18)


def test_sb_dis_4_free_disengage_takes_no_hacks() -> None:
    """SB-DIS-4: a model with Free Disengage leaving two standing enemies: no hacks (SC-13)."""
    r = disengage(combat=0, free_disengage=True, enemies=[{"combat": 12}, {"combat": 12}])
    assert table(r) == {("disengaged", 0, 0): F(1)}


def test_sb_dis_4_flying_leaving_non_flying_is_free_against_that_enemy_only() -> None:
    """SB-DIS-4: a flyer leaving a foot C12 and a flying C3: only the flyer hacks. Two enemies: the
    leaving C3 model is at −1, so the flyer wins when X ≥ 0 (7/12)."""
    r = disengage(combat=3, flying=True, enemies=[{"combat": 12}, {"combat": 3, "flying": True}])
    assert r.probability(by=1) == 0
    assert r.probability(free_hacks=1) == 1
    assert r.probability(result="disengaged") == F(5, 12)


def test_sb_dis_4_sb_mod_4_a_mounted_hacker_gets_plus_1_on_a_foot_victim() -> None:
    """SB-MOD-4 in a free hack: a mounted C3 hacker on a C3 foot model wins when X ≥ 0 (21/36)."""
    r = disengage(combat=3, enemies=[{"combat": 3, "mounted": True}])
    assert r.probability(result="disengaged") == F(5, 12)


def test_sb_dis_5_the_leaving_player_orders_the_hacks() -> None:
    """SB-DIS-5: leaving C3 (−1 for two): a C5 hacker wins when X ≥ −2 (5/6), a C0 one when X ≥ 3 (1/6).
    C5 first: by 1 5/6, by 2 (1/6)(1/6); C0 first: by 1 1/6, by 2 (5/6)(5/6); disengaged 5/36 either way."""
    strong_first = disengage(combat=3, enemies=[{"combat": 5}, {"combat": 0}])
    weak_first = disengage(combat=3, enemies=[{"combat": 0}, {"combat": 5}])
    assert (strong_first.probability(by=1), strong_first.probability(by=2)) == (F(5, 6), F(1, 36))
    assert (weak_first.probability(by=1), weak_first.probability(by=2)) == (F(1, 6), F(25, 36))
    assert strong_first.probability(result="disengaged") == weak_first.probability(result="disengaged") == F(5, 36)


def test_sb_dis_5_by_is_the_position_in_the_list_not_among_hackers() -> None:
    """SB-DIS-5/§6.2: `by` is the 1-based position in `enemies`; a fallen first entry does not hack."""
    r = disengage(combat=3, enemies=[{"combat": 3, "state": "fallen"}, {"combat": 3}])
    assert r.probability(by=1) == 0
    assert r.probability(free_hacks=1) == 1
    assert r.probability(by=2) == F(7, 12)  # −1 for two enemies: the hacker wins when X ≥ 0


def test_sb_dis_6_the_first_hack_with_an_effect_ends_the_sequence() -> None:
    """SB-DIS-6: a fall, recoil, kill or gruesome kill by the first hacker ends it: the second hack is
    rolled only when the first did nothing (EX-10: 5/12), and a first-hack fall is final (1/4)."""
    r = disengage(combat=3, enemies=[{"combat": 3}, {"combat": 3}])
    assert r.probability(free_hacks=2) == F(5, 12)
    assert r.probability(result="fall", by=1) == F(1, 4)
    for outcome, _ in r.outcomes:
        if outcome["result"] != "disengaged":
            assert outcome["free_hacks"] == outcome["by"]


def test_sb_dis_7_sb_mor_3_fleeing_models_suffer_lethal_hacks() -> None:
    """SB-DIS-7, SB-MOR-3: one C3 hacker on a fleeing C3 model: every win (15/36) kills (never triple)."""
    r = disengage(combat=3, failed_morale=True, enemies=[{"combat": 3}])
    assert table(r) == {("kill", 1, 1): F(5, 12), ("disengaged", 1, 0): F(7, 12)}


def test_sb_dis_8_outnumbering_stays_fixed_during_the_sequence() -> None:
    """SB-DIS-8: the second hack of EX-10 still finds the model at −1: P(by 2) = (5/12)(7/12) = 35/144
    (it would be (5/12)(5/12) = 25/144 if the penalty dropped after the first hack)."""
    r = disengage(combat=3, enemies=[{"combat": 3}, {"combat": 3}])
    assert r.probability(by=2) == F(35, 144)


def test_sb_dis_8_transfixed_enemies_do_not_count_during_the_sequence() -> None:
    """SB-DIS-8: a standing C3 and a transfixed enemy: the leaving C3 model is not outnumbered
    (hacker wins when X ≥ 1: 5/12)."""
    r = disengage(combat=3, enemies=[{"combat": 3}, {"combat": 3, "state": "transfixed"}])
    assert r.probability(result="disengaged") == F(7, 12)


# --- §4.1 activation and §4.10 morale ------------------------------------------------------


@pytest.mark.parametrize(("quality", "p"), [(2, F(5, 6)), (3, F(2, 3)), (4, F(1, 2)), (5, F(1, 3)), (6, F(1, 6))])
def test_sb_act_1_one_die_succeeds_on_quality_or_more(quality: int, p: F) -> None:
    """SB-ACT-1: a die succeeds on ≥ Quality (a natural 1 fails: Q2 succeeds on 2–6)."""
    r = odds("activation", {"quality": quality})
    assert table(r) == {(1, 0, False): p, (0, 1, False): 1 - p}


def test_sb_act_1_three_dice_at_quality_5() -> None:
    """SB-ACT-1: each success is an action: binomial(3, 1/3): 8/27, 4/9, 2/9, 1/27."""
    r = odds("activation", {"quality": 5, "dice": 3})
    assert [r.probability(actions=k) for k in range(4)] == [F(8, 27), F(4, 9), F(2, 9), F(1, 27)]
    assert all(o["failures"] == 3 - o["actions"] for o, _ in r.outcomes)


def test_sb_act_2_two_failures_or_more_is_a_turnover() -> None:
    """SB-ACT-2: one die never turns over; two dice at Q4 turn over on two failures (1/4); three at
    Q5 on two or three failures (4/9 + 8/27 = 20/27)."""
    assert odds("activation", {"quality": 6, "dice": 1}).probability(turnover=True) == 0
    assert odds("activation", {"quality": 4, "dice": 2}).probability(turnover=True) == F(1, 4)
    assert odds("activation", {"quality": 5, "dice": 3}).probability(turnover=True) == F(20, 27)


@pytest.mark.parametrize(
    "fields",
    [
        {"attacker_combat": 3, "defender_combat": 3},
        {"attacker_combat": 4, "defender_combat": 2, "defender_state": "fallen", "power_blow": True},
        {"attacker_combat": 2, "defender_combat": 4, "free_hack": True, "defender_enemies_in_contact": 3},
    ],
)
def test_sb_melee_3_the_dice_a_game_draws_give_the_melee_odds(fields: dict[str, Any]) -> None:
    """SB-MELEE-3: a game draws the two natural dice of a combat roll (36 equally likely pairs), each with both
    scores (die + Combat + modifiers) and its outcome; forgetting the dice gives exactly `melee`."""
    m = Melee(**fields)
    rolls = melee_dice(m)
    assert len(rolls) == 36 and rolls.total == 36
    assert rolls.map(lambda r: r.outcome) == melee_dist(m)
    for r in rolls:
        assert r.outcome == combat_roll(m, r.attacker_die, r.defender_die)
        assert r.attacker_score - r.attacker_die == rolls.outcomes()[0].attacker_score - rolls.outcomes()[0].attacker_die


@pytest.mark.parametrize("quality", range(2, 7))
def test_sb_act_1_sb_mor_2_the_dice_a_game_draws_give_the_procedures_odds(quality: int) -> None:
    """SB-ACT-1, SB-ACT-2, SB-MOR-2: a game draws the faces of its Quality dice (so that its report shows them):
    every multiset of faces, highest first, weighted by the orders it can fall in (6**n in all); forgetting the faces
    gives exactly `activation` and `morale`."""
    for dice in (1, 2, 3):
        rolls = activation_dice(quality, dice)
        assert rolls.total == 6**dice and all(list(r.faces) == sorted(r.faces, reverse=True) for r in rolls)
        assert rolls.map(lambda r: r.outcome) == activation(quality, dice)
    assert morale_dice(quality).map(lambda r: r.outcome) == morale(quality)
    # Q4: (5, 3, 1) is 1 success of 3 dice in 3! = 6 orders: a turnover
    assert activation_dice(4, 3).probability(ActivationDice((5, 3, 1), ActivationOutcome(1, 2, True))) == F(6, 216)


@pytest.mark.parametrize(
    ("quality", "expected"),
    [
        (6, {(0, "stands", 0): F(1, 216), (1, "flees", 1): F(5, 72), (2, "flees", 2): F(25, 72), (3, "destroyed", 0): F(125, 216)}),
        (2, {(0, "stands", 0): F(125, 216), (1, "flees", 1): F(25, 72), (2, "flees", 2): F(5, 72), (3, "destroyed", 0): F(1, 216)}),
    ],
)
def test_sb_mor_2_three_dice_failures_decide(quality: int, expected: dict[tuple[Any, ...], F]) -> None:
    """SB-MOR-2: 0 failures stands, 1 or 2 flee that many moves, 3 destroyed; failures ~ binomial(3, q)
    with q = 5/6 at Q6 (a 6 always succeeds) and 1/6 at Q2 (a 1 always fails)."""
    assert table(odds("morale", {"quality": quality})) == expected


# --- §6 input validation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("procedure", "data", "field"),
    [
        ("melee", {"attacker_combat": 13, "defender_combat": 3}, "attacker_combat"),
        ("melee", {"attacker_combat": 3, "defender_combat": -1}, "defender_combat"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "attack_number": 7}, "attack_number"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "attacker_size": "Big"}, "attacker_size"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "ambush": 1}, "ambush"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "attacker_enemies_in_contact": 0}, "attacker_enemies_in_contact"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "attacker_enemies_in_contact": 2, "attacker_transfixed_in_contact": 3}, "attacker_transfixed_in_contact"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "defender_enemies_in_contact": 2, "defender_transfixed_in_contact": 2}, "defender_transfixed_in_contact"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "defender_state": "transfixed"}, "attacker_transfixed_in_contact"),
        ("melee", {"attacker_combat": 3, "defender_combat": 3, "winner": "attacker"}, "winner"),
        ("disengage", {"combat": 3, "enemies": []}, "enemies"),
        ("disengage", {"combat": 3, "enemies": [{"combat": 1}] * 51}, "enemies"),
        ("disengage", {"combat": 3, "enemies": [{"combat": 1, "enemies_in_contact": 2, "transfixed_in_contact": 2}]}, "enemies[0].transfixed_in_contact"),
        ("disengage", {"combat": 3, "enemies": [{"combat": 1}, {"state": "standing"}]}, "enemies[1].combat"),
        ("disengage", {"combat": 3}, "enemies"),
        ("activation", {"quality": 4, "dice": 4}, "dice"),
        ("activation", {"quality": "4"}, "quality"),
        ("morale", {"quality": 1}, "quality"),
        ("morale", {"quality": True}, "quality"),
        ("melee_targets", {"enemies": [{"points": 0}]}, "enemies[0].points"),
        ("melee_targets", {"enemies": [{"points": 10, "state": "dead"}]}, "enemies[0].state"),
        ("melee_targets", {"special_rules": ["assassin", "assassin"], "enemies": [{"points": 10}]}, "special_rules[1]"),
        ("melee_targets", {"special_rules": ["flying"], "enemies": [{"points": 10}]}, "special_rules[0]"),
    ],
)
def test_sb_bad_input_names_the_field(procedure: str, data: dict[str, Any], field: str) -> None:
    """§6: out-of-range, wrong-typed, unknown and cross-field-invalid input is rejected, naming the field."""
    assert bad(procedure, data).field == field


def test_sb_normalised_input_fills_the_defaults() -> None:
    """§6: the echoed input has every field, defaults filled, list entries too."""
    r = disengage(combat=3, enemies=[{"combat": 2}])
    assert r.input["enemies"][0] == {
        "combat": 2, "state": "standing", "size": "normal", "mounted": False, "flying": False,
        "high_ground": False, "obstacle": False, "enemies_in_contact": 1, "transfixed_in_contact": 0,
        "can_recoil": True,
    }
    assert r.input["can_recoil"] is True and r.input["failed_morale"] is False


def test_sb_mor_4_morale_modifiers_from_special_rules_are_out_of_scope() -> None:
    """SB-MOR-4: morale modifiers from special rules (Steadfast, Coward, …) are not part of kessen: the morale
    procedure takes Quality only, and a profile naming such a special rule is rejected, never silently ignored."""
    import kessen
    from kessen.rulesets.song_of_blades.scenario import load_scenario

    with pytest.raises(kessen.InputError) as unknown:
        kessen.odds("song-of-blades", "morale", {"quality": 4, "steadfast": True})
    assert unknown.value.field == "steadfast"
    scenario = """
name = "t"
[[sides]]
side = "A"
models = [{ id = "a", name = "A", points = 10, quality = 4, combat = 3, x = 100.0, y = 100.0, special_rules = ["steadfast"] }]
[[sides]]
side = "B"
models = [{ id = "b", name = "B", points = 10, quality = 4, combat = 3, x = 300.0, y = 100.0 }]
"""
    with pytest.raises(kessen.InputError) as rejected:
        load_scenario(scenario, "t.toml")
    assert "special_rules[0]" in str(rejected.value) and "steadfast" in str(rejected.value)
    # and a morale test is the same three Quality dice whoever takes it: Q4 destroyed on three failures, 1/8
    assert kessen.odds("song-of-blades", "morale", {"quality": 4}).probability(result="destroyed") == F(1, 8)
