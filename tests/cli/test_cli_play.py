"""``kessen play`` and ``kessen resume`` as a thin loop over kessen.Match (issue 10 §3), through the real console
script with a scripted standard input, on the toy race of tests/toy (``tests.cli.toy_cli``), whose
rules cannot change under these tests: numbers and notation, refusals with the rule, undo, odds, help, board,
save then resume, saves v2, and the Japanese prompts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kessen.core.saves import checksum

ROOT = Path(__file__).resolve().parents[2]
RACE = 'ruleset = "toy"\nname = "A race"\nsides = ["Red", "Blue"]\n'
PROMPT = "your choice (a number, a notation, help, q): "


def toy(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``kessen`` with the toy race registered (a subprocess, as a person runs it)."""
    return subprocess.run(
        [sys.executable, "-m", "tests.cli.toy_cli", *args], capture_output=True, text=True, input=stdin, timeout=120, cwd=ROOT,
    )


@pytest.fixture
def race(tmp_path: Path) -> Path:
    path = tmp_path / "race.toml"
    path.write_text(RACE, encoding="utf-8")
    return path


def dashes(events: Path) -> list[tuple[str, int, bool]]:
    return [(e["side"], e["squares"], e["made_it"]) for e in map(json.loads, events.read_text().splitlines())]


def play(race: Path, tmp_path: Path, answers: list[str], *extra: str, name: str = "e.jsonl") -> tuple[subprocess.CompletedProcess[str], Path]:
    events = tmp_path / name
    done = toy("play", str(race), "--side", "Red", "--seed", "3", "--events", str(events), *extra, stdin="".join(a + "\n" for a in answers))
    assert done.returncode == 0, done.stderr
    return done, events


def test_play_takes_numbers_and_notation_and_narrates_as_it_goes(race: Path, tmp_path: Path) -> None:
    """Issue 10 §3: the board, the question (the ruleset's prompt naming who acts) and the suggested options
    numbered with their exact odds; a number and a notation beyond the suggested ones (dash 5) are both played, and
    the AI's moves are narrated before the next question."""
    done, events = play(race, tmp_path, ["1", "dash 5", "q"])
    out = done.stdout
    assert "Red 0, Blue 0\nRed: the dash of Red racer\n   1. dash 3  made it 66.7% (2/3)\n   2. dash 2  made it 83.3% (5/6)\n" in out
    assert "   3. dash 1  made it 100.0% (1)\n" + PROMPT in out
    assert dashes(events)[0] == ("Red", 3, True) and dashes(events)[2][:2] == ("Red", 5)
    first_answer = out.index(PROMPT) + len(PROMPT)
    blue = out.index("Blue dashes")
    assert first_answer < blue < out.index(PROMPT, first_answer)  # the AI's dash is told before the next question


def test_an_illegal_notation_is_refused_with_its_rule_and_changes_nothing(race: Path, tmp_path: Path) -> None:
    """Issue 10 §1: a choice the rules forbid is refused with the rule ID and the reason, text that is no notation
    with a few examples; the question is asked again and the game is the one it would have been."""
    done, refused = play(race, tmp_path, ["dash 9", "fly away", "2", "q"], name="refused.jsonl")
    assert "refused: TOY-1: a dash is 1 to 6 squares (got 9)\n" + PROMPT in done.stdout
    assert "refused: not a choice here (got 'fly away'); for example 'dash 3', 'dash 2', 'dash 1'" in done.stdout
    _, straight = play(race, tmp_path, ["2", "q"], name="straight.jsonl")
    assert refused.read_bytes() == straight.read_bytes()


def test_undo_goes_back_to_before_the_last_decision(race: Path, tmp_path: Path) -> None:
    """Issue 10 §3: undo returns to the person's last decision: the board shown again as it was, and the game
    goes on from there exactly as if the undone choice had never been made (the dice replay from the seed)."""
    done, undone = play(race, tmp_path, ["undo", "1", "undo", "2", "q"], name="undone.jsonl")
    assert "nothing to undo: you have made no decision in this game yet\n" + PROMPT in done.stdout
    assert "undone: back to before your last decision\nRed 0, Blue 0\nRed: the dash of Red racer\n" in done.stdout
    _, straight = play(race, tmp_path, ["2", "q"], name="straight.jsonl")
    assert undone.read_bytes() == straight.read_bytes()


