"""Scenario files: reading one, finding its ruleset, and the scenarios kessen ships in ``examples/``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kessen.core.errors import InputError

if TYPE_CHECKING:
    from kessen.rulesets import Ruleset

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"  # the repository's examples/, beside src/


def read_scenario(path: str) -> str:
    """A scenario file's text; a missing or unreadable file names itself."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("scenario", path, "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError("scenario", path, f"cannot read the file ({error.__class__.__name__})") from None


def ruleset_for(path: str, given: str | None) -> Ruleset:
    """The ruleset a scenario belongs to: as given, or named by a folder on its path (examples/<ruleset>/)."""
    from kessen.rulesets import get_ruleset, ruleset_ids

    if given is not None:
        chosen = get_ruleset(given)
    else:
        named = [part for part in Path(path).resolve().parts if part in ruleset_ids()]
        if not named:
            raise InputError("--ruleset", None, f"give the ruleset of {path} (one of {', '.join(ruleset_ids())})")
        chosen = get_ruleset(named[-1])
    if chosen.game is None:
        raise InputError("--ruleset", chosen.id, "this ruleset does not play whole battles yet")
    return chosen


@dataclass(frozen=True, slots=True)
class ShippedScenario:
    """A scenario that ships with kessen: ``name`` is ``<ruleset>/<file stem>`` (what the web page and
    ``kessen scenarios`` call it), ``title`` its ``name`` field, ``description`` one line about it."""

    name: str
    ruleset: str
    path: Path
    title: str
    description: str


def shipped_scenarios() -> tuple[ShippedScenario, ...]:
    """Every scenario under ``examples/<ruleset>/``, in a stable order (empty when kessen runs without its
    repository's examples folder)."""
    found = []
    for path in sorted(EXAMPLES.glob("*/*.toml")):
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        description = str(data.get("description") or _first_comment(text))
        found.append(ShippedScenario(f"{path.parent.name}/{path.stem}", path.parent.name, path, str(data.get("name", path.stem)), description))
    return tuple(found)


def _first_comment(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("#"):
            return line.lstrip("# ").strip()
        if line.strip():
            break
    return ""
