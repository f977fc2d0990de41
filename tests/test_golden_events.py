"""The shipped scenarios' AI-vs-AI event logs are byte-identical to the recorded golden logs and their digests."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.golden_events import SEEDS, digest, events_log, key, load, log_path, scenario_paths

_GOLDEN = load()


def test_every_recorded_log_is_the_one_its_digest_names() -> None:
    """The logs kept beside the digests are the logs the digests were taken of, one for each scenario and seed."""
    for path in scenario_paths():
        for seed in SEEDS:
            assert digest(log_path(path, seed).read_text(encoding="utf-8")) == _GOLDEN[key(path, seed)], key(path, seed)


@pytest.mark.parametrize("path", scenario_paths(), ids=lambda p: f"{p.parent.name}:{p.stem}")
def test_event_logs_match_the_golden_logs(path: Path) -> None:
    """Same scenario and seed → the same events file, byte for byte, as recorded (see tests/golden_events.py); a
    battle that went another way shows the first lines that differ."""
    for seed in SEEDS:
        log = events_log(path, seed)
        if digest(log) == _GOLDEN[key(path, seed)]:
            continue
        recorded = log_path(path, seed).read_text(encoding="utf-8")
        diff = list(difflib.unified_diff(recorded.splitlines(), log.splitlines(), "recorded", "now", n=2, lineterm=""))
        pytest.fail(
            f"{key(path, seed)}: the event log changed; if a rule fix changed it on purpose, run "
            "`python -m tests.golden_events --update` and say which rule in the commit\n" + "\n".join(diff[:60])
        )
