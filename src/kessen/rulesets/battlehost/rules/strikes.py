"""Strikes: To Wound rolls by the winners, doubled against the trapped, spread in order (BH-STRIKE-1..9)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist, binomial
from kessen.dice.faces import Draw, at_least_count, successes_placed
from kessen.rulesets.battlehost.rules.wounding import to_wound_modifier, wound_chance, wound_chart, wound_roll_faces, wound_roll_weights


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


@record
class Striker:
    """A winning model as its strikes see it (BH-STRIKE-2, BH-STRIKE-4, BH-STRIKE-6)."""

    attacks: int
    strength: int
    two_handed: bool = False


@record
class StrikeTarget:
    """A losing model as strikes see it: Defence, wounds left and whether it is trapped (BH-STRIKE-3, BH-STRIKE-5)."""

    defence: int
    wounds: int
    trapped: bool = False


# The state of a fight's strikes: (index of the loser struck now, that loser's wounds left).
StrikeState = tuple[int, int]


def one_strike_table(striker: Striker, target: StrikeTarget) -> tuple[tuple[tuple[int, int], ...], int]:
    """One strike at *target*, counted over its natural dice: ((successful rolls, ways), ...) and the total
    ways, with two rolls at a trapped target (BH-STRIKE-2, BH-STRIKE-5, BH-STRIKE-6).

    >>> one_strike_table(Striker(attacks=1, strength=3), StrikeTarget(defence=5, wounds=1, trapped=True))
    (((0, 4), (1, 4), (2, 1)), 9)
    """
    wounding, rolls = wound_roll_weights(
        wound_chart(striker.strength, target.defence), to_wound_modifier(two_handed=striker.two_handed)
    )
    common = math.gcd(wounding, rolls)
    wounding, rolls = wounding // common, rolls // common
    r = rolls_per_strike(trapped=target.trapped)
    ways = tuple((hits, math.comb(r, hits) * wounding**hits * (rolls - wounding) ** (r - hits)) for hits in range(r + 1))
    return tuple(w for w in ways if w[1]), rolls**r


def strike_weights(strikers: Sequence[Striker], targets: Sequence[StrikeTarget]) -> tuple[dict[tuple[int, int], int], int]:
    """(wounds inflicted, models slain) → weight, and the total weight, under the default allocation of BH-PROC-5
    (BH-STRIKE-3..9).

    The strikers strike in the order given; each strike goes to the first target in list order not
    yet slain, so a striker stays on a target until it is slain and then moves on, never back
    (BH-STRIKE-7). A strike at a trapped target is two rolls, the second lost if the first slays it;
    strikes left when every target is slain are lost (BH-STRIKE-9). The state after each strike is
    only (current target, its wounds left), so equal states merge and no dice are enumerated; every
    state's weight is kept over one common total.
    """
    n = len(targets)
    if not n:
        return {(0, 0): 1}, 1
    states: dict[StrikeState, int] = {(0, targets[0].wounds): 1}
    total = 1
    for striker in strikers:
        tables = [one_strike_table(striker, target) for target in targets]
        for _ in range(striker.attacks):
            step = math.lcm(*(tables[index][1] for index, _ in states if index < n))
            after: dict[StrikeState, int] = {}
            for (index, wounds_left), weight in states.items():
                if index == n:  # every target slain: the strike is lost
                    after[(index, wounds_left)] = after.get((index, wounds_left), 0) + weight * step
                    continue
                ways, ways_total = tables[index]
                scale = weight * (step // ways_total)
                for hits, w in ways:
                    if hits < wounds_left:
                        state = (index, wounds_left - hits)
                    else:
                        state = (index + 1, targets[index + 1].wounds if index + 1 < n else 0)
                    after[state] = after.get(state, 0) + scale * w
            states, total = after, total * step

    out: dict[tuple[int, int], int] = {}
    for (index, wounds_left), weight in states.items():
        done = sum(t.wounds for t in targets[:index])
        partial = targets[index].wounds - wounds_left if index < n else 0
        key = (done + partial, index)
        out[key] = out.get(key, 0) + weight
    return out, total


def resolve_strikes(strikers: Sequence[Striker], targets: Sequence[StrikeTarget]) -> Dist[tuple[int, int]]:
    """(wounds inflicted, models slain) under the default allocation of BH-PROC-5 (BH-STRIKE-3..9); see :func:`strike_weights`."""
    return Dist(strike_weights(strikers, targets)[0])


@record
class Strikes:
    """Strikes at one target (BH-PROC-3): how many, the striker's Strength and two-handed weapon, the target's
    Defence, remaining wounds and whether it is trapped or prone."""

    strikes: int
    strength: int
    defence: int
    wounds: int = 1
    trapped: bool = False
    prone: bool = False
    two_handed: bool = False


@record
class StrikesOutcome:
    """Wounds inflicted on the target and whether it was slain (BH-PROC-3). In a battle, *dice* are the natural
    faces of each To Wound roll in the order rolled (:func:`strikes_faces`)."""

    wounds: int
    slain: bool
    dice: tuple[tuple[int, ...], ...] = dice_field()


def strikes(attack: Strikes) -> Dist[StrikesOutcome]:
    """Strikes at one target: strikes × (2 if trapped or prone, else 1) To Wound rolls (BH-PROC-3, BH-STRIKE-2..6).

    A binomial count of successes; wounds beyond the target's remaining wounds are lost.
    """
    rolls = attack.strikes * rolls_per_strike(trapped=attack.trapped, prone=attack.prone)
    chance = strike_chance(strength=attack.strength, defence=attack.defence, two_handed=attack.two_handed)
    return binomial(rolls, chance).map(
        lambda hits: StrikesOutcome(wounds=min(hits, attack.wounds), slain=hits >= attack.wounds)
    )


def strikes_faces(attack: Strikes, outcome: StrikesOutcome, draw: Draw) -> tuple[tuple[int, ...], ...]:
    """The natural dice of each To Wound roll behind *outcome*: how many rolls wounded (any number from the target's
    wounds up when it was slain), which ones, then each roll's faces; with :func:`strikes`'s result, exactly the odds
    of rolling them (BH-STRIKE-2..6, BH-WOUND-1..3)."""
    rolls = attack.strikes * rolls_per_strike(trapped=attack.trapped, prone=attack.prone)
    entry, modifier = wound_chart(attack.strength, attack.defence), to_wound_modifier(two_handed=attack.two_handed)
    wounding, ways = wound_roll_weights(entry, modifier)
    hits = outcome.wounds
    if outcome.slain:
        weights = {h: math.comb(rolls, h) * wounding**h * (ways - wounding) ** (rolls - h) for h in range(rolls + 1)}
        hits = at_least_count(draw, weights, attack.wounds)
    return tuple(wound_roll_faces(draw, entry, wounded, modifier) for wounded in successes_placed(draw, rolls, hits))
