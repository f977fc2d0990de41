"""Whole battles: engine-sampled fights agree with the exact ``fight`` odds; battles end from many seeds with the AI
and with random legal choices; the CLI plays, narrates in Japanese, saves and resumes the shipped scenarios."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bh_referee_support import CONTACT, GAME, fight_phase, model
from scipy.stats import chisquare

from kessen.core.decisions import FirstOptionDecider, RandomDecider
from kessen.core.engine import Chance, Decision
from kessen.core.events import to_json_line
from kessen.core.replay import play
from kessen.dice import draw, stream
from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset
from kessen.rulesets.battlehost.procedures import FightInput
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.rules.fight import fight
from kessen.sim.play import play_battle

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples" / "battlehost").glob("*.toml"))
KESSEN = str(Path(sys.executable).with_name("kessen"))
RULESET = get_ruleset("battlehost")


def sample_fight(state: st.BhState, rng: Any) -> tuple[Any, ...]:
    """Play one fight to its end with the default policy (first options), drawing at chance nodes; a Hero keeps
    its Might off its To Wound rolls, since the ``fight`` procedure spends Might in the duel only (BH-PROC-5)."""
    while True:
        node = GAME.node(state)
        if isinstance(node, Chance):
            choice = draw(node.dist, rng)
        else:
            assert isinstance(node, Decision), node
            choice = node.options[-1] if node.kind == "might on roll" else node.options[0]  # the last: spend none
        state, events = GAME.apply(state, choice)
        for e in events:
            if e.type == "fight_resolved":
                return (e.winner, e.decided_by, e.might_spent, e.wounds, e.slain)  # type: ignore[attr-defined]


def test_bh_proc_5_bh_fight_3_engine_fights_agree_with_exact_fight_odds() -> None:
    """BH-FIGHT-3, BH-PROC-5, BH-DUEL-6, BH-STRIKE-7: 3 000 seeded engine fights of a Hero (F5 A2 S4 D6 W2, Might 1)
    against two orcs, one trapped by a Good model behind it, agree with the exact ``fight`` distribution of the same
    question (chi-square, p > 0.001)."""
    hero = model("H", 20, 20, type="hero", fight=5, attacks=2, strength=4, defence=6, wounds=2, might=1)
    orcs = [model("O1", 20 + CONTACT, 20, defence=5), model("O2", 20, 20 + CONTACT, defence=5)]
    start = fight_phase([hero, model("B", 20, 22.6)], orcs)
    assert start.fighting is not None and start.fighting.fight.evil == ("O1", "O2")
    question = validate_data(FightInput, {
        "good": [{"fight": 5, "attacks": 2, "strength": 4, "defence": 6, "wounds": 2}],
        "evil": [{"fight": 3, "attacks": 1, "strength": 3, "defence": 5}, {"fight": 3, "attacks": 1, "strength": 3, "defence": 5, "trapped": True}],
        "good_might": 1,
    })
    exact = {(o.winner, o.decided_by, o.might_spent, o.wounds, o.slain): p for o, p in fight(question.rules()).probabilities().items()}
    rng = stream(20250101)
    n = 3000
    observed = Counter(sample_fight(start, rng) for _ in range(n))
    assert set(observed) <= set(exact)
    keys = sorted(exact)
    pooled_obs, pooled_exp = [], []
    rare_obs, rare_exp = 0, 0.0
    for k in keys:  # pool outcomes expected fewer than 5 times so the test is valid
        e = float(exact[k]) * n
        if e < 5:
            rare_obs += observed.get(k, 0)
            rare_exp += e
        else:
            pooled_obs.append(observed.get(k, 0))
            pooled_exp.append(e)
    if rare_exp:
        pooled_obs.append(rare_obs)
        pooled_exp.append(rare_exp)
    assert chisquare(pooled_obs, pooled_exp).pvalue > 0.001


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_bh_turn_3_battles_end_with_the_ai_from_many_seeds(path: Path) -> None:
    """BH-TURN-3: every shipped scenario ends (a Terminal node) from several seeds with the AI on both sides, and a
    seed replays to the same events."""
    text = path.read_text()
    for seed in range(3):
        played = play_battle(RULESET, text, str(path), seed)
        assert played.terminal is not None
        summary = played.terminal.summary
        assert set(summary["casualties"]) == {"good", "evil"} and summary["rounds"] >= 1
    again = play_battle(RULESET, text, str(path), 2)
    assert [to_json_line(e) for e in again.events] == [to_json_line(e) for e in played.events]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_bh_turn_3_battles_end_with_random_legal_choices(path: Path) -> None:
    """BH-TURN-3: battles end with random legal choices (RandomDecider) and with the default policy (first options)."""
    game = RULESET.game
    for seed in range(2):
        state = game.load_scenario(path.read_text(), str(path))
        played = play(game, state, {s: RandomDecider(stream(seed + 50)) for s in ("good", "evil")}, seed)
        assert played.terminal is not None
    state = game.load_scenario(path.read_text(), str(path))
    assert play(game, state, {s: FirstOptionDecider() for s in ("good", "evil")}, 9).terminal is not None


def kessen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KESSEN, *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_bh_cli_battle_save_and_resume_give_identical_events(path: Path, tmp_path: Path) -> None:
    """`kessen battle <scenario> --seed 1 --events --save` then `kessen resume` gives byte-identical events."""
    played, resumed, save = tmp_path / "played.jsonl", tmp_path / "resumed.jsonl", tmp_path / "game.json"
    done = kessen("battle", str(path), "--seed", "1", "--events", str(played), "--save", str(save))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in played.read_text().splitlines()]
    assert lines[0]["type"] in ("priority_rolled", "priority_given") and lines[-1]["type"] == "battle_ended"
    done = kessen("resume", str(save), "--events", str(resumed))
    assert done.returncode == 0, done.stderr
    assert played.read_bytes() == resumed.read_bytes()


def test_bh_cli_battle_narrates_in_japanese_with_glossary_terms() -> None:
    """`--lang ja` narrates with the spec's glossary terms (ムーヴフェイズ, デュエルロール, ...)."""
    done = kessen("battle", str(ROOT / "examples" / "battlehost" / "doorway.toml"), "--seed", "1", "--lang", "ja")
    assert done.returncode == 0, done.stderr
    for term in ("ムーヴフェイズ", "ファイト(近接戦闘)フェイズ", "デュエルロール", "プライオリティープレイヤー"):
        assert term in done.stdout, term
