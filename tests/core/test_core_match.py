"""The core step machine, the session loop, saves v2 (and v1) and kessen.Match, on the toy race of tests/toy."""

from __future__ import annotations

import json
from collections import namedtuple
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from kessen.core.engine import Decision, Terminal
from kessen.core.errors import IllegalChoice, InputError, SaveFileError
from kessen.core.events import to_json_line
from kessen.core.saves import SAVE_V1, checksum
from kessen.core.session import Session, encode_outcome, find_outcome
from kessen.dice import Dist
from kessen.match import Match
from tests.toy import RULESET as TOY
from tests.toy.ai import FirstOption
from tests.toy.referee.game import GAME
from tests.toy.referee.machine import MACHINE
from tests.toy.referee.options import Confirm, Dash

SCENARIO = 'ruleset = "toy"\nsides = ["Red", "Blue"]\n'


def new_match(seed: int = 3, people: tuple[str, ...] = ("Red",)) -> Match:
    return Match(TOY, SCENARIO, "toy.json", seed=seed, people=people)


def lines(match: Match) -> list[str]:
    return [to_json_line(e) for e in match.events]


class Recording:
    """A decider that plays the first option and remembers the kinds it was asked."""

    def __init__(self) -> None:
        self.kinds: list[str] = []

    def decide(self, state: Any, decision: Decision) -> Any:
        self.kinds.append(decision.kind)
        return decision.options[0]


@pytest.fixture(autouse=True)
def toy_registered(toy: str) -> None:
    """Match.loads finds the toy ruleset by its id."""


def test_core_settle_policy_takes_single_option_decisions_and_asks_free_ones() -> None:
    """A decision with one suggested option that is not free is settled without asking; a free one is asked."""
    deciders = {side: Recording() for side in ("Red", "Blue")}
    session = Session(GAME, GAME.load_scenario(SCENARIO, "toy"), 5)
    end = session.run(deciders)
    assert isinstance(end, Terminal)
    asked = deciders["Red"].kinds + deciders["Blue"].kinds
    assert asked and set(asked) == {"dash"}  # "confirm" (one option) never reached a decider
    assert any(session.state.confirmed)  # ...yet it was resolved: a side passed square 8


def test_core_node_built_once_per_settled_state() -> None:
    """The node settle stopped at is the one node() returns for that state: no option list is built twice."""
    state, _ = GAME.start(GAME.load_scenario(SCENARIO, "toy"))
    assert MACHINE.node(state) is MACHINE.node(state)
    after, _ = GAME.apply(state, Dash(2))
    first = MACHINE.node(after)
    assert MACHINE.node(after) is first


def test_core_same_seed_same_events() -> None:
    """Same seed and deciders → the same event log byte for byte; another seed another game."""
    def play(seed: int) -> list[str]:
        session = Session(GAME, GAME.load_scenario(SCENARIO, "toy"), seed)
        session.run({"Red": FirstOption(), "Blue": FirstOption()})
        return [to_json_line(e) for e in session.events]

    assert play(11) == play(11)
    assert any(play(11) != play(s) for s in range(12, 20))


def test_match_decision_lists_suggested_options_with_notation_and_odds() -> None:
    """Match.decision: player, kind, who acts, and each suggested option's notation, words and exact odds."""
    m = new_match()
    m.run()
    pending = m.decision
    assert pending is not None and (pending.player, pending.kind, pending.actor, pending.free) == ("Red", "dash", "Red racer", True)
    assert [o.notation for o in pending.options] == ["dash 3", "dash 2", "dash 1"]
    assert [o.odds for o in pending.options] == [{"made_it": Fraction(2, 3)}, {"made_it": Fraction(5, 6)}, {"made_it": 1}]
    assert m.odds("dash 6") == {"made_it": Fraction(1, 6)}


def test_match_free_choice_applied_and_illegal_choice_refused_with_rule() -> None:
    """A legal choice beyond the suggested ones is applied; an illegal one names its rule and changes nothing."""
    m = new_match(seed=4)
    m.run()
    before, events = m.state, list(m.events)
    with pytest.raises(IllegalChoice, match=r"^TOY-1: a dash is 1 to 6 squares \(got 9\)$") as refused:
        m.choose("dash 9")
    assert refused.value.rule == "TOY-1"
    with pytest.raises(IllegalChoice, match="not a choice here"):
        m.choose("fly away")
    assert m.state is before and m.events == events
    m.choose("dash 5")
    assert json.loads(to_json_line(m.events[len(events)]))["squares"] == 5


def test_match_undo_returns_the_identical_state_and_stream() -> None:
    """undo goes back to before the person's last decision: the same state object, and the same rolls follow."""
    m = new_match(seed=8)
    m.run()
    before, events = m.state, lines(m)
    m.choose("dash 3")
    after_first = lines(m)
    m.undo()
    assert m.state is before and lines(m) == events
    m.choose("dash 3")
    assert lines(m) == after_first  # the chance draws replay from the seed
    m.undo()
    with pytest.raises(IllegalChoice, match="no decision of yours to undo"):
        m.undo()


def test_match_events_are_a_copy_that_leaves_the_match_and_its_undo_alone() -> None:
    """(issue 22 §1) Emptying the list ``events`` hands out changes nothing: the match keeps its events, and undo
    goes back to the events it had before the person's last decision."""
    m = new_match(seed=8)
    m.run()
    before = lines(m)
    m.choose("dash 3")
    after = lines(m)
    assert len(after) > len(before)
    m.events.clear()
    assert lines(m) == after
    m.undo()
    assert lines(m) == before


