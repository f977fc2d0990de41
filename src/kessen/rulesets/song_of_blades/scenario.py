"""Scenario files for whole games: the table, its terrain and two warbands (§3.1–3.4), validated at load."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.core.geometry import Point, Rect, overlapping
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.song_of_blades.profiles import ModelState, Size, SpecialRule

EPS_MM = 1.0  # SB-GEO-2 tolerance
DEFAULT_BASE_MM = {"normal": 25, "big": 40, "huge": 50, "gargantuan": 80}

# [x0, y0, x1, y1]: four numbers; a list of any other length is refused naming the list (§3.4)
Coordinates = Annotated[tuple[float, ...], Field(min_length=4, max_length=4)]


class Options(StrictModel):
    """Game options (§3.3)."""

    follow_up: bool = False
    melee_priority: bool = False
    scale: Literal["28mm", "15mm"] = "28mm"
    table_width_mm: Annotated[int, Field(ge=300, le=3000)] = 900
    table_depth_mm: Annotated[int, Field(ge=300, le=3000)] = 900


class DropArea(StrictModel):
    rect: Coordinates
    drop_mm: Annotated[int, Field(ge=1, le=2000)]


class HighGround(StrictModel):
    rect: Coordinates
    height_mm: Annotated[int, Field(ge=1, le=1000)]


class ModelEntry(StrictModel):
    """A model profile (§3.1) placed on the table (§3.2)."""

    id: Annotated[str, Field(min_length=1, max_length=64)]
    name: Annotated[str, Field(min_length=1, max_length=64)]
    points: Annotated[int, Field(ge=1, le=10000)]
    quality: Annotated[int, Field(ge=2, le=6)]
    combat: Annotated[int, Field(ge=0, le=12)]
    size: Size = "normal"
    mounted: bool = False
    flying: bool = False
    move: Literal["short", "medium", "long"] | None = None
    special_rules: tuple[SpecialRule, ...] = ()
    base_mm: Annotated[int, Field(ge=10, le=200)] | None = None
    x: float
    y: float
    state: ModelState = "standing"


class SideEntry(StrictModel):
    side: Annotated[str, Field(min_length=1, max_length=64)]
    models: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=100)]


class Scenario(StrictModel):
    """A whole-game scenario (§3.4)."""

    ruleset: Annotated[Literal["song-of-blades"] | None, Field(description='the ruleset this file is for: "song-of-blades" (kessen reads it first)')] = None
    description: Annotated[str, Field(max_length=200, description="one line about the scenario, shown by kessen scenarios")] = ""
    name: Annotated[str, Field(min_length=1, max_length=64)]
    turns: Annotated[int, Field(ge=1, le=30)] = 12
    options: Options = Options()
    impassable: tuple[Coordinates, ...] = ()
    drop_areas: tuple[DropArea, ...] = ()
    high_ground: tuple[HighGround, ...] = ()
    cover: tuple[Coordinates, ...] = ()
    obstacles: tuple[Coordinates, ...] = ()
    sides: Annotated[tuple[SideEntry, SideEntry], Field()]

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
        if self.sides[0].side == self.sides[1].side:
            raise InputError("sides[1].side", self.sides[1].side, "duplicate side name")
        seen: set[str] = set()
        placed: list[tuple[str, Point, float]] = []
        for s, side in enumerate(self.sides):
            for m, model in enumerate(side.models):
                where = f"sides[{s}].models[{m}]"
                if model.id in seen:
                    raise InputError(f"{where}.id", model.id, "duplicate model id")
                seen.add(model.id)
                r = base_mm(model) / 2
                c = Point(model.x, model.y)
                if not r - EPS_MM <= c.x <= width - r + EPS_MM:
                    raise InputError(f"{where}.x", model.x, f"the base must lie on the table: x from {r - EPS_MM:g} to {width - r + EPS_MM:g} (SB-GEO-1)")
                if not r - EPS_MM <= c.y <= depth - r + EPS_MM:
                    raise InputError(f"{where}.y", model.y, f"the base must lie on the table: y from {r - EPS_MM:g} to {depth - r + EPS_MM:g} (SB-GEO-1)")
                for other_id, oc, orad in placed:
                    if overlapping(c, r, oc, orad, EPS_MM):
                        raise InputError(f"{where}.x", [model.x, model.y], f"the base overlaps model {other_id!r} (SB-GEO-3)")
                for i, rect in enumerate(self.impassable):
                    if Rect(*rect).distance_to(c) < r - EPS_MM:
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
