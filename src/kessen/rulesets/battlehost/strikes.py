"""Strikes: To Wound rolls by the winners, doubled against the trapped, spread in order (BH-STRIKE-1..9)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from kessen.dice import Dist, binomial
from kessen.rulesets.battlehost.inputs import StrikesInput
from kessen.rulesets.battlehost.wounding import to_wound_modifier, wound_chance, wound_chart


def counts_as_trapped(*, trapped: bool, prone: bool) -> bool:
    """A loser that could not back away, or any prone loser, is trapped (BH-BACK-4, BH-BACK-5).

    >>> counts_as_trapped(trapped=False, prone=True)
    True
    """
    return trapped or prone


def rolls_per_strike(*, trapped: bool, prone: bool = False) -> int:
    """To Wound rolls in one strike: two at a trapped (or prone) model, else one; the two never stack (BH-STRIKE-5).

    >>> rolls_per_strike(trapped=False), rolls_per_strike(trapped=True, prone=True)
    (1, 2)
    """
    return 2 if counts_as_trapped(trapped=trapped, prone=prone) else 1


def makes_strikes(*, prone: bool) -> bool:
    """A winning model strikes unless it is prone: a prone winner may stand up instead (BH-BACK-5, BH-STRIKE-4).

    >>> makes_strikes(prone=True)
    False
    """
    return not prone


def strike_chance(*, strength: int, defence: int, two_handed: bool) -> Fraction:
    """The chance that one To Wound roll of a strike wounds: striker's Strength against target's Defence,
    +1 per die with a two-handed weapon (BH-STRIKE-2, BH-STRIKE-6).

    >>> strike_chance(strength=3, defence=5, two_handed=True)
    Fraction(1, 2)
    """
    return wound_chance(wound_chart(strength, defence), to_wound_modifier(two_handed=two_handed))


def strike_targets_allowed(alive: Sequence[bool], struck: Sequence[int]) -> tuple[int, ...]:
    """The indices of enemies the next strike may aim at (BH-STRIKE-7, BH-STRIKE-9).

    *alive* says which enemies of the fight still live; *struck* lists, in order, the enemies this
    model has already aimed strikes at. It may carry on at its current target while that lives, or
    start on a living enemy it has not struck yet; it never goes back to one it has left. A current
    target that was slain is not "left": the next strike may go to any living enemy not yet struck.

    >>> strike_targets_allowed([True, False, True], [0, 1])   # struck X, then slew Y: Z only
    (2,)
    >>> strike_targets_allowed([True, True, True], [0])       # still on X, or start on Y or Z
    (0, 1, 2)
    """
    current = struck[-1] if struck else None
    return tuple(i for i, living in enumerate(alive) if living and (i == current or i not in struck))


@dataclass(frozen=True, slots=True)
class Striker:
    """A winning model as its strikes see it (BH-STRIKE-2, BH-STRIKE-4, BH-STRIKE-6)."""

    attacks: int
    strength: int
    two_handed: bool = False


@dataclass(frozen=True, slots=True)
class StrikeTarget:
    """A losing model as strikes see it: Defence, wounds left and whether it is trapped (BH-STRIKE-3, BH-STRIKE-5)."""

    defence: int
    wounds: int
    trapped: bool = False


@functools.lru_cache(maxsize=4096)
def _one_strike(chance: Fraction, rolls: int, wounds_left: int) -> Dist[int]:
    """Wounds one strike inflicts: *rolls* To Wound rolls, any roll after the target is slain lost (BH-STRIKE-9)."""
    return binomial(rolls, chance).map(lambda hits: min(hits, wounds_left))


def resolve_strikes(strikers: Sequence[Striker], targets: Sequence[StrikeTarget]) -> Dist[tuple[int, int]]:
    """(wounds inflicted, models slain) under the default allocation of BH-PROC-5 (BH-STRIKE-3..9).

    The strikers strike in the order given; each strike goes to the first target in list order not
    yet slain, so a striker stays on a target until it is slain and then moves on, never back
    (BH-STRIKE-7). A strike at a trapped target is two rolls, the second lost if the first slays it;
    strikes left when every target is slain are lost (BH-STRIKE-9). The state after each strike is
    only (current target, its wounds left), so equal states merge and no dice are enumerated.
    """
    if not targets:
        return Dist.always((0, 0))
    n = len(targets)
    state: Dist[tuple[int, int]] = Dist.always((0, targets[0].wounds))

    def strike(striker: Striker) -> Dist[tuple[int, int]]:
        def after(current: tuple[int, int]) -> Dist[tuple[int, int]]:
            index, wounds_left = current
            if index == n:
                return Dist.always(current)
            target = targets[index]
            chance = strike_chance(strength=striker.strength, defence=target.defence, two_handed=striker.two_handed)
            inflicted = _one_strike(chance, rolls_per_strike(trapped=target.trapped), wounds_left)

            def moved_on(hits: int) -> tuple[int, int]:
                if hits < wounds_left:
                    return (index, wounds_left - hits)
                return (index + 1, targets[index + 1].wounds if index + 1 < n else 0)

            return inflicted.map(moved_on)

        return state.bind(after)

    for striker in strikers:
        for _ in range(striker.attacks):
            state = strike(striker)

    def tally(current: tuple[int, int]) -> tuple[int, int]:
        index, wounds_left = current
        done = sum(t.wounds for t in targets[:index])
        partial = targets[index].wounds - wounds_left if index < n else 0
        return (done + partial, index)

    return state.map(tally)


@dataclass(frozen=True, slots=True)
class StrikesOutcome:
    """Wounds inflicted on the target and whether it was slain (BH-PROC-3)."""

    wounds: int
    slain: bool


def strikes(attack: StrikesInput) -> Dist[StrikesOutcome]:
    """Strikes at one target: strikes × (2 if trapped or prone, else 1) To Wound rolls (BH-PROC-3, BH-STRIKE-2..6).

    A binomial count of successes; wounds beyond the target's remaining wounds are lost.
    """
    rolls = attack.strikes * rolls_per_strike(trapped=attack.trapped, prone=attack.prone)
    chance = strike_chance(strength=attack.strength, defence=attack.defence, two_handed=attack.two_handed)
    return binomial(rolls, chance).map(
        lambda hits: StrikesOutcome(wounds=min(hits, attack.wounds), slain=hits >= attack.wounds)
    )
