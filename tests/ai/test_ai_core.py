"""The game tree, the search, the levels and the advisor on the toy race (tests/toy), where every
number can be worked out by hand or by a brute force written here from the toy's rules (issue 23 §1–§3)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from kessen.ai.advisor import advise
from kessen.ai.levels import Level, decider, parse_ai, parse_assignments, parse_level
from kessen.ai.search import Budget, SearchAI, _quantile, _spread
from kessen.ai.tree import Position
from kessen.core.engine import Decision
from kessen.core.errors import InputError
from kessen.core.replay import play
from kessen.dice import Dist, d
from tests.toy.ai import ShortestDash
from tests.toy.referee.game import GAME
from tests.toy.referee.options import Dash
from tests.toy.rules.dash import DashOutcome
from tests.toy.referee.state import GOAL, TURNS, ToyState

SCENARIO = 'ruleset = "toy"\nsides = ["Red", "Blue"]\n'
ROOT = Path(__file__).resolve().parents[2]


class RaceTactics:
    """The toy's tactics: every suggested dash, and the lead in squares as the worth."""

    def greedy(self, side: str) -> Any:
        return GAME.ai(side)

    def candidates(self, state: Any, decision: Decision, limit: int) -> list[Any]:
        return list(decision.options)[:limit]

    def evaluate(self, state: ToyState, side: str) -> float:
        mine = state.position[state.sides.index(side)]
        return (2 * mine - sum(state.position)) / GOAL


def start() -> Position[ToyState]:
    return Position.start(GAME, GAME.load_scenario(SCENARIO, "toy"))


def test_a_position_is_a_value_forked_for_nothing() -> None:
    here = start()
    assert here.decision is not None and here.decision.player == "Red"
    after = here.apply(Dash(3))
    assert here.decision is not None  # the fork left the first position as it was
    assert after == start().apply(Dash(3)) and hash(after) == hash(start().apply(Dash(3)))
    assert dict(after.outcomes()) == {DashOutcome(True): Fraction(2, 3), DashOutcome(False): Fraction(1, 3)}
    assert sum(p for _o, p in after.outcomes()) == 1
    assert here.parse("dash 3") == Dash(3) and here.notation(Dash(2)) == "dash 2"
    with pytest.raises(ValueError):
        after.parse("dash 3")


def test_a_position_at_the_end_scores_each_side() -> None:
    here = start()
    while here.terminal is None:
        here = here.apply(here.options[0]) if here.decision else here.apply(DashOutcome(True))
    assert here.scores() == {"Red": Fraction(1), "Blue": Fraction(0)}
    with pytest.raises(ValueError):
        start().scores()


class CautiousTactics(RaceTactics):
    """The race's tactics with a cautious greedy AI, the shortest dash first: the search must leave it where its
    playouts show a longer dash wins more."""

    def greedy(self, side: str) -> Any:
        return ShortestDash(side=side, game=GAME, seed=0)

    def candidates(self, state: Any, decision: Decision, limit: int) -> list[Any]:
        return list(reversed(decision.options))[:limit]


def test_the_search_leaves_greedy_for_the_dash_a_brute_force_finds_best() -> None:
    """From 7 squares against a rival on 9 with Blue to move next, only a dash of 3 reaches 10 this turn (2/3);
    greedy's dash of 1 leaves Blue to finish first. The search plays both out and takes the dash of 3."""
    state, _ = GAME.start(ToyState(("Red", "Blue"), position=(7, 9), turn=4))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    ai = SearchAI(GAME, CautiousTactics(), "Red", Budget(nodes=400), seed=5)
    assert ai.decide(state, decision) == Dash(3)
    assert ai.decide(state, decision) == Dash(3)  # a pure function of the position and the seed
    assert 0 < ai.visited <= 2 * 400  # spent in whole rows of playouts (one a candidate): the last may run over


class FlatTactics(CautiousTactics):
    """The cautious race judged flat: every position at the horizon is worth 0 to both sides."""

    def evaluate(self, state: ToyState, side: str) -> float:
        return 0.0


