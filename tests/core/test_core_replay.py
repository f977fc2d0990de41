"""The simulation's game loop and its replays (kessen.core.replay, played with the song-of-blades game and the toy
race), and save files refusing damage (kessen.core.saves through kessen.Match, on the toy race)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kessen.core.decisions import FirstOptionDecider, RandomDecider, ScriptedDecider
from kessen.core.engine import Decision, Terminal
from kessen.core.errors import IllegalDecisionError, InputError, KessenError, SaveFileError
from kessen.core.events import Event, to_json_line
from kessen.core.replay import Played, play
from kessen.core.saves import checksum
from kessen.core.session import Session
from kessen.dice import stream
from kessen.io.files import parse_json
from kessen.match import Match
from kessen.rulesets.song_of_blades.referee.game import GAME
from tests.toy import RULESET as TOY
from tests.toy.ai import FirstOption
from tests.toy.events import Dashed
from tests.toy.referee.game import GAME as TOY_GAME
from tests.toy.referee.state import ToyState

SCENARIO = 'ruleset = "toy"\nsides = ["Red", "Blue"]\n'

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "song-of-blades"


def scenario(name: str = "warband-skirmish.toml") -> tuple[str, Any]:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    return text, GAME.load_scenario(text, name)


def ai_game(state: Any, seed: int) -> Played:
    return play(GAME, state, {side: GAME.ai(side) for side in GAME.sides(state)}, seed)


def lines(played: Played) -> list[str]:
    return [to_json_line(e) for e in played.events]


class Refuse:
    """A decider that must never be asked (the replay supplies every decision)."""

    def decide(self, state: Any, decision: Decision) -> Any:
        raise AssertionError(f"asked at {decision.kind}")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_core_same_seed_same_event_log(seed: int) -> None:
    """DESIGN: same seed and same deciders → the same event log, byte for byte (JSON lines)."""
    _, state = scenario()
    first, second = ai_game(state, seed), ai_game(state, seed)
    assert first.terminal is not None and second.terminal is not None
    assert lines(first) == lines(second) and first.decisions == second.decisions
    assert "\n".join(lines(first)).encode("utf-8") == "\n".join(lines(second)).encode("utf-8")
    assert lines(first) != lines(ai_game(state, seed + 100))  # another seed: another battle


def test_core_play_is_the_session_loop() -> None:
    """Issue 27 §5: one game loop. A simulated battle is Session.run with the same deciders (the events, the end, the
    last state), only keeping no steps; the session a Match steps keeps one per decision and chance node."""
    _, state = scenario()
    ais = {side: GAME.ai(side) for side in GAME.sides(state)}
    played = play(GAME, state, ais, 5)
    session: Session[Any] = Session(GAME, state, 5)
    end = session.run({side: GAME.ai(side) for side in GAME.sides(state)})
    assert [to_json_line(e) for e in session.events] == lines(played)
    assert end == played.terminal and session.state == played.state
    decisions = [step for step in session.taken if isinstance(step.node, Decision)]
    assert len(decisions) == len(played.decisions) > 0
    assert [step.node.options.index(step.choice) for step in decisions] == played.decisions
    assert len(session.taken) > len(decisions)  # the chance nodes drawn too
    quiet: Session[Any] = Session(GAME, state, 5, keep=False)
    quiet.run({side: GAME.ai(side) for side in GAME.sides(state)})
    assert quiet.taken == [] and [to_json_line(e) for e in quiet.events] == lines(played)


def test_core_replaying_the_decisions_reproduces_the_game() -> None:
    """DESIGN: a game is its initial state, its seed and its decisions: replaying them gives the same events, the same
    final state and the same end."""
    _, state = scenario()
    original = play(GAME, state, {side: RandomDecider(stream(40 + i)) for i, side in enumerate(GAME.sides(state))}, 9)
    again = play(GAME, state, {side: Refuse() for side in GAME.sides(state)}, 9, replay=original.decisions)
    assert lines(again) == lines(original)
    assert again.state == original.state and again.terminal == original.terminal
    assert again.decisions == original.decisions


def test_core_replay_prefix_then_continue() -> None:
    """A partial replay (a save resumed mid-game) continues with the deciders from where the decisions end."""
    _, state = scenario("hero-against-mob.toml")
    original = play(GAME, state, {side: FirstOptionDecider() for side in GAME.sides(state)}, 4)
    half = original.decisions[: len(original.decisions) // 2]
    resumed = play(GAME, state, {side: FirstOptionDecider() for side in GAME.sides(state)}, 4, replay=half)
    assert lines(resumed) == lines(original)


class Opening:
    """The toy race with an opening event, as a ruleset whose start() says who deploys first."""

    def __getattr__(self, name: str) -> Any:
        return getattr(TOY_GAME, name)

    def start(self, state: ToyState) -> tuple[ToyState, tuple[Event, ...]]:
        state, events = TOY_GAME.start(state)
        return state, (Dashed(side="Red", squares=0, made_it=True), *events)


def test_core_play_begins_with_the_games_start() -> None:
    """Game protocol: a game begins with ``start`` (the state settled up to its first node, with its events), in
    the simulation loop as in kessen.Match: the same events, the same end."""
    game = Opening()
    state = game.load_scenario(SCENARIO, "toy")
    heard: list[Event] = []
    played = play(game, state, {side: FirstOption() for side in game.sides(state)}, 5, on_events=lambda events: heard.extend(events))
    match = Match(replace(TOY, game=game), SCENARIO, "toy", seed=5)
    match.run()
    assert played.events[0] == Dashed(side="Red", squares=0, made_it=True) and heard == played.events
    assert lines(played) == [to_json_line(e) for e in match.events] and played.terminal == match.result


# --- save files (kessen.core.saves, through kessen.Match) ---------------------------------------------------


@pytest.fixture
def toy_registered(toy: str) -> None:
    """Match.loads finds the toy ruleset by its id."""


def small_save() -> str:
    match = Match(TOY, SCENARIO, "toy.json", seed=3, people=("Red",))
    match.run()
    for notation in ("dash 4", "dash 2", "dash 5"):
        match.choose(notation)
    return match.dumps()


@pytest.mark.usefixtures("toy_registered")
def test_core_damaged_save_refused_or_intact_for_every_byte() -> None:
    """A save with any one character changed is refused with one error naming the file, or (a change of mere JSON
    whitespace) loads exactly the saved game: never a different, half-loaded or corrupt game."""
    saved = small_save()
    reference = Match.loads(json.loads(saved), "game.json")
    refused = 0
    for i in range(len(saved)):
        replacement = "0" if saved[i] != "0" else "1"
        damaged = saved[:i] + replacement + saved[i + 1 :]
        try:
            loaded = Match.loads(parse_json(damaged, "game.json"), "game.json")
        except KessenError as error:
            assert str(error).startswith("game.json: ")
            refused += 1
        else:
            assert loaded.state == reference.state and [to_json_line(e) for e in loaded.events] == [to_json_line(e) for e in reference.events], i
    assert refused > len(saved) * 0.9


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize("cut", [1, 10, 100])
def test_core_truncated_save_refused(cut: int) -> None:
    """A truncated save file is refused with one error naming the file."""
    saved = small_save()
    with pytest.raises(InputError, match=r"^game.json: not valid JSON"):
        Match.loads(parse_json(saved[: -cut - 2], "game.json"), "game.json")
    with pytest.raises(InputError, match=r"^game.json: not valid JSON"):
        parse_json("", "game.json")


@pytest.mark.parametrize(
    "text",
    ['{"format": "kessen-save/3"}', "[1, 2, 3]", '"kessen-save/2"', '{"ruleset": "song-of-blades"}', "null"],
)
def test_core_wrong_format_refused(text: str) -> None:
    """A file that is not a kessen save (another format, not an object) is refused with SaveFileError."""
    with pytest.raises(SaveFileError, match="not a kessen save file"):
        Match.loads(json.loads(text), "other.json")


@pytest.mark.usefixtures("toy_registered")
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("steps", [["d", 3]], "steps\\[0\\]: a decision's notation must be a string"),
        ("steps", [["x", "dash 1"]], "steps\\[0\\] must be"),
        ("steps", "dash 1", "field steps must be a list"),
        ("seed", "1", "field seed must be an integer"),
        ("people", ["Green"], "people: not a side of this scenario"),
        ("lang", "fr", "lang: must be one of en, ja"),
        ("ruleset", "chess", "ruleset: unknown ruleset"),
    ],
)
def test_core_resealed_save_with_bad_fields_refused(field: str, value: Any, message: str) -> None:
    """A correctly sealed save whose fields are wrong is refused too, naming the file and the field (never
    half-loaded)."""
    data = json.loads(small_save())
    body = {k: v for k, v in data.items() if k != "checksum"} | {field: value}
    with pytest.raises(SaveFileError, match=f"^game.json: .*{message}"):
        Match.loads(body | {"checksum": checksum(body)}, "game.json")


def test_core_scripted_decider_out_of_range_is_illegal() -> None:
    """ScriptedDecider: an index outside the legal options (or the end of its script) raises IllegalDecisionError."""
    _, state = scenario("hero-against-mob.toml")
    with pytest.raises(IllegalDecisionError, match="not legal in activation"):
        play(GAME, state, {side: ScriptedDecider([999]) for side in GAME.sides(state)}, 1)
    with pytest.raises(IllegalDecisionError):
        play(GAME, state, {side: ScriptedDecider([-1]) for side in GAME.sides(state)}, 1)
    with pytest.raises(IllegalDecisionError, match="end of script"):
        play(GAME, state, {side: ScriptedDecider([]) for side in GAME.sides(state)}, 1)


def test_core_replay_index_out_of_range_is_illegal() -> None:
    """A recorded decision index outside the legal options raises IllegalDecisionError (a save that does not replay)."""
    _, state = scenario("hero-against-mob.toml")
    with pytest.raises(IllegalDecisionError):
        play(GAME, state, {side: Refuse() for side in GAME.sides(state)}, 1, replay=[10_000])


def test_core_scripted_decider_plays_its_indices() -> None:
    """ScriptedDecider plays exactly the indices it is given, as a replay of the same indices does."""
    _, state = scenario("hero-against-mob.toml")
    recorded = play(GAME, state, {side: RandomDecider(stream(int(side == "Hero"))) for side in GAME.sides(state)}, 2)
    script = ScriptedDecider(recorded.decisions)
    again = play(GAME, state, {side: script for side in GAME.sides(state)}, 2)
    assert lines(again) == lines(recorded)


@pytest.mark.parametrize("name", ["hero-against-mob.toml", "warband-skirmish.toml"])
def test_core_random_legal_games_always_end(name: str) -> None:
    """A seeded random-legal game (RandomDecider for both sides) always reaches a Terminal node, whose winner is a
    side or a draw."""
    _, state = scenario(name)
    for seed in range(12):
        deciders = {side: RandomDecider(stream(1000 * seed + i)) for i, side in enumerate(GAME.sides(state))}
        played = play(GAME, state, deciders, seed, max_steps=50_000)
        assert isinstance(played.terminal, Terminal)
        assert isinstance(GAME.node(played.state), Terminal)
        assert played.terminal.winner in (*GAME.sides(state), None)
        assert played.events[-1].type == "game_ended"
        for event in played.events:
            assert GAME.narrate(event, "en") and GAME.narrate(event, "ja")
