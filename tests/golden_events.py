"""Golden event logs: every shipped scenario's AI-vs-AI events file for a few seeds, kept as it is written and as its
sha256.

``tests/data/golden-events/<ruleset>.json`` holds the digests; ``<ruleset>/<scenario>@<seed>.jsonl`` beside it the
log itself (the events file ``kessen battle PATH --seed SEED --events F`` writes), so a test that fails shows where
the battle went another way. A refactor keeps these byte for byte; a rule fix that changes a log updates its entry
on purpose (``python -m tests.golden_events --update``) and the commit says which rule changed it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from kessen.core.events import to_json_line
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.sim.play import play_battle

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "golden-events"  # <ruleset>.json (digests) and <ruleset>/ (the logs)
SEEDS = (1, 2, 3)


def scenario_paths() -> list[Path]:
    return sorted((ROOT / "examples").glob("*/*.toml"))


def key(path: Path, seed: int) -> str:
    return f"{path.relative_to(ROOT).as_posix()}@{seed}"


def log_path(path: Path, seed: int) -> Path:
    """Where the log of *path* played on *seed* is kept."""
    return GOLDEN / path.parent.name / f"{path.stem}@{seed}.jsonl"


def events_log(path: Path, seed: int) -> str:
    """The events file `kessen battle PATH --seed SEED --events F` writes, run from the repository's folder (the
    scenario named by its path from there)."""
    scenario = path.relative_to(ROOT).as_posix()
    played = play_battle(ruleset_for(str(path), None), read_scenario(str(path)), scenario, seed)
    return "".join(to_json_line(e) + "\n" for e in played.events)


def digest(log: str) -> str:
    return hashlib.sha256(log.encode("utf-8")).hexdigest()


def events_digest(path: Path, seed: int) -> str:
    """The sha256 of :func:`events_log` (what tests/sim/test_compiled_parity.py compares between the engines)."""
    return digest(events_log(path, seed))


def load() -> dict[str, str]:
    """Every recorded digest, from all the per-ruleset files."""
    found: dict[str, str] = {}
    for f in sorted(GOLDEN.glob("*.json")):
        found.update(json.loads(f.read_text(encoding="utf-8")))
    return found


def main(argv: list[str]) -> int:
    if argv[1:] != ["--update"]:
        print("usage: python -m tests.golden_events --update", file=sys.stderr)
        return 2
    old = load()
    logs = {(p, s): events_log(p, s) for p in scenario_paths() for s in SEEDS}
    new = {key(p, s): digest(log) for (p, s), log in logs.items()}
    for k in sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            print(f"changed: {k}")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for ruleset in sorted({k.split("/")[1] for k in new}):
        mine = {k: v for k, v in new.items() if k.split("/")[1] == ruleset}
        (GOLDEN / f"{ruleset}.json").write_text(json.dumps(mine, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for (p, s), log in logs.items():
        log_path(p, s).parent.mkdir(parents=True, exist_ok=True)
        log_path(p, s).write_text(log, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
