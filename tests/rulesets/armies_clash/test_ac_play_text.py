"""armies-clash as `kessen play` shows it: the exact odds beside attacks and spells, the line naming who decides,
and the narration (AC-ATTACK-4, AC-OBJ-4, AC-DMG-5, AC-WIN-2)."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from armies_clash_engine_helpers import creature, scenario, start, unit, with_solo
from rich.text import Text

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Decision
from kessen.core.replay import play
from kessen.dice import stream
from kessen.i18n import LANGUAGES
from kessen.rulesets import get_ruleset
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.ai import expected_damage
from kessen.rulesets.armies_clash.referee.attack import attack_odds
from kessen.rulesets.armies_clash.referee.options import AttackWith, Cast
from kessen.rulesets.armies_clash.referee.state import AcState, Turn
from kessen.rulesets.armies_clash.referee.steps import PieceAct

GAME = get_ruleset("armies-clash").game
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "armies-clash").glob("*.toml"))
GATE = {"id": "gate", "kind": "destroy", "side": "a", "square": [4, 3], "hp": 20, "vp": 4}


def _orc_turn(**extra: object) -> AcState:
    """Orc stand o1 (greataxe +5, 1d12+3) of side a at (3,3), acting; a Hob stand h1 (AC 18, 11 HP) at (3,4); the
    destroy objective gate (20 HP) at (4,3)."""
    s = scenario(stands=[("o1", "u", "orc", (3, 3)), ("h1", "v", "hob", (3, 4))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")], objectives=[GATE], **extra)
    state = start(s)
    return replace(state, turn=Turn("u", False, action="attack", piece="o1"), pending=(PieceAct(),))


def test_ac_attack_4_play_shows_the_exact_mean_and_the_casualty_chance() -> None:
    """AC-ATTACK-4: beside an attack, `kessen play` shows the exact mean of the action's damage and the chance it
    makes a casualty. Greataxe +5 against AC 18: a hit on 13–19 (7/20) deals 1d12+3 (mean 9.5, 11+ on 5/12), a
    natural 20 (1/20) 2d12+3 (mean 16, 11+ on 123/144): mean 33/8, casualty 181/960 (18.9%)."""
    state = _orc_turn()
    odds = attack_odds(state, "o1", AttackWith("greataxe", "h1"))
    assert odds.mean_damage == Fraction(33, 8)
    assert (odds.effect, odds.chance) == ("casualty", Fraction(181, 960))
    en = GAME.describe(state, AttackWith("greataxe", "h1"), "en")
    assert en == "attack h1 with greataxe  [casualty 18.9%, expected damage 4.12]"
    assert GAME.describe(state, AttackWith("greataxe", "h1"), "ja") == "h1 を greataxe で攻撃  [負傷部隊となる確率 18.9%、ダメージの期待値 4.12]"


def test_ac_obj_4_play_shows_the_true_mean_on_an_objective_not_the_ai_score() -> None:
    """AC-OBJ-4, issue 8 §2: a melee attack on an objective square hits automatically: mean 1d12+3 = 9.50, shown
    as such (the AI weighs objective damage double, 19, and keeps that to itself); 20 HP cannot fall to one blow."""
    state = _orc_turn()
    option = AttackWith("greataxe", "gate")
    assert attack_odds(state, "o1", option).mean_damage == Fraction(19, 2)
    assert expected_damage(state, "o1", option) == 19  # the AI's private score
    assert GAME.describe(state, option, "en") == "attack gate with greataxe  [destroyed 0.0%, expected damage 9.50]"


def test_ac_dmg_5_play_shows_the_chance_to_drop_or_kill_a_solo() -> None:
    """AC-DMG-5: against a conscious solo the chance shown is that it falls; against a dying one, that it dies (each
    hit from next to it is critical: 1d12+3 doubled to 2d12+3, 11+ on 123/144; hits on 13+ with advantage, 51/100 ...
    here the Hob solo at (3,4) is kept from isolation by a stand of its side)."""
    s = scenario(stands=[("o1", "u", "orc", (3, 3)), ("h1", "v", "hob", (4, 5))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")],
                 solos=[{"id": "pc", "side": "b", "creature": "hob", "at": [3, 4], "pc": True}])
    state = replace(start(s), turn=Turn("u", False, action="attack", piece="o1"), pending=(PieceAct(),))
    up = attack_odds(state, "o1", AttackWith("greataxe", "pc"))
    assert up.effect == "falls" and up.chance == Fraction(181, 960)
    down = attack_odds(with_solo(state, "pc", hp=0, status="dying"), "o1", AttackWith("greataxe", "pc"))
    advantage = 1 - Fraction(12, 20) ** 2
    assert down.effect == "killed" and down.chance == advantage * Fraction(123, 144)
    assert "[killed " in GAME.describe(with_solo(state, "pc", hp=0, status="dying"), AttackWith("greataxe", "pc"), "en")


def test_ac_spell_3_play_shows_a_spells_mean_damage() -> None:
    """AC-SPELL-3: a targeted spell attack shows its exact mean damage on its target (fire bolt +5 against AC 18,
    1d10: hits on 13–19 for 5.5, a natural 20 for 2d10 = 11: 7/20 · 5.5 + 1/20 · 11 = 2.475)."""
    bolt = {"id": "bolt", "range_ft": 120, "form": "targeted", "max_targets": 1, "resolution": "attack",
            "kind": "ranged", "attack_bonus": 5, "damage": "1d10"}
    s = scenario(stands=[("m1", "u", "mage", (3, 0)), ("h1", "v", "hob", (3, 4))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")],
                 creatures=[creature("hob"), creature("mage", spells=[bolt])])
    state = replace(start(s), turn=Turn("u", False, action="cast", piece="m1"), pending=(PieceAct(),))
    assert GAME.describe(state, Cast("bolt", "h1"), "en") == "cast bolt at h1  [expected damage 2.48]"


def test_ac_move_2_every_prompt_names_who_acts() -> None:
    """AC-MOVE-2: before each decision the board names the side that decides and who acts: the unit declaring, the
    stand moving or acting (with its unit), the commander, the general choosing for a routed unit, in both
    languages."""
    state = _orc_turn()
    assert _last_line(state, "en") == "▶ side a: o1 of u acts: Attack"
    assert _last_line(state, "ja") == "▶ a軍: u の o1 が行動する: 攻撃"
    seen: set[str] = set()

    class Looking(RandomDecider):
        def decide(self, state: AcState, decision: Decision) -> object:
            for lang in LANGUAGES:
                line = _last_line(state, lang)
                assert line.startswith("▶ ") and "{" not in line, line
            seen.add(decision.kind)
            return super().decide(state, decision)

    path = EXAMPLES[0]
    initial = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
    play(GAME, initial, {side: Looking(stream(40 + i)) for i, side in enumerate("ab")}, 2)
    assert {"action", "activate", "move", "act"} <= seen


def _last_line(state: AcState, lang: str) -> str:
    return Text.from_markup(GAME.show(state, lang)).plain.splitlines()[-1]


# Python reprs (None, True, lists, quoted strings), words_with_underscores, unfilled {fields}; a possessive's
# apostrophe ("wizard's") is English, a quote opening after a space or a bracket is not
WORDS = re.compile(r"None|True|False|\[|\]|(^|[\s(])'|\w_\w|\{|\}")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_ac_win_2_narration_reads_as_prose_in_both_languages(path: Path) -> None:
    """AC-WIN-2 and every event of AI battles of the shipped scenarios, in en and ja: no None/True/False, no Python
    lists or quotes, no raw_word_ids of the rules, no unfilled fields; a draw reads as a draw."""
    initial = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
    for seed in (1, 2, 3):
        played = play(GAME, initial, {s: GAME.ai(s) for s in "ab"}, seed)
        for event in played.events:
            for lang in LANGUAGES:
                line = GAME.narrate(event, lang)
                assert not WORDS.search(line), (lang, line)
    assert GAME.narrate(ev.BattleEnded(result="draw", winner="none", vp_a=5, vp_b=5), "en") == (
        "The battle ends in a draw, VP a 5, b 5."
    )
    assert "引き分け" in GAME.narrate(ev.BattleEnded(result="draw", winner="none", vp_a=5, vp_b=5), "ja")
    assert GAME.narrate(ev.Attacked("o1", "h1", "multiattack", 1, 0, 7), "ja") == "o1 が h1 を 複数回攻撃 で攻撃: 命中1、ダメージ7。"
    assert GAME.narrate(ev.MoraleChecked(unit="u", routed=True), "en") == "u fails its morale check and is routed!"
    assert GAME.narrate(ev.SpellCast(caster="m1", spell="fireball", aim="(2,2)"), "en") == "m1 casts fireball at (2, 2)."
    assert GAME.narrate(ev.TurnOrder(order="u,v"), "ja") == "手番の順: u、v。"


def test_ac_terr_1_to_5_the_board_draws_every_terrain_with_a_legend() -> None:
    """AC-TERR-1..5, AC-HIDE-2, AC-OBJ-3: `kessen board` draws each kind of square (plain, rough, road, forest, shallow
    and deep water), obscured squares in their own glyphs, raised plain ground by its height, an objective square;
    the heights of all the ground (also under woods and pieces) below the legend, and the terrain under each stand
    in its line; the legend explains every glyph, in en and ja."""
    terrain = [
        {"at": [0, 0], "rough": True}, {"at": [1, 0], "kind": "road"}, {"at": [2, 0], "kind": "forest"},
        {"at": [3, 0], "kind": "shallow_water"}, {"at": [4, 0], "kind": "deep_water"},
        {"at": [0, 1], "obscured": True}, {"at": [1, 1], "rough": True, "obscured": True},
        {"at": [2, 1], "kind": "forest", "obscured": True, "elevation": 3}, {"at": [3, 1], "elevation": 10},
        {"at": [0, 2], "kind": "forest"}, {"at": [1, 2], "elevation": 2},
    ]
    s = scenario(stands=[("s1", "u", "hob", (0, 2)), ("s2", "u", "hob", (1, 2)), ("e1", "v", "hob", (4, 2))],
                 units=[unit("u"), unit("v", "b", "skirmisher")], terrain=terrain, width=5, height=3,
                 objectives=[{**GATE, "square": [4, 1]}])
    state = start(s)
    rows = Text.from_markup(GAME.show(state, "en")).plain.splitlines()
    assert rows[1:5] == ["2 AA..a", "1 o%F+*", "0 ,=f~w", "  0"]  # north up, y on the left (issue 24 §7)
    heights = rows.index("    heights of the ground (. level 0, 1-9, + for 10):")
    assert rows[heights + 1:heights + 5] == ["2 .2...", "1 ..3+.", "0 .....", "  0"]
    assert "s1@0,2 11hp (forest); s2@1,2 11hp" in GAME.show(state, "en")
    for lang, words in (("en", ("rough", "road", "forest", "obscured", "heights", "objective")),
                        ("ja", ("荒れ地", "道路", "森林", "視界不良", "高度", "目標"))):
        shown = GAME.show(state, lang)
        assert all(word in shown for word in words), (lang, shown)
