"""Scenario files for whole battles: creatures, stands, units, solos, the grid and its terrain, objectives
(§4.1–§4.8), validated at load with errors that name the file, the field and the value.

File layout (TOML)::

    name = "..."                        # shown on the board
    max_rounds = 12                     # [DECISION] rounds before the battle is judged on VP (1..100, default 20)
    extra_round_on_tie = false          # AC-WIN-4
    surprised = ["unit-or-solo-id"]     # AC-INIT-5
    [grid] width, height, and [[grid.terrain]] entries: `at = [x, y]` or `rect = [x0, y0, x1, y1]` (inclusive),
           with kind / rough / elevation / obscured; later entries override earlier ones
    [[creatures]] [[units]] [[stands]] [[solos]] [[objectives]]   per §4.1, §4.3–§4.5, §4.7

[DECISION] Fields the spec's records lack: a spell may carry `uses` (1..20; absent = at will), the
number of times each stand or solo may cast it (AC-SPELL-1 tracks slots per stand), and `damage_type`
(for resistance, AC-D20-7); an attack may carry `push_ft` (1..200), the feet a hit pushes its target
straight away from the attacker — converted ÷5 to squares (AC-STAND-4) and resolved as forced movement
(AC-MOVE-8). A monster's non-spell area ability (a breath weapon) is written as a spell record, usually
with `uses`, and follows the area rules (AC-SPELL-7).
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.armies_clash.rules.dice_strings import DiceStringError, parse_dice
from kessen.rulesets.armies_clash.rules.grid import (
    FOOTPRINT,
    Footprint,
    Shape,
    Size,
    TerrainKind,
    overlaps,
    size_category,
)
from kessen.rulesets.armies_clash.profiles import Attack, AttackKind

MAX_GRID = 100
MAX_STANDS_PER_SIDE = 50
MAX_UNITS_PER_SIDE = 26
MAX_SOLOS_PER_SIDE = 10
MAX_CREATURES = 40
MAX_SPELLS = 10
MAX_OBJECTIVES = 20
MAX_TERRAIN_ENTRIES = 1000
MAX_TERRAIN_SQUARES = 4 * MAX_GRID * MAX_GRID
MAX_SPEED_FT = 60
MAX_SPELL_RANGE_FT = 300
MAX_AREA_FT = 100
"""[DECISION] Limits of a scenario a person would write (issue 14), each refused at load with the usual one-line
error, so that any battle within them plays to its end in seconds: a grid of at most 100 × 100 squares (2,000 ft a
side; the spec allows 200); at most 50 stands in 26 units (one board letter each) and 10 solos a side; speeds of at
most 60 ft (a warhorse; the spec allows 200: a Dash of 200 ft is 80 squares, thousands of ends to every move);
spells of at most 300 ft range and 100 ft areas (the spec sets no bound: every origin square is a choice);
terrain entries covering at most four grids' worth of squares in all, checked before any is laid out."""

Ident = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,40}$", description="a name: letters, digits, - and _, up to 40")]
X = Annotated[int, Field(ge=0, lt=MAX_GRID, description="x: the column, 0 at the west edge")]
Y = Annotated[int, Field(ge=0, lt=MAX_GRID, description="y: the row, 0 at the north edge")]
Coord = tuple[X, Y]
Mod = Annotated[int, Field(ge=-5, le=10, description="an ability modifier (not the score), -5 to 10")]
Bonus = Annotated[int, Field(ge=-10, le=20, description="a bonus to the d20, -10 to 20")]
Speed = Annotated[int, Field(ge=0, le=MAX_SPEED_FT, multiple_of=5)]
Label = Annotated[str, Field(max_length=40, description="a word from the stat block, up to 40 characters")]
SideId = Literal["a", "b"]
AbilityName = Literal["str", "dex", "con", "int", "wis", "cha"]
SkillName = Literal["stealth", "perception", "intimidation", "persuasion"]


class Abilities(StrictModel):
    """The six ability modifiers (not scores)."""

    str: Annotated[Mod, Field(description="Strength modifier, -5 to 10")]
    dex: Annotated[Mod, Field(description="Dexterity modifier, -5 to 10 (initiative, AC-INIT-2)")]
    con: Annotated[Mod, Field(description="Constitution modifier, -5 to 10")]
    int: Annotated[Mod, Field(description="Intelligence modifier, -5 to 10")]
    wis: Annotated[Mod, Field(description="Wisdom modifier, -5 to 10 (morale, AC-MORALE-2)")]
    cha: Annotated[Mod, Field(description="Charisma modifier, -5 to 10 (rally, AC-MORALE-6)")]


