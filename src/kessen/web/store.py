"""The web app's SQLite store: matches and simulations kept on disk, so a restart of the server loses nothing.

One file (stdlib ``sqlite3``, write-ahead log), opened per operation so that the server's worker threads never share a
connection. The schema carries its version in ``PRAGMA user_version``; a file written by a newer kessen, or one that is
not a kessen store at all, is refused with an :class:`InputError` naming the path, never altered.

A match row holds what replays it exactly (DESIGN.md, "Decisions, notation and saves"): the scenario text, the seed,
the sides played by people and the save file; a simulation row holds its request, its progress and, when done, its
result as JSON. Both are written by the Match and simulation parts of the page.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kessen.core.errors import InputError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    scenario TEXT NOT NULL,
    seed INTEGER NOT NULL,
    people TEXT NOT NULL,
    save TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS simulations (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    scenario TEXT NOT NULL,
    runs INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
"""

_SQLITE_HEADER = b"SQLite format 3\x00"


def default_path() -> Path:
    """Where the store lives unless ``--db`` says otherwise: ``$XDG_DATA_HOME/kessen/kessen.sqlite3``, or
    ``~/.local/share/kessen/kessen.sqlite3`` when that variable is unset or not an absolute path (XDG base dirs)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "kessen" / "kessen.sqlite3"


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match as stored: what replays it (scenario text, seed, people's sides, the save file's JSON text)."""

    id: str
    ruleset: str
    scenario: str
    seed: int
    people: tuple[str, ...]
    save: str


@dataclass(frozen=True, slots=True)
class SimulationRecord:
    """One simulation as stored: its request, how many battles are done, and its result once finished."""

    id: str
    ruleset: str
    scenario: str
    runs: int
    seed: int
    done: int
    result: dict[str, Any] | None


class Store:
    """The SQLite file of one server; :meth:`open` validates the path and creates or checks the schema."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def open(cls, path: str | Path | None = None, *, field: str = "--db") -> Store:
        """The store at *path* (default :func:`default_path`, its folder created), ready for use.

        Refused with an :class:`InputError` on *field*: a folder, a missing parent folder (for a path given),
        a file that is not SQLite, a SQLite file holding other tables, a newer schema, or a file that cannot
        be written.
        """
        chosen = default_path() if path is None else Path(path)
        if path is None:
            try:
                chosen.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise InputError(field, str(chosen.parent), f"cannot create the data folder ({error.strerror})") from None
        _check_path(chosen, field)
        store = cls(chosen)
        store._migrate(field)
        return store

    # --- matches ---------------------------------------------------------------------------------------

    def add_match(self, *, ruleset: str, scenario: str, seed: int, people: tuple[str, ...], save: str) -> MatchRecord:
        """Keep a new match; its id is a random URL-safe token."""
        record = MatchRecord(_new_id(), ruleset, scenario, seed, people, save)
        now = time.time()
        with self._connect() as db:
            db.execute(
                "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, ruleset, scenario, seed, json.dumps(list(people)), save, now, now),
            )
        return record

    def match(self, match_id: str) -> MatchRecord | None:
        """The match with this id, or None."""
        with self._connect() as db:
            row = db.execute("SELECT id, ruleset, scenario, seed, people, save FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            return None
        return MatchRecord(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])), row[5])

    def update_match(self, match_id: str, *, save: str) -> bool:
        """Replace a match's save file (after a decision or an undo); False when there is no such match."""
        with self._connect() as db:
            changed = db.execute("UPDATE matches SET save = ?, updated = ? WHERE id = ?", (save, time.time(), match_id)).rowcount
        return changed == 1

    def count_matches(self) -> int:
        """How many matches are kept (the server limits the open ones)."""
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM matches").fetchone()[0])

    # --- simulations -----------------------------------------------------------------------------------

    def add_simulation(self, *, ruleset: str, scenario: str, runs: int, seed: int) -> SimulationRecord:
        """Keep a new simulation request, nothing done yet."""
        record = SimulationRecord(_new_id(), ruleset, scenario, runs, seed, 0, None)
        now = time.time()
        with self._connect() as db:
            db.execute(
                "INSERT INTO simulations VALUES (?, ?, ?, ?, ?, 0, NULL, ?, ?)",
                (record.id, ruleset, scenario, runs, seed, now, now),
            )
        return record

    def simulation(self, simulation_id: str) -> SimulationRecord | None:
        """The simulation with this id, or None."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, ruleset, scenario, runs, seed, done, result FROM simulations WHERE id = ?", (simulation_id,)
            ).fetchone()
        if row is None:
            return None
        return SimulationRecord(row[0], row[1], row[2], row[3], row[4], row[5], None if row[6] is None else json.loads(row[6]))

    def record_progress(self, simulation_id: str, *, done: int, result: dict[str, Any] | None = None) -> bool:
        """How many battles are done, and the result once all are; False when there is no such simulation."""
        with self._connect() as db:
            changed = db.execute(
                "UPDATE simulations SET done = ?, result = ?, updated = ? WHERE id = ?",
                (done, None if result is None else json.dumps(result), time.time(), simulation_id),
            ).rowcount
        return changed == 1

    # --- the file --------------------------------------------------------------------------------------

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=30)) as db:
            with db:  # one transaction: committed on success, rolled back on an error
                yield db

    def _migrate(self, field: str) -> None:
        try:
            with self._connect() as db:
                version = int(db.execute("PRAGMA user_version").fetchone()[0])
                if version > SCHEMA_VERSION:
                    raise InputError(field, str(self.path), f"written by a newer kessen (store version {version})")
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if version == 0 and tables:
                    raise InputError(field, str(self.path), "a SQLite file of another program (it has tables but no kessen store)")
                db.execute("PRAGMA journal_mode = WAL")
                db.executescript(_SCHEMA)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as error:
            raise InputError(field, str(self.path), f"cannot use the file as a SQLite store ({error})") from None


def _check_path(path: Path, field: str) -> None:
    if path.is_dir():
        raise InputError(field, str(path), "is a folder; give a file path")
    if not path.parent.is_dir():
        raise InputError(field, str(path), "its folder does not exist")
    if path.exists():
        try:
            with path.open("rb") as file:
                header = file.read(len(_SQLITE_HEADER))
        except OSError as error:
            raise InputError(field, str(path), f"cannot read the file ({error.strerror})") from None
        if header and header != _SQLITE_HEADER:
            raise InputError(field, str(path), "not a SQLite file")
        if not os.access(path, os.W_OK):
            raise InputError(field, str(path), "the file is not writable")
    elif not os.access(path.parent, os.W_OK):
        raise InputError(field, str(path), "its folder is not writable")


def _new_id() -> str:
    return secrets.token_urlsafe(12)
