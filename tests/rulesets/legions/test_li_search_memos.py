"""What a searched legions position keeps from the positions before it (issue 23 §2): a Detachment's sightlines,
targets, attacks and volleys, a target's volley questions, the hashes of states, Detachments and models, and the
search's worth of a position. Each kept answer must be the one worked out afresh, so a battle plays the same."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from kessen.ai.levels import tactics_of
from kessen.ai.search import SearchAI
from kessen.core.engine import Decision
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.rulesets.legions.referee.firing import volley_question, volleys
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.targeting import Fire, fire_options, sightlines, targets
from kessen.sim.play import initial_state, play_from

HOLD_THE_LINE = Path(__file__).resolve().parents[3] / "examples" / "legions" / "hold-the-line.toml"


def _battle_states(seed: int) -> tuple[Any, list[LiState]]:
    """The game and every state a greedy hold-the-line battle decided at."""
    path = str(HOLD_THE_LINE)
    game = ruleset_for(path, None).game
    state = initial_state(game, read_scenario(path), path)
    tactics = tactics_of(game)
    seen: list[LiState] = []

    class Recording:
        def __init__(self, side: str) -> None:
            self.inner = tactics.greedy(side)

        def decide(self, at: LiState, decision: Decision) -> Any:
            seen.append(at)
            return self.inner.decide(at, decision)

    play_from(game, state, seed, deciders={side: Recording(side) for side in game.sides(state)})
    return game, seen


def _aims(state: LiState) -> list[Any]:
    """Every sightline, target, attack, volley and volley question of the state's Detachments, by value."""
    found: list[Any] = []
    for det in state.detachments:
        if not det.on_battlefield:
            continue
        found.append(targets(state, det))
        options = fire_options(state, det)
        found.append(options)
        for other in state.detachments:
            if other.owner != det.owner and other.on_battlefield:
                found.append(sightlines(state, det, other))
        for option in options:
            if isinstance(option, Fire):
                shot = volleys(state, det, option)
                found.append(shot)
                found.extend(volley_question(state, v) for v in shot)
    return found


def test_issue23_2_kept_aims_are_those_worked_out_afresh() -> None:
    """At every decision of a battle, the targets, attacks, sightlines, volleys and questions each Detachment kept
    from earlier positions equal those of the same state read back from a pickle (which keeps no memo)."""
    _game, states = _battle_states(1_000_003)
    assert len(states) > 40
    fired = 0
    for state in states:
        kept = _aims(state)
        fresh = pickle.loads(pickle.dumps(state))
        assert fresh.detachments[0] is not state.detachments[0]
        assert kept == _aims(fresh)
        fired += sum(1 for a in kept if isinstance(a, tuple) and any(isinstance(o, Fire) for o in a))
    assert fired > 0  # some Detachment had an attack to declare


def test_issue23_2_hashes_keep_in_step_with_equality() -> None:
    """A state, its Detachments and its models hash as their equal copies do (read back from a pickle): the
    hashes the Detachments and states keep, and the model's hash of its id, place and Wounds."""
    _game, states = _battle_states(1_000_004)
    for state in states[:: max(1, len(states) // 12)]:
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state and hash(copy) == hash(state)
        for a, b in zip(state.detachments, copy.detachments, strict=True):
            assert a == b and hash(a) == hash(b)
            assert all(x == y and hash(x) == hash(y) for x, y in zip(a.models, b.models, strict=True))
    first = states[0].detachments[0]
    moved = first.with_model(first.models[0].at(first.models[0].centre + first.models[0].centre))
    assert moved != first and hash(moved) == hash(pickle.loads(pickle.dumps(moved)))


def test_issue23_2_the_search_evaluates_a_position_once() -> None:
    """The search's playouts that end on a position another ended on take its worth from the first: the tactics'
    evaluation is asked once per position, and gives what it gives asked again."""
    game, states = _battle_states(1_000_003)
    tactics = tactics_of(game)
    asked: list[tuple[LiState, str, float]] = []

    class Counting:
        budget = tactics.budget

        def greedy(self, side: str) -> Any:
            return tactics.greedy(side)

        def candidates(self, state: Any, decision: Decision, limit: int) -> Any:
            return tactics.candidates(state, decision, limit)

        def evaluate(self, state: Any, side: str) -> float:
            worth = tactics.evaluate(state, side)
            asked.append((state, side, worth))
            return worth

    searched = 0
    for state in states:
        decision = game.node(state)
        assert isinstance(decision, Decision)
        if decision.kind not in ("target", "move") or len(decision.options) < 2:
            continue
        search = SearchAI(game, Counting(), decision.player, tactics.budget, seed=7)
        search.decide(state, decision)
        searched += 1
        if searched == 3:
            break
    assert searched == 3 and asked
    assert len({position for position, _, _ in asked}) == len(asked)
    assert all(tactics.evaluate(position, side) == worth for position, side, worth in asked[:20])
