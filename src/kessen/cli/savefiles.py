"""Where a game a person plays is kept when no ``--save`` was given: a new file in the per-user data folder.

[DECISION] The folder is the platform's per-user data folder, so that saved games neither litter the folder a
game was started in nor land in a repository: ``$XDG_DATA_HOME/kessen/saves`` (by default
``~/.local/share/kessen/saves``) on Linux and other Unix systems, ``~/Library/Application Support/kessen/saves``
on macOS, ``%LOCALAPPDATA%\\kessen\\saves`` on Windows. A file is never overwritten: each stopped game gets a new
name, ``<scenario>-<date>-<time>.json`` (``-2``, ``-3``, ... when that one is taken), printed when it is saved.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from kessen.core.errors import InputError
from kessen.io.files import check_output


def saves_folder() -> Path:
    """The per-user folder of games saved without ``--save``."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "kessen" / "saves"


def default_save(scenario_source: str) -> str:
    """A new, writable save file for a game of *scenario_source*, checked before the game starts (the folder made
    if need be); if it cannot be made, the error says to give ``--save``."""
    folder = saves_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError("--save", str(folder), f"cannot make the folder for saved games ({(error.strerror or str(error)).lower()}); give --save FILE") from None
    stem = Path(scenario_source).stem or "game"
    name = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, n = folder / f"{name}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{name}-{n}.json"
    check_output(str(path), "--save")
    return str(path)
