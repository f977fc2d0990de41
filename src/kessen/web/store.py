"""The web app's SQLite store: matches and simulations kept on disk, so a restart of the server loses nothing.

One file (stdlib ``sqlite3``, write-ahead log), opened per operation so that the server's worker threads never share a
connection. The schema carries its version in ``PRAGMA user_version``; a file written by a newer kessen, or one that is
not a kessen store at all, is refused with an :class:`InputError` naming the path, never altered.

A match row holds what replays it exactly (DESIGN.md, "Decisions, notation and saves"): the scenario text, the seed,
the sides played by people and the save file (``kessen-save/2``), whether the battle is over, and whether the AI is
still playing it in the background; a simulation row holds its request, its sides, its state (queued, running,
then done, stopped, cancelled or failed), its progress, its running time and, once ended, its result as JSON. The
chunks of battles a simulation has finished are kept beside it until it ends (as ``kessen sweep`` keeps its chunks),
so that a simulation the server was stopped in the middle of goes on from them.

The store keeps at most a given number of each: making room drops the finished ones least recently touched first,
then unfinished ones left untouched for longer than a given idle time; with no room, :class:`StoreFull`.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, Literal

from kessen.core.errors import InputError, KessenError
from kessen.core.records import record

SCHEMA_VERSION = 4

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    scenario TEXT NOT NULL,
    seed INTEGER NOT NULL,
    people TEXT NOT NULL,
    save TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    playing INTEGER NOT NULL DEFAULT 0
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
    updated REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued',
    error TEXT,
    source TEXT NOT NULL DEFAULT 'scenario',
    sides TEXT NOT NULL DEFAULT '[]',
    seconds REAL NOT NULL DEFAULT 0,
    ai TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS simulation_chunks (
    simulation TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    tally TEXT NOT NULL,
    PRIMARY KEY (simulation, chunk)
);
"""

_MIGRATIONS = {
    # version 1 (phase A) → 2: whether a match is over; a simulation's state, error and scenario name
    1: """
ALTER TABLE matches ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
ALTER TABLE simulations ADD COLUMN status TEXT NOT NULL DEFAULT 'queued';
ALTER TABLE simulations ADD COLUMN error TEXT;
ALTER TABLE simulations ADD COLUMN source TEXT NOT NULL DEFAULT 'scenario';
UPDATE simulations SET status = 'done' WHERE result IS NOT NULL;
""",
    # version 2 → 3 (issue 22): a simulation's sides, running time and finished chunks; an AI match in play
    2: """
ALTER TABLE matches ADD COLUMN playing INTEGER NOT NULL DEFAULT 0;
ALTER TABLE simulations ADD COLUMN sides TEXT NOT NULL DEFAULT '[]';
ALTER TABLE simulations ADD COLUMN seconds REAL NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS simulation_chunks (simulation TEXT NOT NULL, chunk INTEGER NOT NULL, tally TEXT NOT NULL, PRIMARY KEY (simulation, chunk));
""",
    # version 3 → 4 (issue 23): the AI level of each side of a simulation (before: every side greedy)
    3: """
ALTER TABLE simulations ADD COLUMN ai TEXT NOT NULL DEFAULT '[]';
""",
}

SimulationStatus = Literal["queued", "running", "done", "stopped", "cancelled", "failed"]

_UNFINISHED = "status IN ('queued', 'running')"

_SQLITE_HEADER = b"SQLite format 3\x00"


