"""The events of a legions battle (their texts are in kessen/i18n/legions.*.toml)."""

from __future__ import annotations

from typing import ClassVar

from kessen.core.engine import dice_field
from kessen.core.events import Event
from kessen.core.records import record


@record
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int


@record
class PhaseStarted(Event):
    type: ClassVar[str] = "phase_started"
    phase: str


@record
class StageStarted(Event):
    type: ClassVar[str] = "stage_started"
    stage: str


@record
class OrderIssued(Event):
    type: ClassVar[str] = "order_issued"
    detachment: str
    order: str


@record
class InitiativeWon(Event):
    type: ClassVar[str] = "initiative"
    side: str


@record
class Moved(Event):
    type: ClassVar[str] = "moved"
    detachment: str
    order: str
    distance: float
    engaged: bool


@record
class ModelMoved(Event):
    """A model of a moving Detachment placed on its own (the Detachment's move goes on)."""

    type: ClassVar[str] = "model_moved"
    model: str
    detachment: str
    x: float
    y: float


@record
class Activated(Event):
    type: ClassVar[str] = "activated"
    detachment: str
    side: str
    stage: str


@record
class HeldFire(Event):
    type: ClassVar[str] = "held_fire"
    detachment: str
    reason: str


@record
class TargetDeclared(Event):
    type: ClassVar[str] = "target_declared"
    detachment: str
    target: str
    penalty: int


@record
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
    # The dice (none when drawn without them): the natural hit dice (LI-HIT-1, LI-HIT-2; none when the hits were
    # allocated one by one), then each hit resolved in the default order (§5.1 R): the model it went to ("" for a hit
    # discarded), its save die and the score it needed (0 where none was rolled: a Void Shield took it, no usable
    # Save, a hit discarded), and what it did: saved, wound, shield or discarded.
    hit_dice: tuple[int, ...] = dice_field()
    save_models: tuple[str, ...] = dice_field()
    save_dice: tuple[int, ...] = dice_field()
    save_needed: tuple[int, ...] = dice_field()
    save_results: tuple[str, ...] = dice_field()


@record
class HitAllocated(Event):
    """One hit allocated by the target's controller to a model, and what it did (``wound``, ``shield``: a Void Shield
    struck down, ``no_effect``: saved or stopped); its save die and the score it needed (0 where none was rolled)."""

    type: ClassVar[str] = "hit_allocated"
    model: str
    detachment: str
    result: str
    save_die: int = dice_field(0)
    save_needed: int = dice_field(0)


@record
class Destroyed(Event):
    type: ClassVar[str] = "destroyed"
    model: str
    detachment: str
    how: str


@record
class OrderRemoved(Event):
    type: ClassVar[str] = "order_removed"
    detachment: str
    order: str
    why: str


@record
class FormationBroken(Event):
    type: ClassVar[str] = "formation_broken"
    formation: str
    losses: int
    break_point: int


@record
class MoraleChecked(Event):
    type: ClassVar[str] = "morale_check"
    detachment: str
    trigger: str
    result: str


@record
class CombatStarted(Event):
    type: ClassVar[str] = "combat_started"
    detachments: str


@record
class Paired(Event):
    type: ClassVar[str] = "paired"
    fights: str


@record
class FightRolled(Event):
    type: ClassVar[str] = "fight"
    attacker: str
    defender: str
    attacker_dice: int
    defender_dice: int
    winner: str


@record
class CombatResult(Event):
    type: ClassVar[str] = "combat_result"
    detachments: str
    winner: str
    fights_won: str


@record
class Withdrawal(Event):
    type: ClassVar[str] = "withdrawal"
    detachment: str
    roll: int


@record
class WithdrawalMove(Event):
    type: ClassVar[str] = "withdrawal_move"
    model: str
    x: float
    y: float
    through: str
    wounds_lost: int


@record
class NoLongerEngaged(Event):
    type: ClassVar[str] = "no_longer_engaged"
    detachment: str


@record
class BattleEnded(Event):
    type: ClassVar[str] = "battle_ended"
    winner: str
    losses: str
