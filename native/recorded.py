"""Every call of battlehost's legal-move geometry in a few AI battles, recorded from the Python referee, to check the C
prototype against (``tests/native``) and to time both on (``benchmarks/native_moves.py``).

``moves.charge_point`` (BH-MOVE-5, with the ``_breach`` tests of its contact points inside it) and every other call of
``moves._breach`` (BH-MOVE-2..5: the moves into line, round terrain, a move the player writes) are wrapped while the
battles play; each call is kept with its arguments and the answer the referee gave. Wrapping needs the pure engine
(compiled modules call each other directly), so recording runs in a child process with ``KESSEN_ENGINE=pure``:

    KESSEN_ENGINE=pure python -m native.recorded SCENARIO SEEDS OUT.pickle     # SEEDS: a JSON list; seed 0 warms up
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Calls:
    """The calls of one recording: ``charge`` holds (args, answer) of ``charge_point`` (positional: mover, target,
    models, board, limit, engaged), ``breach`` those of ``_breach`` made outside it; ``battles`` how many."""

    battles: int
    charge: list[tuple[tuple[Any, ...], Any]] = field(default_factory=list)
    breach: list[tuple[tuple[Any, ...], Any]] = field(default_factory=list)


def record(scenario: str, seeds: list[int]) -> Calls:
    """Play *scenario* on each seed, AI against AI, after one battle on seed 0 (as ``benchmarks.child`` does), keeping
    every call; the pure engine only."""
    from kessen.bootstrap import ENGINE
    from kessen.io.scenarios import read_scenario, ruleset_for
    from kessen.rulesets.battlehost.referee import moves
    from kessen.sim.play import play_battle

    if ENGINE != "pure":
        raise RuntimeError("recording wraps the referee's functions: run it with KESSEN_ENGINE=pure")
    ruleset, text = ruleset_for(scenario, None), read_scenario(scenario)
    play_battle(ruleset, text, scenario, 0)
    calls = Calls(len(seeds))
    charge_point, breach = moves.charge_point, moves._breach
    depth = [0]

    def recorded_charge(mover: Any, target: Any, models: Any, board: Any, *, limit: float, engaged: Any) -> Any:
        depth[0] += 1
        try:
            answer = charge_point(mover, target, models, board, limit=limit, engaged=engaged)
        finally:
            depth[0] -= 1
        calls.charge.append(((mover, target, models, board, limit, engaged), answer))
        return answer

    def recorded_breach(*args: Any) -> Any:
        answer = breach(*args)
        if depth[0] == 0:
            calls.breach.append((args, answer))
        return answer

    moves.charge_point, moves._breach = recorded_charge, recorded_breach  # type: ignore[assignment]
    try:
        for seed in seeds:
            play_battle(ruleset, text, scenario, seed)
    finally:
        moves.charge_point, moves._breach = charge_point, breach  # type: ignore[assignment]
    return calls


def recorded(scenario: Path, seeds: list[int], out: Path) -> Calls:
    """:func:`record` in a child process on the pure engine, kept in *out* (a pickle) and read back here."""
    env = {**os.environ, "KESSEN_ENGINE": "pure", "PYTHONHASHSEED": "0"}
    subprocess.run([sys.executable, "-m", "native.recorded", str(scenario), json.dumps(seeds), str(out)],
                   cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    with out.open("rb") as file:
        battles, charge, breach = pickle.load(file)
    return Calls(battles, charge, breach)


def replay_seconds(calls: Calls, charge_point: Callable[..., Any], breach: Callable[..., Any], *, keywords: bool,
                   rounds: int = 5) -> float:
    """CPU seconds to answer every recorded call once (the best of *rounds*): what the battles spent in these
    functions. *keywords*: charge_point takes ``limit`` and ``engaged`` by keyword (the referee's; C takes all six
    positionally)."""
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        if keywords:
            for (mover, target, models, board, limit, engaged), _ in calls.charge:
                charge_point(mover, target, models, board, limit=limit, engaged=engaged)
        else:
            for args, _ in calls.charge:
                charge_point(*args)
        for args, _ in calls.breach:
            breach(*args)
        best = min(best, time.process_time() - started)
    return best


if __name__ == "__main__":
    found = record(sys.argv[1], json.loads(sys.argv[2]))
    with Path(sys.argv[3]).open("wb") as file:
        pickle.dump((found.battles, found.charge, found.breach), file)  # plain tuples: no class of __main__
