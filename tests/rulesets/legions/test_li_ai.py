"""The legions AI (issue 23 §2): greedy's Orders from the targets each Detachment can reach (the First Fire blunder),
and the search's tactics: what it searches, in what order, and what a position is worth."""

from __future__ import annotations

from pathlib import Path

from kessen.ai.search import Budget, SearchAI
from kessen.core.engine import Decision
from kessen.core.geometry import Point
from kessen.core.records import evolve
from kessen.rulesets import get_ruleset
from kessen.rulesets.legions.ai import LiAI, LiTactics, will_have_target
from kessen.rulesets.legions.ai.evaluation import worth
from kessen.rulesets.legions.referee.rounds import order_decision
from kessen.rulesets.legions.referee.state import LiState
from kessen.rulesets.legions.referee.steps import IssueOrder
from kessen.rulesets.legions.referee.targeting import Fire, HoldFire

ROOT = Path(__file__).resolve().parents[3]
GAME = get_ruleset("legions").game


def _opening(name: str) -> tuple[LiState, Decision]:
    path = ROOT / "examples" / "legions" / f"{name}.toml"
    state, _ = GAME.start(GAME.load_scenario(path.read_text(), str(path)))
    node = GAME.node(state)
    assert isinstance(node, Decision)
    return state, node


def _order_of(state: LiState, det_id: str) -> Decision:
    """The Orders decision of *det_id*, as the Orders phase would ask it."""
    return order_decision(state, IssueOrder(det_id))


def test_li_blunder_first_fire_is_not_ordered_on_cover_or_distance_alone() -> None:
    """LI-ACT-2, LI-ACT-5: hold-the-line's Auxilia sit in cover with every enemy beyond their lasrifles' 12 inches;
    the old greedy ordered First Fire for being in cover, and the Detachment idled the round with no target (260
    idle activations in 50 battles). Now it Advances."""
    state, _ = _opening("hold-the-line")
    det = state.detachment("lasrifles-1")
    assert any(m.cover_save is not None for m in det.live)
    assert not will_have_target(state, det)
    assert LiAI("Auxilia").decide(state, _order_of(state, "lasrifles-1")) == "advance"


def test_li_blunder_first_fire_when_a_target_is_in_sight_and_range() -> None:
    """LI-TGT-1, LI-TGT-2: the same Detachment with an assault Detachment moved 6 inches from it (in range, in sight,
    not Engaged) stands and fires first."""
    state, _ = _opening("hold-the-line")
    near = state.detachment("assault-1")
    moved = evolve(near, models=tuple(m.at(Point(m.x, 16.5)) for m in near.models))
    state = state.with_detachment(moved)
    assert will_have_target(state, state.detachment("lasrifles-1"))
    assert LiAI("Auxilia").decide(state, _order_of(state, "lasrifles-1")) == "first_fire"


def test_li_blunder_an_engaged_target_is_no_reason_for_first_fire() -> None:
    """LI-TGT-4: an enemy already Engaged is likely Engaged & Pinned by the First Fire stage and cannot be targeted
    then; a Detachment whose only targets are Engaged is not ordered to fire first at them."""
    state, _ = _opening("hold-the-line")
    near = state.detachment("assault-1")
    state = state.with_detachment(evolve(near, models=tuple(m.at(Point(m.x, 16.5)) for m in near.models), engaged=True))
    assert not will_have_target(state, state.detachment("lasrifles-1"))


def test_li_tactics_search_only_targets_and_give_greedys_choice_first() -> None:
    """Orders are greedy's alone; at a target, greedy's attack first, the others by expected damage, holding fire
    last."""
    state, decision = _opening("armoured-spearhead")
    assert decision.kind == "order"
    tactics = LiTactics()
    assert tactics.candidates(state, decision, 12) == [LiAI(decision.player).decide(state, decision)]
    # play on with greedy to the first target decision that offers a choice of attacks
    deciders = {s: LiAI(s) for s in GAME.sides(state)}
    for _ in range(2000):
        node = GAME.node(state)
        if isinstance(node, Decision):
            if node.kind == "target" and sum(isinstance(o, Fire) for o in node.options) >= 2:
                break
            state, _ = GAME.apply(state, deciders[node.player].decide(state, node))
        else:
            state, _ = GAME.apply(state, next(iter(node.dist.probabilities())))  # type: ignore[union-attr]
    else:
        raise AssertionError("no target decision with two attacks")
    found = tactics.candidates(state, node, 12)
    assert found[0] == LiAI(node.player).decide(state, node)
    assert sorted(map(repr, found)) == sorted(map(repr, node.options)) and isinstance(found[-1], HoldFire)
    assert len(tactics.candidates(state, node, 2)) == 2


def test_li_evaluation_is_zero_sum_and_follows_the_losses() -> None:
    """Worth is the lead in share of starting size lost (what decides the battle), zero-sum, in -1 .. 1."""
    state, _ = _opening("armoured-spearhead")
    assert worth(state, "Auxilia") == 0.0 == worth(state, "Traitors")
    tank = state.detachment("russ-1")
    hurt = state.with_detachment(evolve(tank, models=(evolve(tank.models[0], wounds_remaining=0), *tank.models[1:])))
    assert -1 < worth(hurt, "Auxilia") < 0 < worth(hurt, "Traitors") < 1
    assert worth(hurt, "Auxilia") == -worth(hurt, "Traitors")


def test_li_search_decides_a_target_as_a_pure_function_of_the_position() -> None:
    """The search, on legions' tactics, answers a target decision with one of its options, the same twice."""
    state, _ = _opening("titan-at-bay")
    deciders = {s: LiAI(s) for s in GAME.sides(state)}
    for _ in range(2000):
        node = GAME.node(state)
        if isinstance(node, Decision):
            if node.kind == "target" and len(node.options) >= 2:
                break
            state, _ = GAME.apply(state, deciders[node.player].decide(state, node))
        else:
            state, _ = GAME.apply(state, next(iter(node.dist.probabilities())))  # type: ignore[union-attr]
    ai = SearchAI(GAME, LiTactics(), node.player, Budget(nodes=200))
    choice = ai.decide(state, node)
    assert choice in node.options and ai.decide(state, node) == choice
