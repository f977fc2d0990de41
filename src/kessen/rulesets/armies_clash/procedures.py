"""The armies-clash odds procedures (§6): their inputs, validated strictly at the edge (AC-PROC-1, AC-PROC-2,
AC-PROC-3) and each turned into the question its ``rules`` procedure answers, and the registry of the procedures."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NoReturn

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.validation import StrictModel
from kessen.rulesets import Procedure
from kessen.rulesets.armies_clash.rules.attack import (
    AttackQuestion,
    Roll,
    UnitAttackQuestion,
    action_rolls,
    attack,
    unit_attack,
)
from kessen.rulesets.armies_clash.rules.commanders import CommanderCheckQuestion, commander_check
from kessen.rulesets.armies_clash.rules.damage import Resistance
from kessen.rulesets.armies_clash.rules.dice_strings import MAX_DICE, damage_ceiling, parse_dice
from kessen.rulesets.armies_clash.rules.dying import DeathSavesQuestion, death_saves
from kessen.rulesets.armies_clash.rules.ending import DecisiveRoutQuestion, decisive_rout
from kessen.rulesets.armies_clash.rules.initiative import InitiativeEntry as Entry
from kessen.rulesets.armies_clash.rules.initiative import InitiativeQuestion, initiative
from kessen.rulesets.armies_clash.rules.morale import MoraleQuestion, morale
from kessen.rulesets.armies_clash.profiles import Ability, Attack, AttackKind, Cover, Formation
from kessen.rulesets.armies_clash.rules.spells import SaveQuestion, SpellEffect, save

AttackBonus = Annotated[int, Field(ge=-10, le=20)]
ArmourClass = Annotated[int, Field(ge=1, le=40)]
HitPoints = Annotated[int, Field(ge=1, le=1000)]
Flag = bool

ATTACK_ROLLS_LIMIT = 4
ATTACK_CEILING_LIMIT = 300
UNIT_ROLLS_LIMIT = 3
UNIT_CEILING_LIMIT = 200
CHAIN_HP_LIMIT = 1000


class AttackEntry(StrictModel):
    """One attack of the routine and how many rolls of it (§6.3)."""

    kind: Annotated[AttackKind, Field(description="melee or ranged")]
    attack_bonus: Annotated[AttackBonus, Field(description="the attack roll's bonus, -10 to 20")]
    damage: Annotated[str, Field(description=f"damage dice, e.g. 1d8+1 (NdS±K, at most {MAX_DICE} dice, AC-PROC-DICE)")]
    count: Annotated[int, Field(ge=1, le=4, description="how many rolls of this attack the action makes, 1 to 4")] = 1
    reach_ft: Annotated[
        int | None, Field(ge=5, le=30, multiple_of=5, description="melee reach in feet (5 to 30, default 5); 10+ gives a stand's Attack one more roll (AC-ATTACK-3)")
    ] = None

    def record(self) -> Attack:
        """The attack as the rules see it: the dice string parsed, a melee reach filled in (5 ft)."""
        reach = (self.reach_ft or 5) if self.kind == "melee" else None
        return Attack(self.kind, self.attack_bonus, parse_dice(self.damage), reach)

    def normalised(self) -> dict[str, Any]:
        """The entry as the contract echoes it: ``reach_ft`` for melee entries only (AC-PROC-3)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "attack_bonus": self.attack_bonus,
            "damage": self.damage,
            "count": self.count,
        }
        if self.kind == "melee":
            out["reach_ft"] = self.reach_ft or 5
        return out


def _check_entries(attacks: tuple[AttackEntry, ...], *, rolls_limit: int) -> None:
    """Each entry's dice string and reach, and the total count of rolls."""
    for i, entry in enumerate(attacks):
        parse_dice(entry.damage, field=f"attacks[{i}].damage")
        if "reach_ft" in entry.model_fields_set:
            if entry.reach_ft is None:
                raise InputError(f"attacks[{i}].reach_ft", InputError.NOTHING, "must be an integer, not null")
            if entry.kind == "ranged":
                raise InputError(f"attacks[{i}].reach_ft", entry.reach_ft, "only a melee attack has a reach")
    total = sum(entry.count for entry in attacks)
    if total > rolls_limit:
        raise InputError("attacks", total, f"at most {rolls_limit} rolls in all (total of count)")


