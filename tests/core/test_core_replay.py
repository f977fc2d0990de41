"""The game loop, replays and save files of kessen.core, played with the song-of-blades game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kessen.core.decisions import FirstOptionDecider, RandomDecider, ScriptedDecider
from kessen.core.engine import Decision, Terminal
from kessen.core.errors import IllegalDecisionError, SaveFileError
from kessen.core.events import to_json_line
from kessen.core.replay import Played, load_save, play, save_text
from kessen.dice import stream
from kessen.rulesets.song_of_blades.referee.game import SobGame

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "song-of-blades"
GAME = SobGame()


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
        raise AssertionError(f"asked at {decision.what}")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_core_same_seed_same_event_log(seed: int) -> None:
    """DESIGN: same seed and same deciders → the same event log, byte for byte (JSON lines)."""
    _, state = scenario()
    first, second = ai_game(state, seed), ai_game(state, seed)
    assert first.terminal is not None and second.terminal is not None
    assert lines(first) == lines(second) and first.decisions == second.decisions
    assert "\n".join(lines(first)).encode("utf-8") == "\n".join(lines(second)).encode("utf-8")
    assert lines(first) != lines(ai_game(state, seed + 100))  # another seed: another battle


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


def test_core_save_round_trip_and_replay() -> None:
    """save_text / load_save round-trip every field, and the loaded save replays to the same game."""
    text, state = scenario()
    played = ai_game(state, 5)
    saved = save_text(GAME.ruleset, "warband-skirmish.toml", text, 5, played.decisions)
    loaded = load_save(saved, "game.json")
    assert (loaded.ruleset, loaded.scenario_source, loaded.scenario, loaded.seed) == (GAME.ruleset, "warband-skirmish.toml", text, 5)
    assert loaded.decisions == tuple(played.decisions)
    start = GAME.load_scenario(loaded.scenario, loaded.scenario_source)
    again = play(GAME, start, {side: Refuse() for side in GAME.sides(start)}, loaded.seed, replay=loaded.decisions)
    assert lines(again) == lines(played)


def small_save() -> str:
    text, state = scenario("hero-against-mob.toml")
    played = play(GAME, state, {side: FirstOptionDecider() for side in GAME.sides(state)}, 3)
    return save_text(GAME.ruleset, "hero.toml", text, 3, played.decisions[:40])


def test_core_damaged_save_refused_or_intact_for_every_byte() -> None:
    """A save with any one character changed is refused with SaveFileError, or (a change of mere JSON whitespace)
    loads exactly the saved game: never a different, half-loaded or corrupt game."""
    saved = small_save()
    reference = load_save(saved, "game.json")
    refused = 0
    for i in range(0, len(saved), 3):
        replacement = "0" if saved[i] != "0" else "1"
        damaged = saved[:i] + replacement + saved[i + 1 :]
        try:
            loaded = load_save(damaged, "game.json")
        except SaveFileError as error:
            assert str(error).startswith("game.json: ")
            refused += 1
        else:
            assert loaded == reference, i
    assert refused > len(saved) // 3 * 0.9


def test_core_changed_decision_refused() -> None:
    """Changing one recorded decision (a digit) breaks the checksum: SaveFileError."""
    saved = json.loads(small_save())
    saved["decisions"][3] += 1
    with pytest.raises(SaveFileError, match="checksum"):
        load_save(json.dumps(saved), "game.json")


@pytest.mark.parametrize("cut", [1, 10, 100])
def test_core_truncated_save_refused(cut: int) -> None:
    """A truncated save file is refused with SaveFileError."""
    saved = small_save()
    with pytest.raises(SaveFileError, match="damaged or truncated"):
        load_save(saved[:-cut - 2], "game.json")
    with pytest.raises(SaveFileError):
        load_save("", "game.json")


@pytest.mark.parametrize(
    "text",
    ['{"format": "kessen-save/2"}', "[1, 2, 3]", '"kessen-save/1"', '{"ruleset": "song-of-blades"}', "null"],
)
def test_core_wrong_format_refused(text: str) -> None:
    """A file that is not a kessen save (another format, not an object) is refused with SaveFileError."""
    with pytest.raises(SaveFileError, match="not a kessen save file"):
        load_save(text, "other.json")


def test_core_resealed_save_with_bad_field_types_refused() -> None:
    """A correctly sealed save whose fields have the wrong types is refused too (never half-loaded)."""
    saved = save_text(GAME.ruleset, "s.toml", "name = 'x'", 1, [0, 1])
    data = json.loads(saved)
    from kessen.core.replay import _checksum

    body = {k: v for k, v in data.items() if k != "checksum"} | {"decisions": [0, True]}
    with pytest.raises(SaveFileError, match="decisions"):
        load_save(json.dumps(body | {"checksum": _checksum(body)}), "s.json")
    body = {k: v for k, v in data.items() if k != "checksum"} | {"seed": "1"}
    with pytest.raises(SaveFileError, match="seed"):
        load_save(json.dumps(body | {"checksum": _checksum(body)}), "s.json")


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
