"""armies-clash free play through kessen.Match (issue 10): every legal move and push a general may choose, in
notation, refused with the rule it breaks, saved and replayed, undone; notation round-trips on random games."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from armies_clash_engine_helpers import HOB, creature, scenario, start, unit, with_stand

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.errors import IllegalChoice
from kessen.core.events import to_json_line
from kessen.core.notation import words
from kessen.match import Match
from kessen.rulesets import get_ruleset
from kessen.rulesets.armies_clash.referee.steps import DECISION_KINDS
from kessen.rulesets.armies_clash.referee.movement import push_ends_of
from kessen.rulesets.armies_clash.referee.notation import FORMS
from kessen.rulesets.armies_clash.referee.options import AttackWith, Cast, CastArea, PushTo
from kessen.rulesets.armies_clash.referee.state import Turn
from kessen.rulesets.armies_clash.referee.steps import PieceAct

GAME = get_ruleset("armies-clash").game
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "armies-clash").glob("*.toml"))

FREE_PLAY = """\
ruleset = "armies-clash"
name = "Free play"
description = "A minotaur and hobgoblins against hobgoblin skirmishers by a pool."
max_rounds = 3

[grid]
width = 12
height = 8
terrain = [
  { at = [8, 3], kind = "deep_water" },
  { at = [4, 1], kind = "deep_water" },
  { at = [3, 5], kind = "deep_water" },
  { at = [5, 5], kind = "deep_water" },
  { at = [4, 6], kind = "deep_water" },
  { rect = [6, 6, 7, 7], kind = "forest" },
]

[[creatures]]
id = "minotaur"
size = "large"
ac = 14
hp = 76
speed_ft = 40
abilities = { str = 4, dex = 0, con = 3, int = -2, wis = 3, cha = -1 }
attacks = [{ id = "gore", kind = "melee", attack_bonus = 6, damage = "4d8+4", push_ft = 10 }]

[[creatures]]
id = "hob"
size = "medium"
ac = 18
hp = 11
speed_ft = 30
abilities = { str = 1, dex = 1, con = 1, int = 0, wis = 0, cha = -1 }
attacks = [{ id = "longsword", kind = "melee", attack_bonus = 3, damage = "1d8+1" }]

[[units]]
id = "bulls"
side = "a"
type = "skirmisher"

[[units]]
id = "raiders"
side = "a"
type = "skirmisher"

[[units]]
id = "pickets"
side = "b"
type = "skirmisher"

[[stands]]
id = "m1"
unit = "bulls"
creature = "minotaur"
at = [2, 3]

[[stands]]
id = "r1"
unit = "raiders"
creature = "hob"
at = [1, 0]

[[stands]]
id = "t1"
unit = "pickets"
creature = "hob"
at = [4, 3]

[[stands]]
id = "t2"
unit = "pickets"
creature = "hob"
at = [10, 6]
"""
"""m1 (a 2 × 2 minotaur whose gore pushes 10 ft = 2 squares) stands next to hobgoblin t1; r1 of side a starts in
the north-west; t2 of side b stands in the south-east by a wood; deep water at 8,3, 4,1 and around 4,5, which only the
square 4,4 next to t1 leads into."""


def _until(m: Match, kind: str) -> None:
    """Play the person's side by its suggested defaults until a decision of *kind*."""
    m.run()
    while (d := m.decision) is not None and d.kind != kind:
        m.choose(d.options[0])
    assert m.decision is not None and m.decision.kind == kind


def _refused(m: Match, text: str) -> IllegalChoice:
    """The refusal of *text*, which changes nothing: the same state, events and pending decision."""
    state, events, decision = m.state, list(m.events), m.decision
    with pytest.raises(IllegalChoice) as refusal:
        m.choose(text)
    assert m.state is state and m.events == events and m.decision == decision
    return refusal.value


def _unparsed(state: Any, text: str) -> IllegalChoice:
    """The refusal of *text* at the decision *state* stands at."""
    node = GAME.node(state)
    assert isinstance(node, Decision)
    with pytest.raises(IllegalChoice) as refusal:
        GAME.parse(state, node, text)
    return refusal.value


def _all_refused(refuse: Callable[[str], IllegalChoice], cases: dict[str, tuple[str, str]]) -> None:
    """Each text of *cases* refused with its rule, the reason saying what is given."""
    for text, (rule, reason) in cases.items():
        refusal = refuse(text)
        assert refusal.rule == rule and reason in refusal.reason, (text, str(refusal))


