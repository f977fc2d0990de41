"""The one bounded loading path of every input file (kessen.io.files, kessen.io.bounds): size, encoding, nesting,
number size, NaN, duplicate keys; each refusal one InputError naming the file, the field or line, and the value."""

from __future__ import annotations

import io
import json
import os
import tomllib
from pathlib import Path

import pytest

from kessen.core.errors import InputError
from kessen.io.bounds import MAX_DEPTH, MAX_INTEGER, MAX_TOML_ENTRIES, MAX_TOML_LINES
from kessen.io.files import (
    ODDS_INPUT, SAVE, SCENARIO, SWEEP, load_json, load_toml, load_toml_file, parse_json, parse_toml, read_input, read_json,
)
from kessen.io.validation import StrictModel

ROOT = Path(__file__).resolve().parents[2]
MELEE = ROOT / "examples" / "song-of-blades" / "melee.json"


class Knight(StrictModel):
    name: str
    combat: int = 3


def refusal(call: object, *args: object) -> str:
    """The one-line message of the InputError that *call* raises."""
    with pytest.raises(InputError) as caught:
        call(*args)  # type: ignore[operator]
    message = str(caught.value)
    assert "\n" not in message
    return message


# --- reading: missing, folder, size, encoding, BOM --------------------------------------------------------------


def test_a_missing_file_a_folder_and_a_too_large_file_each_have_their_own_line(tmp_path: Path) -> None:
    """§4: a missing file, a directory and an oversized file are told apart, each naming the path."""
    assert refusal(read_input, str(tmp_path / "nope.toml"), SCENARIO) == f"{tmp_path / 'nope.toml'}: no such file (a scenario file was expected)"
    assert refusal(read_input, str(tmp_path), SCENARIO) == f"{tmp_path}: is a folder, not a scenario file"
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (ODDS_INPUT.limit + 1))
    assert refusal(read_input, str(big), ODDS_INPUT) == f"{big}: larger than an odds input file may be (1 MiB)"
    exact = tmp_path / "exact.json"
    exact.write_bytes(b" " * ODDS_INPUT.limit)
    assert len(read_input(str(exact), ODDS_INPUT)) == ODDS_INPUT.limit


def test_dev_zero_is_refused_without_reading_it_all() -> None:
    """Issue 14: /dev/zero as any input is read only up to the kind's limit, then refused."""
    for kind in (ODDS_INPUT, SCENARIO, SAVE, SWEEP):
        assert refusal(read_input, "/dev/zero", kind) == f"/dev/zero: larger than {kind.a_file} may be ({kind.limit // 2**20} MiB)"


def test_standard_input_is_bounded_and_decoded_the_same_way() -> None:
    """Issue 14: `--input -` reads at most the limit and refuses non-UTF-8 bytes with one line."""
    assert read_input("-", ODDS_INPUT, stdin=io.BytesIO(b'\xef\xbb\xbf{"quality": 3}')) == '{"quality": 3}'
    with pytest.raises(InputError, match=r"^standard input: line 2: not UTF-8 text \(byte 0xff\)$"):
        read_input("-", ODDS_INPUT, stdin=io.BytesIO(b'{\n"quality": \xff}'))
    with pytest.raises(InputError, match="larger than an odds input file"):
        read_input("-", ODDS_INPUT, stdin=io.BytesIO(b" " * (ODDS_INPUT.limit + 1)))


def test_non_utf8_bytes_name_the_file_and_line(tmp_path: Path) -> None:
    """§4: non-UTF-8 bytes get their own line, naming the file, the line and the byte."""
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'name = "ok"\nside = "caf\xe9"\n')
    assert refusal(read_input, str(path), SCENARIO) == f"{path}: line 2: not UTF-8 text (byte 0xe9)"


