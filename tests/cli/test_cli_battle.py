"""``kessen battle``, ``resume`` and ``play`` as a user runs them (real subprocesses of the console script)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
WARBAND = str(ROOT / "examples" / "song-of-blades" / "warband-skirmish.toml")
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")


def kessen(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, input=stdin, timeout=300, cwd=ROOT)


def test_battle_same_seed_gives_byte_identical_events(tmp_path: Path) -> None:
    """One seed, one scenario → the same events file, byte for byte; every line a JSON object with a type."""
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert kessen("battle", WARBAND, "--seed", "11", "--events", str(first)).returncode == 0
    assert kessen("battle", WARBAND, "--seed", "11", "--events", str(second), "--lang", "ja").returncode == 0
    assert first.read_bytes() == second.read_bytes()
    lines = [json.loads(line) for line in first.read_text().splitlines()]
    assert lines[0]["type"] == "roll_off" and lines[-1]["type"] == "game_ended"
    assert all("type" in line for line in lines)


GOLDEN = {k: v for f in sorted((ROOT / "tests" / "data" / "golden-events").glob("*.json")) for k, v in json.loads(f.read_text()).items()}


@pytest.mark.parametrize("scenario", [min(f.glob("*.toml")) for f in sorted((ROOT / "examples").iterdir()) if any(f.glob("*.toml"))], ids=lambda p: p.parent.name)
def test_battle_events_are_the_golden_event_logs(tmp_path: Path, scenario: Path) -> None:
    """Issue 10 §3: ``kessen battle`` plays through kessen.Match, and its --events file is byte for byte the one
    the golden digests of tests/data/golden-events record (seed 2 of a shipped scenario of each ruleset; the digests
    themselves cover every scenario); --save does not change the battle."""
    events, saved = tmp_path / "e.jsonl", tmp_path / "s.jsonl"
    name = scenario.relative_to(ROOT).as_posix()
    assert kessen("battle", name, "--seed", "2", "--events", str(events)).returncode == 0
    assert hashlib.sha256(events.read_bytes()).hexdigest() == GOLDEN[f"{name}@2"]
    done = kessen("battle", name, "--seed", "2", "--events", str(saved), "--save", str(tmp_path / "game.json"))
    assert done.returncode == 0, done.stderr
    assert saved.read_bytes() == events.read_bytes()


def test_battle_other_seed_gives_another_battle(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    kessen("battle", MOB, "--seed", "1", "--events", str(a))
    kessen("battle", MOB, "--seed", "2", "--events", str(b))
    assert a.read_bytes() != b.read_bytes()


def test_battle_narrates_in_japanese_with_glossary_terms() -> None:
    """--lang ja uses the spec's glossary terms (ラウンド, アクティベーション, ...)."""
    done = kessen("battle", WARBAND, "--seed", "3", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "アクティベーション" in done.stdout and "ゲーム終了" in done.stdout


def test_save_and_resume_replay_exactly(tmp_path: Path) -> None:
    """A saved game resumes from its file and replays to the same events."""
    save, played, resumed = tmp_path / "game.json", tmp_path / "played.jsonl", tmp_path / "resumed.jsonl"
    assert kessen("battle", MOB, "--seed", "5", "--save", str(save), "--events", str(played)).returncode == 0
    done = kessen("resume", str(save), "--events", str(resumed))
    assert done.returncode == 0, done.stderr
    assert played.read_bytes() == resumed.read_bytes()


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_damaged_save_is_refused(tmp_path: Path, damage: str) -> None:
    """A damaged or truncated save file is refused with one clear line and exit 2, never half-loaded."""
    save = tmp_path / "game.json"
    kessen("battle", MOB, "--seed", "5", "--save", str(save))
    text = save.read_text()
    if damage == "truncate":
        save.write_text(text[: len(text) // 2])
    elif damage == "flip":
        save.write_text(text.replace('"seed": 5', '"seed": 6'))
    else:
        save.write_text("not a save file")
    done = kessen("resume", str(save))
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert str(save) in done.stderr


def test_runs_print_win_rates_with_intervals() -> None:
    """--runs N plays N battles on child streams and prints win rates with 95% intervals."""
    done = kessen("battle", MOB, "--runs", "12", "--seed", "7")
    assert done.returncode == 0, done.stderr
    assert "95% interval" in done.stdout and "Hero" in done.stdout and "Goblins" in done.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["battle", "nowhere/song-of-blades/missing.toml"], "no such file"),
        (["battle", WARBAND, "--lang", "fr"], "--lang"),
        (["battle", WARBAND, "--runs", "0"], "--runs"),
        (["battle", WARBAND, "--runs", "3", "--events", "x.jsonl"], "--events"),
        (["resume", "nowhere.json"], "no such file"),
    ],
)
def test_bad_battle_arguments_exit_2(args: list[str], named: str) -> None:
    done = kessen(*args)
    assert done.returncode == 2
    assert named in done.stderr and "Traceback" not in done.stderr


def test_bad_scenario_names_file_field_and_value(tmp_path: Path) -> None:
    """A bad scenario file: exit 2, the error names the file, the field and the value."""
    bad = tmp_path / "song-of-blades" / "bad.toml"
    bad.parent.mkdir()
    bad.write_text(Path(WARBAND).read_text().replace("combat = 4, mounted", "combat = 44, mounted"))
    done = kessen("battle", str(bad))
    assert done.returncode == 2
    assert str(bad) in done.stderr and "sides[0].models[1].combat" in done.stderr and "44" in done.stderr


def test_play_shows_numbered_decisions_with_odds_and_validates_input(tmp_path: Path) -> None:
    """A person at the terminal: numbered legal decisions, bad input refused, q quits and saves."""
    save = tmp_path / "game.json"
    done = kessen("play", MOB, "--side", "Hero", "--seed", "2", "--save", str(save), stdin="99\nfoo\n1\nq\n")
    assert done.returncode == 0, done.stderr
    assert "choose a number from 1 to" in done.stdout
    assert " 1. " in done.stdout
    assert json.loads(save.read_text())["format"] == "kessen-save/2"
    resumed = kessen("resume", str(save))
    assert resumed.returncode == 0, resumed.stderr


def test_play_unknown_side_is_refused() -> None:
    done = kessen("play", MOB, "--side", "Elves")
    assert done.returncode == 2 and "--side" in done.stderr


def test_quit_then_resume_as_the_same_side_replays_the_prefix(tmp_path: Path) -> None:
    """A game saved mid-play resumes at the same decision: the person is asked again where they stopped."""
    save = tmp_path / "game.json"
    kessen("play", MOB, "--side", "Hero", "--seed", "4", "--save", str(save), stdin="1\nq\n")
    steps = json.loads(save.read_text())["steps"]
    assert any(kind == "d" for kind, _ in steps)
    again = tmp_path / "again.json"
    done = kessen("resume", str(save), "--side", "Hero", "--save", str(again), stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(again.read_text())["steps"] == steps


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_board_draws_the_grid_with_a_legend(lang: str) -> None:
    """kessen board draws an armies-clash scenario's grid (terrain glyphs, stands by unit letter) with its legend."""
    done = kessen("board", str(ROOT / "examples" / "armies-clash" / "hold-the-bridge.toml"), "--lang", lang)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert rows[1].strip().startswith("0123456789")
    assert any(row.strip().startswith("4 =AA====") for row in rows)  # the road across the river, the orcs on it
    assert ("deep water" if lang == "en" else "深い水") in done.stdout