def test_ac_move_1_a_free_move_lands_exactly_where_asked() -> None:
    """AC-MOVE-1, AC-GRID-2: a stand may end its move on any square its budget pays for; typed in notation, the move
    puts its footprint exactly there, whether the square is suggested first or not."""
    m = Match.from_text(FREE_PLAY, ruleset="armies-clash", seed=1, people={"a"})
    _until(m, "move")
    d = m.decision
    assert d is not None and d.actor == "r1" and d.free and d.options[0].notation == "move r1 to 4,2"
    assert "move r1 to 1,3" in [o.notation for o in d.options[1:]]
    m.choose("move r1 to 1,3")
    r1 = m.state.stand("r1")
    assert (r1.x, r1.y) == (1, 3)
    moved = [e for e in m.events if e.type == "moved" and e.piece == "r1"]
    assert [(e.x, e.y, e.cost) for e in moved] == [(1, 3, 3)]


def test_ac_move_1_ac_move_3_ac_move_4_ac_move_5_illegal_moves_are_refused_with_their_rule() -> None:
    """AC-MOVE-1 (beyond the budget), AC-MOVE-4 (onto an enemy, onto an ally that may only be passed, into deep water),
    AC-MOVE-5 (a flight ends at the first step off the grid), AC-MOVE-3 (every way passes next to an enemy stand),
    AC-MOVE-2 (another piece), AC-GRID-2 (whole squares): each refused naming the rule, and nothing changes."""
    m = Match.from_text(FREE_PLAY, ruleset="armies-clash", seed=1, people={"a"})
    _until(m, "move")
    cases = {
        "move r1 to 1,7": ("AC-MOVE-1", "costs 7 squares of movement and r1 has 6 left"),
        "move r1 to 4,3": ("AC-MOVE-4", "enemy t1 stands at 4,3"),
        "move r1 to 3,4": ("AC-MOVE-4", "m1 stands at 3,4: allies may be passed through, not stopped on"),
        "move r1 to 8,3": ("AC-MOVE-4", "8,3 is deep water and r1 cannot swim"),
        "move r1 to -3,0": ("AC-MOVE-5", "a flight ends at its first step off it"),
        "move r1 to 4,5": ("AC-MOVE-3", "passes next to an enemy stand"),
        "move m1 to 1,1": ("AC-MOVE-2", "r1 moves now, not m1"),
        "move r1 to 1.5,2": ("AC-GRID-2", "whole squares"),
        "move r1 to 1,0": ("AC-MOVE-1", "stands at 1,0 already"),
    }
    _all_refused(lambda text: _refused(m, text), cases)


def _push_match() -> Match:
    m = Match.from_text(FREE_PLAY, ruleset="armies-clash", seed=2, people={"a"})
    _until(m, "push")
    return m


def test_ac_move_8_a_free_push_lands_where_the_pusher_chooses_and_replays_from_a_save(tmp_path: Path) -> None:
    """AC-MOVE-8, AC-STAND-4: a hit of the gore pushes t1 up to 2 squares, each step farther from m1; side a picks
    the end: the suggestions are straight away as far as it goes and staying put, and any other legal end may be
    typed (4,2: one step north). The push is applied there and a v2 save replays it exactly."""
    m = _push_match()
    d = m.decision
    assert d is not None and (d.player, d.actor, d.free) == ("a", "m1", True)
    assert [o.notation for o in d.options] == ["push t1 to 6,3", "push t1 to 4,3"]
    assert d.prompt == "side a: m1 pushes t1 up to 2 squares: where to?"
    assert GAME.prompt(m.state, GAME.node(m.state), "ja") == "a軍: m1 が t1 を最大2マス押しやる: どこへ"
    assert [o.text for o in d.options] == ["push t1 to (6, 3)", "leave t1 where it stands"]
    m.choose("push t1 to 4,2")
    t1 = m.state.stand("t1")
    assert (t1.x, t1.y) == (4, 2)
    pushed = [e for e in m.events if e.type == "pushed"]
    assert [(e.piece, e.by, e.x, e.y, e.squares) for e in pushed] == [("t1", "m1", 4, 2, 1)]
    path = tmp_path / "push.json"
    m.save(path)
    assert ["d", "push t1 to 4,2"] in json.loads(path.read_text())["steps"]
    back = Match.load(path)
    assert back.state == m.state and [to_json_line(e) for e in back.events] == [to_json_line(e) for e in m.events]


def test_ac_move_8_ac_stand_4_ac_move_4_illegal_pushes_are_refused_with_their_rule() -> None:
    """AC-STAND-4 (farther than the push's squares), AC-MOVE-8 (a step that does not take the piece farther from the
    pusher; another piece than the one hit), AC-MOVE-4 (into deep water): refused, nothing changes."""
    m = _push_match()
    cases = {
        "push t1 to 7,3": ("AC-STAND-4", "at most 2 squares, and 7,3 is 3 away"),
        "push t1 to 4,4": ("AC-MOVE-8", "farther from m1"),
        "push t1 to 5,4": ("AC-MOVE-8", "farther from m1"),
        "push t2 to 6,3": ("AC-MOVE-8", "m1 pushes t1, not t2"),
        "push t1 to 4,1": ("AC-MOVE-4", "4,1 is deep water and t1 cannot swim"),
    }
    _all_refused(lambda text: _refused(m, text), cases)


