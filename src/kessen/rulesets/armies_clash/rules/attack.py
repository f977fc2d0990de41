"""Attack: the rolls of an action, advantage and disadvantage, effective AC, hits, damage and overflow (§5.14, §6.3, §6.4).

The procedures read plain frozen questions (``AttackQuestion``, ``UnitAttackQuestion``, ``SoloAttackQuestion``):
the odds inputs build them after validation, the engine builds them straight from the battlefield.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Literal, NamedTuple

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw, weighted
from kessen.rulesets.armies_clash.rules import tables
from kessen.rulesets.armies_clash.rules.d20 import AttackResult, RollMode, RollShown, attack_result, d20, d20_faces, roll_mode
from kessen.rulesets.armies_clash.rules.damage import (
    MISS,
    Condition,
    Resistance,
    RollResult,
    SoloHits,
    SoloRoll,
    damage_roll,
    hit_damage,
    hits_on_solo,
    take_damage,
)
from kessen.rulesets.armies_clash.profiles import COVER_AC, DEFENSIVE_AC, Attack, AttackKind, Cover

TargetKind = Literal["stand", "solo", "objective"]
"""What an attack is aimed at: a stand, an unattached solo or an objective square."""


@record
class Roll:
    """One attack roll of an action, with what may differ from roll to roll: the target's response to its
    damage type (AC-D20-7), whether it is made at long range (AC-RANGE-2), and how many squares a hit pushes the
    target (AC-STAND-4)."""

    attack: Attack
    resistance: Resistance = "none"
    long_range: bool = False
    push_squares: int = 0


@record
class AttackQuestion:
    """One stand's or solo's attack rolls in one action against one target (§6.3), every roll listed (the reach
    bonus roll included, see ``action_rolls``), with the flags of the battlefield that apply to all of them.

    ``target_unconscious`` and ``attacker_adjacent`` describe a dying or stable PC solo and an attacker next to it
    (AC-DMG-5); the odds contract has no such fields, the engine sets them.
    """

    rolls: tuple[Roll, ...]
    target_ac: int
    target_hp: int = 1
    attacker: Literal["stand", "solo"] = "stand"
    action: Literal["attack", "spell"] = "attack"
    target: TargetKind = "stand"
    target_isolated: bool = False
    target_defensive: bool = False
    target_cover: Cover = "none"
    attacker_isolated: bool = False
    supported: bool = False
    incited: bool = False
    higher_ground: bool = False
    adjacent_enemy: bool = False
    extra_advantage: bool = False
    extra_disadvantage: bool = False
    target_unconscious: bool = False
    attacker_adjacent: bool = False

    @property
    def no_effect(self) -> bool:
        """A solo's spell attack on an objective square does nothing (AC-OBJ-4, step 2 of §6.3)."""
        return self.target == "objective" and self.attacker == "solo" and self.action == "spell"


@record
class UnitAttackQuestion:
    """A unit of identical stands attacking one target stand, overflow along identical stands (§6.4); ``stand``
    is one attacking stand's question without support."""

    stand: AttackQuestion
    stands: int
    supporting_stands: int = 0
    target_stands: int = 1


@record
class SoloAttackQuestion:
    """An action's attack rolls against a solo, judged hit by hit (AC-DMG-5): the question as it stands while the
    solo is conscious, the solo's condition now, its HP maximum and whether it is a PC."""

    attack: AttackQuestion
    condition: Condition
    maximum: int
    pc: bool


class AttackOutcome(NamedTuple):
    """One action's attack rolls against one target (§6.3); a named tuple, as it is built per table row."""

    hits: int
    crits: int
    damage: int
    reduced_to_zero: bool
    overflow: int


@record
class AttackTotals:
    """What the engine needs of an action against a stand or an objective square: hits, critical hits, the
    damage (one instance, AC-DMG-2) and the squares its hits push the target; in a battle, *dice* are its rolls
    (:func:`attack_faces`)."""

    hits: int
    crits: int
    damage: int
    pushed: int
    dice: tuple[RollShown, ...] = dice_field()


@record
class UnitAttackOutcome:
    """How many stands of the target chain a unit's Attack action brings down (§6.4)."""

    stands_reduced: int


