"""Creature statistics the combat rules read: attack records and the vocabulary of sides, forms and responses (§4.1)."""

from __future__ import annotations

from typing import Literal

from kessen.core.records import record
from kessen.rulesets.armies_clash.rules.dice_strings import DiceExpression

AttackKind = Literal["melee", "ranged"]
Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
Cover = Literal["none", "half", "three_quarters"]
Formation = Literal["none", "march", "support", "defensive"]
Side = Literal["a", "b"]

COVER_AC: dict[Cover, int] = {"none": 0, "half": 2, "three_quarters": 5}
"""AC bonus of cover against attack rolls (AC-D20-6)."""

DEFENSIVE_AC = 2
"""AC bonus of a stand whose regiment is in defensive formation (AC-FORM-3)."""

REACH_BONUS_FT = 10
"""A melee attack with at least this reach gives a stand one bonus roll (AC-ATTACK-3)."""


@record
class Attack:
    """One attack of a stat block: melee or ranged, its bonus and its damage (§4.1).

    ``reach_ft`` is the melee reach (5 ft unless longer); ``None`` for a ranged attack.
    """

    kind: AttackKind
    attack_bonus: int
    damage: DiceExpression
    reach_ft: int | None = None

    @property
    def has_long_reach(self) -> bool:
        """A melee attack with reach 10 ft or more (AC-ATTACK-3)."""
        return self.kind == "melee" and (self.reach_ft or 5) >= REACH_BONUS_FT