def _check_ceiling(rolls: tuple[Roll, ...], *, limit: int) -> None:
    """The damage ceiling of all the rolls, the reach bonus roll included (AC-PROC-CEIL)."""
    ceiling = damage_ceiling(roll.attack.damage for roll in rolls)
    if ceiling > limit:
        raise InputError("attacks", ceiling, f"damage ceiling of the rolls must be ≤ {limit}")


def _reject(field: str, value: object, reason: str) -> NoReturn:
    raise InputError(field, value, reason)


class AttackInput(StrictModel):
    """One stand's or solo's attack rolls in one action against one target (§6.3)."""

    attacker: Annotated[Literal["stand", "solo"], Field(description="who attacks: a stand or a solo")] = "stand"
    action: Annotated[Literal["attack", "spell"], Field(description="the Attack action, or a spell attack made with Cast a Spell")] = "attack"
    attacks: Annotated[
        tuple[AttackEntry, ...], Field(min_length=1, max_length=4, description="the routine: 1 to 4 attacks, at most 4 rolls and a damage ceiling of 300 in all")
    ]
    target: Annotated[Literal["stand", "solo", "objective"], Field(description="what is attacked: a stand, a solo or an objective square")] = "stand"
    target_ac: Annotated[ArmourClass, Field(description="the target's AC before formation and cover, 1 to 40")]
    target_hp: Annotated[HitPoints, Field(description="the target's current hit points, 1 to 1000")]
    target_isolated: Annotated[Flag, Field(description="the target is isolated: advantage and double damage (AC-INTEG-1)")] = False
    target_defensive: Annotated[Flag, Field(description="the target stand's regiment is in defensive formation: +2 AC (AC-FORM-3)")] = False
    target_cover: Annotated[Cover, Field(description="the target's cover: none, half (+2 AC; forest) or three_quarters (+5 AC)")] = "none"
    resistance: Annotated[Resistance, Field(description="the target's response to the damage type: none, resistance, vulnerability or immunity")] = "none"
    attacker_isolated: Annotated[Flag, Field(description="the attacker is isolated: disadvantage on every roll (AC-INTEG-1)")] = False
    attacker_formation: Annotated[Formation, Field(description="the attacking stand's regiment formation; none for skirmishers and solos")] = "none"
    supported: Annotated[Flag, Field(description="a support-formation neighbour gave up its attacks for this stand: advantage on melee rolls (AC-ATTACK-6)")] = False
    incited: Annotated[Flag, Field(description="the commander's Incite succeeded: advantage on every roll (AC-CMD-3)")] = False
    higher_ground: Annotated[Flag, Field(description="the attacker stands higher than the target: advantage on melee rolls (AC-TERR-6)")] = False
    long_range: Annotated[Flag, Field(description="beyond normal range: disadvantage on ranged rolls (AC-RANGE-2)")] = False
    adjacent_enemy: Annotated[Flag, Field(description="the attacker is next to an enemy: disadvantage on ranged rolls (AC-D20-8)")] = False
    extra_advantage: Annotated[Flag, Field(description="any other source of advantage, e.g. a hidden attacker")] = False
    extra_disadvantage: Annotated[Flag, Field(description="any other source of disadvantage, e.g. a hidden target")] = False

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll of the action: each entry ``count`` times, and the reach bonus roll of a stand's Attack
        action (AC-ATTACK-3)."""
        return _rolls(self, reach_bonus=self.attacker == "stand" and self.action == "attack")

    def question(self) -> AttackQuestion:
        """The question the ``attack`` procedure reads."""
        return _question(self, self.rolls, attacker=self.attacker, action=self.action, target=self.target, supported=self.supported)

    def check(self) -> None:
        """The rejects of §6.3."""
        _check_entries(self.attacks, rolls_limit=ATTACK_ROLLS_LIMIT)
        if self.attacker == "solo":
            if self.attacker_formation != "none":
                _reject("attacker_formation", self.attacker_formation, "must be none for a solo")
            for name in ("supported", "incited"):
                if getattr(self, name):
                    _reject(name, True, "a solo is never supported or incited (only stands are)")
        if self.action == "attack" and self.attacker_formation == "defensive":
            _reject("attacker_formation", "defensive", "a defensive regiment cannot take the Attack action (AC-ATTACK-5)")
        if self.supported and not (self.attacker_formation == "support" and self.action == "attack"):
            _reject("supported", True, "only in the Attack action of a support-formation regiment (AC-ATTACK-6)")
        if self.target == "objective":
            for name in ("target_isolated", "target_defensive"):
                if getattr(self, name):
                    _reject(name, True, "an objective square is never isolated or defensive")
        if self.target == "solo" and self.target_defensive:
            _reject("target_defensive", True, "a solo has no formation")
        _check_ceiling(self.rolls, limit=ATTACK_CEILING_LIMIT)

    def normalised(self) -> dict[str, Any]:
        """The echoed input: every field, attack entries normalised (AC-PROC-3)."""
        out = self.model_dump(mode="json")
        out["attacks"] = [entry.normalised() for entry in self.attacks]
        return out


class UnitAttackInput(StrictModel):
    """A unit of identical stands attacking one target stand, overflow along identical stands (§6.4)."""

    stands: Annotated[int, Field(ge=1, le=10, description="stands of the attacking unit taking part, 1 to 10")]
    supporting_stands: Annotated[
        int, Field(ge=0, le=9, description="of those, how many give up their attacks to support (AC-ATTACK-6), at most stands - 1")
    ] = 0
    attacks: Annotated[
        tuple[AttackEntry, ...], Field(min_length=1, max_length=3, description="one stand's routine: 1 to 3 attacks, at most 3 rolls and a damage ceiling of 200")
    ]
    target_ac: Annotated[ArmourClass, Field(description="the target stands' AC before formation and cover, 1 to 40")]
    target_hp: Annotated[HitPoints, Field(description="hit points of each target stand, 1 to 1000")]
    target_stands: Annotated[
        int, Field(ge=1, le=10, description="identical adjacent target stands the damage overflows along (AC-DMG-2); target_stands × target_hp ≤ 1000")
    ] = 1
    target_isolated: Annotated[Flag, Field(description="the target is isolated: advantage and double damage (AC-INTEG-1)")] = False
    target_defensive: Annotated[Flag, Field(description="the target stand's regiment is in defensive formation: +2 AC (AC-FORM-3)")] = False
    target_cover: Annotated[Cover, Field(description="the target's cover: none, half (+2 AC; forest) or three_quarters (+5 AC)")] = "none"
    resistance: Annotated[Resistance, Field(description="the target's response to the damage type: none, resistance, vulnerability or immunity")] = "none"
    attacker_isolated: Annotated[Flag, Field(description="the attacker is isolated: disadvantage on every roll (AC-INTEG-1)")] = False
    attacker_formation: Annotated[Formation, Field(description="the attacking stand's regiment formation; none for skirmishers and solos")] = "none"
    incited: Annotated[Flag, Field(description="the commander's Incite succeeded: advantage on every roll (AC-CMD-3)")] = False
    higher_ground: Annotated[Flag, Field(description="the attacker stands higher than the target: advantage on melee rolls (AC-TERR-6)")] = False
    long_range: Annotated[Flag, Field(description="beyond normal range: disadvantage on ranged rolls (AC-RANGE-2)")] = False
    adjacent_enemy: Annotated[Flag, Field(description="the attacker is next to an enemy: disadvantage on ranged rolls (AC-D20-8)")] = False
    extra_advantage: Annotated[Flag, Field(description="any other source of advantage, e.g. a hidden attacker")] = False
    extra_disadvantage: Annotated[Flag, Field(description="any other source of disadvantage, e.g. a hidden target")] = False

    def question(self) -> UnitAttackQuestion:
        """The question the ``unit_attack`` procedure reads: one stand's rolls (reach bonus included, AC-ATTACK-3)."""
        stand = _question(self, _rolls(self, reach_bonus=True))
        return UnitAttackQuestion(stand, self.stands, self.supporting_stands, self.target_stands)

    def check(self) -> None:
        """The rejects of §6.4."""
        if self.supporting_stands > self.stands - 1:
            _reject("supporting_stands", self.supporting_stands, f"must be ≤ stands − 1 ({self.stands - 1})")
        if self.attacker_formation == "defensive":
            _reject("attacker_formation", "defensive", "a defensive regiment cannot take the Attack action (AC-ATTACK-5)")
        if self.supporting_stands and self.attacker_formation != "support":
            _reject("supporting_stands", self.supporting_stands, "only a support-formation regiment has supporters (AC-ATTACK-6)")
        if self.target_isolated and self.target_stands != 1:
            _reject("target_isolated", True, f"an isolated stand has no neighbour to overflow into, so target_stands must be 1 (got {self.target_stands})")
        _check_entries(self.attacks, rolls_limit=UNIT_ROLLS_LIMIT)
        _check_ceiling(self.question().stand.rolls, limit=UNIT_CEILING_LIMIT)
        if self.target_stands * self.target_hp > CHAIN_HP_LIMIT:
            _reject(
                "target_stands",
                self.target_stands,
                f"target_stands × target_hp must be ≤ {CHAIN_HP_LIMIT} (is {self.target_stands * self.target_hp})",
            )

    def normalised(self) -> dict[str, Any]:
        """The echoed input: every field, attack entries normalised (AC-PROC-3)."""
        out = self.model_dump(mode="json")
        out["attacks"] = [entry.normalised() for entry in self.attacks]
        return out


