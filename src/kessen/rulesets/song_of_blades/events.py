"""The events of a song-of-blades skirmish (their texts are in kessen/i18n/song-of-blades.*.toml)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kessen.core.events import Event


@dataclass(frozen=True, slots=True)
class RollOff(Event):
    type: ClassVar[str] = "roll_off"
    first: str


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    type: ClassVar[str] = "turn_started"
    round: int
    side: str


@dataclass(frozen=True, slots=True)
class Activation(Event):
    type: ClassVar[str] = "activation"
    model: str
    dice: int
    actions: int
    failures: int
    turnover: bool


@dataclass(frozen=True, slots=True)
class Turnover(Event):
    type: ClassVar[str] = "turnover"
    side: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    type: ClassVar[str] = "moved"
    model: str
    purpose: str
    toward: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class StandUp(Event):
    type: ClassVar[str] = "stood_up"
    model: str


@dataclass(frozen=True, slots=True)
class BreakFree(Event):
    type: ClassVar[str] = "broke_free"
    model: str


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    type: ClassVar[str] = "attack"
    attacker: str
    defender: str
    power_blow: bool
    ambush: bool


@dataclass(frozen=True, slots=True)
class CombatResult(Event):
    type: ClassVar[str] = "combat_roll"
    kind: str
    attacker: str
    defender: str
    winner: str
    result: str


@dataclass(frozen=True, slots=True)
class Fell(Event):
    type: ClassVar[str] = "fell"
    model: str


@dataclass(frozen=True, slots=True)
class Recoiled(Event):
    type: ClassVar[str] = "recoiled"
    model: str
    kind: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class FollowedUp(Event):
    type: ClassVar[str] = "followed_up"
    model: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Disengaged(Event):
    type: ClassVar[str] = "disengaged"
    model: str
    free_hacks: int


@dataclass(frozen=True, slots=True)
class MoraleTested(Event):
    type: ClassVar[str] = "morale_test"
    model: str
    failures: int
    result: str


@dataclass(frozen=True, slots=True)
class Fled(Event):
    type: ClassVar[str] = "fled"
    model: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Removed(Event):
    type: ClassVar[str] = "removed"
    model: str
    how: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    winner: str
    lost_a: str
    lost_b: str