def test_a_utf8_bom_is_accepted_in_json_and_toml(tmp_path: Path) -> None:
    """§4: a UTF-8 BOM is accepted in every JSON and TOML input, from a file or as text."""
    toml_file, json_file = tmp_path / "k.toml", tmp_path / "k.json"
    toml_file.write_bytes(b'\xef\xbb\xbfname = "Tristan"\n')
    json_file.write_bytes(b'\xef\xbb\xbf{"name": "Tristan"}')
    assert load_toml_file(Knight, str(toml_file), SCENARIO) == Knight(name="Tristan")
    assert read_json(str(json_file)) == {"name": "Tristan"}
    assert load_json(Knight, '\ufeff{"name": "Tristan"}', None) == Knight(name="Tristan")
    assert load_toml(Knight, '\ufeffname = "Tristan"', "k.toml") == Knight(name="Tristan")


# --- nesting ---------------------------------------------------------------------------------------------------


def test_deep_json_is_refused_before_parsing_naming_the_field() -> None:
    """Issue 14: JSON nested 10,000 levels is one line naming the field, not a RecursionError."""
    text = '{"knights": [{"name": ' + "[" * 10_000 + "]" * 10_000 + "}]}"
    assert refusal(parse_json, text, "k.json") == f"k.json: knights[0]...: nested more than {MAX_DEPTH} levels deep"
    assert refusal(parse_json, "[" * 5000, None) == f"[0][0]...: nested more than {MAX_DEPTH} levels deep"


def test_nesting_up_to_the_limit_is_accepted_and_one_more_is_not() -> None:
    """The limit is exact: MAX_DEPTH containers load, MAX_DEPTH + 1 do not (JSON and TOML arrays)."""
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "d.json") is not None
    refusal(parse_json, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "d.json")
    assert parse_toml("a = " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "d.toml")["a"] is not None
    refusal(parse_toml, "a = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "d.toml")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('name = "x"\nfoo = ' + "[" * 10_000 + "]" * 10_000 + "\n", 2),
        ('name = "x"\n\nfoo = ' + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n", 3),
        ('name = "x"\n' + ".".join(["a"] * 10_000) + " = 1\n", 2),
        ("[" + ".".join(["t"] * 10_000) + "]\n", 1),
    ],
    ids=["arrays", "inline tables", "dotted key", "table header"],
)
def test_deep_toml_is_refused_before_parsing_naming_the_line(text: str, line: int) -> None:
    """Issue 14: a TOML value nested 10,000 levels deep (arrays, inline tables, dotted keys) is one line."""
    assert refusal(parse_toml, text, "s.toml") == f"s.toml: line {line}: nested more than {MAX_DEPTH} levels deep"


def test_dotted_keys_deep_only_together_are_refused_after_parsing() -> None:
    """Nesting made of a table header and a dotted key, each short, is caught on the parsed data."""
    text = "[" + ".".join(["t"] * 20) + "]\n" + ".".join(["k"] * 20) + " = 1\n"
    assert refusal(parse_toml, text, "s.toml") == f"s.toml: t.t...: nested more than {MAX_DEPTH} levels deep"


@pytest.mark.parametrize(
    "text",
    [
        'a = "' + "[" * 100 + '"\n',
        "a = '" + "{" * 100 + "'\n",
        'a = """\n' + "[" * 100 + '\n"""\n',
        "a = '''\n" + "[" * 100 + "\n'''\n",
        'a = """x""""\nb = [[1]]\n',  # a quote just inside the closing delimiter
        '# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\na = 1\n',
        'a = "\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n',
    ],
    ids=["basic", "literal", "multi-line basic", "multi-line literal", "extra quote", "comment", "escaped quote"],
)
def test_brackets_inside_strings_and_comments_do_not_count(text: str) -> None:
    """The scan before parsing reads TOML strings and comments as such: brackets in them are text."""
    assert parse_toml(text, "s.toml")["a"] is not None


def test_brackets_inside_json_strings_do_not_count() -> None:
    assert parse_json(json.dumps({"a": "[" * 100, "b": '\\"{' * 50}), "s.json")["a"] == "[" * 100


# --- parse cost ------------------------------------------------------------------------------------------------


