"""Golden event logs: the sha256 of every shipped scenario's AI-vs-AI events file for a few seeds.

A refactor keeps these byte for byte; a rule fix that changes a log updates its entry on purpose
(``python -m tests.golden_events --update``) and the commit says which rule changed it.
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
GOLDEN = ROOT / "tests" / "data" / "golden-events"  # one <ruleset>.json per ruleset
SEEDS = (1, 2, 3)


def scenario_paths() -> list[Path]:
    return sorted((ROOT / "examples").glob("*/*.toml"))


def key(path: Path, seed: int) -> str:
    return f"{path.relative_to(ROOT).as_posix()}@{seed}"


def events_digest(path: Path, seed: int) -> str:
    """The sha256 of the events file `kessen battle PATH --seed SEED --events F` writes."""
    scenario = str(path.relative_to(ROOT))
    ruleset = ruleset_for(scenario, None)
    played = play_battle(ruleset, read_scenario(scenario), scenario, seed)
    text = "".join(to_json_line(e) + "\n" for e in played.events)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compute() -> dict[str, str]:
    return {key(p, s): events_digest(p, s) for p in scenario_paths() for s in SEEDS}


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
    old, new = load(), compute()
    for k in sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            print(f"changed: {k}")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for ruleset in sorted({k.split("/")[1] for k in new}):
        mine = {k: v for k, v in new.items() if k.split("/")[1] == ruleset}
        (GOLDEN / f"{ruleset}.json").write_text(json.dumps(mine, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
