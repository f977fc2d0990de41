"""What a person reads in `kessen play`, `kessen battle` and `kessen board` for legions, in English and Japanese: the
exact odds beside an attack, who acts at every decision, the board with its terrain, the battle report and summary."""

from __future__ import annotations

import re
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from test_li_engine_support import det, m, node, ready, state_of

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Decision
from kessen.core.replay import play
from kessen.dice import stream
from kessen.i18n import LANGUAGES, catalogue
from kessen.rulesets import get_ruleset
from kessen.rulesets.legions.referee.firing import attack_damage
from kessen.rulesets.legions.referee.targeting import Fire

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples" / "legions").glob("*.toml"))
GAME = get_ruleset("legions").game
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CODE_WORDS = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[\[\]'{}]|[A-Za-z]_[A-Za-z]")

TWO_GUNS = {"two_guns": {"type": "infantry", "movement": 5, "armour_save": 5, "base_radius": 0.5, "weapons": [
    {"name": "first", "profiles": [{"range": 30, "dice": 1, "to_hit": 2, "ap": -6}]},
    {"name": "second", "profiles": [{"range": 30, "dice": 1, "to_hit": 2, "ap": -6}]},
]}}


def test_li_fire_1_play_shows_the_exact_mean_of_the_whole_attack() -> None:
    """§5.2 (issue 8 §2): beside an attack `kessen play` shows the exact mean damage of the whole attack, not the
    AI's score. Two weapons of one die at 2+ and AP −6 against one 5+ model: the first kills it with 5/6; the second
    fires only at what is left, 1/6 · 5/6; mean 5/6 + 5/36 = 35/36 ≈ 0.97 Wounds (the AI's score, counting Wounds
    and models of each volley on the untouched target, was 3.33). The whole attack wounds with 5/6 + 1/6 · 5/6 = 35/36
    ≈ 97.2% (issue 24 §4: the attack, not its best volley alone, which was 83%)."""
    state = ready(state_of([det("A", m("two_guns", 10, 10), order="first_fire")], [det("B", m("inf", 10, 20))], profiles=TWO_GUNS))
    n = node(state)
    assert isinstance(n, Decision) and n.kind == "target"
    attack = n.options[0]
    assert isinstance(attack, Fire)
    assert attack_damage(state, state.detachment("A"), attack).map(lambda d: d.wounds).mean() == F(35, 36)
    assert GAME.describe(state, attack, "en") == "fire at B  [expected damage 0.97; the attack wounds with 97.2%]"
    assert "0.97" in GAME.describe(state, attack, "ja") and "攻撃全体で傷を与える確率 97.2%" in GAME.describe(state, attack, "ja")


def test_li_void_2_expected_damage_counts_void_shields_struck_down() -> None:
    """LI-VOID-2 (issue 8 §2): against a Titan with Void Shields the damage shown counts the shield levels brought
    down as well as Wounds: one AP −1 die at 2+ takes one shield with 5/6."""
    gun = {"gun1": {"type": "infantry", "movement": 5, "armour_save": 5, "base_radius": 0.5,
                    "weapons": [{"name": "lascannon", "profiles": [{"range": 30, "dice": 1, "to_hit": 2, "ap": -1}]}]}}
    state = ready(state_of([det("A", m("gun1", 10, 10), order="first_fire")], [det("T", m("titan", 10, 30))], profiles=gun))
    attack = node(state).options[0]  # type: ignore[union-attr]
    assert GAME.describe(state, attack, "en") == "fire at T  [expected damage 0.83; the attack wounds with 0.0%]"


def _who(decision: Decision) -> str:
    """The id the board must name as the one who acts at this decision: the Detachment or model the decision says
    acts, else the player (the player with Initiative picks the next combat or fight)."""
    return decision.actor or decision.player


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_prompt_names_who_acts(path: Path) -> None:
    """Issue 8 §2: at every decision of a random game the board ends with a line saying what is decided and who acts
    (the Detachment that takes the Order or picks its target, the model to pair or withdraw, the player), in both
    languages."""
    seen: set[str] = set()

    class Checking(RandomDecider):
        def decide(self, state: Any, decision: Decision) -> Any:
            for lang, word in (("en", "Now: "), ("ja", "次の決定: ")):
                last = GAME.show(state, lang).splitlines()[-1]
                assert last.startswith(word), (decision.kind, last)
                assert _who(decision) in last, (decision.kind, last)
            seen.add(decision.kind)
            return super().decide(state, decision)

    state = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
    play(GAME, state, {side: Checking(stream(7 + i)) for i, side in enumerate(GAME.sides(state))}, 1)
    assert "target" in seen


def test_board_draws_the_terrain_with_a_legend_in_both_languages() -> None:
    """§3.7, LI-SAVE-7, LI-OBSC-1 (issue 8 §4): the board draws every model on a map to scale with a legend of the
    Detachments' letters, and lists the terrain a legions scenario has: Cover Saves, hidden Knights and Titans (a
    banner-only one cannot be targeted), and blocked lines of sight; armoured models show their facing."""
    state = ready(state_of(
        [det("A", m("gun", 10, 10, id="g1", cover_save=4), m("tank", 20, 10, id="t1", facing=45.0))],
        [det("K", m("knight", 30, 40, id="k1", obscured=25), m("knight", 40, 40, id="k2", obscured=100))],
        no_line_of_sight=[["g1", "k1"]],
    ))
    en, ja = GAME.show(state, "en"), GAME.show(state, "ja")
    assert "In cover: g1 (Cover Save 4+)." in en and "カバー: g1（カバーセーブ 4+）。" in ja
    assert "k1 (25% hidden)" in en and "k2 (only inessential parts visible: it cannot be targeted)" in en
    assert "k1（25%隠されている）" in ja
    assert "No line of sight between: g1 and k1." in en and "視線が通らない組: g1 と k1。" in ja
    assert "facing 45°" in en and "向き 45°" in ja
    assert "Legend: A A (red), a K (blue)" in en and "凡例: A A（red）、a K（blue）" in ja
    rows = [line for line in en.splitlines() if line.startswith("  |")]
    assert len(rows) == 24 and all(len(r) == 3 + 72 + 1 for r in rows)  # 72 × 48 inches: 1 inch a column, 2 a row
    assert rows[19][3 + 10] == "A" and rows[4][3 + 30] == "a"  # g1 at (10, 10): row (48 − 10) // 2; k1 at (30, 40)
    plain = GAME.show(ready(state_of([det("A", m("gun", 10, 10))], [det("B", m("gun", 10, 40))])), "en")
    assert "Terrain: no cover, nothing hidden, every model sees every model." in plain


def _all_events(path: Path) -> list[Any]:
    """The events of AI battles and random-legal battles of a shipped scenario, a few seeds each."""
    text = path.read_text(encoding="utf-8")
    found: list[Any] = []
    for seed in range(3):
        state = GAME.load_scenario(text, str(path))
        found += play(GAME, state, {s: GAME.ai(s) for s in GAME.sides(state)}, seed).events
        found += play(GAME, state, {s: RandomDecider(stream(seed * 10 + i)) for i, s in enumerate(GAME.sides(state))}, seed).events
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_battle_report_reads_as_a_player_reads_it(path: Path) -> None:
    """Issue 8 §5: every event of AI and random battles narrated in English and Japanese: no None, True or False, no
    brackets, quotes or braces, no code words joined by underscores; ties read as ties ("none (a draw)", never
    "a draw wins"); every Japanese line has Japanese words, and the phase is spelt フェーズ as the spec's glossary
    has it."""
    for event in _all_events(path):
        for lang in LANGUAGES:
            line = GAME.narrate(event, lang)
            assert not CODE_WORDS.search(line), (lang, line)
            assert "draw wins" not in line and "引き分けの勝ち" not in line, line
            if lang == "ja":
                assert JAPANESE.search(line) and "フェイズ" not in line, line


def test_ties_read_as_ties() -> None:
    """LI-FIGHT-5, LI-RESULT-1 (issue 8 §5): a drawn fight and a drawn combat say there is no winner."""
    from kessen.rulesets.legions import events as ev

    fight = ev.FightRolled(attacker="a-1", defender="b-1", attacker_dice=2, defender_dice=3, winner="draw")
    assert GAME.narrate(fight, "en") == "Fight: a-1 (2D6) against b-1 (3D6); winner: none (a draw)."
    assert GAME.narrate(fight, "ja") == "ファイト: a-1（2D6）対 b-1（3D6）、勝者: なし（引き分け）。"
    combat = ev.CombatResult(detachments="A, B", winner="draw", fights_won="1-1")
    assert GAME.narrate(combat, "en") == "Combat of A, B: winner none (a draw); fights won 1-1."


def test_the_summary_uses_the_common_keys_and_labels_its_own() -> None:
    """The battle summary: rounds played, models destroyed (casualties) and left (survivors) per side, then the
    legions keys (losses against the starting size, Broken Formations), each labelled in both catalogues."""
    path = EXAMPLES[0]
    state = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
    played = play(GAME, state, {s: GAME.ai(s) for s in GAME.sides(state)}, 1)
    assert played.terminal is not None
    summary = played.terminal.summary
    assert list(summary) == ["rounds", "casualties", "survivors", "losses", "broken"]
    total = {p: sum(len(d.models) for d in state.detachments_of(p)) for p in GAME.sides(state)}
    assert {p: summary["casualties"][p] + summary["survivors"][p] for p in total} == total
    for lang in LANGUAGES:
        assert set(catalogue("legions", lang)["summary"]) == {"losses", "broken"}


def test_describe_and_board_are_plain_text_for_rich() -> None:
    """Ids from the scenario reach the board escaped, so a name with brackets is shown, not taken for a style."""
    state = ready(state_of([det("[red]A", m("gun", 10, 10))], [det("B", m("gun", 10, 40))]))
    assert r"\[red]A" in GAME.show(state, "en")
