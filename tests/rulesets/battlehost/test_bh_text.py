"""battlehost in words (issue 8 §2, §4, §5): options and the board name who acts and show the exact odds; the
board draws the terrain with a legend; the narration reads as a player writes, in English and Japanese."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from bh_referee_support import CONTACT, decision, fight_phase, model, play, started, state_of, step, to_phase

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Decision
from kessen.core.replay import play as play_game
from kessen.dice import stream
from kessen.i18n import LANGUAGES, catalogue
from kessen.rulesets import get_ruleset
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost import board, text
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.duel import DuelDice
from kessen.rulesets.battlehost.referee.setup import initial_state
from kessen.rulesets.battlehost.scenario import load_scenario
from kessen.sim.play import play_battle

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples" / "battlehost").glob("*.toml"))
GAME = get_ruleset("battlehost").game
GOOD_WINS = DuelDice(good_best=6, evil_best=1)
EVIL_WINS = DuelDice(good_best=1, evil_best=6)


def now(state: st.BhState, lang: str = "en") -> str:
    """The board's last line: what is asked next and of whom."""
    return GAME.show(state, lang).splitlines()[-1]


# --- options and prompts name who acts, with exact odds (issue 8 §2) ------------------------------------------


def test_bh_strike_7_bh_proc_3_strike_options_name_the_striker_and_show_the_exact_odds() -> None:
    """BH-STRIKE-7, BH-PROC-3: a lone winner (A3, S3) against X, Y, Z (D4: chart 5, one roll each, 1/3) aims one strike
    at a time; each option names the striker and shows its one strike's exact odds: expected wounds 1/3, slay 1/3."""
    state = fight_phase([model("H", 20, 20, attacks=3)], [model("X", 20 + CONTACT, 20), model("Y", 20, 20 + CONTACT), model("Z", 20 - CONTACT, 20)])
    state, _ = play(state, GOOD_WINS, op.NextLoser("X"), op.NextLoser("Y"))  # Z, the last, backs away unasked
    ask = decision(state, "strike")
    assert [GAME.describe(state, o, "en") for o in ask.options] == [
        f"H strikes {t}  [1 strike: expected wounds 0.33, slay 33.3%]" for t in ("X", "Y", "Z")
    ]
    assert GAME.describe(state, ask.options[0], "ja") == "HがXを攻撃  [1回: 負傷の期待値 0.33、除去 33.3%]"
    assert now(state) == "Next: fight: H against X, Y, Z; H aims its next strike (3 left)"


def test_bh_back_6_make_way_options_name_the_friend_and_the_loser() -> None:
    """BH-BACK-6, BH-SCN-14: the Good friend F blocking the loser L may make way; both options and the board name F
    and L."""
    state = fight_phase([model("L", 10.9843, 10), model("F", 12.6, 10.3)], [model("W", 10, 10)])
    state, _ = step(state, EVIL_WINS)
    ask = decision(state, "make way")
    assert ask.player == "good"
    assert [GAME.describe(state, o, "en") for o in ask.options] == ["F makes way for L", "F stays where it is: L is trapped"]
    assert [GAME.describe(state, o, "ja") for o in ask.options] == ["FがLのために道を開く", "Fは動かない: Lはとらわれる (Trapped)"]
    assert now(state) == "Next: fight: L against W; F may make way for L"


def test_bh_dice_4_might_on_roll_options_name_the_hero_and_the_result() -> None:
    """BH-DICE-4, BH-SHOOT-5: a 4+ Hero's hit roll of 3: spending 1 Might makes it score 4 and hit, spending none
    leaves it missed; the options and the board name the Hero."""
    hero = model("H", 10, 10, type="hero", fight="4/4+", missile_weapon="bow", might=2)
    state = to_phase(started(state_of([hero], [model("T", 10, 20)])), "shoot")[0]
    state, _ = play(state, op.ShootAt("H", "T"), 3)
    ask = decision(state, "might on roll")
    assert [GAME.describe(state, o, "en") for o in ask.options] == [
        "H spends 1 Might on its hit roll: the die scores 4 and succeeds", "H spends no Might: its hit roll fails",
    ]
    assert now(state) == "Next: H rolled 3 (score 3) for its hit roll: it may spend Might (2 left)"


