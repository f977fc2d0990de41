"""Issue 26: the greedy AI's answers kept from one table to the next (whether a model holds a choke point, a charge's
value) are those worked out afresh on the table as it stands: in greedy battles on line-fight and on two line-fight
tables side by side (where a fight on one table engages enemies far from a charge on the other), and on random tables
after random changes (BH-TURN-3, BH-GEO-2..4, BH-MOVE-5, BH-BACK-1..6)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import tomli_w
import tomllib
from bh_referee_support import GAME, model, play_greedy, state_of
from hypothesis import given, settings
from hypothesis import strategies as hs

from benchmarks.scaled import scaled
from kessen.core.engine import Decision, Terminal
from kessen.core.geometry import Point, base_gap
from kessen.core.records import evolve
from kessen.rulesets.battlehost.ai import BattlehostAI, greedy
from kessen.rulesets.battlehost.referee import moves
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee.battlefield import Board, Model, arrangement

LINE_FIGHT = Path(__file__).resolve().parents[3] / "examples" / "battlehost" / "line-fight.toml"


def _scenario(factor: int) -> str:
    return tomli_w.dumps(scaled("battlehost", tomllib.loads(LINE_FIGHT.read_text(encoding="utf-8")), factor, "tiles"))


def _holds_afresh(state: st.BhState, m: Model) -> bool:
    """holds_choke_point with nothing kept."""
    return not greedy.behind(state, m.side) and greedy._holds(state, m)


@pytest.mark.parametrize(("factor", "seeds"), [(1, (1, 2, 3)), (2, (1,))])
def test_issue_26_bh_turn_3_choke_points_and_charge_values_kept_are_those_found_afresh(factor: int, seeds: tuple[int, ...]) -> None:
    """Through greedy battles: at every move decision, whether each model of the moving side holds a choke point is
    what is worked out afresh, and so is each charge's value kept in a ChargeTable (its comrades the other models
    offered a charge at the same target, the enemy moving after or not); some of each are kept (the changes far from
    them leave them standing)."""
    counts = {"holds kept": 0, "values kept": 0}
    game = GAME.load_scenario(_scenario(factor), "line-fight.toml")

    def looking(state: st.BhState, node: Decision) -> None:
        if node.kind != "move":
            return
        for m in state.models:
            if m.side == node.player and m.id not in state.done:
                counts["holds kept"] += greedy._HOLDS.get(state.models, m, state.board) is not None
                assert greedy.holds_choke_point(state, m) == _holds_afresh(state, m), m.id
        charges = [o for o in node.options if isinstance(o, op.MoveTo) and o.charge is not None]
        table = greedy.ChargeTable(state, node.player)
        for o in charges:
            comrades = [state.get(c) for c in dict.fromkeys(x.model for x in charges if x.charge == o.charge and x.model != o.model)]
            for after in (False, True):
                ai = BattlehostAI(node.player)
                fresh = ai._charge_value(state, o, comrades, enemy_moves_after=after)
                kept = table.kept(o, comrades, after)
                if kept is None:
                    table.keep(o, comrades, after, ai.charge_read, fresh)
                else:
                    counts["values kept"] += 1
                    assert kept == fresh, (o, after)

    for seed in seeds:
        assert isinstance(GAME.node(play_greedy(game, seed, looking, steps=3000)), Terminal)
    assert counts["holds kept"] >= 20 and counts["values kept"] >= 10, counts


BASES = (25, 25, 40, 60)
spot = hs.tuples(hs.floats(min_value=1.0, max_value=59.0), hs.floats(min_value=1.0, max_value=29.0), hs.sampled_from(BASES),
                 hs.booleans(), hs.sampled_from((5, 6, 8)))
change = hs.tuples(hs.integers(min_value=0, max_value=39), hs.floats(min_value=1.0, max_value=59.0),
                   hs.floats(min_value=1.0, max_value=29.0))
BOARD = Board(60.0, 30.0)


def _table(layout: list[tuple[float, float, int, bool, int]]) -> tuple[Model, ...]:
    return tuple(
        Model(f"m{i}", "good" if good else "evil", f"m{i}", "warrior", move, 3, None, 3, 4, 1, 1, 1, 0, False, base, None, x, y)
        for i, (x, y, base, good, move) in enumerate(layout)
    )


@settings(max_examples=60, deadline=None)
@given(hs.lists(spot, min_size=2, max_size=24), hs.lists(change, min_size=1, max_size=8))
def test_issue_26_bh_turn_3_choke_points_kept_on_random_tables_after_random_moves(
    layout: list[tuple[float, float, int, bool, int]], changes: list[tuple[int, float, float]],
) -> None:
    """BH-TURN-3, BH-GEO-2..4: on a random table, then after each of random moves of one model (near or far, into
    base contact or not), whether each model holds a choke point is what is worked out afresh."""
    base = GAME.load_scenario(LINE_FIGHT.read_text(encoding="utf-8"), "line-fight.toml")
    state = evolve(base, models=_table(layout), board=BOARD)
    for step in [None, *changes]:
        if step is not None:
            i, x, y = step
            moved = state.models[i % len(state.models)]
            state = st.put_model(state, moved.at(Point(x, y)))
        arrangement(state.models)
        for m in state.models:
            assert greedy.holds_choke_point(state, m) == _holds_afresh(state, m), m.id


cell = hs.tuples(hs.sampled_from(BASES), hs.booleans(), hs.sampled_from((5, 6, 8)))
crowd = hs.dictionaries(hs.tuples(hs.integers(min_value=0, max_value=7), hs.integers(min_value=0, max_value=5)), cell, min_size=3, max_size=20)
"""Models on the squares of a grid 2.5" apart (round 18, 8): a crowd whose bases never overlap (the widest is 2.36")."""
alone = hs.dictionaries(hs.tuples(hs.integers(min_value=0, max_value=4), hs.integers(min_value=0, max_value=10)), cell, max_size=8)
"""The same, far off at x 45-55 (round the fights there)."""
contact = hs.tuples(hs.integers(min_value=0, max_value=39), hs.integers(min_value=0, max_value=39), hs.floats(min_value=0.0, max_value=6.3))


def _clear(models: tuple[Model, ...], m: Model) -> bool:
    """*m* overlaps no other model by more than the contact tolerance, and stands on the board (BH-GEO-3, BH-GEO-5)."""
    return BOARD.on_board(m.centre, m.r) and all(x.id == m.id or base_gap(x.x, x.y, x.r, m.x, m.y, m.r) >= -0.005 for x in models)


@settings(max_examples=80, deadline=None)
@given(crowd, alone, hs.lists(hs.one_of(change.map(lambda c: ("move", c)), contact.map(lambda c: ("contact", c))), min_size=1, max_size=4))
def test_issue_26_bh_move_5_charge_values_kept_on_random_tables_after_random_moves(
    near: dict[tuple[int, int], tuple[int, bool, int]], far: dict[tuple[int, int], tuple[int, bool, int]], changes: list[tuple[str, Any]],
) -> None:
    """BH-MOVE-5, BH-BACK-1..6, BH-GEO-3: on a random table of mixed bases, the value of each charge good is offered
    (the enemy moving after) is kept; after random changes (a model moved anywhere, or put in base contact with an
    enemy, which engages both and can change the smallest free enemy base), every value still kept is the one worked
    out afresh."""
    layout = [(18 + 2.5 * i, 8 + 2.5 * j, *what) for (i, j), what in near.items()]
    layout += [(45 + 2.5 * i, 2 + 2.5 * j, *what) for (i, j), what in far.items()]
    base = GAME.load_scenario(LINE_FIGHT.read_text(encoding="utf-8"), "line-fight.toml")
    state = evolve(base, models=_table(layout), board=BOARD, done=frozenset())
    charges = [o for o in moves.move_options(state, "good") if isinstance(o, op.MoveTo) and o.charge is not None][:6]
    table = greedy.ChargeTable(state, "good")
    for o in charges:
        ai = BattlehostAI("good")
        value = ai._charge_value(state, o, [], enemy_moves_after=True)
        table.keep(o, [], True, ai.charge_read, value)
    for kind, what in changes:
        if kind == "move":
            i, x, y = what
            moved = state.models[i % len(state.models)].at(Point(x, y))
        else:
            i, j, angle = what
            a, b = state.models[i % len(state.models)], state.models[j % len(state.models)]
            if a.side == b.side:
                continue
            moved = a.at(Point(b.x + (a.r + b.r) * math.cos(angle), b.y + (a.r + b.r) * math.sin(angle)))
        if not _clear(state.models, moved):
            continue
        state = st.put_model(state, moved)
        now = greedy.ChargeTable(state, "good")
        for o in charges:
            kept = now.kept(o, [], True)
            if kept is not None:
                assert kept == BattlehostAI("good")._charge_value(state, o, [], enemy_moves_after=True), o


def test_issue_26_bh_move_5_a_charge_value_stands_a_far_move_but_not_a_far_fight_that_engages_the_smallest_free_base() -> None:
    """BH-MOVE-5, BH-GEO-3: a charge at a 40 mm orc with six more round it (the enemy moving after, so they may join
    it, as many as there are contact slots for the smallest free enemy base) keeps its value when a model far off
    moves; when that model engages the only 25 mm enemy, far off too, the slots are sized for 40 mm bases, the value
    changes, and the kept one is dropped."""
    good = [model("G", 20.0, 10.0), model("F", 50.0, 24.0)]
    ring = [(14, 16), (16, 18), (20, 19), (24, 18), (26, 16), (27, 13)]
    evil = [model("T", 20.0, 14.0, base_mm=40), *(model(f"J{i}", x, y, base_mm=40) for i, (x, y) in enumerate(ring)), model("S", 50.0, 20.0)]
    state = evolve(state_of(good, evil, board={"width": 60.0, "height": 30.0}), done=frozenset())
    charge = next(o for o in moves.move_options(state, "good") if isinstance(o, op.MoveTo) and o.charge == "T")
    ai = BattlehostAI("good")
    value = ai._charge_value(state, charge, [], enemy_moves_after=True)
    assert ai.charge_read == 2 and value == (Fraction(0), Fraction(-1, 16))
    greedy.ChargeTable(state, "good").keep(charge, [], True, ai.charge_read, value)
    f, s = state.get("F"), state.get("S")
    away = st.put_model(state, f.at(Point(52.0, 26.0)))
    assert greedy.ChargeTable(away, "good").kept(charge, [], True) == value
    fight = st.put_model(state, f.at(Point(s.x, s.y + f.r + s.r)))
    assert BattlehostAI("good")._charge_value(fight, charge, [], enemy_moves_after=True) == (Fraction(-88939, 157464), Fraction(-1554811, 5038848))
    assert greedy.ChargeTable(fight, "good").kept(charge, [], True) is None
