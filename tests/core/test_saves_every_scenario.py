"""A saved game always comes back (issue 22 §1), on every shipped scenario of every ruleset.

What is applied is exactly what a save records: the notation of every suggested option parses back to that option,
and a suggested option's point is the point its notation names, one the referee accepts as a free choice too (so a
save replays even where the list of suggestions would be another). Games where a person plays every side, choosing
suggested options at random and free moves and recoils pushed to the edge of what the rules allow (the furthest
reach, a control zone, a recoil's limits), and games of the AI, are saved and loaded again: the same events, the same
state, and every step replays; an AI battle from a save written as kessen wrote points before (to 0.001) too.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
from pathlib import Path
from typing import Any

import pytest

from kessen.core.engine import Decision, Game
from kessen.core.errors import IllegalChoice
from kessen.core.events import to_json_line
from kessen.core.notation import exact_point, point
from kessen.core.saves import checksum
from kessen.match import Match

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "examples").glob("*/*.toml"))
POINT = re.compile(r"(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$")
DECISIONS = 150  # a person's decisions per game: enough to meet every kind of decision, quick enough for CI


def has_point(option: Any) -> bool:
    return isinstance(getattr(option, "x", None), float) and isinstance(getattr(option, "y", None), float)


def check_options(game: Game[Any], state: Any, decision: Decision) -> None:
    """Every suggested option's notation parses back to it; at a free decision, a suggested point is one the
    referee accepts as a free choice, at that very point."""
    for option in decision.options:
        text = game.notation(state, decision, option)
        assert game.parse(state, decision, text) == option, text
        others = tuple(o for o in decision.options if o != option)
        if decision.free and has_point(option) and others:
            free = game.parse(state, dataclasses.replace(decision, options=others), text)  # read as a free choice
            assert (free.x, free.y) == (option.x, option.y), (text, option, free)


def at_the_edge(m: Match, decision: Decision, option: Any, rng: random.Random) -> str | None:
    """A free choice on the edge of what the rules allow: from a suggested option's point, as far as the referee
    accepts in a random direction, found by doubling the step and then halving it to a billionth of the unit (the
    reach, a control zone, a base, the table's edge, a recoil's limits: whichever comes first that way)."""
    game, state = m.ruleset.game, m.state
    text = game.notation(state, decision, option)
    found = POINT.search(text)
    if found is None:
        return None
    head, x, y = text[: found.start()], float(found.group(1)), float(found.group(2))
    turn = rng.uniform(0, math.tau)

    def written(t: float) -> str:
        return head + exact_point(x + math.cos(turn) * t, y + math.sin(turn) * t)

    def legal(t: float) -> bool:
        try:
            game.parse(state, decision, written(t))
        except IllegalChoice:
            return False
        return True

    good, bad = 0.0, 0.001
    while legal(bad) and bad < 100:
        good, bad = bad, bad * 2
    while bad - good > 1e-9:
        mid = (good + bad) / 2
        good, bad = (mid, bad) if legal(mid) else (good, mid)
    return written(good) if good else None


def play_as_every_side(path: Path, seed: int) -> Match:
    """A person plays every side: random suggested options, and half the time at a free decision with a point,
    a free choice at the edge of the rules."""
    sides = Match.open(path, seed=seed).sides
    m = Match.open(path, seed=seed, people=sides)
    rng = random.Random(seed)
    m.run()
    for _ in range(DECISIONS):
        pending = m.decision
        if pending is None:
            break
        node = m.ruleset.game.node(m.state)
        check_options(m.ruleset.game, m.state, node)
        pointed = [o for o in node.options if has_point(o)]
        edge = at_the_edge(m, node, rng.choice(pointed), rng) if node.free and pointed and rng.random() < 0.5 else None
        m.choose(edge if edge is not None else rng.choice(pending.options))
    return m


def comes_back(m: Match, *, as_before: bool = False) -> None:
    """The match saved and loaded again: the same events, the same state, the same decision pending; with
    *as_before* (a game of suggested choices only), so too from the save as kessen wrote it before points were written
    exactly (each to 0.001)."""
    save = json.loads(m.dumps())
    for data in (save, written_before(save)) if as_before else (save,):
        again = Match.loads(data, "game.json")
        assert [to_json_line(e) for e in again.events] == [to_json_line(e) for e in m.events]
        assert again.state == m.state and again.decision == m.decision


def written_before(save: dict[str, Any]) -> dict[str, Any]:
    """*save* with each decision's point written as kessen wrote it before issue 22 (to 0.001), sealed again."""

    def before(step: list[Any]) -> list[Any]:
        found = POINT.search(step[1]) if step[0] == "d" else None
        return step if found is None else ["d", step[1][: found.start()] + point(float(found.group(1)), float(found.group(2)))]

    body = {k: v for k, v in save.items() if k != "checksum"} | {"steps": [before(step) for step in save["steps"]]}
    return body | {"checksum": checksum(body)}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}:{p.stem}")
def test_a_game_with_free_moves_at_the_limits_is_saved_and_comes_back(path: Path) -> None:
    """Issue 22 §1: a person's game on every side, suggested options and free choices on the edge of the rules,
    saved and loaded: identical events; every suggested option met is the choice its notation names."""
    for seed in (11, 12):
        comes_back(play_as_every_side(path, seed))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}:{p.stem}")
def test_an_ai_battle_is_saved_and_comes_back_with_every_option_its_notation(path: Path) -> None:
    """Issue 22 §1: an AI battle to its end, saved and loaded: identical events; at every decision of it, every
    suggested option is the choice its notation names (a point the referee accepts as a free choice)."""
    m = Match.open(path, seed=11)
    m.run()
    game = m.ruleset.game
    for taken in m._session.taken:  # the decisions the battle met, each at the state it was met in
        if isinstance(taken.node, Decision):
            check_options(game, taken.state, taken.node)
    assert m.result is not None
    comes_back(m, as_before=True)
