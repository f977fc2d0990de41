"""Scenario files for whole battles: battlefield, players, formations, detachments, models (§3), validated at load.

A model entry names a profile (its datasheet: type, characteristics, weapons) and places one or
more copies of it: ``count`` models from ``(x, y)`` in steps of ``(dx, dy)``. Statuses the Movement
phase would produce (Engaged, Engaged & Pinned, charged and moved, withdrew) and the Orders held are
given per detachment for battles that start at the Combat phase (``start = "combat"``).
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.legions.profiles import KNIGHTS_AND_TITANS, SCALE, ModelType

EPS = 1e-6
"""Base contact and overlap tolerance in inches (§3.7)."""

MAX_DETACHMENT_MODELS = 30
"""[DECISION] A Detachment holds at most 30 models: the ``fire`` procedure's target limit (§5.1)."""

Save = Annotated[int, Field(ge=2, le=6)]
Edge = Literal["south", "north", "west", "east"]
Order = Literal["advance", "charge", "march", "first_fire", "fall_back"]
Id = Annotated[str, Field(min_length=1, max_length=40)]


class ProfileLine(StrictModel):
    """One weapon profile (§3.3)."""

    range: Annotated[int, Field(ge=0, le=200)]
    dice: Annotated[int, Field(ge=1, le=10)] = 1
    to_hit: Annotated[int, Field(ge=2, le=6)]
    ap: Annotated[int, Field(ge=-6, le=0)] = 0
    traits: tuple[Literal["light_at"], ...] = ()


class WeaponEntry(StrictModel):
    """A weapon: a name and one or more profiles (§3.3, LI-FIRE-3)."""

    name: Id
    profiles: Annotated[tuple[ProfileLine, ...], Field(min_length=1, max_length=4)]


class ModelProfile(StrictModel):
    """A model's datasheet (§3.1, §3.2)."""

    type: ModelType
    scale: Annotated[int, Field(ge=1, le=5)] | None = None
    movement: Annotated[int, Field(ge=0, le=40)]
    armour_save: Save | None
    special_save: Save | None = None
    wounds: Annotated[int, Field(ge=1, le=20)] = 1
    caf: Annotated[int, Field(ge=-10, le=30)] = 0
    morale: Save | None = None
    void_shields: Annotated[int, Field(ge=0, le=12)] = 0
    base_radius: Annotated[float, Field(gt=0, le=6)] = 0.5
    weapons: Annotated[tuple[WeaponEntry, ...], Field(max_length=8)] = ()


class ModelEntry(StrictModel):
    """``count`` copies of a profile placed from (x, y) in steps of (dx, dy) (§3.2)."""

    profile: Id
    id: Id | None = None
    count: Annotated[int, Field(ge=1, le=30)] = 1
    x: float
    y: float
    dx: float = 0.0
    dy: float = 0.0
    facing: float | None = None
    wounds_remaining: Annotated[int, Field(ge=0, le=20)] | None = None
    void_shields: Annotated[int, Field(ge=0, le=12)] | None = None
    cover_save: Save | None = None
    obscured: Literal[0, 25, 50, 100] = 0


class DetachmentEntry(StrictModel):
    """A Detachment and the statuses it holds when the battle starts (§3.4)."""

    id: Id
    order: Order | None = None
    engaged: bool = False
    pinned: bool = False
    in_reserve: bool = False
    charged_and_moved: bool = False
    withdrew_this_round: bool = False
    models: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=30)]


class FormationEntry(StrictModel):
    """A Formation of one player (§3.5)."""

    id: Id
    player: Id
    broken: bool = False
    detachments: Annotated[tuple[DetachmentEntry, ...], Field(min_length=1, max_length=20)]


class PlayerEntry(StrictModel):
    """A player and their battlefield edge (§3.7)."""

    name: Id
    edge: Edge


class Battlefield(StrictModel):
    """The battlefield rectangle in inches (§3.7)."""

    width: Annotated[int, Field(ge=12, le=200)] = 72
    height: Annotated[int, Field(ge=12, le=200)] = 48


