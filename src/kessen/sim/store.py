"""The SQLite results store of sweeps: each sweep (its file's text and hash), its cells, and its chunks with their
seeds and tallies, written as each chunk finishes, so an interrupted sweep resumes where it stopped.

A sweep is named by its hash (the sweep file's text and its scenarios' texts): the same file run again finds its
chunks; a changed file (or scenario) is a new sweep, never mixed with the old one's results.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from kessen.core.errors import InputError
from kessen.sim.chunks import Chunk
from kessen.sim.sweepfile import Cell, Sweep
from kessen.sim.tally import Tally

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS kessen_store (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sweeps (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    text TEXT NOT NULL,
    seed TEXT NOT NULL,
    runs INTEGER NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cells (
    sweep INTEGER NOT NULL REFERENCES sweeps(id),
    cell INTEGER NOT NULL,
    label TEXT NOT NULL,
    scenario TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    settings TEXT NOT NULL,
    swapped INTEGER NOT NULL,
    sides TEXT NOT NULL,
    PRIMARY KEY (sweep, cell)
);
CREATE TABLE IF NOT EXISTS chunks (
    sweep INTEGER NOT NULL REFERENCES sweeps(id),
    cell INTEGER NOT NULL,
    chunk INTEGER NOT NULL,
    first_battle INTEGER NOT NULL,
    battles INTEGER NOT NULL,
    seed TEXT NOT NULL,
    battle_seeds TEXT NOT NULL,
    tally TEXT NOT NULL,
    PRIMARY KEY (sweep, cell, chunk)
);
"""


class Store:
    """A results store file (made when missing); every write is committed at once."""

    def __init__(self, path: str) -> None:
        self.path = path
        # as kessen serve --db refuses them (issue 22 §3): the folder is not made, it must be there
        if Path(path).is_dir():
            raise InputError("--db", path, "is a folder; give a file path")
        if not Path(path).parent.is_dir():
            raise InputError("--db", path, "its folder does not exist")
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and "kessen_store" not in tables:
                self._db.close()
                raise InputError("--db", path, "not a sweep results store: a SQLite file of other tables (kessen serve's, or another program's)")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            with self._errors():
                self._db.executescript(_SCHEMA)
                row = self._db.execute("SELECT version FROM kessen_store").fetchone()
                if row is None:
                    self._db.execute("INSERT INTO kessen_store VALUES (?)", (SCHEMA_VERSION,))
                elif row[0] != SCHEMA_VERSION:
                    raise InputError("--db", path, f"a results store of version {row[0]}, expected {SCHEMA_VERSION}")
        except sqlite3.Error as error:
            raise InputError("--db", path, f"not a sweep results store ({error})") from None

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            raise InputError("--db", self.path, f"the results store failed ({error})") from None

    def sweep_id(self, sweep: Sweep) -> int:
        """The sweep's id in the store: found by its hash, or recorded now with its cells."""
        with self._errors():
            row = self._db.execute("SELECT id FROM sweeps WHERE hash = ?", (sweep.hash,)).fetchone()
            if row is not None:
                return int(row[0])
            self._db.execute("BEGIN")
            cursor = self._db.execute(
                "INSERT INTO sweeps (hash, path, text, seed, runs, created) VALUES (?, ?, ?, ?, ?, ?)",
                (sweep.hash, sweep.path, sweep.text, str(sweep.spec.seed), sweep.spec.runs,
                 datetime.now(timezone.utc).isoformat(timespec="seconds")),
            )
            ident = int(cursor.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO cells VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(ident, c.index, c.label(), c.scenario, c.ruleset, json.dumps(c.settings), int(c.swapped), json.dumps(c.sides))
                 for c in sweep.cells],
            )
            self._db.execute("COMMIT")
            return ident

    def tallies(self, sweep: int) -> dict[tuple[int, int], Tally]:
        """The tallies of every chunk of the sweep already played, by (cell, chunk)."""
        with self._errors():
            rows = self._db.execute("SELECT cell, chunk, tally FROM chunks WHERE sweep = ?", (sweep,)).fetchall()
        return {(int(cell), int(chunk)): Tally.from_json(json.loads(tally)) for cell, chunk, tally in rows}

    def record(self, sweep: int, cell: Cell, chunk: Chunk, *, seed: int, battle_seeds: tuple[int, ...], tally: Tally) -> None:
        """Keep one finished chunk: its seed (the sweep's seed and spawn key), its battles' seeds and its tally."""
        source = json.dumps({"entropy": str(seed), "spawn_key": [cell.index, chunk.index]})
        with self._errors():
            self._db.execute(
                "INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (sweep, cell.index, chunk.index, chunk.first, chunk.size, source,
                 json.dumps([str(s) for s in battle_seeds]), json.dumps(tally.to_json())),
            )

    def close(self) -> None:
        self._db.close()
