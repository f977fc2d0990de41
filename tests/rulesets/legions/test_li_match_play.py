"""Issue 10 §5 for legions, played as a person plays, through ``kessen.Match``: free moves land exactly where asked,
illegal ones are refused with the rule ID and change nothing, a hit allocated by the defender replays from a v2
save, ``undo`` gives back the identical state, and every option's notation reads back as that option."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any, get_args

import pytest

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.events import to_json_line
from kessen.core.replay import play
from kessen.dice import stream
from kessen.i18n import catalogue
from kessen.match import Match, PendingDecision
from kessen.rulesets import get_ruleset
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.steps import DecisionKind
from tests.rulesets.legions.test_li_engine_support import RED, det, m, scenario_text

GAME = get_ruleset("legions").game
EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples" / "legions").glob("*.toml"))

SCENARIO = """
ruleset = "legions"
name = "Free moves"
rounds = 2

[battlefield]
width = 72
height = 48

[[players]]
name = "Auxilia"
edge = "south"

[[players]]
name = "Traitors"
edge = "north"

[profiles.lasrifles]
type = "infantry"
movement = 5
armour_save = 6
caf = 0
morale = 4
base_radius = 0.5
weapons = [{ name = "lasrifles", profiles = [{ range = 12, dice = 1, to_hit = 5 }] }]

[profiles.tactical]
type = "infantry"
movement = 5
armour_save = 5
caf = 2
morale = 3
base_radius = 0.5
weapons = [{ name = "bolters", profiles = [{ range = 10, dice = 2, to_hit = 3 }] }]

[[formations]]
id = "cohort"
player = "Auxilia"

[[formations.detachments]]
id = "las-1"
models = [{ profile = "lasrifles", count = 3, x = 30.0, y = 3.0, dx = 2.0 }]

[[formations.detachments]]
id = "las-2"
models = [{ profile = "lasrifles", x = 32.0, y = 6.0 }]

[[formations]]
id = "legion"
player = "Traitors"

[[formations.detachments]]
id = "tac-1"
models = [{ profile = "tactical", count = 3, x = 30.0, y = 40.0, dx = 2.0 }]

[[formations.detachments]]
id = "tac-2"
models = [{ profile = "tactical", x = 40.0, y = 6.0 }]
"""
"""las-1 (three lasrifles 2 inches apart, centre 32,3) may Advance 5 inches; las-2 stands in front of its middle
model; the enemy tac-2 stands 6 inches to the east of it."""

ORDERS = {"las-1": "advance", "las-2": "first-fire", "tac-1": "first-fire", "tac-2": "first-fire"}


def until(match: Match, wanted: Callable[[PendingDecision], bool]) -> PendingDecision:
    """Play the person's decisions (the Orders above, else the first suggested option) until *wanted* holds."""
    match.run()
    for _ in range(500):
        d = match.decision
        assert d is not None, "the battle ended first"
        if wanted(d):
            return d
        match.choose(ORDERS[d.actor] if d.kind == "order" else d.options[0].notation)
    raise AssertionError("never reached")


def at_move(seed: int = 1) -> Match:
    match = Match.from_text(SCENARIO, ruleset="legions", seed=seed, people={"Auxilia", "Traitors"}, source="free-moves.toml")
    until(match, lambda d: d.kind == "move" and d.actor == "las-1")
    return match


def positions(match: Match, *ids: str) -> list[tuple[float, float]]:
    return [(match.state.model(i).x, match.state.model(i).y) for i in ids]


LAS_1 = ("las-1-1", "las-1-2", "las-1-3")


def test_li_move_1_li_move_2_a_free_block_move_lands_exactly_where_asked() -> None:
    """LI-MOVE-1, LI-MOVE-2: ``move las-1 to 33,5`` moves the Detachment as a block: every model shifts by the offset
    that brings their centre (32,3) to (33,5), a straight move of √5 inches, within the 5 inches of an Advance."""
    match = at_move()
    decision = match.decision
    assert decision is not None and decision.free and decision.player == "Auxilia"
    assert [o.notation for o in decision.options[:2]] == ["move las-1 as ordered", "hold las-1"]
    match.choose("move las-1 to 33,5")
    assert positions(match, *LAS_1) == [(31.0, 5.0), (33.0, 5.0), (35.0, 5.0)]
    moved = [e for e in match.events if isinstance(e, ev.Moved) and e.detachment == "las-1"]
    assert moved[-1].distance == round(5**0.5, 3)


def test_li_move_1_model_by_model_each_lands_exactly_and_done_ends_the_move() -> None:
    """LI-MOVE-1, LI-MOVE-8: the player may place the models one at a time (``move las-1-1 to 30.5,4.5``...), each
    exactly where asked, then ``done`` ends the Detachment's move once it keeps coherency."""
    match = at_move()
    match.choose("move las-1-1 to 30.5,4.5")
    match.choose("move las-1-3 to 34.125,4")
    d = match.decision
    assert d is not None and d.kind == "move" and d.options[0].notation == "done"
    assert positions(match, *LAS_1) == [(30.5, 4.5), (32.0, 3.0), (34.125, 4.0)]
    placed = [e for e in match.events if isinstance(e, ev.ModelMoved)]
    assert [(e.model, e.x, e.y) for e in placed] == [("las-1-1", 30.5, 4.5), ("las-1-3", 34.125, 4.0)]
    match.choose("done")
    assert match.decision is None or match.decision.kind != "move" or match.decision.actor != "las-1"
    assert positions(match, *LAS_1) == [(30.5, 4.5), (32.0, 3.0), (34.125, 4.0)]


