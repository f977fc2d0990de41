"""Free play through kessen.Match (issue 10): a person's move goes to any point the rules allow, and anything else
is refused with the rule it breaks and changes nothing; every choice has a notation that parses back; a v2 save
replays a free move; undo returns the identical state; odds, prompts and the board as data."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any, get_args

import pytest
from bh_referee_support import CONTACT, GAME, decision, fight_phase, model, scenario_text, step

from kessen import i18n
from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.notation import point
from kessen.core.records import evolve
from kessen.match import Match
from kessen.rulesets.battlehost.referee.battlefield import radius
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.duel import DuelDice
from kessen.rulesets.battlehost.referee.moves import free_move
from kessen.rulesets.battlehost.referee.odds import shot_odds
from kessen.rulesets.battlehost.referee.steps import DecisionKind

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "battlehost"
CATALOGUE = Path(__file__).resolve().parents[3] / "src" / "kessen" / "i18n"


def match(good: list[dict[str, Any]], evil: list[dict[str, Any]], **extra: Any) -> Match:
    """A match of both sides played by people, Good with priority in the first turn, run to its first decision."""
    m = Match.from_text(
        scenario_text(good, evil, first_priority="good", **extra), ruleset="battlehost", seed=3, people={"good", "evil"}
    )
    m.run()
    return m


def position(m: Match, model_id: str) -> tuple[float, float]:
    found = m.state.get(model_id)
    return found.x, found.y


def refused(m: Match, text: str) -> IllegalChoice:
    """*text* is refused, and nothing changes: the same state object, the same events."""
    state, events = m.state, list(m.events)
    with pytest.raises(IllegalChoice) as caught:
        m.choose(text)
    assert m.state is state and m.events == events
    return caught.value


def test_bh_move_2_a_free_move_lands_exactly_where_asked() -> None:
    """BH-MOVE-2: a model moves in one straight line to any point within its Mv; the point a person writes is where
    it ends, to the inch written, and the Move phase goes on with the same player."""
    m = match([model("Captain", 10, 10), model("Guard", 40, 5)], [model("Orc", 30, 30)])
    assert m.decision is not None and m.decision.kind == "move" and m.decision.free
    m.choose("move Captain to 13.25,14.5")
    assert position(m, "Captain") == (13.25, 14.5)
    moved = [e for e in m.events if e.type == "moved"][-1]
    assert (moved.x, moved.y, round(moved.inches, 6)) == (13.25, 14.5, round((3.25**2 + 4.5**2) ** 0.5, 6))  # type: ignore[attr-defined]
    assert m.decision is not None and m.decision.player == "good" and m.decision.kind == "move"


def test_bh_move_2_too_far_and_twice_are_refused_naming_the_rule() -> None:
    """BH-MOVE-2: at most Mv inches (6" here: 6.5" is refused), at most once per Move phase; BH-MOVE-1: only the
    moving side's models move."""
    m = match([model("Captain", 10, 10), model("Guard", 40, 5)], [model("Orc", 30, 30)])
    error = refused(m, "move Captain to 16.5,10")
    assert error.rule == "BH-MOVE-2" and "6.5\"" in str(error) and "6\"" in str(error)
    assert refused(m, "move Orc to 28,28").rule == "BH-MOVE-1"
    m.choose("move Captain to 16,10")  # exactly 6"
    assert position(m, "Captain") == (16, 10)
    assert refused(m, "move Captain to 15,10").rule == "BH-MOVE-2"


def test_bh_move_2_a_move_just_over_the_move_shows_the_inches_that_break_it() -> None:
    """BH-MOVE-2: a point 6.000408" away (6 east, 0.07 south) is refused for a Move of 6", and the refusal shows
    enough decimals for the distance it prints to be more than the Move it prints (not "6", more than 6")."""
    m = match([model("Captain", 10, 10), model("Guard", 40, 5)], [model("Orc", 30, 30)])
    error = refused(m, "move Captain to 16,10.07")
    assert error.rule == "BH-MOVE-2" and error.reason == 'Captain would move 6.0004", more than its Move of 6"'


