"""Output files (kessen.io.files.check_output, write_text): checked before any work, written whole or not at all,
with normal permissions, through symbolic links, and in place for what is not a regular file (issue 14, issue 8 §3)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from kessen.core.errors import InputError
from kessen.io.files import TEMPORARY_PREFIX, check_output, write_text


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(TEMPORARY_PREFIX)]


def test_a_missing_folder_a_folder_and_an_unwritable_place_are_refused(tmp_path: Path) -> None:
    """§3: --events and --save paths are checked before a battle: each problem one line naming the option."""
    missing = tmp_path / "nowhere" / "game.json"
    with pytest.raises(InputError, match=f"^--save {missing}: no such folder: {missing.parent}$"):
        check_output(str(missing), "--save")
    with pytest.raises(InputError, match=f"^--events {tmp_path}: is a folder, not a file$"):
        check_output(str(tmp_path), "--events")
    with pytest.raises(InputError, match=r"^--save /proc/kessen-game.json: cannot write in /proc \("):
        check_output("/proc/kessen-game.json", "--save")
    with pytest.raises(InputError, match=r"^--save: give a file name \(got ''\)$"):
        check_output("", "--save")
    with pytest.raises(InputError, match=f"^{missing}: no such folder"):
        check_output(str(missing))
    check_output(str(tmp_path / "game.json"), "--save")
    assert list(tmp_path.iterdir()) == []  # the check leaves nothing behind


def test_a_new_file_gets_the_permissions_any_new_file_gets(tmp_path: Path, umask_022: None) -> None:
    """Issue 14: written files respect the umask (0o666 less it), not owner-only."""
    path = tmp_path / "events.jsonl"
    write_text(str(path), "one\n", "--events")
    assert path.read_text() == "one\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    os.umask(0o077)
    other = tmp_path / "private.jsonl"
    write_text(str(other), "two\n")
    assert stat.S_IMODE(other.stat().st_mode) == 0o600


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path, umask_022: None) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")
    path.chmod(0o640)
    write_text(str(path), "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_symlink_is_written_through_not_replaced(tmp_path: Path) -> None:
    """Issue 14: a link to a file stays a link; the file it points to gets the new content."""
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text(str(link), "new", "--save")
    assert link.is_symlink() and real.read_text() == "new"
    assert leftovers(tmp_path) == []


def test_a_file_that_is_not_regular_is_written_in_place(tmp_path: Path) -> None:
    """Issue 14: a pipe, a terminal, /dev/stdout or /dev/null is written in place: no temporary file beside it,
    the special file not replaced."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_text(str(fifo), "through the pipe\n", "--events")
        assert os.read(reader, 100) == b"through the pipe\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    check_output("/dev/null", "--events")
    write_text("/dev/null", "gone\n", "--events")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_failed_write_leaves_no_temporary_file_and_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: a write that fails (here the rename) leaves no .kessen-* file and the previous file as it was."""
    path = tmp_path / "game.json"
    path.write_text("the old game")

    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(InputError, match=r"^--save .*game.json: cannot write the file \(no space left on device\)$"):
        write_text(str(path), "a new game", "--save")
    assert path.read_text() == "the old game"
    assert leftovers(tmp_path) == []


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C in the middle of a write: the temporary file goes too, and the interrupt goes on."""
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        write_text(str(tmp_path / "game.json"), "x")
    assert list(tmp_path.iterdir()) == []