class AttackRecord(StrictModel):
    """An attack of a stat block (§4.1)."""

    id: Annotated[Ident, Field(description="the attack's name, unique in its creature; `multiattack` lists these")]
    kind: Annotated[Literal["melee", "ranged"], Field(description="melee or ranged")]
    attack_bonus: Annotated[Bonus, Field(description="the attack roll's bonus, -10 to 20")]
    damage: Annotated[str, Field(description="damage dice, e.g. 1d8+1 (AC-PROC-DICE; a critical maximum of at most 300)")]
    damage_type: Annotated[Label, Field(description="e.g. slashing or fire, for resistance (AC-D20-7); empty: none")] = ""
    reach_ft: Annotated[
        int | None, Field(ge=5, le=30, multiple_of=5, description="melee only: reach in feet, 5 to 30 (default 5); 10+ gives a stand one more roll (AC-ATTACK-3)")
    ] = None
    range_ft: Annotated[int | None, Field(ge=5, le=1000, description="ranged only (required): normal range in feet, 5 to 1000")] = None
    long_range_ft: Annotated[
        int | None, Field(ge=5, le=1000, description="ranged only: long range in feet (disadvantage beyond normal range), at least range_ft")
    ] = None
    push_ft: Annotated[
        int | None, Field(ge=1, le=200, description="feet a hit pushes the target straight away, 1 to 200 (÷5 to squares, AC-STAND-4)")
    ] = None

    def check(self) -> None:
        expression = parse_dice(self.damage, field="damage")
        if expression.highest(critical=True) > 300:
            raise InputError("damage", self.damage, "one roll's critical maximum must be ≤ 300 (AC-PROC-CEIL)")
        if self.kind == "melee":
            for name in ("range_ft", "long_range_ft"):
                if getattr(self, name) is not None:
                    raise InputError(name, getattr(self, name), "only a ranged attack has a range")
        else:
            if self.reach_ft is not None:
                raise InputError("reach_ft", self.reach_ft, "only a melee attack has a reach")
            if self.range_ft is None:
                raise InputError("range_ft", InputError.NOTHING, "required for a ranged attack")
            if self.long_range_ft is not None and self.long_range_ft < self.range_ft:
                raise InputError("long_range_ft", self.long_range_ft, f"must be ≥ range_ft ({self.range_ft})")

    @property
    def reach(self) -> int:
        return self.reach_ft or 5

    def profile(self) -> Attack:
        """The attack as the rules read it: the dice string parsed, a melee reach filled in (5 ft)."""
        return _profile(self.kind, self.attack_bonus, self.damage, self.reach if self.kind == "melee" else None)


@functools.lru_cache(maxsize=1024)
def _profile(kind: AttackKind, attack_bonus: int, damage: str, reach_ft: int | None) -> Attack:
    """An attack profile, its dice string parsed once (the engine asks for it at every attack it weighs)."""
    return Attack(kind, attack_bonus, parse_dice(damage), reach_ft)