def test_bh_strike_3_a_slain_model_neither_moves_nor_is_charged() -> None:
    """BH-STRIKE-3: a slain model is removed from the game: moving it, or charging it, is refused naming that rule;
    a name no model ever had is no notation of a move, and the refusal says what to write."""
    m = match([model("Captain", 10, 10), model("Guard", 40, 5)], [model("Orc", 14, 10)])
    state = evolve(m.state, models=tuple(x for x in m.state.models if x.id not in ("Guard", "Orc")),
                   casualties=(("Guard", "good"), ("Orc", "evil")))
    for text in ("move Guard to 41,5", "charge Captain at Orc", "stand Guard and move to 41,5"):
        with pytest.raises(IllegalChoice) as slain:
            free_move(state, "good", text)
        assert slain.value.rule == "BH-STRIKE-3" and slain.value.reason.endswith("was slain and removed from the game")
    with pytest.raises(IllegalChoice) as unknown:
        free_move(state, "good", "move Nobody to 11,11")
    assert unknown.value.rule is None and unknown.value.reason.endswith(": write move <model> to x,y, with the ids the scenario gives")


def test_bh_move_3_bh_geo_7_a_path_through_a_base_is_refused() -> None:
    """BH-MOVE-3, BH-GEO-7: a move may not pass through or end touching another model's base, friend or foe; the
    refusal names the model in the way."""
    m = match([model("Captain", 10, 10), model("Guard", 13, 10)], [model("Orc", 30, 30)])
    error = refused(m, "move Captain to 15,10")
    assert error.rule == "BH-MOVE-3" and "Guard" in str(error)
    assert refused(m, f"move Captain to {13 - CONTACT + 0.001},10").rule == "BH-MOVE-3"  # ends touching Guard


def test_bh_geo_5_off_the_table_and_into_terrain_are_refused() -> None:
    """BH-GEO-5: the whole base stays on the board (a 25 mm base's centre at least 0.492" from the edge); BH-MOVE-3:
    a move may not touch a terrain block, nor end on one."""
    m = match([model("Captain", 3, 10)], [model("Orc", 30, 30)], terrain=[[6.0, 5.0, 8.0, 15.0]])
    error = refused(m, "move Captain to 0.3,10")
    assert error.rule == "BH-GEO-5" and "board" in str(error)
    assert refused(m, "move Captain to 7,10").rule == "BH-MOVE-3"  # onto the block
    assert refused(m, "move Captain to 9,10").rule == "BH-MOVE-3"  # through the block
    m.choose("move Captain to 0.5,10")
    assert position(m, "Captain") == (0.5, 10)


def test_bh_move_4_a_path_into_an_enemy_control_zone_is_refused() -> None:
    """BH-MOVE-4: a model starting 1" or more from an enemy stays at least 1" from it all the way, unless it charges
    that enemy; so a move to 0.5" of the Orc is refused, a charge at it lands in base contact."""
    m = match([model("Captain", 10, 10)], [model("Orc", 14, 10)])
    gap_half = 14 - CONTACT - 0.5
    error = refused(m, f"move Captain to {gap_half:.3f},10")
    assert error.rule == "BH-MOVE-4" and "Orc" in str(error)
    m.choose(f"move Captain to {14 - CONTACT - 1.01:.3f},10")  # 1.01" short of the Orc: outside its zone
    assert m.state.get("Captain").x == pytest.approx(14 - CONTACT - 1.01, abs=1e-3)


