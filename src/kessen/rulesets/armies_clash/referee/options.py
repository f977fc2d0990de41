"""The choices a general makes during a battle (the options of the engine's decision nodes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kessen.rulesets.armies_clash.rules.movement import Destination

__all__ = [
    "Activate", "ActivateSolo", "AttackWith", "Award", "Benefit", "Cast", "CastArea", "Declare", "Destination", "Done",
    "JoinStand", "Leave", "NoAction", "NoShift", "PassOn", "PlaceAt", "PushTo", "Rally", "Shift", "Stay", "Support", "Switch",
]


@dataclass(frozen=True, slots=True)
class Rally:
    """Whether the commander spends its bonus action to rally a routed unit (AC-MORALE-6)."""

    rally: bool


@dataclass(frozen=True, slots=True)
class Benefit:
    """A solo's bonus action: the commander's ``incite`` or ``prepare`` (AC-CMD-3), ``command`` (become the unit's
    commander) or ``resign`` (give the post up) (AC-CMD-1, AC-CMD-2), or ``none``."""

    name: str


@dataclass(frozen=True, slots=True)
class Declare:
    """The unit's (or unattached solo's) battle action of the turn (AC-ACT-1); ``formation`` for Configure."""

    action: str
    formation: Literal["", "support", "march", "defensive"] = ""


@dataclass(frozen=True, slots=True)
class Activate:
    """The stand that moves and acts next (AC-MOVE-2)."""

    stand: str


@dataclass(frozen=True, slots=True)
class ActivateSolo:
    """The solo joined to one of the unit's stands that takes its turn next, between stand activations (AC-MOVE-2)."""

    solo: str


@dataclass(frozen=True, slots=True)
class Stay:
    """Do not move (now)."""


@dataclass(frozen=True, slots=True)
class AttackWith:
    """Attack *target* with the routine ``using`` (``multiattack`` or one attack's id) (AC-ATTACK-1)."""

    using: str
    target: str


@dataclass(frozen=True, slots=True)
class Support:
    """Forgo this stand's attacks to support the adjacent stand *stand* (AC-ATTACK-6)."""

    stand: str


@dataclass(frozen=True, slots=True)
class Cast:
    """Cast the targeted spell *spell* at *target* (AC-SPELL-3, AC-SPELL-4)."""

    spell: str
    target: str


@dataclass(frozen=True, slots=True)
class CastArea:
    """Cast the area spell *spell* with origin square ``(x, y)``; ``dx, dy`` the direction of a cone or line;
    ``mirrored`` a cone's extra squares on the left (AC-AOE-2..5)."""

    spell: str
    x: int
    y: int
    dx: int = 0
    dy: int = 0
    mirrored: bool = False


@dataclass(frozen=True, slots=True)
class Done:
    """No more targets."""


@dataclass(frozen=True, slots=True)
class NoAction:
    """Take no action (AC-ACT-1)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A joined solo leaves its stand for the squares at ``(x, y)`` (AC-JOIN-4)."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Switch:
    """A joined solo joins the adjacent stand *stand* of its unit at once (AC-JOIN-4)."""

    stand: str


@dataclass(frozen=True, slots=True)
class PassOn:
    """The stand that takes the overflowing damage next (AC-DMG-2)."""

    stand: str


@dataclass(frozen=True, slots=True)
class Shift:
    """Slide *stand* one step (dx, dy) into a vacated footprint (AC-END-2)."""

    stand: str
    dx: int
    dy: int


@dataclass(frozen=True, slots=True)
class NoShift:
    """Leave the gap open."""


@dataclass(frozen=True, slots=True)
class JoinStand:
    """A solo of an eliminated stand joins the adjacent stand *stand* (AC-JOIN-5)."""

    stand: str


@dataclass(frozen=True, slots=True)
class PlaceAt:
    """A solo of an eliminated stand is put on the grid at ``(x, y)`` (AC-JOIN-5)."""

    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Award:
    """Whether a custom objective's condition is met this round (AC-OBJ-6)."""

    award: bool


@dataclass(frozen=True, slots=True)
class PushTo:
    """A pushed piece's footprint ends anchored at ``(x, y)`` (AC-MOVE-8); a square off the grid is a flight."""

    x: int
    y: int