def play_some(m: Match, notations: list[str]) -> None:
    m.run()
    for text in notations:
        if m.decision is None:
            break
        m.choose(text)


def test_saves_v2_round_trip_replays_exactly() -> None:
    """A v2 save holds every step (decisions in notation, outcomes as drawn); loading replays to the same match,
    with its people, language and undo points."""
    m = new_match(seed=21)
    play_some(m, ["dash 4", "dash 2", "dash 6", "dash 1"])
    text = m.dumps()
    data = json.loads(text)
    assert data["format"] == "kessen-save/2" and data["people"] == ["Red"] and data["lang"] == "en"
    assert {step[0] for step in data["steps"]} == {"c", "d"}
    assert ["d", "dash 4"] in data["steps"]
    again = Match.loads(json.loads(text), "game.json")
    assert again.state == m.state and lines(again) == lines(m) and again.people == m.people
    again.undo()
    m.undo()
    assert again.state == m.state


def test_saves_v2_survive_a_reseeded_stream() -> None:
    """Recorded chance outcomes are replayed as drawn, even when the stream would now draw something else."""
    m = new_match(seed=2)
    play_some(m, ["dash 6", "dash 6", "dash 6"])
    data = json.loads(m.dumps())
    body = {k: v for k, v in data.items() if k != "checksum"}
    body["seed"] = 999
    again = Match.loads({**body, "checksum": checksum(body)}, "reseeded.json")
    assert lines(again) == lines(m)


def reseal(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    body = {k: v for k, v in data.items() if k != "checksum"} | changes
    return {**body, "checksum": checksum(body)}


def test_saves_v2_refuse_damage_and_name_the_step() -> None:
    """Tampering is refused by the checksum; a resealed step that no longer replays names the step and the rule."""
    m = new_match(seed=6)
    play_some(m, ["dash 2", "dash 2"])
    data = json.loads(m.dumps())
    with pytest.raises(SaveFileError, match="checksum"):
        Match.loads({**data, "seed": 7}, "game.json")
    steps = data["steps"]
    k = next(i for i, s in enumerate(steps) if s[0] == "d" and s[1] == "dash 2")
    bad = reseal(data, steps=steps[:k] + [["d", "dash 9"]] + steps[k + 1 :])
    with pytest.raises(SaveFileError, match=rf"^game.json: step {k + 1} \(dash by Red\): 'dash 9' does not replay: TOY-1: "):
        Match.loads(bad, "game.json")
    c = next(i for i, s in enumerate(steps) if s[0] == "c")
    impossible = reseal(data, steps=steps[:c] + [["c", 17]] + steps[c + 1 :])
    with pytest.raises(SaveFileError, match=rf"step {c + 1} \(dash roll\): the recorded outcome cannot happen here"):
        Match.loads(impossible, "game.json")
    with pytest.raises(SaveFileError, match="seed must be an integer"):
        Match.loads(reseal(data, seed=-1), "game.json")
    with pytest.raises(SaveFileError, match="the scenario inside this save is bad"):
        Match.loads(reseal(data, scenario="{}"), "game.json")


def test_saves_v1_still_load() -> None:
    """A kessen-save/1 file (decisions as option indices, chance drawn again from the seed) replays the same game."""
    m = new_match(seed=13, people=("Red", "Blue"))
    m.run()
    indices = []
    while m.decision is not None and len(indices) < 8:
        indices.append(1)
        m.choose(m.decision.options[1])
    v1 = {"format": SAVE_V1, "ruleset": "toy", "scenario_source": "toy.json", "scenario": SCENARIO, "seed": 13, "decisions": indices, "people": ["Red", "Blue"]}
    again = Match.loads(reseal(v1), "old.json")
    again.run()
    assert lines(again) == lines(m)


def test_match_refuses_unknown_people_language_and_seed() -> None:
    """Bad arguments to a match are InputErrors naming the field."""
    with pytest.raises(InputError, match="^people: not a side of this scenario"):
        Match(TOY, SCENARIO, "toy.json", seed=1, people=("Green",))
    with pytest.raises(InputError, match="^lang: "):
        Match(TOY, SCENARIO, "toy.json", seed=1, lang="fr")
    with pytest.raises(InputError, match="^seed: "):
        Match(TOY, SCENARIO, "toy.json", seed=-1)


def test_match_choices_only_when_a_person_decides() -> None:
    """choose() when no decision of a person is pending, or after the end, is refused."""
    m = new_match(people=())
    with pytest.raises(IllegalChoice):
        m.choose("dash 1")
    m.run()
    assert m.result is not None and m.decision is None
    with pytest.raises(IllegalChoice, match="the battle is over"):
        m.choose("dash 1")


@dataclass(frozen=True)
class Hit:
    wounds: int
    slain: tuple[str, ...]


Roll = namedtuple("Roll", "face winner")


def test_core_chance_outcomes_encode_and_are_found_again() -> None:
    """encode_outcome writes dataclasses, named tuples, tuples and sets as JSON; find_outcome finds them in a Dist."""
    dist = Dist.uniform([Hit(1, ("a",)), Hit(2, ("a", "b")), Roll(6, "Red"), frozenset({"x", "y"}), ("p", 1)])
    for outcome in dist.outcomes():
        recorded = json.loads(json.dumps(encode_outcome(outcome)))
        assert find_outcome(dist, recorded) == outcome
    assert encode_outcome(Hit(2, ("a", "b"))) == {"wounds": 2, "slain": ["a", "b"]}
    assert find_outcome(dist, {"wounds": 3, "slain": []}) is None
    assert find_outcome(Dist.uniform([Confirm()]), {}) == Confirm()
