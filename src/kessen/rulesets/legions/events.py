"""The events of a legions battle (their texts are in kessen/i18n/legions.*.toml)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kessen.core.events import Event


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    type: ClassVar[str] = "phase_started"
    phase: str


@dataclass(frozen=True, slots=True)
class StageStarted(Event):
    type: ClassVar[str] = "stage_started"
    stage: str


@dataclass(frozen=True, slots=True)
class OrderIssued(Event):
    type: ClassVar[str] = "order_issued"
    detachment: str
    order: str


@dataclass(frozen=True, slots=True)
class InitiativeWon(Event):
    type: ClassVar[str] = "initiative"
    side: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    type: ClassVar[str] = "moved"
    detachment: str
    order: str
    distance: float
    engaged: bool


@dataclass(frozen=True, slots=True)
class ModelMoved(Event):
    """A model of a moving Detachment placed on its own (the Detachment's move goes on)."""

    type: ClassVar[str] = "model_moved"
    model: str
    detachment: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Activated(Event):
    type: ClassVar[str] = "activated"
    detachment: str
    side: str
    stage: str


@dataclass(frozen=True, slots=True)
class HeldFire(Event):
    type: ClassVar[str] = "held_fire"
    detachment: str
    reason: str


@dataclass(frozen=True, slots=True)
class TargetDeclared(Event):
    type: ClassVar[str] = "target_declared"
    detachment: str
    target: str
    penalty: int


@dataclass(frozen=True, slots=True)
class Volley(Event):
    type: ClassVar[str] = "volley"
    detachment: str
    target: str
    weapon: str
    firing_models: int
    dice: int
    to_hit: int
    modifier: int
    arc: str
    """From which arc the firing models saw the models they could hit: ``front``, ``rear`` or ``mixed`` (LI-ARC-1)."""
    hits: int
    wounds: int
    destroyed: int
    shields_lost: int


@dataclass(frozen=True, slots=True)
class HitAllocated(Event):
    """One hit allocated by the target's controller to a model, and what it did (``wound``, ``shield``: a Void Shield
    struck down, ``no_effect``: saved or stopped)."""

    type: ClassVar[str] = "hit_allocated"
    model: str
    detachment: str
    result: str


@dataclass(frozen=True, slots=True)
class Destroyed(Event):
    type: ClassVar[str] = "destroyed"
    model: str
    detachment: str
    how: str


@dataclass(frozen=True, slots=True)
class OrderRemoved(Event):
    type: ClassVar[str] = "order_removed"
    detachment: str
    order: str
    why: str


@dataclass(frozen=True, slots=True)
class FormationBroken(Event):
    type: ClassVar[str] = "formation_broken"
    formation: str
    losses: int
    break_point: int


@dataclass(frozen=True, slots=True)
class MoraleChecked(Event):
    type: ClassVar[str] = "morale_check"
    detachment: str
    trigger: str
    result: str


@dataclass(frozen=True, slots=True)
class CombatStarted(Event):
    type: ClassVar[str] = "combat_started"
    detachments: str


@dataclass(frozen=True, slots=True)
class Paired(Event):
    type: ClassVar[str] = "paired"
    fights: str


@dataclass(frozen=True, slots=True)
class FightRolled(Event):
    type: ClassVar[str] = "fight"
    attacker: str
    defender: str
    attacker_dice: int
    defender_dice: int
    winner: str


@dataclass(frozen=True, slots=True)
class CombatResult(Event):
    type: ClassVar[str] = "combat_result"
    detachments: str
    winner: str
    fights_won: str


@dataclass(frozen=True, slots=True)
class Withdrawal(Event):
    type: ClassVar[str] = "withdrawal"
    detachment: str
    roll: int


@dataclass(frozen=True, slots=True)
class WithdrawalMove(Event):
    type: ClassVar[str] = "withdrawal_move"
    model: str
    x: float
    y: float
    through: str
    wounds_lost: int


@dataclass(frozen=True, slots=True)
class NoLongerEngaged(Event):
    type: ClassVar[str] = "no_longer_engaged"
    detachment: str


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    type: ClassVar[str] = "battle_ended"
    winner: str
    losses: str
