"""Simulation freezes the objects alive when its first scenario is read, once per process (issue 13)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_scenario_read_freezes_what_is_alive_and_later_ones_do_not() -> None:
    child = textwrap.dedent(
        """
        import gc
        from kessen.io.scenarios import read_scenario, ruleset_for
        from kessen.sim.play import play_battle
        assert gc.get_freeze_count() == 0
        for name in ("hero-against-mob", "warband-skirmish"):
            path = f"examples/song-of-blades/{name}.toml"
            ruleset, text = ruleset_for(path, None), read_scenario(path)
            play_battle(ruleset, text, path, 1)
            frozen = gc.get_freeze_count()
            assert frozen > 10_000, frozen  # the imports and the scenario
            if name == "hero-against-mob":
                first = frozen
        assert frozen == first, (first, frozen)  # the second scenario froze nothing more
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