def test_bh_move_5_a_free_charge_ends_in_base_contact_where_asked() -> None:
    """BH-MOVE-5: a charge ends in base contact with an enemy (the charged model's control zone is no bar); a
    charge point that does not touch the enemy is refused, and ``charge M at T`` without a point goes where the
    suggested charge does."""
    m = match([model("Captain", 10, 10), model("Guard", 10, 14)], [model("Orc", 14, 10), model("Orc 2", 14, 14)])
    assert refused(m, "charge Captain at Orc to 12,10").rule == "BH-MOVE-5"
    assert refused(m, "charge Captain at Guard to 12,10").rule == "BH-MOVE-5"
    touch = 14 - CONTACT * 0.6, 10 - CONTACT * 0.8  # on the Orc's base edge, from above-left
    m.choose(f"charge Captain at Orc to {touch[0]:.3f},{touch[1]:.3f}")
    charged = [e for e in m.events if e.type == "charged"][-1]
    assert (charged.model, charged.target) == ("Captain", "Orc")  # type: ignore[attr-defined]
    assert position(m, "Captain") == pytest.approx((round(touch[0], 3), round(touch[1], 3)))
    m.choose("charge Guard at Orc 2")
    assert position(m, "Guard") == (14 - 2 * radius(25), 14)  # the suggested charge point, exactly (issue 22 §1)


def test_bh_move_6_bh_move_7_engaged_and_prone_models() -> None:
    """BH-MOVE-6: an engaged model cannot move; BH-MOVE-7: a prone model stands up first and then moves at most half
    its Mv (3" for Mv 6)."""
    m = match(
        [model("Captain", 10, 10), model("Guard", 20, 20, prone=True)], [model("Orc", 10 + CONTACT, 10), model("Orc 2", 40, 40)]
    )
    assert refused(m, "move Captain to 8,8").rule == "BH-MOVE-6"
    assert refused(m, "move Guard to 21,20").rule == "BH-MOVE-7"
    assert refused(m, "stand Guard and move to 23.5,20").rule == "BH-MOVE-2"
    m.choose("stand Guard and move to 23,20")
    guard = m.state.get("Guard")
    assert (guard.x, guard.y, guard.prone) == (23, 20, False)


def test_bh_shoot_1_bh_strike_8_choices_outside_the_list_are_refused_with_the_rule() -> None:
    """BH-SHOOT-1: a shot names a model that may shoot and a target it may choose; a shot at a model out of range is
    refused with the rule, and text of no form of the decision is refused as not a choice."""
    m = match([model("Archer", 10, 10, fight="3/4+", missile_weapon="bow")], [model("Orc", 20, 10), model("Far Orc", 45, 45)])
    m.choose("end moves")
    m.choose("end moves")
    assert m.decision is not None and m.decision.kind == "shoot"
    assert refused(m, "shoot Archer at Far Orc").rule == "BH-SHOOT-1"
    assert refused(m, "dance").rule is None
    odds = m.odds("shoot Archer at Orc")
    assert odds == shot_odds(m.state, op.ShootAt("Archer", "Orc"))
    assert odds is not None and 0 < odds["slay"] <= odds["wound"] <= odds["hit"] < 1


def test_bh_move_2_a_free_move_replays_from_a_v2_save_and_undo_is_identical(tmp_path: Path) -> None:
    """BH-MOVE-2: a free move written in a kessen-save/2 file replays exactly (the same events, the same models);
    undo returns the very state before the choice."""
    m = match([model("Captain", 10, 10), model("Guard", 40, 5)], [model("Orc", 30, 30)])
    before = m.state
    m.choose("move Captain to 11.125,12.375")
    m.undo()
    assert m.state is before
    m.choose("move Captain to 11.125,12.375")
    m.choose("end moves")
    save = tmp_path / "game.json"
    m.save(save)
    assert "move Captain to 11.125,12.375" in save.read_text(encoding="utf-8")
    loaded = Match.load(save)
    assert loaded.events == m.events and loaded.state == m.state
    assert position(loaded, "Captain") == (11.125, 12.375)