def default_path() -> Path:
    """Where the store lives unless ``--db`` says otherwise: ``$XDG_DATA_HOME/kessen/kessen.sqlite3``, or
    ``~/.local/share/kessen/kessen.sqlite3`` when that variable is unset or not an absolute path (XDG base dirs)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "kessen" / "kessen.sqlite3"


class StoreFull(KessenError):
    """No room for one more match or simulation: every kept one is still in use (429 on the web)."""

    status = 429

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"{what}: the server keeps at most {limit:,}, and none of them can be dropped yet; finish one or try later")
        self.what, self.limit = what, limit


@record
class Room:
    """How many rows a table may keep (*limit*), and how long an unfinished one may lie untouched (*idle*
    seconds) before it may be dropped to make room."""

    limit: int
    idle: float


@record
class MatchRecord:
    """One match as stored: what replays it (scenario text, seed, people's sides, the save file's JSON text), whether
    it is over, and whether the AI is still *playing* it in the background (its save is then the one it started from)."""

    id: str
    ruleset: str
    scenario: str
    seed: int
    people: tuple[str, ...]
    save: str
    finished: bool = False
    playing: bool = False


@record
class SimulationRecord:
    """One simulation as stored: its request (*source* names the scenario) and *sides*, its state, how many battles
    are done, the *seconds* it has run, and its result once ended (or the error that ended it)."""

    id: str
    ruleset: str
    scenario: str
    runs: int
    seed: int
    done: int
    result: dict[str, Any] | None
    status: SimulationStatus = "queued"
    error: str | None = None
    source: str = "scenario"
    sides: tuple[str, ...] = ()
    seconds: float = 0.0
    ai: tuple[tuple[str, str], ...] = ()

    @property
    def unfinished(self) -> bool:
        return self.status in ("queued", "running")


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

    def add_match(
        self, *, ruleset: str, scenario: str, seed: int, people: tuple[str, ...], save: str, finished: bool = False,
        room: Room | None = None, playing: int | None = None,
    ) -> MatchRecord:
        """Keep a new match (its id a random URL-safe token), first making *room* if it is given (else StoreFull).
        With *playing*, the AI is to play it in the background, and it is refused (StoreFull) when that many are
        being played already."""
        record = MatchRecord(_new_id(), ruleset, scenario, seed, people, save, finished, playing is not None)
        now = time.time()
        with self._connect(write=True) as db:
            if playing is not None:
                busy = int(db.execute("SELECT COUNT(*) FROM matches WHERE playing = 1").fetchone()[0])
                if busy >= playing:
                    raise StoreFull("AI battles being played", playing)
            if room is not None:
                _make_room(db, "matches", "finished = 1", room, "open matches")
            db.execute(
                "INSERT INTO matches (id, ruleset, scenario, seed, people, save, created, updated, finished, playing) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, ruleset, scenario, seed, json.dumps(list(people)), save, now, now, int(finished), int(record.playing)),
            )
        return record

    def match(self, match_id: str) -> MatchRecord | None:
        """The match with this id, or None."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, ruleset, scenario, seed, people, save, finished, playing FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
        if row is None:
            return None
        return MatchRecord(row[0], row[1], row[2], row[3], tuple(json.loads(row[4])), row[5], bool(row[6]), bool(row[7]))

    def update_match(self, match_id: str, *, save: str, finished: bool = False) -> bool:
        """Replace a match's save file (after a decision or an undo, or once the AI has played it in the background);
        False when there is no such match."""
        with self._connect(write=True) as db:
            changed = db.execute(
                "UPDATE matches SET save = ?, finished = ?, playing = 0, updated = ? WHERE id = ?", (save, int(finished), time.time(), match_id)
            ).rowcount
        return changed == 1

    def playing_matches(self) -> list[str]:
        """The ids of the matches the AI is to play in the background (a restarted server plays them), oldest first."""
        with self._connect() as db:
            rows = db.execute("SELECT id FROM matches WHERE playing = 1 ORDER BY created, rowid").fetchall()
        return [row[0] for row in rows]

    def count_matches(self) -> int:
        """How many matches are kept (the server limits the open ones)."""
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM matches").fetchone()[0])

    # --- simulations -----------------------------------------------------------------------------------

    def add_simulation(
        self, *, ruleset: str, scenario: str, runs: int, seed: int, source: str = "scenario", sides: tuple[str, ...] = (),
        room: Room | None = None, waiting: int | None = None, ai: tuple[tuple[str, str], ...] = (),
    ) -> SimulationRecord:
        """Keep a new simulation request, nothing done yet, first making *room* if given; with *waiting*, refuse
        (StoreFull) when that many are already queued or running."""
        record = SimulationRecord(_new_id(), ruleset, scenario, runs, seed, 0, None, source=source, sides=sides, ai=ai)
        now = time.time()
        with self._connect(write=True) as db:
            if waiting is not None:
                busy = int(db.execute(f"SELECT COUNT(*) FROM simulations WHERE {_UNFINISHED}").fetchone()[0])
                if busy >= waiting:
                    raise StoreFull("simulations waiting or running", waiting)
            if room is not None:
                _make_room(db, "simulations", f"NOT {_UNFINISHED}", room, "simulations")
            db.execute(
                "INSERT INTO simulations (id, ruleset, scenario, runs, seed, done, result, created, updated, status, error, source, sides, seconds, ai) "
                "VALUES (?, ?, ?, ?, ?, 0, NULL, ?, ?, 'queued', NULL, ?, ?, 0, ?)",
                (record.id, ruleset, scenario, runs, seed, now, now, source, json.dumps(list(sides)), json.dumps([list(p) for p in ai])),
            )
        return record

    def simulation(self, simulation_id: str) -> SimulationRecord | None:
        """The simulation with this id, or None."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, ruleset, scenario, runs, seed, done, result, status, error, source, sides, seconds, ai FROM simulations WHERE id = ?",
                (simulation_id,),
            ).fetchone()
        if row is None:
            return None
        result = None if row[6] is None else json.loads(row[6])
        return SimulationRecord(
            row[0], row[1], row[2], row[3], row[4], row[5], result, row[7], row[8], row[9], tuple(json.loads(row[10])), row[11],
            tuple((side, level) for side, level in json.loads(row[12])),
        )

    def record_chunk(self, simulation_id: str, *, chunk: int, tally: dict[str, Any], done: int, seconds: float) -> bool:
        """Keep a finished chunk of an unfinished simulation (it is running), with the battles now *done* and the
        *seconds* it has run; False when it is no longer unfinished (cancelled, or dropped)."""
        with self._connect(write=True) as db:
            changed = db.execute(
                f"UPDATE simulations SET status = 'running', done = ?, seconds = ?, updated = ? WHERE id = ? AND {_UNFINISHED}",
                (done, seconds, time.time(), simulation_id),
            ).rowcount
            if changed:
                db.execute("INSERT OR REPLACE INTO simulation_chunks VALUES (?, ?, ?)", (simulation_id, chunk, json.dumps(tally)))
        return changed == 1

    def chunks(self, simulation_id: str) -> dict[int, dict[str, Any]]:
        """The tallies (as JSON data) of the chunks an unfinished simulation has finished, by chunk index."""
        with self._connect() as db:
            rows = db.execute("SELECT chunk, tally FROM simulation_chunks WHERE simulation = ?", (simulation_id,)).fetchall()
        return {int(chunk): json.loads(tally) for chunk, tally in rows}

    def start_simulation(self, simulation_id: str) -> bool:
        """An unfinished simulation is being played (again); False when it is no longer unfinished."""
        with self._connect(write=True) as db:
            changed = db.execute(
                f"UPDATE simulations SET status = 'running', updated = ? WHERE id = ? AND {_UNFINISHED}", (time.time(), simulation_id)
            ).rowcount
        return changed == 1

    def end_simulation(
        self, simulation_id: str, *, status: SimulationStatus, done: int, result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> bool:
        """End an unfinished simulation: done, stopped (its time ran out), cancelled or failed, with the battles
        *done* and their *result*, or the *error* line; its chunks go. False when it had ended already (or is gone)."""
        with self._connect(write=True) as db:
            changed = db.execute(
                f"UPDATE simulations SET status = ?, done = ?, result = ?, error = ?, updated = ? WHERE id = ? AND {_UNFINISHED}",
                (status, done, None if result is None else json.dumps(result), error, time.time(), simulation_id),
            ).rowcount
            db.execute("DELETE FROM simulation_chunks WHERE simulation = ?", (simulation_id,))
        return changed == 1

    def unfinished_simulations(self) -> list[str]:
        """The ids of the simulations queued or running (a restarted server goes on with them), oldest first."""
        with self._connect() as db:
            rows = db.execute(f"SELECT id FROM simulations WHERE {_UNFINISHED} ORDER BY created, rowid").fetchall()
        return [row[0] for row in rows]

    # --- the file --------------------------------------------------------------------------------------

    @contextmanager
    def _connect(self, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """A connection in one transaction, committed on success and rolled back on an error. With *write*, the
        transaction takes the file's write lock before its first read (``BEGIN IMMEDIATE``), so that what it counts
        is still true when it inserts: two servers' threads never both take the last place."""
        with closing(sqlite3.connect(self.path, timeout=30)) as db:
            with db:
                if write:
                    db.execute("BEGIN IMMEDIATE")
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
                if version == 0:
                    _run_script(db, _SCHEMA)
                for older in range(version or SCHEMA_VERSION, SCHEMA_VERSION):
                    _run_script(db, _MIGRATIONS[older])
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


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """The statements of *script* inside the open transaction (``executescript`` would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _make_room(db: sqlite3.Connection, table: str, finished: str, room: Room, what: str) -> None:
    """Drop one row of *table* when it holds *room.limit* or more: the finished one least recently touched, else
    the unfinished one untouched for longest if it has lain idle past *room.idle*; else StoreFull."""
    count = int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    if count < room.limit:
        return
    for where, args in ((finished, ()), (f"NOT ({finished}) AND updated < ?", (time.time() - room.idle,))):
        extra = count - room.limit + 1
        doomed = db.execute(f"SELECT id FROM {table} WHERE {where} ORDER BY updated, rowid LIMIT ?", (*args, extra)).fetchall()
        _drop(db, table, doomed)
        count -= len(doomed)
        if count < room.limit:
            return
    raise StoreFull(what, room.limit)


def _drop(db: sqlite3.Connection, table: str, ids: list[tuple[str]]) -> None:
    db.executemany(f"DELETE FROM {table} WHERE id = ?", ids)
    if table == "simulations":
        db.executemany("DELETE FROM simulation_chunks WHERE simulation = ?", ids)


def _new_id() -> str:
    return secrets.token_urlsafe(12)
