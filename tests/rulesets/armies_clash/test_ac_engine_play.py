"""armies-clash engine: whole battles end, replay exactly, run through the CLI; sampled attacks match the exact
``attack`` distribution; bad scenario files are rejected with the file, field and value (§4.8)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import chisquare

from kessen.core.decisions import RandomDecider
from kessen.core.errors import InputError
from kessen.core.events import to_json_line
from kessen.core.replay import play
from kessen.dice import draw, stream
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset
from kessen.rulesets.armies_clash.procedures import AttackInput

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples" / "armies-clash").glob("*.toml"))
GAME = get_ruleset("armies-clash").game


def test_ac_win_1_three_example_scenarios_exist() -> None:
    """The examples hold the three scenarios of the brief (bridge, horde, ridge)."""
    names = {p.stem for p in EXAMPLES}
    assert {"hold-the-bridge", "goblin-horde", "skirmish-ridge"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_ac_win_1_battles_end_with_ai_and_random(path: Path) -> None:
    """AC-WIN-1: every battle reaches a terminal node, with the AI and with random legal deciders, from many seeds."""
    text = path.read_text()
    for seed in range(4):
        state = GAME.load_scenario(text, str(path))
        deciders = {s: GAME.ai(s) for s in "ab"} if seed % 2 == 0 else {s: RandomDecider(stream(seed * 10 + i)) for i, s in enumerate("ab")}
        played = play(GAME, state, deciders, seed, max_steps=100_000)
        assert played.terminal is not None
        assert set(played.terminal.summary["casualties"]) == {"a", "b"}


def test_ac_init_1_same_seed_same_events() -> None:
    """Same seed and same decisions → the same event log; the initiative is rolled once (AC-INIT-1)."""
    path = EXAMPLES[0]
    logs = []
    for _ in range(2):
        state = GAME.load_scenario(path.read_text(), str(path))
        played = play(GAME, state, {s: GAME.ai(s) for s in "ab"}, 11)
        logs.append([to_json_line(e) for e in played.events])
    assert logs[0] == logs[1]
    assert sum(1 for line in logs[0] if '"type":"turn_order"' in line) == 1


def test_ac_attack_4_engine_sampled_attacks_match_exact_distribution() -> None:
    """AC-ATTACK-4 / AC-D20-1: attack outcomes drawn with the engine's seeded stream agree with the exact ``attack``
    distribution (chi-square, p > 0.001)."""
    question = validate_data(AttackInput, {"attacks": [{"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}], "target_ac": 13, "target_hp": 7})
    dist = get_ruleset("armies-clash").procedure("attack").compute(question)
    rng = stream(2024)
    n = 20_000
    counts = Counter(draw(dist, rng).reduced_to_zero for _ in range(n))
    p = dist.probability(lambda o: o.reduced_to_zero)
    observed = [counts[True], counts[False]]
    expected = [n * float(p), n * (1 - float(p))]
    assert chisquare(observed, expected).pvalue > 0.001


def _kessen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "kessen"), *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_ac_win_2_cli_battle_events_save_resume(tmp_path: Path) -> None:
    """``kessen battle`` runs end to end (also in Japanese); ``--save`` + ``kessen resume`` replay byte-identical events."""
    scenario = str(EXAMPLES[0])
    first, again = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    save = tmp_path / "game.json"
    done = _kessen("battle", scenario, "--seed", "1", "--events", str(first), "--save", str(save), "--lang", "ja")
    assert done.returncode == 0, done.stderr
    assert "戦闘終了" in done.stdout
    resumed = _kessen("resume", str(save), "--events", str(again))
    assert resumed.returncode == 0, resumed.stderr
    assert first.read_bytes() == again.read_bytes()


BAD = [
    ('creatures = [{ id = "g", size = "gargantuan", ac = 10, hp = 10, speed_ft = 30, abilities = { str = 0, dex = 0, con = 0, int = 0, wis = 0, cha = 0 } }]',
     "stands[0].creature"),
    ('units = [{ id = "u", side = "a", type = "regiment" }]', "units[0].formation"),
    ('units = [{ id = "u", side = "a", type = "skirmisher", formation = "march" }]', "units[0].formation"),
    ('stands = [{ id = "s", unit = "u", creature = "c", at = [9, 0] }]', "stands[0].at"),
    ('stands = [{ id = "s", unit = "nope", creature = "c", at = [0, 0] }]', "stands[0].unit"),
    ('grid = { width = 10, height = 10, terrain = [{ at = [1, 1], kind = "road", rough = true }] }', "grid.terrain[0].rough"),
    ('grid = { width = 10, height = 10, terrain = [{ at = [1, 1], kind = "shallow_water", elevation = 1 }] }', "grid.terrain[0].elevation"),
    ('creatures = [{ id = "c", size = "medium", ac = 10, hp = 10, speed_ft = 32, abilities = { str = 0, dex = 0, con = 0, int = 0, wis = 0, cha = 0 } }]',
     "creatures[0].speed_ft"),
]


@pytest.mark.parametrize("patch,field", BAD, ids=[f for _, f in BAD])
def test_ac_stand_1_scenario_rejections_name_file_field_value(patch: str, field: str) -> None:
    """§4.8 (AC-STAND-1, AC-REG-2, AC-UNIT-1): a bad scenario is rejected naming the file and the field."""
    base = {
        "grid": 'grid = { width = 10, height = 10 }',
        "creatures": 'creatures = [{ id = "c", size = "large", ac = 10, hp = 10, speed_ft = 30, abilities = { str = 0, dex = 0, con = 0, int = 0, wis = 0, cha = 0 } }]',
        "units": 'units = [{ id = "u", side = "a", type = "regiment", formation = "march" }]',
        "stands": 'stands = [{ id = "s", unit = "u", creature = "c", at = [0, 0] }]',
    }
    key = patch.split(" ")[0]
    if key == "creatures" and "gargantuan" in patch:
        base["creatures"] = patch
        base["stands"] = 'stands = [{ id = "s", unit = "u", creature = "g", at = [0, 0] }]'
    else:
        base[key] = patch
    text = 'name = "bad"\n' + "\n".join(base.values()) + "\n"
    with pytest.raises(InputError) as info:
        GAME.load_scenario(text, "bad.toml")
    assert info.value.field.startswith("bad.toml: ")
    assert info.value.field.endswith(field)


def test_ac_join_2_scenario_rejects_oversized_joined_solo() -> None:
    """AC-JOIN-2, §4.5: a large solo joined to a small stand is rejected at load."""
    text = (
        'name = "bad"\ngrid = { width = 10, height = 10 }\n'
        'creatures = [{ id = "c", size = "small", ac = 10, hp = 10, speed_ft = 30, abilities = { str = 0, dex = 0, con = 0, int = 0, wis = 0, cha = 0 } },'
        ' { id = "big", size = "large", ac = 10, hp = 10, speed_ft = 30, abilities = { str = 0, dex = 0, con = 0, int = 0, wis = 0, cha = 0 } }]\n'
        'units = [{ id = "u", side = "a", type = "skirmisher" }]\n'
        'stands = [{ id = "s", unit = "u", creature = "c", at = [0, 0] }]\n'
        'solos = [{ id = "x", side = "a", creature = "big", joined_to = "s" }]\n'
    )
    with pytest.raises(InputError) as info:
        GAME.load_scenario(text, "bad.toml")
    assert info.value.field == "bad.toml: solos[0].joined_to"


def test_ac_scale_2_board_renders() -> None:
    """AC-SCALE-2: ``show`` draws the grid of squares with its pieces and a legend, in both languages."""
    state = GAME.load_scenario(EXAMPLES[0].read_text(), str(EXAMPLES[0]))
    en, ja = GAME.show(state, "en"), GAME.show(state, "ja")
    assert "pikes" in en and "連隊" in ja


def test_ac_move_5_the_ai_never_flees_the_field_however_far_the_enemy() -> None:
    """AC-MOVE-5: stepping off the grid flees the battlefield; the AI, however far it is from the enemy (here 90
    squares on a 100-square grid, at the north edge), marches instead of fleeing."""
    from armies_clash_engine_helpers import at_piece, scenario, start, unit

    from kessen.core.engine import Decision
    from kessen.rulesets.armies_clash.referee import machine as g
    from kessen.rulesets.armies_clash.rules.movement import Destination

    s = scenario(stands=[("s1", "u", "hob", (50, 0)), ("e1", "v", "hob", (50, 90))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")], width=100, height=100)
    state = at_piece(start(s), "u", "s1", "dash")
    decision = g.MACHINE.node(state)
    assert isinstance(decision, Decision) and any(isinstance(o, Destination) and o.kind == "flee" for o in decision.options)
    chosen = GAME.ai("a").decide(state, decision)
    assert isinstance(chosen, Destination) and chosen.kind == "move" and chosen.y > 0