class SpellRecord(StrictModel):
    """A spell, enough for the battle rules (§4.1); ``uses`` and ``damage_type`` are this engine's additions."""

    id: Annotated[Ident, Field(description="the spell's name, unique in its creature")]
    range_ft: Annotated[
        int | Literal["self"], Field(description=f"range in feet, 0 to {MAX_SPELL_RANGE_FT}, or \"self\" (an area from the caster)")
    ]
    form: Annotated[Literal["targeted", "area"], Field(description="targeted (picks targets) or area (covers a template)")]
    max_targets: Annotated[int | None, Field(ge=1, le=20, description="targeted only (required): creatures it can target, 1 to 20")] = None
    shape: Annotated[Shape | None, Field(description="area only (required): cone, cube, cylinder, sphere or line")] = None
    size_ft: Annotated[
        int | None, Field(ge=5, le=MAX_AREA_FT, description=f"area only (required): the area's size in feet, 5 to {MAX_AREA_FT} (AC-AOE-1)")
    ] = None
    resolution: Annotated[Literal["attack", "save", "automatic"], Field(description="a spell attack, a saving throw, or automatic damage")]
    attack_bonus: Annotated[Bonus | None, Field(description="attack only (required): the spell attack's bonus")] = None
    kind: Annotated[Literal["melee", "ranged"] | None, Field(description="attack only (required): a melee or ranged spell attack")] = None
    save_ability: Annotated[AbilityName | None, Field(description="save only (required): the saving throw's ability")] = None
    dc: Annotated[int | None, Field(ge=1, le=40, description="save only (required): the DC, 1 to 40")] = None
    on_success: Annotated[Literal["half", "none"], Field(description="save only: damage on a success, half or none")] = "half"
    damage: Annotated[str | None, Field(description="damage dice, or absent for an effect without damage")] = None
    damage_type: Annotated[Label, Field(description="e.g. fire, for resistance (AC-D20-7); empty: none")] = ""
    uses: Annotated[int | None, Field(ge=1, le=20, description="casts per stand or solo for the battle, 1 to 20; absent: at will")] = None

    def check(self) -> None:
        if self.range_ft != "self" and not 0 <= self.range_ft <= MAX_SPELL_RANGE_FT:
            raise InputError("range_ft", self.range_ft, f"must be from 0 to {MAX_SPELL_RANGE_FT} (feet) or \"self\"")
        if self.damage is not None:
            parse_dice(self.damage, field="damage")
        if self.form == "targeted":
            if self.max_targets is None:
                raise InputError("max_targets", InputError.NOTHING, "required for a targeted spell")
            if self.shape is not None or self.size_ft is not None:
                raise InputError("shape", self.shape, "only an area spell has a shape")
        else:
            if self.shape is None or self.size_ft is None:
                raise InputError("shape" if self.shape is None else "size_ft", InputError.NOTHING, "required for an area spell")
            if self.max_targets is not None:
                raise InputError("max_targets", self.max_targets, "only a targeted spell has max_targets")
            if self.shape == "cone" and self.range_ft != "self":
                raise InputError("range_ft", self.range_ft, "a cone starts at the caster (range self, AC-AOE-3)")
            if self.resolution == "attack":
                raise InputError("resolution", "attack", "an area spell allows a save or is automatic")
        if self.resolution == "attack":
            if self.attack_bonus is None or self.kind is None:
                raise InputError("attack_bonus" if self.attack_bonus is None else "kind", InputError.NOTHING, "required for an attack spell")
            if self.range_ft == "self":
                raise InputError("range_ft", "self", "an attack spell needs a range")
        if self.resolution == "save" and (self.save_ability is None or self.dc is None):
            raise InputError("save_ability" if self.save_ability is None else "dc", InputError.NOTHING, "required for a save spell")
        if self.form == "targeted" and self.range_ft == "self":
            raise InputError("range_ft", "self", "a targeted spell needs a range")


