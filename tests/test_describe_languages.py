"""The legal decisions of ``kessen play`` in both languages: every option of every ruleset is described in en and ja,
the ja words are the catalogue's own (not the English left in place), and the exact odds stay beside the attacks."""

from __future__ import annotations

import re
import string
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Decision
from kessen.core.replay import play
from kessen.dice import stream
from kessen.i18n import LANGUAGES, catalogue
from kessen.rulesets import get_ruleset, ruleset_ids
from kessen.rulesets.legions.referee.targeting import Fire
from kessen.rulesets.legions.text import describe_fire

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NUMBERS = re.compile(r"\d+\.\d+%?|\d+%")  # odds, expected damage, coordinates: the same in every language
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

SCENARIOS = [
    pytest.param(rid, path, id=f"{rid}:{path.stem}")
    for rid in ruleset_ids()
    for path in sorted((EXAMPLES / rid).glob("*.toml"))
]

# the English of the main option kinds, as `kessen play` has always written it (ids and numbers vary)
ENGLISH = {
    ("song-of-blades", "Attack"): r"(attack|power blow on) \S+  \[win \d+\.\d%, kill \d+\.\d%, suffer \d+\.\d%\]",
    ("song-of-blades", "Activate"): r"activate \S+ with ([23] dice|1 die)  \[expected actions \d\.\d\d, turnover \d+\.\d%\]",
    ("song-of-blades", "Move"): r"move (\((charge|advance|retreat|into line beside) \S+\) |into cover |onto high ground )?to \([-\d.]+, [-\d.]+\)",
    ("song-of-blades", "EndTurn"): r"end the turn",
    ("battlehost", "ShootAt"): r".+ shoots at .+  \[hit \d+\.\d%, wound \d+\.\d%\]",
    ("battlehost", "MoveTo"): r".+ (stands up and )?(moves|charges .+) to \([-\d.]+, [-\d.]+\)",
    ("battlehost", "ChooseFight"): r"fight: .+ against .+",
    ("battlehost", "SpendMight"): r"spend \d Might",
    ("legions", "Fire"): r"fire at .+  \[expected damage \d+\.\d\d; the attack wounds with \d+\.\d%\]",
    ("legions", "HoldFire"): r"hold fire",
    ("legions", "order"): r"(first_fire|advance)(, best target \S+)?|charge|march|fall_back",
    ("armies-clash", "AttackWith"): r"attack \S+ with .+  \[((casualty|falls|killed|destroyed) \d+\.\d%, )?expected damage \d+\.\d\d\]",
    ("armies-clash", "Destination"): r"(move to|flee off the grid at|join \S+ at) \(-?\d+, -?\d+\), cost \d+( \+road step)?",
    ("armies-clash", "Activate"): r"activate \S+",
}


def kind(decision: Decision, option: Any) -> str:
    """An option's kind: its class, or the decision's name for the plain ids and tuples legions offers."""
    return decision.kind if isinstance(option, str | tuple) else type(option).__name__


def described(ruleset_id: str, path: Path, seed: int = 0) -> list[tuple[str, dict[str, str]]]:
    """Every option of every decision of a seeded random-legal game, with its description in each language."""
    game = get_ruleset(ruleset_id).game
    found: list[tuple[str, dict[str, str]]] = []

    class Describing:
        def __init__(self, index: int) -> None:
            self.random = RandomDecider(stream(500 + index + seed))

        def decide(self, state: Any, decision: Decision) -> Any:
            for option in decision.options:
                texts = {lang: game.describe(state, option, lang) for lang in LANGUAGES}
                if isinstance(option, Fire):  # the shooting module's own English words, kept
                    assert texts["en"].startswith(describe_fire(option) + "  ["), texts
                found.append((kind(decision, option), texts))
            return self.random.decide(state, decision)

    text = path.read_text(encoding="utf-8")
    state = game.load_scenario(text, str(path))
    play(game, state, {side: Describing(i) for i, side in enumerate(game.sides(state))}, seed)
    return found


