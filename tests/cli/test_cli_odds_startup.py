"""Issue 26, start-up: ``kessen odds`` of the plain forms runs without the typer app and rich, and answers byte for
byte what the typer app answers; ``import kessen`` loads no pydantic (the input models load it, with a ruleset's
procedures). Structural checks only: what a fresh interpreter has loaded, never how long it took."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import kessen.cli.main as cli_main
from kessen.cli.odds import OddsArguments, plain_arguments

ROOT = Path(__file__).resolve().parents[2]
SB = "song-of-blades"
MELEE = "examples/song-of-blades/melee.json"

# In a fresh interpreter: the console script's entry point on the command line given, then (at exit) the modules
# loaded, as JSON on standard error's last line.
PROGRAM = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["kessen", *sys.argv[1:]]
from kessen.cli.main import main
main()
"""

HEAVY = ("typer", "rich", "click", "shellingham")


def loaded_after(*args: str, stdin: str = "") -> tuple[int, str, list[str]]:
    """(exit status, standard output, the modules loaded) of the entry point on *args* in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return done.returncode, done.stdout, loaded


def heavy(loaded: list[str]) -> list[str]:
    return [m for m in loaded if m.split(".")[0] in HEAVY]


@pytest.mark.parametrize(("args", "ruleset"), [
    (["odds", SB, "melee", "--input", MELEE], SB),
    (["odds", "battlehost", "fight", "--input=examples/battlehost/fight.json", "--format", "json"], "battlehost"),
    (["odds", "--input", "examples/legions/fire.json", "legions", "fire"], "legions"),
    (["odds", "armies-clash", "attack", "--schema"], None),
], ids=["song-of-blades", "battlehost", "options-first", "schema"])
def test_issue_26_kessen_odds_answers_without_typer_or_rich(args: list[str], ruleset: str | None) -> None:
    """Issue 26: a plain ``kessen odds`` command (a question, its schema) loads neither typer (nor its click) nor rich;
    its answer is the odds contract (or the input's JSON Schema)."""
    code, out, loaded = loaded_after(*args)
    assert code == 0
    assert heavy(loaded) == []
    answer = json.loads(out)
    assert answer["ruleset"] == ruleset if ruleset else answer["properties"]["attacks"]["type"] == "array"


EXTRAS = ("fastapi", "starlette", "uvicorn", "dask", "distributed", "matplotlib", "pandas", "pyarrow", "mcp", "numpy", "kessen.web", "kessen.sim", "kessen.mcp", "kessen.envs", "kessen.ai")
"""What only other commands use: the web page, sweeps and their plots and exports, the MCP server, the AIs."""


@pytest.mark.parametrize("args", [
    ["odds", "legions", "fire", "--input", "examples/legions/fire.json", "--format", "table"],
    ["odds", "armies-clash", "attack", "--input", "examples/armies-clash/attack.json"],
    ["odds", "battlehost"],
], ids=["legions-table", "armies-clash", "procedures"])
def test_issue_26_kessen_odds_loads_no_web_sweep_plot_or_ai_modules(args: list[str]) -> None:
    """Issue 26: ``kessen odds`` (a question, its table, a listing) loads none of the web's, the sweeps', the plots',
    the MCP server's or the AIs' modules: only the asked ruleset's procedures, pydantic for their input, and rich when
    it prints a table or a listing."""
    code, out, loaded = loaded_after(*args)
    assert code == 0 and out != ""
    assert [m for m in loaded if m in EXTRAS or m.startswith(tuple(f"{extra}." for extra in EXTRAS))] == []
    assert ("rich" in loaded) == (args[-1] == "table" or "--input" not in args)


def test_issue_26_an_odds_error_loads_neither_typer_nor_rich() -> None:
    """Issue 26: bad input on the plain path is its one line and exit 2, still without the typer app."""
    code, out, loaded = loaded_after("odds", SB, "melee", "--input", "-", stdin='{"attacker_combat": 13, "defender_combat": 2}')
    assert (code, out, heavy(loaded)) == (2, "", [])


def test_issue_26_other_command_lines_go_to_the_typer_app() -> None:
    """Issue 26: help, and any command but odds, is the typer app's (it loads typer then)."""
    code, out, loaded = loaded_after("odds", "-h")
    assert code == 0 and "--input FILE" in out and "typer" in loaded


def test_issue_26_import_kessen_loads_no_pydantic_nor_any_engine() -> None:
    """Issue 26: ``import kessen`` loads neither pydantic nor a ruleset; ``kessen.odds`` loads the asked ruleset's
    procedures (and pydantic with their input models) when it is called."""
    program = (
        "import json, sys, kessen; before = sorted(sys.modules); "
        "p = kessen.odds('song-of-blades', 'activation', {'quality': 4}).probability(actions=1); "
        "print(json.dumps([before, sorted(sys.modules), str(p)]))"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True)
    before, after, probability = json.loads(done.stdout)
    assert [m for m in before if m.startswith(("pydantic", "kessen.rulesets.", "kessen.io.validation"))] == []
    assert {"pydantic", "kessen.io.validation", "kessen.rulesets.song_of_blades.procedures"} <= set(after)
    assert probability == "1/2"


# --- the plain path and the typer app answer alike ------------------------------------------------------------

PLAIN = {
    "question": (["odds", SB, "melee", "--input", MELEE], ""),
    "question-table": (["odds", SB, "melee", "--input", MELEE, "--format", "table"], ""),
    "equals-forms": (["odds", SB, "melee", f"--input={MELEE}", "--format=table"], ""),
    "options-first": (["odds", "--format", "json", "--input", MELEE, SB, "melee"], ""),
    "stdin": (["odds", SB, "activation", "--input", "-"], '{"quality": 3}'),
    "schema": (["odds", "legions", "fire", "--schema"], ""),
    "rulesets": (["odds"], ""),
    "procedures": (["odds", "battlehost"], ""),
    "procedures-ignore-input": (["odds", "battlehost", "--input", MELEE], ""),
    "unknown-ruleset": (["odds", "chess", "melee", "--input", MELEE], ""),
    "unknown-procedure": (["odds", SB, "joust", "--input", MELEE], ""),
    "no-input": (["odds", SB, "melee"], ""),
    "missing-file": (["odds", SB, "melee", "--input", "no/such.json"], ""),
    "empty-file-name": (["odds", SB, "melee", "--input="], ""),
    "bad-field": (["odds", SB, "melee", "--input", "-"], '{"attacker_combat": 13, "defender_combat": 2}'),
    "bad-json": (["odds", SB, "melee", "--input", "-"], '{"attacker_combat": '),
    "unknown-field": (["odds", SB, "activation", "--input", "-"], '{"quality": 3, "qualty": 4}'),
}
"""Command lines read without typer, with what standard input holds."""

TYPER_ONLY = {
    "help": ["odds", "-h"],
    "long-help": ["odds", SB, "--help"],
    "format-case": ["odds", SB, "melee", "--input", MELEE, "--format", "JSON"],
    "unknown-format": ["odds", SB, "melee", "--input", MELEE, "--format=xml"],
    "missing-value": ["odds", SB, "melee", "--input"],
    "option-as-value": ["odds", SB, "melee", "--input", "--schema"],
    "extra-argument": ["odds", SB, "melee", "extra", "--input", MELEE],
    "unknown-option": ["odds", SB, "melee", "--inpt", MELEE],
    "twice": ["odds", SB, "melee", "--input", MELEE, "--input", MELEE],
    "flag-with-value": ["odds", SB, "melee", "--schema=yes"],
    "dash-dash": ["odds", "--", SB, "melee"],
    "another-command": ["scenarios"],
    "version": ["--version"],
}
"""Command lines left to the typer app (its help, its usage errors, every other command)."""


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], stdin: str, *, typer_only: bool) -> tuple[int, str, str]:
    """The entry point in-process: (exit status, stdout, stderr); *typer_only* sends every command line to the
    typer app, as before issue 26."""
    monkeypatch.setattr(sys, "argv", ["kessen", *args])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    if typer_only:
        monkeypatch.setattr(cli_main, "plain_arguments", lambda args: None)
    code = 0
    try:
        cli_main.main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", list(PLAIN))
