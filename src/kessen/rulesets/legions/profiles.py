"""Datasheets: model types and their Scales, and weapon profiles (§3.1, §3.3)."""

from __future__ import annotations

from typing import Literal

from kessen.core.records import record

ModelType = Literal["infantry", "cavalry", "walker", "vehicle", "super_heavy_vehicle", "knight", "titan"]
Obscured = Literal[0, 25, 50]
"""How much of a Knight or Titan the firers see hidden, in percent, as the procedures take it (LI-OBSC-1)."""
Hidden = Literal[0, 25, 50, 100]
"""How much of a model is hidden on the battlefield, in percent; 100 means only inessential parts are visible (LI-OBSC-1)."""

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


@record
class Profile:
    """One weapon profile (§3.3)."""

    range: int
    dice: int
    to_hit: int
    ap: int
    light_at: bool


@record
class Weapon:
    """A weapon with one or more profiles (§3.3, LI-FIRE-3)."""

    name: str
    profiles: tuple[Profile, ...]
