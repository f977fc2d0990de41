"""The battlehost procedures of the odds contract (section 9): strictly validated input models, each turned into
the plain input of its rule in ``rules/`` (BH-PROC-0..5)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from kessen.core.errors import InputError
from kessen.dice import Dist
from kessen.io.validation import StrictModel
from kessen.rulesets import Procedure
from kessen.rulesets.battlehost.profiles import Attacks, Defence, FightValue, ShootValue, Strength, Wounds
from kessen.rulesets.battlehost.rules.duel import Duel, Duellist, DuelOutcome, duel
from kessen.rulesets.battlehost.rules.fight import Fighter, FightOutcome, WholeFight, fight
from kessen.rulesets.battlehost.rules.shooting import ShootOutcome, Shot, shoot
from kessen.rulesets.battlehost.rules.strikes import Strikes, StrikesOutcome, strikes
from kessen.rulesets.battlehost.rules.wounding import WoundRoll, WoundRollOutcome, wound_roll

DuelModifier = Annotated[int, Field(ge=-3, le=3)]
SideMight = Annotated[int, Field(ge=0, le=6)]
StrikeCount = Annotated[int, Field(ge=1, le=10)]


class WoundRollInput(StrictModel):
    """One To Wound roll (BH-PROC-1)."""

    strength: Annotated[Strength, Field(description="the striker's Strength, 1-10")]
    defence: Annotated[Defence, Field(description="the target's Defence, 1-10")]
    two_handed: Annotated[bool, Field(description="the striker uses a two-handed weapon: +1 to each die of the roll (BH-STRIKE-6)")] = False

    def rules(self) -> WoundRoll:
        """This question as its rule's own input."""
        return WoundRoll(self.strength, self.defence, self.two_handed)


class ShootInput(StrictModel):
    """One shot at one target (BH-PROC-2)."""

    shoot_value: Annotated[ShootValue, Field(description='the shooter\'s Shoot value, the N of "N+", 2-6')]
    moved: Annotated[bool, Field(description="the shooter moved this turn: its Shoot value is one worse (BH-SHOOT-6)")] = False
    strength: Annotated[Strength, Field(description="the missile weapon's Strength, 1-10")]
    defence: Annotated[Defence, Field(description="the target's Defence, 1-10")]
    wounds: Annotated[Wounds, Field(description="the target's remaining wounds, 1-20")] = 1

    def rules(self) -> Shot:
        """This question as its rule's own input."""
        return Shot(self.shoot_value, self.strength, self.defence, moved=self.moved, wounds=self.wounds)


class StrikesInput(StrictModel):
    """Strikes at one target (BH-PROC-3)."""

    strikes: Annotated[StrikeCount, Field(description="the number of strikes, 1-10 (normally the striker's Attacks)")]
    strength: Annotated[Strength, Field(description="the striker's Strength, 1-10")]
    defence: Annotated[Defence, Field(description="the target's Defence, 1-10")]
    wounds: Annotated[Wounds, Field(description="the target's remaining wounds, 1-20")] = 1
    trapped: Annotated[bool, Field(description="the target is trapped: each strike is two To Wound rolls (BH-STRIKE-5)")] = False
    prone: Annotated[bool, Field(description="the target is prone: the same as trapped, not doubled again (BH-BACK-5)")] = False
    two_handed: Annotated[bool, Field(description="the striker uses a two-handed weapon: +1 To Wound (BH-STRIKE-6)")] = False

    def rules(self) -> Strikes:
        """This question as its rule's own input."""
        return Strikes(self.strikes, self.strength, self.defence, self.wounds, self.trapped, self.prone, self.two_handed)


class DuelModel(StrictModel):
    """One model's part in a duel roll (BH-PROC-4)."""

    fight: Annotated[FightValue, Field(description="the model's Fight value, 1-10 (the first number of F; breaks ties)")]
    attacks: Annotated[Attacks, Field(description="the model's Attacks, 1-10: how many duel dice it rolls")]
    two_handed: Annotated[bool, Field(description="the model uses a two-handed weapon: -1 to each of its duel dice (BH-DUEL-3)")] = False
    duel_modifier: Annotated[DuelModifier, Field(description="added to each of its duel dice, -3 to 3")] = 0

    def rules(self) -> Duellist:
        """This question as its rule's own input."""
        return Duellist(self.fight, self.attacks, self.two_handed, self.duel_modifier)