def action_rolls(routine: Iterable[tuple[Roll, int]], *, reach_bonus: bool) -> tuple[Roll, ...]:
    """The attack rolls of one action, in order: each roll ``count`` times (step 1 of §6.3).

    When *reach_bonus* (a stand taking the Attack action), a melee attack with reach ≥ 10 ft adds **one**
    more roll of the first such attack, however many there are (AC-ATTACK-3).
    """
    routine = tuple(routine)
    rolls = [roll for roll, count in routine for _ in range(count)]
    if reach_bonus:
        rolls.extend([roll for roll, _ in routine if roll.attack.has_long_reach][:1])
    return tuple(rolls)


def effective_ac(target_ac: int, *, defensive: bool, cover: Cover) -> int:
    """The AC an attack roll must reach: +2 for a defensive regiment, plus cover (AC-ATTACK-8, AC-D20-6, AC-FORM-3).

    >>> effective_ac(15, defensive=True, cover="half")
    19
    """
    return target_ac + (DEFENSIVE_AC if defensive else 0) + COVER_AC[cover]


def attack_roll_mode(
    kind: AttackKind,
    *,
    target_isolated: bool = False,
    incited: bool = False,
    supported: bool = False,
    higher_ground: bool = False,
    attacker_isolated: bool = False,
    long_range: bool = False,
    adjacent_enemy: bool = False,
    extra_advantage: bool = False,
    extra_disadvantage: bool = False,
    target_unconscious: bool = False,
    attacker_adjacent: bool = False,
) -> RollMode:
    """How one attack roll is made, from every source of advantage and disadvantage (AC-ATTACK-7, AC-D20-2).

    Advantage: an isolated target (AC-INTEG-1), Incite (AC-CMD-3), a supported melee roll (AC-ATTACK-6),
    a melee roll from higher ground (AC-TERR-6), an unconscious target (AC-DMG-5), others (a hidden attacker).
    Disadvantage: an isolated attacker (AC-INTEG-1), a ranged roll at long range or next to an enemy (AC-D20-8),
    an unconscious (so prone) target the attacker is not next to (AC-DMG-5, [FILL] 5e prone), others (a hidden
    target). One of each cancels.

    >>> attack_roll_mode("ranged", higher_ground=True), attack_roll_mode("melee", higher_ground=True)
    ('normal', 'advantage')
    >>> attack_roll_mode("ranged", target_unconscious=True), attack_roll_mode("ranged", target_unconscious=True, attacker_adjacent=True)
    ('normal', 'advantage')
    """
    melee = kind == "melee"
    advantage = (
        target_isolated or incited or extra_advantage or target_unconscious or (melee and (supported or higher_ground))
    )
    disadvantage = (
        attacker_isolated
        or extra_disadvantage
        or (target_unconscious and not attacker_adjacent)
        or (not melee and (long_range or adjacent_enemy))
    )
    return roll_mode(advantage=advantage, disadvantage=disadvantage)


@functools.lru_cache(maxsize=4096)
def attack_roll(
    attack: Attack,
    *,
    mode: RollMode,
    armour_class: int,
    target_isolated: bool = False,
    resistance: Resistance = "none",
    hits_critical: bool = False,
) -> Dist[RollResult]:
    """One attack roll and its damage (steps 6–7 of §6.3; AC-D20-1..4, AC-INTEG-1, AC-D20-7, AC-DMG-5).

    A natural 20 hits critically and rolls the damage dice twice, a natural 1 misses; with *hits_critical*
    (an attacker next to an unconscious target) every hit is critical; a hit's roll is doubled against an
    isolated target, then resistance applies.

    >>> from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
    >>> longsword = Attack("melee", 3, parse_dice("1d8+1"), 5)
    >>> attack_roll(longsword, mode="normal", armour_class=13).probability(MISS)
    Fraction(9, 20)
    """

    def damage(result: AttackResult) -> Dist[RollResult]:
        if result == "miss":
            return Dist.always(MISS)
        rolled = damage_roll(attack.damage, critical=result == "critical")
        return rolled.map(lambda r: RollResult(result, hit_damage(r, target_isolated=target_isolated, resistance=resistance)))

    results = d20(mode).map(
        lambda n: attack_result(n, attack_bonus=attack.attack_bonus, armour_class=armour_class, hits_critical=hits_critical)
    )
    return results.bind(damage)


