"""Issue 13 §4: the odds path imports no battle engine.

``kessen odds`` and ``kessen.odds`` load a ruleset's procedures (``procedures.py`` and ``rules/``) and nothing of
its engine (``referee/``), nor ``kessen.match``, ``kessen.sim`` or numpy; the engine is imported the first time a
battle asks for ``get_ruleset(id).game``. Each check runs in a fresh interpreter, since this test process has long
imported everything.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

import kessen
from kessen.core.engine import Decision
from kessen.rulesets import Engine, Ruleset, get_ruleset, ruleset_ids

QUESTIONS: dict[str, dict[str, dict[str, object]]] = {
    "song-of-blades": {
        "activation": {"quality": 4},
        "melee": {"attacker_combat": 3, "defender_combat": 3},
        "disengage": {"combat": 3, "enemies": [{"combat": 3}, {"combat": 3}]},
        "morale": {"quality": 3},
        "melee_targets": {"melee_priority": True, "enemies": [{"points": 30}, {"state": "fallen", "points": 60}]},
    },
    "battlehost": {
        "wound_roll": {"strength": 3, "defence": 5},
        "shoot": {"shoot_value": 4, "strength": 2, "defence": 5},
        "strikes": {"strikes": 2, "strength": 4, "defence": 5, "wounds": 2},
        "duel": {"good": [{"fight": 4, "attacks": 1}], "evil": [{"fight": 3, "attacks": 1}]},
        "fight": {"good": [{"fight": 4, "attacks": 1, "strength": 3, "defence": 5}],
                  "evil": [{"fight": 3, "attacks": 1, "strength": 3, "defence": 5, "trapped": True}]},
    },
    "legions": {
        "fire": {"firing_models": 4, "to_hit": 5, "target_models": [{"armour_save": 5, "count": 4}]},
        "resolve_hits": {"hits": 3, "ap": -1, "target_models": [{"armour_save": 5, "cover_save": 4, "count": 6}]},
        "fight": {"a": {"caf": 2}, "b": {"caf": 2}},
        "morale_check": {"morale": 3, "broken": True},
        "withdrawal_move": {"movement": 5},
        "break_point": {"models": [{"count": 28}]},
    },
    "armies-clash": {
        "attack": {"attacks": [{"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}], "target_ac": 13, "target_hp": 7},
        "save": {"ability": "dex", "save_bonus": 1, "dc": 13, "damage": "2d6", "skirmisher": True},
        "commander_check": {"check_bonus": 5},
        "decisive_rout": {"vp_a": 11, "vp_b": 7, "units_a": 4, "units_b": 3},
        "death_saves": {},
    },
}

# In a fresh interpreter: one question through the console script's entry point (standard input), then every
# question through kessen.odds; at exit, the modules loaded, as JSON on standard error's last line.
PROGRAM = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
ruleset, questions = sys.argv[1], json.loads(sys.argv[2])
import kessen
for procedure, data in questions.items():
    assert kessen.odds(ruleset, procedure, data).outcomes
from kessen.cli.main import main
procedure = next(iter(questions))
sys.argv = ["kessen", "odds", ruleset, procedure, "--input", "-"]
main()
"""

FORBIDDEN = ("kessen.match", "kessen.sim", "kessen.core.session", "numpy")


def modules_after_odds(ruleset: str) -> list[str]:
    questions = QUESTIONS[ruleset]
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, ruleset, json.dumps(questions)], input=json.dumps(next(iter(questions.values()))),
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ruleset"] == ruleset
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize("ruleset", list(QUESTIONS))
def test_issue_13_4_kessen_odds_imports_no_battle_engine(ruleset: str) -> None:
    """Issue 13 §4: answering odds (the CLI and the API) loads the ruleset's procedures, and no module of its
    referee, of kessen.match or kessen.sim, and not numpy (only drawing needs it)."""
    loaded = modules_after_odds(ruleset)
    package = f"kessen.rulesets.{ruleset.replace('-', '_')}"
    assert f"{package}.procedures" in loaded
    engine = [m for m in loaded if m.startswith(f"{package}.referee") or m == f"{package}.scenario"]
    battle = [m for m in loaded if m in FORBIDDEN or m.startswith(tuple(f"{f}." for f in FORBIDDEN))]
    others = [m for m in loaded if m.startswith("kessen.rulesets.") and not m.startswith(package)]
    assert (engine, battle, others) == ([], [], [])


def test_issue_13_4_the_public_api_is_unchanged() -> None:
    """Issue 13 §4: what ``kessen`` exports is still there, loaded on first use; every ruleset's ``game`` is built
    once, on first use, and is the same object after."""
    from kessen import Match, simulate, sweep

    assert (kessen.Match, kessen.simulate, kessen.sweep) == (Match, simulate, sweep)
    assert all(getattr(kessen, name) is not None for name in kessen.__all__)
    assert callable(kessen.odds) and set(kessen.__all__) <= set(dir(kessen))
    with pytest.raises(AttributeError, match="no attribute 'Matchh'"):
        kessen.Matchh  # noqa: B018
    for rid in ruleset_ids():
        ruleset = get_ruleset(rid)
        assert ruleset.game is ruleset.game and ruleset.game.start is not None
        assert ruleset.swap_deployment is not None
    legions, asked = get_ruleset("legions"), Decision("Attacker", "move", ("a",))
    assert legions.new_since_v1(asked) and not legions.new_since_v1(Decision("Attacker", "order", ("a",)))
    assert not get_ruleset("song-of-blades").new_since_v1(asked)


def test_issue_13_4_an_engine_is_loaded_once_or_given_as_it_is() -> None:
    """A ruleset's engine is a loader called on first use, once; or its parts given as they are; not both; and
    ``dataclasses.replace`` gives a ruleset of another game."""
    calls: list[int] = []

    def load() -> Engine:
        calls.append(1)
        return Engine("the game", since_v1=lambda decision: decision.kind == "k")

    lazy = Ruleset("x", "X", "X", {}, engine=load)
    assert calls == []
    k, other = Decision("A", "k", ("a",)), Decision("A", "other", ("a",))
    assert (lazy.game, lazy.new_since_v1(k), lazy.new_since_v1(other), lazy.swap_deployment, lazy.game) == (
        "the game", True, False, None, "the game")
    assert calls == [1]
    given = Ruleset("y", "Y", "Y", {}, game="a game")
    assert (given.game, given.swap_deployment, given.new_since_v1(k)) == ("a game", None, False)
    swapped = dataclasses.replace(lazy, game="another game")
    assert (swapped.id, swapped.game, swapped.new_since_v1(k), calls) == ("x", "another game", False, [1])
    with pytest.raises(TypeError, match="not both"):
        Ruleset("z", "Z", "Z", {}, game="a game", engine=load)
