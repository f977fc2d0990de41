"""The skirmish on the core step machine (issue 9 §3): the turn sequence as steps, nodes built once per state,
typed decision kinds with who acts, and the scenario's deployment swapped by the ruleset itself."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from sb_engine_support import GAME, model, state_of

from kessen.core.decisions import RandomDecider
from kessen.core.engine import Chance, Decision, Terminal
from kessen.dice import draw, stream
from kessen.rulesets import get_ruleset
from kessen.rulesets.song_of_blades.referee import game as g
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.steps import DecisionKind
from kessen.rulesets.song_of_blades.scenario import swap_deployment

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "song-of-blades"


def test_sb_turn_1_start_stands_at_the_roll_off_and_the_turn_is_a_queue_of_steps() -> None:
    """SB-TURN-1: a new game stands at the roll-off (no events before it); once it is rolled the turn's first step
    is the activation of the side that won it, a step of the queue like every other."""
    state, events = GAME.start(state_of([model("A", 100, 100)], [model("B", 300, 300)]))
    assert events == () and state.pending == (sp.RollOff(),)
    roll = GAME.node(state)
    assert isinstance(roll, Chance) and roll.kind == "roll-off"
    after, _ = GAME.apply(state, roll.dist.outcomes()[0])
    assert after.pending == (sp.ChooseActivation(),)
    node = GAME.node(after)
    assert isinstance(node, Decision) and node.kind == "activation" and node.player == after.turn.active


def test_sb_turn_3_each_node_is_built_once_per_state() -> None:
    """Issue 9 §3: the node the machine stopped at is the one node() returns, however often it is asked."""
    state = GAME.load_scenario((EXAMPLES / "warband-skirmish.toml").read_text(encoding="utf-8"), "warband")
    rng = stream(3)
    for _ in range(200):
        node = g.GAME.node(state)
        assert g.GAME.node(state) is node
        if isinstance(node, Terminal):
            break
        choice = draw(node.dist, rng) if isinstance(node, Chance) else node.options[0]
        state, _ = g.GAME.apply(state, choice)


def test_sb_turn_3_decisions_have_a_documented_kind_and_name_who_acts() -> None:
    """SB-TURN-3: every decision of random games is one of the documented kinds; all but the activation name the
    model that acts or is acted on; a recoil is free (the player may name any legal spot)."""
    kinds = set(get_args(DecisionKind))
    seen: set[str] = set()
    for path in sorted(EXAMPLES.glob("*.toml")):
        state = GAME.load_scenario(path.read_text(encoding="utf-8"), str(path))
        rng, random = stream(8), RandomDecider(stream(9))
        while not isinstance(node := g.GAME.node(state), Terminal):
            if isinstance(node, Decision):
                assert node.kind in kinds, node.kind
                assert (node.actor == "") == (node.kind == "activation"), node
                assert node.kind != "recoil" or node.free
                seen.add(node.kind)
                choice = random.decide(state, node)
            else:
                choice = draw(node.dist, rng)
            state, _ = g.GAME.apply(state, choice)
    assert {"activation", "move"} <= seen


def test_sb_geo_1_swap_deployment_turns_each_model_about_the_table_centre() -> None:
    """A sweep's swap_sides: every model stands where the other side's would, turned half a turn about the centre
    of the table (here 1200 × 600 mm); the ruleset registers it."""
    data = {"options": {"table_width_mm": 1200, "table_depth_mm": 600},
            "sides": [{"side": "Red", "models": [{"x": 100.0, "y": 50.0}]}, {"side": "Blue", "models": [{"x": 1000.0, "y": 500.0}]}]}
    swap_deployment(data)
    assert [m for s in data["sides"] for m in s["models"]] == [{"x": 1100.0, "y": 550.0}, {"x": 200.0, "y": 100.0}]
    assert get_ruleset("song-of-blades").swap_deployment is swap_deployment
