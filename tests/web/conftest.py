"""Fixtures of the web tests: a store in a temporary folder and FastAPI's TestClient on the app; for the browser
tests, a real ``kessen serve`` and Debian's headless Chromium driven by Playwright.

Chromium is ``/usr/bin/chromium`` (``make test`` installs it with apt-get when missing); without it the browser tests
fail, never skip. Each browser test writes a full-page screenshot under ``out/screenshots/`` (git-ignored) for a
person to look at, and fails on any error in the browser's console.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import BrowserContext, Page, sync_playwright

from kessen.web.app import create_app
from kessen.web.store import Store
from tests.web.clients import local


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "kessen.sqlite3")


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with local(create_app(store), raise_server_exceptions=False) as test_client:
        yield test_client


CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
KESSEN = Path(sys.executable).parent / "kessen"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``kessen serve --port 0`` in a subprocess; yields the address it printed."""
    db = tmp_path_factory.mktemp("store") / "k.sqlite3"
    process = subprocess.Popen([str(KESSEN), "serve", "--port", "0", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert " open http://127.0.0.1:" in line, line + (process.stderr.read() if process.stderr else "")
    yield line.split("open ", 1)[1].split(" ", 1)[0].rstrip("/")
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="session")
def context() -> Iterator[BrowserContext]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package (apt-get install chromium)")
    profile = tempfile.mkdtemp(prefix="kessen-chromium-")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=FLAGS, viewport={"width": 1440, "height": 1000}, locale="en-GB"
        )
        yield browser
        browser.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(context: BrowserContext, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh tab; after the test a full-page screenshot, and no error in the browser's console."""
    tab = context.new_page()
    problems: list[str] = []
    refusals = ("the server responded with a status of 422", "the server responded with a status of 429")  # shown by the page
    tab.on("console", lambda message: problems.append(message.text) if message.type == "error" and not any(r in message.text for r in refusals) else None)
    tab.on("pageerror", lambda error: problems.append(str(error)))
    yield tab
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / f"{request.node.name}.png"), full_page=True)
    tab.close()
    assert not problems, problems
