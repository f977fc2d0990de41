"""``kessen play`` and ``kessen resume --side`` in Japanese: the board, the decisions, the prompts and the result all
come from the catalogues (real subprocesses of the console script)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kessen.rulesets import get_ruleset, ruleset_ids

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
OPTION_LINE = re.compile(r"^\s+\d+\. (.+)$", re.MULTILINE)
ENGLISH_PROMPTS = ("your choice", "choose a number", "refused", "saved to", "winner:")


def kessen(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], check=False, capture_output=True, text=True, input=stdin, timeout=300, cwd=ROOT)


def test_play_in_japanese_prompts_refuses_and_saves_in_japanese(tmp_path: Path) -> None:
    """--lang ja: the board, the question, its options, the prompt, the retry message, a refusal and the save
    notice are Japanese; none of the English prompts is left."""
    save = tmp_path / "game.json"
    done = kessen("play", MOB, "--side", "Hero", "--seed", "2", "--lang", "ja", "--save", str(save), stdin="99\nfoo\n1\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "選択(番号、記法、help、q): " in out
    assert re.search(r"1 から \d+ までの番号か記法を入力してください。help で説明\(入力: '99'\)", out)
    assert "できません: ここで選べる記法ではありません(入力: 'foo')。例: " in out
    assert f"{save} に保存しました" in " ".join(out.split())  # rich may wrap a long path's line
    assert "第1/8ラウンド" in out  # the board's header
    assert all(JAPANESE.search(line) for line in OPTION_LINE.findall(out))
    assert not any(prompt in out for prompt in ENGLISH_PROMPTS), out
    assert json.loads(save.read_text())["format"] == "kessen-save/2"


def test_play_in_english_keeps_the_english_prompts(tmp_path: Path) -> None:
    """--lang en (the default) still prints the English prompts and options."""
    done = kessen("play", MOB, "--side", "Hero", "--seed", "2", "--save", str(tmp_path / "g.json"), stdin="99\n1\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "your choice (a number, a notation, help, q): " in out and "saved to " in out
    assert re.search(r"choose a number from 1 to \d+, or type a notation, or help \(got '99'\)", out)
    assert not JAPANESE.search(out)


def _scenarios() -> list[Any]:
    found = []
    for rid in ruleset_ids():
        path = min((ROOT / "examples" / rid).glob("*.toml"))
        game = get_ruleset(rid).game
        side = game.sides(game.load_scenario(path.read_text(encoding="utf-8"), str(path)))[0]
        found.append(pytest.param(str(path), side, id=rid))
    return found


@pytest.mark.parametrize(("scenario", "side"), _scenarios())
def test_every_ruleset_asks_its_first_decision_in_japanese(scenario: str, side: str) -> None:
    """Each ruleset's first decision for the person: a Japanese header and prompt, every option line Japanese."""
    done = kessen("play", scenario, "--side", side, "--seed", "1", "--lang", "ja", stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert "選択(番号、記法、help、q): " in done.stdout
    options = OPTION_LINE.findall(done.stdout)
    assert options
    assert all(JAPANESE.search(line) for line in options), options
    assert not any(prompt in done.stdout for prompt in ENGLISH_PROMPTS)


def test_resume_as_a_side_asks_in_japanese(tmp_path: Path) -> None:
    """kessen resume --side --lang ja replays the saved prefix, then asks the person in Japanese."""
    save = tmp_path / "game.json"
    kessen("play", MOB, "--side", "Hero", "--seed", "4", "--save", str(save), stdin="1\nq\n")
    again = tmp_path / "again.json"
    done = kessen("resume", str(save), "--side", "Hero", "--lang", "ja", "--save", str(again), stdin="x\nq\n")
    assert done.returncode == 0, done.stderr
    assert "できません: ここで選べる記法ではありません(入力: 'x')。例: 'activate hero 1', 'activate hero 2', 'activate hero 3'" in done.stdout
    assert f"{again} に保存しました" in " ".join(done.stdout.split())
    assert not any(prompt in done.stdout for prompt in ENGLISH_PROMPTS)


def test_the_result_of_a_battle_is_in_japanese() -> None:
    """The winner and summary lines after a battle read from the cli catalogue (keys and result words). Seed 5 of
    goblin-horde with 16 goblin stands (its positions kept in tests/data/scenarios): the goblins break the pike regiment in two rounds, 10 VP to 0."""
    done = kessen("battle", str(ROOT / "tests" / "data" / "scenarios" / "goblin-horde-16-stands.toml"), "--seed", "5", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "勝者: a" in done.stdout and "  各陣営の損害: a 4, b 4" in done.stdout and ": 完全な勝利" in done.stdout
    english = kessen("battle", str(ROOT / "tests" / "data" / "scenarios" / "goblin-horde-16-stands.toml"), "--seed", "5")
    assert "winner: a" in english.stdout and "  casualties of each side: a 4, b 4" in english.stdout
    assert ": decisive victory" in english.stdout