def test_bh_proc_2_bh_duel_6_odds_keys_and_prompts_are_in_both_catalogues() -> None:
    """BH-PROC-2, BH-PROC-3, BH-DUEL-6: every odds key a battle shows is labelled in the en and ja ``[odds]``
    tables; every decision kind has its prompt, naming the side that decides and the model that acts."""
    tables = {lang: tomllib.loads((CATALOGUE / f"battlehost.{lang}.toml").read_text(encoding="utf-8")) for lang in ("en", "ja")}
    kinds = set(get_args(DecisionKind))
    for lang, table in tables.items():
        assert set(table["prompts"]) == kinds == set(table["decisions"]), lang
    seen: set[str] = set()
    for path in sorted(EXAMPLES.glob("*.toml")):
        m = Match.open(path, seed=1, people={"good", "evil"})
        m.run()
        while m.decision is not None:
            d = m.decision
            for lang in ("en", "ja"):
                said = m.ruleset.game.prompt(m.state, m._session.node, lang)
                assert i18n.option_word("battlehost", lang, d.player) in said and d.actor in said
            for o in d.options:
                seen |= set(o.odds or {})
            node = m._session.node
            m.choose(m.ruleset.game.notation(m.state, node, m.ruleset.game.ai(d.player).decide(m.state, node)))
    assert seen == {"hit", "wound", "slay", "expected_wounds", "win_duel", "duel"} and seen <= set(tables["ja"]["odds"])


def test_bh_geo_5_the_board_as_plain_data() -> None:
    """BH-GEO-1, BH-GEO-5: the board in inches, terrain blocks as rectangles of impassable ground, every model with
    its base diameter (25 mm = 0.984"), wounds and statuses; plain JSON."""
    m = match([model("Captain", 10, 10, prone=True)], [model("Orc", 10 + CONTACT, 10, wounds=2)], terrain=[[20.0, 20.0, 22.0, 30.0]])
    board = m.board()
    assert json.loads(json.dumps(board)) == board
    assert (board["units"], board["width"], board["height"], board["sides"]) == ("inch", 48.0, 48.0, ["good", "evil"])
    assert board["terrain"] == [{"kind": "impassable", "shape": "rect", "points": [[20.0, 20.0], [22.0, 30.0]], "height": None}]
    captain, orc = board["models"]
    assert captain["status"] == ["prone", "engaged"] and orc["status"] == ["engaged"]
    assert (orc["wounds"], orc["wounds_max"], round(orc["base"] or 0, 6)) == (2, 2, round(25 / 25.4, 6))


def _free_moves(m: Match, rnd: random.Random) -> list[str]:
    """A few moves a person might write: random points within reach of a random model of the moving side."""
    d = m.decision
    assert d is not None
    mine = [x for x in m.state.models if x.side == d.player]
    out = []
    for _ in range(3):
        x = rnd.choice(mine)
        out.append(f"move {x.id} to {point(round(x.x + rnd.uniform(-7, 7), 3), round(x.y + rnd.uniform(-7, 7), 3))}")
    return out


def test_bh_move_1_notation_round_trips_for_every_option_of_random_games() -> None:
    """BH-MOVE-1..7, BH-SHOOT-1, BH-FIGHT-1..2, BH-DUEL-2, BH-DUEL-6, BH-DICE-4, BH-BACK-5..8, BH-STRIKE-7..8: in
    seeded random games of every shipped scenario, every suggested option's notation parses back to it, and every
    written free move either is refused with a rule ID and changes nothing, or parses to a move whose notation is
    the text written."""
    rnd = random.Random(20261201)
    checked, decisions, written = 0, 0, 0
    paths = sorted(EXAMPLES.glob("*.toml"))
    for seed in range(16):
        m = Match.open(paths[seed % len(paths)], seed=seed, people={"good", "evil"})
        m.run()
        while m.decision is not None:
            node = m._session.node
            assert isinstance(node, Decision)
            game, state = m.ruleset.game, m.state
            decisions += 1
            for o in node.options:
                assert game.parse(state, node, game.notation(state, node, o)) == o
                checked += 1
            if node.kind == "move" and node.free:
                for text in _free_moves(m, rnd):
                    try:
                        parsed = game.parse(state, node, text)
                    except IllegalChoice as error:
                        assert error.rule is not None and error.rule.startswith("BH-"), (text, error)
                        continue
                    assert game.notation(state, node, parsed) == text
                    written += 1
            m.choose(rnd.choice(m.decision.options))
    assert decisions >= 1000 and checked > decisions and written > 50, (decisions, checked, written)


