"""One layout in every ruleset (issue 9 §1, issue 27 §3): the same module in the same place, so a newcomer finds a rule,
a step, a decision, a drawing and a text where docs/architecture.md says.

    <package>/  __init__ (RULESET)  procedures  scenario  profiles  events  text  ai  board (drawn: board_data, draw)
      rules/     pure procedures: import no engine, no input model, no pydantic
      referee/   steps (step types, DecisionKind, ask)  machine (MACHINE: the step table)  game (GAME, ENGINE)
                 state  setup  notation  odds  battlefield (round-base geometry; armies-clash's grid is rules/grid)

Import cycles anywhere in kessen are ``tests/test_import_cycles.py``'s.
"""

from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path

import pytest

from kessen.core.steps import StepGame, StepMachine
from kessen.rulesets import get_ruleset, ruleset_ids

SRC = Path(__file__).resolve().parent.parent / "src"
SHIPPED = ("battlehost", "armies-clash", "legions", "song-of-blades")
TOP = {"__init__.py", "rules", "referee", "procedures.py", "scenario.py", "profiles.py", "events.py", "text.py", "ai.py", "board.py"}
REFEREE = {"steps", "machine", "game", "state", "setup", "notation", "odds"}
GRID_RULESETS = {"armies-clash"}
"""Rulesets played on a square grid: their geometry is the pure ``rules/grid.py``, with no round bases to measure."""


def package(ruleset: str) -> str:
    return f"kessen.rulesets.{ruleset.replace('-', '_')}"


def folder(ruleset: str) -> Path:
    return SRC.joinpath(*package(ruleset).split("."))


def imports(path: Path) -> set[str]:
    """Every module a file names in an import, wherever it stands (``from a import b`` also counts as ``a.b``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return found


def test_every_shipped_ruleset_is_registered() -> None:
    assert set(SHIPPED) <= set(ruleset_ids())


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_the_top_level_and_the_referee_hold_the_agreed_modules(ruleset: str) -> None:
    """The package's top level holds only the shared modules; referee/ at least the skeleton every engine has."""
    here = folder(ruleset)
    found = {p.name for p in here.iterdir() if p.name != "__pycache__"}
    if (here / "ai").is_dir():  # an AI grown past one module is a package (issue 23 §2)
        found = (found - {"ai"}) | {"ai.py"}
    assert found == TOP
    referee = {p.stem for p in (here / "referee").glob("*.py")}
    assert REFEREE <= referee, REFEREE - referee
    assert ("battlefield" in referee) == (ruleset not in GRID_RULESETS)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_rules_are_pure_procedures(ruleset: str) -> None:
    """rules/ (and the profiles it reads) never import the engine (referee/), the input models (procedures, scenario),
    the file formats (kessen.io) or pydantic."""
    name = package(ruleset)
    forbidden = (f"{name}.referee", f"{name}.procedures", f"{name}.scenario", "kessen.io", "pydantic")
    checked = sorted((folder(ruleset) / "rules").glob("*.py"))
    if any(f"{name}.profiles" in imports(p) for p in checked):
        checked.append(folder(ruleset) / "profiles.py")
    for path in checked:
        bad = {m for m in imports(path) if m.startswith(forbidden)}
        assert not bad, (path.name, bad)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_the_game_is_the_step_game_of_the_machine_the_board_and_the_steps(ruleset: str) -> None:
    """``referee/game.py``'s GAME is the registry's game: the StepGame of ``referee/machine.py``'s MACHINE, drawn by
    ``board.py``; ``referee/steps.py`` declares the decision kinds (a Literal) and ``ask``."""
    name = package(ruleset)
    game, machine = importlib.import_module(f"{name}.referee.game"), importlib.import_module(f"{name}.referee.machine")
    steps, board = importlib.import_module(f"{name}.referee.steps"), importlib.import_module(f"{name}.board")
    assert isinstance(game.GAME, StepGame) and get_ruleset(ruleset).game is game.GAME and game.ENGINE.game is game.GAME
    assert isinstance(machine.MACHINE, StepMachine) and game.GAME.machine is machine.MACHINE
    assert game.GAME.board is board.board_data and game.GAME.draw is board.draw
    assert game.GAME.ruleset == ruleset
    assert typing.get_origin(steps.DecisionKind) is typing.Literal and callable(steps.ask)
