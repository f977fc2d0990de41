"""Scenario files for whole battles: battlefield, players, formations, detachments, models (§3), validated at load.

A model entry names a profile (its datasheet: type, characteristics, weapons) and places one or
more copies of it: ``count`` models from ``(x, y)`` in steps of ``(dx, dy)``. Statuses the Movement
phase would produce (Engaged, Engaged & Pinned, charged and moved, withdrew) and the Orders held are
given per detachment for battles that start at the Combat phase (``start = "combat"``).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from kessen.core.errors import InputError
from kessen.core.geometry import bases_overlap
from kessen.io.files import load_toml
from kessen.io.validation import StrictModel
from kessen.rulesets.legions.profiles import SCALE, ModelType
from kessen.rulesets.legions.rules.targeting import may_be_obscured

EPS = 1e-6
"""Base contact and overlap tolerance in inches (§3.7)."""

MAX_DETACHMENT_MODELS = 30
"""[DECISION] A Detachment holds at most 30 models, as many as the odds inputs take (§5.1), so that every volley
is a question ``kessen odds legions fire`` can ask too; the Detachments of the published game are smaller."""

MAX_PLAYER_MODELS = 200
"""[DECISION] At most 200 models a player (issue 14): a large battle of the published game; a battle at this limit
plays to its end in a few seconds."""

MAX_PLAYER_DETACHMENTS = 26
"""[DECISION] At most 26 Detachments a player: each gets a letter on the board's map."""

MAX_PROFILES = 50
"""At most 50 model profiles (datasheets) in a scenario."""

MAX_BLOCKED_SIGHT = 2000
"""At most 2,000 pairs of models with no line of sight."""

MAX_PROFILE_COMBINATIONS = 16
"""[DECISION] A Detachment's weapons with several profiles may be combined in at most 16 ways (LI-FIRE-3): each
combination is a firing option the player (and the AI, which weighs every option with the exact odds) must read."""

NO_SAVE = "-"
"""A Save or Morale characteristic of "-" (none), as a scenario file writes it: TOML has no null."""

Save = Annotated[int, Field(ge=2, le=6)]


def _dash(value: object) -> object:
    """ "-" is no characteristic (None); any other text is refused with the form the file must use."""
    if value == NO_SAVE:
        return None
    if isinstance(value, str):
        raise PydanticCustomError("characteristic", 'must be 2 to 6 (for "X+"), or "-" for none')
    return value


Characteristic = Annotated[
    Save | None,
    BeforeValidator(_dash),
    WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 2, "maximum": 6}, {"const": NO_SAVE}]}),
]
"""A Save or Morale characteristic "X+" written as X, or "-" for none."""
Edge = Literal["south", "north", "west", "east"]
Order = Literal["advance", "charge", "march", "first_fire", "fall_back"]
Id = Annotated[str, Field(min_length=1, max_length=40)]
Inches = Annotated[float, Field(allow_inf_nan=False, ge=-1000, le=1000)]


class ProfileLine(StrictModel):
    """One weapon profile (§3.3)."""

    range: Annotated[int, Field(ge=0, le=200)] = Field(description="the weapon's range, in inches (LI-TGT-2)")
    dice: Annotated[int, Field(ge=1, le=10)] = Field(default=1, description="the Dice value: D6 rolled per firing model (LI-HIT-1)")
    to_hit: Annotated[int, Field(ge=2, le=6)] = Field(description='the To Hit value "X+" as X, 2 to 6')
    ap: Annotated[int, Field(ge=-6, le=0)] = Field(default=0, description="the AP, 0 to -6 (LI-SAVE-2)")
    traits: tuple[Literal["light_at"], ...] = Field(default=(), description='weapon traits; only "light_at" has an effect (LI-SAVE-10)')


