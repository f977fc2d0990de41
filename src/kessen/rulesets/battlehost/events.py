"""The events of a battlehost battle (their texts are in kessen/i18n/battlehost.*.toml)."""

from __future__ import annotations

from typing import ClassVar

from kessen.core.engine import dice_field
from kessen.core.events import Event
from kessen.core.records import record


@record
class PriorityRolled(Event):
    """BH-TURN-2: both players roll; the higher roll has priority (a tie as the rule says)."""

    type: ClassVar[str] = "priority_rolled"
    turn: int
    good_roll: int
    evil_roll: int
    player: str


@record
class PriorityGiven(Event):
    """The scenario gives the first turn's priority (section 4)."""

    type: ClassVar[str] = "priority_given"
    turn: int
    player: str


@record
class PhaseStarted(Event):
    type: ClassVar[str] = "phase_started"
    turn: int
    phase: str


@record
class Moved(Event):
    type: ClassVar[str] = "moved"
    model: str
    x: float
    y: float
    inches: float


@record
class Charged(Event):
    type: ClassVar[str] = "charged"
    model: str
    target: str
    x: float
    y: float
    inches: float


@record
class StoodUp(Event):
    type: ClassVar[str] = "stood_up"
    model: str


@record
class Shot(Event):
    """A shot's hit and wound (BH-SHOOT-5..9): the score its hit roll needed, its To Wound chart entry, and the
    natural dice rolled (the hit die, then the To Wound dice; none when the shot was drawn without its dice)."""

    type: ClassVar[str] = "shot"
    model: str
    target: str
    hit: bool
    wounded: bool
    hit_needed: int = dice_field(0)
    wound_needed: str = dice_field("")
    dice: tuple[int, ...] = dice_field()


@record
class Wounded(Event):
    type: ClassVar[str] = "wounded"
    model: str
    wounds_left: int


@record
class Slain(Event):
    type: ClassVar[str] = "slain"
    model: str


@record
class FightChosen(Event):
    type: ClassVar[str] = "fight_chosen"
    player: str
    good: str
    evil: str


@record
class TwoHandedDeclared(Event):
    type: ClassVar[str] = "two_handed"
    model: str
    used: bool


@record
class DuelRolled(Event):
    """Both sides' duel dice (BH-DUEL-1..7): each side's best score, and each model's natural dice with the modifier
    to each of its dice (none when drawn without its dice)."""

    type: ClassVar[str] = "duel_rolled"
    good_best: int
    evil_best: int
    good_models: tuple[str, ...] = dice_field()
    good_dice: tuple[tuple[int, ...], ...] = dice_field()
    good_modifiers: tuple[int, ...] = dice_field()
    evil_models: tuple[str, ...] = dice_field()
    evil_dice: tuple[tuple[int, ...], ...] = dice_field()
    evil_modifiers: tuple[int, ...] = dice_field()


@record
class MightSpent(Event):
    type: ClassVar[str] = "might_spent"
    model: str
    points: int
    best: int


@record
class HeroRolled(Event):
    """A Hero's own hit or To Wound die, rolled alone so that it may spend Might on it (BH-DICE-4)."""

    type: ClassVar[str] = "hero_rolled"
    model: str
    roll: str
    face: int
    score: int


@record
class MightOnRoll(Event):
    """Might spent on a Hero's own hit or To Wound die (BH-DICE-4, BH-SHOOT-7, BH-STRIKE-2)."""

    type: ClassVar[str] = "might_on_roll"
    model: str
    roll: str
    points: int
    score: int


@record
class RolledOff(Event):
    type: ClassVar[str] = "rolled_off"
    face: int
    winner: str


@record
class DuelWon(Event):
    type: ClassVar[str] = "duel_won"
    winner: str
    decided_by: str


@record
class BackedAway(Event):
    type: ClassVar[str] = "backed_away"
    model: str
    x: float
    y: float


@record
class MadeWay(Event):
    type: ClassVar[str] = "made_way"
    model: str
    loser: str
    x: float
    y: float


@record
class Trapped(Event):
    type: ClassVar[str] = "trapped"
    model: str
    reason: str


@record
class Struck(Event):
    """Strikes at one target (BH-STRIKE-2..6): the To Wound chart entry, the modifier to each die (+1 with a
    two-handed weapon) and the natural dice of each To Wound roll (none when drawn without its dice)."""

    type: ClassVar[str] = "struck"
    model: str
    target: str
    strikes: int
    wounds: int
    wound_needed: str = dice_field("")
    modifier: int = dice_field(0)
    dice: tuple[tuple[int, ...], ...] = dice_field()


@record
class FightResolved(Event):
    type: ClassVar[str] = "fight_resolved"
    winner: str
    decided_by: str
    might_spent: int
    wounds: int
    slain: int


@record
class BattleEnded(Event):
    type: ClassVar[str] = "battle_ended"
    winner: str
    turn: int
    good_lost: str
    evil_lost: str
