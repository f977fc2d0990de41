"""Scenario files name their ruleset (issue 8 §4): the ``ruleset`` key first, ``--ruleset`` never against it, the
folder as a guess that is said; the scenario schema of every ruleset; the shipped scenarios listed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from kessen.core.errors import InputError
from kessen.io.scenarios import EXAMPLES, open_scenario, scenario_model, shipped_scenarios
from kessen.rulesets import ruleset_ids

MOB = EXAMPLES / "song-of-blades" / "hero-against-mob.toml"


def without_ruleset_key(path: Path) -> str:
    return "".join(line for line in path.read_text(encoding="utf-8").splitlines(keepends=True) if not line.startswith("ruleset ="))


def test_every_shipped_scenario_names_its_ruleset_and_describes_itself() -> None:
    """§4: every shipped scenario has `ruleset = "<id>"` (its folder's) and a one-line description."""
    paths = sorted(EXAMPLES.glob("*/*.toml"))
    assert {p.parent.name for p in paths} == set(ruleset_ids())
    for path in paths:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data["ruleset"] == path.parent.name, path
        assert 0 < len(data["description"]) <= 200 and "\n" not in data["description"], path
        opened = open_scenario(str(path))
        assert (opened.ruleset.id, opened.guessed) == (path.parent.name, False)


def test_the_ruleset_key_wins_over_the_folder(tmp_path: Path) -> None:
    """A file that names its ruleset is read as that ruleset wherever it lies."""
    moved = tmp_path / "legions" / "mob.toml"
    moved.parent.mkdir()
    moved.write_text(MOB.read_text(encoding="utf-8"), encoding="utf-8")
    opened = open_scenario(str(moved))
    assert (opened.ruleset.id, opened.guessed) == ("song-of-blades", False)


def test_a_ruleset_key_against_the_given_ruleset_is_an_error() -> None:
    """§4: a key that contradicts --ruleset is an error naming both."""
    with pytest.raises(InputError, match=r'^--ruleset: .*hero-against-mob.toml is a song-of-blades scenario \(it says ruleset = "song-of-blades"\) \(got \'legions\'\)$'):
        open_scenario(str(MOB), "legions")
    assert open_scenario(str(MOB), "song-of-blades").ruleset.id == "song-of-blades"


def test_an_unknown_ruleset_key_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "chess.toml"
    path.write_text('ruleset = "chess"\nname = "x"\n')
    with pytest.raises(InputError, match=r"^.*chess.toml: ruleset: unknown ruleset, expected one of .* \(got 'chess'\)$"):
        open_scenario(str(path))
    path.write_text("ruleset = 3\n")
    with pytest.raises(InputError, match=r"chess.toml: ruleset: unknown ruleset"):
        open_scenario(str(path))


def test_without_a_key_the_folder_is_a_guess_and_says_so(tmp_path: Path) -> None:
    """§4: guessing from the folder stays as a fallback, marked as a guess; with neither, the error says what to add."""
    guessed = tmp_path / "song-of-blades" / "mob.toml"
    guessed.parent.mkdir()
    guessed.write_text(without_ruleset_key(MOB), encoding="utf-8")
    opened = open_scenario(str(guessed))
    assert (opened.ruleset.id, opened.guessed) == ("song-of-blades", True)
    assert open_scenario(str(guessed), "song-of-blades").guessed is False
    lost = tmp_path / "mob.toml"
    lost.write_text(without_ruleset_key(MOB), encoding="utf-8")
    with pytest.raises(InputError, match=r'mob.toml: names no ruleset: add ruleset = "<id>" to it, or give --ruleset \(one of '):
        open_scenario(str(lost))


def test_the_scenario_models_take_the_ruleset_key_and_a_description() -> None:
    """The two top-level fields of every scenario model, each explained in the schema; another ruleset's id is refused."""
    for rid in ruleset_ids():
        schema = scenario_model(rid).model_json_schema()
        for name in ("ruleset", "description"):
            assert schema["properties"][name]["description"], (rid, name)
        assert rid in str(schema["properties"]["ruleset"])
    text = MOB.read_text(encoding="utf-8").replace('ruleset = "song-of-blades"', 'ruleset = "legions"')
    from kessen.rulesets import get_ruleset

    with pytest.raises(InputError, match=r"^mob.toml: ruleset: must be one of 'song-of-blades'"):
        get_ruleset("song-of-blades").game.load_scenario(text, "mob.toml")


def test_shipped_scenarios_give_name_ruleset_sides_and_description() -> None:
    """`kessen scenarios` reads these: every shipped file, its sides in order, its one-line description."""
    found = {s.name: s for s in shipped_scenarios()}
    assert len(found) == len(list(EXAMPLES.glob("*/*.toml")))
    mob = found["song-of-blades/hero-against-mob"]
    assert (mob.ruleset, mob.title, mob.sides) == ("song-of-blades", "Hero against the mob", ("Hero", "Goblins"))
    assert mob.description.startswith("A lone hero on a bridge")
    assert all(s.sides and s.description for s in found.values())
