"""The SQLite store: what it keeps survives a reopen (a server restart), and a bad --db path is refused by name."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kessen.core.errors import InputError
from kessen.web.store import SCHEMA_VERSION, Store, default_path


def test_matches_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    first = Store.open(path)
    kept = first.add_match(ruleset="battlehost", scenario="name = 'x'", seed=7, people=("good",), save='{"decisions": []}')
    assert first.update_match(kept.id, save='{"decisions": ["attack orc-2"]}')
    again = Store.open(path)
    found = again.match(kept.id)
    assert found is not None
    assert (found.ruleset, found.scenario, found.seed, found.people, found.save) == ("battlehost", "name = 'x'", 7, ("good",), '{"decisions": ["attack orc-2"]}')
    assert again.count_matches() == 1
    assert again.match("no-such-id") is None
    assert not again.update_match("no-such-id", save="{}")


def test_simulations_keep_progress_and_result(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    kept = Store.open(path).add_simulation(ruleset="legions", scenario="name = 'y'", runs=1000, seed=3)
    assert Store.open(path).record_progress(kept.id, done=400)
    midway = Store.open(path).simulation(kept.id)
    assert midway is not None and (midway.done, midway.result) == (400, None)
    Store.open(path).record_progress(kept.id, done=1000, result={"wins": {"a": 612, "b": 388}})
    done = Store.open(path).simulation(kept.id)
    assert done is not None and (done.runs, done.seed, done.done, done.result) == (1000, 3, 1000, {"wins": {"a": 612, "b": 388}})
    assert Store.open(path).simulation("nope") is None and not Store.open(path).record_progress("nope", done=1)


def test_ids_are_distinct_url_safe_tokens(store: Store) -> None:
    ids = {store.add_match(ruleset="r", scenario="", seed=1, people=(), save="{}").id for _ in range(50)}
    assert len(ids) == 50 and all(i.replace("-", "").replace("_", "").isalnum() for i in ids)


def test_the_schema_version_is_recorded(store: Store) -> None:
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"matches", "simulations"}


def test_default_path_follows_xdg_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "kessen" / "kessen.sqlite3"
    store = Store.open()
    assert store.path == default_path() and store.path.exists()
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # not absolute: ignored, as the XDG spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "share" / "kessen" / "kessen.sqlite3"


def _refusal(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        Store.open(path)
    assert caught.value.field == "--db" and caught.value.value == str(path)
    return caught.value.reason


def test_a_folder_is_refused(tmp_path: Path) -> None:
    assert _refusal(tmp_path) == "is a folder; give a file path"


def test_a_missing_folder_is_refused(tmp_path: Path) -> None:
    assert _refusal(tmp_path / "no" / "k.sqlite3") == "its folder does not exist"


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my battle notes\n")
    assert _refusal(path) == "not a SQLite file"
    assert path.read_text() == "my battle notes\n"


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    assert _refusal(path).startswith("a SQLite file of another program")
    with sqlite3.connect(path) as db:
        assert [row[0] for row in db.execute("SELECT name FROM sqlite_master")] == ["invoices"]


def test_a_newer_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    Store.open(path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    assert _refusal(path) == f"written by a newer kessen (store version {SCHEMA_VERSION + 1})"


def test_an_empty_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    assert Store.open(path).count_matches() == 0


def test_a_damaged_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    assert _refusal(path).startswith("cannot use the file as a SQLite store")
