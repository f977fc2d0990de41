"""The battlehost procedures of the odds contract (section 9)."""

from __future__ import annotations

from typing import Any

from kessen.rulesets import Procedure
from kessen.rulesets.battlehost.duels import duel
from kessen.rulesets.battlehost.fighting import fight
from kessen.rulesets.battlehost.inputs import DuelInput, FightInput, ShootInput, StrikesInput, WoundRollInput
from kessen.rulesets.battlehost.shooting import shoot
from kessen.rulesets.battlehost.strikes import strikes
from kessen.rulesets.battlehost.wounding import wound_roll

PROCEDURES: dict[str, Procedure[Any]] = {
    p.name: p
    for p in (
        Procedure("wound_roll", "one To Wound roll of Strength against Defence (wound chart, 6/N and -)", WoundRollInput, wound_roll),
        Procedure("shoot", "one shot at one target: hit roll, wound roll, slain", ShootInput, shoot),
        Procedure("strikes", "strikes at one target, doubled if it is trapped or prone: wounds and slain", StrikesInput, strikes),
        Procedure("duel", "the duel roll of one fight: winner, what decided it, Might spent", DuelInput, duel),
        Procedure("fight", "a whole fight: duel, then strikes: winner, wounds and models slain", FightInput, fight),
    )
}
