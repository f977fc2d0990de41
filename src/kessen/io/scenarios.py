"""Scenario files: reading one, finding its ruleset, its JSON Schema, and the scenarios kessen ships in ``examples/``."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kessen.core.errors import InputError
from kessen.core.records import record
from kessen.io.files import SCENARIO, parse_toml, read_input

if TYPE_CHECKING:
    from pydantic import BaseModel

    from kessen.rulesets import Ruleset


def _examples_folder() -> Path:
    """The shipped scenarios: the package's own ``kessen/examples`` where a build put them (an installed wheel, the
    compiled engine), else the repository's ``examples/`` beside ``src/``."""
    package = Path(__file__).resolve().parents[1]
    packaged = package / "examples"
    return packaged if packaged.is_dir() else package.parents[1] / "examples"


EXAMPLES = _examples_folder()


@record
class ScenarioFile:
    """A scenario file read and its ruleset found: named by the file's ``ruleset`` key or by ``--ruleset``, or
    ``guessed`` from an ``examples/<ruleset>/`` folder on its path (the command line says so)."""

    path: str
    text: str
    ruleset: Ruleset
    guessed: bool


def open_scenario(path: str, given: str | None = None) -> ScenarioFile:
    """Read the scenario file *path* and find its ruleset (*given*: the ``--ruleset`` of the command line).

    The file's own ``ruleset = "<id>"`` comes first; a *given* ruleset that contradicts it is an error. Without
    either, a folder named after a ruleset on the file's path decides, and ``guessed`` is true.
    """
    from kessen.rulesets import get_ruleset, ruleset_ids

    text = read_input(path, SCENARIO)
    named = _agreed(text, path, given, "--ruleset")
    rid = named if named is not None else given
    if rid is None:
        folders = [part for part in Path(path).resolve().parts if part in ruleset_ids()]
        if not folders:
            raise InputError(path, InputError.NOTHING, f"names no ruleset: add ruleset = \"<id>\" to it, or give --ruleset (one of {', '.join(ruleset_ids())})")
        rid = folders[-1]
    chosen = get_ruleset(rid)
    if not chosen.plays_battles:
        raise InputError("--ruleset", chosen.id, "this ruleset does not play whole battles yet")
    return ScenarioFile(path, text, chosen, guessed=named is None and given is None)


def text_ruleset(text: str, source: str, given: str | None = None) -> Ruleset:
    """The ruleset of a scenario given as *text* (named *source* in errors): its ``ruleset`` key, or *given*; both
    given must agree."""
    from kessen.rulesets import get_ruleset, ruleset_ids

    rid = _agreed(text, source, given, "ruleset") or given
    if rid is None:
        known = ", ".join(ruleset_ids())
        raise InputError(source, InputError.NOTHING, f"names no ruleset: add ruleset = \"<id>\" to it, or give ruleset (one of {known})")
    chosen = get_ruleset(rid)
    if not chosen.plays_battles:
        raise InputError("ruleset", chosen.id, "this ruleset does not play whole battles yet")
    return chosen


def _agreed(text: str, source: str, given: str | None, field: str) -> str | None:
    """The ruleset the scenario's text names (None if none); an error on *field* when *given* says another."""
    named = named_ruleset(parse_toml(text, source), source)
    if named is not None and given is not None and given != named:
        raise InputError(field, given, f"{source} is a {named} scenario (it says ruleset = \"{named}\")")
    return named


def named_ruleset(data: dict[str, Any], path: str) -> str | None:
    """The ruleset a scenario's data names in its ``ruleset`` key (None if it has none); an unknown one is an error."""
    from kessen.rulesets import ruleset_ids

    value = data.get("ruleset")
    if value is None:
        return None
    if not isinstance(value, str) or value not in ruleset_ids():
        raise InputError(f"{path}: ruleset", value, f"unknown ruleset, expected one of {', '.join(ruleset_ids())}")
    return value


def read_scenario(path: str) -> str:
    """A scenario file's text, read the bounded way; a missing or unreadable file names itself."""
    return read_input(path, SCENARIO)


def ruleset_for(path: str, given: str | None) -> Ruleset:
    """The ruleset of the scenario file *path* (see :func:`open_scenario`)."""
    return open_scenario(path, given).ruleset


def scenario_model(ruleset_id: str) -> type[BaseModel]:
    """The model of a ruleset's scenario files (``<package>/scenario.py``'s ``Scenario``: the package the ruleset is
    laid out in, ``kessen.rulesets.<id with _ for ->`` for the rulesets kessen ships), whose JSON Schema documents the
    file format."""
    from kessen.rulesets import get_ruleset

    chosen = get_ruleset(ruleset_id)
    package = chosen.package or f"kessen.rulesets.{chosen.id.replace('-', '_')}"
    model: type[BaseModel] = importlib.import_module(f"{package}.scenario").Scenario
    return model


@record
class ShippedScenario:
    """A scenario that ships with kessen: ``name`` is ``<ruleset>/<file stem>`` (what the web page and
    ``kessen scenarios`` call it), ``title`` its ``name`` field, ``description`` one line about it, ``sides`` its
    sides in the scenario's order."""

    name: str
    ruleset: str
    path: Path
    title: str
    description: str
    sides: tuple[str, ...] = ()


def shipped_scenarios() -> tuple[ShippedScenario, ...]:
    """Every scenario under ``examples/<ruleset>/``, in a stable order (empty when kessen runs without its
    repository's examples folder)."""
    found = []
    for path in sorted(EXAMPLES.glob("*/*.toml")):
        scenario = open_scenario(str(path))
        data = parse_toml(scenario.text, str(path))
        game = scenario.ruleset.game
        sides = tuple(game.sides(game.load_scenario(scenario.text, str(path))))
        description = str(data.get("description") or _first_comment(scenario.text))
        title = str(data.get("name", path.stem))
        found.append(ShippedScenario(f"{path.parent.name}/{path.stem}", scenario.ruleset.id, path, title, description, sides))
    return tuple(found)


def _first_comment(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("#"):
            return line.lstrip("# ").strip()
        if line.strip():
            break
    return ""
