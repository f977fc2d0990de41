"""Scenario files for whole games: the table, its terrain and two warbands (§3.1–3.4), validated at load."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.core.geometry import Point, Rect, overlapping
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.song_of_blades.profiles import MAX_MODELS_PER_SIDE, ModelState, Size, SpecialRule
from kessen.rulesets.song_of_blades.referee.battlefield import EPS

# [DECISION] issue 14: the most pieces of each kind of terrain a table may have (a skirmish table has a dozen or
# so); with MAX_MODELS_PER_SIDE and the table and turn limits of §3.3–3.4, a whole game plays in seconds.
MAX_TERRAIN_PIECES = 25
DEFAULT_BASE_MM = {"normal": 25, "big": 40, "huge": 50, "gargantuan": 80}

# [x0, y0, x1, y1]: four numbers; a list of any other length is refused naming the list (§3.4)
Coordinates = Annotated[tuple[float, ...], Field(min_length=4, max_length=4)]


RECT = "[x0, y0, x1, y1] in millimetres, x0 < x1 and y0 < y1, inside the table"


class Options(StrictModel):
    """Game options (§3.3)."""

    follow_up: bool = Field(
        default=False, description="the optional follow-up rule: a winner may move back into contact with a loser "
        "that recoiled (SB-FOLLOW-1)")
    melee_priority: bool = Field(
        default=False, description="the optional melee priority rule: standing enemies must be attacked before "
        "fallen ones (SB-PRIO-1)")
    scale: Literal["28mm", "15mm"] = Field(
        default="28mm", description="the miniatures' scale, which sets the measuring sticks: 28mm Short/Medium/Long "
        "75/120/180 mm, 15mm 50/80/120 mm (SB-GEO-7)")
    table_width_mm: Annotated[int, Field(ge=300, le=3000)] = Field(
        default=900, description="the table's width (x, west to east) in millimetres, 300-3000 (SB-GEO-1)")
    table_depth_mm: Annotated[int, Field(ge=300, le=3000)] = Field(
        default=900, description="the table's depth (y, south to north) in millimetres, 300-3000 (SB-GEO-1)")


class DropArea(StrictModel):
    """Ground below the table's surface: a chasm under a bridge, the foot of a cliff (SB-GEO-4)."""

    rect: Coordinates = Field(description=f"the area, {RECT}; no model may start with its centre inside")
    drop_mm: Annotated[int, Field(ge=1, le=2000)] = Field(
        description="how far below the surface it lies, in millimetres (1-2000): a model that goes over the edge is "
        "killed by a drop of at least Short, else it lands fallen (SB-FALL-1)")


class HighGround(StrictModel):
    """A raised area: a model on it attacks one below with +1 (SB-TERR-1)."""

    rect: Coordinates = Field(description=f"the area, {RECT}")
    height_mm: Annotated[int, Field(ge=1, le=1000)] = Field(
        description="its height in millimetres (1-1000): where areas overlap the highest counts")


class ModelEntry(StrictModel):
    """A model profile (§3.1) placed on the table (§3.2)."""

    id: Annotated[str, Field(min_length=1, max_length=64)] = Field(
        description="the model's id, unique on the table (1-64 characters, one word without spaces): how the battle "
        "report and the choices name it")
    name: Annotated[str, Field(min_length=1, max_length=64)] = Field(
        description="the model's name, free text (1-64 characters), shown on the board")
    points: Annotated[int, Field(ge=1, le=10000)] = Field(
        description="its point cost (1-10000), taken as given: melee priority (SB-PRIO-3) and the end of game count "
        "(SB-TURN-4) use it")
    quality: Annotated[int, Field(ge=2, le=6)] = Field(
        description="Quality, 2-6 (read 2+ ... 6+): the number an activation or morale die must reach")
    combat: Annotated[int, Field(ge=0, le=12)] = Field(description="Combat, 0-12: added to its d6 in melee")
    size: Size = Field(default="normal", description="size class: normal, big, huge or gargantuan (SB-MOD-6); it sets "
                       "the default base")
    mounted: bool = Field(default=False, description="a mounted model (SB-MOD-4, SB-DIS-4); it moves Long by default")
    flying: bool = Field(default=False, description="a flying model (SB-DIS-4, SB-FOLLOW-2)")
    move: Literal["short", "medium", "long"] | None = Field(
        default=None, description="its move length, one measuring stick per move action: short, medium or long; "
        "by default long if mounted, else medium (SB-MOVE-1)")
    special_rules: tuple[SpecialRule, ...] = Field(
        default=(), description="special rules, no duplicates: free_disengage, opportunistic, combat_master, assassin")
    base_mm: Annotated[int, Field(ge=10, le=200)] | None = Field(
        default=None, description="the round base's diameter in millimetres (10-200); by default by size: normal 25, "
        "big 40, huge 50, gargantuan 80")
    x: float = Field(description="the base centre's x in millimetres from the west edge; the base must lie on the table")
    y: float = Field(description="the base centre's y in millimetres from the south edge; the base must lie on the table")
    state: ModelState = Field(default="standing", description="how it starts: standing, fallen or transfixed (§3.2)")


