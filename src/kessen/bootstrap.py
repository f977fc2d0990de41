"""Which engine this process runs: the modules compiled with mypyc when they are built and current, else the Python
source (issue 26).

``setup.py`` compiles the modules a battle spends its time in and writes ``kessen/compiled.json`` beside them: the
compiled modules and the size, modification time and sha256 of every source mypyc read to compile them (those
modules and the kessen modules they import). ``import kessen`` runs this module first. When the build is found and
every one of those sources is unchanged, an import hook loads each compiled module from the build; otherwise the
source runs, and one line on standard error says why. The line is said once: a process that fell back hands
``KESSEN_ENGINE=pure`` to the processes it starts (sweep workers, the CLI a test runs).

``KESSEN_ENGINE`` chooses: unset or ``auto``, the compiled engine when it is current; ``compiled``, the compiled
engine or an ImportError saying why not; ``pure``, the source, silently (a test that patches an engine module's
internals needs it; so does a profile of the Python code).

The build is looked for beside the package (a wheel built with ``KESSEN_COMPILE=1``: its files are those it was
compiled from), then in ``<sys.prefix>/compiled`` (``make compiled`` in a source checkout: ``.venv/compiled``, checked
against the sources in ``src/``, so that an edit is never run stale: comparing sizes and times costs well under a
millisecond, and a file whose time moved without its text is hashed).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from typing import Literal

MANIFEST = "compiled.json"
"""The build's record, in the compiled package's folder."""

FORMAT = 1
"""The manifest's layout; a build of another layout is rebuilt."""

ENV = "KESSEN_ENGINE"
CHOICES = ("auto", "compiled", "pure")

PACKAGE = Path(__file__).resolve().parent

Engine = Literal["compiled", "pure"]


@dataclass(frozen=True, slots=True)
class Choice:
    """The engine chosen; *reason* says why the compiled one does not run (empty when it does); *files* maps each
    module name the import hook serves to its file (the compiled modules and their shared library)."""

    engine: Engine
    reason: str
    files: dict[str, str]


class _Hook:
    """A meta path finder that loads each named module from its given file (an extension module or a source)."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        file = self.files.get(name)
        return None if file is None else importlib.util.spec_from_file_location(name, file)


def read_manifest(folder: Path) -> dict[str, object] | None:
    """The manifest of the build whose package folder is *folder*, or None where there is none (or it is unreadable)."""
    try:
        found = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def changed_source(package: Path, sources: dict[str, list[object]]) -> str | None:
    """The first source (relative to *package*) that differs from what the build compiled, or None.

    Size and modification time equal: unchanged. Either moved (a checkout, a touch): the file's sha256 decides.
    """
    for name, (size, mtime_ns, digest) in sources.items():
        try:
            status = os.stat(package / name)
        except OSError:
            return name
        if status.st_size == size and status.st_mtime_ns == mtime_ns:
            continue
        import hashlib

        if status.st_size != size or hashlib.sha256((package / name).read_bytes()).hexdigest() != digest:
            return name
    return None


def choose(package: Path, build: Path, requested: str) -> Choice:
    """The engine for the sources in *package*, given the build *build* (the folder holding its ``kessen`` package,
    ``<sys.prefix>/compiled``) and ``KESSEN_ENGINE``; raises ImportError when *requested* is ``compiled`` and cannot
    be had, or is no choice."""
    if requested not in CHOICES:
        raise ImportError(f"{ENV}={requested}: must be one of {', '.join(CHOICES)}")
    beside = read_manifest(package)
    found: dict[str, object] | None = beside
    compiled, checked = package, False  # an installed compiled build: the extension modules sit beside their sources
    if beside is None:
        found, compiled, checked = read_manifest(build / "kessen"), build / "kessen", True
    if requested == "pure":
        return Choice("pure", f"{ENV}=pure", _sources(found, package) if beside is not None else {})
    reason = _unusable(found, compiled, package, checked)
    if reason is None:
        assert found is not None
        files = _compiled(found, compiled)
        missing = next((file for file in files.values() if not os.path.isfile(file)), None)
        if missing is None:
            return Choice("compiled", "", files)
        reason = f"the compiled engine is incomplete ({missing} is missing; make compiled)"
    if requested == "compiled":
        raise ImportError(f"{ENV}=compiled: {reason}")
    return Choice("pure", reason, {})


def _unusable(found: dict[str, object] | None, compiled: Path, package: Path, checked: bool) -> str | None:
    """Why the build cannot run here, or None."""
    if found is None:
        return "the compiled engine is not built (make compiled)"
    if found.get("format") != FORMAT:
        return "the compiled engine was built by another kessen (make compiled)"
    if found.get("suffix") not in EXTENSION_SUFFIXES:
        return f"the compiled engine was built for another Python ({found.get('suffix')}; make compiled)"
    if checked:
        sources = found.get("sources")
        assert isinstance(sources, dict)
        changed = changed_source(package, sources)
        if changed is not None:
            return f"kessen/{changed} changed since the compiled engine was built (make compiled)"
    return None


def _compiled(found: dict[str, object], compiled: Path) -> dict[str, str]:
    suffix, modules, shared = str(found["suffix"]), found["modules"], found["shared"]
    assert isinstance(modules, list) and isinstance(shared, list)
    files = {name: str(compiled.parent / (name.replace(".", "/") + suffix)) for name in modules}
    files.update({name: str(compiled.parent / (name + suffix)) for name in shared})
    return files


def _sources(found: dict[str, object] | None, package: Path) -> dict[str, str]:
    """The source of each compiled module of an installed build (Python would load its extension module first)."""
    modules = found.get("modules") if found else None
    if not isinstance(modules, list):
        return {}
    return {name: str(package.parent / (name.replace(".", "/") + ".py")) for name in modules}


def install(choice: Choice, *, required: bool = False) -> Choice:
    """Put the import hook of *choice* first on ``sys.meta_path`` and load the compiled engine's shared library, so
    that a library that does not load is a fallback with its reason (an ImportError when the compiled engine is
    *required*), not an error at the first battle."""
    if not choice.files:
        return choice
    hook = _Hook(choice.files)
    sys.meta_path.insert(0, hook)
    if choice.engine == "pure":
        return choice
    try:
        for name in choice.files:
            if name.endswith("__mypyc"):
                importlib.import_module(name)
    except ImportError as error:
        sys.meta_path.remove(hook)
        if required:
            raise ImportError(f"{ENV}=compiled: the compiled engine does not load ({error})") from error
        return Choice("pure", f"the compiled engine does not load ({error}; make compiled)", {})
    return choice


def say(choice: Choice, requested: str) -> None:
    """One line on standard error when the compiled engine was wanted (*requested* ``auto``) and does not run; the
    processes this one starts run the source too, without saying it again."""
    if choice.engine == "pure" and requested == "auto":
        print(f"kessen: running the pure-Python engine: {choice.reason}", file=sys.stderr)
        os.environ[ENV] = "pure"


def describe(choice: Choice) -> str:
    """Which engine runs, in words (``kessen --version``)."""
    if choice.engine == "compiled":
        return f"compiled engine ({sum(not n.endswith('__mypyc') for n in choice.files)} modules compiled with mypyc)"
    return f"pure-Python engine: {choice.reason}"


REQUESTED = os.environ.get(ENV) or "auto"
CHOICE = install(choose(PACKAGE, Path(sys.prefix) / "compiled", REQUESTED), required=REQUESTED == "compiled")
ENGINE: Engine = CHOICE.engine
say(CHOICE, REQUESTED)
