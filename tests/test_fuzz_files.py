"""Hostile files (issue 14): every shipped example of every file kind, mutated as a careless or hostile user would,
loads or is refused with one line naming the file; nothing else (no other exception, no hang).

Kinds: odds inputs (``examples/<ruleset>/<procedure>.json``), scenarios (``examples/<ruleset>/*.toml``) and saved
games (a short kessen-save/2 of every shipped scenario, and the kessen-save/1 fixtures). Mutations: deep nesting,
huge numbers, NaN and infinities, a BOM, bytes that are not UTF-8, truncation, a key given twice, and for saves,
resealed with a valid checksum, an impossible seed, bad steps or decisions and a damaged scenario inside. Each case
goes through the functions the command line calls (``read_input`` and the loader of its kind); a few go through
the real console script.

CI runs the same cases every time (derandomized): 40 per odds input (160), 25 per scenario (275) and 25 per save
(275 v2 saves, and 25 per v1 fixture). Set KESSEN_FUZZ_RANDOM=1 to explore fresh ones.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kessen.core.errors import KessenError
from kessen.core.events import to_json_line
from kessen.core.saves import checksum
from kessen.io.files import ODDS_INPUT, load_json, read_input
from kessen.io.scenarios import open_scenario
from kessen.match import Match
from kessen.odds import answer
from kessen.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parent.parent
KESSEN = str(Path(sys.executable).with_name("kessen"))
ODDS_FILES = sorted(ROOT.glob("examples/*/*.json"))
SCENARIOS = sorted(ROOT.glob("examples/*/*.toml"))


def fuzz(examples: int) -> Any:
    return settings(
        max_examples=examples, deadline=None, database=None, derandomize=not os.environ.get("KESSEN_FUZZ_RANDOM"),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


# --- mutations of text ---------------------------------------------------------------------------------------

DEPTHS = st.sampled_from([33, 200, 1_000, 10_000, 100_000])
DIGITS = st.sampled_from([21, 31, 400, 4_301, 6_000])


@st.composite
def fragment(draw_: st.DrawFn, kind: str) -> str:
    """A value a hostile hand puts where a value was: deeply nested, a huge number, NaN or an infinity."""
    what = draw_(st.sampled_from(["deep", "deep_table", "huge", "huge_negative", "not_finite"]))
    if what == "deep":
        n = draw_(DEPTHS)
        return "[" * n + "1" + "]" * n
    if what == "deep_table":
        n = draw_(DEPTHS)
        return ('{"a": ' * n + "1" + "}" * n) if kind == "json" else ("{a = " * n + "1" + "}" * n)
    if what in ("huge", "huge_negative"):
        return ("-" if what == "huge_negative" else "") + "9" * draw_(DIGITS)
    constants = ["NaN", "Infinity", "-Infinity", "1e999"] if kind == "json" else ["nan", "inf", "-inf", "+nan", "1e999"]
    return draw_(st.sampled_from(constants))


def _value_spans(text: str, kind: str) -> list[tuple[int, int]]:
    """Where the values of *text* are (after a key's ``:`` in JSON, after ``=`` in TOML)."""
    pattern = r':\s*("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null)' if kind == "json" else r'=\s*("(?:[^"\\\n]|\\.)*"|[-+]?[0-9][0-9._eE+-]*|true|false)'
    return [m.span(1) for m in re.finditer(pattern, text)]


@st.composite
def mutated(draw_: st.DrawFn, data: bytes, kind: str) -> tuple[str, bytes]:
    """One mutation of a file's bytes, and its name."""
    text = data.decode("utf-8")
    how = draw_(st.sampled_from(["value", "value", "bom", "not_utf8", "truncate", "duplicate", "deep_key"]))
    if how == "value":
        spans = _value_spans(text, kind)
        start, end = draw_(st.sampled_from(spans))
        return how, (text[:start] + draw_(fragment(kind)) + text[end:]).encode("utf-8")
    if how == "bom":
        return how, b"\xef\xbb\xbf" + data
    if how == "not_utf8":
        at = draw_(st.integers(0, len(data)))
        return how, data[:at] + draw_(st.binary(min_size=1, max_size=3).filter(lambda b: not _is_utf8(b))) + data[at:]
    if how == "truncate":
        return how, data[: draw_(st.integers(0, max(0, len(data) - 1)))]
    if how == "duplicate":
        if kind == "json":  # give the first key of some object twice
            keys = [m for m in re.finditer(r'[{,]\s*("(?:[^"\\]|\\.)*"\s*:\s*[^,{}\[\]]+)', text)]
            if keys:
                m = draw_(st.sampled_from(keys))
                return how, (text[: m.end()] + ", " + m.group(1) + text[m.end():]).encode("utf-8")
        lines = [m for m in re.finditer(r"(?m)^[a-z_]+ = .*\n", text)] if kind == "toml" else []
        if lines:  # the same key and value again on the next line
            m = draw_(st.sampled_from(lines))
            return how, (text[: m.end()] + m.group() + text[m.end():]).encode("utf-8")
        return how, data
    n = draw_(DEPTHS)
    key = ".".join(["k"] * n) if kind == "toml" else '{"k": ' * n + "1" + "}" * n
    return how, ((key + " = 1\n" + text) if kind == "toml" else text.replace("{", '{"deep": ' + key + ", ", 1)).encode("utf-8")


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def loads_or_one_line_naming(path: Path, how: str, content: bytes, load: Any) -> bool:
    """Write *content* to *path*; *load* then either returns (True) or raises a KessenError of one line naming
    *path* (False); nothing else. A file that only gained a BOM loads."""
    path.write_bytes(content)
    try:
        load()
    except KessenError as error:
        message = str(error)
        assert "\n" not in message and "\r" not in message, message
        assert str(path) in message, message
        assert how != "bom", message
        return False
    return True


# --- odds inputs ---------------------------------------------------------------------------------------------


def _load_odds(path: Path, example: Path) -> None:
    rid, procedure = example.parent.name, example.stem
    chosen = get_ruleset(rid).procedure(procedure)
    value = load_json(chosen.input_model, read_input(str(path), ODDS_INPUT), str(path))
    result = answer(rid, chosen, value)
    assert sum(p for _, p in result.outcomes) == 1


@pytest.mark.parametrize("example", ODDS_FILES, ids=lambda p: f"{p.parent.name}:{p.stem}")
@fuzz(40)
@given(data=st.data())
def test_mutated_odds_inputs_load_or_name_the_file(tmp_path: Path, example: Path, data: st.DataObject) -> None:
    how, content = data.draw(mutated(example.read_bytes(), "json"), label="mutation")
    path = tmp_path / example.name
    loads_or_one_line_naming(path, how, content, lambda: _load_odds(path, example))


# --- scenarios -----------------------------------------------------------------------------------------------


def _load_scenario(path: Path) -> None:
    opened = open_scenario(str(path))
    opened.ruleset.game.load_scenario(opened.text, str(path))


@pytest.mark.parametrize("example", SCENARIOS, ids=lambda p: f"{p.parent.name}:{p.stem}")
@fuzz(25)
@given(data=st.data())
def test_mutated_scenarios_load_or_name_the_file(tmp_path: Path, example: Path, data: st.DataObject) -> None:
    how, content = data.draw(mutated(example.read_bytes(), "toml"), label="mutation")
    path = tmp_path / example.name
    loads_or_one_line_naming(path, how, content, lambda: _load_scenario(path))


# --- saved games ---------------------------------------------------------------------------------------------


def _short_game(example: Path, decisions: int = 12) -> str:
    """A kessen-save/2 of the first decisions of a game of *example*, every side played by a person (in Japanese)
    choosing the first suggested option."""
    opened = open_scenario(str(example))
    source = str(example.relative_to(ROOT))
    game = opened.ruleset.game
    sides = game.sides(game.load_scenario(opened.text, source))
    match = Match(opened.ruleset, opened.text, source, seed=1, people=sides, lang="ja")
    match.run()
    for _ in range(decisions):
        if match.decision is None:
            break
        match.choose(match.decision.options[0])
    return match.dumps()


V1_FIXTURES = sorted(ROOT.glob("tests/data/saves-v1/*/*.save.json"))
SAVES = {**{f"v2:{e.parent.name}:{e.stem}": _short_game(e) for e in SCENARIOS}, **{f"v1:{f.parent.name}:{f.name}": f.read_text() for f in V1_FIXTURES}}

RESEALED = {
    "seed": st.sampled_from([-1, -(2**63), 2**64, 10**29, "1", 1.5, None, True]),
    "steps": st.sampled_from([[["d", 3]], [["c"]], "d", None, [["d", "no such notation"]], [["c", {"no": "outcome"}]], [["x", 1]]]),
    "decisions": st.sampled_from([[-1], [10**6], ["0"], [True], "0", None, [1.5]]),
    "ruleset": st.sampled_from(["chess", "", 3, None]),
    "people": st.sampled_from([[3], "Hero", None, [["x"]], ["Nobody"]]),
    "lang": st.sampled_from([3, None, ["en"], "fr", ""]),
    "scenario_source": st.sampled_from([3, None]),
    "format": st.sampled_from(["kessen-save/1", "kessen-save/2", "kessen-save/3", None]),
}


@st.composite
def resealed(draw_: st.DrawFn, text: str) -> bytes:
    """A save changed in its contents and sealed again with a matching checksum (a hand that knows the format)."""
    body = {k: v for k, v in json.loads(text).items() if k != "checksum"}
    what = draw_(st.sampled_from([*RESEALED, "scenario", "scenario", "scenario"]))
    if what == "scenario":
        scenario = body["scenario"]
        damage = draw_(st.sampled_from(["truncate", "drop_line", "value", "garbage"]))
        if damage == "truncate":
            scenario = scenario[: draw_(st.integers(0, len(scenario) - 1))]
        elif damage == "drop_line":
            lines = scenario.splitlines(keepends=True)
            del lines[draw_(st.integers(0, len(lines) - 1))]
            scenario = "".join(lines)
        elif damage == "value":
            start, end = draw_(st.sampled_from(_value_spans(scenario, "toml")))
            scenario = scenario[:start] + draw_(fragment("toml")) + scenario[end:]
        else:
            scenario = draw_(st.sampled_from(["", "[[[", "name = 3", "\ufeff", "ruleset = 'legions'\n" + scenario]))
        body["scenario"] = scenario
    else:
        body[what] = draw_(RESEALED[what])
    return json.dumps({**body, "checksum": checksum(body)}, ensure_ascii=False).encode("utf-8")


def _same_game(a: Match, b: Match) -> bool:
    return a.state == b.state and [to_json_line(e) for e in a.events] == [to_json_line(e) for e in b.events]


@pytest.mark.parametrize("name", SAVES)
@fuzz(25)
@given(data=st.data())
def test_mutated_saves_load_or_name_the_file(tmp_path: Path, name: str, data: st.DataObject) -> None:
    """A save of either format (v2 written by kessen.Match, v1 the fixtures kessen once wrote), damaged or resealed
    with bad contents: it loads, or it is refused in one line naming the save; a damaged save that still loads is
    the same game."""
    original = SAVES[name]
    if data.draw(st.booleans(), label="resealed"):
        how, content = "resealed", data.draw(resealed(original), label="mutation")
    else:
        how, content = data.draw(mutated(original.encode("utf-8"), "json"), label="mutation")
    path = tmp_path / "game.json"
    loaded = loads_or_one_line_naming(path, how, content, lambda: Match.load(str(path)))
    if loaded and how != "resealed":
        (path.parent / "original.json").write_text(original, encoding="utf-8")
        assert _same_game(Match.load(str(path)), Match.load(str(path.parent / "original.json")))


def test_the_unmutated_examples_load() -> None:
    """The seeds of the fuzzing load (so the fuzz starts from valid files of every kind)."""
    for path in ODDS_FILES:
        _load_odds(path, path)
    for path in SCENARIOS:
        _load_scenario(path)
    for name, text in SAVES.items():
        match = Match.loads(json.loads(text), "game.json")
        assert match.lang == ("ja" if name.startswith("v2:") else "en"), name
        assert json.loads(text)["format"] == ("kessen-save/2" if name.startswith("v2:") else "kessen-save/1")


# --- through the real console script -------------------------------------------------------------------------

HOSTILE = {
    "deep nesting": '{"quality": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "huge integer": '{"quality": ' + "9" * 5000 + "}",
    "NaN": '{"quality": NaN}',
    "duplicate key": '{"quality": 3, "quality": 4}',
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_files_through_the_console_script(tmp_path: Path, name: str) -> None:
    """An odds input, a scenario and a save carrying the same hostile content: exit 2, one line naming the file."""
    odds_input = tmp_path / "input.json"
    odds_input.write_text(HOSTILE[name])
    scenario = tmp_path / "scenario.toml"
    toml_value = {"deep nesting": "[" * 100_000 + "]" * 100_000, "huge integer": "9" * 5000, "NaN": "nan", "duplicate key": "3\nturns = 4"}[name]
    scenario.write_text(f'ruleset = "song-of-blades"\nname = "x"\nturns = {toml_value}\n')
    save = tmp_path / "game.json"
    save.write_text(SAVES[f"v2:{SCENARIOS[-1].parent.name}:{SCENARIOS[-1].stem}"].replace('"seed": 1', '"seed": ' + HOSTILE[name].split(": ", 1)[1].rstrip("}"), 1))
    for args, path in (
        (["odds", "song-of-blades", "activation", "--input", str(odds_input)], odds_input),
        (["check", str(scenario)], scenario),
        (["resume", str(save)], save),
    ):
        done = subprocess.run([KESSEN, *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stdout == "", (args, done.stderr[-300:])
        assert len(done.stderr.splitlines()) == 1 and str(path) in done.stderr and "Traceback" not in done.stderr