class SideEntry(StrictModel):
    """One warband."""

    side: Annotated[str, Field(min_length=1, max_length=64)] = Field(
        description="the side's name (1-64 characters), different from the other side's")
    models: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=MAX_MODELS_PER_SIDE)] = Field(
        description=f"its models, 1-{MAX_MODELS_PER_SIDE}")


class Scenario(StrictModel):
    """A whole-game scenario (§3.4)."""

    ruleset: Annotated[Literal["song-of-blades"] | None, Field(description='the ruleset this file is for: "song-of-blades" (kessen reads it first)')] = None
    description: Annotated[str, Field(max_length=200, description="one line about the scenario, shown by kessen scenarios")] = ""
    name: Annotated[str, Field(min_length=1, max_length=64)] = Field(description="the scenario's name (1-64 characters)")
    turns: Annotated[int, Field(ge=1, le=30)] = Field(
        default=12, description="how many rounds the game lasts at most (1-30); a round is one turn of each side (SB-TURN-4)")
    options: Options = Field(default=Options(), description="the optional rules, the scale and the table size")
    impassable: Annotated[tuple[Coordinates, ...], Field(max_length=MAX_TERRAIN_PIECES)] = Field(
        default=(), description=f"impassable terrain no base may cut into: up to {MAX_TERRAIN_PIECES} rectangles, "
        f"each {RECT} (SB-GEO-4)")
    drop_areas: Annotated[tuple[DropArea, ...], Field(max_length=MAX_TERRAIN_PIECES)] = Field(
        default=(), description=f"ground below the surface (chasms, cliff feet): up to {MAX_TERRAIN_PIECES}; moves may "
        "not enter one, a recoil may go over the edge (SB-GEO-4, SB-RECOIL-6)")
    high_ground: Annotated[tuple[HighGround, ...], Field(max_length=MAX_TERRAIN_PIECES)] = Field(
        default=(), description=f"raised areas: up to {MAX_TERRAIN_PIECES} (SB-TERR-1)")
    cover: Annotated[tuple[Coordinates, ...], Field(max_length=MAX_TERRAIN_PIECES)] = Field(
        default=(), description=f"woods, ruins, building corners where a model hides and ambushes from: up to "
        f"{MAX_TERRAIN_PIECES} rectangles, each {RECT} (SB-TERR-2)")
    obstacles: Annotated[tuple[Coordinates, ...], Field(max_length=MAX_TERRAIN_PIECES)] = Field(
        default=(), description=f"walls and hedges a defender fights behind: up to {MAX_TERRAIN_PIECES} segments "
        "[x0, y0, x1, y1] in millimetres, both ends on the table (SB-TERR-3)")
    sides: Annotated[tuple[SideEntry, SideEntry], Field()] = Field(description="exactly two warbands")

    def check(self) -> None:
        """The load-time rejections of §3.4."""
        width, depth = self.options.table_width_mm, self.options.table_depth_mm
        rects = [("impassable", i, r) for i, r in enumerate(self.impassable)]
        rects += [("drop_areas", i, a.rect) for i, a in enumerate(self.drop_areas)]
        rects += [("high_ground", i, h.rect) for i, h in enumerate(self.high_ground)]
        rects += [("cover", i, r) for i, r in enumerate(self.cover)]
        for name, i, (x0, y0, x1, y1) in rects:
            if not (x0 < x1 and y0 < y1 and 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= depth):
                raise InputError(f"{name}[{i}]", [x0, y0, x1, y1], "must be [x0, y0, x1, y1] with x0 < x1, y0 < y1, on the table")
        for i, (x0, y0, x1, y1) in enumerate(self.obstacles):
            if not all(0 <= x <= width for x in (x0, x1)) or not all(0 <= y <= depth for y in (y0, y1)):
                raise InputError(f"obstacles[{i}]", [x0, y0, x1, y1], "must be [x0, y0, x1, y1] with both ends on the table")
        if self.sides[0].side == self.sides[1].side:
            raise InputError("sides[1].side", self.sides[1].side, "duplicate side name")
        seen: set[str] = set()
        placed: list[tuple[str, Point, float]] = []
        for s, side in enumerate(self.sides):
            for m, model in enumerate(side.models):
                where = f"sides[{s}].models[{m}]"
                if model.id in seen:
                    raise InputError(f"{where}.id", model.id, "duplicate model id")
                if model.id.split() != [model.id]:
                    # [DECISION] the notation names models by id between spaces (attack orc-2, move k1 to 312,440)
                    raise InputError(f"{where}.id", model.id, "must be one word, without spaces (choices name models by id)")
                seen.add(model.id)
                r = base_mm(model) / 2
                c = Point(model.x, model.y)
                if not r - EPS <= c.x <= width - r + EPS:
                    raise InputError(f"{where}.x", model.x, f"the base must lie on the table: x from {r - EPS:g} to {width - r + EPS:g} (SB-GEO-1)")
                if not r - EPS <= c.y <= depth - r + EPS:
                    raise InputError(f"{where}.y", model.y, f"the base must lie on the table: y from {r - EPS:g} to {depth - r + EPS:g} (SB-GEO-1)")
                for other_id, oc, orad in placed:
                    if overlapping(c, r, oc, orad, EPS):
                        raise InputError(f"{where}.x", [model.x, model.y], f"the base overlaps model {other_id!r} (SB-GEO-3)")
                for i, rect in enumerate(self.impassable):
                    if Rect(*rect).distance_to(c) < r - EPS:
                        raise InputError(f"{where}.x", [model.x, model.y], f"the base overlaps impassable[{i}] (SB-GEO-4)")
                for i, area in enumerate(self.drop_areas):
                    if Rect(*area.rect).contains(c):
                        raise InputError(f"{where}.x", [model.x, model.y], f"the centre lies inside drop_areas[{i}] (SB-GEO-4)")
                dupes = {rule for rule in model.special_rules if model.special_rules.count(rule) > 1}
                if dupes:
                    raise InputError(f"{where}.special_rules", sorted(dupes)[0], "duplicate special rule")
                placed.append((model.id, c, r))


