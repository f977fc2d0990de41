"""Scenario files for whole battles: board, terrain and the two forces, validated at load (section 4, BH-GEO-5)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.core.geometry import Point, Rect
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.battlehost.battlefield import EPS, Board, Model, radius
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
    Side,
    Strength,
    Wounds,
    parse_fight,
)

Coordinates = Annotated[tuple[float, ...], Field(min_length=4, max_length=4)]
BoardSide = Annotated[float, Field(ge=6, le=96)]


class BoardSize(StrictModel):
    """The board in inches (BH-GEO-5)."""

    width: BoardSide = 48.0
    height: BoardSide = 48.0


class InlineWeapon(StrictModel):
    """A missile weapon given by its range and Strength (BH-SHOOT-10)."""

    name: Annotated[str, Field(min_length=1, max_length=40)] = "missile weapon"
    range_inches: Annotated[int, Field(ge=1, le=48)]
    strength: Strength


class ModelEntry(StrictModel):
    """A model's profile and its place on the board (section 4).

    ``fight`` is the Fight value, or the whole F as printed ("4/4+", "3/-"), which then also gives
    the Shoot value. ``id`` is optional: a model is otherwise named by its ``name``, numbered when
    several share it.
    """

    id: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    name: Annotated[str, Field(min_length=1, max_length=40)]
    type: ModelType = "warrior"
    move: Move
    fight: FightValue | str
    shoot_value: ShootValue | None = None
    strength: Strength
    defence: Defence
    attacks: Attacks = 1
    wounds: Wounds = 1
    courage: Courage = 3
    might: HeroPoints = 0
    will: HeroPoints = 0
    fate: HeroPoints = 0
    two_handed: bool = False
    base_mm: Annotated[int, Field(ge=20, le=170)] = 25
    missile_weapon: str | InlineWeapon | None = None
    x: float
    y: float
    prone: bool = False
    wounds_suffered: Annotated[int, Field(ge=0, le=19)] = 0
    might_left: HeroPoints | None = None

    def check(self) -> None:
        """Heroes only have Might, Will and Fate; wounds suffered below W; Might left at most Might (section 4)."""
        if self.type == "warrior":
            for name in ("might", "will", "fate"):
                if getattr(self, name) > 0:
                    raise InputError(name, getattr(self, name), "must be 0 for a warrior (only Heroes have it)")
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
    name: Annotated[str, Field(min_length=1, max_length=80)]
    turns: Annotated[int, Field(ge=1, le=30)]
    board: BoardSize = BoardSize()
    terrain: tuple[Coordinates, ...] = ()
    first_priority: Side | None = None
    good: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=60)]
    evil: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=60)]

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
                    if (c - oc).length() - r - orad < -EPS:
                        raise InputError(f"{where}.x", [entry.x, entry.y], f"the base overlaps {other} (BH-GEO-3)")
                placed.append((where, c, r))


def board_of(scenario: Scenario) -> Board:
    return Board(scenario.board.width, scenario.board.height, tuple(Rect(*t) for t in scenario.terrain))


def model_ids(scenario: Scenario) -> list[str]:
    """Every model's id: given, or its name, numbered ("Orc 1", "Orc 2") when names repeat."""
    entries = [*scenario.good, *scenario.evil]
    taken = {e.id for e in entries if e.id is not None}
    counts: dict[str, int] = {}
    for e in entries:
        if e.id is None:
            counts[e.name] = counts.get(e.name, 0) + 1
    seen: dict[str, int] = {}
    out: list[str] = []
    for e in entries:
        if e.id is not None:
            out.append(e.id)
            continue
        if counts[e.name] == 1 and e.name not in taken:
            out.append(e.name)
            continue
        n = seen.get(e.name, 0)
        while True:
            n += 1
            candidate = f"{e.name} {n}"
            if candidate not in taken:
                break
        seen[e.name] = n
        taken.add(candidate)
        out.append(candidate)
    return out


def models_of(scenario: Scenario) -> tuple[Model, ...]:
    """The engine's models, Good first, in file order."""
    entries: list[tuple[Side, ModelEntry]] = [("good", e) for e in scenario.good] + [("evil", e) for e in scenario.evil]
    out = []
    for model_id, (side, e) in zip(model_ids(scenario), entries):
        fight, shoot = e.fight_and_shoot()
        out.append(
            Model(
                id=model_id, side=side, name=e.name, type=e.type, move=e.move, fight=fight, shoot_value=shoot,
                strength=e.strength, defence=e.defence, attacks=e.attacks, wounds=e.wounds,
                wounds_left=e.wounds - e.wounds_suffered, might_left=e.might if e.might_left is None else e.might_left,
                two_handed=e.two_handed, base_mm=e.base_mm, weapon=e.weapon(), x=e.x, y=e.y, prone=e.prone,
            )
        )
    return tuple(out)


def load_scenario(text: str, source: str) -> Scenario:
    """Parse and validate a scenario's TOML text; errors name the file, the field and the value."""
    return load_toml(Scenario, text, source)
