"""Initiative: each unit's modifier, the turn order and its ties (§5.10, §6.8)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations, groupby, permutations
from typing import Literal

from kessen.core.records import record
from kessen.dice import Dist

Roller = Literal["skirmisher", "regiment", "solo"]


@record
class InitiativeEntry:
    """A unit or unattached solo rolling initiative: its name, its kind and its Dexterity modifiers (§6.8)."""

    id: str
    type: Roller
    dex_modifiers: tuple[int, ...]


@record
class InitiativeQuestion:
    """Two or more units and solos rolling initiative (§6.8)."""

    units: tuple[InitiativeEntry, ...]


@record
class InitiativeOutcome:
    """The turn order (ids joined by commas) and who acts first (§6.8)."""

    order: str
    first: str


def initiative_modifier(roller: Roller, dex_modifiers: Sequence[int]) -> int:
    """A skirmisher uses its highest Dexterity modifier, a regiment its lowest, a solo its own
    (AC-INIT-2, AC-SKIRM-2, AC-REG-1).

    >>> initiative_modifier("regiment", [1, 1, 3]), initiative_modifier("skirmisher", [1, 1, 3])
    (1, 3)
    """
    if roller == "regiment":
        return min(dex_modifiers)
    return max(dex_modifiers)


def tie_groups(rolled: Sequence[tuple[str, int, int]]) -> tuple[tuple[str, ...], ...]:
    """The turn order from ``(id, modifier, total)`` entries, as groups still tied (AC-INIT-3).

    Higher total first; equal totals go to the higher modifier; entries equal in both form one group,
    to be put in a fair random order (every order equally likely).

    >>> tie_groups([("a", 2, 12), ("b", 2, 12), ("c", 0, 12), ("d", 5, 14)])
    (('d',), ('a', 'b'), ('c',))
    """
    ranked = sorted(rolled, key=lambda entry: (-entry[2], -entry[1]))
    return tuple(
        tuple(entry[0] for entry in group) for _, group in groupby(ranked, key=lambda entry: (entry[2], entry[1]))
    )


def _orders_at_one_total(units: Sequence[tuple[str, int]]) -> Iterator[tuple[tuple[str, ...], Fraction]]:
    """Every order of units that rolled the same total, with its probability: higher modifier first,
    equal modifiers in every order equally often (AC-INIT-3)."""
    groups = [tuple(u[0] for u in group) for _, group in groupby(sorted(units, key=lambda u: -u[1]), key=lambda u: u[1])]
    share = Fraction(1, math.prod(math.factorial(len(group)) for group in groups))

    def expand(i: int) -> Iterator[tuple[str, ...]]:
        if i == len(groups):
            yield ()
            return
        for head in permutations(groups[i]):
            for tail in expand(i + 1):
                yield head + tail

    for order in expand(0):
        yield order, share


def initiative(situation: InitiativeQuestion) -> Dist[InitiativeOutcome]:
    """The distribution of the turn order when each entry rolls d20 + its modifier (AC-INIT-2, AC-INIT-3).

    Walks the possible totals from the highest down, deciding at each total which of the entries not yet
    placed rolled it; each entry's total is uniform over its 20 values, so every such assignment weighs
    the same, and ties at one total and modifier are shared fairly among their orders. This never lists
    the 20^k combinations of dice.
    """
    units = [(u.id, initiative_modifier(u.type, u.dex_modifiers)) for u in situation.units]
    orders: dict[tuple[str, ...], Fraction] = {(): Fraction(1)}  # ids placed so far → probability
    highest = max(modifier for _, modifier in units) + 20
    lowest = min(modifier for _, modifier in units) + 1
    for total in range(highest, lowest - 1, -1):
        following: defaultdict[tuple[str, ...], Fraction] = defaultdict(Fraction)
        for placed, weight in orders.items():
            waiting = [u for u in units if u[0] not in placed]
            able = [u for u in waiting if u[1] + 1 <= total <= u[1] + 20]
            last_chance = [u for u in able if u[1] + 1 == total]  # lower totals are out of their reach
            optional = [u for u in able if u[1] + 1 < total]
            for size in range(len(optional) + 1):
                for chosen in combinations(optional, size):
                    here = last_chance + list(chosen)
                    # each entry shows a given total on one face of twenty
                    chance = Fraction(1, 20 ** len(here))
                    for order, share in _orders_at_one_total(here):
                        following[placed + order] += weight * chance * share
        orders = following
    assert all(len(placed) == len(units) for placed in orders)
    return Dist.from_probabilities(
        {InitiativeOutcome(order=",".join(placed), first=placed[0]): p for placed, p in orders.items()}
    )
