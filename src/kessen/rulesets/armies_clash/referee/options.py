"""The choices a general makes during a battle (the options of the engine's decision nodes)."""

from __future__ import annotations

from typing import Literal

from kessen.core.records import record
from kessen.rulesets.armies_clash.rules.movement import Destination

__all__ = [
    "Activate", "ActivateSolo", "AttackWith", "Award", "Benefit", "Cast", "CastArea", "Declare", "Destination", "Done",
    "JoinStand", "Leave", "NoAction", "NoShift", "PassOn", "PlaceAt", "PushTo", "Rally", "Shift", "Stay", "Support", "Switch",
]


@record
class Rally:
    """Whether the commander spends its bonus action to rally a routed unit (AC-MORALE-6)."""

    rally: bool


@record
class Benefit:
    """A solo's bonus action: the commander's ``incite`` or ``prepare`` (AC-CMD-3), ``command`` (become the unit's
    commander) or ``resign`` (give the post up) (AC-CMD-1, AC-CMD-2), or ``none``."""

    name: str


@record
class Declare:
    """The unit's (or unattached solo's) battle action of the turn (AC-ACT-1); ``formation`` for Configure."""

    action: str
    formation: Literal["", "support", "march", "defensive"] = ""


@record
class Activate:
    """The stand that moves and acts next (AC-MOVE-2)."""

    stand: str


@record
class ActivateSolo:
    """The solo joined to one of the unit's stands that takes its turn next, between stand activations (AC-MOVE-2)."""

    solo: str


@record
class Stay:
    """Do not move (now)."""


@record
class AttackWith:
    """Attack *target* with the routine ``using`` (``multiattack`` or one attack's id) (AC-ATTACK-1)."""

    using: str
    target: str


@record
class Support:
    """Forgo this stand's attacks to support the adjacent stand *stand* (AC-ATTACK-6)."""

    stand: str


@record
class Cast:
    """Cast the targeted spell *spell* at *target* (AC-SPELL-3, AC-SPELL-4)."""

    spell: str
    target: str


@record
class CastArea:
    """Cast the area spell *spell* with origin square ``(x, y)``; ``dx, dy`` the direction of a cone or line;
    ``mirrored`` a cone's extra squares on the left (AC-AOE-2..5)."""

    spell: str
    x: int
    y: int
    dx: int = 0
    dy: int = 0
    mirrored: bool = False


@record
class Done:
    """No more targets."""


@record
class NoAction:
    """Take no action (AC-ACT-1)."""


@record
class Leave:
    """A joined solo leaves its stand for the squares at ``(x, y)`` (AC-JOIN-4)."""

    x: int
    y: int


@record
class Switch:
    """A joined solo joins the adjacent stand *stand* of its unit at once (AC-JOIN-4)."""

    stand: str


@record
class PassOn:
    """The stand that takes the overflowing damage next (AC-DMG-2)."""

    stand: str


@record
class Shift:
    """Slide *stand* one step (dx, dy) into a vacated footprint (AC-END-2)."""

    stand: str
    dx: int
    dy: int


@record
class NoShift:
    """Leave the gap open."""


@record
class JoinStand:
    """A solo of an eliminated stand joins the adjacent stand *stand* (AC-JOIN-5)."""

    stand: str


@record
class PlaceAt:
    """A solo of an eliminated stand is put on the grid at ``(x, y)`` (AC-JOIN-5)."""

    x: int
    y: int


@record
class Award:
    """Whether a custom objective's condition is met this round (AC-OBJ-6)."""

    award: bool


@record
class PushTo:
    """A pushed piece's footprint ends anchored at ``(x, y)`` (AC-MOVE-8); a square off the grid is a flight."""

    x: int
    y: int