def base_mm(model: ModelEntry) -> int:
    """The base diameter: given, or by size (§3.1)."""
    return model.base_mm if model.base_mm is not None else DEFAULT_BASE_MM[model.size]


def move_length(model: ModelEntry) -> str:
    """The move length: given, or Long if mounted, else Medium (§3.1)."""
    return model.move or ("long" if model.mounted else "medium")


def load_scenario(text: str, source: str) -> Scenario:
    """Parse and validate a scenario file's TOML text; errors name the file, the field and the value."""
    return load_toml(Scenario, text, source)


def swap_deployment(data: dict[str, Any]) -> None:
    """A sweep's ``swap_sides``: each model goes to where the other side stood, turned half a turn about the centre
    of the table (x → width − x, y → depth − y, the table of ``options`` or 900 × 900 mm), so each warband keeps its
    shape and takes the other's ground while the terrain stays; *data* is the parsed scenario file, changed in place
    (the scenario's own validation then judges the new positions)."""
    options = data.get("options", {})
    width, depth = options.get("table_width_mm", 900), options.get("table_depth_mm", 900)
    for side in data.get("sides", []):
        for model in side.get("models", []):
            if "x" in model:
                model["x"] = width - model["x"]
            if "y" in model:
                model["y"] = depth - model["y"]
