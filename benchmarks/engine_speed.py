"""Whole battles per second against a pinned reference: the engine as it was before the speed work (issue 13).

The reference is a commit of this repository (``REFERENCE``), unpacked once with ``git archive`` under
``.bench/``. Each scenario's battles are played in child processes, the reference's and today's interleaved so
that load from other processes falls on both alike, on the same seeds; the rate is battles per CPU second of the
child (``time.process_time``), so a busy machine slows both sides and leaves the ratio. The reference plays its own
copy of each shipped scenario (scenario files have gained keys since), under the same file name.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from benchmarks.harness import table

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / ".venv" / "compiled"
REFERENCE = "ff4da24fd387a4a7a70e85a05669995b161a92aa"
"""The engine as issue 13 measured it ("battles/s now"): main before the session that began the speed work."""

TARGETS = {
    "song-of-blades/warband-skirmish": 8.0, "song-of-blades/hero-against-mob": 5.0,
    "battlehost/line-fight": 6.0, "battlehost/doorway": 5.0, "battlehost/monster": 2.5,
    "legions/armoured-spearhead": 3.0, "legions/hold-the-line": 3.0, "legions/titan-at-bay": 3.0,
    "armies-clash/goblin-horde": 4.0, "armies-clash/hold-the-bridge": 4.0, "armies-clash/skirmish-ridge": 4.0,
}
"""Issue 13's "at least" column: today's rate over the reference's."""

_CHILD = r"""
import json, sys, time
src, scenario, seeds = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
sys.path.insert(0, src)
try:
    from kessen.sim.play import play_battle
    from kessen.io.scenarios import read_scenario, ruleset_for
except ImportError:
    from kessen.sim.battles import play_battle, read_scenario, ruleset_for
ruleset = ruleset_for(scenario, None)
text = read_scenario(scenario)
play_battle(ruleset, text, scenario, seeds[0])  # warm: imports, caches of the first battle
started, events = time.process_time(), 0
for seed in seeds:
    events += len(play_battle(ruleset, text, scenario, seed).events)
print(json.dumps({"cpu": time.process_time() - started, "events": events}))
"""


@dataclass(frozen=True)
class Rate:
    battles: int
    cpu: float

    @property
    def per_second(self) -> float:
        return self.battles / self.cpu if self.cpu > 0 else float("inf")


def reference_tree() -> Path:
    """The reference commit unpacked under .bench/ (once)."""
    target = ROOT / ".bench" / f"reference-{REFERENCE[:12]}"
    if not (target / "src" / "kessen").is_dir():
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", REFERENCE, "src", "examples"], check=True, capture_output=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
    return target


def play(package_dir: Path, tree: Path, scenario: str, seeds: list[int]) -> Rate:
    """Battles of *scenario* (relative to *tree*) on *seeds*, in a child process importing kessen from *package_dir*."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(package_dir), scenario, json.dumps(seeds)],
        cwd=tree, env=env, check=True, capture_output=True, text=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return Rate(len(seeds), float(result["cpu"]))


def run(out: Console, *, battles: int = 12, rounds: int = 5) -> None:
    """For each shipped scenario, *rounds* (``--repeat``) interleaved runs of *battles* seeded battles on each side;
    the best (this machine's speed wanders by half within seconds: the best run is the one least slowed). Today's
    engine is played as pure Python and, where ``make compiled`` built it, compiled with mypyc (``.venv/compiled``)."""
    reference = reference_tree()
    compiled = COMPILED if (COMPILED / "kessen").is_dir() else None
    rows: list[list[str]] = []
    for name, target in TARGETS.items():
        scenario = f"examples/{name}.toml"
        if not (reference / scenario).exists() or not (ROOT / scenario).exists():
            continue
        seeds = list(range(1, battles + 1))
        best = {"reference": 0.0, "pure": 0.0, "compiled": 0.0}
        for _ in range(rounds):
            best["reference"] = max(best["reference"], play(reference / "src", reference, scenario, seeds).per_second)
            best["pure"] = max(best["pure"], play(ROOT / "src", ROOT, scenario, seeds).per_second)
            if compiled is not None:
                best["compiled"] = max(best["compiled"], play(compiled, ROOT, scenario, seeds).per_second)
        pure, fast = best["pure"] / best["reference"], best["compiled"] / best["reference"]
        ratio = fast if compiled is not None else pure
        rows.append([
            name, f"{best['reference']:,.1f}", f"{best['pure']:,.1f}", f"×{pure:.1f}",
            f"{best['compiled']:,.1f}" if compiled else "-", f"×{fast:.1f}" if compiled else "-",
            f"×{target:g}", "yes" if ratio >= target else "no",
        ])
    out.print(
        table(
            f"Whole battles per CPU second, one core, against the engine of {REFERENCE[:10]} (seeds 1–{battles}, best of {rounds})",
            [("scenario", "left"), ("reference", "right"), ("pure", "right"), ("ratio", "right"), ("compiled", "right"),
             ("ratio", "right"), ("target", "right"), ("reached", "left")],
            rows,
            caption="each engine in a child process of this interpreter, interleaved; rate = battles / child CPU seconds; "
            + ("compiled: .venv/compiled (make compiled)" if compiled else "no compiled engine: make compiled builds it"),
        )
    )
