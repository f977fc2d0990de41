"""The legions procedures of the odds contract (§5)."""

from __future__ import annotations

from typing import Any

from kessen.rulesets import Procedure
from kessen.rulesets.legions.broken import break_point
from kessen.rulesets.legions.close_combat import combat, fight
from kessen.rulesets.legions.firing import fire, resolve_hits
from kessen.rulesets.legions.inputs import (
    BreakPointInput,
    CombatInput,
    FightInput,
    FireInput,
    MoraleCheckInput,
    ResolveHitsInput,
    WithdrawalMoveInput,
    WithdrawalSaveInput,
)
from kessen.rulesets.legions.morale import morale_check
from kessen.rulesets.legions.withdrawal import withdrawal_move, withdrawal_save

PROCEDURES: dict[str, Procedure[Any]] = {
    p.name: p
    for p in (
        Procedure("fire", "one weapon profile fired at a Detachment: hits, Wounds, models destroyed, shields lost", FireInput, fire, FireInput.normalised),
        Procedure("resolve_hits", "a number of hits allocated and saved against a Detachment", ResolveHitsInput, resolve_hits, ResolveHitsInput.normalised),
        Procedure("fight", "one fight roll-off between two models: who wins", FightInput, fight),
        Procedure("combat", "a whole combat from paired fights to its result", CombatInput, combat),
        Procedure("morale_check", "a Morale check after casualties or a lost combat", MoraleCheckInput, morale_check),
        Procedure("withdrawal_save", "the save rolls of a model withdrawing through enemy Detachments", WithdrawalSaveInput, withdrawal_save),
        Procedure("withdrawal_move", "the distance of a Withdrawal move", WithdrawalMoveInput, withdrawal_move),
        Procedure("break_point", "a Formation's Break Point, losses and whether it is Broken", BreakPointInput, break_point),
    )
}