def test_the_search_keeps_greedys_choice_where_its_playouts_show_no_gain() -> None:
    """At the start of the race no playout of two decisions reaches the goal, so with a flat evaluation every
    candidate's playouts are worth 0: no rival gains, and the search keeps greedy's dash of 1 (a search that took
    the best rival on a tie would dash 2). Judged by the lead in squares, a longer dash (worth 5/3 or 2 squares
    against 1 on average) gains beyond its standard error and is taken."""
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    budget = Budget(nodes=400, width=3, horizon=2)
    assert SearchAI(GAME, FlatTactics(), "Red", budget, seed=5).decide(state, decision) == Dash(1)
    assert SearchAI(GAME, CautiousTactics(), "Red", budget, seed=5).decide(state, decision) in (Dash(2), Dash(3))


class CountingGame:
    """The toy's game, counting the positions its ``apply`` makes."""

    def __init__(self) -> None:
        self.applied = 0

    def apply(self, state: Any, choice: Any) -> Any:
        self.applied += 1
        return GAME.apply(state, choice)

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)


@pytest.mark.parametrize("nodes", [50, 400, 3000])
def test_the_search_spends_its_budget_in_positions_visited_whatever_the_time(nodes: int) -> None:
    """The budget is the positions visited at one decision (each step of a playout, each candidate's own): the search
    spends it all (in whole rows of playouts, one a candidate, so the last row may run over by one row) and reports
    exactly what it visited; the game's ``apply`` makes each (position, choice) once a decision, so it makes no more
    than that (issue 23 §2, issue 26)."""
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    game = CountingGame()
    ai = SearchAI(game, RaceTactics(), "Red", Budget(nodes=nodes, width=3, horizon=6), seed=2)  # type: ignore[arg-type]
    ai.decide(state, decision)
    assert 0 < game.applied <= ai.visited
    row = 3 * (2 * 6 + 2)  # three candidates, each a playout of at most 6 decisions with a chance after each
    assert nodes <= ai.visited <= nodes + row


class UncachedSearch(SearchAI):
    """The search as it was before it kept what its playouts found: every node, greedy choice and position made
    afresh at each visit."""

    def _seen_at(self, state: Any) -> Any:
        return type(super()._seen_at(state))(self.game.node(state))

    def _apply(self, state: Any, choice: Any, seen: Any = None) -> Any:
        child, _events = self.game.apply(state, choice)
        return child


def test_issue_26_the_search_chooses_as_before_though_it_looks_positions_up() -> None:
    """Issue 26: the search looks up the node, greedy's choice and the child of a position its playouts met before
    (in this decision or the one before) instead of making them again: the game is pure, so every decision, and the
    positions it counts as visited, are those of a search that makes everything afresh. Compiled, ``SearchAI`` cannot
    be subclassed from Python: the comparison then runs on the source, in a process of its own (the compiled engine
    plays as the source does: tests/sim/test_compiled_parity.py)."""
    from kessen.bootstrap import CHOICE

    if CHOICE.engine == "compiled":
        node = f"{Path(__file__).relative_to(ROOT)}::test_issue_26_the_search_chooses_as_before_though_it_looks_positions_up"
        on_source = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", node],
            cwd=ROOT, env={**os.environ, "KESSEN_ENGINE": "pure"}, capture_output=True, text=True, timeout=300,
        )
        assert on_source.returncode == 0, on_source.stdout + on_source.stderr  # 0: it ran and passed (5: none ran)
        return
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    for seed in range(6):
        budget = Budget(nodes=300, width=3, horizon=4)
        cached, fresh = SearchAI(GAME, RaceTactics(), "Red", budget, seed), UncachedSearch(GAME, RaceTactics(), "Red", budget, seed)
        here = state
        for _ in range(4):  # a few decisions in a row: the second looks up what the first's playouts found
            decision = GAME.node(here)
            if not isinstance(decision, Decision):
                break
            choice = cached.decide(here, decision)
            assert choice == fresh.decide(here, decision) and cached.visited == fresh.visited
            here, _ = GAME.apply(here, choice)
            chance = GAME.node(here)
            if isinstance(chance, Decision):
                continue
            here, _ = GAME.apply(here, next(iter(chance.dist.probabilities())))  # type: ignore[union-attr]


