"""Sweep files: which scenarios, which fields to vary over which values, how many battles per cell; and the cells.

A sweep file is TOML::

    scenario = "../hero-against-mob.toml"     # or scenarios = [...]; relative to the sweep file's folder
    runs = 400                                # battles per cell
    seed = 1
    swap_sides = false                        # true: also play every cell with the sides' deployment swapped
    ai = { Hero = "search" }                  # or ai = "search" for every side; a side not named plays greedy
    [[vary]]
    field = "sides[0].models[0].combat"       # a path into the scenario file
    values = [3, 4, 5, 6]

The cells are the product of the scenarios, the ``vary`` lists (the last one changing fastest) and, with
``swap_sides``, the two deployments. Every cell's scenario is built and validated before any battle is played; a
bad value is reported with the cell, the field and the value.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import tomli_w
from pydantic import Field

from kessen.ai.levels import AI, level_table
from kessen.core.errors import InputError
from kessen.core.records import record
from kessen.io.files import SWEEP, load_toml, read_input
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.io.validation import StrictModel
from kessen.sim.deployment import swap_deployment

MAX_CELLS = 10_000
_TOKEN = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]")


class Vary(StrictModel):
    """One field of the scenario file and the values it takes, one cell per value."""

    field: Annotated[str, Field(
        min_length=1, max_length=200,
        description="a path into the scenario file: table keys joined by dots, list entries by [index], "
        "e.g. sides[0].models[0].combat or turns",
    )]
    values: Annotated[tuple[Any, ...], Field(
        min_length=1, max_length=1000, description="the values the field takes, one cell for each (any TOML value)",
    )]

    def check(self) -> None:
        """The field is a well-formed path; no value comes twice (it would repeat a cell)."""
        field_tokens(self.field)
        shown = [repr(v) for v in self.values]
        for i, value in enumerate(shown):
            if value in shown[:i]:
                raise InputError(f"values[{i}]", self.values[i], "already in the list")


class SweepFile(StrictModel):
    """A sweep: battles of one or more scenarios over a grid of field values."""

    scenario: Annotated[str, Field(min_length=1, description="the scenario file, relative to the sweep file's folder")] | None = None
    scenarios: Annotated[tuple[Annotated[str, Field(min_length=1)], ...], Field(
        min_length=1, max_length=100, description="several scenario files (instead of scenario), each relative to the sweep file's folder",
    )] | None = None
    ruleset: Annotated[str, Field(description="the scenarios' ruleset id (default: the scenario file's own)")] | None = None
    runs: Annotated[int, Field(ge=1, le=1_000_000, description="battles per cell")]
    seed: Annotated[int, Field(ge=0, description="the sweep's seed: every chunk's seeds are drawn from it by cell and chunk")] = 1
    swap_sides: Annotated[bool, Field(description="also play every cell with the sides' deployment swapped")] = False
    vary: Annotated[tuple[Vary, ...], Field(max_length=8, description="the fields to vary, each over a list of values")] = ()
    ai: Annotated[str | dict[str, str], Field(
        description="the AI level of every side (greedy, search, search:N, random or package.module:Name), or a table of side = level",
    )] | None = None

    def check(self) -> None:
        """Exactly one of scenario and scenarios; each field varied once; at most MAX_CELLS cells."""
        if (self.scenario is None) == (self.scenarios is None):
            raise InputError("scenario", self.scenario, "give scenario or scenarios (one of them)")
        fields = [v.field for v in self.vary]
        for i, name in enumerate(fields):
            if name in fields[:i]:
                raise InputError(f"vary[{i}].field", name, "already varied above")
        cells = len(self.scenario_files()) * (2 if self.swap_sides else 1)
        for v in self.vary:
            cells *= len(v.values)
        if cells > MAX_CELLS:
            raise InputError("vary", cells, f"too many cells: at most {MAX_CELLS:,}")

    def scenario_files(self) -> tuple[str, ...]:
        return (self.scenario,) if self.scenario is not None else tuple(self.scenarios or ())


@record
class Cell:
    """One cell of a sweep: a scenario with some fields set (and perhaps its deployment swapped)."""

    index: int
    scenario: str
    ruleset: str
    settings: tuple[tuple[str, Any], ...]
    swapped: bool
    text: str
    sides: tuple[str, ...]
    named: bool = False
    """Whether the label names the scenario file (a sweep of several scenarios)."""
    ai: tuple[tuple[str, str], ...] = ()
    """Side → AI level the cell's battles are played with."""

    def label(self, swapped: str = "swapped") -> str:
        """The cell as a reader names it: ``sides[0].models[0].combat = 4, turns = 6, swapped``."""
        parts = [Path(self.scenario).name] if self.named else []
        parts += [f"{name} = {_toml(value)}" for name, value in self.settings]
        return ", ".join(parts + ([swapped] if self.swapped else [])) or Path(self.scenario).name


@record
class Sweep:
    """A loaded sweep file: its text, what it asks for, its cells, and the hash that names it in the store."""

    path: str
    text: str
    spec: SweepFile
    cells: tuple[Cell, ...]
    hash: str


