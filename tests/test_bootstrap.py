"""Which engine runs (issue 26): the compiled one when it is built and current, else the Python source with one line
saying why; ``KESSEN_ENGINE`` chooses. A made-up build checks each case; the last tests use the real one."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from kessen import bootstrap
from kessen.bootstrap import CHOICE, Choice, choose, describe, install, say

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = EXTENSION_SUFFIXES[0]


def _write_build(tmp_path: Path, *, beside: bool = False, suffix: str = SUFFIX) -> tuple[Path, Path]:
    """A package with one compiled module ``kessen.dice.dist`` (its source and a module it imports) and the manifest
    of its build: beside the package (an installed build) or in a build folder (``make compiled``)."""
    package = tmp_path / "src" / "kessen"
    (package / "dice").mkdir(parents=True)
    (package / "dice" / "dist.py").write_text("X = 1\n")
    (package / "core.py").write_text("Y: int = 2\n")
    build = tmp_path / "compiled"
    compiled = package if beside else build / "kessen"
    compiled.mkdir(parents=True, exist_ok=True)
    sources = {}
    for name in ("dice/dist.py", "core.py"):
        status = (package / name).stat()
        sources[name] = [status.st_size, status.st_mtime_ns, hashlib.sha256((package / name).read_bytes()).hexdigest()]
    manifest = {"format": 1, "suffix": suffix, "modules": ["kessen.dice.dist"], "shared": ["abc__mypyc"], "sources": sources}
    (compiled / "compiled.json").write_text(json.dumps(manifest))
    for extension in (compiled / "dice" / f"dist{suffix}", compiled.parent / f"abc__mypyc{suffix}"):
        extension.parent.mkdir(parents=True, exist_ok=True)
        extension.write_bytes(b"")  # the files are looked for, not loaded
    return package, build


def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    package, build = _write_build(tmp_path)
    chosen = choose(package, build, "auto")
    assert chosen == Choice("compiled", "", {
        "kessen.dice.dist": str(build / "kessen" / "dice" / f"dist{SUFFIX}"), "abc__mypyc": str(build / f"abc__mypyc{SUFFIX}"),
    })
    assert describe(chosen) == "compiled engine (1 modules compiled with mypyc)"


def test_an_edited_source_is_never_run_compiled(tmp_path: Path) -> None:
    """A developer edits a compiled module, or a module it imports: the source runs until the build is made again."""
    package, build = _write_build(tmp_path)
    (package / "core.py").write_text("Y: int = 3\n")
    assert choose(package, build, "auto") == Choice(
        "pure", "kessen/core.py changed since the compiled engine was built (make compiled)", {}
    )
    with pytest.raises(ImportError, match=r"^KESSEN_ENGINE=compiled: kessen/core.py changed since"):
        choose(package, build, "compiled")


def test_a_source_whose_time_moved_but_not_its_text_is_current(tmp_path: Path) -> None:
    """A checkout or a touch moves a file's time: its sha256 decides."""
    package, build = _write_build(tmp_path)
    os.utime(package / "dice" / "dist.py", ns=(1, 1))
    assert choose(package, build, "auto").engine == "compiled"
    (package / "dice" / "dist.py").write_text("X = 2\n")  # the same size, another text
    assert choose(package, build, "auto").reason.startswith("kessen/dice/dist.py changed")


def test_a_deleted_source_makes_the_build_stale(tmp_path: Path) -> None:
    package, build = _write_build(tmp_path)
    (package / "core.py").unlink()
    assert choose(package, build, "auto").reason.startswith("kessen/core.py changed")


def test_a_build_missing_a_compiled_module_runs_the_source(tmp_path: Path) -> None:
    package, build = _write_build(tmp_path)
    (build / "kessen" / "dice" / f"dist{SUFFIX}").unlink()
    assert choose(package, build, "auto").reason == (
        f"the compiled engine is incomplete ({build / 'kessen' / 'dice' / f'dist{SUFFIX}'} is missing; make compiled)"
    )


def test_no_build_or_another_python_runs_the_source(tmp_path: Path) -> None:
    package, build = _write_build(tmp_path, suffix=".cpython-27-x86_64-linux-gnu.so")
    assert choose(package, build, "auto").reason == (
        "the compiled engine was built for another Python (.cpython-27-x86_64-linux-gnu.so; make compiled)"
    )
    shutil.rmtree(build)
    assert choose(package, build, "auto") == Choice("pure", "the compiled engine is not built (make compiled)", {})
    with pytest.raises(ImportError, match="KESSEN_ENGINE=compiled: the compiled engine is not built"):
        choose(package, build, "compiled")


def test_kessen_engine_pure_runs_the_source_and_names_no_other_choice(tmp_path: Path) -> None:
    package, build = _write_build(tmp_path)
    assert choose(package, build, "pure") == Choice("pure", "KESSEN_ENGINE=pure", {})
    with pytest.raises(ImportError, match=r"KESSEN_ENGINE=fast: must be one of auto, compiled, pure"):
        choose(package, build, "fast")


