"""The AI chosen per side everywhere a side is played by the machine (issue 23 §1): ``kessen.Match``, saves,
``kessen.simulate``, sweep files, the command line, and the advisor at the terminal."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import kessen
from kessen.core.errors import InputError, SaveFileError
from kessen.match import Match

ROOT = Path(__file__).resolve().parents[2]
KESSEN = str(Path(sys.executable).with_name("kessen"))
MOB = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")
RACE = 'ruleset = "toy"\nsides = ["Red", "Blue"]\n'


def kessen_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, input=stdin, timeout=300, cwd=ROOT)


def test_a_match_plays_each_machine_side_at_its_level_and_its_save_records_them(tmp_path: Path) -> None:
    match = Match.open(MOB, seed=4, ai={"Goblins": "search:200"})
    assert {side: str(level) for side, level in match.ai.items()} == {"Hero": "greedy", "Goblins": "search:200"}
    match.run()
    greedy = Match.open(MOB, seed=4)
    greedy.run()
    assert match.events != greedy.events  # the goblins played otherwise
    path = tmp_path / "game.json"
    match.save(path)
    assert json.loads(path.read_text())["ai"] == {"Hero": "greedy", "Goblins": "search:200"}
    again = Match.load(path)
    assert {side: str(level) for side, level in again.ai.items()} == {"Hero": "greedy", "Goblins": "search:200"}
    assert again.events == match.events


def test_a_person_side_has_no_ai_and_one_level_names_every_machine_side() -> None:
    match = Match.open(MOB, seed=1, people={"Hero"}, ai="random")
    assert {side: str(level) for side, level in match.ai.items()} == {"Goblins": "random"}


def test_a_bad_level_is_refused_naming_the_field_and_in_a_save_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"ai\.Orcs.*not a side"):
        Match.open(MOB, ai={"Orcs": "search"})
    with pytest.raises(InputError, match="must be an AI level.*'cunning'"):
        Match.open(MOB, ai="cunning")
    path = tmp_path / "game.json"
    Match.open(MOB, seed=2).save(path)
    data = json.loads(path.read_text())
    data["ai"] = {"Goblins": "cunning"}
    from kessen.core.saves import checksum

    data["checksum"] = checksum({k: v for k, v in data.items() if k != "checksum"})
    with pytest.raises(SaveFileError, match="cunning"):
        Match.loads(data, "edited.json")


def test_simulate_plays_the_levels_it_is_given_the_same_on_any_number_of_workers() -> None:
    one = kessen.simulate(MOB, runs=6, seed=3, ai={"Hero": "random"}, workers=1)
    two = kessen.simulate(MOB, runs=6, seed=3, ai={"Hero": "random"}, workers=2)
    greedy = kessen.simulate(MOB, runs=6, seed=3, workers=1)
    assert one.tally.to_json() == two.tally.to_json()
    assert one.tally.to_json() != greedy.tally.to_json()  # a random hero is not the greedy one
    with pytest.raises(InputError, match="no_such_module"):
        kessen.simulate(MOB, runs=2, seed=3, ai="no_such_module:AI", workers=1)


def test_a_plugin_plays_in_the_worker_processes_by_its_path() -> None:
    """tests.toy.ai:ShortestDash takes the last suggested option of any decision: the workers import it by path."""
    shortest = kessen.simulate(MOB, runs=4, seed=5, ai={"Goblins": "tests.toy.ai:ShortestDash"}, workers=2)
    alone = kessen.simulate(MOB, runs=4, seed=5, ai={"Goblins": "tests.toy.ai:ShortestDash"}, workers=1)
    assert shortest.tally.to_json() == alone.tally.to_json()


def test_a_sweep_file_names_the_ai_and_the_command_line_takes_its_place_without_reusing_its_results(tmp_path: Path) -> None:
    from kessen.sim.sweepfile import load_sweep

    sweep_file = tmp_path / "s.toml"
    sweep_file.write_text(f'scenario = "{MOB}"\nruns = 2\nai = {{ Hero = "random" }}\n')
    loaded = load_sweep(str(sweep_file))
    assert loaded.cells[0].ai == (("Hero", "random"), ("Goblins", "greedy"))
    overridden = load_sweep(str(sweep_file), "search")
    assert overridden.cells[0].ai == (("Hero", "search"), ("Goblins", "search")) and overridden.hash != loaded.hash
    sweep_file.write_text(f'scenario = "{MOB}"\nruns = 2\nai = {{ Orcs = "random" }}\n')
    with pytest.raises(InputError, match=r"s\.toml: ai\.Orcs"):
        load_sweep(str(sweep_file))


def test_the_advisor_of_a_match_is_exact_on_the_toy_race(toy: str) -> None:
    match = Match.from_text(RACE, ruleset=toy, seed=1, people={"Red"})
    match.run()
    chances = match.advise(playouts=10)
    assert [c.notation for c in chances] == ["dash 3", "dash 2", "dash 1"]
    assert all(c.exact and isinstance(c.win, Fraction) and isinstance(c.best, Fraction) for c in chances)
    with pytest.raises(InputError, match="playouts"):
        match.advise(playouts=0)


def test_cli_ai_per_side_and_its_errors(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    done = kessen_cli("battle", MOB, "--seed", "2", "--ai", "Goblins=random", "--ai", "Hero=search:100", "--save", str(save))
    assert done.returncode == 0, done.stderr
    assert json.loads(save.read_text())["ai"] == {"Hero": "search:100", "Goblins": "random"}
    bad = kessen_cli("battle", MOB, "--ai", "Orcs=search")
    assert bad.returncode == 2 and "--ai: not a side of this scenario (its sides are Hero, Goblins) (got 'Orcs')" in bad.stderr
    bad = kessen_cli("battle", MOB, "--runs", "3", "--ai", "searchy")
    assert bad.returncode == 2 and "--ai: must be an AI level" in bad.stderr and "Traceback" not in bad.stderr


def test_cli_advise_at_the_prompt_and_on_a_save(tmp_path: Path) -> None:
    save = tmp_path / "p.json"
    played = kessen_cli("play", MOB, "--side", "Hero", "--save", str(save), stdin="advise 3\nadvise many\nq\n")
    assert played.returncode == 0, played.stderr
    assert "each option's chance to win if you take it and greedy then plays both sides:" in played.stdout
    assert "95% interval" in played.stdout and "3 playouts" in played.stdout
    assert "refused: give a number of playouts from 1 to 100,000" in played.stdout
    advised = kessen_cli("advise", str(save), "--playouts", "2")
    assert advised.returncode == 0, advised.stderr
    assert "  1. activate hero 1  win " in advised.stdout and "2 playouts" in advised.stdout
