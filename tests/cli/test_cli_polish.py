"""Command-line polish (issue 8 §5, issue 14): --version, -h everywhere, help text on every option, typer's errors
in one line, quiet exit 0 on a closed pipe for every command, a draw that reads as a draw, the battle summary
labelled by the catalogues, and the README's example files under a folder git ignores."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console

from kessen import __version__, i18n
from kessen.cli.results import print_result, summary_value
from kessen.cli.main import app
from kessen.core.engine import Terminal

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")
STANDOFF = """ruleset = "song-of-blades"
name = "Standoff"
turns = 1

[[sides]]
side = "North"
models = [{ id = "n", name = "Scout", points = 20, quality = 6, combat = 1, x = 100.0, y = 100.0 }]

[[sides]]
side = "South"
models = [{ id = "s", name = "Scout", points = 20, quality = 6, combat = 1, x = 800.0, y = 800.0 }]
"""
COMMANDS = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def kessen(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, input=stdin, timeout=300, cwd=ROOT)


def test_version_says_which_engine_runs() -> None:
    """Issue 26: the version, and the engine: compiled when it is built and current, else pure Python and why."""
    done = kessen("--version")
    assert (done.returncode, done.stderr) == (0, "")
    assert re.fullmatch(rf"kessen {re.escape(__version__)} \((compiled engine \(\d+ modules compiled with mypyc\)|pure-Python engine: .+)\)\n", done.stdout)
    pure = subprocess.run([KESSEN, "--version"], capture_output=True, text=True, env={**os.environ, "KESSEN_ENGINE": "pure"})
    assert (pure.stdout, pure.stderr) == (f"kessen {__version__} (pure-Python engine: KESSEN_ENGINE=pure)\n", "")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_h_is_help_everywhere(command: str | None) -> None:
    """§5: -h as well as --help, for kessen and every command."""
    words = [command] if command else []
    short, long = kessen(*words, "-h"), kessen(*words, "--help")
    assert short.returncode == long.returncode == 0
    assert short.stdout == long.stdout and short.stdout.startswith("Usage: kessen")


def test_kessen_alone_prints_its_help() -> None:
    done = kessen()
    assert done.returncode == 0 and "Commands:" in done.stdout and all(c in done.stdout for c in COMMANDS)


def test_every_option_of_every_command_has_help_text() -> None:
    """§5: every option and argument of every command, and of kessen itself, says what it is for."""
    group = typer.main.get_command(app)
    missing = [
        f"{name} {param.name}"
        for name, command in [("kessen", group), *group.commands.items()]  # type: ignore[attr-defined]
        for param in command.params
        if not getattr(param, "help", None)
    ]
    assert missing == []


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["battle"], "Missing argument 'scenario'. (see kessen battle -h)"),
        (["battle", MOB, "--seed", "x"], "'--seed'"),
        (["battle", MOB, "--seed", "-1"], "'--seed'"),
        (["battle", MOB, "--seed", str(2**64)], "'--seed'"),
        (["battle", MOB, "--lang", "fr"], "'--lang'"),
        (["battle", MOB, "--bogus"], "--bogus"),
        (["odds", "song-of-blades", "melee", "--format", "xml"], "'--format'"),
        (["conquer"], "conquer"),
        (["resume"], "Missing argument 'save_file'"),
    ],
)
def test_typer_errors_are_one_line_and_exit_2(args: list[str], needle: str) -> None:
    """§5: bad option values, missing arguments, unknown options and commands: one line on stderr, exit 2."""
    done = kessen(*args)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kessen: error: ") and needle in lines[0], done.stderr


def _save(tmp: Path) -> str:
    path = tmp / "game.json"
    subprocess.run([KESSEN, "battle", MOB, "--seed", "5", "--save", str(path)], capture_output=True, check=True, timeout=300)
    return str(path)


PIPED: list[list[str]] = [
    ["--version"], ["-h"], ["battle", "-h"], ["odds"], ["odds", "song-of-blades"], ["odds", "song-of-blades", "melee", "--schema"],
    ["odds", "song-of-blades", "melee", "--input", "examples/song-of-blades/melee.json"],
    ["odds", "song-of-blades", "melee", "--input", "examples/song-of-blades/melee.json", "--format", "table"],
    ["battle", MOB, "--seed", "3"], ["battle", MOB, "--runs", "10"], ["board", MOB],
    ["resume", "{save}"], ["scenarios"], ["check", MOB], ["schema", "legions"],
]


@pytest.mark.parametrize("args", PIPED + [["play", MOB, "--side", "Hero", "--save", "{tmp}/p.json"]], ids=lambda a: " ".join(a)[:40])
def test_a_closed_pipe_exits_0_quietly(tmp_path: Path, args: list[str]) -> None:
    """Issue 14: broken pipes exit 0 quietly for every command (kessen battle ... | head -1): standard output is
    closed before kessen writes to it."""
    words = [a.replace("{save}", _save(tmp_path) if a == "{save}" else a).replace("{tmp}", str(tmp_path)) for a in args]
    with subprocess.Popen([KESSEN, *words], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stdin is not None
        child.stdout.close()
        _, err = child.communicate(input=b"q\n", timeout=300)
    assert child.returncode == 0, err.decode()
    assert err == b""


@pytest.mark.parametrize("reader", ["head -1", "true"])
def test_battle_into_head_exits_0_quietly(reader: str) -> None:
    """Issue 14, as a person types it: `kessen battle ... | head -1` prints one line and kessen exits 0 silently;
    so does a reader that leaves before kessen writes anything (`| true`)."""
    done = subprocess.run(
        ["bash", "-c", f'"{KESSEN}" battle "{MOB}" --seed 3 | {reader}; echo "status ${{PIPESTATUS[0]}}"'],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert done.stdout.splitlines()[-1] == "status 0" and done.stderr == "", (done.stdout, done.stderr)
    assert len(done.stdout.splitlines()) == (2 if reader == "head -1" else 1)


def test_a_draw_reads_as_a_draw_in_both_languages(tmp_path: Path) -> None:
    """§5: a battle no side won says so (not "winner: draw" nor なし（同値）の勝ち)."""
    path = tmp_path / "standoff.toml"
    path.write_text(STANDOFF)
    english, japanese = kessen("battle", str(path)), kessen("battle", str(path), "--lang", "ja")
    assert "\ndraw: no side won\n" in english.stdout and "\nwinner:" not in english.stdout
    assert "\n引き分け: 勝った陣営はない\n" in japanese.stdout and "\n勝者:" not in japanese.stdout


def _printed(ruleset: str, terminal: Terminal, lang: str) -> str:
    out = Console(record=True, width=200, highlight=False)
    with out.capture() as captured:
        print_result(ruleset, terminal, lang, out)
    return captured.get()


def test_the_summary_uses_the_catalogues_labels_and_never_a_python_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    """§5 and COMMON.md: common keys labelled by cli.<lang>.toml [summary], a ruleset's own keys by its catalogue's
    [summary], else the key; dicts as `side n, side n`, lists joined, words translated, no repr."""
    terminal = Terminal("North", {"rounds": 4, "casualties": {"North": 1, "South": 3}, "broken": ["x-1", "y-2"], "result": "decisive", "held": True, "objective_bonus": None, "broken_none": []})
    real = i18n.catalogue

    def with_summary(ruleset: str, lang: str) -> dict[str, Any]:
        found = dict(real(ruleset, lang))
        if ruleset == "armies-clash":
            found["summary"] = {"broken": {"en": "formations broken", "ja": "崩壊したフォーメーション"}[lang]}
        return found

    monkeypatch.setattr(i18n, "catalogue", with_summary)
    english = _printed("armies-clash", terminal, "en")
    assert english.splitlines() == [
        "winner: North",
        "  rounds played: 4",
        "  casualties of each side: North 1, South 3",
        "  formations broken: x-1, y-2",
        "  result: decisive victory",
        "  held: yes",
        "  objective bonus: -",
        "  broken none: -",
    ]
    japanese = _printed("armies-clash", terminal, "ja")
    assert "  経過ラウンド数: 4" in japanese and "  各陣営の損害: North 1, South 3" in japanese
    assert "  崩壊したフォーメーション: x-1, y-2" in japanese and "完全な勝利" in japanese and "  held: はい" in japanese
    assert not re.search(r"\[|\]|True|None|\{", english + japanese)


def test_summary_values_read_as_a_player_would() -> None:
    assert summary_value("legions", "en", {"Auxilia": "4/9", "Traitors": "13/19"}) == "Auxilia 4/9, Traitors 13/19"
    assert summary_value("legions", "ja", False) == "いいえ"
    assert summary_value("legions", "en", 2.5) == "2.5"


def test_readme_example_files_go_under_a_folder_git_ignores() -> None:
    """§5: every file the README's commands write (--events, --save) lies under out/, which .gitignore lists, and
    the README makes the folder first."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    written = re.findall(r"--(?:events|save)\s+(\S+)", readme)
    resumed = re.findall(r"kessen resume\s+(\S+\.json)", readme)
    assert written and all(path.startswith("out/") for path in written + resumed), written + resumed
    assert "/out/" in (ROOT / ".gitignore").read_text().split() and "mkdir -p out" in readme
    assert not any(line.strip().startswith(("git add", "git commit")) for line in readme.splitlines())
