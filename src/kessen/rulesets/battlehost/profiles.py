"""Profiles: characteristics, the F notation and the missile weapon chart (section 4, BH-SHOOT-10)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.core.records import record
from kessen.io.validation import StrictModel

ModelType = Literal["hero", "warrior"]

Move = Annotated[int, Field(ge=1, le=12)]
FightValue = Annotated[int, Field(ge=1, le=10)]
ShootValue = Annotated[int, Field(ge=2, le=6)]
Strength = Annotated[int, Field(ge=1, le=10)]
Defence = Annotated[int, Field(ge=1, le=10)]
Attacks = Annotated[int, Field(ge=1, le=10)]
Wounds = Annotated[int, Field(ge=1, le=20)]
Courage = Annotated[int, Field(ge=1, le=10)]
HeroPoints = Annotated[int, Field(ge=0, le=10)]


@record
class MissileWeapon:
    """A missile weapon's range and Strength (BH-SHOOT-8, BH-SHOOT-10)."""

    name: str
    range_inches: int
    strength: int

    def __repr__(self) -> str:
        return f"{self.name} ({self.range_inches}\", S{self.strength})"


# BH-SHOOT-10: the rules manual's missile weapon chart.
MISSILE_WEAPONS: dict[str, MissileWeapon] = {
    w.name: w
    for w in (
        MissileWeapon("bow", 24, 2),
        MissileWeapon("elf bow", 24, 3),
        MissileWeapon("orc bow", 18, 2),
        MissileWeapon("short bow", 18, 2),
        MissileWeapon("uruk-hai bow", 18, 3),
        MissileWeapon("dwarf bow", 18, 3),
        MissileWeapon("crossbow", 24, 4),
        MissileWeapon("throwing spears", 8, 3),
        MissileWeapon("throwing daggers", 6, 3),
        MissileWeapon("throwing axe", 6, 3),
    )
}


def missile_weapon(name: str) -> MissileWeapon:
    """The chart entry for a weapon name (BH-SHOOT-10), or an InputError listing the known names.

    >>> missile_weapon("orc bow")
    orc bow (18", S2)
    """
    try:
        return MISSILE_WEAPONS[name]
    except KeyError:
        raise InputError("missile_weapon", name, f"unknown weapon, expected one of {', '.join(MISSILE_WEAPONS)}") from None


_F_NOTATION = re.compile(r"^(\d+)/(?:(\d)\+|-)$")


def parse_fight(text: str) -> tuple[int, int | None]:
    """Fight value and Shoot value from the "F" notation: "4/5+" → (4, 5), "4/-" → (4, None) (section 4).

    >>> parse_fight("4/5+"), parse_fight("3/-")
    ((4, 5), (3, None))
    """
    match = _F_NOTATION.match(text.strip())
    if not match:
        raise InputError("fight", text, 'must look like "4/4+" or "4/-"')
    fight = int(match.group(1))
    shoot = int(match.group(2)) if match.group(2) else None
    if not 1 <= fight <= 10:
        raise InputError("fight", text, "Fight value must be from 1 to 10")
    if shoot is not None and not 2 <= shoot <= 6:
        raise InputError("fight", text, "Shoot value must be from 2+ to 6+")
    return fight, shoot


def format_fight(fight: int, shoot_value: int | None) -> str:
    """The "F" notation of a Fight value and a Shoot value; the inverse of :func:`parse_fight`.

    >>> format_fight(4, 5), format_fight(3, None)
    ('4/5+', '3/-')
    """
    return f"{fight}/{shoot_value}+" if shoot_value is not None else f"{fight}/-"


def check_hero_points(model_type: ModelType, *, might: int, will: int, fate: int) -> None:
    """Only Heroes have Might, Will and Fate (section 4): a warrior with any of them above 0 is an InputError
    naming the field."""
    if model_type == "warrior":
        for name, points in (("might", might), ("will", will), ("fate", fate)):
            if points > 0:
                raise InputError(name, points, "must be 0 for a warrior (only Heroes have it)")


class Profile(StrictModel):
    """A model's characteristics as a data file gives them (section 4).

    Only Heroes have Might, Will and Fate; a warrior with any of them above 0 is rejected. The
    missile weapon, side, position and statuses (prone, wounds suffered, Might left) belong to the
    scenario data the engine will load; they are not part of this profile yet.
    """

    name: str = Field(min_length=1)
    type: ModelType = "warrior"
    move: Move
    fight: FightValue
    shoot_value: ShootValue | None = None
    strength: Strength
    defence: Defence
    attacks: Attacks
    wounds: Wounds
    courage: Courage
    might: HeroPoints = 0
    will: HeroPoints = 0
    fate: HeroPoints = 0
    two_handed: bool = False
    base_mm: Annotated[int, Field(ge=20, le=170)] = 25

    def check(self) -> None:
        """Might, Will and Fate belong to Heroes only (section 4)."""
        check_hero_points(self.type, might=self.might, will=self.will, fate=self.fate)

    @property
    def f(self) -> str:
        """The profile's F as printed, e.g. "4/4+"."""
        return format_fight(self.fight, self.shoot_value)
