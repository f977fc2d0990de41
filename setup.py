"""kessen's build: the battle engine compiled with mypyc where asked and a C compiler is present (issue 13 §3, issue 26).

``KESSEN_COMPILE=1 pip install .`` (``make compiled`` builds it into ``.venv/compiled``) compiles the modules a
battle spends its time in; everything else stays Python. Without ``KESSEN_COMPILE=1``, or on a machine without a C
compiler (one line says so), the package is pure Python. Both play byte-identical battles
(``tests/sim/test_compiled_parity.py``). Beside the compiled modules the build writes ``kessen/compiled.json``: what
it compiled and the digest of every source mypyc read, which ``kessen.bootstrap`` checks before it loads them. The
metadata is in ``pyproject.toml``.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

EXAMPLES = Path(__file__).resolve().parent / "examples"

SOURCE = Path(__file__).resolve().parent / "src"

COMPILED = (
    "kessen/dice/dist.py",
    "kessen/dice/sampling.py",
    "kessen/dice/cache.py",
    "kessen/core/engine.py",
    "kessen/core/geometry.py",
    "kessen/core/steps.py",
    "kessen/core/replay.py",
    "kessen/core/session.py",
    "kessen/rulesets/*/rules/*.py",
    "kessen/rulesets/*/referee/*.py",
    "kessen/rulesets/*/ai/*.py",
    "kessen/rulesets/legions/profiles.py",
    "kessen/rulesets/song_of_blades/profiles.py",
    "kessen/ai/search.py",
    "kessen/rulesets/song_of_blades/board.py",
    "kessen/envs/layout.py",
    "kessen/envs/menu.py",
)
"""What mypyc compiles: every module a battle runs at every step (a CPU-time profile of each shipped scenario's
battles, issue 26: the game loop, the rules, the referees, the AIs, the distributions, their samplers and caches),
the search AI's loop (``ai/search.py``: ``apply`` and ``node`` at every position it visits), and what an
environment runs at every step beside the engine (issue 25 §2): the observation's encoder and the action menu
(``envs/layout.py``, ``envs/menu.py``) and song-of-blades' board data (its ``board.py``, asked at every step there;
the other rulesets' boards are left as Python until a profile of their environments asks for them).

Left as Python, and why:
- ``core/records.py`` (``dataclass_transform`` sets an attribute on the decorator, which a compiled function cannot
  take), and with it the copy functions ``evolve`` writes with ``exec`` for each record class (about 5% of a battle);
- every ``events.py`` (``dataclasses`` reads ``ClassVar`` from the module's globals, which a compiled module does not
  keep);
- pydantic models (``scenario.py``, battlehost's ``profiles.py``: a metaclass mypyc does not compile), read once per
  scenario, though armies-clash reads a few of their fields at every step (about 1%);
- the standard library's ``fractions`` (the AIs' exact means) and everything a battle does not run: I/O, the CLI,
  the web app, the sweeps' bookkeeping (once per chunk of battles)."""


def compiled_modules() -> list[str]:
    """The source files mypyc compiles, relative to this folder, in a stable order."""
    found = {path for pattern in COMPILED for path in SOURCE.glob(pattern) if path.name != "__init__.py"}
    return sorted(str(path.relative_to(SOURCE.parent)) for path in found)


def sources_read(files: list[str]) -> list[Path]:
    """The compiled sources and the kessen modules they import (a package's ``__init__.py`` where the package itself
    is imported): the sources whose names the compiled code refers to, so whose types and ``Final`` values can shape
    it. A module imported further down is called as Python from compiled code: a change there needs no rebuild."""
    found: set[Path] = set()
    for file in files:
        path = SOURCE.parent / file
        found.add(path)
        module = ".".join(path.relative_to(SOURCE).with_suffix("").parts)
        for name in _imports(path, module):
            found.update(_file_of(name))
    return sorted(found)


def _imports(path: Path, module: str) -> set[str]:
    """The absolute names a source imports (``from a import b`` gives ``a`` and ``a.b``), anywhere in the file."""
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name == "kessen" or name.startswith("kessen.")}


