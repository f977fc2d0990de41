"""armies-clash: solos under the standard rules of damage, dying and death (AC-DMG-5, AC-SOLO-5), in the engine and in
the pure fold that judges an action's hits one by one."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

from armies_clash_engine_helpers import choose, creature, scenario, start, unit, with_solo
from hypothesis import given, settings
from hypothesis import strategies as st

from kessen.dice import Dist, d
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee.attack import attack_plan
from kessen.rulesets.armies_clash.referee.damage import deal
from kessen.rulesets.armies_clash.referee.options import AttackWith
from kessen.rulesets.armies_clash.referee.pieces import spell_of
from kessen.rulesets.armies_clash.referee.spells import spell_effects
from kessen.rulesets.armies_clash.referee.state import AcState, Turn
from kessen.rulesets.armies_clash.referee.steps import PieceAct
from kessen.rulesets.armies_clash.rules.attack import SoloAttackQuestion, solo_attack
from kessen.rulesets.armies_clash.rules.damage import (
    MISS,
    Condition,
    RollResult,
    SoloHits,
    SoloRoll,
    hits_on_solo,
    take_damage,
)
from kessen.rulesets.armies_clash.rules.spells import save

# a PC solo with the Hob's statistics: AC 18, 11 HP (its maximum)
PC = {"id": "pc", "side": "b", "creature": "hob", "at": [5, 5], "pc": True}
CAPTAIN = creature("captain", attacks=[{"id": "longsword", "kind": "melee", "attack_bonus": 3, "damage": "1d8+1"},
                                       {"id": "shortbow", "kind": "ranged", "attack_bonus": 3, "damage": "1d6+1",
                                        "range_ft": 80, "long_range_ft": 320}],
                   multiattack=["longsword", "longsword"])


def _battle(attacker_at: tuple[int, int], *, pc: bool = True) -> AcState:
    """Stand s1 (a two-longsword captain) of side a at *attacker_at*; the solo pc of side b at (5, 5), kept from
    isolation by its side's stand e1 two squares south (AC-INTEG-4)."""
    s = scenario(stands=[("s1", "u", "captain", attacker_at), ("e1", "v", "hob", (5, 7))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")],
                 creatures=[creature("hob"), CAPTAIN], solos=[{**PC, "pc": pc}])
    return start(s)


def _dying(state: AcState, failures: int = 0) -> AcState:
    return with_solo(state, "pc", hp=0, status="dying", failures=failures)


def test_ac_dmg_5_attacks_on_a_dying_pc_have_advantage_and_hits_from_next_to_it_are_critical() -> None:
    """AC-DMG-5: a dying PC is unconscious. From the square next to it, a longsword (+3 against AC 18, 1d8+1) rolls
    with advantage and every hit is a critical hit (2d8+1): two failed death saves, or death when the hit deals at
    least its 11-HP maximum. Advantage: 1 − (14/20)² = 51/100; 2d8+1 ≥ 11 on 28 of 64."""
    state = _dying(_battle((4, 5)))
    question = attack_plan(state, "s1", "longsword", "solo", "pc", supported=False)
    assert isinstance(question, SoloAttackQuestion) and question.attack.attacker_adjacent
    fate = solo_attack(question)
    assert fate.probability(lambda o: o.hits == 1 and o.crits == 0) == 0
    assert fate.probability(lambda o: o.crits == 1) == Fraction(51, 100)
    assert fate.probability(lambda o: o.status == "dead") == Fraction(51, 100) * Fraction(28, 64)
    assert fate.probability(lambda o: o.status == "dying" and o.failures == 2) == Fraction(51, 100) * Fraction(36, 64)
    assert fate.probability(lambda o: o.status == "dying" and o.failures == 0) == Fraction(49, 100)


def test_ac_dmg_5_a_dying_pc_is_prone_so_attacks_from_afar_roll_normally() -> None:
    """AC-DMG-5 with the 5e prone condition ([FILL]): an unconscious PC lies prone, so a shortbow shot from three squares
    away has advantage (unconscious) and disadvantage (prone, not next to it), a single d20: hits on 15+ (6/20), and
    only a natural 20 is critical; one failed death save per hit that is not critical."""
    state = _dying(_battle((2, 5)))
    question = attack_plan(state, "s1", "shortbow", "solo", "pc", supported=False)
    assert isinstance(question, SoloAttackQuestion) and not question.attack.attacker_adjacent
    fate = solo_attack(question)
    assert fate.probability(lambda o: o.hits == 1) == Fraction(6, 20)
    assert fate.probability(lambda o: o.crits == 1) == Fraction(1, 20)
    assert fate.probability(lambda o: o.status == "dying" and o.failures == 1) == Fraction(5, 20)


def test_ac_dmg_5_massive_damage_is_judged_hit_by_hit() -> None:
    """AC-DMG-5: two hits of 12 and 10 on a PC at 11 of 11 HP: the first drops it with 1 HP of damage left over (less
    than its maximum), so it is dying; the second, 10 < 11, is one failed death save. (The action's total, 22, would
    have left 11 over, an instant death.) A single hit of 22 does kill it outright."""
    twelve, ten = Dist.always(RollResult("hit", 12)), Dist.always(RollResult("hit", 10))
    fate = hits_on_solo(Condition(11), [SoloRoll(twelve, twelve), SoloRoll(ten, ten)], maximum=11, pc=True)
    assert fate.outcomes() == (SoloHits(2, 0, 22, 0, 0, "dying", 1),)
    assert take_damage(Condition(11), 22, critical=False, maximum=11, pc=True).status == "dead"
    assert take_damage(Condition(11), 21, critical=False, maximum=11, pc=True) == Condition(0, "dying", 0)


def test_ac_dmg_5_the_engine_applies_a_multiattack_hit_by_hit() -> None:
    """AC-DMG-5 in play: the captain's two longsword hits on the PC at 11 of 11 HP, a critical 14 first (it falls
    with 3 left over, less than its maximum: dying), then from next to the unconscious PC a hit that is critical by
    that rule alone, 10: two failed death saves. The action's total, 24, would have left 13 over, an instant death."""
    state = _battle((4, 5))
    state = replace(state, turn=Turn("u", False, action="attack", piece="s1"), pending=(PieceAct(),))
    state = choose(state, AttackWith("multiattack", "pc"))
    outcome = SoloHits(hits=2, crits=2, damage=24, pushed=0, hp=0, status="dying", failures=2)
    dist = g.MACHINE.node(state).dist  # type: ignore[union-attr]
    assert outcome in dist
    assert SoloHits(2, 2, 24, 0, 0, "dead", 0) in dist  # 13 then 11: a second hit of its maximum kills
    after, events = g.MACHINE.apply(state, outcome)
    assert (after.solo("pc").hp, after.solo("pc").status, after.solo("pc").failures) == (0, "dying", 2)
    assert [e.type for e in events][:4] == ["attacked", "damaged", "solo_down", "death_save_failed"]


def test_ac_dmg_5_a_stable_pc_hurt_starts_dying_again_and_a_miss_changes_nothing() -> None:
    """AC-DMG-5: a stable PC that takes damage is dying again with one failed death save; a hit for 0 damage (a
    resisted 1d4-2) is no damage and changes nothing; an NPC solo dies at 0 HP."""
    assert take_damage(Condition(0, "stable"), 3, critical=False, maximum=11, pc=True) == Condition(0, "dying", 1)
    assert take_damage(Condition(0, "stable"), 0, critical=True, maximum=11, pc=True) == Condition(0, "stable")
    assert take_damage(Condition(0, "dying", 1), 4, critical=True, maximum=11, pc=True).status == "dead"
    assert take_damage(Condition(5), 5, critical=False, maximum=11, pc=False) == Condition(0, "dead")
    state = _dying(_battle((4, 5)), failures=1)
    events: list = []  # type: ignore[type-arg]
    after = deal(state, "pc", "solo", 3, "a", events)
    assert (after.solo("pc").status, after.solo("pc").failures) == ("dying", 2)
    assert [e.type for e in events] == ["death_save_failed"]


def test_ac_dmg_5_an_unconscious_pc_fails_strength_and_dexterity_saves() -> None:
    """AC-DMG-5 ([FILL] 5e unconscious): a dying PC caught in a stand's fireball fails its Dexterity save without a
    roll and takes the doubled damage; its Constitution saves are rolled as usual."""
    mage = creature("mage", spells=[{"id": "fireball", "range_ft": 150, "form": "area", "shape": "sphere", "size_ft": 20,
                                     "resolution": "save", "save_ability": "dex", "dc": 15, "damage": "8d6"},
                                    {"id": "frost", "range_ft": 150, "form": "area", "shape": "sphere", "size_ft": 20,
                                     "resolution": "save", "save_ability": "con", "dc": 15, "damage": "2d6"}])
    s = scenario(stands=[("m1", "u", "mage", (1, 1)), ("e1", "v", "hob", (5, 7))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], creatures=[creature("hob"), mage], solos=[PC])
    state = _dying(start(s))
    for spell, failure in (("fireball", Fraction(1)), ("frost", Fraction(13, 20))):  # Con +1 against DC 15
        (step,) = spell_effects(state, "m1", spell_of(state, "m1", spell), "pc", "solo", partial=False)
        assert step.question.target_unconscious
        assert save(step.question).probability(lambda o: o.result == "failure") == failure


def _oracle(start_: Condition, rolls: list[Dist[RollResult]], *, maximum: int, pc: bool) -> dict[tuple, Fraction]:  # type: ignore[type-arg]
    """Every sequence of roll results, applied hit by hit with the 5e rules written out afresh (shares no code with
    the fold; the same distribution serves conscious and unconscious here)."""
    out: dict[tuple, Fraction] = {}  # type: ignore[type-arg]
    for seq in product(*(dist.probabilities().items() for dist in rolls)):
        hp, status, failures, hits, crits, dealt, p = start_.hp, start_.status, start_.failures, 0, 0, 0, Fraction(1)
        for outcome, chance in seq:
            result, damage = outcome.result, outcome.damage
            p *= chance
            if status == "dead" or result == "miss":
                continue
            hits, crits, dealt = hits + 1, crits + (result == "critical"), dealt + damage
            if status == "up":
                if damage < hp:
                    hp -= damage
                else:
                    status = "dead" if (not pc or damage - hp >= maximum) else "dying"
                    hp, failures = 0, 0
            elif damage > 0:
                failures += 2 if result == "critical" else 1
                if damage >= maximum or failures >= 3:
                    status, failures = "dead", 0
                else:
                    status = "dying"
        key = (hits, crits, dealt, 0, hp, status, failures)
        out[key] = out.get(key, Fraction(0)) + p
    return out


@settings(max_examples=60, deadline=None)
@given(
    hp=st.integers(1, 12), maximum=st.integers(1, 12), pc=st.booleans(),
    status=st.sampled_from(["up", "dying", "stable"]), failures=st.integers(0, 2),
    rolls=st.lists(st.tuples(st.integers(0, 3), st.integers(2, 6), st.integers(0, 3)), min_size=1, max_size=3),
)
def test_ac_dmg_5_fold_agrees_with_brute_force(hp: int, maximum: int, pc: bool, status: str, failures: int,
                                                rolls: list[tuple[int, int, int]]) -> None:
    """AC-DMG-5: the fold over an action's rolls gives exactly the distribution of applying every sequence of results
    hit by hit (misses, hits and critical hits of dice damage with a modifier, from any starting condition)."""
    start_ = Condition(hp if status == "up" else 0, status, failures if status == "dying" else 0)  # type: ignore[arg-type]
    dists = []
    for misses, sides, bonus in rolls:
        hit = d(sides).map(lambda face, b=bonus: RollResult("hit", max(0, face - 2 + b)))
        crit = d(sides).map(lambda face, b=bonus: RollResult("critical", face + b))
        dists.append(_mix([(misses, Dist.always(MISS)), (2, hit), (1, crit)]))
    fold = hits_on_solo(start_, [SoloRoll(x, x) for x in dists], maximum=maximum, pc=pc)
    assert {_fields(o): p for o, p in fold.probabilities().items()} == _oracle(start_, dists, maximum=maximum, pc=pc)


def _fields(o: SoloHits) -> tuple:  # type: ignore[type-arg]
    return (o.hits, o.crits, o.damage, o.pushed, o.hp, o.status, o.failures)


def _mix(parts: list[tuple[int, Dist[RollResult]]]) -> Dist[RollResult]:
    """Integer-weighted mixture of distributions (parts with weight 0 left out)."""
    chosen = [(w, dist) for w, dist in parts if w]
    return Dist({i: w for i, (w, _) in enumerate(chosen)}).bind(lambda i: chosen[i][1])