class WeaponEntry(StrictModel):
    """A weapon: a name and one or more profiles (§3.3, LI-FIRE-3)."""

    name: Id = Field(description="the weapon's name; in one Detachment a name means one weapon")
    profiles: Annotated[tuple[ProfileLine, ...], Field(min_length=1, max_length=4)] = Field(
        description="one to four profiles; a weapon with several fires one of them, chosen each time (LI-FIRE-3)"
    )


class ModelProfile(StrictModel):
    """A model's datasheet (§3.1, §3.2)."""

    type: ModelType = Field(description="infantry, cavalry, walker, vehicle, super_heavy_vehicle, knight or titan (§3.1)")
    scale: Annotated[int, Field(ge=1, le=5)] | None = Field(default=None, description="the Scale; leave it out: it follows from the type")
    movement: Annotated[int, Field(ge=0, le=40)] = Field(description="the Movement characteristic, in inches")
    armour_save: Characteristic = Field(description='the Armour Save "X+" as X (2 to 6), or "-" for none')
    special_save: Characteristic = Field(default=None, description='a Special Save "X+" as X, not modified by AP (LI-SAVE-6); leave out for none')
    wounds: Annotated[int, Field(ge=1, le=20)] = Field(default=1, description="the Wounds characteristic")
    caf: Annotated[int, Field(ge=-10, le=30)] = Field(default=0, description="the Close Assault Factor, added to fight rolls (LI-FIGHT-2)")
    morale: Characteristic = Field(default=None, description='the Morale "X+" as X; "-" or left out: no Morale checks (LI-MORALE-6)')
    void_shields: Annotated[int, Field(ge=0, le=12)] = Field(default=0, description="Void Shields (X): the starting shield level (LI-VOID-1)")
    base_radius: Annotated[float, Field(gt=0, le=6, allow_inf_nan=False)] = Field(default=0.5, description="the radius of the round base, in inches")
    weapons: Annotated[tuple[WeaponEntry, ...], Field(max_length=8)] = Field(default=(), description="up to eight weapons")


class ModelEntry(StrictModel):
    """``count`` copies of a profile placed from (x, y) in steps of (dx, dy) (§3.2)."""

    profile: Id = Field(description="the key of the model's profile in [profiles]")
    id: Id | None = Field(default=None, description="the model's id (only when count is 1); default <detachment>-<n>")
    count: Annotated[int, Field(ge=1, le=30)] = Field(default=1, description="how many copies of the profile to place")
    x: Inches = Field(description="the base centre's distance from the west edge, in inches")
    y: Inches = Field(description="the base centre's distance from the south edge, in inches")
    dx: Inches = Field(default=0.0, description="the step in x from one copy to the next, in inches")
    dy: Inches = Field(default=0.0, description="the step in y from one copy to the next, in inches")
    facing: Annotated[float, Field(allow_inf_nan=False, ge=-360, le=360)] | None = Field(
        default=None, description="degrees counter-clockwise from east (+x); default: toward the opposing edge (LI-ARC-2)"
    )
    wounds_remaining: Annotated[int, Field(ge=0, le=20)] | None = Field(
        default=None, description="Wounds left (0: already destroyed); default the profile's Wounds"
    )
    void_shields: Annotated[int, Field(ge=0, le=12)] | None = Field(
        default=None, description="the current Void Shield level; default the profile's"
    )
    cover_save: Save | None = Field(default=None, description='a Cover Save "X+" as X from the terrain it stands in (LI-SAVE-7)')
    obscured: Literal[0, 25, 50, 100] = Field(
        default=0, description="percent of a knight or titan hidden: 0, 25, 50, or 100 for only inessential parts visible (LI-OBSC-1)"
    )