class Scenario(StrictModel):
    """A whole-battle scenario."""

    ruleset: Annotated[Literal["legions"] | None, Field(description='the ruleset this file is for: "legions" (kessen reads it first)')] = None
    description: Annotated[str, Field(max_length=200, description="one line about the scenario, shown by kessen scenarios")] = ""
    name: Annotated[str, Field(min_length=1, max_length=80)]
    rounds: Annotated[int, Field(ge=1, le=10)] = 4
    start: Literal["orders", "combat"] = "orders"
    initiative: Id | None = None
    battlefield: Battlefield = Battlefield()
    players: tuple[PlayerEntry, PlayerEntry] = (PlayerEntry(name="player1", edge="south"), PlayerEntry(name="player2", edge="north"))
    profiles: dict[str, ModelProfile]
    formations: Annotated[tuple[FormationEntry, ...], Field(min_length=2, max_length=20)]
    no_line_of_sight: tuple[tuple[Id, Id], ...] = ()

    def check(self) -> None:
        """The rejections of §3.8 and the cross-references of the file."""
        names = [p.name for p in self.players]
        if names[0] == names[1]:
            raise InputError("players[1].name", names[1], "duplicate player name")
        if self.players[0].edge == self.players[1].edge:
            raise InputError("players[1].edge", self.players[1].edge, "the players need different battlefield edges")
        if self.initiative is not None:
            if self.start != "combat":
                raise InputError("initiative", self.initiative, "only a battle that starts at the Combat phase gives the initiative")
            if self.initiative not in names:
                raise InputError("initiative", self.initiative, f"must be one of the players {names}")
        for key, profile in self.profiles.items():
            if profile.scale is not None and profile.scale != SCALE[profile.type]:
                raise InputError(f"profiles.{key}.scale", profile.scale, f"a {profile.type} has Scale {SCALE[profile.type]} (§3.1)")
        width, height = self.battlefield.width, self.battlefield.height
        seen: set[str] = set()
        placed: list[tuple[str, float, float, float]] = []
        sides: set[str] = set()
        for f, formation in enumerate(self.formations):
            _unique(seen, formation.id, f"formations[{f}].id")
            if formation.player not in names:
                raise InputError(f"formations[{f}].player", formation.player, f"must be one of the players {names}")
            sides.add(formation.player)
            for d, det in enumerate(formation.detachments):
                where = f"formations[{f}].detachments[{d}]"
                _unique(seen, det.id, f"{where}.id")
                if det.pinned and not det.engaged:
                    raise InputError(f"{where}.pinned", True, "only an Engaged Detachment can be Engaged & Pinned (§3.8)")
                if self.start == "orders" and det.order is not None:
                    raise InputError(f"{where}.order", det.order, "orders are issued in the Orders phase; give them only with start = \"combat\"")
                if sum(m.count for m in det.models) > MAX_DETACHMENT_MODELS:
                    raise InputError(f"{where}.models", sum(m.count for m in det.models), f"a Detachment holds at most {MAX_DETACHMENT_MODELS} models")
                for m, entry in enumerate(det.models):
                    mw = f"{where}.models[{m}]"
                    if entry.profile not in self.profiles:
                        raise InputError(f"{mw}.profile", entry.profile, "unknown profile")
                    profile = self.profiles[entry.profile]
                    if entry.id is not None and entry.count > 1:
                        raise InputError(f"{mw}.id", entry.id, "an id names one model: leave it out when count > 1")
                    if entry.wounds_remaining is not None and entry.wounds_remaining > profile.wounds:
                        raise InputError(f"{mw}.wounds_remaining", entry.wounds_remaining, f"must be ≤ wounds ({profile.wounds}) (§3.8)")
                    if entry.void_shields is not None and entry.void_shields > profile.void_shields:
                        raise InputError(f"{mw}.void_shields", entry.void_shields, f"must be ≤ the profile's Void Shields ({profile.void_shields})")
                    if entry.obscured and profile.type not in KNIGHTS_AND_TITANS:
                        raise InputError(f"{mw}.obscured", entry.obscured, f"only a knight or titan can be obscured, not a {profile.type} (LI-OBSC-1)")
                    for k, model_id in enumerate(model_ids(det.id, det.models)[sum(e.count for e in det.models[:m]):][: entry.count]):
                        _unique(seen, model_id, f"{mw}.id")
                        if entry.wounds_remaining == 0 or det.in_reserve:
                            continue
                        x, y, r = entry.x + k * entry.dx, entry.y + k * entry.dy, profile.base_radius
                        if not (r - EPS <= x <= width - r + EPS and r - EPS <= y <= height - r + EPS):
                            raise InputError(f"{mw}.x", [round(x, 3), round(y, 3)], "the base must lie wholly on the battlefield (§3.8)")
                        for other, ox, oy, orad in placed:
                            if math.hypot(x - ox, y - oy) - r - orad < -EPS:
                                raise InputError(f"{mw}.x", [round(x, 3), round(y, 3)], f"the base overlaps model {other!r}")
                        placed.append((model_id, x, y, r))
        for p in names:
            if p not in sides:
                raise InputError("formations", p, "every player needs at least one formation")
        model_set = {m for m, *_ in placed} | _all_model_ids(self)
        for i, pair in enumerate(self.no_line_of_sight):
            for j, model_id in enumerate(pair):
                if model_id not in model_set:
                    raise InputError(f"no_line_of_sight[{i}][{j}]", model_id, "unknown model id")


def _unique(seen: set[str], value: str, path: str) -> None:
    if value in seen:
        raise InputError(path, value, "duplicate id (ids of formations, detachments and models must be unique)")
    seen.add(value)


def model_ids(detachment: str, entries: tuple[ModelEntry, ...]) -> list[str]:
    """The ids of a detachment's models: given, else ``<detachment>-<n>`` counting from 1."""
    ids: list[str] = []
    n = 0
    for entry in entries:
        for _ in range(entry.count):
            n += 1
            ids.append(entry.id if entry.id is not None else f"{detachment}-{n}")
    return ids


def _all_model_ids(scenario: Scenario) -> set[str]:
    return {m for f in scenario.formations for d in f.detachments for m in model_ids(d.id, d.models)}


def load_scenario(text: str, source: str) -> Scenario:
    """Parse and validate a scenario file's TOML text; errors name the file, the field and the value."""
    return load_toml(Scenario, text, source)
