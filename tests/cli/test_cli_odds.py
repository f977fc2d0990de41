"""The ``kessen odds`` command: listings, schema, JSON and table output, and bad input.

Output tests use typer's CliRunner on the app. Error tests go through ``kessen.cli.main:main`` (the
console script's entry point, which turns KessenError into one stderr line and exit 2): in-process
with patched ``sys.argv`` for the full list of cases, and as real subprocesses of ``.venv/bin/kessen``
for a representative subset.
"""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kessen import get_ruleset, ruleset_ids
from kessen.cli.main import app, main

KESSEN = Path(sys.executable).parent / "kessen"
SB = "song-of-blades"
runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> Any:
    result = runner.invoke(app, ["odds", *args], input=stdin)
    return result


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """Run the console script's entry point in-process: (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["kessen", *args])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    code = 0
    try:
        main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


def run_kessen(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """A real subprocess of the installed console script."""
    return subprocess.run([str(KESSEN), *args], input=stdin, capture_output=True, text=True, timeout=60)


# --- listings and schema ------------------------------------------------------------------


def test_odds_without_arguments_lists_every_ruleset_with_its_title() -> None:
    result = invoke()
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    for rid in ruleset_ids():
        assert any(line.split()[0] == rid and get_ruleset(rid).title in line for line in lines), rid


@pytest.mark.parametrize("rid", ruleset_ids())
def test_odds_with_a_ruleset_lists_its_procedures(rid: str) -> None:
    result = invoke(rid)
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines() if line.strip()]
    assert listed == list(get_ruleset(rid).procedures)


def _check_schema_node(node: Any, root: dict[str, Any]) -> None:
    """Every $ref resolves inside the document; every 'type' keyword is a JSON Schema type name."""
    types = {"object", "array", "string", "integer", "number", "boolean", "null"}
    if isinstance(node, list):
        for value in node:
            _check_schema_node(value, root)
        return
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/")
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
    if "type" in node:
        kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
        assert set(kinds) <= types
    for key, value in node.items():
        if key in ("properties", "$defs", "definitions", "patternProperties"):
            for schema in value.values():  # name → schema maps
                _check_schema_node(schema, root)
        elif key in ("items", "prefixItems", "anyOf", "oneOf", "allOf", "not", "additionalProperties"):
            _check_schema_node(value, root)


@pytest.mark.parametrize(
    ("rid", "procedure"), [(rid, name) for rid in ruleset_ids() for name in get_ruleset(rid).procedures]
)
def test_schema_prints_the_input_json_schema(rid: str, procedure: str) -> None:
    result = invoke(rid, procedure, "--schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    model = get_ruleset(rid).procedure(procedure).input_model
    assert schema["type"] == "object"
    assert schema.get("additionalProperties") is False
    assert set(schema["properties"]) == set(model.model_fields)
    required = {name for name, f in model.model_fields.items() if f.is_required()}
    assert set(schema.get("required", [])) == required
    _check_schema_node(schema, schema)


def test_schema_of_melee_has_the_spec_ranges() -> None:
    """§6.1: attacker_combat is an integer 0–12, attack_number 1–6 defaulting to 1."""
    schema = json.loads(invoke(SB, "melee", "--schema").stdout)
    combat = schema["properties"]["attacker_combat"]
    assert (combat["type"], combat["minimum"], combat["maximum"]) == ("integer", 0, 12)
    number = schema["properties"]["attack_number"]
    assert (number["minimum"], number["maximum"], number["default"]) == (1, 6, 1)


# --- JSON output --------------------------------------------------------------------------


def _valid_cases() -> list[Any]:
    data = Path(__file__).resolve().parents[1] / "data"
    cases = []
    for rid in ruleset_ids():
        for case in json.loads((data / f"{rid}.examples.json").read_text()):
            if not case.get("error"):
                cases.append(pytest.param(rid, case, id=f"{rid}:{case['id']}"))
    return cases


@pytest.mark.parametrize(("rid", "case"), _valid_cases())
def test_json_output_follows_the_odds_contract(rid: str, case: dict[str, Any], tmp_path: Path) -> None:
    """Distinct outcomes, reduced fractions that sum to exactly 1, p the float of the fraction."""
    path = tmp_path / "input.json"
    path.write_text(json.dumps(case["input"]))
    result = invoke(rid, case["procedure"], "--input", str(path))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"ruleset", "procedure", "input", "outcomes"}
    assert (doc["ruleset"], doc["procedure"]) == (rid, case["procedure"])
    total = Fraction(0)
    seen = set()
    for row in doc["outcomes"]:
        assert set(row) == {"outcome", "probability", "p"}
        num, den = (int(x) for x in row["probability"].split("/"))
        assert num > 0 and den > 0 and math.gcd(num, den) == 1
        assert all(v is None or isinstance(v, (bool, int, float, str)) for v in row["outcome"].values())
        assert row["p"] == float(Fraction(num, den))
        key = json.dumps(row["outcome"], sort_keys=True)
        assert key not in seen
        seen.add(key)
        total += Fraction(num, den)
    assert total == 1


def test_json_output_echoes_the_normalised_input_with_defaults() -> None:
    """§6.1: every field present, defaults filled."""
    doc = json.loads(invoke(SB, "melee", "--input", "-", stdin='{"attacker_combat": 3, "defender_combat": 2}').stdout)
    assert doc["input"]["attacker_state"] == "standing"
    assert doc["input"]["defender_can_recoil"] is True
    assert doc["input"]["attacker_enemies_in_contact"] == 1
    assert doc["input"]["attacker_combat"] == 3


def test_json_output_of_ex13_activation_from_stdin() -> None:
    """EX-13 through the command: 3 dice at Quality 4, each number of actions binomial(3, 1/2)."""
    doc = json.loads(invoke(SB, "activation", "--input", "-", stdin='{"quality": 4, "dice": 3}').stdout)
    got = {row["outcome"]["actions"]: row["probability"] for row in doc["outcomes"]}
    assert got == {0: "1/8", 1: "3/8", 2: "3/8", 3: "1/8"}


# --- table output -------------------------------------------------------------------------


def test_table_shows_percentages_and_numeric_statistics() -> None:
    """Activation, 3 dice at Quality 4: actions ~ binomial(3, 1/2): mean 1.5, sd √0.75 ≈ 0.866."""
    result = invoke(SB, "activation", "--input", "-", "--format", "table", stdin='{"quality": 4, "dice": 3}')
    assert result.exit_code == 0
    text = result.stdout
    for cell in ("1/8", "3/8", "12.50%", "37.50%", "87.50%", "100.00%"):
        assert cell in text
    assert "actions: mean 1.5, standard deviation 0.866" in text
    assert "failures: mean 1.5, standard deviation 0.866" in text
    assert "at least actions" in text and "at least failures" in text
    assert "turnover: mean" not in text  # a bool field gets no numeric table


def test_table_for_an_outcome_without_numbers_has_no_statistics() -> None:
    result = invoke(SB, "melee", "--format", "table", "--input", "-", stdin='{"attacker_combat": 3, "defender_combat": 3}')
    assert result.exit_code == 0
    assert "gruesome_kill" not in result.stdout  # EX-1: no gruesome kill at 3 against 3
    assert "16.67%" in result.stdout  # EX-1: a tie 1/6
    assert "standard deviation" not in result.stdout


# --- bad input ----------------------------------------------------------------------------

MELEE_OK = '{"attacker_combat": 3, "defender_combat": 3}'

# (arguments, standard input, strings the one stderr line must contain)
BAD_INPUT: dict[str, tuple[list[str], str, list[str]]] = {
    "unknown ruleset": (["odds", "no-such-game"], "", ["ruleset", "'no-such-game'"]),
    "unknown ruleset with a procedure": (["odds", "nope", "melee", "--input", "-"], MELEE_OK, ["ruleset", "'nope'"]),
    "unknown procedure": (["odds", SB, "charge"], "", ["procedure", "'charge'", "melee"]),
    "unknown procedure with schema": (["odds", SB, "charge", "--schema"], "", ["procedure", "'charge'"]),
    "unknown field": (["odds", SB, "activation", "--input", "-"], '{"quality": 3, "luck": 1}', ["luck", "unknown field", "1"]),
    "bool for an int": (["odds", SB, "activation", "--input", "-"], '{"quality": true}', ["quality", "True"]),
    "float for an int": (["odds", SB, "activation", "--input", "-"], '{"quality": 3.0}', ["quality", "3.0"]),
    "string for an int": (["odds", SB, "activation", "--input", "-"], '{"quality": "3"}', ["quality", "'3'"]),
    "int for a bool": (["odds", SB, "melee", "--input", "-"], '{"attacker_combat": 3, "defender_combat": 3, "ambush": 1}', ["ambush", "1"]),
    "enum case": (["odds", SB, "melee", "--input", "-"], '{"attacker_combat": 3, "defender_combat": 3, "defender_state": "Fallen"}', ["defender_state", "'Fallen'"]),
    "out of range high": (["odds", SB, "activation", "--input", "-"], '{"quality": 7}', ["quality", "7"]),
    "out of range low": (["odds", SB, "activation", "--input", "-"], '{"quality": 4, "dice": 0}', ["dice", "0"]),
    "list entry out of range": (["odds", SB, "disengage", "--input", "-"], '{"combat": 3, "enemies": [{"combat": 3}, {"combat": 13}]}', ["enemies[1].combat", "13"]),
    "empty list": (["odds", SB, "disengage", "--input", "-"], '{"combat": 3, "enemies": []}', ["enemies", "[]"]),
    "cross-field rule": (["odds", SB, "melee", "--input", "-"], '{"attacker_combat": 3, "defender_combat": 3, "free_hack": true, "ambush": true}', ["ambush", "True"]),
    "missing field": (["odds", SB, "activation", "--input", "-"], '{"dice": 2}', ["quality", "missing"]),
    "malformed JSON": (["odds", SB, "activation", "--input", "-"], '{"quality": 3', ["input", "JSON"]),
    "empty input": (["odds", SB, "activation", "--input", "-"], "", ["input", "JSON"]),
    "JSON array": (["odds", SB, "activation", "--input", "-"], "[3]", ["input", "[3]"]),
    "JSON number": (["odds", SB, "activation", "--input", "-"], "3", ["input", "3"]),
    "JSON null": (["odds", SB, "activation", "--input", "-"], "null", ["input", "None"]),
    "missing file": (["odds", SB, "activation", "--input", "/nonexistent/kessen-input.json"], "", ["/nonexistent/kessen-input.json: no such file"]),
    "directory for a file": (["odds", SB, "activation", "--input", "/"], "", ["/: is a folder, not an odds input file"]),
    "missing --input": (["odds", SB, "activation"], "", ["--input"]),
    "deep nesting": (["odds", SB, "activation", "--input", "-"], '{"quality": ' + "[" * 5000 + "]" * 5000 + "}", ["quality"]),
    "huge integer": (["odds", SB, "activation", "--input", "-"], '{"quality": ' + "9" * 5000 + "}", ["quality"]),
}


def _assert_one_error_line(code: int, out: str, err: str, needles: list[str]) -> None:
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("kessen: error: ")
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


@pytest.mark.parametrize("name", list(BAD_INPUT))
def test_bad_input_exits_2_with_one_stderr_line_naming_field_and_value(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args, stdin, needles = BAD_INPUT[name]
    _assert_one_error_line(*run_main(monkeypatch, capsys, args, stdin), needles)


@pytest.mark.parametrize(
    "name",
    ["unknown ruleset", "unknown procedure", "bool for an int", "float for an int", "string for an int",
     "malformed JSON", "JSON array", "missing file", "missing --input", "list entry out of range"],
)
def test_bad_input_through_the_real_console_script(name: str) -> None:
    args, stdin, needles = BAD_INPUT[name]
    done = run_kessen(args, stdin)
    _assert_one_error_line(done.returncode, done.stdout, done.stderr, needles)


def test_a_field_name_with_a_newline_still_gives_one_stderr_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown key is user text: a newline in it must not split the error over two lines."""
    code, out, err = run_main(monkeypatch, capsys, ["odds", SB, "activation", "--input", "-"], '{"quality": 3, "a\\nb": 1}')
    _assert_one_error_line(code, out, err, ["unknown field"])


