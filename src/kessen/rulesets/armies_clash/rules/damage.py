"""Damage: rolling a damage expression, critical dice, doubling and halving, resistance (§5.1, §5.7, §5.17, §5.23),
and solos under the standard rules: damage hit by hit, falling unconscious, dying and massive damage (§5.5, AC-DMG-5).

A solo is never a casualty (AC-SOLO-5). Each hit is judged on its own, in the order the rolls are made
(AC-DMG-5): a hit that takes a conscious solo to 0 HP kills an NPC; a PC falls unconscious and dying, unless the
damage left over is at least its HP maximum (instant death). Each later hit that deals damage to an unconscious
PC (dying or stable) is a failed death save, two for a critical hit, and a hit of at least its HP maximum kills
it; three failures kill it. A hit that deals no damage changes nothing.

[FILL] The unconscious condition of the 5e rules, which the seed's "standard rules" bring with it: attack rolls
against an unconscious solo have advantage; it is also prone, so an attacker that is not next to it rolls with
disadvantage as well (the two cancel, AC-D20-2); a hit from an attacker next to it is a critical hit; and it
fails Strength and Dexterity saving throws automatically (see ``rules.attack.attack_roll_mode``,
``rules.spells.save``).
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Literal

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw, sum_faces, sum_ways, weighted
from kessen.rulesets.armies_clash.rules import tables
from kessen.rulesets.armies_clash.rules.d20 import AttackResult, RollShown
from kessen.rulesets.armies_clash.rules.dice_strings import DiceExpression

Resistance = Literal["none", "resistance", "vulnerability", "immunity"]


@record
class RollResult:
    """What one attack roll (or one other damage instance) did: missed, hit or hit critically, and the damage."""

    result: AttackResult
    damage: int


MISS = RollResult("miss", 0)


@functools.lru_cache(maxsize=4096)
def dice_sum(sides: int, count: int) -> tables.Table:
    """Weights of the sum of *count* dice of *sides* faces, by value (by repeated squaring, not by
    listing every roll).

    >>> dice_sum(6, 2)[7], sum(dice_sum(6, 2))
    (6, 36)
    """
    result: tables.Table = [1]
    power: tables.Table = [0] + [1] * sides
    while count:
        if count & 1:
            result = tables.convolve(result, power)
        count >>= 1
        if count:
            power = tables.convolve(power, power)
    return result


@functools.lru_cache(maxsize=4096)
def damage_roll(expression: DiceExpression, *, critical: bool = False) -> Dist[int]:
    """The value of one damage roll: all dice plus the signed constants, never below 0 (AC-PROC-DICE, AC-D20-5).

    A critical hit rolls every dice term twice over, and adds the constants once (AC-D20-4).

    >>> from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
    >>> damage_roll(parse_dice("1d4-2")).probability(0)
    Fraction(1, 2)
    >>> damage_roll(parse_dice("1d8+1"), critical=True).probability(17)
    Fraction(1, 64)
    """
    per_term = 2 if critical else 1
    counts: Counter[int] = Counter()
    for sides, count in expression.dice:
        counts[sides] += per_term * count
    total: tables.Table = [1]
    for sides, count in sorted(counts.items()):
        total = tables.convolve(total, dice_sum(sides, count))
    floored: defaultdict[int, int] = defaultdict(int)
    for dice, weight in enumerate(total):
        if weight:
            floored[max(0, dice + expression.modifier)] += weight
    return Dist(floored)


@record
class DamageShown:
    """A damage roll as the table sees it: every die rolled, in the order of the expression's terms, and the
    constant added (AC-PROC-DICE)."""

    dice: tuple[int, ...]
    modifier: int


def damage_faces(draw: Draw, expression: DiceExpression, raw: Callable[[int], bool], *, critical: bool = False) -> DamageShown:
    """The dice of one damage roll whose value (dice plus constants, never below 0) passes *raw*: the dice's sum
    weighted by the rolls that make it, then the dice given their sum, every such roll equally likely
    (AC-PROC-DICE, AC-D20-4: a critical hit rolls each term's dice twice over)."""
    sides = tuple(s for s, count in expression.dice for _ in range((2 if critical else 1) * count))
    total = int(weighted(draw, {
        t: sum_ways(sides, t) for t in range(len(sides), sum(sides) + 1) if raw(max(0, t + expression.modifier))
    }))
    return DamageShown(sum_faces(draw, sides=sides, total=total), expression.modifier)


def apply_resistance(damage: int, resistance: Resistance) -> int:
    """The target's response to the damage type, after every other multiplier (AC-D20-7).

    Resistance halves rounding down, vulnerability doubles, immunity gives 0.

    >>> [apply_resistance(7, r) for r in ("none", "resistance", "vulnerability", "immunity")]
    [7, 3, 14, 0]
    """
    if resistance == "resistance":
        return damage // 2
    if resistance == "vulnerability":
        return damage * 2
    if resistance == "immunity":
        return 0
    return damage


def hit_damage(rolled: int, *, target_isolated: bool, resistance: Resistance) -> int:
    """The damage one hit deals: the roll, doubled against an isolated target, then resistance
    (AC-INTEG-1, AC-D20-7, step 7 of §6.3).

    >>> hit_damage(12, target_isolated=True, resistance="resistance")
    12
    """
    return apply_resistance(rolled * 2 if target_isolated else rolled, resistance)


def scaled_damage(raw: int, *, doublings: int, halvings: int, resistance: Resistance) -> int:
    """One area or save effect on one target: ⌊raw × 2^up ÷ 2^down⌋, then resistance (AC-AOE-9).

    Multiplying first and rounding once means a stand-cast spell halved by a save deals exactly
    the rolled damage.

    >>> scaled_damage(7, doublings=1, halvings=1, resistance="none"), scaled_damage(7, doublings=0, halvings=2, resistance="none")
    (7, 1)
    """
    return apply_resistance((raw << doublings) >> halvings, resistance)


# --- solos (AC-SOLO-5, AC-DMG-5) -------------------------------------------------------------------------------

SoloStatus = Literal["up", "dying", "stable", "dead"]


@record
class Condition:
    """A solo's hit points and how it stands: up, dying (unconscious at 0 HP, rolling death saves), stable
    (unconscious at 0 HP, not rolling) or dead; ``failures`` are the failed death saves of a dying solo."""

    hp: int
    status: SoloStatus = "up"
    failures: int = 0

    @property
    def unconscious(self) -> bool:
        """Dying or stable: at 0 HP and unconscious (AC-SOLO-5)."""
        return self.status in ("dying", "stable")


@record
class SoloRoll:
    """One damage instance on a solo: the roll's distribution while the solo is conscious and while it is
    unconscious (advantage, critical hits from next to it), and the squares one of its hits pushes the solo."""

    conscious: Dist[RollResult]
    unconscious: Dist[RollResult]
    push_squares: int = 0


@record
class SoloHits:
    """What an action's rolls did to a solo: hits, critical hits, damage dealt, squares pushed, and the solo's
    hit points, status and failed death saves afterwards; in a battle, *dice* are the rolls made
    (``rules.attack.solo_faces``: none at a dead solo)."""

    hits: int
    crits: int
    damage: int
    pushed: int
    hp: int
    status: SoloStatus
    failures: int
    dice: tuple[RollShown, ...] = dice_field()


_Key = tuple[int, int, int, SoloStatus, int]  # hits, crits, pushed, status, failures → table by damage dealt


def hits_on_solo(start: Condition, rolls: Sequence[SoloRoll], *, maximum: int, pc: bool) -> Dist[SoloHits]:
    """The solo's fate after *rolls*, applied one after another in order (AC-DMG-5, AC-SOLO-5).

    Rolls after the solo is dead are not made. Kept as tables of total damage per (hits, crits, pushed, status,
    failures): a conscious solo's status follows from the total so far, an unconscious one's from each hit alone.

    Two sure hits of 1d6 on a PC with 3 HP left (maximum 6): the first drops it on 3+ (4/6), the second is then
    one failed death save unless it rolls 6 (5/6):

    >>> from kessen.dice import d
    >>> axe = d(6).map(lambda face: RollResult("hit", face))
    >>> fate = hits_on_solo(Condition(3), [SoloRoll(axe, axe)] * 2, maximum=6, pc=True)
    >>> fate.probability(lambda o: o.status == "dying" and o.failures == 1)
    Fraction(5, 9)
    """
    joint: dict[_Key, tables.Table] = {(0, 0, 0, start.status, start.failures): [1]}
    for roll in rolls:
        joint = _after(joint, roll, hp=start.hp, maximum=maximum, pc=pc)
    return Dist(
        (SoloHits(hits, crits, total, pushed, start.hp - total if status == "up" else 0, status, failures), weight)
        for (hits, crits, pushed, status, failures), table in joint.items()
        for total, weight in enumerate(table)
    )


@functools.lru_cache(maxsize=4096)
def take_damage(condition: Condition, damage: int, *, critical: bool, maximum: int, pc: bool) -> Condition:
    """One damage instance (one hit, one spell effect) on a solo (AC-DMG-5).

    >>> take_damage(Condition(5), 14, critical=False, maximum=9, pc=True)
    Condition(hp=0, status='dead', failures=0)
    >>> take_damage(Condition(0, "dying", 1), 3, critical=True, maximum=9, pc=True)
    Condition(hp=0, status='dead', failures=0)
    """
    hit = Dist.always(RollResult("critical" if critical else "hit", damage))
    (after,) = hits_on_solo(condition, [SoloRoll(hit, hit)], maximum=maximum, pc=pc).outcomes()
    return Condition(after.hp, after.status, after.failures)


def _after(joint: dict[_Key, tables.Table], roll: SoloRoll, *, hp: int, maximum: int, pc: bool) -> dict[_Key, tables.Table]:
    """The tables after one more roll, every table over the same common denominator."""
    common = math.lcm(roll.conscious.total, roll.unconscious.total)
    awake, down = _rows(roll.conscious, common), _rows(roll.unconscious, common)
    out: dict[_Key, tables.Table] = {}

    def put(key: _Key, table: tables.Table) -> None:
        if any(table):
            out[key] = tables.add([out[key], table]) if key in out else table

    # a conscious solo falls once the total reaches its HP; a PC dies outright only if the rest is its maximum
    dying_from, dead_from = hp, hp + maximum if pc else hp
    for key, table in joint.items():
        hits, crits, pushed, status, failures = key
        if status == "dead":  # no more rolls are made
            put(key, tables.scaled(table, common))
            continue
        for result, weights in (down if status in ("dying", "stable") else awake).items():
            if result == "miss":
                put(key, tables.scaled(table, sum(weights.values())))
                continue
            critical = result == "critical"
            moved = (hits + 1, crits + int(critical), pushed + roll.push_squares)
            if status == "up":
                total = tables.convolve(table, tables.from_weights(weights))
                put((*moved, "up", failures), total[:dying_from])
                put((*moved, "dying", 0), _from(total, dying_from, dead_from))
                put((*moved, "dead", 0), _from(total, dead_from, len(total)))
                continue
            harmless = {r: w for r, w in weights.items() if r == 0}
            hurt = {r: w for r, w in weights.items() if 0 < r < maximum}
            massive = {r: w for r, w in weights.items() if r >= maximum}
            failed = failures + (2 if critical else 1)
            hurt_to: tuple[SoloStatus, int] = ("dead", 0) if failed >= 3 else ("dying", failed)
            parts: tuple[tuple[dict[int, int], tuple[SoloStatus, int]], ...] = (
                (harmless, (status, failures)), (hurt, hurt_to), (massive, ("dead", 0)),
            )
            for part, (now, tally) in parts:
                if part:
                    put((*moved, now, tally), tables.convolve(table, tables.from_weights(part)))
    return out


def _rows(roll: Dist[RollResult], common: int) -> dict[str, dict[int, int]]:
    """The roll's weights by result and damage, scaled to the denominator *common*."""
    factor = common // roll.total
    rows: dict[str, dict[int, int]] = {}
    for outcome, weight in roll.items():
        row = rows.setdefault(outcome.result, {})
        row[outcome.damage] = row.get(outcome.damage, 0) + weight * factor
    return rows


def _from(table: tables.Table, low: int, high: int) -> tables.Table:
    """The weights of totals in [low, high), the others zero (a table still indexed by total)."""
    return [0] * min(low, len(table)) + table[low:high]