class Creature(StrictModel):
    """Creature statistics (§4.1)."""

    id: Annotated[Ident, Field(description="the creature's name, used by stands and solos")]
    size: Annotated[Size, Field(description="tiny, small, medium (1 × 1 squares), large (2 × 2), huge (3 × 3) or gargantuan (4 × 4, solos only)")]
    ac: Annotated[int, Field(ge=1, le=40, description="Armour Class, 1 to 40")]
    hp: Annotated[int, Field(ge=1, le=1000, description="maximum hit points of one creature (a stand has one creature's HP), 1 to 1000")]
    speed_ft: Annotated[
        Speed, Field(description=f"walking speed in feet, 0 to {MAX_SPEED_FT}, a multiple of 5 (÷5 = squares a turn, AC-STAND-3)")
    ]
    swim_ft: Annotated[
        Speed, Field(description=f"swimming speed in feet, 0 (none) to {MAX_SPEED_FT}; any lets it enter deep water")
    ] = 0
    abilities: Annotated[Abilities, Field(description="the six ability modifiers")]
    saves: Annotated[
        dict[AbilityName, Annotated[int, Field(ge=-10, le=20)]],
        Field(description="saving throw bonuses, -10 to 20, by ability; a missing one is the ability modifier"),
    ] = {}
    skills: Annotated[
        dict[SkillName, Annotated[int, Field(ge=-10, le=20)]],
        Field(description="stealth, perception, intimidation, persuasion bonuses; missing: the ability modifier"),
    ] = {}
    attacks: Annotated[tuple[AttackRecord, ...], Field(max_length=10, description="its attacks, at most 10")] = ()
    multiattack: Annotated[
        tuple[Ident, ...] | None,
        Field(min_length=1, max_length=8, description="the attack ids of one Attack action, 1 to 8; absent: any one attack"),
    ] = None
    resistances: Annotated[tuple[Label, ...], Field(max_length=20, description="damage types it takes half from")] = ()
    vulnerabilities: Annotated[tuple[Label, ...], Field(max_length=20, description="damage types it takes double from")] = ()
    immunities: Annotated[tuple[Label, ...], Field(max_length=20, description="damage types it takes none from")] = ()
    spells: Annotated[
        tuple[SpellRecord, ...], Field(max_length=MAX_SPELLS, description=f"its spells and area abilities, at most {MAX_SPELLS}")
    ] = ()

    def __hash__(self) -> int:
        return hash(self.id)

    def check(self) -> None:
        ids = [a.id for a in self.attacks]
        for i, a in enumerate(self.attacks):
            if a.id in ids[:i]:
                raise InputError(f"attacks[{i}].id", a.id, "duplicate attack id")
        for i, ref in enumerate(self.multiattack or ()):
            if ref not in ids:
                raise InputError(f"multiattack[{i}]", ref, "no such attack")
        names = [s.id for s in self.spells]
        for i, s in enumerate(self.spells):
            if s.id in names[:i]:
                raise InputError(f"spells[{i}].id", s.id, "duplicate spell id")

    def save(self, ability: AbilityName) -> int:
        """The saving throw bonus: the listed one, else the ability modifier."""
        modifier: int = getattr(self.abilities, ability)
        return self.saves.get(ability, modifier)

    def skill(self, name: SkillName) -> int:
        """The skill bonus: the listed one, else the modifier of the skill's ability."""
        default = {"stealth": "dex", "perception": "wis", "intimidation": "cha", "persuasion": "cha"}[name]
        modifier: int = getattr(self.abilities, default)
        return self.skills.get(name, modifier)

    @property
    def passive_perception(self) -> int:
        """10 + Perception (§4.1)."""
        return 10 + self.skill("perception")

    def response(self, damage_type: str) -> Literal["none", "resistance", "vulnerability", "immunity"]:
        """The creature's response to a damage type (AC-D20-7)."""
        if not damage_type:
            return "none"
        if damage_type in self.immunities:
            return "immunity"
        if damage_type in self.vulnerabilities:
            return "vulnerability"
        if damage_type in self.resistances:
            return "resistance"
        return "none"


class TerrainEntry(StrictModel):
    """Terrain for one square (``at``) or an inclusive rectangle (``rect``) (§4.6)."""

    at: Annotated[Coord | None, Field(description="one square [x, y]")] = None
    rect: Annotated[
        tuple[X, Y, X, Y] | None, Field(description="an inclusive rectangle [x0, y0, x1, y1], x0 ≤ x1 and y0 ≤ y1, inside the grid")
    ] = None
    kind: Annotated[TerrainKind, Field(description="plain, road, forest, shallow_water or deep_water (§4.6)")] = "plain"
    rough: Annotated[bool, Field(description="rubble or broken ground: difficult terrain (plain only, AC-TERR-1)")] = False
    elevation: Annotated[int, Field(ge=0, le=10, description="height level in 20-ft steps, 0 to 10 (never on water, AC-TERR-5)")] = 0
    obscured: Annotated[bool, Field(description="fog, darkness, tall cover: stands here may try to Hide (AC-HIDE-2)")] = False

    @property
    def corners(self) -> tuple[int, int, int, int]:
        """The entry's squares as an inclusive rectangle x0, y0, x1, y1."""
        if self.at is not None:
            return (self.at[0], self.at[1], self.at[0], self.at[1])
        assert self.rect is not None
        return self.rect

    @property
    def area(self) -> int:
        x0, y0, x1, y1 = self.corners
        return (x1 - x0 + 1) * (y1 - y0 + 1)

    def check(self) -> None:
        if (self.at is None) == (self.rect is None):
            raise InputError("at", self.at, "give exactly one of at = [x, y] or rect = [x0, y0, x1, y1]")
        x0, y0, x1, y1 = self.corners
        if not (x0 <= x1 and y0 <= y1):
            raise InputError("rect", list(self.corners), "must be [x0, y0, x1, y1] with x0 ≤ x1 and y0 ≤ y1")
        if self.kind in ("shallow_water", "deep_water") and self.elevation > 0:
            raise InputError("elevation", self.elevation, "water cannot have elevation (§4.6)")
        if self.kind == "road" and self.rough:
            raise InputError("rough", True, "a road square is never rough (§4.6)")

    def squares(self) -> list[tuple[int, int]]:
        """The squares the entry covers (call only once the entry is known to lie on the grid)."""
        x0, y0, x1, y1 = self.corners
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


