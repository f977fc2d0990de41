"""Every test keeps its saved games and data in a folder of its own, never the user's data folder; ``toy`` registers
the toy race of tests/toy for a test; the run says which engine it tests (issue 26: the compiled one whenever it is
built and current, as for a user; ``KESSEN_ENGINE=pure`` tests the Python source)."""

from __future__ import annotations

import signal
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from kessen.rulesets import register, unregister


def pytest_configure(config: pytest.Config) -> None:
    """Choose the engine once, before any worker starts: a fallback to pure Python is said once, and the workers and
    the ``kessen`` processes the tests start inherit the choice (``kessen.bootstrap``)."""
    import kessen.bootstrap  # noqa: F401


def pytest_report_header(config: pytest.Config) -> str:
    from kessen.bootstrap import CHOICE, describe

    return f"kessen: {describe(CHOICE)}"


@pytest.fixture(autouse=True)
def saves_folder_of_the_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """XDG_DATA_HOME for this test and the kessen processes it starts (the per-user data folder, kessen.cli.savefiles)."""
    home = tmp_path_factory.mktemp("xdg-data")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def ctrl_c_as_python_sets_it(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that leaves Ctrl-C ignored (or handled, or blocked) in the pytest worker would pass that on to every ``kessen``
    process the worker starts later, and the Ctrl-C tests would see their SIGINT ignored: put Python's handler back
    after each test and say which test left it changed."""
    yield
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        warnings.warn(f"{request.node.nodeid} left SIGINT's handler changed", stacklevel=1)
    if signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
        warnings.warn(f"{request.node.nodeid} left SIGINT blocked", stacklevel=1)


@pytest.fixture
def toy() -> Iterator[str]:
    """The toy race of tests/toy as ruleset ``toy`` for one test: added through ``kessen.rulesets.register`` (the one
    step of the fifth-ruleset checklist outside the ruleset's package), forgotten after."""
    register("toy", "tests.toy")
    yield "toy"
    unregister("toy")