def test_ac_move_8_undo_returns_the_identical_state() -> None:
    """AC-MOVE-8: undoing a push gives back the very state before it, the same events and the same decision."""
    m = _push_match()
    state, events, decision = m.state, list(m.events), m.decision
    m.choose("push t1 to 5,2")
    assert (m.state.stand("t1").x, m.state.stand("t1").y) == (5, 2)
    m.undo()
    assert m.state == state and m.events == events and m.decision == decision


def test_ac_move_1_notation_round_trips_for_every_option_of_random_games() -> None:
    """AC-MOVE-1..8 and every other decision: for every suggested option of every decision of seeded random games of
    each shipped scenario and the free-play one, ``parse(notation(o)) == o`` (thousands of options); at a push, every
    legal end parses too."""
    texts = [p.read_text(encoding="utf-8") for p in EXAMPLES] + [FREE_PLAY]
    checked, kinds = 0, set()
    for k, text in enumerate(texts):
        for seed in range(5):
            rng = random.Random(1000 * k + seed)
            state, _ = GAME.start(GAME.load_scenario(text, "round-trip"))
            for _ in range(500):
                node = GAME.node(state)
                if isinstance(node, Terminal):
                    break
                if isinstance(node, Chance):
                    choice: Any = rng.choice(node.dist.outcomes())
                else:
                    assert isinstance(node, Decision)
                    kinds.add(node.kind)
                    for option in node.options:
                        assert GAME.parse(state, node, GAME.notation(state, node, option)) == option
                        checked += 1
                    if node.kind == "push":  # every legal end, suggested or not
                        step = state.pending[0]
                        for x, y in push_ends_of(state, step):
                            assert GAME.parse(state, node, f"push {step.piece} to {x},{y}") == PushTo(x, y)
                    choice = rng.choice(node.options)
                state, _ = GAME.apply(state, choice)
    assert checked > 2000 and {"action", "move", "act", "push"} <= kinds, (checked, kinds)