class GridEntry(StrictModel):
    """The battlefield: its size in 20-ft squares and the terrain of the squares that are not plain (§4.6)."""

    width: Annotated[int, Field(ge=1, le=MAX_GRID, description=f"squares from west to east, 1 to {MAX_GRID}")]
    height: Annotated[int, Field(ge=1, le=MAX_GRID, description=f"squares from north to south, 1 to {MAX_GRID}")]
    terrain: Annotated[
        tuple[TerrainEntry, ...],
        Field(max_length=MAX_TERRAIN_ENTRIES, description=f"terrain entries, later ones override earlier ones; at most {MAX_TERRAIN_ENTRIES}, covering at most {MAX_TERRAIN_SQUARES} squares in all"),
    ] = ()


class UnitEntry(StrictModel):
    """A unit (§4.4)."""

    id: Annotated[Ident, Field(description="the unit's name (stands name it in `unit`)")]
    side: Annotated[SideId, Field(description="a or b")]
    type: Annotated[Literal["skirmisher", "regiment"], Field(description="skirmisher (loose, fast) or regiment (close order, formations)")]
    formation: Annotated[
        Literal["support", "defensive", "march"] | None, Field(description="regiments only (required): support, defensive or march")
    ] = None
    commander: Annotated[Ident | None, Field(description="a solo of the unit's side joined to one of its stands, that can command")] = None
    attrition_vp: Annotated[int | None, Field(ge=1, le=10, description="VP the enemy scores when this unit is eliminated, 1 to 10 (AC-OBJ-2)")] = None

    def check(self) -> None:
        if self.type == "regiment" and self.formation is None:
            raise InputError("formation", InputError.NOTHING, "a regiment needs a formation (support, defensive or march)")
        if self.type == "skirmisher" and self.formation is not None:
            raise InputError("formation", self.formation, "a skirmisher unit has no formation")


class StandEntry(StrictModel):
    """A stand (§4.3)."""

    id: Annotated[Ident, Field(description="the stand's name (unique among stands and solos)")]
    unit: Annotated[Ident, Field(description="the unit it belongs to")]
    creature: Annotated[Ident, Field(description="the creature it is ten of (not gargantuan)")]
    at: Annotated[Coord, Field(description="[x, y] of its footprint's north-west square; the whole footprint on the grid")]
    hp: Annotated[int | None, Field(ge=1, le=1000, description="hit points at the start, at most the creature's; default its maximum")] = None


class SoloEntry(StrictModel):
    """A solo (§4.5)."""

    id: Annotated[Ident, Field(description="the solo's name (unique among stands and solos)")]
    side: Annotated[SideId, Field(description="a or b")]
    creature: Annotated[Ident, Field(description="its creature (any size, gargantuan included)")]
    joined_to: Annotated[Ident | None, Field(description="a stand of its side it starts joined to; absent: it stands at `at`")] = None
    at: Annotated[Coord | None, Field(description="[x, y] of an unattached solo's north-west square")] = None
    hp: Annotated[int | None, Field(ge=1, le=1000, description="hit points at the start, at most the creature's; default its maximum")] = None
    pc: Annotated[bool, Field(description="a player character: at 0 HP it is dying and rolls death saves (AC-END-4), an NPC dies")] = False
    can_command: Annotated[bool | None, Field(description="whether it may command a unit; default: true for PCs, false otherwise")] = None

    def check(self) -> None:
        if self.joined_to is None and self.at is None:
            raise InputError("at", InputError.NOTHING, "an unattached solo needs a position")
        if self.joined_to is not None and self.at is not None:
            raise InputError("at", list(self.at), "a joined solo has no position of its own")

    @property
    def commands(self) -> bool:
        """Every PC may command, NPCs only if the scenario says so (§4.5)."""
        return self.pc if self.can_command is None else self.can_command