def test_bh_move_1_the_notation_table_lists_every_decision_kind_and_its_refusals_read_as_written() -> None:
    """BH-MOVE-1..3: docs/scenarios/battlehost.md has one row per decision kind, and the refusals it quotes are the
    ones a person gets."""
    doc = (EXAMPLES.parents[1] / "docs" / "scenarios" / "battlehost.md").read_text(encoding="utf-8")
    table = doc[doc.index("## Playing: decisions and their notation"):]
    rows = {line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")}
    assert rows == set(get_args(DecisionKind))
    m = match([model("Captain", 10, 10), model("Guard 1", 13, 10)], [model("Orc", 30, 30)])
    assert f"`{refused(m, 'move Captain to 16.5,10')}`" in doc
    assert f"`{refused(m, 'move Captain to 15,10')}`" in doc


def test_bh_move_2_the_suggestions_hold_a_move_into_line_after_the_older_ones() -> None:
    """BH-MOVE-2, BH-MOVE-3: besides the charges and advances, each model is offered a move into line at the nearer
    flank of its nearest friend, square to that friend's nearest enemy and 0.05" clear of its base; these come after
    ``end moves`` (older saves count options by number) and the AI keeps to the options before it."""
    m = match([model("A", 10, 10), model("B", 14, 8)], [model("Orc", 10, 30)])
    d = m.decision
    assert d is not None
    notations = [o.notation for o in d.options]
    end = notations.index("end moves")
    assert f"move B to {10 + 2 * radius(25) + 0.05!r},10" in notations[end + 1 :]  # a point's notation is exact (issue 22 §1)
    assert all(n.startswith(("move ", "charge ", "stand ")) for n in notations[:end])
    node = m._session.node
    choice = m.ruleset.game.ai("good").decide(m.state, node)
    assert choice in node.options[: end + 1]


def test_bh_fight_1_bh_back_5_splits_and_standing_up_have_their_notation() -> None:
    """BH-FIGHT-1: a square of two against two splits two ways, written ``split G1 vs E1 / G2 vs E2``; BH-BACK-5: a
    prone winner's player says ``stand up`` or ``stay prone``; each parses back to its option."""
    good = [model("G1", 10, 10), model("G2", 10 + CONTACT, 10 + CONTACT)]
    state = fight_phase(good, [model("E1", 10 + CONTACT, 10), model("E2", 10, 10 + CONTACT)], priority="evil")
    ask = decision(state, "split")
    written = [GAME.notation(state, ask, o) for o in ask.options]
    assert set(written) == {"split G1 vs E1 / G2 vs E2", "split G1 vs E2 / G2 vs E1"}
    assert [GAME.parse(state, ask, w) for w in written] == list(ask.options)
    prone = fight_phase([model("L", 10.9843, 10, prone=True)], [model("W", 10, 10)])
    prone, _ = step(prone, DuelDice(good_best=6, evil_best=1))
    ask = decision(prone, "stand up")
    assert [GAME.notation(prone, ask, o) for o in ask.options] == ["stand up", "stay prone"]
    assert GAME.parse(prone, ask, "stay  prone") == op.StandUp("L", False)
    assert GAME.prompt(prone, ask, "en") == "Good: does the prone L stand up?"
