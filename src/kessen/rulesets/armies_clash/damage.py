"""Damage: rolling a damage expression, critical dice, doubling and halving, resistance (§5.1, §5.7, §5.17, §5.23)."""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Literal

from kessen.dice import Dist
from kessen.rulesets.armies_clash import tables
from kessen.rulesets.armies_clash.d20 import AttackResult
from kessen.rulesets.armies_clash.dice_strings import DiceExpression

Resistance = Literal["none", "resistance", "vulnerability", "immunity"]


@dataclass(frozen=True, slots=True)
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

    >>> from kessen.rulesets.armies_clash.dice_strings import parse_dice
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
