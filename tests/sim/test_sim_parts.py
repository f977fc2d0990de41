"""The parts of a sweep: field paths, swapped deployments, tallies that add up in any order, chunk seeds, the store."""

from __future__ import annotations

import copy
import json
import random
import sqlite3
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from kessen.core.engine import Terminal
from kessen.core.errors import InputError
from kessen.io.scenarios import ShippedScenario, shipped_scenarios
from kessen.rulesets import get_ruleset
from kessen.sim.chunks import Chunk, battle_seeds, chunk_plan
from kessen.sim.deployment import swap_deployment
from kessen.sim.store import Store
from kessen.sim.sweepfile import field_tokens, load_sweep, set_field
from kessen.sim.tally import Tally, total

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(("path", "reason"), [
    ("sides[0].models[9].combat", "sides[0].models has 1 entries"),
    ("sides.models", "sides is a list: name an entry with [index]"),
    ("turns[0]", "turns is not a list"),
    ("walls[0].height", "the scenario has no list walls"),
])
def test_a_field_path_that_misses_the_scenario_says_where(path: str, reason: str) -> None:
    """A vary field that does not fit the scenario names the part of the path that is wrong."""
    data = tomllib.loads((DATA / "song-of-blades" / "skirmish.toml").read_text())
    with pytest.raises(InputError) as error:
        set_field(data, path, 3)
    assert reason in error.value.reason


def test_a_field_path_sets_nested_entries_and_makes_missing_tables() -> None:
    """``options.follow_up`` makes the [options] table a scenario left to its defaults; indices reach list entries."""
    data = tomllib.loads((DATA / "song-of-blades" / "skirmish.toml").read_text())
    set_field(data, "options.follow_up", True)
    set_field(data, "sides[1].models[2].quality", 4)
    assert data["options"] == {"follow_up": True} and data["sides"][1]["models"][2]["quality"] == 4
    assert field_tokens("profiles.lasrifles.weapons[0].profiles[1].to_hit") == ("profiles", "lasrifles", "weapons", 0, "profiles", 1, "to_hit")
    with pytest.raises(InputError):
        field_tokens("sides[x]")


@pytest.mark.parametrize("shipped", shipped_scenarios(), ids=lambda s: s.name)
def test_swapping_deployment_twice_gives_back_the_scenario(shipped: ShippedScenario) -> None:
    """[DECISION] swap_sides turns every piece half a turn about the table's centre: twice is no change, and the
    terrain stays where it was."""
    data = tomllib.loads(shipped.path.read_text(encoding="utf-8"))
    once = swap_deployment(shipped.ruleset, copy.deepcopy(data))
    assert once != data
    assert swap_deployment(shipped.ruleset, once) == data


def test_swapped_deployment_puts_each_side_where_the_other_stood() -> None:
    """On the 900 mm table the hero at x = 420 goes to x = 480 and the goblins at x = 480 to x = 420."""
    data = tomllib.loads((DATA / "song-of-blades" / "skirmish.toml").read_text())
    swapped = swap_deployment("song-of-blades", copy.deepcopy(data))
    assert [(m["x"], m["y"]) for m in swapped["sides"][0]["models"]] == [(480.0, 450.0)]
    assert [(m["x"], m["y"]) for m in swapped["sides"][1]["models"]] == [(420.0, 480.0), (420.0, 450.0), (420.0, 420.0)]


def test_swapped_legions_players_take_the_opposite_edges_and_armies_clash_footprints_stay_on_the_grid() -> None:
    """Legions: each player's battlefield edge goes over to the other; armies-clash: a large creature's 2 × 2
    footprint turned about the centre has its corner at (width − x − 2, height − y − 2)."""
    root = Path(__file__).resolve().parents[2] / "examples"
    legions = swap_deployment("legions", tomllib.loads((root / "legions" / "hold-the-line.toml").read_text()))
    assert [p["edge"] for p in legions["players"]] == ["north", "south"]
    clash = tomllib.loads((root / "armies-clash" / "hold-the-bridge.toml").read_text())
    ogre = next(s for s in swap_deployment("armies-clash", clash)["stands"] if s["creature"] == "ogre")
    assert ogre["at"] == [14 - 0 - 2, 9 - 0 - 2]
    game = get_ruleset("armies-clash").game
    import tomli_w

    assert game.sides(game.load_scenario(tomli_w.dumps(clash), "swapped")) == ("a", "b")