class ObjectiveEntry(StrictModel):
    """An objective (§4.7)."""

    id: Annotated[Ident, Field(description="the objective's name")]
    kind: Annotated[Literal["attrition", "destroy", "defend", "custom"], Field(description="attrition, destroy, defend or custom (§4.7)")]
    side: Annotated[SideId, Field(description="the side that scores it")]
    vp_per_unit: Annotated[int | None, Field(ge=1, le=10, description="attrition (required): VP per enemy unit eliminated, 1 to 10")] = None
    square: Annotated[Coord | None, Field(description="destroy (required): [x, y] of the square to destroy")] = None
    hp: Annotated[int | None, Field(ge=10, le=100, description="destroy (required): the square's hit points, 10 to 100")] = None
    vp: Annotated[int | None, Field(ge=1, le=5, description="destroy and custom (required): VP it scores, 1 to 5")] = None
    ac: Annotated[int, Field(ge=1, le=40, description="destroy: the square's AC against attack rolls, 1 to 40")] = 15
    protects: Annotated[Ident | None, Field(description="defend (required): the other side's destroy objective it guards")] = None
    text: Annotated[str, Field(max_length=200, description="custom: what must be done, up to 200 characters")] = ""

    def check(self) -> None:
        need = {"attrition": ("vp_per_unit",), "destroy": ("square", "hp", "vp"), "defend": ("protects",), "custom": ("vp",)}
        for name in need[self.kind]:
            if getattr(self, name) is None:
                raise InputError(name, InputError.NOTHING, f"required for a {self.kind} objective")
        for name in ("vp_per_unit", "square", "hp", "protects"):
            if name not in need[self.kind] and getattr(self, name) is not None:
                raise InputError(name, getattr(self, name), f"not a field of a {self.kind} objective")
        if self.vp is not None and self.kind not in ("destroy", "custom"):
            raise InputError("vp", self.vp, f"not a field of a {self.kind} objective")


