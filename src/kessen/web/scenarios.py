"""Scenarios as a request names them: a shipped one by its name (``battlehost/doorway``), or a scenario's TOML text.

No path from a request is ever opened: a name is looked up among the shipped scenarios, and anything else is text.
"""

from __future__ import annotations

import functools
import re

from kessen.core.errors import InputError
from kessen.core.records import record
from kessen.io.files import parse_toml
from kessen.io.scenarios import ShippedScenario, read_scenario, shipped_scenarios
from kessen.rulesets import Ruleset, get_ruleset, ruleset_ids

PASTED = "scenario"
"""The name a pasted scenario goes by in errors, saves and the store."""

_NAME = re.compile(r"[a-z0-9-]+/[A-Za-z0-9_.-]+")


@record
class Chosen:
    """A scenario ready to play: its ruleset, its text, and the name it goes by (*source*: the shipped name, or
    :data:`PASTED`)."""

    ruleset: Ruleset
    text: str
    source: str


@functools.cache
def shipped() -> dict[str, ShippedScenario]:
    """The shipped scenarios by name (read once: they never change while the server runs)."""
    return {s.name: s for s in shipped_scenarios()}


@functools.cache
def shipped_text(name: str) -> str:
    return read_scenario(str(shipped()[name].path))


def choose_scenario(scenario: str, ruleset: str | None = None, *, field: str = "scenario") -> Chosen:
    """The scenario a request gives in *field*: a shipped name, or TOML text whose ruleset is *ruleset* or the
    text's own ``ruleset`` key (when both are given they must agree)."""
    if _NAME.fullmatch(scenario):
        found = shipped().get(scenario)
        if found is None:
            raise InputError(field, scenario, "no shipped scenario has this name (GET /api/scenarios lists them)")
        if ruleset is not None and ruleset != found.ruleset:
            raise InputError("ruleset", ruleset, f"{scenario} is a {found.ruleset} scenario")
        return Chosen(get_ruleset(found.ruleset), shipped_text(scenario), scenario)
    chosen = get_ruleset(scenario_ruleset(scenario, ruleset, field=field))
    if not chosen.plays_battles:
        raise InputError("ruleset", chosen.id, "this ruleset does not play whole battles yet")
    return Chosen(chosen, scenario, PASTED)


def scenario_ruleset(text: str, given: str | None, *, field: str = "scenario") -> str:
    """The ruleset given in the request, else the one the scenario's text names; both given must agree."""
    try:
        data = parse_toml(text, field)
    except RecursionError:  # tomllib parses nested arrays recursively
        raise InputError(field, InputError.NOTHING, "nested too deeply") from None
    named = data.get("ruleset")
    if named is not None and not isinstance(named, str):
        raise InputError(f"{field}: ruleset", named, "must be a string")
    if given is not None and named is not None and named != given:
        raise InputError("ruleset", given, f"the scenario says ruleset = {named!r}")
    found = given or named
    if found is None:
        raise InputError("ruleset", InputError.NOTHING, f"give the scenario's ruleset (one of {', '.join(ruleset_ids())})")
    return found
