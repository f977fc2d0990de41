"""A scenario as a tool names it: a shipped one's name, TOML text (several lines, as the web takes it), or else the
path of a scenario file on this machine (as ``kessen play`` takes it)."""

from __future__ import annotations

from kessen.io.scenarios import open_scenario
from kessen.web.scenarios import Chosen, choose_scenario, shipped


def choose(scenario: str, ruleset: str | None) -> Chosen:
    """[DECISION] A shipped name first, then text if it has a line break (every scenario has several tables), else a
    file's path: the server runs as the user who started it, so it reads what ``kessen play`` would read. A missing
    file's error names the path."""
    if scenario in shipped() or "\n" in scenario:
        return choose_scenario(scenario, ruleset)
    opened = open_scenario(scenario, ruleset)
    return Chosen(opened.ruleset, opened.text, scenario)