def _rolls(given: AttackInput | UnitAttackInput, *, reach_bonus: bool) -> tuple[Roll, ...]:
    """The rolls of the entries, every one at the input's long range and resistance (step 1 of §6.3)."""
    routine = ((Roll(entry.record(), given.resistance, given.long_range), entry.count) for entry in given.attacks)
    return action_rolls(routine, reach_bonus=reach_bonus)


def _question(
    given: AttackInput | UnitAttackInput, rolls: tuple[Roll, ...], *, attacker: Literal["stand", "solo"] = "stand",
    action: Literal["attack", "spell"] = "attack", target: Literal["stand", "solo", "objective"] = "stand",
    supported: bool = False,
) -> AttackQuestion:
    """The rules' question from the flags ``attack`` and ``unit_attack`` share (a unit's stands attack a stand)."""
    return AttackQuestion(
        rolls, given.target_ac, given.target_hp, attacker, action, target, target_isolated=given.target_isolated,
        target_defensive=given.target_defensive, target_cover=given.target_cover, attacker_isolated=given.attacker_isolated,
        supported=supported, incited=given.incited, higher_ground=given.higher_ground, adjacent_enemy=given.adjacent_enemy,
        extra_advantage=given.extra_advantage, extra_disadvantage=given.extra_disadvantage,
    )


