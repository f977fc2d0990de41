"""The shape of the legions package (issue 9 §1): rules/ is pure, the top level holds only the agreed modules, and no
module imports itself back through others (``TYPE_CHECKING`` imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "kessen" / "rulesets" / "legions"
NAME = "kessen.rulesets.legions"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join((NAME, *parts))
        found[name.removesuffix(".__init__")] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every module *path* imports, inside the package or not, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module for a in node.names}
    return found


def test_no_import_cycles_in_the_package() -> None:
    """No chain of imports inside the package leads back to where it started (today's ``state → steps → shooting →
    battlefield → state`` is gone)."""
    modules = _modules()
    graph = {m: {i for i in _imports(p, modules) if i in modules} for m, p in modules.items()}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, " → ".join((*path[path.index(m):], m))
        if m in done:
            return
        for n in sorted(graph[m]):
            visit(n, (*path, m))
        done.add(m)

    for m in sorted(graph):
        visit(m, ())


def test_rules_are_pure_procedures() -> None:
    """rules/ never imports the engine (referee/), the input models (procedures, scenario) or pydantic."""
    modules = _modules()
    for name, path in modules.items():
        if not name.startswith(f"{NAME}.rules"):
            continue
        bad = {i for i in _imports(path, modules) if i.startswith((f"{NAME}.referee", f"{NAME}.procedures", f"{NAME}.scenario", "pydantic"))}
        assert not bad, (name, bad)


def test_the_top_level_holds_the_agreed_modules() -> None:
    """The package's top level: the registration, rules/, referee/, and procedures, scenario, events, text, ai, board,
    profiles; nothing else."""
    top = {p.name for p in PACKAGE.iterdir() if p.name != "__pycache__"}
    assert top == {"__init__.py", "rules", "referee", "procedures.py", "scenario.py", "events.py", "text.py", "ai.py",
                   "board.py", "profiles.py"}
