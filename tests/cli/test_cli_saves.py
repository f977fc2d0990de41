"""No lost games (issue 8 §3): ``kessen play`` and ``kessen resume`` save on q, at the end of input and on Ctrl-C,
to --save or to a new file in the saved-games folder whose name they print; a save keeps the sides a person plays
and the language, and resume goes on the same way; output paths are checked before a battle starts. Real
subprocesses of the console script, with stdin closed, typed answers, and SIGINT."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kessen.core.saves import SAVE_V2, checksum
from tests.saves_v1 import file_digest

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")
SAVED = re.compile(r"saved to (\S+\.json)")


def kessen(*args: str, stdin: bytes | str | None = b"", home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home)} if home else None
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run([KESSEN, *args], capture_output=True, input=data, timeout=300, cwd=ROOT, env=env)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))


def seal(body: dict[str, object]) -> str:
    """A save's contents sealed again with a matching checksum (a hand that knows the format)."""
    body = {k: v for k, v in body.items() if k != "checksum"}
    return json.dumps({**body, "checksum": checksum(body)}, ensure_ascii=False, indent=1)


def decisions(save: Path) -> list[str]:
    """The decisions a kessen-save/2 recorded, in notation."""
    return [value for kind, value in json.loads(save.read_text())["steps"] if kind == "d"]


def saved_file(out: str) -> Path:
    found = SAVED.findall(out)
    assert found, out
    return Path(found[-1])


def saves_in(home: Path) -> list[Path]:
    folder = home / "kessen" / "saves"
    return sorted(folder.iterdir()) if folder.exists() else []


def test_end_of_input_saves_to_a_new_file_in_the_saves_folder_and_says_where(tmp_path: Path) -> None:
    """§3: stdin closed at the first prompt (Ctrl-D) without --save: saved to a new file in the per-user saves
    folder, its name printed with how to go on; exit 0."""
    done = kessen("play", MOB, "--side", "Hero", "--seed", "2", stdin=b"", home=tmp_path)
    assert done.returncode == 0, done.stderr
    path = saved_file(done.stdout)
    assert saves_in(tmp_path) == [path] and path.name.startswith("hero-against-mob-")
    assert "end of input: saved to" in done.stdout and f"go on with: kessen resume {path}" in done.stdout
    save = json.loads(path.read_text())
    assert (save["format"], save["people"], save["lang"], save["seed"]) == (SAVE_V2, ["Hero"], "en", 2)


def test_q_saves_to_the_given_file_and_a_second_game_never_overwrites_a_default_save(tmp_path: Path) -> None:
    """§3: q saves to --save; without --save, two stopped games are two files."""
    given = tmp_path / "game.json"
    done = kessen("play", MOB, "--side", "Hero", "--save", str(given), stdin="1\nq\n", home=tmp_path)
    assert done.returncode == 0 and saved_file(done.stdout) == given and given.exists()
    assert saves_in(tmp_path) == []
    first = kessen("play", MOB, "--side", "Hero", stdin="q\n", home=tmp_path)
    second = kessen("play", MOB, "--side", "Hero", stdin="q\n", home=tmp_path)
    assert saved_file(first.stdout) != saved_file(second.stdout)
    assert len(saves_in(tmp_path)) == 2


