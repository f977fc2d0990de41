"""Build the C prototype of battlehost's legal-move geometry (``native/bhmoves.c``) as ``native/_bhmoves*.so``:
``python -m native.build`` (``make native``). Needs a C compiler and setuptools (the ``native`` extra); the engine never
loads it (issue 26: a measured prototype of the hottest path, beside ``benchmarks/native_moves.py``).
"""

from __future__ import annotations

import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "bhmoves.c"
FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math"]
"""-ffp-contract=off: no product and sum fused into one rounding, so that every float operation rounds as Python's."""


def built() -> Path:
    """The extension for this interpreter, built now unless it is newer than its source."""
    target = HERE / f"_bhmoves{sysconfig.get_config_var('EXT_SUFFIX')}"
    if target.exists() and target.stat().st_mtime >= SOURCE.stat().st_mtime:
        return target
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    extension = Extension("_bhmoves", [str(SOURCE)], extra_compile_args=FLAGS, libraries=["m"])
    with tempfile.TemporaryDirectory() as folder:
        command = build_ext(Distribution({"name": "bhmoves", "ext_modules": [extension]}))
        command.build_temp, command.build_lib = folder, folder
        command.ensure_finalized()
        command.run()
        Path(command.get_ext_fullpath("_bhmoves")).replace(target)
    return target


if __name__ == "__main__":
    print(built(), file=sys.stdout)
