"""Scenario files that explain themselves (issue 8 §4), through the real console script: ``kessen scenarios``,
``kessen check``, ``kessen schema``, the ``ruleset`` key, the guess from the folder said on stderr, and one clear
line for a missing file, a folder, bad TOML, non-UTF-8 bytes; a BOM accepted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kessen.io.scenarios import scenario_model
from kessen.rulesets import ruleset_ids

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
MOB = ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml"


def kessen(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_scenarios_lists_the_shipped_scenarios_with_the_compiled_engine_too(tmp_path: Path) -> None:
    """Issue 22 §1: the compiled engine (``make compiled``: a built package, not the checkout) ships the scenarios in
    its package (``kessen/examples``), and ``kessen scenarios`` lists every one of them there, from any folder."""
    from tests.sim.test_compiled_parity import COMPILED, needs_compiled

    needs_compiled()
    env = {**os.environ, "PYTHONPATH": str(COMPILED)}
    done = subprocess.run(
        [sys.executable, "-c", "from kessen.cli.main import main; main()", "scenarios"], capture_output=True, text=True,
        timeout=300, cwd=tmp_path, env=env,
    )
    assert done.returncode == 0, done.stderr
    listed = {tuple(line.split()[:2]) for line in done.stdout.splitlines()}
    assert {(p.parent.name, p.stem) for p in (ROOT / "examples").glob("*/*.toml")} <= listed
    assert done.stdout.splitlines()[-1] == f"(the files are {COMPILED / 'kessen' / 'examples'}/<ruleset>/<scenario>.toml)"


def one_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("kessen: error: "), done.stderr
    return lines[0].removeprefix("kessen: error: ")


def test_scenarios_lists_ruleset_name_sides_and_description() -> None:
    """§4: one line per shipped scenario, with its ruleset, name, sides and one line of description."""
    done = kessen("scenarios")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["ruleset", "scenario", "sides", "description"]
    for path in sorted((ROOT / "examples").glob("*/*.toml")):
        description = tomllib.loads(path.read_text(encoding="utf-8"))["description"]
        row = next(line for line in lines if line.split()[:2] == [path.parent.name, path.stem])
        assert row.endswith(description)
    mob = next(line for line in lines if "hero-against-mob" in line)
    assert "Hero, Goblins" in mob
    assert lines[-1] == "(the files are examples/<ruleset>/<scenario>.toml)"
    ja = kessen("scenarios", "--lang", "ja")
    assert ja.stdout.splitlines()[0].split() == ["ルールセット", "シナリオ", "陣営", "説明"]


def test_check_validates_without_playing_and_prints_one_ok_line() -> None:
    """§4: kessen check FILE: exit 0 and one line naming the file, ruleset, name and sides."""
    for path in sorted((ROOT / "examples").glob("*/*.toml")):
        done = kessen("check", str(path.relative_to(ROOT)))
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert done.stdout.count("\n") == 1 and done.stdout.startswith(f"ok: {path.relative_to(ROOT)}: {path.parent.name} scenario ")
    assert kessen("check", str(MOB)).stdout == f'ok: {MOB}: song-of-blades scenario "Hero against the mob", sides Hero, Goblins\n'


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (None, "{path}: no such file (a scenario file was expected)"),
        ("folder", "{path}: is a folder, not a scenario file"),
        (b'ruleset = "song-of-blades"\nname = \n', "{path}: not valid TOML (invalid value (at line 2, column 8))"),
        (b'ruleset = "song-of-blades"\nname = "caf\xe9"\n', "{path}: line 2: not UTF-8 text (byte 0xe9)"),
        (b'ruleset = "song-of-blades"\nname = ' + b"[" * 10_000 + b"]" * 10_000 + b"\n", "{path}: line 2: nested more than 32 levels deep"),
        (b'ruleset = "song-of-blades"\nturns = ' + b"9" * 5000 + b"\n", "{path}: line 2: a number of more than 30 digits"),
        (b'ruleset = "song-of-blades"\nturns = nan\n', "{path}: turns: must be a finite number (got nan)"),
    ],
    ids=["missing", "folder", "bad TOML", "non-UTF-8", "deep nesting", "huge number", "nan"],
)
def test_check_gives_each_kind_of_bad_file_its_own_line(tmp_path: Path, write: bytes | str | None, message: str) -> None:
    """§4, issue 14: a missing file, a folder, bad TOML, non-UTF-8 bytes, deep nesting, a huge number: each its
    own clear line naming the file, exit 2, no traceback."""
    path = tmp_path / "s.toml"
    if write == "folder":
        path.mkdir()
    elif isinstance(write, bytes):
        path.write_bytes(write)
    assert one_error(kessen("check", str(path))) == message.format(path=path)


def test_check_reports_the_field_and_value_of_a_bad_scenario(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(MOB.read_text(encoding="utf-8").replace("combat = 5", "combat = 55"), encoding="utf-8")
    assert one_error(kessen("check", str(path))).startswith(f"{path}: sides[0].models[0].combat: must be ≤ ")


def test_a_bom_is_accepted_in_a_scenario_and_an_odds_input(tmp_path: Path) -> None:
    """§4: a UTF-8 BOM is accepted in every JSON and TOML input."""
    scenario = tmp_path / "bom.toml"
    scenario.write_bytes(b"\xef\xbb\xbf" + MOB.read_bytes())
    assert kessen("check", str(scenario)).returncode == 0
    odds_input = tmp_path / "bom.json"
    odds_input.write_bytes(b'\xef\xbb\xbf{"attacker_combat": 3, "defender_combat": 2}')
    done = kessen("odds", "song-of-blades", "melee", "--input", str(odds_input))
    assert done.returncode == 0 and json.loads(done.stdout)["procedure"] == "melee"


def test_a_guessed_ruleset_is_said_on_stderr(tmp_path: Path) -> None:
    """§4: without a ruleset key, the folder decides and a note on stderr says a guess was made."""
    guessed = tmp_path / "song-of-blades" / "mob.toml"
    guessed.parent.mkdir()
    guessed.write_text("".join(line for line in MOB.read_text(encoding="utf-8").splitlines(keepends=True) if not line.startswith("ruleset")))
    done = kessen("check", str(guessed))
    assert done.returncode == 0 and done.stdout.startswith("ok: ")
    assert done.stderr == f'note: {guessed} names no ruleset; read as song-of-blades from its folder (add ruleset = "song-of-blades" to the file)\n'
    assert kessen("check", str(guessed), "--ruleset", "song-of-blades").stderr == ""
    battle = kessen("battle", str(guessed), "--seed", "1")
    assert battle.returncode == 0 and battle.stderr.startswith("note: ")


def test_a_ruleset_key_against_the_ruleset_option_is_an_error() -> None:
    """§4: a key that contradicts --ruleset is an error."""
    assert one_error(kessen("battle", str(MOB), "--ruleset", "legions")) == (
        f'--ruleset: {MOB} is a song-of-blades scenario (it says ruleset = "song-of-blades") (got \'legions\')'
    )


@pytest.mark.parametrize("rid", ruleset_ids())
def test_schema_prints_the_scenario_json_schema_with_every_field_explained_at_the_top(rid: str) -> None:
    """§4: kessen schema RULESET prints the scenario file's JSON Schema (the model's own)."""
    done = kessen("schema", rid)
    assert done.returncode == 0, done.stderr
    schema = json.loads(done.stdout)
    assert schema == scenario_model(rid).model_json_schema()
    assert schema["additionalProperties"] is False and {"ruleset", "description", "name"} <= set(schema["properties"])


def test_schema_of_an_unknown_ruleset_is_one_line() -> None:
    assert one_error(kessen("schema", "chess")).startswith("ruleset: unknown ruleset, expected one of ")