def _file_of(name: str) -> list[Path]:
    """The source of module or package *name*; none for a name inside a module (``from a import b``: ``a.b``)."""
    base = SOURCE.joinpath(*name.split("."))
    return [path for path in (base / "__init__.py", base.with_suffix(".py")) if path.is_file()]


def manifest(modules: list[str], shared: list[str], read: list[Path]) -> dict[str, object]:
    """What ``kessen.bootstrap`` checks: the compiled modules, their shared library, and the size, time and sha256 of
    each source read, relative to the package."""
    sources = {}
    for path in read:
        status = path.stat()
        sources[str(path.relative_to(SOURCE / "kessen"))] = [
            status.st_size, status.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest(),
        ]
    return {"format": 1, "suffix": sysconfig.get_config_var("EXT_SUFFIX"), "modules": modules, "shared": shared,
            "sources": sources}


class BuildWithManifest(build_ext):
    """``build_ext`` that also writes ``kessen/compiled.json`` beside the compiled modules."""

    record: dict[str, object] | None = None

    def run(self) -> None:
        super().run()
        if self.record is not None:
            target = Path(self.build_lib) / "kessen" / "compiled.json"
            target.write_text(json.dumps(self.record, indent=1) + "\n", encoding="utf-8")
            if self.inplace:
                sys.exit("kessen: an in-place build would leave extension modules in src/: use make compiled")


def build_is_current() -> bool:
    """Whether the build ``import kessen`` looks for (``<sys.prefix>/compiled``: ``make compiled``) compiled every module
    this file lists and still runs on the sources as they are now."""
    os.environ["KESSEN_ENGINE"] = "compiled"
    sys.path.insert(0, str(SOURCE))
    try:
        from kessen.bootstrap import CHOICE
    except ImportError:
        return False
    wanted = {str(Path(file).relative_to("src").with_suffix("")).replace("/", ".") for file in compiled_modules()}
    return wanted == {name for name in CHOICE.files if not name.endswith("__mypyc")}


def c_compiler() -> str | None:
    """The C compiler setuptools would call (``CC``, else the one Python was built with), if it is installed."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return shutil.which(words[0]) if words else None


def extensions() -> list[object]:
    if os.environ.get("KESSEN_COMPILE") != "1":
        return []
    if c_compiler() is None:
        print("kessen: no C compiler on this machine: installing the pure-Python engine", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("kessen: mypyc is not installed (pip install 'kessen[compile]'): installing the pure-Python engine", file=sys.stderr)
        return []
    files = compiled_modules()
    read = sources_read(files)  # before mypyc reads them: a file edited during the build is then a stale build
    snapshot = manifest([], [], read)
    # one C file per module, compiled in parallel: a single file of the whole engine takes gcc over ten minutes
    built = list(mypycify(files, opt_level="2", multi_file=True))
    names = [ext.name for ext in built]
    snapshot["modules"] = sorted(n for n in names if not n.endswith("__mypyc"))
    snapshot["shared"] = sorted(n for n in names if n.endswith("__mypyc"))
    BuildWithManifest.record = snapshot
    return built


class BuildWithExamples(build_py):
    """The usual build, with the shipped scenarios (``examples/``) copied into the package as ``kessen/examples``: an
    installed kessen (a wheel, the compiled engine in ``.venv/compiled``) lists and plays them as a checkout does
    (``kessen scenarios``, issue 22 §1). An editable install reads ``examples/`` beside ``src/``."""

    def run(self) -> None:
        super().run()
        if not self.dry_run and EXAMPLES.is_dir():
            shutil.copytree(EXAMPLES, Path(self.build_lib) / "kessen" / "examples", dirs_exist_ok=True)


if __name__ == "__main__":  # setuptools runs this file as __main__; the parity test only imports c_compiler
    metadata_only = any(command in sys.argv for command in ("egg_info", "dist_info"))  # no need to run mypyc for those
    setup(
        ext_modules=[] if metadata_only else extensions(),
        cmdclass={"build_ext": BuildWithManifest, "build_py": BuildWithExamples},
        options={"build_ext": {"parallel": os.cpu_count() or 1}},
    )
