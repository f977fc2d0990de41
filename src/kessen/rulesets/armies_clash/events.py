"""The events of an armies-clash battle (their texts are in kessen/i18n/armies-clash.*.toml)."""

from __future__ import annotations

from typing import ClassVar

from kessen.core.engine import dice_field
from kessen.core.events import Event
from kessen.core.records import record


@record
class InitiativeRolled(Event):
    type: ClassVar[str] = "initiative"
    who: str
    roll: int
    total: int


@record
class TurnOrder(Event):
    type: ClassVar[str] = "turn_order"
    order: str


@record
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int


@record
class TurnStarted(Event):
    type: ClassVar[str] = "turn_started"
    who: str
    side: str


@record
class Surprised(Event):
    type: ClassVar[str] = "surprised"
    who: str


@record
class ActionDeclared(Event):
    type: ClassVar[str] = "action_declared"
    who: str
    action: str


@record
class Configured(Event):
    type: ClassVar[str] = "configured"
    unit: str
    formation: str


@record
class CommanderBenefit(Event):
    type: ClassVar[str] = "commander_benefit"
    commander: str
    unit: str
    benefit: str
    success: bool
    d20: tuple[int, ...] = dice_field()
    mode: str = dice_field("")
    bonus: int = dice_field(0)
    dc: int = dice_field(0)


@record
class RallyRolled(Event):
    type: ClassVar[str] = "rally"
    commander: str
    unit: str
    success: bool
    d20: tuple[int, ...] = dice_field()
    mode: str = dice_field("")
    bonus: int = dice_field(0)
    dc: int = dice_field(0)


@record
class Moved(Event):
    type: ClassVar[str] = "moved"
    piece: str
    x: int
    y: int
    cost: int
    road: bool


@record
class Fled(Event):
    type: ClassVar[str] = "fled"
    piece: str
    unit: str


@record
class Attacked(Event):
    """An action's attack rolls against one target (§6.3); when its dice were drawn, each roll's d20s (two with
    advantage or disadvantage, none for an automatic hit), how they were rolled, the attack bonus, the AC, and what
    the roll did (AC-D20-1..3)."""

    type: ClassVar[str] = "attacked"
    attacker: str
    defender: str
    using: str
    hits: int
    crits: int
    damage: int
    d20: tuple[tuple[int, ...], ...] = dice_field()
    modes: tuple[str, ...] = dice_field()
    bonus: tuple[int, ...] = dice_field()
    armour_class: tuple[int, ...] = dice_field()
    results: tuple[str, ...] = dice_field()
    roll_damage: tuple[int, ...] = dice_field()


@record
class Supported(Event):
    type: ClassVar[str] = "supported"
    piece: str
    helped: str


@record
class SpellCast(Event):
    type: ClassVar[str] = "spell_cast"
    caster: str
    spell: str
    aim: str


@record
class SpellResult(Event):
    type: ClassVar[str] = "spell_result"
    caster: str
    spell: str
    target: str
    result: str
    damage: int
    d20: tuple[int, ...] = dice_field()
    mode: str = dice_field("")
    bonus: int = dice_field(0)
    dc: int = dice_field(0)


@record
class Damaged(Event):
    type: ClassVar[str] = "damaged"
    piece: str
    damage: int
    hp: int


@record
class Overflowed(Event):
    type: ClassVar[str] = "overflowed"
    source: str
    piece: str
    damage: int


@record
class BecameCasualty(Event):
    type: ClassVar[str] = "casualty"
    piece: str


@record
class SoloDown(Event):
    type: ClassVar[str] = "solo_down"
    piece: str
    how: str


@record
class DeathSaveFailed(Event):
    """Damage to an unconscious PC solo counts as failed death saves (AC-DMG-5); ``failures`` is the new tally."""

    type: ClassVar[str] = "death_save_failed"
    piece: str
    failures: int


@record
class Hid(Event):
    type: ClassVar[str] = "hid"
    piece: str
    hidden: bool


@record
class Revealed(Event):
    type: ClassVar[str] = "revealed"
    piece: str


@record
class Joined(Event):
    type: ClassVar[str] = "joined"
    solo: str
    stand: str


@record
class LeftStand(Event):
    type: ClassVar[str] = "left_stand"
    solo: str
    x: int
    y: int


@record
class CommandTaken(Event):
    type: ClassVar[str] = "command_taken"
    commander: str
    unit: str


@record
class CommandGivenUp(Event):
    type: ClassVar[str] = "command_given_up"
    commander: str
    unit: str


@record
class Pushed(Event):
    type: ClassVar[str] = "pushed"
    piece: str
    by: str
    x: int
    y: int
    squares: int


@record
class CommandLost(Event):
    type: ClassVar[str] = "command_lost"
    commander: str
    unit: str


@record
class StandRemoved(Event):
    type: ClassVar[str] = "stand_removed"
    piece: str


@record
class Shifted(Event):
    type: ClassVar[str] = "shifted"
    piece: str
    x: int
    y: int


@record
class UnitEliminated(Event):
    type: ClassVar[str] = "unit_eliminated"
    unit: str
    scorer: str
    vp: int


@record
class DeathSaves(Event):
    type: ClassVar[str] = "death_saves"
    piece: str
    result: str
    rolls: int


@record
class MoraleChecked(Event):
    type: ClassVar[str] = "morale"
    unit: str
    routed: bool
    d20: tuple[int, ...] = dice_field()
    mode: str = dice_field("")
    bonus: int = dice_field(0)
    dc: int = dice_field(0)


@record
class ObjectiveDestroyed(Event):
    type: ClassVar[str] = "objective_destroyed"
    objective: str
    scorer: str
    vp: int


@record
class ObjectiveDamaged(Event):
    type: ClassVar[str] = "objective_damaged"
    objective: str
    damage: int
    hp: int


@record
class DefendScored(Event):
    type: ClassVar[str] = "defend_scored"
    objective: str
    scorer: str


@record
class CustomScored(Event):
    type: ClassVar[str] = "custom_scored"
    objective: str
    scorer: str
    vp: int


@record
class RoundEnded(Event):
    type: ClassVar[str] = "round_ended"
    round: int
    vp_a: int
    vp_b: int


@record
class RoutRolled(Event):
    type: ClassVar[str] = "rout_roll"
    unit: str
    eliminated: bool


@record
class BattleEnded(Event):
    type: ClassVar[str] = "battle_ended"
    result: str
    winner: str
    vp_a: int
    vp_b: int