@pytest.mark.parametrize(
    ("notation", "rule"),
    [
        ("move las-1 to 32,9", "LI-MOVE-2"),  # 6 inches: an Advance is 5
        ("move las-1-1 to 30,8.5", "LI-MOVE-2"),
        ("move las-1 to 32,8", "LI-MOVE-3"),  # las-1-2's path crosses las-2's base
        ("move las-1-2 to 32,7", "LI-MOVE-3"),  # ends on las-2
        ("move las-1 to 32,0", "LI-MOVE-6"),  # the bases would hang off the south edge
        ("move las-1-3 to 38.3,5.2", "LI-MOVE-4"),  # into tac-2's Engagement Zone without a Charge order
        ("move tac-1 to 30,35", "LI-MOVE-1"),  # not las-1's move: one Detachment at a time
        ("charge las-1 at tac-2", "LI-MOVE-4"),  # an Advance order does not charge
        ("charge las-1 at las-2", "LI-MOVE-4"),  # a charge is at an enemy
        ("hold tac-1", "LI-MOVE-1"),  # not las-1's move
        ("move las-1 to north", None),  # no point: notation, which the refusal says how to write
        ("move las-1 toward las-2", None),  # the move in line is written toward an enemy
    ],
)
def test_li_move_2_to_8_illegal_moves_are_refused_with_the_rule_and_change_nothing(notation: str, rule: str | None) -> None:
    """LI-MOVE-2 (too far), LI-MOVE-3 (through or onto a base), LI-MOVE-4 (into an enemy Engagement Zone, only a
    charge may), LI-MOVE-6 (off the battlefield): the refusal names the rule, and the match is exactly as before."""
    match = at_move()
    before, events = match.state, [to_json_line(e) for e in match.events]
    with pytest.raises(IllegalChoice) as refused:
        match.choose(notation)
    assert refused.value.rule == rule, str(refused.value)
    assert match.state == before and [to_json_line(e) for e in match.events] == events


def test_li_move_2_a_move_just_over_the_movement_shows_the_inches_that_break_it() -> None:
    """LI-MOVE-2: las-1-1 from 30,3 to 25,3.07 is 5.00049 inches, over the 5 of an Advance; the refusal shows
    enough decimals for the distance it prints to be more than the limit it prints."""
    match = at_move()
    with pytest.raises(IllegalChoice) as refused:
        match.choose("move las-1-1 to 25,3.07")
    assert refused.value.rule == "LI-MOVE-2"
    assert refused.value.reason == "las-1-1 may move 5 inches; that is 5.0005 inches away"


def test_li_move_8_done_is_refused_while_a_model_is_out_of_coherency() -> None:
    """LI-MOVE-8: a model moved more than 2 inches from every other model of its Detachment (las-1-3 to 34,7.5: 3.9
    inches from las-1-2) may be placed, but the move cannot end so: ``done`` is refused and not suggested; placing it
    back within 2 inches lets the move end."""
    match = at_move()
    match.choose("move las-1-3 to 34,7.5")
    d = match.decision
    assert d is not None and "done" not in [o.notation for o in d.options]
    before = match.state
    with pytest.raises(IllegalChoice) as refused:
        match.choose("done")
    assert refused.value.rule == "LI-MOVE-8" and match.state == before
    match.choose("move las-1-3 to 34,5")
    match.choose("done")
    assert positions(match, *LAS_1) == [(30.0, 3.0), (32.0, 3.0), (34.0, 5.0)]


def test_li_move_1_undo_gives_back_the_identical_state() -> None:
    """Issue 10 §3: ``undo`` after a free move returns the identical frozen state and events."""
    match = at_move()
    before, events = match.state, list(match.events)
    match.choose("move las-1 to 33,5")
    assert match.state != before
    match.undo()
    assert match.state == before and match.events == events


def _at_hit_allocation() -> Match:
    """A match where the Auxilia must say which model takes the next hit of tac-2's bolters (seeds are tried until
    tac-2's volley hits at least once)."""
    for seed in range(1, 40):
        match = at_move(seed)
        match.choose("hold las-1")
        d = until(match, lambda d: d.kind == "allocation" or d.kind == "move")
        while d.kind == "move":
            match.choose(d.options[0].notation)
            d = until(match, lambda d: d.kind == "allocation" or d.kind == "move")
        if d.player != "Auxilia":
            continue
        match.choose("allocate hit by hit")
        d = match.decision
        if d is not None and d.kind == "allocation" and any(o.notation.startswith("allocate las-1-") for o in d.options):
            return match
    raise AssertionError("no seed gave a hit to allocate")


