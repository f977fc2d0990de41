"""No import cycles anywhere in src/kessen, imports under TYPE_CHECKING and inside functions included (issue 9)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The kessen modules *path* imports (a package's own __init__ counts only where it is imported as such)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in modules else base)
    return {m for m in found if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    paths = sorted((SRC / "kessen").rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports(p, modules) for p in paths}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the list of modules around it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_find_cycle_finds_one() -> None:
    """The checker itself: a → b → c → a is a cycle, a DAG is not."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles_in_kessen() -> None:
    """Every import between kessen modules, TYPE_CHECKING ones included, forms no cycle.

    A package imports its modules' parents implicitly; that is not a cycle, so an import of a package's own
    ``__init__`` from inside it counts only when written out.
    """
    edges = graph()
    assert find_cycle(edges) is None, " → ".join(find_cycle(edges) or [])