class Scenario(StrictModel):
    """A whole battle (§4)."""

    ruleset: Annotated[Literal["armies-clash"] | None, Field(description='the ruleset this file is for: "armies-clash" (kessen reads it first)')] = None
    description: Annotated[str, Field(max_length=200, description="one line about the scenario, shown by kessen scenarios")] = ""
    name: Annotated[str, Field(min_length=1, max_length=80, description="the battle's name, shown on the board, up to 80 characters")]
    max_rounds: Annotated[int, Field(ge=1, le=100, description="rounds before the battle is judged on VP, 1 to 100")] = 20
    extra_round_on_tie: Annotated[bool, Field(description="a tie plays one more round before it is a draw (AC-WIN-4)")] = False
    surprised: Annotated[
        tuple[Ident, ...], Field(max_length=2 * (MAX_UNITS_PER_SIDE + MAX_SOLOS_PER_SIDE), description="units and solos that lose their first turn (AC-INIT-5)")
    ] = ()
    grid: Annotated[GridEntry, Field(description="the battlefield")]
    creatures: Annotated[
        tuple[Creature, ...], Field(min_length=1, max_length=MAX_CREATURES, description=f"the stat blocks, 1 to {MAX_CREATURES}")
    ]
    units: Annotated[
        tuple[UnitEntry, ...],
        Field(min_length=1, max_length=2 * MAX_UNITS_PER_SIDE, description=f"the units, at most {MAX_UNITS_PER_SIDE} a side"),
    ]
    stands: Annotated[
        tuple[StandEntry, ...],
        Field(min_length=1, max_length=2 * MAX_STANDS_PER_SIDE, description=f"the stands, at most {MAX_STANDS_PER_SIDE} a side"),
    ]
    solos: Annotated[
        tuple[SoloEntry, ...], Field(max_length=2 * MAX_SOLOS_PER_SIDE, description=f"the solos, at most {MAX_SOLOS_PER_SIDE} a side")
    ] = ()
    objectives: Annotated[
        tuple[ObjectiveEntry, ...], Field(max_length=MAX_OBJECTIVES, description=f"the objectives, at most {MAX_OBJECTIVES}")
    ] = ()

    def check(self) -> None:  # noqa: C901 — one list of the load-time rejections of §4.8
        for i, entry in enumerate(self.grid.terrain):
            _nested(f"grid.terrain[{i}]", entry)
        for i, c in enumerate(self.creatures):
            for j, a in enumerate(c.attacks):
                _nested(f"creatures[{i}].attacks[{j}]", a)
            for j, sp in enumerate(c.spells):
                _nested(f"creatures[{i}].spells[{j}]", sp)
            _nested(f"creatures[{i}]", c)
        records: tuple[tuple[str, tuple[StrictModel, ...]], ...] = (
            ("units", self.units), ("solos", self.solos), ("objectives", self.objectives),
        )
        for kind, entries in records:
            for i, record in enumerate(entries):
                _nested(f"{kind}[{i}]", record)
        _unique("creatures", [c.id for c in self.creatures])
        _unique("units", [u.id for u in self.units])
        _unique("solos", [s.id for s in self.solos])
        _unique("objectives", [o.id for o in self.objectives])
        # stands and solos share the board, so their ids must not collide either
        _unique("stands", [s.id for s in self.stands])
        stand_ids = {s.id for s in self.stands}
        unit_ids = {u.id for u in self.units}
        for i, solo in enumerate(self.solos):
            if solo.id in stand_ids or solo.id in unit_ids:
                raise InputError(f"solos[{i}].id", solo.id, "already the id of a stand or unit")
        creatures = {c.id: c for c in self.creatures}
        units = {u.id: u for u in self.units}
        _per_side("units", [u.side for u in self.units], MAX_UNITS_PER_SIDE)
        _per_side("stands", [units[s.unit].side for s in self.stands if s.unit in units], MAX_STANDS_PER_SIDE)
        _per_side("solos", [s.side for s in self.solos], MAX_SOLOS_PER_SIDE)
        covered = 0
        for i, entry in enumerate(self.grid.terrain):  # bounds first: nothing is laid out square by square before
            x0, y0, x1, y1 = entry.corners
            if x1 >= self.grid.width or y1 >= self.grid.height:
                where = "at" if entry.at is not None else "rect"
                raise InputError(f"grid.terrain[{i}].{where}", list(entry.corners if entry.rect else (x0, y0)), "square off the grid")
            covered += entry.area
            if covered > MAX_TERRAIN_SQUARES:
                raise InputError(f"grid.terrain[{i}]", covered, f"terrain entries may cover at most {MAX_TERRAIN_SQUARES} squares in all")
        terrain = {}
        for entry in self.grid.terrain:
            for square in entry.squares():
                terrain[square] = entry
        placed: list[tuple[str, Footprint]] = []

        def place(where: str, ident: str, creature: Creature, at: Coord) -> None:
            fp = Footprint(at[0], at[1], FOOTPRINT[creature.size])
            if not (fp.x >= 0 and fp.y >= 0 and fp.x + fp.size <= self.grid.width and fp.y + fp.size <= self.grid.height):
                raise InputError(f"{where}.at", list(at), "the footprint leaves the grid")
            for other, ofp in placed:
                if overlaps(fp, ofp):
                    raise InputError(f"{where}.at", list(at), f"the footprint overlaps {other!r}")
            if creature.swim_ft == 0 and any(
                terrain.get(s) is not None and terrain[s].kind == "deep_water" for s in fp.squares()
            ):
                raise InputError(f"{where}.at", list(at), "deep water without a swim speed (AC-TERR-4)")
            placed.append((ident, fp))

        stands_of: dict[str, int] = {u.id: 0 for u in self.units}
        for i, stand in enumerate(self.stands):
            if stand.unit not in units:
                raise InputError(f"stands[{i}].unit", stand.unit, "no such unit")
            creature = creatures.get(stand.creature)
            if creature is None:
                raise InputError(f"stands[{i}].creature", stand.creature, "no such creature")
            if creature.size == "gargantuan":
                raise InputError(f"stands[{i}].creature", stand.creature, "a gargantuan creature is always a solo (AC-STAND-1)")
            if stand.hp is not None and stand.hp > creature.hp:
                raise InputError(f"stands[{i}].hp", stand.hp, f"must be ≤ the creature's hp ({creature.hp})")
            place(f"stands[{i}]", stand.id, creature, stand.at)
            stands_of[stand.unit] += 1
        for i, unit in enumerate(self.units):
            if not stands_of[unit.id]:
                raise InputError(f"units[{i}].id", unit.id, "a unit needs at least one stand")
        stands = {s.id: s for s in self.stands}
        solos = {s.id: s for s in self.solos}
        for i, solo in enumerate(self.solos):
            creature = creatures.get(solo.creature)
            if creature is None:
                raise InputError(f"solos[{i}].creature", solo.creature, "no such creature")
            if solo.hp is not None and solo.hp > creature.hp:
                raise InputError(f"solos[{i}].hp", solo.hp, f"must be ≤ the creature's hp ({creature.hp})")
            if solo.joined_to is not None:
                host = stands.get(solo.joined_to)
                if host is None:
                    raise InputError(f"solos[{i}].joined_to", solo.joined_to, "no such stand")
                if units[host.unit].side != solo.side:
                    raise InputError(f"solos[{i}].joined_to", solo.joined_to, "a stand of the other side")
                if not may_join(creature.size, creatures[host.creature].size):
                    raise InputError(f"solos[{i}].joined_to", solo.joined_to, "the stand's creatures are more than one size smaller (AC-JOIN-2)")
            else:
                assert solo.at is not None
                place(f"solos[{i}]", solo.id, creature, solo.at)
        commanded: dict[str, str] = {}
        for i, unit in enumerate(self.units):
            if unit.commander is None:
                continue
            leader = solos.get(unit.commander)
            where = f"units[{i}].commander"
            if leader is None:
                raise InputError(where, unit.commander, "no such solo")
            if leader.side != unit.side:
                raise InputError(where, unit.commander, "a solo of the other side")
            if not leader.commands:
                raise InputError(where, unit.commander, "this solo cannot command (can_command)")
            if leader.joined_to is None or stands[leader.joined_to].unit != unit.id:
                raise InputError(where, unit.commander, "a commander must be joined to a stand of its unit (AC-CMD-1)")
            if unit.commander in commanded:
                raise InputError(where, unit.commander, f"already commands unit {commanded[unit.commander]!r}")
            commanded[unit.commander] = unit.id
        known = set(units) | set(solos)
        for i, ident in enumerate(self.surprised):
            if ident not in known:
                raise InputError(f"surprised[{i}]", ident, "no such unit or solo")
        objectives = {o.id: o for o in self.objectives}
        for i, o in enumerate(self.objectives):
            if o.kind == "destroy":
                assert o.square is not None
                if not (0 <= o.square[0] < self.grid.width and 0 <= o.square[1] < self.grid.height):
                    raise InputError(f"objectives[{i}].square", list(o.square), "square off the grid")
            if o.kind == "defend":
                target = objectives.get(o.protects or "")
                if target is None or target.kind != "destroy":
                    raise InputError(f"objectives[{i}].protects", o.protects, "no such destroy objective")
                if target.side == o.side:
                    raise InputError(f"objectives[{i}].protects", o.protects, "protects a destroy objective of its own side")