class WatchedTactics(RaceTactics):
    """The race's tactics, noting whose turn it is at every position the evaluation judges."""

    def __init__(self) -> None:
        self.judged: list[str] = []

    def evaluate(self, state: ToyState, side: str) -> float:
        decision = GAME.node(state)
        assert isinstance(decision, Decision)
        self.judged.append(decision.player)
        return super().evaluate(state, side)


@pytest.mark.parametrize(("settle", "judged"), [(0, {"Blue"}), (4, {"Red"})])
def test_the_search_settles_its_playouts_at_its_own_decision_of_the_kind_it_weighs(settle: int, judged: set[str]) -> None:
    """After Red's dash a playout of two decisions (Blue's dash, Red's) ends at Blue's next dash; with *settle*
    decisions more allowed it goes on to Red's dash, the point of play the search stands at, so every candidate is
    judged with the same side to move."""
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    tactics = WatchedTactics()
    SearchAI(GAME, tactics, "Red", Budget(nodes=200, width=3, horizon=2, settle=settle), seed=2).decide(state, decision)
    assert tactics.judged and set(tactics.judged) == judged


def test_stratified_first_chances_spread_over_the_outcomes_by_their_probabilities() -> None:
    """The first chance of the j-th playouts is read at the j-th point of a turned van der Corput sequence: any 2^k
    of them from the first put one point in each of 2^k equal slices of 0 .. 1, so a d6 read at 16 points gives
    each face 2 or 3 times (16/6), where 16 draws leave some face out three times in ten."""
    points = [_spread(j, 123_456) for j in range(8)]
    assert sorted(round(8 * ((u - points[0]) % 1.0)) % 8 for u in points) == list(range(8))  # k/8 apart
    faces = [_quantile(d(6), _spread(j, 0)) for j in range(16)]
    assert [faces.count(face) for face in range(1, 7)] == [3, 3, 2, 3, 3, 2]
    assert _quantile(Dist({"a": 1, "b": 3}), 0.24) == "a" and _quantile(Dist({"a": 1, "b": 3}), 0.26) == "b"


def test_the_search_chooses_as_its_playouts_exact_worth_says_near_the_end_of_the_race() -> None:
    """In every position of the last turns where one option is worth clearly more than the others when both sides
    then play greedy (the advisor's exact chances with greedy for both: 2·win + draw - 1, what a playout scores),
    the search takes it: greedy's own choice (the longest dash) where that is the one, another where its playouts
    show it gains."""
    levels = {"Red": Level("greedy"), "Blue": Level("greedy")}
    checked = 0
    for turn in (8, 9, 10, 11):
        for red in range(4, 10):
            for blue in range(4, 10):
                state, _ = GAME.start(ToyState(("Red", "Blue"), position=(red, blue), turn=turn, confirmed=(True, True)))
                decision = GAME.node(state)
                assert isinstance(decision, Decision)
                chances = advise(GAME, state, decision, levels, seed=1)
                worths = [2 * c.win + c.draw - 1 for c in chances]
                ranked = sorted(worths)
                if ranked[-1] - ranked[-2] <= 0.2:
                    continue
                best = decision.options[max(range(len(worths)), key=lambda i: worths[i])]
                ai = SearchAI(GAME, RaceTactics(), decision.player, Budget(nodes=5000, width=3, horizon=40), seed=turn)
                assert ai.decide(state, decision) == best, (turn, red, blue, worths)
                checked += 1
    assert checked >= 10


