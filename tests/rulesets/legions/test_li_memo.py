"""The engine's cheap updates and memos (``referee.memo``): the same values ``dataclasses.replace`` makes, and memos
that always describe the value they are on."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.records import evolve
from kessen.rulesets.legions.referee.state import LiState, progressed
from tests.rulesets.legions.test_li_engine_support import BLUE, RED, det, m, state_of


def _state() -> LiState:
    return state_of([det("r1", m("inf", 10, 10), m("inf", 11, 10))], [det("b1", m("inf", 10, 30))])


def test_evolve_makes_what_replace_makes() -> None:
    """Every field of the new value is the old one's but those changed; equal, with equal hashes, to ``replace``'s."""
    state = _state()
    for changes in ({"pending": ()}, {"course": replace(state.course, phase="end", initiative=BLUE)}):
        made = evolve(state, **changes)
        assert made == replace(state, **changes) and hash(made) == hash(replace(state, **changes))
        assert made.detachments is state.detachments
    model = state.detachments[0].models[0]
    assert evolve(model, x=3.0, wounds_remaining=0) == replace(model, x=3.0, wounds_remaining=0)
    assert progressed(state, round=2, ended=True) == replace(state, course=replace(state.course, round=2, ended=True))
    assert progressed(state, round=2).round == 2 and state.round == 1


def test_evolve_keeps_a_memo_only_while_its_sources_stand() -> None:
    """A state's board memo goes over to a state with another step queue, never to one whose Detachments moved; a
    Detachment's live models and a model's centre are worked out anew once their fields change."""
    state = _state()
    state.live_models()
    assert evolve(state, pending=()).board is state.board
    red = state.detachment("r1")
    hurt = red.with_model(replace(red.models[0], wounds_remaining=0))
    after = state.with_detachment(hurt)
    assert after.board is not state.board
    assert [m.id for _, m in after.live_models()] == ["r1-2", "b1-1"]
    assert hurt.live == (red.models[1],) and red.live == red.models
    moved = red.models[0].at(red.models[0].centre + red.models[0].centre)
    assert moved.centre.x == 20.0 and red.models[0].centre.x == 10.0


def test_a_state_finds_its_detachments_and_models_by_id() -> None:
    """``detachment`` and ``owner_of_model`` answer from the board's index, as the scan of the Detachments would."""
    state = _state()
    assert state.detachment("b1").owner == BLUE and state.owner_of_model("r1-2").owner == RED
    assert state.model("r1-2") is state.detachments[0].models[1]
