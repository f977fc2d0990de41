"""Might on a Hero's own hit rolls and To Wound rolls in battles (BH-DICE-4, BH-SHOOT-7, BH-STRIKE-2)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from bh_referee_support import (
    GAME,
    CONTACT,
    chance,
    decision,
    fight_phase,
    model,
    of_type,
    started,
    state_of,
    step,
    to_phase,
)

from kessen.core.engine import Chance, Decision
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.duel import DuelDice
from kessen.rulesets.battlehost.rules.might import HeroDie, die_succeeds, hit_die, might_choices, might_to_succeed, next_die, wound_die
from kessen.rulesets.battlehost.rules.shooting import hit_roll_succeeds
from kessen.rulesets.battlehost.rules.wounding import IMPOSSIBLE, to_wound_modifier, wound_chart, wound_dice, wound_roll_weights

GOOD_WINS = DuelDice(good_best=6, evil_best=1)


def hero_archer(might: int, **profile: Any) -> dict[str, Any]:
    return model("H", 10, 10, **{"type": "hero", "fight": "4/4+", "missile_weapon": "bow", "might": might, **profile})


def shoot_phase(good: list[dict[str, Any]], evil: list[dict[str, Any]]) -> st.BhState:
    return to_phase(started(state_of(good, evil), "good"), "shoot")[0]


def shot_odds(state: st.BhState, policy: Any = None) -> dict[tuple[bool, int], Fraction]:
    """(target wounded, Might spent) → exact probability, walking every branch of the engine's nodes for one shot;
    decisions follow *policy* (default: the first option)."""
    hero_might = state.get("H").might_left
    out: dict[tuple[bool, int], Fraction] = {}

    def walk(s: st.BhState, p: Fraction) -> None:
        if s.phase != "shoot" or s.shooting is None:
            t = s.model("T")
            key = (t is None or t.wounds_left < t.wounds, hero_might - s.get("H").might_left)
            out[key] = out.get(key, Fraction(0)) + p
            return
        node = GAME.node(s)
        if isinstance(node, Chance):
            for o, q in node.dist.probabilities().items():
                walk(GAME.apply(s, o)[0], p * q)
        else:
            assert isinstance(node, Decision)
            walk(GAME.apply(s, policy(node) if policy else node.options[0])[0], p)

    walk(GAME.apply(state, op.ShootAt("H", "T"))[0], Fraction(1))
    return out


def test_bh_dice_4_bh_shoot_7_hero_spends_might_on_its_hit_and_wound_rolls() -> None:
    """BH-DICE-4, BH-SHOOT-7, BH-SHOOT-8: a Hero (4+, Might 2) rolls its hit roll alone; a 3 fails, and its player may
    spend 1 Might (the default, first) to score 4 and hit; the bow's wound roll (S2 against D4: 5+) of 4 is saved by
    the last point; each point is gone for the battle."""
    state = shoot_phase([hero_archer(2)], [model("T", 10, 20)])
    state, _ = step(state, op.ShootAt("H", "T"))
    assert chance(state, "hit roll").dist.probabilities() == {f: Fraction(1, 6) for f in range(1, 7)}
    state, events = step(state, 3)
    ask = decision(state, "might on roll")
    assert ask.player == "good" and ask.options == (op.MightOnRoll("H", 1), op.MightOnRoll("H", 0))
    assert of_type(events, "hero_rolled")[0].score == 3
    state, events = step(state, op.MightOnRoll("H", 1))
    assert state.get("H").might_left == 1 and of_type(events, "might_on_roll")[0].score == 4
    state, _ = step(state, 4)  # the wound roll: 4 fails against 5+
    assert decision(state, "might on roll").options == (op.MightOnRoll("H", 1), op.MightOnRoll("H", 0))
    state, events = step(state, op.MightOnRoll("H", 1))
    assert state.model("T") is None and state.get("H").might_left == 0
    assert [(e.hit, e.wounded) for e in of_type(events, "shot")] == [(True, True)]


def test_bh_dice_4_declining_might_keeps_the_point_and_the_roll_fails() -> None:
    """BH-DICE-4: declining (spending 0) leaves the failed hit roll failed and the Might store untouched."""
    state = shoot_phase([hero_archer(2)], [model("T", 10, 20)])
    state, _ = step(state, op.ShootAt("H", "T"))
    state, _ = step(state, 3)
    state, events = step(state, op.MightOnRoll("H", 0))
    assert state.get("H").might_left == 2 and [(e.hit, e.wounded) for e in of_type(events, "shot")] == [(False, False)]


def test_bh_shoot_6_bh_shoot_7_bh_dice_4_might_cannot_give_a_moved_6_plus_shooter_a_hit() -> None:
    """BH-SHOOT-6, BH-SHOOT-7, BH-DICE-4: a moved 6+ shooter needs 7; Might raises the score, never above 6, and only a
    natural 6 hits, so a 5 is not offered Might and misses at once."""
    state = shoot_phase([hero_archer(3, fight="4/6+")], [model("T", 10, 20)])
    state = replace(state, moved=(("H", 1.0),))
    state, _ = step(state, op.ShootAt("H", "T"))
    state, events = step(state, 5)
    assert of_type(events, "shot")[0].hit is False and state.get("H").might_left == 3
    assert might_choices(HeroDie("H", "hit_roll", (7,)), 5, 3) == (0,)


def test_bh_dice_4_exact_odds_of_a_hero_shot_with_one_might() -> None:
    """BH-DICE-4, BH-SHOOT-5, BH-WOUND-1: a 4+ Hero with Might 1 shooting a bow (S2) at D4 (chart 5), default policy:
    hit on 4–6 (1/2) keeps the point, so the wound roll wounds on 4+ with it (1/2); hit on a 3 with the point (1/6)
    leaves 5+ (1/3). P(wounded) = 1/2·1/2 + 1/6·1/3 = 11/36 (against 1/6 without Might)."""
    state = shoot_phase([hero_archer(1)], [model("T", 10, 20)])
    odds = shot_odds(state)
    assert sum(p for (wounded, _), p in odds.items() if wounded) == Fraction(11, 36)
    # spent on the wound roll after a natural hit (1/2 · 1/6), or on the hit roll (1/6)
    assert sum(p for (_, spent), p in odds.items() if spent) == Fraction(1, 12) + Fraction(1, 6)
    never = shot_odds(state, policy=lambda node: op.MightOnRoll("H", 0))
    assert sum(p for (wounded, _), p in never.items() if wounded) == Fraction(1, 6)


def test_bh_wound_1_bh_dice_4_might_on_a_6_slash_n_entry() -> None:
    """BH-WOUND-1, BH-DICE-4: against a 6/4 entry the first die must score 6 (a 4 needs 2 Might), then the second
    die 4+ (a 3 needs 1 more); with only 1 Might the first 4 cannot be saved."""
    first = HeroDie("H", "wound_roll", (6, 4))
    assert might_to_succeed(first, 4, 3) == 2 and might_to_succeed(first, 4, 1) is None
    assert might_to_succeed(HeroDie("H", "second_die", (4,)), 3, 1) == 1
    assert might_to_succeed(HeroDie("H", "wound_roll", wound_dice(IMPOSSIBLE)), 1, 6) is None  # "-" never wounds


def hero_in_fight(might: int, *, trapped: bool, wounds: int = 1) -> st.BhState:
    hero = model("H", 20, 20, type="hero", fight=5, attacks=1, strength=1, defence=6, might=might)
    orc = model("O", 20 + CONTACT, 20, defence=6, wounds=wounds)
    blocker = [model("B", 20 + 2 * CONTACT + 0.5, 20)] if trapped else []  # a Good model behind the orc traps it
    return fight_phase([hero, *blocker], [orc])


def test_bh_strike_2_bh_wound_1_hero_strike_rolls_die_by_die_with_might() -> None:
    """BH-STRIKE-2, BH-WOUND-1, BH-DICE-4: a Hero (S1, Might 3) strikes D6 (chart 6/4): a first die of 4 is raised
    by 2 to 6, then a second die of 3 by the last point to 4: one wound, and the orc (W1) is slain."""
    state = hero_in_fight(3, trapped=False)
    state, _ = step(state, GOOD_WINS)
    chance(state, "wound roll")
    state, _ = step(state, 4)
    assert decision(state, "might on roll").options == (op.MightOnRoll("H", 2), op.MightOnRoll("H", 0))
    state, _ = step(state, op.MightOnRoll("H", 2))
    chance(state, "second die")
    state, _ = step(state, 3)
    state, events = step(state, op.MightOnRoll("H", 1))
    assert state.model("O") is None and state.get("H").might_left == 0
    assert [(e.strikes, e.wounds) for e in of_type(events, "struck")] == [(1, 1)]
    assert [(e.winner, e.wounds, e.slain) for e in of_type(events, "fight_resolved")] == [("good", 1, 1)]


def test_bh_strike_5_bh_strike_9_hero_second_roll_lost_when_the_first_slays() -> None:
    """BH-STRIKE-5, BH-STRIKE-9, BH-DICE-4: a Hero's strike at a trapped orc is two To Wound rolls, each rolled alone;
    when the first slays the orc (W1) the second is lost; at a trapped W2 orc both are rolled."""
    state = hero_in_fight(1, trapped=True)
    state, _ = step(state, GOOD_WINS)
    assert state.fighting is not None and "O" in state.fighting.trapped
    state, _ = step(state, 6)  # first die scores 6; 6/4 needs the second die
    state, events = step(state, 4)
    assert state.model("O") is None and state.hero_die is None
    assert [(e.strikes, e.wounds) for e in of_type(events, "struck")] == [(1, 1)]

    state = hero_in_fight(1, trapped=True, wounds=2)
    state, _ = step(state, GOOD_WINS)
    state, _ = step(state, 6)
    state, _ = step(state, 5)  # one wound; the orc lives, so the strike's second roll follows
    chance(state, "wound roll")
    state, events = step(state, 2)  # 1 Might cannot raise a 2 to 6: no question, the strike is over
    assert state.hero_die is None and state.get("O").wounds_left == 1
    assert [(e.strikes, e.wounds) for e in of_type(events, "struck")] == [(1, 1)]


@settings(max_examples=60, deadline=None)
@given(shoot_value=hs.integers(2, 6), moved=hs.booleans())
def test_bh_shoot_7_a_heros_hit_die_is_the_hit_roll_rule(shoot_value: int, moved: bool) -> None:
    """BH-SHOOT-5..7, BH-DICE-4: a Hero's hit die, rolled alone, hits on exactly the faces of the hit roll (a natural
    6 always); the hit roll's rule is written once."""
    die = hit_die("H", shoot_value=shoot_value, moved=moved)
    assert [die_succeeds(die, f) for f in range(1, 7)] == [hit_roll_succeeds(f, shoot_value=shoot_value, moved=moved) for f in range(1, 7)]


@settings(max_examples=120, deadline=None)
@given(strength=hs.integers(1, 10), defence=hs.integers(1, 10), two_handed=hs.booleans())
def test_bh_wound_1_a_heros_wound_dice_are_the_wound_roll_rule(strength: int, defence: int, two_handed: bool) -> None:
    """BH-WOUND-1..3, BH-DICE-4: a Hero's To Wound roll rolled die by die (the second die of a 6/N entry only after a
    6) wounds on exactly as many of the natural dice as the wound roll does; the 6/N rule is written once."""
    entry = wound_chart(strength, defence)
    first = wound_die("H", entry, modifier=to_wound_modifier(two_handed=two_handed))
    chance = Fraction(0)
    for a in range(1, 7):
        if die_succeeds(first, a):
            second = next_die(first)
            chance += Fraction(1, 6) * (1 if second is None else Fraction(sum(die_succeeds(second, b) for b in range(1, 7)), 6))
    assert chance == Fraction(*wound_roll_weights(entry, first.modifier))