@pytest.mark.parametrize(("ruleset_id", "path"), SCENARIOS)
def test_every_option_is_described_in_both_languages_with_the_same_odds(ruleset_id: str, path: Path) -> None:
    """Each option met in a random game has a non-empty en and ja description; the ja one is not the English one,
    has Japanese words in it, and shows the same odds (and other exact numbers) as the English one."""
    found = described(ruleset_id, path)
    assert found
    for option_kind, texts in found:
        en, ja = texts["en"], texts["ja"]
        assert en.strip() and ja.strip(), (option_kind, texts)
        assert ja != en and JAPANESE.search(ja), (option_kind, texts)
        assert sorted(NUMBERS.findall(ja)) == sorted(NUMBERS.findall(en)), (option_kind, texts)


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_english_descriptions_keep_their_words(ruleset_id: str) -> None:
    """The English of the main option kinds is the one `kessen play` always printed; each kind is met in the
    shipped scenarios' random games."""
    met: dict[str, list[str]] = defaultdict(list)
    for path in sorted((EXAMPLES / ruleset_id).glob("*.toml")):
        for option_kind, texts in described(ruleset_id, path):
            met[option_kind].append(texts["en"])
    for (rid, option_kind), pattern in ENGLISH.items():
        if rid != ruleset_id:
            continue
        assert met[option_kind], f"{option_kind} never offered"
        for en in met[option_kind]:
            assert re.fullmatch(pattern, en), (option_kind, en)


