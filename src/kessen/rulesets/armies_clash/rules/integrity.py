"""Unit integrity and isolation: who is too far from its allies (§5.7)."""

from __future__ import annotations

from collections.abc import Iterable

from kessen.rulesets.armies_clash.rules.grid import Footprint, distance

REGIMENT_SPACING = 1
"""A regiment stand must be next to another stand of its unit (AC-INTEG-2)."""
LOOSE_SPACING = 2
"""A skirmisher stand, and an unattached solo, must be within 2 squares of an ally (AC-INTEG-3, AC-INTEG-4)."""


def stand_isolated(stand: Footprint, mates: Iterable[Footprint], *, regiment: bool) -> bool:
    """Whether a stand is isolated (AC-INTEG-2, AC-INTEG-3, AC-INTEG-5): a regiment stand with no other stand of its
    unit adjacent, a skirmisher stand with none within 2 squares; never when it is its unit's only stand. *mates* are
    the footprints of the unit's other stands, casualties on the grid included (AC-INTEG-6).

    >>> stand_isolated(Footprint(3, 0), [Footprint(0, 0), Footprint(1, 0)], regiment=True)
    True
    >>> stand_isolated(Footprint(2, 0), [Footprint(0, 0)], regiment=False), stand_isolated(Footprint(0, 0), [], regiment=True)
    (False, False)
    """
    others = list(mates)
    if not others:
        return False
    reach = REGIMENT_SPACING if regiment else LOOSE_SPACING
    return all(distance(stand, other) > reach for other in others)


def solo_isolated(solo: Footprint, allied_stands: Iterable[Footprint]) -> bool:
    """An unattached solo is isolated when no allied stand of any unit is within 2 squares (AC-INTEG-4); a joined
    solo never is (the referee does not ask).

    >>> solo_isolated(Footprint(5, 5), [Footprint(5, 7)]), solo_isolated(Footprint(5, 5), [Footprint(6, 7)])
    (False, True)
    """
    return not any(distance(solo, stand) <= LOOSE_SPACING for stand in allied_stands)