def test_issue_26_plain_odds_answers_byte_for_byte_as_the_typer_app(
    case: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 26: a plain ``kessen odds`` command line is read without typer, and its output, its error line and its
    exit status are those of the typer app."""
    args, stdin = PLAIN[case]
    monkeypatch.chdir(ROOT)
    assert plain_arguments(args) is not None
    plain = run_main(monkeypatch, capsys, args, stdin, typer_only=False)
    assert plain == run_main(monkeypatch, capsys, args, stdin, typer_only=True)
    assert plain[0] in (0, 2) and (plain[1] if plain[0] == 0 else plain[2]) != ""
    if plain[0] == 2:
        assert plain[2].startswith("kessen: error: ") and plain[2].count("\n") == 1


@pytest.mark.parametrize("case", list(TYPER_ONLY))
def test_issue_26_any_other_command_line_is_the_typer_apps(case: str) -> None:
    """Issue 26: help, a usage error, an option given twice and every other command are left to the typer app."""
    assert plain_arguments(TYPER_ONLY[case]) is None


def test_issue_26_plain_arguments_read_each_form() -> None:
    """Issue 26: the arguments in any order, each option's value next or after ``=``, ``-`` for standard input."""
    assert plain_arguments(["odds", "--input", "-", SB, "--format=table", "melee"]) == OddsArguments(SB, "melee", "-", False, "table")
    assert plain_arguments(["odds", SB, "melee", "--schema"]) == OddsArguments(SB, "melee", None, True, "json")
    assert plain_arguments(["odds"]) == OddsArguments(None, None, None, False, "json")
    assert plain_arguments([]) is None and plain_arguments(["battle", "x.toml"]) is None
