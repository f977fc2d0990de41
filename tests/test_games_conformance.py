"""Every ruleset that plays whole battles, on every shipped scenario: battles end, replay exactly, narrate fully."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kessen.core.decisions import RandomDecider
from kessen.core.events import to_json_line
from kessen.core.replay import play
from kessen.dice import stream
from kessen.i18n import LANGUAGES, catalogue
from kessen.rulesets import get_ruleset, ruleset_ids

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _scenarios() -> list[Any]:
    found = []
    for rid in ruleset_ids():
        if not get_ruleset(rid).plays_battles:
            continue
        for path in sorted((EXAMPLES / rid).glob("*.toml")):
            found.append(pytest.param(rid, path, id=f"{rid}:{path.stem}"))
    return found


SCENARIOS = _scenarios()


def test_every_ruleset_plays_battles_and_ships_scenarios() -> None:
    """The four rulesets each play whole battles, each with at least two shipped scenarios."""
    by_ruleset = {rid: [p for p in SCENARIOS if p.values[0] == rid] for rid in ruleset_ids()}
    assert all(get_ruleset(rid).game is not None for rid in ruleset_ids())
    assert all(len(found) >= 2 for found in by_ruleset.values()), {k: len(v) for k, v in by_ruleset.items()}


@pytest.mark.parametrize(("ruleset_id", "path"), SCENARIOS)
def test_random_legal_games_end_and_replay_exactly(ruleset_id: str, path: Path) -> None:
    """Random-legal deciders on both sides reach a terminal node; the recorded decisions replay the same events."""
    game = get_ruleset(ruleset_id).game
    text = path.read_text(encoding="utf-8")
    for seed in (0, 1):
        state = game.load_scenario(text, str(path))
        deciders = {side: RandomDecider(stream(1000 + i + seed)) for i, side in enumerate(game.sides(state))}
        played = play(game, state, deciders, seed)
        assert played.terminal is not None
        again = play(game, game.load_scenario(text, str(path)), {}, seed, replay=played.decisions)
        assert again.terminal == played.terminal
        assert [to_json_line(e) for e in again.events] == [to_json_line(e) for e in played.events]


@pytest.mark.parametrize(("ruleset_id", "path"), SCENARIOS)
def test_ai_battles_narrate_every_event_in_every_language(ruleset_id: str, path: Path) -> None:
    """Each event of an AI battle is a JSON object with a type and has a template in the en and ja catalogues."""
    game = get_ruleset(ruleset_id).game
    text = path.read_text(encoding="utf-8")
    state = game.load_scenario(text, str(path))
    played = play(game, state, {side: game.ai(side) for side in game.sides(state)}, 3)
    assert played.terminal is not None
    for event in played.events:
        assert json.loads(to_json_line(event))["type"] == event.type
        for lang in LANGUAGES:
            assert event.type in catalogue(ruleset_id, lang)["events"], (lang, event.type)
            assert game.narrate(event, lang).strip()
