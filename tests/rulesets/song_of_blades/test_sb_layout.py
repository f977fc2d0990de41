"""The shape of the package (issue 9 §1): rules/ is pure (it never imports referee/, pydantic, the odds inputs or the
input files), nothing else sits at the top level, and no two modules import each other round a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "kessen" / "rulesets" / "song_of_blades"
NAME = "kessen.rulesets.song_of_blades"
TOP = {"__init__", "procedures", "scenario", "events", "text", "ai", "board", "profiles"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join((NAME, *parts[:-1])) if parts[-1] == "__init__" else ".".join((NAME, *parts))


def imports(path: Path) -> set[str]:
    """Every module a file imports, TYPE_CHECKING blocks and function bodies included (``from a import b`` counts as
    ``a.b`` when that is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_sb_layout_rules_are_pure_and_the_top_level_is_fixed() -> None:
    """rules/ imports only kessen.dice, the ``record`` decorator of core, the profiles and itself; the top level holds only the modules of issue 9."""
    for path in (PACKAGE / "rules").glob("*.py"):
        for name in imports(path):
            if name.startswith("kessen") or name.startswith("pydantic"):
                assert name.startswith(("kessen.dice", "kessen.core.records", f"{NAME}.rules", f"{NAME}.profiles")), (path.name, name)
    assert {p.stem for p in PACKAGE.glob("*.py")} == TOP
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"} == {"rules", "referee"}


def test_sb_layout_no_import_cycles() -> None:
    """No module of the package reaches itself again through the modules it imports."""
    # a package's __init__ runs before any module in it, so only module-to-module edges can make a loop
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py"}
    graph = {m: {n for n in imports(p) if n in modules and n != m} for m, p in modules.items()}

    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])
        return seen

    assert len(modules) > 20
    for m in modules:
        assert m not in reaches(m), m
