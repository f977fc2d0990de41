"""kessen's build: the battle engine compiled with mypyc where asked and a C compiler is present (issue 13 §3).

``KESSEN_COMPILE=1 pip install .`` (``make compiled`` builds it into ``.venv/compiled``) compiles the modules a
battle spends its time in; everything else stays Python. Without ``KESSEN_COMPILE=1``, or on a machine without a C
compiler (one line says so), the package is pure Python. Both play byte-identical battles
(``tests/sim/test_compiled_parity.py``). The metadata is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

EXAMPLES = Path(__file__).resolve().parent / "examples"

SOURCE = Path(__file__).resolve().parent / "src"

COMPILED = (
    "kessen/dice/dist.py",
    "kessen/dice/sampling.py",
    "kessen/core/engine.py",
    "kessen/core/geometry.py",
    "kessen/core/steps.py",
    "kessen/rulesets/*/rules/*.py",
    "kessen/rulesets/*/referee/*.py",
    "kessen/rulesets/*/ai.py",
    "kessen/rulesets/*/ai/*.py",
)
"""What mypyc compiles. Left as Python on purpose: ``core/records.py`` (``dataclass_transform`` sets an attribute on
the decorator, which a compiled function cannot take) and every ``events.py`` (``dataclasses`` reads ``ClassVar``
from the module's globals, which a compiled module does not keep); pydantic models, I/O, CLI and web (no time is
spent there in a battle)."""


def compiled_modules() -> list[str]:
    """The source files mypyc compiles, relative to this folder, in a stable order."""
    found = {path for pattern in COMPILED for path in SOURCE.glob(pattern) if path.name != "__init__.py"}
    return sorted(str(path.relative_to(SOURCE.parent)) for path in found)


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
    # one C file per module, compiled in parallel: a single file of the whole engine takes gcc over ten minutes
    return list(mypycify(compiled_modules(), opt_level="2", multi_file=True))


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
        cmdclass={"build_py": BuildWithExamples},
        options={"build_ext": {"parallel": os.cpu_count() or 1}},
    )
