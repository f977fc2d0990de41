"""The inputs of the armies-clash odds procedures (§6), validated strictly (AC-PROC-1, AC-PROC-2, AC-PROC-3)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NoReturn

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.validation import StrictModel
from kessen.rulesets.armies_clash.attacks import AttackQuestion, Roll, UnitAttackQuestion, action_rolls
from kessen.rulesets.armies_clash.damage import Resistance
from kessen.rulesets.armies_clash.dice_strings import damage_ceiling, parse_dice
from kessen.rulesets.armies_clash.profiles import Ability, Attack, AttackKind, Cover, Formation
from kessen.rulesets.armies_clash.spells import SaveQuestion

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

    kind: AttackKind
    attack_bonus: AttackBonus
    damage: str
    count: Annotated[int, Field(ge=1, le=4)] = 1
    reach_ft: Annotated[int, Field(ge=5, le=30, multiple_of=5)] | None = None

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
                raise InputError(f"attacks[{i}].reach_ft", None, "must be an integer")
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

    attacker: Literal["stand", "solo"] = "stand"
    action: Literal["attack", "spell"] = "attack"
    attacks: Annotated[tuple[AttackEntry, ...], Field(min_length=1, max_length=4)]
    target: Literal["stand", "solo", "objective"] = "stand"
    target_ac: ArmourClass
    target_hp: HitPoints
    target_isolated: Flag = False
    target_defensive: Flag = False
    target_cover: Cover = "none"
    resistance: Resistance = "none"
    attacker_isolated: Flag = False
    attacker_formation: Formation = "none"
    supported: Flag = False
    incited: Flag = False
    higher_ground: Flag = False
    long_range: Flag = False
    adjacent_enemy: Flag = False
    extra_advantage: Flag = False
    extra_disadvantage: Flag = False

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every roll of the action: each entry ``count`` times, and the reach bonus roll of a stand's Attack
        action (AC-ATTACK-3); every roll at the input's long range and resistance."""
        routine = ((Roll(entry.record(), self.resistance, self.long_range), entry.count) for entry in self.attacks)
        return action_rolls(routine, reach_bonus=self.attacker == "stand" and self.action == "attack")

    def question(self) -> AttackQuestion:
        """The question the ``attack`` procedure reads."""
        return AttackQuestion(
            self.rolls, self.target_ac, self.target_hp, attacker=self.attacker, action=self.action, target=self.target,
            target_isolated=self.target_isolated, target_defensive=self.target_defensive, target_cover=self.target_cover,
            attacker_isolated=self.attacker_isolated, supported=self.supported, incited=self.incited,
            higher_ground=self.higher_ground, adjacent_enemy=self.adjacent_enemy, extra_advantage=self.extra_advantage,
            extra_disadvantage=self.extra_disadvantage,
        )

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

    stands: Annotated[int, Field(ge=1, le=10)]
    supporting_stands: Annotated[int, Field(ge=0, le=9)] = 0
    attacks: Annotated[tuple[AttackEntry, ...], Field(min_length=1, max_length=3)]
    target_ac: ArmourClass
    target_hp: HitPoints
    target_stands: Annotated[int, Field(ge=1, le=10)] = 1
    target_isolated: Flag = False
    target_defensive: Flag = False
    target_cover: Cover = "none"
    resistance: Resistance = "none"
    attacker_isolated: Flag = False
    attacker_formation: Formation = "none"
    incited: Flag = False
    higher_ground: Flag = False
    long_range: Flag = False
    adjacent_enemy: Flag = False
    extra_advantage: Flag = False
    extra_disadvantage: Flag = False

    def question(self) -> UnitAttackQuestion:
        """The question the ``unit_attack`` procedure reads: one stand's rolls (reach bonus included, AC-ATTACK-3)."""
        routine = ((Roll(entry.record(), self.resistance, self.long_range), entry.count) for entry in self.attacks)
        stand = AttackQuestion(
            action_rolls(routine, reach_bonus=True), self.target_ac, self.target_hp,
            target_isolated=self.target_isolated, target_defensive=self.target_defensive, target_cover=self.target_cover,
            attacker_isolated=self.attacker_isolated, incited=self.incited, higher_ground=self.higher_ground,
            adjacent_enemy=self.adjacent_enemy, extra_advantage=self.extra_advantage,
            extra_disadvantage=self.extra_disadvantage,
        )
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