def _per_side(kind: str, sides: list[str], limit: int) -> None:
    """At most *limit* of *kind* on either side (issue 14's limits of a battle a person plays)."""
    for side in ("a", "b"):
        if sides.count(side) > limit:
            raise InputError(kind, sides.count(side), f"at most {limit} {kind} a side (side {side} has more)")


def may_join(solo_size: Size, stand_size: Size) -> bool:
    """A solo cannot join a stand more than one size category smaller than itself (AC-JOIN-2).

    >>> may_join("large", "small"), may_join("large", "medium"), may_join("medium", "tiny"), may_join("tiny", "huge")
    (False, True, False, True)
    """
    return size_category(solo_size) - size_category(stand_size) <= 1


def _nested(prefix: str, model: StrictModel) -> None:
    """A nested record's own cross-field checks, its errors named by their full path."""
    try:
        model.check()
    except DiceStringError as error:
        raise DiceStringError(f"{prefix}.{error.field}", str(error.value), error.reason) from None
    except InputError as error:
        raise InputError(f"{prefix}.{error.field}", error.value, error.reason) from None


def _unique(kind: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for i, ident in enumerate(ids):
        if ident in seen:
            raise InputError(f"{kind}[{i}].id", ident, "duplicate id")
        seen.add(ident)


def load_scenario(text: str, source: str) -> Scenario:
    """Parse and validate a scenario file's TOML text; errors name the file, the field and the value."""
    return load_toml(Scenario, text, source)


def swap_deployment(data: dict[str, Any]) -> None:
    """The sides' deployment of a parsed scenario file swapped, in place (a sweep's ``swap_sides``): stands and
    unattached solos stand with their footprint's north-west square at ``at = [x, y]`` on the ``grid``; turned half a
    turn about the grid's centre, a footprint of n squares (AC-STAND-2, AC-SOLO-3) has that corner at
    (width − x − n, height − y − n). Terrain and objectives stay where they are; a position the turn makes illegal is
    reported by the scenario's own validation."""
    grid = data.get("grid", {})
    width, height = grid.get("width", 0), grid.get("height", 0)
    sizes = {c.get("id"): FOOTPRINT.get(c.get("size", "medium"), 1) for c in data.get("creatures", [])}
    for piece in [*data.get("stands", []), *data.get("solos", [])]:
        at = piece.get("at")
        if isinstance(at, list) and len(at) == 2:
            n = sizes.get(piece.get("creature"), 1)
            piece["at"] = [width - at[0] - n, height - at[1] - n]
