"""The pieces on the grid during a battle: stands, units and solos, their movement budgets and their
integrity (§5.3–§5.7, §5.12, §5.19).

These are frozen values; the game replaces them as the battle goes on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from kessen.rulesets.armies_clash.grid import Footprint, distance

UnitType = Literal["skirmisher", "regiment"]
FormationName = Literal["support", "defensive", "march"]
SoloStatus = Literal["up", "dying", "stable", "dead", "gone"]


@dataclass(frozen=True, slots=True)
class Stand:
    """A stand on the grid (§4.3); ``hp`` 0 is a casualty (AC-DMG-3)."""

    id: str
    unit: str
    creature: str
    x: int
    y: int
    size: int
    hp: int
    isolated: bool = False
    hidden: bool = False
    spells_used: tuple[tuple[str, int], ...] = ()

    @property
    def footprint(self) -> Footprint:
        return Footprint(self.x, self.y, self.size)

    @property
    def casualty(self) -> bool:
        return self.hp == 0


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit (§4.4, §5.4) and its battle status."""

    id: str
    side: str
    type: UnitType
    formation: FormationName | None
    commander: str | None
    attrition_vp: int | None
    starting_stands: int
    routed: bool = False
    eliminated: bool = False
    incite_next: bool = False
    incited: bool = False
    prepared: bool = False
    prepared_round: int = 0


@dataclass(frozen=True, slots=True)
class Solo:
    """A solo (§4.5, §5.5): unattached on the grid at ``(x, y)`` or joined to a stand."""

    id: str
    side: str
    creature: str
    size: int
    x: int
    y: int
    joined_to: str | None
    hp: int
    pc: bool
    can_command: bool
    status: SoloStatus = "up"
    successes: int = 0
    failures: int = 0
    isolated: bool = False
    hidden: bool = False
    own_turn: bool = False
    spells_used: tuple[tuple[str, int], ...] = ()

    @property
    def footprint(self) -> Footprint:
        return Footprint(self.x, self.y, self.size)

    @property
    def on_grid(self) -> bool:
        """An unattached solo that is still in the battle (alive or down, not fled)."""
        return self.joined_to is None and self.status in ("up", "dying", "stable")


def speed_squares(speed_ft: int) -> int:
    """Speed in squares = feet ÷ 5, rounded down (AC-STAND-3; a 30-ft hobgoblin stand moves 6).

    >>> speed_squares(30), speed_squares(25)
    (6, 5)
    """
    return speed_ft // 5


def forced_squares(distance_ft: int) -> int:
    """A monster ability's movement distance (push, pull, leap, teleport) in squares: feet ÷ 5, rounded down, like
    speed (AC-STAND-4; a minotaur's 10-ft push moves a stand 2 squares).

    >>> forced_squares(10), forced_squares(5), forced_squares(12), forced_squares(4)
    (2, 1, 2, 0)
    """
    return distance_ft // 5


def movement_budget(speed: int, *, formation: FormationName | None, dash: bool) -> int:
    """A stand's or solo's movement budget for one turn (AC-MOVE-1, AC-FORM-2..4, AC-DASH-1).

    Support and defensive regiments move half (round down), or full speed when they Dash; everyone
    else moves full speed, or double when they Dash. ``formation`` is None for skirmishers and solos.

    >>> movement_budget(6, formation="defensive", dash=False), movement_budget(5, formation="defensive", dash=True)
    (3, 5)
    >>> movement_budget(5, formation=None, dash=True), movement_budget(5, formation="march", dash=True)
    (10, 10)
    """
    slow = formation in ("support", "defensive")
    if dash:
        return speed if slow else 2 * speed
    return speed // 2 if slow else speed


def stand_isolated(stand: Stand, unit_type: UnitType, mates: Iterable[Stand]) -> bool:
    """Whether a stand is isolated (AC-INTEG-2, AC-INTEG-3, AC-INTEG-5): a regiment stand with no other stand
    of its unit adjacent, a skirmisher stand with none within 2 squares; never when it is its unit's only stand.
    Casualties still on the grid count (AC-INTEG-6)."""
    others = [m.footprint for m in mates if m.id != stand.id]
    if not others:
        return False
    reach = 1 if unit_type == "regiment" else 2
    return all(distance(stand.footprint, o) > reach for o in others)


def solo_isolated(solo: Solo, allied_stands: Iterable[Stand]) -> bool:
    """An unattached solo is isolated when no allied stand of any unit is within 2 squares; a joined solo
    never is (AC-INTEG-4)."""
    if solo.joined_to is not None:
        return False
    here = solo.footprint
    return not any(distance(here, s.footprint) <= 2 for s in allied_stands)


def spell_uses_left(used: tuple[tuple[str, int], ...], spell: str, uses: int | None) -> bool:
    """Whether a caster may cast *spell* again (AC-SPELL-1; ``uses`` None = at will)."""
    return uses is None or dict(used).get(spell, 0) < uses


def spend_spell(used: tuple[tuple[str, int], ...], spell: str) -> tuple[tuple[str, int], ...]:
    counts = dict(used)
    counts[spell] = counts.get(spell, 0) + 1
    return tuple(sorted(counts.items()))