@functools.cache
def brute_force(position: tuple[int, int], turn: int, confirmed: tuple[bool, bool], dash: int) -> Fraction:
    """Red's chance to win the toy race when both sides always dash *dash*, from its rules alone (not the engine)."""
    for i in (0, 1):
        if position[i] >= GOAL:
            return Fraction(1 if i == 0 else 0)
    if turn >= TURNS:
        return Fraction(0)
    side = turn % 2
    p = Fraction(max(0, 7 - dash), 6)
    moved = list(position)
    moved[side] += dash
    return p * brute_force((moved[0], moved[1]), turn + 1, confirmed, dash) + (1 - p) * brute_force(position, turn + 1, confirmed, dash)


def test_the_advisor_is_exact_where_the_race_is_small_and_agrees_with_brute_force() -> None:
    state, _ = GAME.start(ToyState(("Red", "Blue"), position=(4, 6), turn=6))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    levels = {"Red": Level("greedy"), "Blue": Level("greedy")}  # the toy's AI dashes 3 every time
    chances = advise(GAME, state, decision, levels, seed=1)
    assert [c.notation for c in chances] == ["dash 3", "dash 2", "dash 1"]
    for c, dash in zip(chances, (3, 2, 1)):
        assert c.exact and c.playouts == 0
        p = Fraction(7 - dash, 6)
        expected = p * brute_force((4 + dash, 6), 7, (False, False), 3) + (1 - p) * brute_force((4, 6), 7, (False, False), 3)
        assert c.win == expected
        assert isinstance(c.draw, Fraction) and 0 <= c.draw <= 1 - c.win
        assert isinstance(c.best, Fraction) and 0 <= c.best <= 1


def test_the_advisor_plays_out_what_it_cannot_walk_with_an_interval() -> None:
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    levels = {"Red": Level("greedy"), "Blue": Level("greedy")}
    chances = advise(GAME, state, decision, levels, seed=3, playouts=40, exact_positions=10)
    again = advise(GAME, state, decision, levels, seed=3, playouts=40, exact_positions=10)
    assert chances == again
    for c in chances:
        assert not c.exact and c.playouts == 40 and c.best is None
        assert 0 <= c.low <= c.win <= c.high <= 1


def test_the_advisor_with_a_random_side_weighs_its_options_alike() -> None:
    state, _ = GAME.start(ToyState(("Red", "Blue"), position=(8, 8), turn=10, confirmed=(True, True)))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    levels = {"Red": Level("random"), "Blue": Level("random")}
    (dash3, _dash2, _dash1) = advise(GAME, state, decision, levels, seed=1)
    # Red dashes 3 (2/3): 10, a win. Else Blue, last turn, random 1-3: 3 reaches 10 (2/3), 2 (5/6), 1 never.
    blue_wins = Fraction(1, 3) * (Fraction(2, 3) + Fraction(5, 6) * Fraction(1, 1) + 0) / 3
    assert dash3.exact and dash3.win == Fraction(2, 3) and dash3.draw == Fraction(1, 3) - blue_wins


def test_the_advisor_tells_its_progress_after_every_playout_and_stops_when_told_to() -> None:
    """The progress hook the web page's bar and its cancel use: (done, total) in playouts, after each playout (an
    exact option counts as its playouts at once); an exception from the hook ends the advice."""
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    decision = GAME.node(state)
    assert isinstance(decision, Decision)
    levels = {"Red": Level("greedy"), "Blue": Level("greedy")}
    seen: list[tuple[int, int]] = []
    advise(GAME, state, decision, levels, seed=3, playouts=4, exact_positions=10, on_progress=lambda done, total: seen.append((done, total)))
    assert [done for done, _ in seen] == [1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 12] and {total for _, total in seen} == {12}
    exact: list[int] = []
    advise(GAME, state, decision, levels, seed=3, playouts=4, on_progress=lambda done, total: exact.append(done))
    assert exact[-1] == 12 and exact == sorted(exact)

    class Stop(Exception):
        pass

    def stop_at_five(done: int, total: int) -> None:
        if done >= 5:
            raise Stop

    with pytest.raises(Stop):
        advise(GAME, state, decision, levels, seed=3, playouts=4, exact_positions=10, on_progress=stop_at_five)


