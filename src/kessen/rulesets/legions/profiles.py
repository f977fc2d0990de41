"""Model types, Scales and the target profile the hit-resolution rules read (§3.1, §3.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ModelType = Literal["infantry", "cavalry", "walker", "vehicle", "super_heavy_vehicle", "knight", "titan"]
Obscured = Literal[0, 25, 50]

SCALE: dict[str, int] = {
    "infantry": 1,
    "cavalry": 1,
    "walker": 1,
    "vehicle": 2,
    "super_heavy_vehicle": 3,
    "knight": 4,
    "titan": 5,
}
"""The Scale of each model type (§3.1) [FILL]."""

ARMOURED: frozenset[str] = frozenset({"vehicle", "super_heavy_vehicle", "knight", "titan"})
"""Types with a front and a rear arc, on which Light AT acts (LI-ARC-1, LI-ARC-2, LI-SAVE-10)."""

KNIGHTS_AND_TITANS: frozenset[str] = frozenset({"knight", "titan"})
"""Types that may be obscured (LI-OBSC-1) and count by Wounds for Break Points (LI-BREAK-1, LI-BREAK-3)."""

OBSCURATION_PENALTY: dict[int, int] = {0: 0, 25: 1, 50: 2}
"""Hit-roll penalty for a Knight or Titan at least 25% / 50% hidden (LI-OBSC-1)."""


def is_armoured(model_type: str) -> bool:
    """Whether a model type has a rear arc and is affected by Light AT (LI-ARC-1, LI-SAVE-10).

    >>> is_armoured("knight"), is_armoured("walker")
    (True, False)
    """
    return model_type in ARMOURED


@dataclass(frozen=True, slots=True)
class TargetProfile:
    """One model of a target Detachment as the saving rules see it (§3.2).

    ``armour_save``, ``special_save`` and ``cover_save`` hold X of "X+"; ``None`` is "-". ``rear_arc`` says
    whether the hits of the attack come from a firing model standing in its rear arc (LI-ARC-1, LI-ARC-2): it is
    judged for each hit from the model that hit is allocated to, and matters only for armoured types.
    """

    type: ModelType
    wounds: int
    wounds_remaining: int
    armour_save: int | None
    special_save: int | None = None
    cover_save: int | None = None
    void_shields: int = 0
    rear_arc: bool = False

    @property
    def is_wounded(self) -> bool:
        """A model with fewer Wounds left than its Wounds characteristic is wounded (§3.2)."""
        return self.wounds_remaining < self.wounds
