"""One timed run in a fresh process (``python -m benchmarks.child SCENARIO SEEDS STEPS``), on the engine
``KESSEN_ENGINE`` names: AI battles on the given seeds, then random-legal steps. Prints one JSON line.

Both timings are CPU seconds of this process (``time.process_time``), warm: one battle is played first, so imports,
the scenario read and the first caches are not counted.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from kessen.bootstrap import ENGINE
from kessen.core.engine import Chance, Terminal
from kessen.dice import draw, stream
from kessen.io.scenarios import read_scenario, ruleset_for
from kessen.sim.play import initial_state, play_battle


def battles(ruleset: Any, text: str, scenario: str, seeds: list[int]) -> tuple[float, int]:
    """CPU seconds to play a battle on each seed, AI against AI, and the events they made."""
    started, events = time.process_time(), 0
    for seed in seeds:
        events += len(play_battle(ruleset, text, scenario, seed).events)
    return time.process_time() - started, events


def random_steps(game: Any, start: Any, steps: int, seed: int) -> float:
    """CPU seconds for *steps* calls of ``apply``, each on a random legal choice (a suggested option at a decision, a
    seeded draw at a chance node), a new game begun whenever one ends: the engine's raw step rate, no AI."""
    choose, rng = random.Random(seed), stream(seed)
    state, _ = game.start(start)
    started = time.process_time()
    for _ in range(steps):
        node = game.node(state)
        if isinstance(node, Terminal):
            state, _ = game.start(start)
            node = game.node(state)
        choice = draw(node.dist, rng) if isinstance(node, Chance) else choose.choice(node.options)
        state, _ = game.apply(state, choice)
    return time.process_time() - started


def main(scenario: str, seeds: list[int], steps: int) -> dict[str, Any]:
    ruleset = ruleset_for(scenario, None)
    text = read_scenario(scenario)
    play_battle(ruleset, text, scenario, 0)  # warm
    cpu, events = battles(ruleset, text, scenario, seeds)
    step_cpu = random_steps(ruleset.game, initial_state(ruleset.game, text, scenario), steps, seeds[0]) if steps else 0.0
    return {"engine": ENGINE, "battles": len(seeds), "cpu": cpu, "events": events, "steps": steps, "step_cpu": step_cpu}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]))))