def never_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any call of tomllib fail the test: a refusal must come from the count before parsing."""

    def parse(text: str) -> None:
        raise AssertionError("tomllib was called")

    monkeypatch.setattr(tomllib, "loads", parse)


def test_sixty_thousand_empty_tables_are_refused_before_parsing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 22 §3: 589 KB of 60,000 empty tables (seconds of tomllib) is refused by counting, naming the file."""
    text = "".join(f"[table{i}]\n" for i in range(60_000))
    path = tmp_path / "tables.toml"
    path.write_text(text)
    never_parsed(monkeypatch)
    line = f"{path}: more than 50,000 keys, tables and list entries (60,000 of =, [, {{ and , outside strings and comments)"
    assert refusal(parse_toml, text, str(path)) == line
    assert refusal(load_toml_file, Knight, str(path), SCENARIO) == line


def test_the_entry_limit_is_exact_and_strings_and_comments_do_not_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """MAX_TOML_ENTRIES marks load (here one =, one [ and the commas of a list), one more does not; the same marks
    inside strings and comments are text."""
    at_limit = "a = [" + "1," * (MAX_TOML_ENTRIES - 2) + "]"
    assert len(parse_toml(at_limit, "s.toml")["a"]) == MAX_TOML_ENTRIES - 2
    quoted = 'a = "' + "=[{," * MAX_TOML_ENTRIES + '"\n# ' + "," * MAX_TOML_ENTRIES + "\nb = '" + "," * MAX_TOML_ENTRIES + "'\n"
    assert parse_toml(quoted, "s.toml")["b"] == "," * MAX_TOML_ENTRIES
    never_parsed(monkeypatch)
    assert refusal(parse_toml, "a = [" + "1," * (MAX_TOML_ENTRIES - 1) + "]", "s.toml").startswith(
        f"s.toml: more than {MAX_TOML_ENTRIES:,} keys, tables and list entries ({MAX_TOML_ENTRIES + 1:,} of"
    )
    assert refusal(parse_toml, "a = [" + "{}," * (MAX_TOML_ENTRIES // 2) + "]", "s.toml").startswith("s.toml: more than 50,000 keys")


def test_the_line_limit_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """MAX_TOML_LINES lines of comments load; one more line does not (half a million comment lines took tomllib
    0.6 s)."""
    assert parse_toml("# a comment\n" * (MAX_TOML_LINES - 1), "s.toml") == {}
    never_parsed(monkeypatch)
    assert refusal(parse_toml, "#\n" * MAX_TOML_LINES, "s.toml") == f"s.toml: more than {MAX_TOML_LINES:,} lines ({MAX_TOML_LINES + 1:,})"


# --- numbers ---------------------------------------------------------------------------------------------------


def test_huge_integers_are_refused_naming_the_field() -> None:
    """Issue 14: an integer of 5,000 digits (beyond Python's str conversion limit) is one line naming the field."""
    assert refusal(parse_json, '{"seed": ' + "9" * 5000 + "}", "g.json") == (
        "g.json: seed: integer too large (more than 64 bits) (got a 5000-digit integer)"
    )
    assert refusal(parse_toml, "turns = " + "9" * 5000, "s.toml") == "s.toml: line 1: a number of more than 30 digits"
    assert refusal(parse_toml, "turns = 0x" + "f" * 5000, "s.toml") == (
        "s.toml: turns: integer too large (more than 64 bits) (got a 6021-digit integer)"
    )


def test_the_integer_bound_is_64_bits() -> None:
    """MAX_INTEGER = 2^64 - 1 loads (a 64-bit seed); one more does not, in JSON and TOML, positive or negative."""
    assert parse_json(f'{{"seed": {MAX_INTEGER}, "low": -{MAX_INTEGER}}}', "g.json") == {"seed": MAX_INTEGER, "low": -MAX_INTEGER}
    assert refusal(parse_json, f'{{"seed": {MAX_INTEGER + 1}}}', "g.json").startswith("g.json: seed: integer too large")
    assert refusal(parse_toml, f"turns = -{MAX_INTEGER + 1}", "s.toml").startswith("s.toml: turns: integer too large")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_refused_in_json(literal: str) -> None:
    """Issue 14: NaN and infinities are no numbers kessen takes."""
    assert refusal(parse_json, f'{{"a": [1, {{"p": {literal}}}]}}', "o.json").startswith("o.json: a[1].p: must be a finite number (got ")


@pytest.mark.parametrize("literal", ["nan", "inf", "-inf", "+nan"])
def test_nan_and_infinity_are_refused_in_toml(literal: str) -> None:
    assert refusal(parse_toml, f"[options]\nx = {literal}\n", "s.toml").startswith("s.toml: options.x: must be a finite number (got ")


# --- duplicate keys, bad syntax, validation ------------------------------------------------------------------


def test_duplicate_json_keys_are_refused_naming_the_key() -> None:
    """Issue 14: duplicate JSON keys are not silently accepted (the last one used to win)."""
    assert refusal(parse_json, '{"knights": [{"name": "a", "combat": 3, "combat": 4}]}', "k.json") == "k.json: knights[0].combat: the key is given twice"
    assert refusal(parse_json, '{"a": 1, "a": 1}', None) == "a: the key is given twice"


def test_duplicate_toml_keys_are_refused_by_toml_itself() -> None:
    assert refusal(parse_toml, 'name = "a"\nname = "b"\n', "s.toml").startswith("s.toml: not valid TOML (cannot overwrite a value")


def test_bad_syntax_names_the_file_and_where() -> None:
    """§4: bad TOML and bad JSON each get their own line, naming the file and the place."""
    assert refusal(parse_toml, 'name = "a"\nturns = \n', "s.toml") == "s.toml: not valid TOML (invalid value (at line 2, column 9))"
    assert refusal(parse_json, '{"a": 1', "o.json") == "o.json: not valid JSON (Expecting ',' delimiter at line 1, column 8)"


def test_validation_errors_name_the_file_the_field_and_the_value() -> None:
    with pytest.raises(InputError, match=r"^k\.toml: combat: must be an integer \(got '3'\)$"):
        load_toml(Knight, 'name = "x"\ncombat = "3"\n', "k.toml")
    with pytest.raises(InputError, match=r"^k\.json: must be an object \(got \[1\]\)$"):
        load_json(Knight, "[1]", "k.json")
    with pytest.raises(InputError, match=r"^combat: must be an integer"):
        load_json(Knight, '{"name": "x", "combat": 1.5}', None)  # the Python API: no file to name


def test_a_sweep_file_goes_through_the_same_path(tmp_path: Path) -> None:
    """The hook for sweep files: a TOML file of a kind, read bounded and validated, errors naming it."""
    path = tmp_path / "sweep.toml"
    path.write_text('name = "x"\ncombat = ' + "[" * 100 + "]" * 100 + "\n")
    assert refusal(load_toml_file, Knight, str(path), SWEEP) == f"{path}: line 2: nested more than {MAX_DEPTH} levels deep"


def test_an_invalid_odds_input_near_the_limit_is_refused_quickly(tmp_path: Path) -> None:
    """Issue 14: an invalid odds input of many errors just under the limit still gives one line (the size bound keeps
    the work small); one over the limit is refused by its size alone."""
    entry = '{"combat": "x"}, '
    body = entry * ((ODDS_INPUT.limit - 100) // len(entry))
    path = tmp_path / "many.json"
    path.write_text('{"combat": 3, "enemies": [' + body + '{"combat": 1}]}')
    assert os.path.getsize(path) <= ODDS_INPUT.limit
    from kessen.rulesets import get_ruleset

    model = get_ruleset("song-of-blades").procedure("disengage").input_model
    message = refusal(load_json, model, read_input(str(path), ODDS_INPUT), str(path))
    assert message.startswith(f"{path}: enemies")