def load_sweep(path: str, ai: AI = None) -> Sweep:
    """Read, validate and expand a sweep file: every cell's scenario is built and checked before it returns. *ai*
    (the command line's ``--ai``) takes the place of the file's ``ai``, and is part of the hash: results played by
    other AIs are never reused."""
    text = _read(path)
    spec = load_toml(SweepFile, text, path)
    if ai is not None:
        spec = spec.model_copy(update={"ai": ai})
    folder = Path(path).parent
    cells: list[Cell] = []
    digest = hashlib.sha256(text.encode("utf-8"))
    if ai is not None:
        digest.update(b"\0ai\0" + repr(sorted(ai.items()) if isinstance(ai, Mapping) else ai).encode("utf-8"))
    for entry in spec.scenario_files():
        scenario = str(folder / entry)
        try:
            original = read_scenario(scenario)
            ruleset = ruleset_for(scenario, spec.ruleset)
            data = tomllib.loads(original)
        except InputError as error:
            raise InputError(f"{path}: scenario", entry, error.reason) from None
        except tomllib.TOMLDecodeError as error:
            raise InputError(f"{path}: scenario", entry, f"not valid TOML ({error})") from None
        digest.update(b"\0" + original.encode("utf-8"))
        for values in itertools.product(*(v.values for v in spec.vary)):
            settings = tuple(zip((v.field for v in spec.vary), values))
            for swapped in (False, True) if spec.swap_sides else (False,):
                named = len(spec.scenario_files()) > 1
                cells.append(_cell(
                    path, len(cells), scenario, ruleset, original, data, settings, swapped, named, spec.ai,
                    ai_field="--ai" if ai is not None else None,
                ))
    return Sweep(path, text, spec, tuple(cells), digest.hexdigest())


def _cell(
    path: str, index: int, scenario: str, ruleset: Any, original: str, data: dict[str, Any],
    settings: tuple[tuple[str, Any], ...], swapped: bool, named: bool, spec_ai: AI, *, ai_field: str | None = None,
) -> Cell:
    """One cell's scenario built and checked; a bad AI level or side is named as the file's ``ai`` field, or as
    *ai_field* (the command line's ``--ai``) when the levels came from there."""
    probe = Cell(index, scenario, ruleset.id, settings, swapped, original, (), named)
    where = f"{path}: cell {index} ({probe.label()})"
    if settings or swapped:
        changed = copy.deepcopy(data)
        for i, (name, value) in enumerate(settings):
            try:
                set_field(changed, name, value)
            except InputError as error:
                raise InputError(f"{where}: vary[{i}].field", name, error.reason) from None
        if swapped:
            changed = swap_deployment(ruleset.id, changed)
        try:
            text = tomli_w.dumps(changed)
        except (TypeError, ValueError) as error:
            raise InputError(f"{where}: values", [v for _, v in settings], f"not a TOML value ({error})") from None
    else:
        text = original
    try:
        state = ruleset.game.load_scenario(text, scenario)
    except InputError as error:
        raise InputError(f"{where}: {error.field}", error.value, error.reason) from None
    sides = tuple(ruleset.game.sides(state))
    try:
        levels = level_table(spec_ai, sides)
    except InputError as error:
        raise InputError(ai_field or f"{path}: {error.field}", error.value, error.reason) from None
    return Cell(index, scenario, ruleset.id, settings, swapped, text, sides, named, levels)


def field_tokens(path: str) -> tuple[str | int, ...]:
    """A field path as its steps: names (table keys) and integers (list indices).

    >>> field_tokens("sides[0].models[1].combat")
    ('sides', 0, 'models', 1, 'combat')
    """
    tokens: list[str | int] = []
    position = 0
    while position < len(path):
        if tokens and not path.startswith("[", position):
            if not path.startswith(".", position):
                raise InputError("field", path, f"expected . or [ at character {position + 1}")
            position += 1
        match = _TOKEN.match(path, position)
        if match is None:
            raise InputError("field", path, f"expected a name or [index] at character {position + 1}")
        name, index = match.groups()
        tokens.append(name if name is not None else int(index))
        position = match.end()
    if not tokens or not isinstance(tokens[0], str):
        raise InputError("field", path, "must start with a name")
    return tuple(tokens)


def set_field(data: dict[str, Any], path: str, value: Any) -> None:
    """Set the field at *path* of scenario data to *value*; a missing table on the way is made (a field left to
    its default), a missing list entry is an error saying how many entries the list has."""
    tokens = field_tokens(path)
    here: Any = data
    for i, step in enumerate(tokens):
        above = _path(tokens[:i])
        last = i == len(tokens) - 1
        if isinstance(step, int):
            if not isinstance(here, list):
                raise InputError("field", path, f"{above} is not a list")
            if step >= len(here):
                raise InputError("field", path, f"{above} has {len(here)} entries (indices from 0 to {len(here) - 1})")
        elif not isinstance(here, dict):
            raise InputError("field", path, f"{above} is a list: name an entry with [index]")
        elif step not in here and not last:
            if isinstance(tokens[i + 1], int):
                raise InputError("field", path, f"the scenario has no list {_path(tokens[: i + 1])}")
            here[step] = {}
        if last:
            here[step] = value
            return
        here = here[step]


def _path(tokens: tuple[str | int, ...]) -> str:
    return "".join(f"[{t}]" if isinstance(t, int) else (f".{t}" if i else t) for i, t in enumerate(tokens))


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _read(path: str) -> str:
    """The sweep file's text through the one bounded loading path (size, encoding, BOM)."""
    return read_input(path, SWEEP)
