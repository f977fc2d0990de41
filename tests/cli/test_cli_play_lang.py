"""``kessen play`` and ``kessen resume --side`` in Japanese: the board, the decisions, the prompts and the result all
come from the catalogues (real subprocesses of the console script, and the person's decider in process)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from kessen.cli.battles import PersonDecider, QuitGame
from kessen.core.decisions import RandomDecider
from kessen.core.engine import Chance, Decision, Terminal
from kessen.dice import draw, stream
from kessen.rulesets import get_ruleset, ruleset_ids
from kessen.rulesets.song_of_blades.referee import options as sob

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
OPTION_LINE = re.compile(r"^\s+\d+\. (.+)$", re.MULTILINE)
ENGLISH_PROMPTS = ("decides:", "choice (number", "choose a number", "saved to", "winner:")


def kessen(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], check=False, capture_output=True, text=True, input=stdin, timeout=300, cwd=ROOT)


def test_play_in_japanese_prompts_refuses_and_saves_in_japanese(tmp_path: Path) -> None:
    """--lang ja: the decision's header, its options, the prompt, the retry message and the save notice are
    Japanese; none of the English prompts is left."""
    save = tmp_path / "game.json"
    done = kessen("play", MOB, "--side", "Hero", "--seed", "2", "--lang", "ja", "--save", str(save), stdin="99\nfoo\n1\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Hero の決定: アクティベーション" in out
    assert "選択(番号、q で終了): " in out
    assert "1 から 4 までの番号を選んでください(入力: '99')" in out
    assert f"{save} に保存しました" in " ".join(out.split())  # rich may wrap a long path's line
    assert "hero をダイス1個でアクティベーション" in out and "ターンを終える" in out
    assert "第1/8ラウンド" in out  # the board's header
    assert not any(prompt in out for prompt in ENGLISH_PROMPTS), out
    assert json.loads(save.read_text())["format"] == "kessen-save/1"


def test_play_in_english_keeps_the_english_prompts(tmp_path: Path) -> None:
    """--lang en (the default) still prints the English prompts and options."""
    done = kessen("play", MOB, "--side", "Hero", "--seed", "2", "--save", str(tmp_path / "g.json"), stdin="99\n1\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Hero decides: activation" in out and "choice (number, q to quit): " in out
    assert "choose a number from 1 to 4 (got '99')" in out and "saved to " in out
    assert "activate hero with 1 die" in out and "end the turn" in out
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
    assert f"{side} の決定: " in done.stdout and "選択(番号、q で終了): " in done.stdout
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
    assert "Hero の決定: " in done.stdout and "までの番号を選んでください(入力: 'x')" in done.stdout
    assert f"{again} に保存しました" in " ".join(done.stdout.split())
    assert not any(prompt in done.stdout for prompt in ENGLISH_PROMPTS)


def test_the_result_of_a_battle_is_in_japanese() -> None:
    """The winner and summary lines after a battle read from the cli catalogue (keys and result words)."""
    done = kessen("battle", str(ROOT / "examples" / "armies-clash" / "goblin-horde.toml"), "--seed", "3", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "勝者: b" in done.stdout and "  各陣営の損害: a 10, b 2" in done.stdout and ": 完全な勝利" in done.stdout
    english = kessen("battle", str(ROOT / "examples" / "armies-clash" / "goblin-horde.toml"), "--seed", "3")
    assert "winner: b" in english.stdout and "  casualties of each side: a 10, b 2" in english.stdout
    assert ": decisive victory" in english.stdout


def _state_with_an_attack() -> tuple[Any, Decision]:
    """A song-of-blades state where the side to act may attack: random play until an attack is offered."""
    game = get_ruleset("song-of-blades").game
    state = game.load_scenario(Path(MOB).read_text(encoding="utf-8"), MOB)
    rng = stream(7)
    pick = RandomDecider(stream(8))
    for _ in range(5000):
        node = game.node(state)
        assert not isinstance(node, Terminal), "no attack was offered"
        if isinstance(node, Chance):
            state, _ = game.apply(state, draw(node.dist, rng))
            continue
        assert isinstance(node, Decision)
        if any(isinstance(o, sob.Attack) for o in node.options):
            return state, node
        attacks_first = [o for o in node.options if isinstance(o, sob.Move) and o.purpose == "charge"]
        state, _ = game.apply(state, attacks_first[0] if attacks_first else pick.decide(state, node))
    raise AssertionError("no attack was offered")


@pytest.mark.parametrize(("lang", "odds"), [("en", r"\[win \d+\.\d%, kill \d+\.\d%, suffer \d+\.\d%\]"), ("ja", r"\[勝ち \d+\.\d%、キル \d+\.\d%、自分が敗者 \d+\.\d%\]")])
def test_the_person_sees_the_exact_odds_beside_each_attack(lang: str, odds: str) -> None:
    """The odds in brackets are printed as they are (not swallowed as a rich style tag), in either language."""
    state, decision = _state_with_an_attack()
    buffer = io.StringIO()
    out = Console(file=buffer, width=300, highlight=False)

    def answer_q(prompt: str = "", **_: Any) -> str:
        out.print(prompt, end="")
        return "q"

    out.input = answer_q  # type: ignore[method-assign,assignment]
    person = PersonDecider(get_ruleset("song-of-blades"), lang, out)
    with pytest.raises(QuitGame):
        person.decide(state, decision)
    attacks = [line for line in OPTION_LINE.findall(buffer.getvalue()) if "%" in line]
    assert attacks, buffer.getvalue()
    assert all(re.search(odds, line) for line in attacks), attacks