class SaveInput(StrictModel):
    """One target's saving throw against one spell or area effect (§6.5)."""

    ability: Annotated[Ability, Field(description="the saving throw's ability: str, dex, con, int, wis or cha")]
    save_bonus: Annotated[AttackBonus, Field(description="the target's bonus for that save, -10 to 20 (ignored for objectives)")]
    dc: Annotated[int, Field(ge=1, le=40, description="the save's DC, 1 to 40")]
    target: Annotated[Literal["stand", "solo", "objective"], Field(description="who saves: a stand, a solo or an objective square")] = "stand"
    spell_form: Annotated[Literal["area", "targeted"], Field(description="an area spell or a targeted one")] = "area"
    caster: Annotated[Literal["stand", "solo"], Field(description="who cast it: a stand (its area damage doubles, AC-AOE-8) or a solo")] = "stand"
    damage: Annotated[str | None, Field(description="the damage dice (e.g. 8d6), or null for an effect without damage")] = None
    on_success: Annotated[Literal["half", "none"], Field(description="damage on a successful save: half, or none")] = "half"
    resistance: Annotated[Resistance, Field(description="the target's response to the damage type")] = "none"
    target_isolated: Annotated[
        Flag, Field(description="an isolated solo against a stand's targeted spell: disadvantage, double damage on a failure (AC-SPELL-5)")
    ] = False
    partial_coverage: Annotated[Flag, Field(description="the area covers only some of the stand's squares: half damage (AC-AOE-7)")] = False
    skirmisher: Annotated[Flag, Field(description="the target stand is a skirmisher: advantage on Dexterity saves (AC-SKIRM-1)")] = False
    prepared: Annotated[Flag, Field(description="the target stand's unit is under Prepare: advantage (AC-CMD-3)")] = False
    extra_advantage: Annotated[Flag, Field(description="any other source of advantage")] = False
    extra_disadvantage: Annotated[Flag, Field(description="any other source of disadvantage")] = False

    def question(self) -> SaveQuestion:
        """The question the ``save`` procedure reads."""
        effect = SpellEffect(
            self.target, self.spell_form, self.caster, None if self.damage is None else parse_dice(self.damage),
            self.resistance, self.target_isolated, self.partial_coverage,
        )
        return SaveQuestion(
            self.ability, self.save_bonus, self.dc, effect, self.on_success, self.skirmisher, self.prepared,
            self.extra_advantage, self.extra_disadvantage,
        )

    def check(self) -> None:
        """The rejects of §6.5, and the dice string."""
        if self.damage is not None:
            parse_dice(self.damage, field="damage")
        if self.partial_coverage and not (self.spell_form == "area" and self.target == "stand"):
            _reject("partial_coverage", True, "only an area can partly cover, and only a stand (AC-AOE-7)")
        for name in ("skirmisher", "prepared"):
            if getattr(self, name) and self.target != "stand":
                _reject(name, True, "only for a target stand")
        if self.target_isolated and self.target == "objective":
            _reject("target_isolated", True, "an objective square is never isolated")


