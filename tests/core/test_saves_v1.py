"""kessen-save/1 files written before saves v2 still load, and replay to the events they recorded (issue 9 §4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kessen.match import Match
from tests.saves_v1 import FIXTURES, digest

SAVES = sorted(FIXTURES.glob("*/*.save.json"))


@pytest.mark.parametrize("path", SAVES, ids=lambda p: f"{p.parent.name}:{p.name.removesuffix('.save.json')}")
def test_v1_saves_replay_to_their_recorded_events(path: Path) -> None:
    """A v1 save (decisions as option indices, chance drawn from the seed) loads into a Match and, played on by
    the AI to its end, gives exactly the recorded events and winner."""
    expected = json.loads(path.with_name(path.name.replace(".save.json", ".expected.json")).read_text(encoding="utf-8"))
    match = Match.load(path)
    match.run()
    assert match.result is not None
    assert digest(match.events) == expected["events"]
    assert match.result.winner == expected["winner"]


def test_v1_fixtures_cover_every_ruleset() -> None:
    assert {p.parent.name for p in SAVES} == {"song-of-blades", "battlehost", "legions", "armies-clash"}
