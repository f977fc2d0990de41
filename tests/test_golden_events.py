"""The shipped scenarios' AI-vs-AI event logs are byte-identical to the recorded golden digests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.golden_events import ROOT, SEEDS, events_digest, key, load, scenario_paths

_GOLDEN = load()


@pytest.mark.parametrize("path", scenario_paths(), ids=lambda p: f"{p.parent.name}:{p.stem}")
def test_event_logs_match_the_golden_digests(path: Path) -> None:
    """Same scenario and seed → the same events file, byte for byte, as recorded (see tests/golden_events.py)."""
    os.chdir(ROOT)
    for seed in SEEDS:
        assert events_digest(path, seed) == _GOLDEN[key(path, seed)], (
            f"{key(path, seed)}: the event log changed; if a rule fix changed it on purpose, "
            "run `python -m tests.golden_events --update` and say which rule in the commit"
        )
