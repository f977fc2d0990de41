"""Every test keeps its saved games and data in a folder of its own, never the user's data folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def saves_folder_of_the_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """XDG_DATA_HOME for this test and the kessen processes it starts (the per-user data folder, kessen.cli.savefiles)."""
    home = tmp_path_factory.mktemp("xdg-data")
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home