def interrupted_at_the_second_prompt(*args: str, home: Path | None = None) -> tuple[int, str, str]:
    """SIGINT to ``kessen ARGS`` once it asks its second question (one decision made): exit status, output, errors."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **({"XDG_DATA_HOME": str(home)} if home else {})}
    with subprocess.Popen(
        [KESSEN, *args], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(b"1\n")
        child.stdin.flush()
        seen = b""
        deadline = time.monotonic() + 120
        while seen.count(b"your choice (") < 2 and time.monotonic() < deadline:  # the second prompt: one decision made
            ready, _, _ = select.select([child.stdout], [], [], 1)
            if ready:
                seen += os.read(child.stdout.fileno(), 65536)
        assert seen.count(b"your choice (") >= 2, seen[-500:]
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    return child.returncode, (seen + out).decode("utf-8"), err.decode("utf-8")


def test_ctrl_c_at_a_prompt_saves_the_game_then_exits_130(tmp_path: Path) -> None:
    """§3: SIGINT while the person is asked: the game so far is saved, its name printed, exit status 130."""
    save = tmp_path / "game.json"
    code, text, err = interrupted_at_the_second_prompt("play", MOB, "--side", "Hero", "--seed", "4", "--save", str(save))
    assert code == 130, err
    assert f"interrupted: saved to {save}" in text and "kessen: interrupted" in err
    assert "Traceback" not in err
    assert len(decisions(save)) >= 1 and json.loads(save.read_text())["people"] == ["Hero"]


def test_ctrl_c_on_a_resumed_game_saves_it_back_to_its_file(tmp_path: Path) -> None:
    """Issue 22 §1: Ctrl-C in `kessen resume FILE` (no --save) saves the game, one decision longer, back to FILE."""
    save = tmp_path / "game.json"
    kessen("play", MOB, "--side", "Hero", "--seed", "4", "--save", str(save), stdin="1\nq\n")
    before = decisions(save)
    code, text, err = interrupted_at_the_second_prompt("resume", str(save), home=tmp_path)
    assert code == 130 and "Traceback" not in err, err
    assert f"interrupted: saved to {save}" in text and saves_in(tmp_path) == []
    after = decisions(save)
    assert after[: len(before)] == before and len(after) == len(before) + 1


def test_resume_goes_on_as_the_save_was_played_sides_and_language(tmp_path: Path) -> None:
    """§3: a save records the person's sides and the language; `kessen resume FILE` asks the same side in the same
    language without being told, and --ai lets the AI finish it."""
    save = tmp_path / "game.json"
    kessen("play", MOB, "--side", "Hero", "--seed", "4", "--lang", "ja", "--save", str(save), stdin="1\nq\n")
    again = tmp_path / "again.json"
    done = kessen("resume", str(save), "--save", str(again), stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert "選択(番号、記法、help、q): " in done.stdout and f"{again} に保存しました" in done.stdout
    resaved = json.loads(again.read_text())
    assert (resaved["steps"], resaved["people"], resaved["lang"]) == (json.loads(save.read_text())["steps"], ["Hero"], "ja")
    finished = kessen("resume", str(save), "--watch", "--lang", "en")
    assert finished.returncode == 0, finished.stderr
    assert "your choice" not in finished.stdout and ("winner:" in finished.stdout or "draw:" in finished.stdout)


def test_ctrl_d_on_resume_keeps_every_step_before_and_the_new_ones(tmp_path: Path) -> None:
    """A resumed game stopped again keeps every recorded step plus the new ones, never fewer."""
    save = tmp_path / "game.json"
    kessen("play", MOB, "--side", "Hero", "--seed", "4", "--save", str(save), stdin="1\n1\nq\n")
    before = json.loads(save.read_text())["steps"]
    again = tmp_path / "again.json"
    kessen("resume", str(save), "--save", str(again), stdin="1\n")  # one more answer, then the end of input
    after = json.loads(again.read_text())["steps"]
    assert after[: len(before)] == before and len(decisions(again)) > len(decisions(save))


def test_a_resumed_game_stopped_again_goes_back_to_its_file(tmp_path: Path) -> None:
    """Issue 22 §1: `kessen resume FILE` without --save, then q, the end of input or `save`: the game is saved back to
    FILE (replaced whole: a new file renamed over it), not to a new file in the saves folder; resuming FILE again
    goes on from there."""
    save = tmp_path / "game.json"
    kessen("play", MOB, "--side", "Hero", "--seed", "4", "--save", str(save), stdin="1\nq\n", home=tmp_path)
    first = decisions(save)
    inode = save.stat().st_ino
    done = kessen("resume", str(save), stdin="1\nq\n", home=tmp_path)  # q
    assert done.returncode == 0, done.stderr
    assert saved_file(done.stdout) == save and f"go on with: kessen resume {save}" in done.stdout
    second = decisions(save)
    assert second[: len(first)] == first and len(second) > len(first)
    assert save.stat().st_ino != inode  # replaced by a rename, never rewritten in place
    assert saves_in(tmp_path) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    done = kessen("resume", str(save), stdin="1\n", home=tmp_path)  # one more answer, then the end of input
    assert done.returncode == 0, done.stderr
    assert "end of input: saved to" in done.stdout and saved_file(done.stdout) == save
    third = decisions(save)
    assert third[: len(second)] == second and len(third) > len(second)
    done = kessen("resume", str(save), stdin="save\nq\n", home=tmp_path)  # save without a name: the same file
    assert done.returncode == 0 and decisions(save) == third and saves_in(tmp_path) == []


def test_a_save_read_from_standard_input_is_not_written_back_there(tmp_path: Path) -> None:
    """Issue 22 §1: only a regular file is saved back to; a save piped in goes to a new file in the saves folder."""
    save = tmp_path / "game.json"
    kessen("play", MOB, "--side", "Hero", "--seed", "4", "--save", str(save), stdin="1\nq\n")
    done = kessen("resume", "/dev/stdin", stdin=save.read_bytes(), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert saves_in(tmp_path) == [saved_file(done.stdout)] and decisions(saved_file(done.stdout)) == decisions(save)


# one v1 fixture per ruleset through the console script (tests/core/test_saves_v1.py replays every one in process)
V1_SAVES = [min(folder.glob("*.save.json")) for folder in sorted((ROOT / "tests" / "data" / "saves-v1").iterdir())]


@pytest.mark.parametrize("save", V1_SAVES, ids=lambda p: f"{p.parent.name}:{p.name.removesuffix('.save.json')}")
def test_a_save_of_format_1_still_resumes_to_its_events(save: Path, tmp_path: Path) -> None:
    """Issue 9 §4: a kessen-save/1 file (decisions as option indices, written before saves v2, without people or
    language) resumes through kessen resume: the AI for both sides, English, the very events it recorded."""
    expected = json.loads(save.with_name(save.name.replace(".save.json", ".expected.json")).read_text())
    events = tmp_path / "events.jsonl"
    done = kessen("resume", str(save), "--events", str(events))
    assert done.returncode == 0, done.stderr
    assert file_digest(events.read_text(encoding="utf-8"), save.parent.name) == expected["events"]  # as written before dice were shown
    assert (f"winner: {expected['winner']}" if expected["winner"] else "draw: no side won") in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["battle", MOB, "--events", "{tmp}/missing/e.jsonl"], "--events {tmp}/missing/e.jsonl: no such folder: {tmp}/missing"),
        (["battle", MOB, "--save", "{tmp}"], "--save {tmp}: is a folder, not a file"),
        (["play", MOB, "--side", "Hero", "--save", "/proc/game.json"], "--save /proc/game.json: cannot write in /proc"),
        (["resume", "{tmp}/game.json", "--events", "{tmp}/no/e.jsonl"], "--events {tmp}/no/e.jsonl: no such folder"),
    ],
)
def test_output_paths_are_checked_before_the_battle_starts(tmp_path: Path, args: list[str], message: str) -> None:
    """§3: a missing folder, a folder, an unwritable place: one clear line, exit 2, before any battle is played
    (nothing narrated)."""
    kessen("battle", MOB, "--seed", "5", "--save", str(tmp_path / "game.json"))
    done = kessen(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("kessen: error: " + message.replace("{tmp}", str(tmp_path))), done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_an_unwritable_saves_folder_is_refused_before_playing(tmp_path: Path) -> None:
    """When the saved-games folder cannot be made, play says to give --save, before the game starts."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    done = kessen("play", MOB, "--side", "Hero", home=blocker)
    assert done.returncode == 2 and done.stdout == ""
    assert "cannot make the folder for saved games" in done.stderr and "give --save FILE" in done.stderr