@functools.lru_cache(maxsize=4096)
def automatic_hit(attack: Attack, *, resistance: Resistance = "none") -> Dist[RollResult]:
    """A melee attack on an objective square: no roll, never critical, the damage roll then resistance (AC-OBJ-4).

    >>> from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
    >>> automatic_hit(Attack("melee", 4, parse_dice("1d12+2"), 5)).probability(RollResult("hit", 3))
    Fraction(1, 12)
    """
    return damage_roll(attack.damage).map(lambda r: RollResult("hit", hit_damage(r, target_isolated=False, resistance=resistance)))


def roll_dist(question: AttackQuestion, roll: Roll) -> Dist[RollResult]:
    """One roll of the action as the question's flags make it (steps 3–7 of §6.3)."""
    setting = roll_setting(question, roll)
    if setting is None:
        return automatic_hit(roll.attack, resistance=roll.resistance)  # step 3
    mode, armour_class = setting
    return attack_roll(
        roll.attack,
        mode=mode,
        armour_class=armour_class,
        target_isolated=question.target_isolated,
        resistance=roll.resistance,
        hits_critical=question.target_unconscious and question.attacker_adjacent,
    )


def roll_setting(question: AttackQuestion, roll: Roll) -> tuple[RollMode, int] | None:
    """How one roll of the action is made, and against which AC; None for a melee roll on an objective square,
    which hits without a roll (steps 3–5 of §6.3)."""
    attack = roll.attack
    if question.target == "objective" and attack.kind == "melee":
        return None
    mode = attack_roll_mode(
        attack.kind,
        target_isolated=question.target_isolated,
        incited=question.incited,
        supported=question.supported,
        higher_ground=question.higher_ground,
        attacker_isolated=question.attacker_isolated,
        long_range=roll.long_range,
        adjacent_enemy=question.adjacent_enemy,
        extra_advantage=question.extra_advantage,
        extra_disadvantage=question.extra_disadvantage,
        target_unconscious=question.target_unconscious,
        attacker_adjacent=question.attacker_adjacent,
    )
    return mode, effective_ac(question.target_ac, defensive=question.target_defensive, cover=question.target_cover)


# (hits, crits, squares pushed) → weight by total damage ÷ step; every table of one joint shares one denominator.
Joint = dict[tuple[int, int, int], tables.Table]

_COUNTS: dict[AttackResult, tuple[int, int]] = {"miss": (0, 0), "hit": (1, 0), "critical": (1, 1)}


def _step(rolls: Iterable[Dist[RollResult]]) -> int:
    """The largest number dividing every damage a roll can deal (1 if none): an isolated or vulnerable
    target makes every damage even, and tables indexed by damage ÷ step have no empty rows."""
    return math.gcd(*(outcome.damage for roll in rolls for outcome in roll)) or 1


