"""The armies-clash procedures of the odds contract (§6)."""

from __future__ import annotations

from typing import Any

from kessen.rulesets import Procedure
from kessen.rulesets.armies_clash.attacks import attack, unit_attack
from kessen.rulesets.armies_clash.commanders import commander_check
from kessen.rulesets.armies_clash.dying import death_saves
from kessen.rulesets.armies_clash.initiative import initiative
from kessen.rulesets.armies_clash.inputs import (
    AttackInput,
    CommanderCheckInput,
    DeathSavesInput,
    DecisiveRoutInput,
    InitiativeInput,
    MoraleInput,
    SaveInput,
    UnitAttackInput,
)
from kessen.rulesets.armies_clash.morale import morale
from kessen.rulesets.armies_clash.spells import save
from kessen.rulesets.armies_clash.victory import decisive_rout

PROCEDURES: dict[str, Procedure[Any]] = {
    p.name: p
    for p in (
        Procedure(
            "attack",
            "one stand's or solo's attack rolls against one target: hits, crits, damage, overflow",
            AttackInput,
            lambda given: attack(given.question()),
            AttackInput.normalised,
        ),
        Procedure(
            "unit_attack",
            "a unit's stands attacking one target stand: how many stands of the chain go down",
            UnitAttackInput,
            lambda given: unit_attack(given.question()),
            UnitAttackInput.normalised,
        ),
        Procedure("save", "one target's saving throw against a spell or area, and its damage", SaveInput, lambda given: save(given.question())),
        Procedure("morale", "a unit's morale check after heavy losses, or a routed unit's rally", MoraleInput, morale, MoraleInput.normalised),
        Procedure("commander_check", "the DC 15 Charisma check of Prepare and Incite", CommanderCheckInput, commander_check),
        Procedure("initiative", "the turn order of two to four units and solos", InitiativeInput, initiative),
        Procedure("decisive_rout", "the battle-end judgement and the rout of the losing units", DecisiveRoutInput, decisive_rout),
        Procedure("death_saves", "a dying PC solo's end-of-round death saving throws", DeathSavesInput, death_saves),
    )
}