class SaveInput(StrictModel):
    """One target's saving throw against one spell or area effect (§6.5)."""

    ability: Ability
    save_bonus: AttackBonus
    dc: Annotated[int, Field(ge=1, le=40)]
    target: Literal["stand", "solo", "objective"] = "stand"
    spell_form: Literal["area", "targeted"] = "area"
    caster: Literal["stand", "solo"] = "stand"
    damage: str | None = None
    on_success: Literal["half", "none"] = "half"
    resistance: Resistance = "none"
    target_isolated: Flag = False
    partial_coverage: Flag = False
    skirmisher: Flag = False
    prepared: Flag = False
    extra_advantage: Flag = False
    extra_disadvantage: Flag = False

    def question(self) -> SaveQuestion:
        """The question the ``save`` procedure reads."""
        return SaveQuestion(
            self.ability, self.save_bonus, self.dc, target=self.target, spell_form=self.spell_form, caster=self.caster,
            damage=None if self.damage is None else parse_dice(self.damage), on_success=self.on_success,
            resistance=self.resistance, target_isolated=self.target_isolated, partial_coverage=self.partial_coverage,
            skirmisher=self.skirmisher, prepared=self.prepared, extra_advantage=self.extra_advantage,
            extra_disadvantage=self.extra_disadvantage,
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

    mode: Literal["check", "rally"] = "check"
    wisdom_modifiers: Annotated[tuple[Annotated[int, Field(ge=-5, le=10)], ...], Field(min_length=1, max_length=100)]
    starting_stands: Annotated[int, Field(ge=1, le=100)] | None = None
    stands_lost: Annotated[int, Field(ge=0, le=99)] | None = None
    commander_cha_modifier: Annotated[int, Field(ge=-5, le=10)] | None = None
    advantage: Flag = False
    disadvantage: Flag = False

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


class CommanderCheckInput(StrictModel):
    """The DC 15 Charisma check of Prepare and Incite (§6.7); the DC is not an input."""

    check_bonus: AttackBonus
    advantage: Flag = False
    disadvantage: Flag = False


class InitiativeEntry(StrictModel):
    """A unit or unattached solo rolling initiative (§6.8)."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,20}$")]
    type: Literal["skirmisher", "regiment", "solo"]
    dex_modifiers: Annotated[tuple[Annotated[int, Field(ge=-5, le=10)], ...], Field(min_length=1, max_length=50)]


class InitiativeInput(StrictModel):
    """Two to four units and solos rolling initiative (§6.8)."""

    units: Annotated[tuple[InitiativeEntry, ...], Field(min_length=2, max_length=4)]

    def check(self) -> None:
        """Unique ids; a solo has exactly one modifier."""
        seen: set[str] = set()
        for i, unit in enumerate(self.units):
            if unit.id in seen:
                _reject(f"units[{i}].id", unit.id, "duplicate id")
            seen.add(unit.id)
            if unit.type == "solo" and len(unit.dex_modifiers) != 1:
                _reject(f"units[{i}].dex_modifiers", list(unit.dex_modifiers), "a solo has exactly one modifier")


class DecisiveRoutInput(StrictModel):
    """Both sides' VP and surviving units at the battle-end judgement (§6.9)."""

    vp_a: Annotated[int, Field(ge=0, le=100)]
    vp_b: Annotated[int, Field(ge=0, le=100)]
    units_a: Annotated[int, Field(ge=0, le=50)]
    units_b: Annotated[int, Field(ge=0, le=50)]


class DeathSavesInput(StrictModel):
    """A dying PC solo's tallies before its end-of-round death saves (§6.10)."""

    successes: Annotated[int, Field(ge=0, le=2)] = 0
    failures: Annotated[int, Field(ge=0, le=2)] = 0
