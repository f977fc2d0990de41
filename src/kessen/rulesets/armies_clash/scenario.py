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

from typing import Annotated, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.armies_clash.dice_strings import DiceStringError, parse_dice
from kessen.rulesets.armies_clash.grid import FOOTPRINT, Footprint, Shape, Size, TerrainKind, overlaps, size_category
from kessen.rulesets.armies_clash.profiles import Attack

Ident = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
Coord = tuple[int, int]
Mod = Annotated[int, Field(ge=-5, le=10)]
Bonus = Annotated[int, Field(ge=-10, le=20)]
Feet = Annotated[int, Field(ge=0, le=200, multiple_of=5)]
SideId = Literal["a", "b"]
AbilityName = Literal["str", "dex", "con", "int", "wis", "cha"]
SkillName = Literal["stealth", "perception", "intimidation", "persuasion"]


class Abilities(StrictModel):
    """The six ability modifiers (not scores)."""

    str: Mod
    dex: Mod
    con: Mod
    int: Mod
    wis: Mod
    cha: Mod


class AttackRecord(StrictModel):
    """An attack of a stat block (§4.1)."""

    id: Ident
    kind: Literal["melee", "ranged"]
    attack_bonus: Bonus
    damage: str
    damage_type: str = ""
    reach_ft: Annotated[int, Field(ge=5, le=30, multiple_of=5)] | None = None
    range_ft: Annotated[int, Field(ge=5, le=1000)] | None = None
    long_range_ft: Annotated[int, Field(ge=5, le=1000)] | None = None
    push_ft: Annotated[int, Field(ge=1, le=200)] | None = None

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
        return Attack(self.kind, self.attack_bonus, parse_dice(self.damage), self.reach if self.kind == "melee" else None)


class SpellRecord(StrictModel):
    """A spell, enough for the battle rules (§4.1); ``uses`` and ``damage_type`` are this engine's additions."""

    id: Ident
    range_ft: Annotated[int, Field(ge=0, le=1000)] | Literal["self"]
    form: Literal["targeted", "area"]
    max_targets: Annotated[int, Field(ge=1, le=20)] | None = None
    shape: Shape | None = None
    size_ft: Annotated[int, Field(ge=5, le=1000)] | None = None
    resolution: Literal["attack", "save", "automatic"]
    attack_bonus: Bonus | None = None
    kind: Literal["melee", "ranged"] | None = None
    save_ability: AbilityName | None = None
    dc: Annotated[int, Field(ge=1, le=40)] | None = None
    on_success: Literal["half", "none"] = "half"
    damage: str | None = None
    damage_type: str = ""
    uses: Annotated[int, Field(ge=1, le=20)] | None = None

    def check(self) -> None:
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

    id: Ident
    size: Size
    ac: Annotated[int, Field(ge=1, le=40)]
    hp: Annotated[int, Field(ge=1, le=1000)]
    speed_ft: Feet
    swim_ft: Feet = 0
    abilities: Abilities
    saves: dict[AbilityName, Annotated[int, Field(ge=-10, le=20)]] = {}
    skills: dict[SkillName, Annotated[int, Field(ge=-10, le=20)]] = {}
    attacks: Annotated[tuple[AttackRecord, ...], Field(max_length=10)] = ()
    multiattack: Annotated[tuple[Ident, ...], Field(min_length=1, max_length=8)] | None = None
    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()
    spells: tuple[SpellRecord, ...] = ()

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

    at: Coord | None = None
    rect: tuple[int, int, int, int] | None = None
    kind: TerrainKind = "plain"
    rough: bool = False
    elevation: Annotated[int, Field(ge=0, le=10)] = 0
    obscured: bool = False

    def check(self) -> None:
        if (self.at is None) == (self.rect is None):
            raise InputError("at", self.at, "give exactly one of at = [x, y] or rect = [x0, y0, x1, y1]")
        if self.rect is not None and not (self.rect[0] <= self.rect[2] and self.rect[1] <= self.rect[3]):
            raise InputError("rect", list(self.rect), "must be [x0, y0, x1, y1] with x0 ≤ x1 and y0 ≤ y1")
        if self.kind in ("shallow_water", "deep_water") and self.elevation > 0:
            raise InputError("elevation", self.elevation, "water cannot have elevation (§4.6)")
        if self.kind == "road" and self.rough:
            raise InputError("rough", True, "a road square is never rough (§4.6)")

    def squares(self) -> list[Coord]:
        if self.at is not None:
            return [self.at]
        assert self.rect is not None
        x0, y0, x1, y1 = self.rect
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


class GridEntry(StrictModel):
    width: Annotated[int, Field(ge=1, le=200)]
    height: Annotated[int, Field(ge=1, le=200)]
    terrain: tuple[TerrainEntry, ...] = ()


class UnitEntry(StrictModel):
    """A unit (§4.4)."""

    id: Ident
    side: SideId
    type: Literal["skirmisher", "regiment"]
    formation: Literal["support", "defensive", "march"] | None = None
    commander: Ident | None = None
    attrition_vp: Annotated[int, Field(ge=1, le=10)] | None = None

    def check(self) -> None:
        if self.type == "regiment" and self.formation is None:
            raise InputError("formation", InputError.NOTHING, "a regiment needs a formation (support, defensive or march)")
        if self.type == "skirmisher" and self.formation is not None:
            raise InputError("formation", self.formation, "a skirmisher unit has no formation")


class StandEntry(StrictModel):
    """A stand (§4.3)."""

    id: Ident
    unit: Ident
    creature: Ident
    at: Coord
    hp: Annotated[int, Field(ge=1, le=1000)] | None = None


class SoloEntry(StrictModel):
    """A solo (§4.5)."""

    id: Ident
    side: SideId
    creature: Ident
    joined_to: Ident | None = None
    at: Coord | None = None
    hp: Annotated[int, Field(ge=1, le=1000)] | None = None
    pc: bool = False
    can_command: bool | None = None

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

    id: Ident
    kind: Literal["attrition", "destroy", "defend", "custom"]
    side: SideId
    vp_per_unit: Annotated[int, Field(ge=1, le=10)] | None = None
    square: Coord | None = None
    hp: Annotated[int, Field(ge=10, le=100)] | None = None
    vp: Annotated[int, Field(ge=1, le=5)] | None = None
    ac: Annotated[int, Field(ge=1, le=40)] = 15
    protects: Ident | None = None
    text: str = ""

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

    name: Annotated[str, Field(min_length=1, max_length=80)]
    max_rounds: Annotated[int, Field(ge=1, le=100)] = 20
    extra_round_on_tie: bool = False
    surprised: tuple[Ident, ...] = ()
    grid: GridEntry
    creatures: Annotated[tuple[Creature, ...], Field(min_length=1)]
    units: Annotated[tuple[UnitEntry, ...], Field(min_length=1)]
    stands: Annotated[tuple[StandEntry, ...], Field(min_length=1)]
    solos: tuple[SoloEntry, ...] = ()
    objectives: tuple[ObjectiveEntry, ...] = ()

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
        terrain = {}
        for entry in self.grid.terrain:
            for square in entry.squares():
                terrain[square] = entry
        for i, entry in enumerate(self.grid.terrain):
            for x, y in entry.squares():
                if not (0 <= x < self.grid.width and 0 <= y < self.grid.height):
                    raise InputError(f"grid.terrain[{i}]", [x, y], "square off the grid")
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
            if stands_of[unit.id] > 200:
                raise InputError(f"units[{i}].id", unit.id, "at most 200 stands per unit")
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