def test_an_installed_build_runs_its_extension_modules_or_on_request_their_sources(tmp_path: Path) -> None:
    """A wheel built with KESSEN_COMPILE=1 has its extension modules beside their sources (Python would load those
    first): KESSEN_ENGINE=pure points each compiled module at its source."""
    package, build = _write_build(tmp_path, beside=True)
    (package / "core.py").write_text("edited in site-packages\n")  # an installed build is not checked against its files
    assert choose(package, build, "auto").engine == "compiled"
    assert choose(package, build, "pure").files == {"kessen.dice.dist": str(package / "dice" / "dist.py")}


def test_the_hook_loads_a_module_from_the_file_chosen_for_it(tmp_path: Path) -> None:
    (tmp_path / "elsewhere.py").write_text("WHERE = 'the chosen file'\n")
    chosen = install(Choice("pure", "test", {"kessen_test_hooked": str(tmp_path / "elsewhere.py")}))
    try:
        import kessen_test_hooked  # type: ignore[import-not-found]

        assert kessen_test_hooked.WHERE == "the chosen file" and chosen.engine == "pure"
    finally:
        sys.meta_path[:] = [hook for hook in sys.meta_path if getattr(hook, "files", None) != chosen.files]
        sys.modules.pop("kessen_test_hooked", None)


def test_a_shared_library_that_does_not_load_is_a_fallback_with_its_reason(tmp_path: Path) -> None:
    broken = tmp_path / f"broken__mypyc{SUFFIX}"
    broken.write_bytes(b"not a shared library")
    before = list(sys.meta_path)
    chosen = install(Choice("compiled", "", {"broken__mypyc": str(broken)}))
    assert chosen.engine == "pure" and chosen.reason.startswith("the compiled engine does not load (")
    assert sys.meta_path == before
    with pytest.raises(ImportError, match=r"^KESSEN_ENGINE=compiled: the compiled engine does not load \("):
        install(Choice("compiled", "", {"broken__mypyc": str(broken)}), required=True)
    assert sys.meta_path == before


def test_the_fallback_is_said_once_and_the_processes_started_stay_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("KESSEN_ENGINE", raising=False)
    say(Choice("pure", "the compiled engine is not built (make compiled)", {}), "auto")
    assert capsys.readouterr().err == "kessen: running the pure-Python engine: the compiled engine is not built (make compiled)\n"
    assert os.environ["KESSEN_ENGINE"] == "pure"
    say(Choice("pure", "KESSEN_ENGINE=pure", {}), "pure")
    assert capsys.readouterr().err == ""


# --- the real build (make compiled) ----------------------------------------------------------------------------


def _kessen_from(package_root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "KESSEN_ENGINE"} | {"PYTHONPATH": str(package_root), **env}
    return subprocess.run([sys.executable, "-c", *args], capture_output=True, text=True, env=environ, timeout=120, cwd=package_root)


def test_this_checkout_runs_the_compiled_engine_when_it_is_built() -> None:
    """``import kessen`` loads the compiled modules from the build, the rest from ``src/`` (no PYTHONPATH)."""
    if CHOICE.engine != "compiled":
        pytest.skip(f"the compiled engine does not run here: {CHOICE.reason}")
    import kessen.core.geometry
    import kessen.io.files

    assert kessen.core.geometry.__file__.endswith(SUFFIX) and kessen.core.geometry.__file__ == CHOICE.files["kessen.core.geometry"]
    assert Path(kessen.io.files.__file__).parent.parent == ROOT / "src" / "kessen"


def test_an_edit_to_a_copy_of_the_source_falls_back_once_for_a_whole_process_tree(tmp_path: Path) -> None:
    """A developer edits a compiled module and runs kessen: the source runs, one line says why, and the processes it
    starts (a sweep's workers, a test's kessen) run the source without saying it again."""
    if CHOICE.engine != "compiled":
        pytest.skip(f"the compiled engine does not run here: {CHOICE.reason}")
    copy = tmp_path / "kessen"
    shutil.copytree(ROOT / "src" / "kessen", copy, ignore=shutil.ignore_patterns("static", "__pycache__"))
    untouched = _kessen_from(tmp_path, "import kessen.core.geometry as g; print(g.__file__)")
    assert (untouched.stdout.strip(), untouched.stderr) == (CHOICE.files["kessen.core.geometry"], "")
    with open(copy / "dice" / "dist.py", "a", encoding="utf-8") as edited:
        edited.write("# an edit\n")
    child = "import subprocess, sys; subprocess.run([sys.executable, '-c', 'import kessen'], check=True)"
    done = _kessen_from(tmp_path, f"import kessen.core.geometry as g; print(g.__file__); {child}")
    assert done.stdout.strip() == str(copy / "core" / "geometry.py")
    assert done.stderr == (
        "kessen: running the pure-Python engine: kessen/dice/dist.py changed since the compiled engine was built "
        "(make compiled)\n"
    )
    asked = _kessen_from(tmp_path, "import kessen", KESSEN_ENGINE="compiled")
    assert asked.returncode == 1 and "ImportError: KESSEN_ENGINE=compiled: kessen/dice/dist.py changed" in asked.stderr
    assert bootstrap.ENGINE == "compiled"