def test_keystrokes_that_are_not_utf8_are_asked_again(tmp_path: Path) -> None:
    """Issue 14: non-UTF-8 bytes typed at a prompt are a clean refusal and the question again, not a crash."""
    done = kessen("play", MOB, "--side", "Hero", "--save", str(tmp_path / "g.json"), stdin=b"\xff\xfe\n1\nq\n")
    assert done.returncode == 0, done.stderr
    assert "that was not UTF-8 text: choose a number from 1 to" in done.stdout and "saved to" in done.stdout


def test_a_bad_scenario_inside_a_save_names_the_save_file(tmp_path: Path) -> None:
    """Issue 14: a resealed save whose own scenario is damaged: the error names the save file and says the scenario
    inside it is bad, not the scenario's original path."""
    save = tmp_path / "game.json"
    kessen("battle", MOB, "--seed", "5", "--save", str(save))
    body = json.loads(save.read_text())
    body["scenario"] = body["scenario"].replace('name = "Hero against the mob"\n', "")
    save.write_text(seal(body))
    done = kessen("resume", str(save))
    assert done.returncode == 2
    assert done.stderr == f"kessen: error: {save}: the scenario inside this save is bad: name: required field is missing\n"


@pytest.mark.parametrize(
    ("seed", "message"),
    [(-1, "field seed must be an integer from 0 to 2^64 - 1"), ("9" * 5000, "seed: integer too large (more than 64 bits) (got a 5000-digit integer)")],
    ids=["negative", "5000 digits"],
)
def test_a_resealed_save_with_an_impossible_seed_is_refused(tmp_path: Path, seed: int | str, message: str) -> None:
    """Issue 14: a resealed save with a negative seed or a 5,000-digit integer: the usual one line, exit 2."""
    save = tmp_path / "game.json"
    kessen("battle", MOB, "--seed", "5", "--save", str(save))
    body = json.loads(save.read_text())
    if isinstance(seed, int):
        body["seed"] = seed
        save.write_text(seal(body))
    else:  # too long for Python to seal: written as text, refused before the checksum is even looked at
        save.write_text(save.read_text().replace('"seed": 5', f'"seed": {seed}'))
    done = kessen("resume", str(save))
    assert done.returncode == 2 and done.stderr == f"kessen: error: {save}: {message}\n"


def test_events_to_dev_stdout_are_written_through(tmp_path: Path) -> None:
    """Issue 14: `--events /dev/stdout` writes the events into standard output (a pipe here), not over it."""
    done = kessen("battle", MOB, "--seed", "5", "--events", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert events and events[-1]["type"] == "game_ended"


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    """Issue 14: a write that fails half-way (the file-size limit of the process, like a full disk) is one line,
    exit 2, and leaves no .kessen-* temporary file."""
    import resource

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    done = subprocess.run(
        [KESSEN, "battle", MOB, "--seed", "5", "--events", str(tmp_path / "e.jsonl")],
        capture_output=True, text=True, timeout=300, cwd=ROOT, preexec_fn=small_files,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"kessen: error: --events {tmp_path / 'e.jsonl'}: cannot write the file (file too large)\n"
    assert list(tmp_path.iterdir()) == []


def test_standard_input_that_is_not_utf8_is_one_line() -> None:
    """Issue 14: `odds --input -` with bytes that are not UTF-8: one line, exit 2."""
    done = kessen("odds", "song-of-blades", "activation", "--input", "-", stdin=b'{"quality": "\xff"}')
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "kessen: error: standard input: line 1: not UTF-8 text (byte 0xff)\n"
