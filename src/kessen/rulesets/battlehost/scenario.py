"""Scenario files for whole battles: board, terrain and the two forces, validated at load (section 4, BH-GEO-5)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.core.geometry import Point, Rect, overlapping
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.battlehost.referee.battlefield import EPS, Board, radius
from kessen.rulesets.battlehost.profiles import (
    MISSILE_WEAPONS,
    Attacks,
    Courage,
    Defence,
    FightValue,
    HeroPoints,
    MissileWeapon,
    ModelType,
    Move,
    ShootValue,
    Strength,
    Wounds,
    check_hero_points,
    parse_fight,
)
from kessen.rulesets.battlehost.rules.sides import Side

Coordinates = Annotated[tuple[float, ...], Field(min_length=4, max_length=4)]
BoardSide = Annotated[float, Field(ge=6, le=96)]
# Limits of a scenario (issue 14): what a battlehost game on one table needs, and what plays in seconds.
MAX_MODELS_A_SIDE = 60
MAX_TERRAIN_BLOCKS = 50


class BoardSize(StrictModel):
    """The board in inches (BH-GEO-5)."""

    width: Annotated[BoardSide, Field(description="the board's width in inches, 6-96 (x runs from 0 to width)")] = 48.0
    height: Annotated[BoardSide, Field(description="the board's height in inches, 6-96 (y runs from 0 to height)")] = 48.0


class InlineWeapon(StrictModel):
    """A missile weapon given by its range and Strength (BH-SHOOT-10)."""

    name: Annotated[str, Field(min_length=1, max_length=40, description="the weapon's name, as narration shows it")] = "missile weapon"
    range_inches: Annotated[int, Field(ge=1, le=48, description="the weapon's range in inches, 1-48, measured edge to edge")]
    strength: Annotated[Strength, Field(description="the weapon's Strength for its wound rolls, 1-10")]


class ModelEntry(StrictModel):
    """A model's profile and its place on the board (section 4).

    ``fight`` is the Fight value, or the whole F as printed ("4/4+", "3/-"), which then also gives
    the Shoot value. ``id`` is optional: a model is otherwise named by its ``name``, numbered when
    several share it.
    """

    id: Annotated[
        Annotated[str, Field(min_length=1, max_length=40)] | None,
        Field(description="the model's id in narration and choices, 1-40 characters; default: its name, numbered when names repeat"),
    ] = None
    name: Annotated[str, Field(min_length=1, max_length=40, description="the model's name, e.g. \"Orc Warrior\"")]
    type: Annotated[ModelType, Field(description='"hero" (has Might, Will and Fate) or "warrior"')] = "warrior"
    move: Annotated[Move, Field(description="Move value (Mv) in inches, 1-12")]
    fight: Annotated[FightValue | str, Field(description='Fight value 1-10, or the whole F as printed: "4/4+" (Fight value / Shoot value) or "4/-"')]
    shoot_value: Annotated[ShootValue | None, Field(description='Shoot value 2-6 (the N of "N+") when fight is a number; none: the model cannot shoot')] = None
    strength: Annotated[Strength, Field(description="Strength (S), 1-10")]
    defence: Annotated[Defence, Field(description="Defence (D), 1-10")]
    attacks: Annotated[Attacks, Field(description="Attacks (A), 1-10: duel dice and strikes")] = 1
    wounds: Annotated[Wounds, Field(description="Wounds (W), 1-20")] = 1
    courage: Annotated[Courage, Field(description="Courage (C), 1-10 (kept for the profile; these rules do not test it)")] = 3
    might: Annotated[HeroPoints, Field(description="Might points, 0-10 (Heroes only): each raises one die of the Hero's side by 1")] = 0
    will: Annotated[HeroPoints, Field(description="Will points, 0-10 (Heroes only; not used by these rules)")] = 0
    fate: Annotated[HeroPoints, Field(description="Fate points, 0-10 (Heroes only; not used by these rules)")] = 0
    two_handed: Annotated[bool, Field(description="carries a two-handed weapon it may declare in each fight: -1 duel, +1 To Wound")] = False
    base_mm: Annotated[int, Field(ge=20, le=170, description="round base diameter in millimetres, 20-170 (25 for infantry)")] = 25
    missile_weapon: Annotated[str | InlineWeapon | None, Field(
        description="a weapon of the missile weapon chart by name (bow, elf bow, orc bow, short bow, uruk-hai bow, dwarf bow, "
        "crossbow, throwing spears, throwing daggers, throwing axe), or {range_inches, strength}; none: no missile weapon",
    )] = None
    x: Annotated[float, Field(description="the base centre's x in inches, from the left edge; the whole base must be on the board")]
    y: Annotated[float, Field(description="the base centre's y in inches, from the top edge; the whole base must be on the board")]
    prone: Annotated[bool, Field(description="the model starts the battle prone (lying down)")] = False
    wounds_suffered: Annotated[int, Field(ge=0, le=19, description="wounds already suffered, below Wounds")] = 0
    might_left: Annotated[HeroPoints | None, Field(description="Might points left, at most might; default: all of them")] = None

    def check(self) -> None:
        """Heroes only have Might, Will and Fate; wounds suffered below W; Might left at most Might (section 4)."""
        check_hero_points(self.type, might=self.might, will=self.will, fate=self.fate)
        if isinstance(self.fight, str):
            parse_fight(self.fight)
            if self.shoot_value is not None:
                raise InputError("shoot_value", self.shoot_value, 'give the Shoot value in "fight" ("4/4+") or here, not both')
        if self.wounds_suffered >= self.wounds:
            raise InputError("wounds_suffered", self.wounds_suffered, f"must be below the model's Wounds ({self.wounds})")
        if self.might_left is not None and self.might_left > self.might:
            raise InputError("might_left", self.might_left, f"must be at most the model's Might ({self.might})")
        if isinstance(self.missile_weapon, str) and self.missile_weapon not in MISSILE_WEAPONS:
            raise InputError("missile_weapon", self.missile_weapon, f"unknown weapon, expected one of {', '.join(MISSILE_WEAPONS)}")

    def fight_and_shoot(self) -> tuple[int, int | None]:
        """The Fight value and the Shoot value (None for "-")."""
        if isinstance(self.fight, str):
            return parse_fight(self.fight)
        return self.fight, self.shoot_value

    def weapon(self) -> MissileWeapon | None:
        if self.missile_weapon is None:
            return None
        if isinstance(self.missile_weapon, str):
            return MISSILE_WEAPONS[self.missile_weapon]
        w = self.missile_weapon
        return MissileWeapon(w.name, w.range_inches, w.strength)


class Scenario(StrictModel):
    """A whole-battle scenario (section 4, [DECISION] scenario data)."""

    ruleset: Annotated[Literal["battlehost"] | None, Field(description='the ruleset this file is for: "battlehost" (kessen reads it first)')] = None
    description: Annotated[str, Field(max_length=200, description="one line about the scenario, shown by kessen scenarios")] = ""
    name: Annotated[str, Field(min_length=1, max_length=80, description="the scenario's name, 1-80 characters")]
    turns: Annotated[int, Field(ge=1, le=30, description="turns to play, 1-30; after the last, fewer models lost (as a share) wins")]
    board: Annotated[BoardSize, Field(description="the board's size in inches; default 48 x 48")] = BoardSize()
    terrain: Annotated[tuple[Coordinates, ...], Field(
        max_length=MAX_TERRAIN_BLOCKS,
        description="impassable blocks that also block sight, each [x_min, y_min, x_max, y_max] in inches, on the board; "
        f"at most {MAX_TERRAIN_BLOCKS}",
    )] = ()
    first_priority: Annotated[Side | None, Field(description='"good" or "evil" has priority in the first turn; default: rolled for')] = None
    good: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=MAX_MODELS_A_SIDE, description=f"the Good side's models, 1-{MAX_MODELS_A_SIDE}")]
    evil: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=MAX_MODELS_A_SIDE, description=f"the Evil side's models, 1-{MAX_MODELS_A_SIDE}")]

    def check(self) -> None:
        """The load-time rejections of section 4: terrain on the board, bases on the board, clear of terrain and of each other."""
        w, h = self.board.width, self.board.height
        for i, (x0, y0, x1, y1) in enumerate(self.terrain):
            if not (x0 < x1 and y0 < y1 and 0 <= x0 and x1 <= w and 0 <= y0 and y1 <= h):
                raise InputError(f"terrain[{i}]", [x0, y0, x1, y1], "must be [x_min, y_min, x_max, y_max] with min < max, on the board")
        board = board_of(self)
        placed: list[tuple[str, Point, float]] = []
        ids: set[str] = set()
        for side in ("good", "evil"):
            for i, entry in enumerate(getattr(self, side)):
                where = f"{side}[{i}]"
                try:
                    entry.check()
                except InputError as error:
                    raise InputError(f"{where}.{error.field}", error.value, error.reason) from None
                if entry.id is not None:
                    if entry.id in ids:
                        raise InputError(f"{where}.id", entry.id, "duplicate model id")
                    ids.add(entry.id)
                r = radius(entry.base_mm)
                c = Point(entry.x, entry.y)
                if not r - 1e-9 <= c.x <= w - r + 1e-9:
                    raise InputError(f"{where}.x", entry.x, f"the base must lie on the board: x from {r:.4f} to {w - r:.4f} (BH-GEO-5)")
                if not r - 1e-9 <= c.y <= h - r + 1e-9:
                    raise InputError(f"{where}.y", entry.y, f"the base must lie on the board: y from {r:.4f} to {h - r:.4f} (BH-GEO-5)")
                for k, block in enumerate(board.terrain):
                    if block.distance_to(c) < r - EPS:
                        raise InputError(f"{where}.x", [entry.x, entry.y], f"the base overlaps terrain[{k}] (BH-GEO-5)")
                for other, oc, orad in placed:
                    if overlapping(c, r, oc, orad, EPS):
                        raise InputError(f"{where}.x", [entry.x, entry.y], f"the base overlaps {other} (BH-GEO-3)")
                placed.append((where, c, r))


def board_of(scenario: Scenario) -> Board:
    return Board(scenario.board.width, scenario.board.height, tuple(Rect(*t) for t in scenario.terrain))


def load_scenario(text: str, source: str) -> Scenario:
    """Parse and validate a scenario's TOML text; errors name the file, the field and the value."""
    return load_toml(Scenario, text, source)


def swap_deployment(data: dict[str, Any]) -> None:
    """A sweep's ``swap_sides``: each side's models go to where the other side stood, every position turned half a
    turn about the board's centre (x → width − x, y → height − y) on the ``board`` (48" × 48" by default); the
    terrain and the first priority stay as written. *data* is the scenario as parsed from TOML, changed in place."""
    board = data.get("board", {})
    width, height = board.get("width", 48.0), board.get("height", 48.0)
    for side in ("good", "evil"):
        for entry in data.get(side, []):
            if "x" in entry:
                entry["x"] = width - entry["x"]
            if "y" in entry:
                entry["y"] = height - entry["y"]