def test_bh_duel_6_the_board_names_the_heroes_and_the_exact_chance_of_each_might_choice() -> None:
    """BH-DUEL-6..9: a Hero (F5, Might 2) whose best is 4 against an orc captain's 5 (F5): spending 0 loses, 1 forces
    a roll-off (1/2), 2 wins; the board says whose Might it is and those exact chances."""
    hero = model("H", 20, 20, type="hero", fight=5, might=2)
    state = fight_phase([hero], [model("O", 20 + CONTACT, 20, fight=5)])
    state, _ = step(state, DuelDice(good_best=4, evil_best=5))
    decision(state, "might")
    assert now(state) == (
        "Next: fight: H against O; Good's best 4, Evil's best 5: Good may spend the Might of H (2); "
        "Good's chance to win the duel after spending 0: 0.0%, 1: 50.0%, 2: 100.0%"
    )
    assert "0点: 0.0%、1点: 50.0%、2点: 100.0%" in now(state, "ja")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_bh_every_decision_names_who_acts(path: Path) -> None:
    """Issue 8 §2: at every decision of random games the board's last line names the model that acts (two-handed
    declarations, Might on a roll, standing up, making way, strikes) or else the side that chooses."""
    met: set[str] = set()

    class Checking(RandomDecider):
        def decide(self, state: Any, node: Decision) -> Any:
            met.add(node.kind)
            for lang in LANGUAGES:
                line = now(state, lang)
                f = state.fighting
                actor = {
                    "two-handed": lambda: node.options[0].model, "might on roll": lambda: node.options[0].model,
                    "stand up": lambda: node.options[0].model, "make way": lambda: state.pending[0].retreat.make_way.model,
                    "strike": lambda: f.striker,
                }.get(node.kind, lambda: catalogue("battlehost", lang)["option_words"][node.player])()
                assert actor in line, (node.kind, line)
            return super().decide(state, node)

    state = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
    for seed in range(3):
        play_game(GAME, state, {side: Checking(stream(40 + seed + i)) for i, side in enumerate(GAME.sides(state))}, seed)
    assert "move" in met and len(met) > 3


# --- the board (issue 8 §4) -------------------------------------------------------------------------------------


def doorway() -> st.BhState:
    path = ROOT / "examples" / "battlehost" / "doorway.toml"
    return initial_state(load_scenario(path.read_text(encoding="utf-8"), str(path)))


def test_bh_geo_5_the_board_draws_the_terrain_blocks_and_the_models_with_a_legend() -> None:
    """BH-GEO-5: the doorway's two wall blocks (y 22–24, x 0–22 and 24–48) fill the map's row of y 22 with '#' but for
    the 2" gap at x 22–24, where the Captain (A) stands; every model's letter is on the map and in the list below."""
    rows, across, down = board.board_map(doorway())
    assert (across, down) == (1, 2)
    wall = next(r for r in rows if r.startswith("22 |"))  # the row of y 22–24, north up (issue 24 §7)
    assert wall == "22 |" + "#" * 22 + ".A" + "#" * 24 + "|"
    assert rows.index(wall) < next(n for n, r in enumerate(rows) if r.startswith(" 0 |")) and rows[-1].startswith("    0           12")
    shown = GAME.show(doorway(), "en")
    assert "# impassable terrain" in shown and "A-Z Good models, a-z Evil models" in shown
    assert "  A Captain  F5/4+ S4 D6 A2 W3/3, Might 3  at (23.00, 23.00)" in shown
    assert "  g Orc Archer  F3/5+ S3 D4 A1 W1/1, orc bow 18\" S2  at (23.00, 36.00)" in shown
    assert "".join(rows).count("g") == 1 and "30 |....................a.b.c.d....." in "\n".join(rows)


def test_bh_geo_5_the_board_and_its_legend_in_japanese() -> None:
    """The board's legend, sides and model lines in the ja catalogue's words (glossary terms)."""
    shown = GAME.show(doorway(), "ja")
    assert "# 通れない地形" in shown and "1列 = 1mv、1行 = 2mv" in shown
    assert "グッドサイド:" in shown and "イーヴィルサイド:" in shown
    assert "A Captain  F5/4+ S4 D6 A2 W3/3、Mightポイント 3  位置(23.00, 23.00)" in shown


def test_bh_geo_5_a_wide_board_is_drawn_at_two_inches_a_column() -> None:
    """A 96" board is drawn 48 columns wide, 2" a column and 4" a row, so that it fits a terminal."""
    scenario = "name = 'wide'\nturns = 1\nboard = { width = 96.0, height = 40.0 }\nterrain = [[10.0, 0.0, 12.0, 40.0]]\n"
    scenario += "good = [{ name = 'G', move = 6, fight = 3, strength = 3, defence = 4, x = 1.0, y = 1.0 }]\n"
    scenario += "evil = [{ name = 'E', move = 6, fight = 3, strength = 3, defence = 4, x = 95.0, y = 39.0 }]\n"
    rows, across, down = board.board_map(initial_state(load_scenario(scenario, "wide.toml")))
    assert (across, down) == (2, 4)
    body = [r for r in rows if "|" in r]
    assert len(body) == 10 and all(len(r) == len("36 |") + 48 + 1 for r in body)
    assert all(r[4 + 5] == "#" for r in body)  # the column of x 10–12
    assert body[-1][4] == "A" and body[0][4 + 47] == "a"  # north up: G at y 1 on the bottom row, E at y 39 on the top


def test_bh_a_name_with_brackets_stays_as_written_on_the_board() -> None:
    """The board is printed with rich markup: a model named with brackets is escaped, not taken for a style."""
    state = started(state_of([model("[bold]G", 10, 10)], [model("E", 20, 20)]))
    assert "\\[bold]G" in GAME.show(state, "en")


# --- narration (issue 8 §5) ------------------------------------------------------------------------------------