@pytest.mark.parametrize(
    ("text", "level"),
    [("greedy", Level("greedy")), ("search", Level("search")), ("search:5000", Level("search", nodes=5000)),
     ("random", Level("random")), ("tests.ai.test_ai_core:FirstPlugin", Level("plugin", plugin="tests.ai.test_ai_core:FirstPlugin"))],
)
def test_levels_parse(text: str, level: Level) -> None:
    assert parse_level(text) == level and str(level) == text


@pytest.mark.parametrize("text", ["", "clever", "search:0", "search:x", "search:99999999", "a.b", ":X", 3])
def test_a_bad_level_names_the_field_and_the_value(text: Any) -> None:
    with pytest.raises(InputError) as error:
        parse_level(text, "ai.Hero")
    assert "ai.Hero" in str(error.value) and repr(text) in str(error.value) or str(text) in str(error.value)


def test_ai_for_every_side_or_per_side() -> None:
    sides = ("Red", "Blue")
    assert parse_ai("search", sides) == {"Red": Level("search"), "Blue": Level("search")}
    assert parse_ai({"Blue": "random"}, sides) == {"Red": Level("greedy"), "Blue": Level("random")}
    with pytest.raises(InputError, match="Green"):
        parse_ai({"Green": "random"}, sides)
    assert parse_assignments(["search"]) == "search"
    assert parse_assignments(["Red=search", "Blue=random"]) == {"Red": "search", "Blue": "random"}
    with pytest.raises(InputError, match="--ai"):
        parse_assignments(["Red=search", "random"])


def test_a_plugin_is_loaded_by_its_path_and_a_bad_path_is_refused() -> None:
    made = decider(parse_level("tests.toy.ai:ShortestDash"), GAME, "Red", 1)
    assert isinstance(made, ShortestDash) and made.side == "Red"
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    decision = GAME.node(state)
    assert isinstance(decision, Decision) and made.decide(state, decision) == Dash(1)
    with pytest.raises(InputError, match="cannot import"):
        decider(parse_level("no_such_module_here:X"), GAME, "Red", 1)
    with pytest.raises(InputError, match="has no class"):
        decider(parse_level("tests.ai.test_ai_core:Nothing"), GAME, "Red", 1)


def test_random_plays_the_same_under_the_same_seed_and_otherwise_under_another() -> None:
    state = GAME.load_scenario(SCENARIO, "toy")

    def decisions(seed: int) -> list[int]:
        made = {s: decider(Level("random"), GAME, s, seed, side_index=i) for i, s in enumerate(("Red", "Blue"))}
        return play(GAME, state, made, seed).decisions

    assert decisions(4) == decisions(4)
    assert any(decisions(4) != decisions(s) for s in range(5, 10))


_CHILD = """
import sys
from kessen.ai.levels import Level, deciders
from kessen.core.replay import play
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.sim.play import initial_state
path = sys.argv[1]
ruleset = ruleset_for(path, None)
game = ruleset.game
state = initial_state(game, read_scenario(path), path)
sides = tuple(game.sides(state))
levels = {sides[0]: Level("greedy"), sides[1]: Level("search", nodes=200)}
print(play(game, state, deciders(levels, game, sides, 5), 5).decisions)
"""


def test_a_search_battle_is_the_same_in_processes_with_other_hash_seeds() -> None:
    path = str(ROOT / "examples" / "song-of-blades" / "hero-against-mob.toml")
    runs = {
        subprocess.run(
            [sys.executable, "-c", _CHILD, path], capture_output=True, text=True, check=True, cwd=ROOT,
            env={"PYTHONHASHSEED": str(hash_seed), "PATH": "/usr/bin:/bin"},
        ).stdout
        for hash_seed in (0, 1, 2)
    }
    assert len(runs) == 1, runs