class FightModel(StrictModel):
    """One model's part in a whole fight (BH-PROC-5)."""

    fight: Annotated[FightValue, Field(description="the model's Fight value, 1-10 (the first number of F; breaks ties)")]
    attacks: Annotated[Attacks, Field(description="the model's Attacks, 1-10: its duel dice and its strikes")]
    strength: Annotated[Strength, Field(description="the model's Strength, 1-10")]
    defence: Annotated[Defence, Field(description="the model's Defence, 1-10")]
    wounds: Annotated[Wounds, Field(description="the model's remaining wounds, 1-20")] = 1
    two_handed: Annotated[bool, Field(description="the model uses a two-handed weapon: -1 to its duel dice, +1 To Wound on its strikes")] = False
    duel_modifier: Annotated[DuelModifier, Field(description="added to each of its duel dice, -3 to 3")] = 0
    prone: Annotated[bool, Field(description="the model is prone: trapped if its side loses, makes no strikes if its side wins (BH-BACK-5)")] = False
    trapped: Annotated[bool, Field(description="the model cannot back away if its side loses: strikes at it are doubled (BH-BACK-4)")] = False

    def rules(self) -> Fighter:
        """This question as its rule's own input."""
        return Fighter(
            self.fight, self.attacks, self.strength, self.defence, self.wounds, self.two_handed, self.duel_modifier,
            self.prone, self.trapped,
        )


def _check_fight_shape(good: int, evil: int, good_might: int, evil_might: int) -> None:
    """The structural errors of BH-PROC-4 (shared by BH-PROC-5)."""
    if good > 1 and evil > 1:
        raise InputError(
            "evil",
            f"{evil} models",
            f"must be 1 model when good has {good}: a fight is one-vs-one or many-vs-one (BH-FIGHT-1)",
        )
    if good_might > 0 and evil_might > 0:
        raise InputError(
            "evil_might",
            evil_might,
            f"only one side may have Might in this procedure (good_might is {good_might})",
        )


class DuelInput(StrictModel):
    """The duel roll of one fight (BH-PROC-4)."""

    good: Annotated[tuple[DuelModel, ...], Field(min_length=1, max_length=8, description="the Good side's models in the fight, 1-8")]
    evil: Annotated[tuple[DuelModel, ...], Field(min_length=1, max_length=8, description="the Evil side's models in the fight, 1-8")]
    good_might: Annotated[SideMight, Field(description="Might points the Good side may spend on its best die, 0-6")] = 0
    evil_might: Annotated[SideMight, Field(description="Might points the Evil side may spend on its best die, 0-6 (not both sides)")] = 0

    def check(self) -> None:
        """One-vs-one or many-vs-one; Might on one side at most (BH-PROC-4)."""
        _check_fight_shape(len(self.good), len(self.evil), self.good_might, self.evil_might)

    def rules(self) -> Duel:
        """This question as its rule's own input."""
        return Duel(tuple(m.rules() for m in self.good), tuple(m.rules() for m in self.evil), self.good_might, self.evil_might)


class FightInput(StrictModel):
    """A whole fight: duel, then strikes (BH-PROC-5)."""

    good: Annotated[tuple[FightModel, ...], Field(min_length=1, max_length=8, description="the Good side's models in the fight, 1-8")]
    evil: Annotated[tuple[FightModel, ...], Field(min_length=1, max_length=8, description="the Evil side's models in the fight, 1-8")]
    good_might: Annotated[SideMight, Field(description="Might points the Good side may spend on its best duel die, 0-6")] = 0
    evil_might: Annotated[SideMight, Field(description="Might points the Evil side may spend on its best duel die, 0-6 (not both sides)")] = 0

    def check(self) -> None:
        """One-vs-one or many-vs-one; Might on one side at most (BH-PROC-4, BH-PROC-5)."""
        _check_fight_shape(len(self.good), len(self.evil), self.good_might, self.evil_might)

    def rules(self) -> WholeFight:
        """This question as its rule's own input."""
        return WholeFight(tuple(m.rules() for m in self.good), tuple(m.rules() for m in self.evil), self.good_might, self.evil_might)


def _wound_roll(q: WoundRollInput) -> Dist[WoundRollOutcome]:
    return wound_roll(q.rules())


def _shoot(q: ShootInput) -> Dist[ShootOutcome]:
    return shoot(q.rules())


def _strikes(q: StrikesInput) -> Dist[StrikesOutcome]:
    return strikes(q.rules())


def _duel(q: DuelInput) -> Dist[DuelOutcome]:
    return duel(q.rules())


def _fight(q: FightInput) -> Dist[FightOutcome]:
    return fight(q.rules())


PROCEDURES: dict[str, Procedure[Any]] = {
    p.name: p
    for p in (
        Procedure("wound_roll", "one To Wound roll of Strength against Defence (wound chart, 6/N and -)", WoundRollInput, _wound_roll),
        Procedure("shoot", "one shot at one target: hit roll, wound roll, slain", ShootInput, _shoot),
        Procedure("strikes", "strikes at one target, doubled if it is trapped or prone: wounds and slain", StrikesInput, _strikes),
        Procedure("duel", "the duel roll of one fight: winner, what decided it, Might spent", DuelInput, _duel),
        Procedure("fight", "a whole fight: duel, then strikes: winner, wounds and models slain", FightInput, _fight),
    )
}