class DetachmentEntry(StrictModel):
    """A Detachment and the statuses it holds when the battle starts (§3.4)."""

    id: Id = Field(description="the Detachment's id, unique in the scenario")
    order: Order | None = Field(default=None, description='the Order it holds; only with start = "combat"')
    engaged: bool = Field(default=False, description="Engaged at the start (with start = \"combat\"; read from the bases otherwise)")
    pinned: bool = Field(default=False, description="Engaged & Pinned at the start: cannot fire or be targeted (LI-TGT-4)")
    in_reserve: bool = Field(default=False, description="in Reserve: off the battlefield for the whole battle")
    charged_and_moved: bool = Field(default=False, description="holds a Charge order and moved at least 1 inch this round (LI-FIGHT-3)")
    withdrew_this_round: bool = Field(default=False, description="made a Withdrawal move this round: cannot fire (LI-WD-9)")
    models: Annotated[tuple[ModelEntry, ...], Field(min_length=1, max_length=30)] = Field(
        description=f"its models, at most {MAX_DETACHMENT_MODELS} in all"
    )


class FormationEntry(StrictModel):
    """A Formation of one player (§3.5)."""

    id: Id = Field(description="the Formation's id, unique in the scenario")
    player: Id = Field(description="the name of the player it belongs to")
    broken: bool = Field(default=False, description="already Broken when the battle starts (LI-BREAK-6)")
    detachments: Annotated[tuple[DetachmentEntry, ...], Field(min_length=1, max_length=20)] = Field(
        description="its Detachments, 1 to 20"
    )


class PlayerEntry(StrictModel):
    """A player and their battlefield edge (§3.7)."""

    name: Id = Field(description="the player's name")
    edge: Edge = Field(description="the player's battlefield edge: south, north, west or east")


class Battlefield(StrictModel):
    """The battlefield rectangle in inches (§3.7)."""

    width: Annotated[int, Field(ge=12, le=200)] = Field(default=72, description="west to east, in inches (12 to 200)")
    height: Annotated[int, Field(ge=12, le=200)] = Field(default=48, description="south to north, in inches (12 to 200)")


