"""The inputs of the battlehost odds procedures (section 9, BH-PROC-0..5), validated strictly."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.validation import StrictModel
from kessen.rulesets.battlehost.profiles import Attacks, Defence, FightValue, ShootValue, Strength, Wounds

DuelModifier = Annotated[int, Field(ge=-3, le=3)]
SideMight = Annotated[int, Field(ge=0, le=6)]
Strikes = Annotated[int, Field(ge=1, le=10)]


class WoundRollInput(StrictModel):
    """One To Wound roll (BH-PROC-1)."""

    strength: Strength
    defence: Defence
    two_handed: bool = False


class ShootInput(StrictModel):
    """One shot at one target (BH-PROC-2)."""

    shoot_value: ShootValue
    moved: bool = False
    strength: Strength
    defence: Defence
    wounds: Wounds = 1


class StrikesInput(StrictModel):
    """Strikes at one target (BH-PROC-3)."""

    strikes: Strikes
    strength: Strength
    defence: Defence
    wounds: Wounds = 1
    trapped: bool = False
    prone: bool = False
    two_handed: bool = False


class DuelModel(StrictModel):
    """One model's part in a duel roll (BH-PROC-4)."""

    fight: FightValue
    attacks: Attacks
    two_handed: bool = False
    duel_modifier: DuelModifier = 0


class FightModel(StrictModel):
    """One model's part in a whole fight (BH-PROC-5)."""

    fight: FightValue
    attacks: Attacks
    strength: Strength
    defence: Defence
    wounds: Wounds = 1
    two_handed: bool = False
    duel_modifier: DuelModifier = 0
    prone: bool = False
    trapped: bool = False



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

    good: Annotated[tuple[DuelModel, ...], Field(min_length=1, max_length=8)]
    evil: Annotated[tuple[DuelModel, ...], Field(min_length=1, max_length=8)]
    good_might: SideMight = 0
    evil_might: SideMight = 0

    def check(self) -> None:
        """One-vs-one or many-vs-one; Might on one side at most (BH-PROC-4)."""
        _check_fight_shape(len(self.good), len(self.evil), self.good_might, self.evil_might)


class FightInput(StrictModel):
    """A whole fight: duel, then strikes (BH-PROC-5)."""

    good: Annotated[tuple[FightModel, ...], Field(min_length=1, max_length=8)]
    evil: Annotated[tuple[FightModel, ...], Field(min_length=1, max_length=8)]
    good_might: SideMight = 0
    evil_might: SideMight = 0

    def check(self) -> None:
        """One-vs-one or many-vs-one; Might on one side at most (BH-PROC-4, BH-PROC-5)."""
        _check_fight_shape(len(self.good), len(self.evil), self.good_might, self.evil_might)