def test_tallies_add_up_to_the_same_in_any_order() -> None:
    """Chunks finish in any order on any executor: the sum of their tallies does not depend on it."""
    rng = random.Random(5)
    parts = []
    for _ in range(30):
        tally = Tally()
        for _ in range(rng.randint(1, 4)):
            tally.add(Terminal(rng.choice(["a", "b", None]), {
                "rounds": rng.randint(1, 5), "casualties": {"a": rng.randint(0, 3), "b": rng.randint(0, 3)},
                "result": rng.choice(["decisive", "tactical"]), "broken": rng.sample(["x", "y", "z"], 2),
            }))
        parts.append(Tally.from_json(json.loads(json.dumps(tally.to_json()))))
    forward = total(parts)
    rng.shuffle(parts)
    assert total(parts).to_json() == forward.to_json()
    assert forward.battles == forward.wins["a"] + forward.wins["b"] + forward.draws
    assert sum(forward.words["broken"].values()) == 2 * forward.battles
    assert sum(forward.per_side["casualties"]["a"].values()) == forward.battles


def test_chunk_seeds_depend_on_the_seed_the_cell_and_the_chunk_only() -> None:
    """SeedSequence(seed, spawn_key=(cell, chunk)): the same chunk always gets the same seeds, another chunk others."""
    plan = chunk_plan(3, 100)
    assert sum(c.size for c in plan) == 100 and [c.first for c in plan[:3]] == [0, 1, 2]
    assert battle_seeds(1, plan[4]) == battle_seeds(1, Chunk(3, 4, plan[4].first, plan[4].size))
    assert battle_seeds(1, plan[4]) != battle_seeds(2, plan[4]) != battle_seeds(1, Chunk(2, 4, 0, plan[4].size))
    assert len(set(battle_seeds(1, Chunk(0, 9, 0, 16)))) == 16


def test_the_store_keeps_the_sweep_text_cells_and_chunk_seeds(tmp_path: Path) -> None:
    """The SQLite store: the sweep's text and hash, one row per cell, each chunk with its seed and battle seeds."""
    sweep = load_sweep(str(DATA / "sweep.toml"))
    store = Store(str(tmp_path / "r.sqlite"))
    ident = store.sweep_id(sweep)
    assert store.sweep_id(sweep) == ident
    chunk = chunk_plan(2, 6)[1]
    tally = Tally(battles=1, wins=Counter({"Hero": 1}))
    store.record(ident, sweep.cells[2], chunk, seed=3, battle_seeds=battle_seeds(3, chunk), tally=tally)
    assert store.tallies(ident) == {(2, 1): tally}
    store.close()
    db = sqlite3.connect(tmp_path / "r.sqlite")
    assert db.execute("SELECT text, hash FROM sweeps").fetchone() == (sweep.text, sweep.hash)
    assert db.execute("SELECT count(*) FROM cells").fetchone() == (8,)
    seed, seeds = db.execute("SELECT seed, battle_seeds FROM chunks").fetchone()
    assert json.loads(seed) == {"entropy": "3", "spawn_key": [2, 1]}
    assert [int(s) for s in json.loads(seeds)] == list(battle_seeds(3, chunk))


def test_a_file_that_is_not_a_results_store_is_refused(tmp_path: Path) -> None:
    """--db pointing at something else: one InputError naming --db and the file."""
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database, just text that is long enough to be read as a header" * 10)
    with pytest.raises(InputError, match="--db"):
        Store(str(junk))


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[2] / "examples").glob("*/sweeps/*.toml")), ids=lambda p: p.parent.parent.name)
def test_every_shipped_sweep_builds_and_validates_all_its_cells(path: Path) -> None:
    """The example sweeps (one per ruleset) load, and every cell's scenario passes its ruleset's validation."""
    sweep = load_sweep(str(path))
    assert sweep.cells and all(len(cell.sides) == 2 for cell in sweep.cells)
    assert len({cell.text for cell in sweep.cells}) == len(sweep.cells)


def test_a_sweep_of_several_scenarios_has_their_cells_one_after_the_other(tmp_path: Path) -> None:
    """``scenarios = [...]``: the cells of each scenario in turn, each cell's label naming its file; a field varied
    in every scenario (here ``turns``) is set in each."""
    hero = Path(__file__).resolve().parents[2] / "examples" / "song-of-blades" / "hero-against-mob.toml"
    path = tmp_path / "two.toml"
    path.write_text(
        f'scenarios = ["{DATA / "song-of-blades" / "skirmish.toml"}", "{hero}"]\nruns = 5\n'
        '[[vary]]\nfield = "turns"\nvalues = [3, 9]\n'
    )
    sweep = load_sweep(str(path))
    assert [c.label() for c in sweep.cells] == [
        "skirmish.toml, turns = 3", "skirmish.toml, turns = 9", "hero-against-mob.toml, turns = 3", "hero-against-mob.toml, turns = 9",
    ]
    assert [c.sides for c in sweep.cells] == [("Hero", "Goblins")] * 4
    assert [tomllib.loads(c.text)["turns"] for c in sweep.cells] == [3, 9, 3, 9]
