"""Core d20 resolution: tests against a target number, advantage and disadvantage, natural 1 and 20 (§5.1)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, TypedDict

from kessen.core.engine import Rolled
from kessen.core.records import record
from kessen.dice import Dist, d
from kessen.dice.faces import Draw

RollMode = Literal["normal", "advantage", "disadvantage"]
AttackResult = Literal["miss", "hit", "critical"]


def roll_mode(*, advantage: bool, disadvantage: bool) -> RollMode:
    """How the d20 is rolled given whether any source of each kind applies (AC-D20-2).

    One source of each cancels, however many there are of either; sources of one kind do not stack.

    >>> roll_mode(advantage=True, disadvantage=True)
    'normal'
    """
    if advantage and not disadvantage:
        return "advantage"
    if disadvantage and not advantage:
        return "disadvantage"
    return "normal"


@functools.lru_cache(maxsize=3)
def d20(mode: RollMode = "normal") -> Dist[int]:
    """The natural result of the kept d20: one die, the higher of two, or the lower of two (AC-D20-2).

    >>> d20("advantage").probability(20)
    Fraction(39, 400)
    """
    die = d(20)
    if mode == "advantage":
        return die.combine(die, max)
    if mode == "disadvantage":
        return die.combine(die, min)
    return die


def succeeds(natural: int, *, bonus: int, target: int) -> bool:
    """A saving throw or ability check: d20 + bonus ≥ the target number; no automatic 1 or 20 (AC-D20-1, AC-D20-3).

    >>> succeeds(20, bonus=-10, target=11)
    False
    """
    return natural + bonus >= target


def attack_result(natural: int, *, attack_bonus: int, armour_class: int, hits_critical: bool = False) -> AttackResult:
    """An attack roll: a natural 20 always hits and is critical, a natural 1 always misses, otherwise
    d20 + attack bonus ≥ AC hits (AC-D20-1, AC-D20-3). With *hits_critical* every hit is a critical hit
    (an attacker next to an unconscious target, AC-DMG-5).

    >>> attack_result(20, attack_bonus=-10, armour_class=40), attack_result(1, attack_bonus=20, armour_class=1)
    ('critical', 'miss')
    >>> attack_result(12, attack_bonus=3, armour_class=13, hits_critical=True)
    'critical'
    """
    if natural == 20:
        return "critical"
    if natural == 1:
        return "miss"
    if natural + attack_bonus < armour_class:
        return "miss"
    return "critical" if hits_critical else "hit"


def success_chance(*, bonus: int, target: int, mode: RollMode = "normal") -> Dist[bool]:
    """Whether a saving throw or check succeeds, as a distribution (AC-D20-1, AC-D20-2).

    >>> success_chance(bonus=5, target=15).probability(True)
    Fraction(11, 20)
    """
    return d20(mode).map(lambda natural: succeeds(natural, bonus=bonus, target=target))



def d20_faces(draw: Draw, mode: RollMode, kept: Callable[[int], bool]) -> tuple[int, ...]:
    """The d20s of one roll whose kept die passes *kept*: one die, or both of two (the higher kept with advantage,
    the lower with disadvantage), every pair equally likely (AC-D20-2)."""
    rolls = _d20_rolls(mode, frozenset(n for n in range(1, 21) if kept(n)))
    return (int(draw(rolls)),) if mode == "normal" else tuple(draw(rolls))


@functools.lru_cache(maxsize=1024)
def _d20_rolls(mode: RollMode, kept: frozenset[int]) -> Dist[Any]:
    """The rolls of one d20, or of two (a pair), whose kept die is one of *kept*, every such roll equally likely;
    cached, as a battle draws from it again and again."""
    if mode == "normal":
        return Dist.uniform(sorted(kept))
    keep = max if mode == "advantage" else min
    return Dist({(a, b): 1 for a in range(1, 21) for b in range(1, 21) if keep(a, b) in kept})


@record
class RollShown:
    """One attack roll as the table sees it (AC-D20-1..3): the d20s rolled (two with advantage or disadvantage,
    none for an automatic hit), the bonus and the AC they were rolled against, and what the roll did."""

    d20: tuple[int, ...]
    mode: RollMode
    bonus: int
    armour_class: int
    result: AttackResult
    damage: int


@record
class CheckShown:
    """A saving throw or check as the table sees it (AC-D20-1..3): its d20s (two with advantage or disadvantage),
    how they were rolled, the bonus and the DC."""

    d20: tuple[int, ...]
    mode: RollMode
    bonus: int
    dc: int


class CheckTold(TypedDict, total=False):
    """A check's dice as the fields of the event that reports it."""

    d20: tuple[int, ...]
    mode: str
    bonus: int
    dc: int


def check_told(shown: CheckShown | None) -> CheckTold:
    """A check's dice as the fields of the event that reports it; none when no die was rolled or it was drawn
    without its dice."""
    return CheckTold() if shown is None else CheckTold(d20=shown.d20, mode=shown.mode, bonus=shown.bonus, dc=shown.dc)


def check_faces(draw: Draw, *, bonus: int, target: int, mode: RollMode, success: bool) -> CheckShown:
    """The d20s of a saving throw or check known to have succeeded or failed: with :func:`success_chance`'s result,
    exactly the odds of rolling them (AC-D20-1..3)."""
    faces = d20_faces(draw, mode, lambda n: succeeds(n, bonus=bonus, target=target) == success)
    return CheckShown(faces, mode, bonus, target)


def success_faces(bonus: int, target: int, outcome: Rolled, draw: Draw) -> CheckShown:
    """The d20 behind a plain check (no advantage) whose success is *outcome*'s value: with
    :func:`success_chance`'s result, exactly the odds of rolling it (AC-D20-1, AC-HIDE-1)."""
    return check_faces(draw, bonus=bonus, target=target, mode="normal", success=bool(outcome.value))