def test_bad_input_file_with_invalid_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"quality": 3, "caf\xe9": 1}')
    code, out, err = run_main(monkeypatch, capsys, ["odds", SB, "activation", "--input", str(path)])
    _assert_one_error_line(code, out, err, [f"{path}: line 1: not UTF-8 text (byte 0xe9)"])


def test_an_unknown_format_is_a_usage_error_without_traceback() -> None:
    """typer reports a bad --format value itself: exit 2, nothing on stdout, no traceback."""
    done = run_kessen(["odds", SB, "activation", "--input", "-", "--format", "xml"], '{"quality": 3}')
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert "--format" in done.stderr and "xml" in done.stderr


def test_the_console_script_answers_a_valid_input_file(tmp_path: Path) -> None:
    path = tmp_path / "melee.json"
    path.write_text('{"attacker_combat": 3, "defender_combat": 3}')
    done = run_kessen(["odds", SB, "melee", "--input", str(path)])
    assert done.returncode == 0 and done.stderr == ""
    doc = json.loads(done.stdout)
    assert sum(Fraction(row["probability"]) for row in doc["outcomes"]) == 1


def test_cli_runner_surfaces_input_errors_as_exceptions() -> None:
    """Without main(), typer hands our InputError to the caller (main() is what turns it into exit 2)."""
    from kessen import InputError

    result = invoke(SB, "activation", "--input", "-", stdin='{"quality": 9}')
    assert isinstance(result.exception, InputError)
    assert result.exception.field == "quality" and result.exception.value == 9
