"""``kessen scenarios`` and ``kessen check``: the shipped scenarios, and a scenario file checked without playing it."""

from __future__ import annotations

import os

from rich.cells import cell_len
from rich.console import Console

from kessen import i18n
from kessen.cli.battles import note_guess
from kessen.io.files import parse_toml
from kessen.io.scenarios import EXAMPLES, open_scenario, shipped_scenarios


def check_scenario(path: str, *, ruleset_id: str | None, lang: str, out: Console, err: Console) -> None:
    """Load a scenario as a battle would (its ruleset, every field, every cross-check) and say it is fine in one
    line; a bad one raises the usual error."""
    opened = open_scenario(path, ruleset_id)
    note_guess(opened, lang, err)
    game = opened.ruleset.game
    sides = game.sides(game.load_scenario(opened.text, path))
    name = parse_toml(opened.text, path).get("name", "")
    out.print(i18n.text("cli", "checked", lang, path=path, rules=opened.ruleset.id, name=name, sides=", ".join(sides)), markup=False)


def list_scenarios(*, lang: str, out: Console) -> None:
    """One line per shipped scenario: ruleset, name (its file in ``examples/<ruleset>/``), sides, description."""
    found = shipped_scenarios()
    if not found:
        out.print(i18n.text("cli", "no_scenarios", lang), markup=False)
        return
    columns = i18n.catalogue("cli", lang)["columns"]
    header = [str(columns[key]) for key in ("ruleset", "scenario", "sides", "description")]
    rows = [header] + [[s.ruleset, s.name.split("/", 1)[1], ", ".join(s.sides), s.description] for s in found]
    widths = [max(cell_len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        cells = [cell + " " * (width - cell_len(cell)) for cell, width in zip(row, widths)]
        out.print("  ".join([*cells, row[3]]), markup=False)
    out.print(i18n.text("cli", "scenarios_footer", lang, folder=_shown_folder()), markup=False)


def _shown_folder() -> str:
    """The examples folder as a path from here when it is below the current folder, else in full."""
    relative = os.path.relpath(EXAMPLES)
    return str(EXAMPLES) if relative.startswith("..") else relative