class Scenario(StrictModel):
    """A whole-battle scenario."""

    ruleset: Annotated[Literal["legions"] | None, Field(description='the ruleset this file is for: "legions" (kessen reads it first)')] = None
    description: Annotated[str, Field(max_length=200, description="one line about the scenario, shown by kessen scenarios")] = ""
    name: Annotated[str, Field(min_length=1, max_length=80)] = Field(description="the scenario's name")
    rounds: Annotated[int, Field(ge=1, le=10)] = Field(default=4, description="the number of rounds, 1 to 10")
    start: Literal["orders", "combat"] = Field(
        default="orders", description='"orders": from the Orders phase of round 1; "combat": from its Combat phase'
    )
    initiative: Id | None = Field(
        default=None, description='the player with the Initiative, with start = "combat" (rolled when left out)'
    )
    battlefield: Battlefield = Field(default=Battlefield(), description="the battlefield's size")
    players: tuple[PlayerEntry, PlayerEntry] = Field(
        default=(PlayerEntry(name="player1", edge="south"), PlayerEntry(name="player2", edge="north")),
        description="the two players and their edges",
    )
    profiles: Annotated[dict[str, ModelProfile], Field(max_length=MAX_PROFILES)] = Field(
        description=f"the model profiles by key, at most {MAX_PROFILES}"
    )
    formations: Annotated[tuple[FormationEntry, ...], Field(min_length=2, max_length=20)] = Field(
        description="every Formation of both players, 2 to 20"
    )
    no_line_of_sight: Annotated[tuple[tuple[Id, Id], ...], Field(max_length=MAX_BLOCKED_SIGHT)] = Field(
        default=(), description="pairs of model ids that cannot see each other (terrain blocks the line of sight, §3.7)"
    )

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
        self._check_sizes(names)
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
                self._check_weapons(det, where)
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
                    if entry.obscured and not may_be_obscured(profile.type):
                        raise InputError(f"{mw}.obscured", entry.obscured, f"only a knight or titan can be obscured, not a {profile.type} (LI-OBSC-1)")
                    for k, model_id in enumerate(model_ids(det.id, det.models)[sum(e.count for e in det.models[:m]):][: entry.count]):
                        _unique(seen, model_id, f"{mw}.id")
                        if entry.wounds_remaining == 0 or det.in_reserve:
                            continue
                        x, y, r = entry.x + k * entry.dx, entry.y + k * entry.dy, profile.base_radius
                        if not (r - EPS <= x <= width - r + EPS and r - EPS <= y <= height - r + EPS):
                            raise InputError(f"{mw}.x", [round(x, 3), round(y, 3)], "the base must lie wholly on the battlefield (§3.8)")
                        for other, ox, oy, orad in placed:
                            if bases_overlap(x, y, r, ox, oy, orad, EPS):
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


    def _check_sizes(self, names: list[str]) -> None:
        """The limits a player's army must keep (issue 14), checked before any model is placed."""
        for p in names:
            mine = [det for f in self.formations if f.player == p for det in f.detachments]
            if len(mine) > MAX_PLAYER_DETACHMENTS:
                raise InputError("formations", len(mine), f"{p} may have at most {MAX_PLAYER_DETACHMENTS} Detachments")
            models = sum(e.count for det in mine for e in det.models)
            if models > MAX_PLAYER_MODELS:
                raise InputError("formations", models, f"{p} may have at most {MAX_PLAYER_MODELS} models")

    def _check_weapons(self, det: DetachmentEntry, where: str) -> None:
        """A weapon name means one weapon in a Detachment, and its multi-profile weapons combine in at most
        MAX_PROFILE_COMBINATIONS ways (LI-FIRE-2, LI-FIRE-3)."""
        weapons: dict[str, WeaponEntry] = {}
        for m, entry in enumerate(det.models):
            profile = self.profiles.get(entry.profile)
            for weapon in profile.weapons if profile is not None else ():
                known = weapons.setdefault(weapon.name, weapon)
                if known != weapon:
                    raise InputError(
                        f"{where}.models[{m}].profile", entry.profile,
                        f"its weapon {weapon.name!r} differs from another weapon of that name in the Detachment",
                    )
        combinations = math.prod(len(w.profiles) for w in weapons.values())
        if combinations > MAX_PROFILE_COMBINATIONS:
            raise InputError(
                f"{where}.models", combinations,
                f"its weapons' profiles combine in {combinations} ways; a Detachment allows at most {MAX_PROFILE_COMBINATIONS} (LI-FIRE-3)",
            )


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


_OPPOSITE_EDGE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def swap_deployment(data: dict[str, Any]) -> None:
    """A parsed scenario file with the players' deployment swapped (a sweep's ``swap_sides``), in place.

    Each model line's start (x, y) is turned half a turn about the centre of the battlefield and its step (dx, dy)
    reversed, so each force keeps its shape and stands where the other stood; a model's given facing (degrees)
    turns with it, and each player's battlefield edge goes over to the opposite edge.
    """
    field = data.get("battlefield", {})
    width, height = field.get("width", 72), field.get("height", 48)
    for formation in data.get("formations", []):
        for detachment in formation.get("detachments", []):
            for model in detachment.get("models", []):
                for axis, size in (("x", width), ("y", height)):
                    if axis in model:
                        model[axis] = size - model[axis]
                for step in ("dx", "dy"):
                    if step in model:
                        model[step] = -model[step]
                if model.get("facing") is not None:
                    model["facing"] = (model["facing"] + 180) % 360
    players = data.setdefault("players", [{"name": "player1", "edge": "south"}, {"name": "player2", "edge": "north"}])
    for player in players:
        if player.get("edge") in _OPPOSITE_EDGE:
            player["edge"] = _OPPOSITE_EDGE[player["edge"]]


def load_scenario(text: str, source: str) -> Scenario:
    """Parse and validate a scenario file's TOML text; errors name the file, the field and the value."""
    return load_toml(Scenario, text, source)
