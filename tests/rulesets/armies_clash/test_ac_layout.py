"""The shape of the armies-clash package (issue 9 §1): the rules never reach into the engine, the input files'
validation or pydantic, and no module imports one that imports it back, TYPE_CHECKING imports included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "kessen" / "rulesets" / "armies_clash"
NAME = "kessen.rulesets.armies_clash"


def _imports(path: Path) -> set[str]:
    """Every module an armies-clash file names in an import statement, wherever the statement stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join((NAME, *parts[:-1])) if parts[-1] == "__init__" else ".".join((NAME, *parts))


def test_the_rules_import_neither_the_referee_nor_the_input_models() -> None:
    """rules/ is pure: it never imports referee/, procedures.py, scenario.py or pydantic."""
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        bad = {m for m in _imports(path) if m.startswith((f"{NAME}.referee", f"{NAME}.procedures", f"{NAME}.scenario", "pydantic"))}
        assert not bad, (path.name, bad)


def test_no_import_cycles_in_the_package() -> None:
    """No armies-clash module imports, even under TYPE_CHECKING, a module that imports it back."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph = {m: {i for i in _imports(p) if i in modules and i != m and i != NAME} for m, p in modules.items()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here == goal:
                return True
            if here not in seen:
                seen.add(here)
                todo.extend(graph[here])
        return False

    cycles = sorted((a, b) for a in graph for b in graph[a] if reaches(b, a))
    assert not cycles, cycles


def test_the_top_level_holds_only_the_shared_modules() -> None:
    """At the top of the package: the registration, the odds registry, the scenario file, events, text, AI, board."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "ai.py", "board.py", "events.py", "procedures.py", "profiles.py", "scenario.py", "text.py"]
