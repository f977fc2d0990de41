"""The battlehost package's shape (issue 9 §1): rules/ are pure procedures that import nothing of the engine, the
input validation or the odds registry; no import cycle inside the package, TYPE_CHECKING imports included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "kessen" / "rulesets" / "battlehost"
PREFIX = "kessen.rulesets.battlehost"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join((PREFIX, *(parts[:-1] if parts[-1] == "__init__" else parts)))


def imports(path: Path, modules: frozenset[str] = frozenset()) -> set[str]:
    """Every module an import statement in *path* names, at any depth of the file (TYPE_CHECKING blocks too):
    ``from package import name`` names the submodule when *modules* has one of that name, else the package."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.add(sub if sub in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_bh_rules_import_only_the_dice_core_and_each_other() -> None:
    """Issue 9 §1: rules/ never imports referee/, pydantic, the io validation or procedures.py; of core only the
    ``record`` decorator."""
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        for name in imports(path):
            allowed = name == "__future__" or name.startswith(("kessen.dice", "kessen.core.records", f"{PREFIX}.rules")) or name.split(".")[0] in {
                "dataclasses", "fractions", "math", "typing", "collections", "itertools", "functools",
            }
            assert allowed, (path.name, name)


def test_bh_no_import_cycles_in_the_package() -> None:
    """Issue 9 §1: the modules of the package import each other without a cycle."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {m: {n for n in imports(p, frozenset(modules)) if n in modules and n != m} for m, p in modules.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: tuple[str, ...]) -> None:
        state[m] = 1
        for n in graph[m]:
            assert state.get(n) != 1, f"import cycle: {' -> '.join((*path, m, n))}"
            if n not in state:
                visit(n, (*path, m))
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, ())


def test_bh_top_level_modules_are_the_shared_shape() -> None:
    """Issue 9 §1: at the top of the package only the registration, procedures, scenario, events, text, ai, board
    and profiles; the rest lives in rules/ and referee/."""
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top == {"__init__", "procedures", "scenario", "events", "text", "ai", "board", "profiles"}
    assert {p.stem for p in (PACKAGE / "referee").glob("*.py")} >= {"state", "options", "setup", "turns", "game"}