class MoraleInput(StrictModel):
    """A unit's end-of-round morale check, or a routed unit's rally (§6.6)."""

    mode: Annotated[Literal["check", "rally"], Field(description="the end-of-round check (AC-MORALE-1) or a routed unit's rally (AC-MORALE-6)")] = "check"
    wisdom_modifiers: Annotated[
        tuple[Annotated[int, Field(ge=-5, le=10)], ...],
        Field(min_length=1, max_length=100, description="Wisdom modifiers (-5 to 10) of the unit's stands and joined solos; the highest counts"),
    ]
    starting_stands: Annotated[
        int | None, Field(ge=1, le=100, description="check mode (required): the stands the unit started the battle with, 1 to 100")
    ] = None
    stands_lost: Annotated[
        int | None, Field(ge=0, le=99, description="check mode (required): stands lost so far, at most starting_stands - 1")
    ] = None
    commander_cha_modifier: Annotated[
        int | None, Field(ge=-5, le=10, description="rally mode (required): the commander's Charisma modifier, -5 to 10")
    ] = None
    advantage: Annotated[Flag, Field(description="advantage on the save, e.g. Prepare")] = False
    disadvantage: Annotated[Flag, Field(description="disadvantage on the save")] = False

    def check(self) -> None:
        """Which fields each mode requires and forbids (§6.6)."""
        wanted = ("starting_stands", "stands_lost") if self.mode == "check" else ("commander_cha_modifier",)
        for name in ("starting_stands", "stands_lost", "commander_cha_modifier"):
            given = name in self.model_fields_set
            if given and getattr(self, name) is None:
                _reject(name, None, "must be an integer")
            if name in wanted and not given:
                raise InputError(name, InputError.NOTHING, f"required field is missing in {self.mode} mode")
            if name not in wanted and given:
                _reject(name, getattr(self, name), f"must be absent in {self.mode} mode")
        if self.mode == "check":
            assert self.starting_stands is not None and self.stands_lost is not None
            if self.stands_lost > self.starting_stands - 1:
                _reject("stands_lost", self.stands_lost, f"must be ≤ starting_stands − 1 ({self.starting_stands - 1})")

    def normalised(self) -> dict[str, Any]:
        """The echoed input without the fields the mode forbids (AC-PROC-3)."""
        return {k: v for k, v in self.model_dump(mode="json").items() if v is not None}

    def question(self) -> MoraleQuestion:
        """The question the ``morale`` procedure reads."""
        return MoraleQuestion(
            self.wisdom_modifiers, self.mode, self.starting_stands, self.stands_lost, self.commander_cha_modifier,
            self.advantage, self.disadvantage,
        )


