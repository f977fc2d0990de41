"""The events of an armies-clash battle (their texts are in kessen/i18n/armies-clash.*.toml)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kessen.core.events import Event


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    type: ClassVar[str] = "initiative"
    who: str
    roll: int
    total: int


@dataclass(frozen=True, slots=True)
class TurnOrder(Event):
    type: ClassVar[str] = "turn_order"
    order: str


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    type: ClassVar[str] = "turn_started"
    who: str
    side: str


@dataclass(frozen=True, slots=True)
class Surprised(Event):
    type: ClassVar[str] = "surprised"
    who: str


@dataclass(frozen=True, slots=True)
class ActionDeclared(Event):
    type: ClassVar[str] = "action_declared"
    who: str
    action: str


@dataclass(frozen=True, slots=True)
class Configured(Event):
    type: ClassVar[str] = "configured"
    unit: str
    formation: str


@dataclass(frozen=True, slots=True)
class CommanderBenefit(Event):
    type: ClassVar[str] = "commander_benefit"
    commander: str
    unit: str
    benefit: str
    success: bool


@dataclass(frozen=True, slots=True)
class RallyRolled(Event):
    type: ClassVar[str] = "rally"
    commander: str
    unit: str
    success: bool


@dataclass(frozen=True, slots=True)
class Moved(Event):
    type: ClassVar[str] = "moved"
    piece: str
    x: int
    y: int
    cost: int
    road: bool


@dataclass(frozen=True, slots=True)
class Fled(Event):
    type: ClassVar[str] = "fled"
    piece: str
    unit: str


@dataclass(frozen=True, slots=True)
class Attacked(Event):
    type: ClassVar[str] = "attacked"
    attacker: str
    defender: str
    using: str
    hits: int
    crits: int
    damage: int


@dataclass(frozen=True, slots=True)
class Supported(Event):
    type: ClassVar[str] = "supported"
    piece: str
    helped: str


@dataclass(frozen=True, slots=True)
class SpellCast(Event):
    type: ClassVar[str] = "spell_cast"
    caster: str
    spell: str
    aim: str


@dataclass(frozen=True, slots=True)
class SpellResult(Event):
    type: ClassVar[str] = "spell_result"
    caster: str
    spell: str
    target: str
    result: str
    damage: int


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    type: ClassVar[str] = "damaged"
    piece: str
    damage: int
    hp: int


@dataclass(frozen=True, slots=True)
class Overflowed(Event):
    type: ClassVar[str] = "overflowed"
    source: str
    piece: str
    damage: int


@dataclass(frozen=True, slots=True)
class BecameCasualty(Event):
    type: ClassVar[str] = "casualty"
    piece: str


@dataclass(frozen=True, slots=True)
class SoloDown(Event):
    type: ClassVar[str] = "solo_down"
    piece: str
    how: str


@dataclass(frozen=True, slots=True)
class DeathSaveFailed(Event):
    """Damage to an unconscious PC solo counts as failed death saves (AC-DMG-5); ``failures`` is the new tally."""

    type: ClassVar[str] = "death_save_failed"
    piece: str
    failures: int


@dataclass(frozen=True, slots=True)
class Hid(Event):
    type: ClassVar[str] = "hid"
    piece: str
    hidden: bool


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    type: ClassVar[str] = "revealed"
    piece: str


@dataclass(frozen=True, slots=True)
class Joined(Event):
    type: ClassVar[str] = "joined"
    solo: str
    stand: str


@dataclass(frozen=True, slots=True)
class LeftStand(Event):
    type: ClassVar[str] = "left_stand"
    solo: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class CommandTaken(Event):
    type: ClassVar[str] = "command_taken"
    commander: str
    unit: str


@dataclass(frozen=True, slots=True)
class CommandGivenUp(Event):
    type: ClassVar[str] = "command_given_up"
    commander: str
    unit: str


@dataclass(frozen=True, slots=True)
class Pushed(Event):
    type: ClassVar[str] = "pushed"
    piece: str
    by: str
    x: int
    y: int
    squares: int


@dataclass(frozen=True, slots=True)
class CommandLost(Event):
    type: ClassVar[str] = "command_lost"
    commander: str
    unit: str


@dataclass(frozen=True, slots=True)
class StandRemoved(Event):
    type: ClassVar[str] = "stand_removed"
    piece: str


@dataclass(frozen=True, slots=True)
class Shifted(Event):
    type: ClassVar[str] = "shifted"
    piece: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class UnitEliminated(Event):
    type: ClassVar[str] = "unit_eliminated"
    unit: str
    scorer: str
    vp: int


@dataclass(frozen=True, slots=True)
class DeathSaves(Event):
    type: ClassVar[str] = "death_saves"
    piece: str
    result: str
    rolls: int


@dataclass(frozen=True, slots=True)
class MoraleChecked(Event):
    type: ClassVar[str] = "morale"
    unit: str
    routed: bool


@dataclass(frozen=True, slots=True)
class ObjectiveDestroyed(Event):
    type: ClassVar[str] = "objective_destroyed"
    objective: str
    scorer: str
    vp: int


@dataclass(frozen=True, slots=True)
class ObjectiveDamaged(Event):
    type: ClassVar[str] = "objective_damaged"
    objective: str
    damage: int
    hp: int


@dataclass(frozen=True, slots=True)
class DefendScored(Event):
    type: ClassVar[str] = "defend_scored"
    objective: str
    scorer: str


@dataclass(frozen=True, slots=True)
class CustomScored(Event):
    type: ClassVar[str] = "custom_scored"
    objective: str
    scorer: str
    vp: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    type: ClassVar[str] = "round_ended"
    round: int
    vp_a: int
    vp_b: int


@dataclass(frozen=True, slots=True)
class RoutRolled(Event):
    type: ClassVar[str] = "rout_roll"
    unit: str
    eliminated: bool


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    type: ClassVar[str] = "battle_ended"
    result: str
    winner: str
    vp_a: int
    vp_b: int
