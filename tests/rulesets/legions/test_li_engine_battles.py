"""Whole battles: the shipped scenarios end from many seeds (AI and random deciders), scenario errors name file,
field and value, and the CLI plays, narrates in Japanese, writes events, saves and resumes byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tomli_w

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Decision
from kessen.core.errors import InputError
from kessen.core.replay import play
from kessen.dice import stream
from kessen.rulesets import get_ruleset
from kessen.rulesets.legions.referee.battlefield import closest_gap

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples" / "legions").glob("*.toml"))
KESSEN = str(Path(sys.executable).with_name("kessen"))
GAME = get_ruleset("legions").game


def test_li_engine_ships_three_scenarios() -> None:
    """The examples: an infantry assault on a held line, a tank company against infantry with a Knight, a Titan
    engaged by several Detachments."""
    assert {p.stem for p in EXAMPLES} >= {"hold-the-line", "armoured-spearhead", "titan-at-bay"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_li_engine_battles_end_with_ai_and_random_deciders(path: Path) -> None:
    """Every shipped scenario reaches a Terminal from many seeds, with the AI on both sides and with random-legal
    deciders, and the summary counts casualties per side."""
    text = path.read_text()
    for seed in range(6):
        state = GAME.load_scenario(text, str(path))
        ai = play(GAME, state, {s: GAME.ai(s) for s in GAME.sides(state)}, seed)
        assert ai.terminal is not None and set(ai.terminal.summary["casualties"]) == set(GAME.sides(state))
        rnd = play(GAME, state, {s: RandomDecider(stream(seed * 10 + i)) for i, s in enumerate(GAME.sides(state))}, seed)
        assert rnd.terminal is not None


def test_li_engine_same_seed_same_battle() -> None:
    """One seed and the same deciders give the same events, and replaying the recorded decisions gives them again."""
    path = EXAMPLES[0]
    text = path.read_text()
    state = GAME.load_scenario(text, str(path))
    first = play(GAME, state, {s: GAME.ai(s) for s in GAME.sides(state)}, 3)
    again = play(GAME, state, {}, 3, replay=first.decisions)
    assert first.events == again.events


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["formations"][0]["detachments"][0]["models"][0].update(x=0.1), "formations[0].detachments[0].models[0].x"),
        (lambda d: d["formations"][0]["detachments"][0].update(pinned=True), "formations[0].detachments[0].pinned"),
        (lambda d: d["formations"][0]["detachments"][0]["models"][0].update(obscured=25), "formations[0].detachments[0].models[0].obscured"),
        (lambda d: d["profiles"]["lasrifles"]["weapons"][0]["profiles"][0].update(ap=1), "profiles.lasrifles.weapons[0].profiles[0].ap"),
        (lambda d: d["profiles"]["lasrifles"].update(type="robot"), "profiles.lasrifles.type"),
        (lambda d: d["formations"][0]["detachments"][0]["models"][0].update(wounds_remaining=2), "formations[0].detachments[0].models[0].wounds_remaining"),
    ],
)
def test_li_engine_scenario_errors_name_file_field_and_value(change: object, field: str) -> None:
    """§3.8: a base off the battlefield, pinned without Engaged, an obscured infantry model, a positive AP, an unknown
    type, Wounds remaining above Wounds are rejected with the file and field named."""
    import tomllib

    data = tomllib.loads((ROOT / "examples" / "legions" / "hold-the-line.toml").read_text())
    change(data)  # type: ignore[operator]
    with pytest.raises(InputError) as error:
        GAME.load_scenario(tomli_w.dumps(data), "bad.toml")
    assert error.value.field == f"bad.toml: {field}"


def _kessen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_li_engine_cli_battle_japanese_events_save_and_resume(tmp_path: Path) -> None:
    """`kessen battle <each example> --seed 1` works; with --lang ja the report uses the glossary; --save then
    `kessen resume` gives byte-identical events."""
    for path in EXAMPLES:
        done = _kessen("battle", str(path), "--seed", "1")
        assert done.returncode == 0, done.stderr
        assert "winner:" in done.stdout
    titan = str(ROOT / "examples" / "legions" / "titan-at-bay.toml")
    ja = _kessen("battle", titan, "--seed", "1", "--lang", "ja")
    assert ja.returncode == 0, ja.stderr
    assert "エンゲージメントステージ" in ja.stdout and "ファイト" in ja.stdout and "戦闘終了" in ja.stdout
    save, played, resumed = tmp_path / "g.json", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert _kessen("battle", titan, "--seed", "1", "--save", str(save), "--events", str(played)).returncode == 0
    done = _kessen("resume", str(save), "--events", str(resumed))
    assert done.returncode == 0, done.stderr
    assert played.read_bytes() == resumed.read_bytes() and played.stat().st_size > 0


def test_li_issue23_4_titan_at_bay_opens_at_the_orders_phase_with_the_charge_to_choose() -> None:
    """Issue 23 §4/§5: titan-at-bay opens at the Orders phase of round 1 of five, nobody Engaged, so that the first
    close combat follows the players' choices: the Assault marines (movement 7) stand within a charge of the Titan,
    the Tactical marines (movement 5) and the Knight (movement 8) not."""
    path = ROOT / "examples" / "legions" / "titan-at-bay.toml"
    state, _ = GAME.start(GAME.load_scenario(path.read_text(), str(path)))
    node = GAME.node(state)
    assert isinstance(node, Decision) and node.kind == "order"
    assert (state.round, state.rounds, state.phase) == (1, 5, "orders")
    assert not any(d.engaged for d in state.detachments)
    titan = state.detachment("warhound")
    gaps = {d: round(closest_gap(state.detachment(d), titan), 2) for d in ("assault-1", "tactical-1", "knight-1")}
    assert gaps == {"assault-1": 6.06, "tactical-1": 6.02, "knight-1": 11.0}
    assert max(m.caf for m in titan.models) == 3