def test_odds_of_a_choice_before_making_it(race: Path, tmp_path: Path) -> None:
    """Issue 10 §3: ``odds NOTATION`` prints the exact odds of any legal choice without making it; an illegal one
    is refused with its rule, ``odds`` alone shows how it is used."""
    done, events = play(race, tmp_path, ["odds dash 5", "odds dash 9", "odds", "q"])
    assert "dash 5: made it 33.33% (1/3)\n" + PROMPT in done.stdout
    assert "refused: TOY-1: a dash is 1 to 6 squares (got 9)" in done.stdout
    assert "odds takes a notation, for example: odds dash 3" in done.stdout
    assert dashes(events) == []


def test_help_and_board(race: Path, tmp_path: Path) -> None:
    """``help`` lists the commands, this decision's notation forms with examples and where every form is
    documented; ``board`` shows the board again; a number out of range asks again."""
    done, _ = play(race, tmp_path, ["help", "board", "7", "q"])
    out = done.stdout
    assert "  a number         the suggested option of that number (1 to 3)\n" in out
    for command in ("odds NOTATION", "undo", "board", "save [FILE]", "q      ", "help"):
        assert f"\n  {command}" in out
    assert "this decision (a dash) is written:\n  dash N\nfor example: dash 3 | dash 2 | dash 1\n" in out
    assert "any legal choice is accepted, not only the suggested ones" in out
    assert "every decision's notation: docs/scenarios/toy.md" in out
    assert out.count("Red 0, Blue 0\n") == 2
    assert "choose a number from 1 to 3, or type a notation, or help (got '7')" in out


def test_save_then_resume_goes_on_exactly(race: Path, tmp_path: Path) -> None:
    """``save FILE`` mid-game writes a kessen-save/2 (every decision in notation, every roll as drawn) and the
    game goes on; ``kessen resume FILE`` with the rest of the answers plays exactly the same game to its end."""
    answers = ["1", "dash 4", "2", "dash 6", "1", "3", "1", "1"]
    _, whole = play(race, tmp_path, answers, name="whole.jsonl")
    save = tmp_path / "mid.json"
    done, _ = play(race, tmp_path, [*answers[:2], f"save {save}", "q"], name="part.jsonl")
    assert f"saved to {save}\n" + PROMPT in done.stdout
    data = json.loads(save.read_text())
    assert data["format"] == "kessen-save/2" and data["people"] == ["Red"] and data["lang"] == "en"
    assert [s for s in data["steps"] if s[0] == "d"][:3] == [["d", "dash 3"], ["d", "dash 3"], ["d", "dash 4"]]
    resumed = tmp_path / "resumed.jsonl"
    again = toy("resume", str(save), "--events", str(resumed), stdin="".join(a + "\n" for a in answers[2:]))
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"resumed {save}\nRed ")
    assert resumed.read_bytes() == whole.read_bytes()
    assert "winner: " in again.stdout or "draw: " in again.stdout


def test_a_save_that_no_longer_replays_names_the_step(race: Path, tmp_path: Path) -> None:
    """Issue 9 §4: a resealed save whose recorded decision is no longer legal is refused in one line naming the
    step, the decision and the rule; nothing is played."""
    save = tmp_path / "game.json"
    play(race, tmp_path, ["1", "2", f"save {save}", "q"])
    data = json.loads(save.read_text())
    body = {k: v for k, v in data.items() if k != "checksum"}
    body["steps"][4] = ["d", "dash 9"]  # Red's second dash (Blue's is step 3)
    save.write_text(json.dumps({**body, "checksum": checksum(body)}))
    done = toy("resume", str(save))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"kessen: error: {save}: step 5 (dash by Red): 'dash 9' does not replay: TOY-1: a dash is 1 to 6 squares (got 9)\n"


def test_the_prompts_in_japanese(race: Path, tmp_path: Path) -> None:
    """--lang ja: the question, the odds labels, the prompt, the refusal, undo, help and the save notice are all
    Japanese; none of the English ones is left."""
    answers = ["dash 9", "undo", "odds dash 4", "help", "1", "q"]
    done, _ = play(race, tmp_path, answers, "--lang", "ja", "--save", str(tmp_path / "game.json"))
    out = done.stdout
    assert "Red: ダッシュ: Red racer\n   1. dash 3  成功 66.7% (2/3)\n" in out
    assert "選択(番号、記法、help、q): " in out and "できません: TOY-1: " in out
    assert "取り消せる決定はありません" in out and "dash 4: 成功 50.00% (1/2)" in out
    assert "この決定(ダッシュ)の書き方:\n  dash N\n例: dash 3 | dash 2 | dash 1\n" in out
    assert f"{tmp_path / 'game.json'} に保存しました" in " ".join(out.split())
    for english in ("your choice", "refused", "nothing to undo", "made it", "saved to", "what you can type"):
        assert english not in out