RAW = re.compile(r"None|True|False|\['|'\]|\(s\)|[a-z]_[a-z]|\{|\}")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_bh_every_event_of_ai_battles_reads_well_in_both_languages(path: Path) -> None:
    """Every event of the shipped scenarios' AI battles narrates in en and ja with no Python values (None, True,
    lists), no raw ids with underscores, no '(s)' plurals and no template braces; the Japanese uses the
    glossary's フェイズ spellings and no English rules words."""
    played = play_battle(get_ruleset("battlehost"), path.read_text(encoding="utf-8"), str(path), 1)
    for event in played.events:
        for lang in LANGUAGES:
            line = GAME.narrate(event, lang)
            assert line.strip() and not RAW.search(line), (event, line)
            if lang == "ja":
                assert not re.search(r"\b(Good|Evil|wins|wound|hit roll|phase)\b", line), line
                assert "フェーズ" not in line


def test_bh_counts_read_as_words_in_english() -> None:
    """Strikes and wounds read as counts: once, twice, 3 times; no wounds, 1 wound, 2 wounds; 1 wound left."""
    say = lambda e: GAME.narrate(e, "en")  # noqa: E731
    assert say(ev.Struck(model="H", target="O", strikes=1, wounds=1)) == "H strikes O once: 1 wound."
    assert say(ev.Struck(model="H", target="O", strikes=2, wounds=0)) == "H strikes O twice: no wounds."
    assert say(ev.Struck(model="H", target="O", strikes=3, wounds=2)) == "H strikes O 3 times: 2 wounds."
    assert say(ev.Wounded(model="T", wounds_left=1)) == "T suffers a wound (1 wound left)."
    assert say(ev.FightResolved(winner="good", decided_by="score", might_spent=0, wounds=2, slain=1)) == (
        "The fight is over: Good won (higher score); 2 wounds, 1 slain."
    )
    assert say(ev.Moved(model="O", x=1.5, y=2.25, inches=1.0)) == 'O moves 1.00" to (1.50, 2.25).'
    assert GAME.narrate(ev.Struck(model="H", target="O", strikes=2, wounds=1), "ja") == "HがOに2回攻撃: 負傷1。"


def test_bh_turn_2_bh_turn_3_a_tie_and_a_draw_read_as_such() -> None:
    """BH-TURN-2: a tied priority roll in a later turn says so and why the priority passes; BH-TURN-3: a draw reads as
    a draw, not as a winner called nobody."""
    tie = ev.PriorityRolled(turn=2, good_roll=4, evil_roll=4, player="evil")
    assert GAME.narrate(tie, "en") == "— Turn 2 — Priority roll: Good 4, Evil 4, a tie; Evil has priority, having not had it last turn."
    assert "同点" in GAME.narrate(tie, "ja")
    draw = ev.BattleEnded(winner="draw", turn=5, good_lost="1/3", evil_lost="1/3")
    assert GAME.narrate(draw, "en") == "The battle ends in turn 5 in a draw. Models lost: Good 1/3, Evil 1/3."
    assert "引き分け" in GAME.narrate(draw, "ja") and "勝ち" not in GAME.narrate(draw, "ja")
    won = ev.BattleEnded(winner="good", turn=9, good_lost="0/3", evil_lost="7/7")
    assert GAME.narrate(won, "en") == "The battle ends in turn 9: Good wins. Models lost: Good 0/3, Evil 7/7."


def test_bh_names_are_never_translated() -> None:
    """A model named like a rules word (``fight``, ``good``) keeps its name in every field that holds a name."""
    line = GAME.narrate(ev.FightChosen(player="good", good="fight, good", evil="evil"), "ja")
    assert line == "グッドサイドが戦闘を選ぶ: fight、good 対 evil。"
    assert GAME.narrate(ev.Struck(model="good", target="prone", strikes=1, wounds=0), "en") == "good strikes prone once: no wounds."


# --- the battle summary (issue 8 §5) ---------------------------------------------------------------------------


def test_bh_turn_3_summary_keys_and_their_labels() -> None:
    """BH-TURN-3: the summary has the common keys (rounds, casualties, survivors) and the share of its models each
    side lost, which decides the winner after the last turn; each key of its own has a label in both catalogues."""
    path = ROOT / "examples" / "battlehost" / "line-fight.toml"
    played = play_battle(get_ruleset("battlehost"), path.read_text(encoding="utf-8"), str(path), 1)
    summary = played.terminal.summary
    assert set(summary) == {"rounds", "casualties", "survivors", "percent_lost"}
    start = {"good": 10, "evil": 14}  # line-fight: ten of Gondor against fourteen orcs (issue 23 §4)
    assert all(summary["casualties"][s] + summary["survivors"][s] == start[s] for s in ("good", "evil"))
    assert summary["percent_lost"] == {s: round(100 * summary["casualties"][s] / start[s], 1) for s in ("good", "evil")}
    for lang in LANGUAGES:
        assert set(catalogue("battlehost", lang)["summary"]) == {"percent_lost"}
