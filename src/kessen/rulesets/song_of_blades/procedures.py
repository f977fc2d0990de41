"""The song-of-blades procedures of the odds contract (§6)."""

from __future__ import annotations

from typing import Any

from kessen.rulesets import Procedure
from kessen.rulesets.song_of_blades.disengaging import disengage
from kessen.rulesets.song_of_blades.inputs import (
    ActivationInput,
    DisengageInput,
    MeleeInput,
    MeleeTargetsInput,
    MoraleInput,
)
from kessen.rulesets.song_of_blades.melee import melee
from kessen.rulesets.song_of_blades.priority import melee_targets
from kessen.rulesets.song_of_blades.quality import activation, morale

PROCEDURES: dict[str, Procedure[Any]] = {
    p.name: p
    for p in (
        Procedure("melee", "one combat roll or free hack: winner, result and who suffers it", MeleeInput, melee),
        Procedure("disengage", "leaving contact: free hacks in the chosen order until one has an effect", DisengageInput, disengage),
        Procedure("activation", "an activation roll of 1-3 dice against Quality: actions and turnover", ActivationInput, activation),
        Procedure("morale", "a morale test of three dice against Quality: stands, flees or destroyed", MoraleInput, morale),
        Procedure("melee_targets", "which enemies in contact may be attacked (melee priority)", MeleeTargetsInput, melee_targets),
    )
}