def test_li_alloc_1_a_hit_allocated_by_the_defender_applies_and_replays_from_a_save() -> None:
    """LI-ALLOC-1: the defender allocates hits one at a time, here the first to las-1-3: the hit is resolved on that model; the v2 save (decisions in notation) loads to the identical state and
    events."""
    match = _at_hit_allocation()
    # a 1-Wound lasrifle with a 6+ Armour Save, AP 0: the hit wounds and destroys it unless a 6 is rolled
    assert match.odds("allocate las-1-3") == {"p_wound": F(5, 6), "p_destroyed": F(5, 6), "p_shield": 0}
    count = len(match.events)
    match.choose("allocate las-1-3")
    told = [e for e in match.events[count:] if isinstance(e, ev.HitAllocated)]
    assert told[0].model == "las-1-3"
    again = Match.loads(json.loads(match.dumps()))
    assert again.state == match.state and [to_json_line(e) for e in again.events] == [to_json_line(e) for e in match.events]


def test_li_notation_of_every_option_of_random_games_reads_back_as_that_option() -> None:
    """Issue 10 §2: for every suggested option of every decision of seeded random-legal games on the shipped
    scenarios (thousands of options: Orders, moves, targets, hits allocated one at a time, pairings, fights,
    withdrawals), ``parse(notation(o)) == o``; the notation is stable text (no reprs)."""
    seen: dict[str, int] = {}

    class RoundTrip(RandomDecider):
        def decide(self, state: Any, decision: Decision) -> Any:
            for option in decision.options:
                text = GAME.notation(state, decision, option)
                assert "(" not in text and GAME.parse(state, decision, text) == option, (decision.kind, text)
                seen[decision.kind] = seen.get(decision.kind, 0) + 1
            return super().decide(state, decision)

    began = time.perf_counter()
    for path in EXAMPLES:
        for seed in range(6):
            state = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
            play(GAME, state, {side: RoundTrip(stream(100 * seed + i)) for i, side in enumerate(GAME.sides(state))}, seed)
    assert sum(seen.values()) >= 3000, seen
    assert set(seen) == set(get_args(DecisionKind)), seen  # every kind of decision met
    assert time.perf_counter() - began < 30


def test_li_wd_2_where_a_withdrawing_model_goes_is_not_chosen() -> None:
    """LI-WD-2 (the seed: "move directly toward the controlling player's battlefield edge, taking the shortest
    possible route"; the move stops when the base touches the edge): the player picks which model withdraws next
    (LI-WD-6), never where it goes: ``withdraw R1 to 12,0.5`` is refused with LI-WD-2 and changes nothing."""
    text = scenario_text([det("A", m("tough", 10, 20, id="R1"), m("tough", 11, 19.0, id="R2"))], [det("B", m("knight", 10.5, 21.5))])
    for seed in range(1, 120):
        match = Match.from_text(text, ruleset="legions", seed=seed, people={RED}, source="withdrawal.toml")
        match.run()
        while match.decision is not None and match.decision.kind != "withdrawer":
            match.choose(match.decision.options[0].notation)
        if match.decision is not None:
            break
    else:
        raise AssertionError("no seed gave a withdrawal")
    assert [o.notation for o in match.decision.options] == ["withdraw R2", "withdraw R1"]
    before = match.state
    with pytest.raises(IllegalChoice) as refused:
        match.choose("withdraw R1 to 12,0.5")
    assert refused.value.rule == "LI-WD-2" and match.state == before


def test_li_morale_5_li_fire_2_refusals_of_orders_and_targets_name_their_rule() -> None:
    """A Fall Back order is never issued, only given by a failed Morale check (LI-MORALE-5); a Detachment fires only
    at an enemy Detachment (LI-FIRE-2): each refusal names its rule and changes nothing."""
    match = Match.from_text(SCENARIO, ruleset="legions", seed=1, people={"Auxilia", "Traitors"}, source="free-moves.toml")
    match.run()
    d = match.decision
    assert d is not None and d.kind == "order"
    before = match.state
    with pytest.raises(IllegalChoice) as refused:
        match.choose("fall-back")
    assert refused.value.rule == "LI-MORALE-5" and match.state == before
    target = until(match, lambda d: d.kind == "target")
    owner = match.state.detachment(target.actor).owner
    friend = next(d.id for d in match.state.detachments if d.owner == owner and d.id != target.actor)
    before = match.state
    with pytest.raises(IllegalChoice) as refused:
        match.choose(f"fire at {friend}")
    assert refused.value.rule == "LI-FIRE-2" and match.state == before


def test_li_notation_every_decision_kind_is_documented_with_its_forms() -> None:
    """Issue 10 §2: docs/scenarios/legions.md has a table of every decision kind with its notation forms, and the
    catalogues announce each kind in en and ja."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "legions.md").read_text(encoding="utf-8")
    table = doc.split("| decision kind |", 1)[1].split("\n\n", 1)[0]
    documented = {row.split("|")[1].strip().split(" ")[0].strip("`") for row in table.splitlines()[2:]}
    assert documented == set(get_args(DecisionKind))
    for lang in ("en", "ja"):
        assert set(catalogue("legions", lang)["decisions"]) == set(get_args(DecisionKind))
