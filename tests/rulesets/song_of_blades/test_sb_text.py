"""The battle report and the choices of `kessen play` as a player reads them, in English and Japanese: every roll
with its dice and scores, ties as ties, exact odds beside the choices, no raw Python anywhere (issue 8 §2, §5)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sb_engine_support import model, play, ready, state_of, step, turn_of
from test_sb_engine_random_games import busy_choice, random_scenario

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.events import Event
from kessen.core.replay import play as play_game
from kessen.dice import draw, stream
from kessen.i18n import LANGUAGES, catalogue
from kessen.rulesets.song_of_blades.referee import game as g
from kessen.rulesets.song_of_blades.referee import options as opt
from kessen.rulesets.song_of_blades.referee.game import GAME
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.melee import MeleeDice, MeleeOutcome
from kessen.rulesets.song_of_blades.rules.quality import ActivationDice, ActivationOutcome, MoraleDice, MoraleOutcome

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "song-of-blades"
# what must never reach a player: Python's words and brackets, quotes, a field left unfilled, a_code_word
RAW = re.compile(r"None|True|False|[\[\]{}'\"]|\w_\w")


def say(event: Event) -> dict[str, str]:
    return {lang: GAME.narrate(event, lang) for lang in LANGUAGES}


def attacked(a_die: int, b_die: int, **blue: Any) -> tuple[SobState, tuple[Event, ...]]:
    """SC-1: Red A (C3) at (100, 100) attacks Blue B (C3) at (125, 100); the dice fall as given."""
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100, **blue)]), "Red", "A")
    state = step(state, opt.Attack("B"))[0]
    rolled = next(o for o in GAME.node(state).dist.outcomes() if (o.attacker_die, o.defender_die) == (a_die, b_die))  # type: ignore[union-attr]
    return step(state, rolled)


def test_sb_melee_3_report_shows_both_dice_and_scores() -> None:
    """SB-MELEE-3, SB-MELEE-6 (SC-1): A rolls 3 → 6, B rolls 1 → 4: A wins with an odd die, not double: a recoil;
    the report gives both natural dice and both scores, in English and Japanese."""
    _, events = attacked(3, 1)
    assert say(events[0]) == {
        "en": "Attack: A rolls 3 (score 6), B rolls 1 (score 4): the attacker wins, a recoil.",
        "ja": "近接攻撃: A（出目 3、スコア 6）対 B（出目 1、スコア 4）: 攻撃側の勝ち、反動。",
    }


def test_sb_melee_5_tie_reads_as_a_tie() -> None:
    """SB-MELEE-5: equal scores are a tie, and read as one (not as somebody's win)."""
    _, events = attacked(4, 4)
    assert say(events[0]) == {
        "en": "Attack: A rolls 4 (score 7), B rolls 4 (score 7): a tie, no effect.",
        "ja": "近接攻撃: A（出目 4、スコア 7）対 B（出目 4、スコア 7）: 同値、効果なし。",
    }


def test_sb_down_6_defensive_win_reads_as_holding() -> None:
    """SB-DOWN-6, SB-MELEE-4: a transfixed defender that wins hurts nobody: it holds (C3 + 2 for A against B's 6)."""
    state = state_of([model("A", 100, 100)], [model("B", 125, 100, state="transfixed")])
    state = step(ready(state, "Red", "A"), opt.Attack("B"))[0]
    held = MeleeDice(1, 6, 6, 9, MeleeOutcome("defender", "nothing", "none"))
    _, events = step(state, held)
    assert say(events[0])["en"] == "Attack: A rolls 1 (score 6), B rolls 6 (score 9): the defender holds, no effect."
    assert say(events[0])["ja"].endswith(": 対象の勝ち（防御的なロール）、効果なし。")


def test_sb_act_1_report_shows_the_activation_dice() -> None:
    """SB-ACT-1, SB-ACT-2: the activation report gives each die (highest first) against Quality, and the turnover."""
    state = turn_of(state_of([model("A", 100, 100)], [model("B", 800, 800)]), "Red")
    state = step(state, opt.Activate("A", 3))[0]
    _, events = step(state, ActivationDice((6, 3, 1), ActivationOutcome(1, 2, True)))
    assert say(events[0]) == {
        "en": "A activates, rolling 6, 3, 1 against Quality 4+ (actions: 1, failures: 2), turnover.",
        "ja": "A がアクティベーション: 出目 6, 3, 1（Quality 4+）、アクション1、失敗2、ターンオーバー。",
    }


def test_sb_mor_2_report_shows_the_morale_dice() -> None:
    """SB-MOR-2, SB-MELEE-7 (SC-11): F tests after the gruesome kill of B; the report gives its three dice."""
    state = state_of([model("A", 275, 300, combat=4)], [model("B", 300, 300, combat=2), model("F", 300, 450)])
    state = step(ready(state, "Red", "A"), opt.Attack("B"))[0]
    state = step(state, MeleeOutcome("attacker", "gruesome_kill", "defender"))[0]
    _, events = step(state, MoraleDice((5, 4, 2), MoraleOutcome(1, "flees", 1)))
    assert say(events[0]) == {
        "en": "F takes a morale test, rolling 5, 4, 2 against Quality 4+ (failures: 1): it flees.",
        "ja": "F の士気テスト: 出目 5, 4, 2（Quality 4+）、失敗1、逃走。",
    }


@pytest.mark.parametrize(
    ("quality", "dice", "english"),
    [
        (4, 3, "activate A with 3 dice  [expected actions 1.50, turnover 50.0%]"),  # EX-13: 3/8 + 1/8 = 1/2
        (3, 2, "activate A with 2 dice  [expected actions 1.33, turnover 11.1%]"),  # 2 · 2/3; (1/3)²
        (6, 1, "activate A with 1 die  [expected actions 0.17, turnover 0.0%]"),  # one die never fails twice
    ],
)
def test_sb_act_2_activation_choices_show_expected_actions_and_turnover(quality: int, dice: int, english: str) -> None:
    """SB-ACT-1, SB-ACT-2 (issue 8 §2): each activation choice shows the exact odds of the activation procedure
    (its mean number of actions and its chance of a turnover), the same numbers in Japanese."""
    state = turn_of(state_of([model("A", 100, 100, quality=quality)], [model("B", 800, 800)]), "Red")
    option = opt.Activate("A", dice)
    assert option in GAME.node(state).options  # type: ignore[union-attr]
    assert GAME.describe(state, option, "en") == english
    numbers = re.findall(r"\d+\.\d+%?", english)
    assert re.findall(r"\d+\.\d+%?", GAME.describe(state, option, "ja")) == numbers


def test_sb_turn_4_summary_keys_and_labels() -> None:
    """SB-TURN-4: the summary has the common keys (rounds, casualties, survivors) and this ruleset's points, each of
    those labelled in both catalogues' [summary] tables."""
    state = turn_of(state_of([model("A", 100, 100)], [model("B", 800, 800, points=45)], turns=1), "Red")
    state, _ = play(state, opt.EndTurn(), opt.EndTurn())
    end = GAME.node(state)
    assert isinstance(end, Terminal)
    assert end.summary == {"rounds": 1, "casualties": {"Red": 0, "Blue": 0}, "survivors": {"Red": 1, "Blue": 1},
                           "points_lost": {"Red": 0, "Blue": 0}, "starting_points": {"Red": 30, "Blue": 45}}
    for lang in LANGUAGES:
        labels = catalogue("song-of-blades", lang)["summary"]
        assert set(labels) == {"points_lost", "starting_points"} and all(labels.values())


def test_sb_turn_4_end_reads_as_a_win_or_a_draw() -> None:
    """SB-TURN-4: the end says what each side lost (of its starting points) and who won, or that it is a draw."""
    state = turn_of(state_of([model("A", 100, 100)], [model("B", 800, 800, points=45)], turns=1), "Red")
    _, events = play(state, opt.EndTurn(), opt.EndTurn())
    assert [say(e) for e in events[-3:]] == [
        {"en": "Red lost 0 of 30 points (models removed: 0).", "ja": "Red の損失: 30ポイント中0ポイント（除去されたモデル0体）。"},
        {"en": "Blue lost 0 of 45 points (models removed: 0).", "ja": "Blue の損失: 45ポイント中0ポイント（除去されたモデル0体）。"},
        {"en": "The game ends: a draw (both sides lost the same share of their points).",
         "ja": "ゲーム終了: 引き分け（両陣営が失ったポイントの割合が同じ）。"},
    ]
    state = ready(state_of([model("A", 100, 100)], [model("B", 125, 100)]), "Red", "A")
    _, events = play(state, opt.Attack("B"), MeleeOutcome("attacker", "kill", "defender"))
    assert say(events[-1]) == {"en": "The game ends: the winner is Red.", "ja": "ゲーム終了: Red の勝利。"}


def reports(state: SobState, seed: int) -> list[Event]:
    """Every event of a busy random game (seeded) from *state*."""
    rng = stream(seed)
    events: list[Event] = []
    for _ in range(20_000):
        node = g.GAME.node(state)
        if isinstance(node, Terminal):
            return events
        choice = draw(node.dist, rng) if isinstance(node, Chance) else busy_choice(rng, node)
        state, new = g.GAME.apply(state, choice)
        events.extend(new)
    raise AssertionError("the game did not end")


def test_sb_report_reads_cleanly_in_both_languages() -> None:
    """Issue 8 §5: every event of the example scenarios' AI battles and of busy random games on random tables reads
    in English and Japanese with every field filled in, and no None/True/False, brackets, quotes or code words; every
    event type met has a text in both catalogues."""
    events: list[Event] = []
    for path in sorted(EXAMPLES.glob("*.toml")):
        state = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
        for seed in (1, 2, 3):
            events += play_game(GAME, state, {side: GAME.ai(side) for side in GAME.sides(state)}, seed).events
    for seed in range(12):
        rng = stream(seed)
        try:
            state = GAME.load_scenario(random_scenario(rng), f"random-{seed}")
        except Exception:  # noqa: BLE001 — a random table the warbands do not fit
            continue
        events += reports(state, seed)
    kinds = {e.type for e in events}
    assert {"roll_off", "activation", "combat_roll", "moved", "removed", "points_lost"} <= kinds
    for lang in LANGUAGES:
        assert kinds <= set(catalogue("song-of-blades", lang)["events"]), lang
    for event in events:
        for lang, line in say(event).items():
            assert line.strip() and not RAW.search(line), (lang, event, line)


def test_sb_turn_3_every_prompt_names_who_acts() -> None:
    """SB-TURN-3 (issue 8 §2): the board shown before each decision ends by naming the model that decides or is
    decided about (the activated model, the loser that recoils, the model that leaves contact, the winner that may
    follow up), in both languages."""
    state = GAME.load_scenario(sorted(EXAMPLES.glob("*.toml"))[-1].read_text(encoding="utf-8"), "warband")
    rng = stream(4)
    met: set[str] = set()
    for _ in range(20_000):
        node = g.GAME.node(state)
        if isinstance(node, Terminal):
            break
        if isinstance(node, Decision):
            for lang in LANGUAGES:
                last = GAME.show(state, lang).splitlines()[-1]
                assert who_acts(state, node) in last, (node.kind, lang, last)
            met.add(node.kind)
            choice = busy_choice(rng, node)
        else:
            choice = draw(node.dist, rng)
        state, _ = g.GAME.apply(state, choice)
    assert {"activation", "move"} <= met


def who_acts(state: SobState, node: Decision) -> str:
    """The name a prompt must carry: the side choosing a model to activate, else the model concerned."""
    if node.kind == "activation":
        return node.player
    if state.pending:
        top = state.pending[0]
        return str(getattr(top, "loser", None) or getattr(top, "model", None) or getattr(top, "winner"))
    assert state.current is not None
    return state.current.model