def _fields(template: str) -> set[str]:
    return {name.split(":")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("name", [*ruleset_ids(), "cli"])
def test_en_and_ja_catalogues_have_the_same_option_texts_with_the_same_fields(name: str) -> None:
    """The option texts, option words, decision names (and the CLI's texts) exist in both languages, each ja
    template taking exactly the fields of its en template (a legions Order: its code in en, its word in ja)."""
    en, ja = catalogue(name, "en"), catalogue(name, "ja")
    tables = ("texts",) if name == "cli" else ("options", "option_words", "decisions")
    for table in tables:
        assert set(en[table]) == set(ja[table]), table
        for key, template in en[table].items():
            assert _fields(ja[table][key]) <= _fields(template) | {"word"}, (table, key)
            assert _fields(template) <= _fields(ja[table][key]) | {"order"}, (table, key)


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_every_decision_met_has_a_japanese_name(ruleset_id: str) -> None:
    """Each decision a random game meets is announced under a ja name from the ruleset's ``decisions`` table."""
    game = get_ruleset(ruleset_id).game
    names = catalogue(ruleset_id, "ja")["decisions"]
    seen: set[str] = set()

    class Recording(RandomDecider):
        def decide(self, state: Any, decision: Decision) -> Any:
            seen.add(decision.kind)
            return super().decide(state, decision)

    for path in sorted((EXAMPLES / ruleset_id).glob("*.toml")):
        state = game.load_scenario(path.read_text(encoding="utf-8"), str(path))
        play(game, state, {side: Recording(stream(900 + i)) for i, side in enumerate(game.sides(state))}, 0)
    assert seen
    for what in seen:
        assert what in names and JAPANESE.search(names[what]), what


def _rare_options() -> list[Any]:
    """Options of kinds the shipped scenarios' random games seldom or never offer (recoils, splits, spells, ...),
    each with the English `kessen play` has always printed for it."""
    from kessen.rulesets.armies_clash.referee import options as ac
    from kessen.rulesets.battlehost.referee import options as bh
    from kessen.rulesets.battlehost.referee.pairing import Fight
    from kessen.rulesets.song_of_blades.referee import options as sob
    from kessen.rulesets.song_of_blades.referee.battlefield import RecoilOption

    split = bh.ChooseSplit((Fight(("g1",), ("e1", "e2")), Fight(("g2",), ("e3",))))
    found = [
        ("song-of-blades", RecoilOption("jump", 2, 12.345, 6.0), "recoil jump k=2 to (12.3, 6.0)"),
        ("song-of-blades", sob.Hacker("gob-1"), "gob-1 hacks"),
        ("song-of-blades", sob.FollowUp(True), "follow up"),
        ("song-of-blades", sob.FollowUp(False), "stay"),
        ("song-of-blades", sob.StandUp(), "stand up"),
        ("song-of-blades", sob.BreakFree(), "break free"),
        ("battlehost", split, "g1 vs e1, e2; g2 vs e3"),
        ("battlehost", bh.StandUp("Orc 1", False), "Orc 1 stays prone"),
        ("battlehost", bh.NextStriker("Orc 1"), "Orc 1 strikes next"),
        ("battlehost", bh.MoveTo("Orc 1", 1.0, 2.5, "Guard", True), "Orc 1 stands up and charges Guard to (1.00, 2.50)"),
        ("armies-clash", ac.Cast("fire bolt", "orc-1"), "cast fire bolt at orc-1"),
        ("armies-clash", ac.CastArea("cone", 3, 4, 1, 0, True), "cast cone at (3, 4) facing (1, 0) mirrored"),
        ("armies-clash", ac.Rally(False), "do not rally"),
        ("armies-clash", ac.Declare("configure", "defensive"), "configure defensive"),
        ("armies-clash", ac.Benefit("resign"), "resign"),
        ("armies-clash", ac.PassOn("pike-2"), "overflow into pike-2"),
        ("armies-clash", ac.Shift("pike-2", 0, -1), "shift pike-2 by (0, -1)"),
        ("armies-clash", ac.JoinStand("pike-2"), "join pike-2"),
        ("armies-clash", ac.PlaceAt(5, 6), "place at (5, 6)"),
        ("armies-clash", ac.Done(), "no more targets"),
        ("armies-clash", ac.NoShift(), "leave the gap"),
    ]
    return [pytest.param(rid, option, english, id=f"{rid}:{type(option).__name__}") for rid, option, english in found]


@pytest.mark.parametrize(("ruleset_id", "option", "english"), _rare_options())
def test_rare_options_are_described_in_both_languages(ruleset_id: str, option: Any, english: str) -> None:
    """The option kinds random games seldom reach keep their English words and have Japanese ones."""
    game = get_ruleset(ruleset_id).game
    path = min((EXAMPLES / ruleset_id).glob("*.toml"))
    state = game.load_scenario(path.read_text(encoding="utf-8"), str(path))
    assert game.describe(state, option, "en") == english
    ja = game.describe(state, option, "ja")
    assert ja != english and JAPANESE.search(ja), ja
    assert sorted(NUMBERS.findall(ja)) == sorted(NUMBERS.findall(english))


def test_legions_pairing_and_combat_choices_in_both_languages() -> None:
    """A legions pairing (fights of models) and a combat (its Detachments) read as before in en, in Japanese in ja."""
    from dataclasses import replace

    from kessen.rulesets.legions.referee.steps import ChooseCombat, ChoosePairing

    game = get_ruleset("legions").game
    path = min((EXAMPLES / "legions").glob("*.toml"))
    state = game.load_scenario(path.read_text(encoding="utf-8"), str(path))
    pairing = (("a-1", "b-1"), ("a-2", "b-2"))
    at_pairing = replace(state, pending=(ChoosePairing((pairing,)),))
    assert game.describe(at_pairing, pairing, "en") == "a-1-b-1, a-2-b-2"
    assert game.describe(at_pairing, pairing, "ja") == "ペアリング: a-1 対 b-1、a-2 対 b-2"
    combat = ("det-a", "det-b")
    at_combat = replace(state, pending=(ChooseCombat((combat,)),))
    assert game.describe(at_combat, combat, "en") == "det-a, det-b"
    assert game.describe(at_combat, combat, "ja") == "戦闘: det-a、det-b"