def test_ac_move_2_the_docs_table_gives_every_decision_kind_with_examples_in_its_notation() -> None:
    """AC-MOVE-2 and every other decision: docs/scenarios/armies-clash.md has one row per decision kind the engine
    asks, in order, and each example there is a form of that kind's notation."""
    docs = (Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "armies-clash.md").read_text(encoding="utf-8")
    section = docs.split("## Playing: decisions and their notation")[1].split("\n## ")[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| [^|]+ \| .+ \| (.+) \|$", section, re.M)
    assert tuple(kind for kind, _ in rows) == DECISION_KINDS
    for kind, examples in rows:
        for example in re.findall(r"`([^`]+)`", examples):
            said = words(example)
            assert any(form.match(said) is not None for form in FORMS[kind]), (kind, example)


def test_ac_attack_1_ac_attack_2_ac_range_2_attacks_the_rules_forbid_are_refused_with_their_rule() -> None:
    """AC-ATTACK-1 (a routine the creature lacks; a target that is not an enemy), AC-ATTACK-2 (melee only next to the
    target), AC-RANGE-2 (a ranged attack no farther than its long range: 320 ft = 16 squares): refused at the act
    decision, in notation, with the rule; the legal ones parse."""
    s = scenario(stands=[("o1", "u", "hob", (0, 0)), ("o2", "u", "hob", (0, 1)), ("h1", "v", "hob", (1, 0)),
                         ("h2", "v", "hob", (19, 19))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")])
    state = replace(start(s), turn=Turn("u", False, action="attack", piece="o1"), pending=(PieceAct(),))
    decision = GAME.node(state)
    assert isinstance(decision, Decision) and decision.kind == "act"
    assert GAME.parse(state, decision, "attack h1 with longsword") == AttackWith("longsword", "h1")
    cases = {
        "attack h1 with greataxe": ("AC-ATTACK-1", "o1 has no attack greataxe (its attacks: longsword, shortbow)"),
        "attack o2 with longsword": ("AC-ATTACK-1", "o2 is not an enemy"),
        "attack h2 with longsword": ("AC-ATTACK-2", "h2 is 38 squares from o1, and longsword is a melee attack"),
        "attack h2 with shortbow": ("AC-RANGE-2", "beyond shortbow's long range (16 squares)"),
    }
    _all_refused(lambda text: _unparsed(state, text), cases)


def test_ac_spell_1_ac_spell_3_ac_range_1_ac_aoe_2_casts_the_rules_forbid_are_refused_with_their_rule() -> None:
    """AC-SPELL-1 (an unknown spell; no use left), AC-SPELL-3 (a target that is not an enemy; a targeted spell at a
    square), AC-RANGE-1 (beyond the spell's range: 30 ft = 2 squares, 150 ft = 8), AC-AOE-2 (an area cast at a target;
    a sphere given a direction), AC-AOE-6 (off the grid): refused at the act decision with the rule; the legal parse."""
    bolt = {"id": "bolt", "range_ft": 30, "form": "targeted", "max_targets": 1, "resolution": "attack", "kind": "ranged",
            "attack_bonus": 5, "damage": "1d10", "uses": 1}
    boom = {"id": "boom", "range_ft": 150, "form": "area", "shape": "sphere", "size_ft": 20, "resolution": "save",
            "save_ability": "dex", "dc": 13, "damage": "2d6", "uses": 1}
    mage = creature("mage", spells=[bolt, boom])
    s = scenario(stands=[("m1", "u", "mage", (0, 0)), ("m2", "u", "mage", (0, 1)), ("h1", "v", "hob", (2, 0)),
                         ("h2", "v", "hob", (15, 15))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")], creatures=[mage, HOB])
    state = replace(start(s), turn=Turn("u", False, action="cast", piece="m1"), pending=(PieceAct(),))
    decision = GAME.node(state)
    assert isinstance(decision, Decision) and decision.kind == "act"
    assert GAME.parse(state, decision, "cast bolt at h1") == Cast("bolt", "h1")
    assert GAME.parse(state, decision, "cast boom at 5,3") == CastArea("boom", 5, 3, 0, 0)
    spent = with_stand(state, "m1", spells_used=(("bolt", 1),))
    _all_refused(lambda text: _unparsed(spent, text), {"cast bolt at h1": ("AC-SPELL-1", "m1 has no use of bolt left")})
    cases = {
        "cast fire at h1": ("AC-SPELL-1", "m1 has no spell fire"),
        "cast bolt at m2": ("AC-SPELL-3", "m2 is not an enemy"),
        "cast bolt at 2,0": ("AC-SPELL-3", "bolt is cast at a target, not at a square"),
        "cast bolt at h2": ("AC-RANGE-1", "h2 is 30 squares from m1, beyond the reach of bolt"),
        "cast boom at h1": ("AC-AOE-2", "boom is an area"),
        "cast boom at 5,3 east": ("AC-AOE-2", "a cone or a line names its direction"),
        "cast boom at 12,12": ("AC-RANGE-1", "12,12 is 24 squares from m1, and boom reaches 8"),
        "cast boom at 30,3": ("AC-AOE-6", "30,3 is off the grid"),
    }
    _all_refused(lambda text: _unparsed(state, text), cases)


def test_ac_spell_3_a_further_target_of_a_multi_target_spell_is_refused_with_its_rule() -> None:
    """AC-SPELL-3: a spell of two targets asks for the second once the first is chosen; a target chosen already, a
    target of another spell and one beyond range (AC-RANGE-1, although the spell's one use is spent) are refused."""
    missiles = {"id": "missiles", "range_ft": 30, "form": "targeted", "max_targets": 2, "resolution": "attack",
                "kind": "ranged", "attack_bonus": 5, "damage": "1d4+1", "uses": 1}
    s = scenario(stands=[("m1", "u", "mage", (0, 0)), ("h1", "v", "hob", (2, 0)), ("h3", "v", "hob", (1, 1)),
                         ("h2", "v", "hob", (15, 15))],
                 units=[unit("u", kind="skirmisher"), unit("v", "b", "skirmisher")],
                 creatures=[creature("mage", spells=[missiles]), HOB])
    state = replace(start(s), turn=Turn("u", False, action="cast", piece="m1"), pending=(PieceAct(),))
    state, _ = GAME.apply(state, Cast("missiles", "h1"))
    node = GAME.node(state)
    assert isinstance(node, Decision) and node.kind == "spell_targets"
    assert GAME.parse(state, node, "cast missiles at h3") == Cast("missiles", "h3")
    cases = {
        "cast missiles at h1": ("AC-SPELL-3", "h1 is a target of this missiles already"),
        "cast bolt at h3": ("AC-SPELL-3", "the further targets are for missiles, not bolt"),
        "cast missiles at h2": ("AC-RANGE-1", "h2 is 30 squares from m1, beyond the reach of missiles"),
    }
    _all_refused(lambda text: _unparsed(state, text), cases)