class CommanderCheckInput(StrictModel):
    """The DC 15 Charisma check of Prepare and Incite (§6.7); the DC is not an input."""

    check_bonus: Annotated[AttackBonus, Field(description="the better of the commander's Intimidation and Persuasion bonuses, -10 to 20")]
    advantage: Annotated[Flag, Field(description="advantage on the check")] = False
    disadvantage: Annotated[Flag, Field(description="disadvantage on the check")] = False

    def question(self) -> CommanderCheckQuestion:
        """The question the ``commander_check`` procedure reads."""
        return CommanderCheckQuestion(self.check_bonus, self.advantage, self.disadvantage)


class InitiativeEntry(StrictModel):
    """A unit or unattached solo rolling initiative (§6.8)."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,20}$", description="a name for the entry: letters, digits, - and _, up to 20")]
    type: Annotated[Literal["skirmisher", "regiment", "solo"], Field(description="skirmishers use their best modifier, a regiment its worst")]
    dex_modifiers: Annotated[
        tuple[Annotated[int, Field(ge=-5, le=10)], ...],
        Field(min_length=1, max_length=50, description="Dexterity modifiers (-5 to 10) of its stands and joined solos; a solo has exactly one"),
    ]


class InitiativeInput(StrictModel):
    """Two to four units and solos rolling initiative (§6.8)."""

    units: Annotated[tuple[InitiativeEntry, ...], Field(min_length=2, max_length=4, description="the 2 to 4 units and solos rolling, ids unique")]

    def check(self) -> None:
        """Unique ids; a solo has exactly one modifier."""
        seen: set[str] = set()
        for i, unit in enumerate(self.units):
            if unit.id in seen:
                _reject(f"units[{i}].id", unit.id, "duplicate id")
            seen.add(unit.id)
            if unit.type == "solo" and len(unit.dex_modifiers) != 1:
                _reject(f"units[{i}].dex_modifiers", list(unit.dex_modifiers), "a solo has exactly one modifier")

    def question(self) -> InitiativeQuestion:
        """The question the ``initiative`` procedure reads."""
        return InitiativeQuestion(tuple(Entry(unit.id, unit.type, unit.dex_modifiers) for unit in self.units))


class DecisiveRoutInput(StrictModel):
    """Both sides' VP and surviving units at the battle-end judgement (§6.9)."""

    vp_a: Annotated[int, Field(ge=0, le=100, description="side a's victory points, 0 to 100")]
    vp_b: Annotated[int, Field(ge=0, le=100, description="side b's victory points, 0 to 100")]
    units_a: Annotated[int, Field(ge=0, le=50, description="side a's surviving units, 0 to 50")]
    units_b: Annotated[int, Field(ge=0, le=50, description="side b's surviving units, 0 to 50")]

    def question(self) -> DecisiveRoutQuestion:
        """The question the ``decisive_rout`` procedure reads."""
        return DecisiveRoutQuestion(self.vp_a, self.vp_b, self.units_a, self.units_b)


class DeathSavesInput(StrictModel):
    """A dying PC solo's tallies before its end-of-round death saves (§6.10)."""

    successes: Annotated[int, Field(ge=0, le=2, description="death-save successes so far, 0 to 2")] = 0
    failures: Annotated[int, Field(ge=0, le=2, description="death-save failures so far, 0 to 2")] = 0

    def question(self) -> DeathSavesQuestion:
        """The question the ``death_saves`` procedure reads."""
        return DeathSavesQuestion(self.successes, self.failures)


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
        Procedure(
            "save", "one target's saving throw against a spell or area, and its damage", SaveInput,
            lambda given: save(given.question()),
        ),
        Procedure(
            "morale", "a unit's morale check after heavy losses, or a routed unit's rally", MoraleInput,
            lambda given: morale(given.question()), MoraleInput.normalised,
        ),
        Procedure(
            "commander_check", "the DC 15 Charisma check of Prepare and Incite", CommanderCheckInput,
            lambda given: commander_check(given.question()),
        ),
        Procedure(
            "initiative", "the turn order of two to four units and solos", InitiativeInput,
            lambda given: initiative(given.question()),
        ),
        Procedure(
            "decisive_rout", "the battle-end judgement and the rout of the losing units", DecisiveRoutInput,
            lambda given: decisive_rout(given.question()),
        ),
        Procedure(
            "death_saves", "a dying PC solo's end-of-round death saving throws", DeathSavesInput,
            lambda given: death_saves(given.question()),
        ),
    )
}
