"""The doctests of the modules compiled with mypyc, which keeps no docstrings: read from their source and run against
the compiled module (issue 26), so that the examples check the engine users run. Under the pure engine pytest's own
doctest collection runs them."""

from __future__ import annotations

import ast
import doctest
import importlib
from collections.abc import Generator, Iterator
from types import ModuleType
from pathlib import Path
from typing import Any

import pytest
from _pytest.doctest import DoctestItem, DoctestModule, _get_checker, _get_continue_on_failure, _get_runner, get_optionflags

SOURCE = Path(__file__).resolve().parent / "src"


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    collectors = yield
    name = compiled_module(file_path) if parent.config.getoption("doctestmodules") else None
    if name is None:
        return collectors
    kept = [c for c in collectors if not isinstance(c, DoctestModule)]  # it would import the source: a mismatch
    return [*kept, CompiledDoctests.from_parent(parent, path=file_path)]


def compiled_module(file_path: Path) -> str | None:
    """The name of the module at *file_path* if this run loads it compiled."""
    if file_path.suffix != ".py" or SOURCE not in file_path.parents:
        return None
    from kessen.bootstrap import CHOICE

    name = ".".join(file_path.relative_to(SOURCE).with_suffix("").parts)
    return name if CHOICE.engine == "compiled" and name in CHOICE.files else None


class CompiledDoctests(DoctestModule):
    """The examples in a compiled module's docstrings, run in that module's namespace. (pytest's own collector finds
    none there: a compiled function has no ``__doc__``.)"""

    def _getobj(self) -> ModuleType:
        name = compiled_module(self.path)
        assert name is not None
        return importlib.import_module(name)

    def collect(self) -> Iterator[DoctestItem]:
        module = self.obj
        runner = _get_runner(
            verbose=False, optionflags=get_optionflags(self.config), checker=_get_checker(),
            continue_on_failure=_get_continue_on_failure(self.config),
        )
        for test in doctests_in_source(self.path, module.__name__, vars(module)):
            yield DoctestItem.from_parent(self, name=f"{test.name} (compiled)", runner=runner, dtest=test)


def doctests_in_source(path: Path, name: str, namespace: dict[str, Any]) -> Iterator[doctest.DocTest]:
    """Every docstring with examples in the source at *path* (the module's, its classes', functions' and methods'), as
    doctests run in a copy of *namespace*."""
    parser = doctest.DocTestParser()
    stack: list[tuple[ast.AST, str]] = [(ast.parse(path.read_text(encoding="utf-8")), name)]
    while stack:
        node, qualified = stack.pop()
        body = getattr(node, "body", [])
        docstring = ast.get_docstring(node, clean=False)  # type: ignore[arg-type]
        if docstring and body:
            test = parser.get_doctest(docstring, dict(namespace), qualified, str(path), body[0].lineno - 1)
            if test.examples:
                yield test
        stack.extend(
            (child, f"{qualified}.{child.name}") for child in reversed(body)
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        )