def _joint(roll: Dist[RollResult], step: int, push_squares: int) -> Joint:
    parts: dict[tuple[int, int, int], dict[int, int]] = {}
    for outcome, weight in roll.items():
        hits, crits = _COUNTS[outcome.result]
        parts.setdefault((hits, crits, hits * push_squares), {})[outcome.damage // step] = weight
    return {key: tables.from_weights(part) for key, part in parts.items()}


def _sum(a: Joint, b: Joint) -> Joint:
    """The joint table of two independent groups of rolls: hits, crits, pushes and damage add up."""
    out: Joint = {}
    for (hits_a, crits_a, pushed_a), table_a in a.items():
        for (hits_b, crits_b, pushed_b), table_b in b.items():
            key = (hits_a + hits_b, crits_a + crits_b, pushed_a + pushed_b)
            product = tables.convolve(table_a, table_b)
            out[key] = tables.add([out[key], product]) if key in out else product
    return out


def _action(question: AttackQuestion) -> tuple[Joint, int]:
    """The joint table of the action's rolls and its damage step (step 8 of §6.3: rolls are independent)."""
    if question.no_effect:
        return {(0, 0, 0): [1]}, 1
    rolls = [roll_dist(question, roll) for roll in question.rolls]
    step = _step(rolls)
    joint: Joint = {(0, 0, 0): [1]}
    for roll, dist in zip(question.rolls, rolls):
        joint = _sum(joint, _joint(dist, step, roll.push_squares))
    return joint, step


def attack(question: AttackQuestion) -> Dist[AttackOutcome]:
    """One stand's or solo's attack rolls in one action against one target (§6.3).

    Rolls are independent; hits, critical hits and damage add up over them (step 8). A solo's spell
    attack on an objective square does nothing (AC-OBJ-4); melee rolls on an objective hit automatically.
    ``overflow`` is the damage beyond the target's HP that AC-DMG-2 passes on.
    """
    joint, step = _action(question)
    hp = question.target_hp
    return Dist(
        (AttackOutcome(hits, crits, index * step, index * step >= hp, max(0, index * step - hp)), weight)
        for (hits, crits, _), table in joint.items()
        for index, weight in enumerate(table)
    )


@functools.lru_cache(maxsize=4096)
def attack_totals(question: AttackQuestion) -> Dist[AttackTotals]:
    """The engine's view of one action against a stand or an objective square: the same rolls as ``attack``,
    with the squares its hits push the target (AC-STAND-4); cached, as the engine and the AI ask alike."""
    joint, step = _action(question)
    return Dist(
        (AttackTotals(hits, crits, index * step, pushed), weight)
        for (hits, crits, pushed), table in joint.items()
        for index, weight in enumerate(table)
    )


Part = tuple[int, int, int, int]  # one roll's (hits, crits, squares pushed, damage), or the sum of several


def attack_faces(question: AttackQuestion, totals: AttackTotals, draw: Draw) -> tuple[RollShown, ...]:
    """The rolls behind *totals*, in order: each roll's result and damage weighted by the ways the rolls after it
    can still make the totals, then its d20s given its result (the kept die and the other of two); with
    :func:`attack_totals`'s result, exactly the odds of rolling them (§6.3, AC-D20-1..3)."""
    if question.no_effect:
        return ()
    rolls = [roll_dist(question, roll) for roll in question.rolls]
    parts = [_parts(dist, roll.push_squares) for roll, dist in zip(question.rolls, rolls)]
    after: list[dict[Part, int]] = [{(0, 0, 0, 0): 1}]
    for part in reversed(parts[1:]):
        after.insert(0, _add_parts(part, after[0]))
    left = (totals.hits, totals.crits, totals.pushed, totals.damage)
    shown: list[RollShown] = []
    for roll, part, rest in zip(question.rolls, parts, after):
        done = weighted(draw, {(key, result): w * rest.get(_minus(left, key), 0) for (key, result), w in part.items()})
        key, result = done
        left = _minus(left, key)
        shown.append(_shown(question, roll, result, draw))
    return tuple(shown)


def _shown(question: AttackQuestion, roll: Roll, result: RollResult, draw: Draw) -> RollShown:
    """One roll known to have done *result*, with its d20s given that result (the kept die and the other of two; none
    for an automatic hit), every such roll equally likely (AC-D20-1..3, AC-OBJ-4)."""
    setting = roll_setting(question, roll)
    if setting is None:
        return RollShown((), "normal", roll.attack.attack_bonus, 0, result.result, result.damage)
    mode, ac = setting
    critical_hits = question.target_unconscious and question.attacker_adjacent
    faces = d20_faces(draw, mode, lambda n: attack_result(n, attack_bonus=roll.attack.attack_bonus, armour_class=ac, hits_critical=critical_hits) == result.result)
    return RollShown(faces, mode, roll.attack.attack_bonus, ac, result.result, result.damage)


def _parts(roll: Dist[RollResult], push_squares: int) -> dict[tuple[Part, RollResult], int]:
    return {(_part(o, push_squares), o): w for o, w in roll.items()}


def _part(result: RollResult, push_squares: int) -> Part:
    """What one roll adds to an action's hits, crits, squares pushed and damage."""
    hits, crits = _COUNTS[result.result]
    return hits, crits, hits * push_squares, result.damage


def _add_parts(part: dict[tuple[Part, RollResult], int], rest: dict[Part, int]) -> dict[Part, int]:
    out: dict[Part, int] = {}
    for (key, _), w in part.items():
        for other, v in rest.items():
            total = (key[0] + other[0], key[1] + other[1], key[2] + other[2], key[3] + other[3])
            out[total] = out.get(total, 0) + w * v
    return out


def _minus(a: Part, b: Part) -> Part:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


@functools.lru_cache(maxsize=4096)
def solo_attack(question: SoloAttackQuestion) -> Dist[SoloHits]:
    """An action's attack rolls against a solo, each hit applied as it lands (AC-DMG-5, AC-SOLO-5): once the solo
    is unconscious the later rolls have advantage (and disadvantage from afar, as it is prone) and hit critically
    from next to it; no roll is made at a dead solo."""
    if question.attack.no_effect:
        return Dist.always(SoloHits(0, 0, 0, 0, question.condition.hp, question.condition.status, question.condition.failures))
    return hits_on_solo(question.condition, _solo_rolls(question.attack)[2], maximum=question.maximum, pc=question.pc)


@functools.lru_cache(maxsize=1024)
def _solo_rolls(question: AttackQuestion) -> tuple[AttackQuestion, AttackQuestion, tuple[SoloRoll, ...]]:
    """The question while the solo is conscious and while it is unconscious (AC-DMG-5), and each roll in both."""
    awake = replace(question, target_unconscious=False)
    down = replace(question, target_unconscious=True)
    return awake, down, tuple(SoloRoll(roll_dist(awake, roll), roll_dist(down, roll), roll.push_squares) for roll in question.rolls)


def solo_faces(question: SoloAttackQuestion, hits: SoloHits, draw: Draw) -> tuple[RollShown, ...]:
    """The rolls behind *hits*, in order, each made at the solo as the rolls before it left it (AC-DMG-5, AC-SOLO-5):
    its result (:func:`_next_roll`), then its d20s given its result, with advantage once the solo is unconscious. No
    roll is made at a dead solo. With :func:`solo_attack`'s result, exactly the odds of rolling them (AC-D20-1..3)."""
    if question.attack.no_effect:
        return ()
    awake, down, _ = _solo_rolls(question.attack)
    condition = question.condition
    left: Part = (hits.hits, hits.crits, hits.pushed, hits.damage)
    end = Condition(hits.hp, hits.status, hits.failures)
    shown: list[RollShown] = []
    for k, roll in enumerate(question.attack.rolls):
        if condition.status == "dead":
            break
        made = down if condition.unconscious else awake
        result, after = draw(_next_roll(question, k, condition, left, end))
        left = _minus(left, _part(result, roll.push_squares))
        shown.append(_shown(made, roll, result, draw))
        condition = after
    return tuple(shown)


@functools.lru_cache(maxsize=1024)
def _next_roll(
    question: SoloAttackQuestion, k: int, condition: Condition, left: Part, end: Condition
) -> Dist[tuple[RollResult, Condition]]:
    """The result of the *k*-th roll at a solo in *condition*, and the condition it leaves it in, given that the rolls
    from it on add up to *left* and leave the solo in *end*: each result weighted by its chance in that condition
    times the chance that the rolls after it, from the condition it leaves, make the rest (AC-DMG-5)."""
    roll = question.attack.rolls[k]
    solo_roll = _solo_rolls(question.attack)[2][k]
    chances: dict[tuple[RollResult, Condition], Fraction] = {}
    for result, p in (solo_roll.unconscious if condition.unconscious else solo_roll.conscious).probabilities().items():
        after = condition if result.result == "miss" else take_damage(
            condition, result.damage, critical=result.result == "critical", maximum=question.maximum, pc=question.pc
        )
        hits, crits, pushed, damage = _minus(left, _part(result, roll.push_squares))
        rest = SoloHits(hits, crits, damage, pushed, end.hp, end.status, end.failures)
        chances[result, after] = p * _solo_rest(question, k + 1, after).probability(rest)
    total = sum(chances.values(), Fraction(0))
    return Dist.from_probabilities({key: p / total for key, p in chances.items() if p})


@functools.lru_cache(maxsize=1024)
def _solo_rest(question: SoloAttackQuestion, start: int, condition: Condition) -> Dist[SoloHits]:
    """What the rolls of *question* from the *start*-th on do to the solo from *condition* (AC-DMG-5)."""
    return hits_on_solo(condition, _solo_rolls(question.attack)[2][start:], maximum=question.maximum, pc=question.pc)


def stand_rolls(question: AttackQuestion, *, supported: bool) -> list[Dist[RollResult]]:
    """Every roll of one stand's Attack action against a stand, the reach bonus roll included (AC-ATTACK-3)."""
    situation = replace(question, supported=supported)
    return [roll_dist(situation, roll) for roll in situation.rolls]


def unit_attack(situation: UnitAttackQuestion) -> Dist[UnitAttackOutcome]:
    """A unit's stands all attacking one target stand; damage overflows along the chain (§6.4, AC-DMG-2).

    ``stands − supporting_stands`` stands attack and ``min(supporting_stands, attackers)`` of them are
    supported (AC-ATTACK-6); ``stands_reduced`` = min(target_stands, damage ÷ target_hp).

    The stands are added up in two halves, each total capped at the chain's HP (damage beyond it
    brings down no more stands), and the halves are then met bucket by bucket: weights grow with every
    stand added, so two half-length sums cost far less than one full-length sum.
    """
    attackers = situation.stands - situation.supporting_stands
    with_support = min(situation.supporting_stands, attackers)
    without = attackers - with_support
    hp, chain = situation.stand.target_hp, situation.target_stands
    rolls = {
        is_supported: stand_rolls(situation.stand, supported=is_supported)
        for is_supported, count in ((True, with_support), (False, without))
        if count
    }
    step = _step(roll for group in rolls.values() for roll in group)
    cap = -(-chain * hp // step)  # in damage ÷ step: anything from here on fells the whole chain
    one_stand = {
        is_supported: tables.capped(_stand_table(group, step), cap) for is_supported, group in rolls.items()
    }

    def plus(table: tables.Table, is_supported: bool) -> tables.Table:
        return tables.capped(tables.convolve(table, one_stand[is_supported]), cap)

    common: tables.Table = [1]
    for is_supported, count in ((True, with_support // 2), (False, without // 2)):
        for _ in range(count):
            common = plus(common, is_supported)
    first = plus(common, True) if with_support % 2 else common
    second = plus(common, False) if without % 2 else common
    return Dist(
        (UnitAttackOutcome(reduced), weight)
        for reduced, weight in _stands_reduced(first, second, hp=hp, chain=chain, step=step).items()
    )


def _stand_table(rolls: list[Dist[RollResult]], step: int) -> tables.Table:
    """One stand's total damage ÷ step over its rolls, weight by value."""
    total: tables.Table = [1]
    for roll in rolls:
        total = tables.convolve(total, tables.from_weights(_damage_weights(roll, step)))
    return total


def _damage_weights(roll: Dist[RollResult], step: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for outcome, weight in roll.items():
        out[outcome.damage // step] = out.get(outcome.damage // step, 0) + weight
    return out


def _stands_reduced(first: tables.Table, second: tables.Table, *, hp: int, chain: int, step: int) -> dict[int, int]:
    """Weights of min(chain, (x + y) × step ÷ hp) for independent totals x and y (in damage ÷ step)."""
    below = [0]  # below[i] = weight of second < i
    for weight in second:
        below.append(below[-1] + weight)
    # (x + y) × step ≥ r × hp  ⟺  x + y ≥ ⌈r × hp ÷ step⌉
    thresholds = [-(-r * hp // step) for r in range(chain + 1)]
    out: dict[int, int] = {}
    for x, weight in enumerate(first):
        if not weight:
            continue
        for reduced in range(chain + 1):
            low = min(len(second), max(0, thresholds[reduced] - x))
            high = len(second) if reduced == chain else min(len(second), max(0, thresholds[reduced + 1] - x))
            if high > low:
                out[reduced] = out.get(reduced, 0) + weight * (below[high] - below[low])
    return out
