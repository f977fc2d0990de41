"""``kessen sweep`` and ``kessen battle --runs`` as a user runs them: real subprocesses of the console script."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
DATA = Path(__file__).parent / "data"
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")


def kessen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def a_sweep(tmp_path: Path, text: str) -> str:
    (tmp_path / "song-of-blades").mkdir(exist_ok=True)
    shutil.copy(DATA / "song-of-blades" / "skirmish.toml", tmp_path / "song-of-blades")
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


GOOD = 'scenario = "song-of-blades/skirmish.toml"\nruns = 2\n'


@pytest.mark.parametrize(
    ("text", "named"),
    [
        (GOOD + '[[vary]]\nfield = "sides[0].models[0].combat"\nvalues = [4, 44]\n',
         ["cell 1 (sides[0].models[0].combat = 44)", "sides[0].models[0].combat", "44"]),
        (GOOD + '[[vary]]\nfield = "sides[2].models[0].combat"\nvalues = [4]\n',
         ["cell 0", "vary[0].field", "sides has 2 entries", "sides[2].models[0].combat"]),
        (GOOD + '[[vary]]\nfield = "sides..combat"\nvalues = [4]\n', ["vary[0].field", "sides..combat"]),
        (GOOD + '[[vary]]\nfield = "turns"\nvalues = [4, 4]\n', ["vary[0].values[1]", "already in the list"]),
        (GOOD + "seed = -3\n", ["seed", "-3"]),
        (GOOD + "rounds = 3\n", ["rounds", "unknown field"]),
        ('scenario = "song-of-blades/nowhere.toml"\nruns = 2\n', ["scenario", "no such file", "nowhere.toml"]),
        ("runs = 2\n", ["scenario", "give scenario or scenarios"]),
        ("runs = [\n", ["not valid TOML"]),
    ],
    ids=["bad-value-in-a-cell", "no-such-entry", "bad-path", "repeated-value", "negative-seed", "unknown-field",
         "missing-scenario", "no-scenario", "bad-toml"],
)
def test_bad_sweep_file_is_one_line_naming_the_file_field_and_value(tmp_path: Path, text: str, named: list[str]) -> None:
    """A bad sweep file: exit 2, nothing on stdout, one stderr line naming the sweep file, the cell and the field."""
    path = a_sweep(tmp_path, text)
    done = kessen("sweep", path, "--db", str(tmp_path / "r.sqlite"))
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert path in done.stderr
    for part in named:
        assert part in done.stderr


@pytest.mark.parametrize(("args", "named"), [
    (["--export", "table.xlsx"], "--export"),
    (["--export", "/nowhere/table.csv"], "--export"),
    (["--scheduler", "http://host"], "--scheduler"),
    (["--workers", "0"], "--workers"),
])
def test_bad_sweep_options_exit_2_before_any_battle(tmp_path: Path, args: list[str], named: str) -> None:
    """A bad --export, --scheduler or --workers: exit 2 naming the option, before the store is even made."""
    done = kessen("sweep", a_sweep(tmp_path, GOOD), "--db", str(tmp_path / "r.sqlite"), *args)
    assert done.returncode == 2 and named in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "r.sqlite").exists()


def test_sweep_db_refuses_a_missing_folder_and_a_file_that_is_not_a_sweep_store(tmp_path: Path) -> None:
    """Issue 22 §3: --db in a folder that does not exist, a web store of kessen serve, a text file: exit 2 before
    any battle, one line naming --db and the value, as ``kessen serve --db`` refuses them; nothing made or
    changed."""
    from kessen.web.store import Store as WebStore

    path = a_sweep(tmp_path, GOOD)
    missing = tmp_path / "nowhere" / "r.sqlite"
    web = tmp_path / "web.sqlite3"
    WebStore.open(web)
    text = tmp_path / "notes.sqlite"
    text.write_text("my notes, not a database\n" * 20)
    kept = {p: p.read_bytes() for p in (web, text)}
    for db, reason in ((missing, "its folder does not exist"), (web, "not a sweep results store: a SQLite file of other tables"), (text, "not a sweep results store (file is not a database)")):
        done = kessen("sweep", path, "--db", str(db))
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert done.stderr.startswith(f"kessen: error: --db: {reason}")
        assert f" (got '{str(db)[:40]}" in done.stderr  # a long value is cut short
        assert done.stderr.count("\n") == 1
    assert not missing.parent.exists()
    assert {p: p.read_bytes() for p in kept} == kept


def test_sweep_prints_its_table_and_says_how_many_chunks_it_reused(tmp_path: Path) -> None:
    """kessen sweep: a line per cell with win rates; run again, every chunk reused and no battle played; on
    --scheduler local, the same table."""
    path = a_sweep(tmp_path, GOOD + '[[vary]]\nfield = "turns"\nvalues = [2, 3]\n')
    db = str(tmp_path / "r.sqlite")
    first = kessen("sweep", path, "--db", db, "--workers", "2", "--export", str(tmp_path / "t.csv"))
    assert first.returncode == 0, first.stderr
    assert "2 cells × 2 battles, seed 1" in first.stdout and "turns = 3" in first.stdout and "Hero" in first.stdout
    assert "reused 0 of 4 chunks; playing 4 battles" in first.stderr
    again = kessen("sweep", path, "--db", db, "--lang", "ja")
    assert again.returncode == 0, again.stderr
    assert "4 チャンクのうち 4 を再利用、0 回の戦闘" in again.stderr and "2 セル × 2 回の戦闘" in again.stdout
    assert again.stdout.count("Hero") == first.stdout.count("Hero")
    on_dask = kessen("sweep", path, "--db", str(tmp_path / "dask.sqlite"), "--scheduler", "local")
    assert on_dask.returncode == 0, on_dask.stderr
    assert on_dask.stdout == first.stdout  # the same table from a Dask LocalCluster


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
    except FileNotFoundError:
        return found
    return found + [d for child in found for d in _descendants(child)]


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc (Linux)")
def test_battle_runs_ctrl_c_stops_at_once_prints_the_battles_finished_and_leaves_no_worker() -> None:
    """Issue 8 §3: Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during --runs N stops
    promptly, prints the partial result of the battles finished, exits 130, and no worker process is left."""
    process = subprocess.Popen(
        [KESSEN, "battle", MOB, "--runs", "1000000", "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=ROOT, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(_descendants(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _descendants(process.pid)
        assert len(workers) >= 2, "the pool's workers did not start"
        time.sleep(2.0)  # some battles finish
        os.killpg(process.pid, signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=20)
        stopped = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert stopped < 10, f"took {stopped:.1f} s to stop"  # 0.1–0.3 s measured; the margin is for a loaded machine
    assert "Traceback" not in err and "interrupted" in out and "of 1000000 battles finished" in out
    assert "Hero" in out and "Goblins" in out and "95% interval" in out
    assert not [pid for pid in workers if _running(pid)]


BIG = DATA / "battlehost" / "long-lines.toml"  # about a second a battle: a chunk of 16 keeps a worker busy for long


def _stopped_by(signum: int, args: list[str], *, group: bool, ready: Callable[[], bool]) -> tuple[subprocess.Popen[str], str, str, float]:
    """``kessen ARGS`` stopped by *signum* (to the whole process group as a terminal's hangup goes, or to the parent
    alone as ``kill PID``) once *ready*; its output, and the seconds from the signal until neither it nor any of
    its workers runs."""
    process = subprocess.Popen(
        [KESSEN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not (len(_descendants(process.pid)) >= 2 and ready()) and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _descendants(process.pid)
        assert len(workers) >= 2, "the pool's workers did not start"
        (os.killpg if group else os.kill)(process.pid, signum)
        sent = time.monotonic()
        while (process.poll() is None or any(_running(pid) for pid in workers)) and time.monotonic() - sent < 30:
            time.sleep(0.01)
        stopped = time.monotonic() - sent
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    return process, out, err, stopped


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc (Linux)")
@pytest.mark.parametrize(("signum", "group"), [(signal.SIGTERM, False), (signal.SIGHUP, True)], ids=["SIGTERM-to-kessen", "SIGHUP-to-the-group"])
def test_battle_runs_stopped_by_a_signal_stops_its_workers_and_prints_the_battles_finished(signum: int, group: bool) -> None:
    """Issue 22 §2: SIGTERM (``kill PID``: to kessen alone) or SIGHUP (a closed terminal: to every process of its
    group) during ``battle --runs N`` of a big scenario: within 2 s no worker runs; the partial result is printed as
    for Ctrl-C; exit 128 + the signal; no traceback from any process."""
    started = time.monotonic()
    process, out, err, stopped = _stopped_by(
        signum, ["battle", str(BIG), "--runs", "100000", "--workers", "2"], group=group,
        ready=lambda: time.monotonic() - started > 4,  # some chunks finish
    )
    assert process.returncode == 128 + signum, err
    assert stopped < 2, f"took {stopped:.2f} s to stop"
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert f"kessen: stopped by {signal.Signals(signum).name}" in err
    assert "interrupted" in out and "of 100000 battles finished" in out and "95% interval" in out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a worker ends with its parent through Linux's prctl")
def test_a_worker_never_outlives_kessen_even_killed_with_sigkill() -> None:
    """Issue 22 §2: SIGKILL to ``battle --runs N`` (no handler can answer it): its workers end within 2 s."""
    started = time.monotonic()
    process, _, err, stopped = _stopped_by(
        signal.SIGKILL, ["battle", str(BIG), "--runs", "100000", "--workers", "2"], group=False,
        ready=lambda: time.monotonic() - started > 3,
    )
    assert process.returncode == -signal.SIGKILL
    assert stopped < 2, f"took {stopped:.2f} s to stop"
    assert "Traceback" not in err, err


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc (Linux)")
def test_sweep_stopped_by_sigterm_stops_its_workers_and_keeps_its_finished_chunks(tmp_path: Path) -> None:
    """Issue 22 §2: SIGTERM to ``kessen sweep`` of a big scenario: within 2 s no worker runs, the chunks finished are
    in the store and the command says so, as for Ctrl-C; run again, it reuses them."""
    sweep = tmp_path / "big.toml"
    sweep.write_text(f'scenario = "{BIG}"\nruns = 5000\n[[vary]]\nfield = "turns"\nvalues = [11, 12]\n', encoding="utf-8")
    db = tmp_path / "big.sqlite"

    def chunks() -> int:
        if not db.exists():
            return 0
        with sqlite3.connect(db) as store:
            try:
                return int(store.execute("SELECT count(*) FROM chunks").fetchone()[0])
            except sqlite3.Error:
                return 0

    process, out, err, stopped = _stopped_by(
        signal.SIGTERM, ["sweep", str(sweep), "--db", str(db), "--workers", "2"], group=False, ready=lambda: chunks() >= 2
    )
    assert process.returncode == 143, err
    assert stopped < 2, f"took {stopped:.2f} s to stop"
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert f"interrupted: the finished chunks are kept in {db}" in err and "kessen: stopped by SIGTERM" in err
    kept = chunks()
    assert kept >= 2
    again, _, err, _ = _stopped_by(
        signal.SIGTERM, ["sweep", str(sweep), "--db", str(db), "--workers", "2"], group=False, ready=lambda: chunks() > kept
    )
    assert again.returncode == 143 and f"reused {kept} of " in err, err


def test_battle_runs_table_in_japanese() -> None:
    """--runs N --lang ja: the table's title, columns and draw row in Japanese."""
    done = kessen("battle", MOB, "--runs", "4", "--workers", "1", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "4 回の戦闘、シード 1" in done.stdout and "勝率" in done.stdout and "引き分け" in done.stdout
