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
from kessen.rulesets.legions.ai.greedy import charge_gain
from kessen.rulesets.legions.ai.evaluation import threat, worth
from kessen.rulesets.legions.ai.tactics import waits_in_range
from kessen.rulesets.legions.referee.allocation import AllocateTo, HitByHit, InOrder
from kessen.rulesets.legions.referee.movement import AsOrdered, ChargeAt, Hold, InLine, MoveTo, origins_of
from kessen.rulesets.legions.referee.movement_phase import move_decision
from kessen.rulesets.legions.referee.rounds import order_decision
from kessen.rulesets.legions.referee.state import LiState, progressed
from kessen.rulesets.legions.referee.steps import IssueOrder, MoveDetachment
from kessen.rulesets.legions.referee.targeting import Fire, HoldFire, targets

ROOT = Path(__file__).resolve().parents[3]
GAME = get_ruleset("legions").game
TITAN = ROOT / "examples" / "legions" / "sweeps" / "titan-variants" / "combat-start.toml"  # positions pinned below


def _opening(scenario: str | Path) -> tuple[LiState, Decision]:
    path = scenario if isinstance(scenario, Path) else ROOT / "examples" / "legions" / f"{scenario}.toml"
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


def test_li_tactics_search_targets_not_orders_and_give_greedys_choice_first() -> None:
    """Orders are not searched (one candidate, the search's rule); at a target, greedy's attack first, the others by
    expected damage, holding fire last."""
    state, decision = _opening("armoured-spearhead")
    assert decision.kind == "order"
    tactics = LiTactics()
    assert tactics.candidates(state, decision, 12) == ["first_fire"]
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
    state, _ = _opening(TITAN)
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


MIRROR = ROOT / "benchmarks" / "mirrors" / "legions-crossroads.toml"


def _first_move(det_id: str) -> tuple[LiState, Decision]:
    """The crossroads mirror played by greedy (first outcome of every chance) to *det_id*'s first move."""
    state, _ = GAME.start(GAME.load_scenario(MIRROR.read_text(), str(MIRROR)))
    deciders = {s: LiAI(s) for s in GAME.sides(state)}
    for _ in range(200):
        node = GAME.node(state)
        if isinstance(node, Decision):
            if node.kind == "move" and node.actor == det_id:
                return state, node
            state, _ = GAME.apply(state, deciders[node.player].decide(state, node))
        else:
            state, _ = GAME.apply(state, next(iter(node.dist.probabilities())))  # type: ignore[union-attr]
    raise AssertionError(f"no move of {det_id}")


def _shooters_at(state: LiState, det_id: str) -> list[str]:
    return [d.id for d in state.detachments if d.owner != state.detachment(det_id).owner and det_id in targets(state, d)]


def test_li_issue23_the_move_back_in_line_takes_the_line_out_of_the_enemys_reach() -> None:
    """Issue 23 §5 (LI-MOVE-2, LI-MOVE-8): on the crossroads mirror the tactical line (bolters, 8 inches) stands in
    reach of the enemy's missiles and tanks with nothing of its own to shoot; greedy's Advance walks it on into their
    fire (and the enemy line's bolters). The move back in line is suggested: 5 inches straight toward the own edge, where no enemy can target it."""
    state, decision = _first_move("s-tactical")
    assert _shooters_at(state, "s-tactical") == ["n-missiles", "n-russ"]
    back = [o for o in decision.options if isinstance(o, MoveTo)]
    assert back == [MoveTo(17.0, 5.001)]
    assert GAME.parse(state, decision, GAME.notation(state, decision, back[0])) == back[0]  # its notation reads back
    after, _ = GAME.apply(state, back[0])
    assert all(abs(m.y - 5.001) < 1e-9 for m in after.detachment("s-tactical").live)
    assert _shooters_at(after, "s-tactical") == []
    ahead, _ = GAME.apply(state, AsOrdered())
    assert _shooters_at(ahead, "s-tactical") == ["n-tactical", "n-missiles", "n-russ"]


def test_li_issue23_tactics_weigh_holding_falling_back_and_closing_at_a_move() -> None:
    """At a move, greedy's (as ordered) first, then holding still, the move back in line, the move in line toward
    the nearest enemy."""
    state, decision = _first_move("s-tactical")
    assert LiTactics().candidates(state, decision, 4) == [AsOrdered(), Hold(), MoveTo(17.0, 5.001), InLine("n-tactical")]


def test_li_issue23_threat_counts_who_can_shoot_whom() -> None:
    """The evaluation's threat: out of every enemy's reach the line is worth more to its side than in it, with the
    losses the same (none)."""
    state, decision = _first_move("s-tactical")
    back, _ = GAME.apply(state, next(o for o in decision.options if isinstance(o, MoveTo)))
    ahead, _ = GAME.apply(state, AsOrdered())
    assert threat(back, "North") < threat(ahead, "North")
    assert worth(back, "South") > worth(ahead, "South")


def test_li_issue23_search_pulls_the_line_back_out_of_the_enemys_reach() -> None:
    """The blunder position: greedy walks the line into the enemy's fire; the search (default budget) pulls it back
    in line out of reach."""
    state, decision = _first_move("s-tactical")
    assert LiAI("South").decide(state, decision) == AsOrdered()
    tactics = LiTactics()  # its budget read from the instance: a compiled class has no plain class attributes
    ai = SearchAI(GAME, tactics, "South", tactics.budget, seed=1)
    assert ai.decide(state, decision) == MoveTo(17.0, 5.001)


def _crowd_round_the_titan(*, crowd: bool) -> LiState:
    """Titan at bay after a round: the Warhound free, the Loyalist Tactical line 5.5 inches south of it and (with
    *crowd*) the Assault line 3.5 inches south and the Knight 7 inches, none Engaged."""
    state, _ = _opening(TITAN)
    lines = {"tactical-1": 16.5, "assault-1": 18.0}
    for det_id, y in lines.items():
        det = state.detachment(det_id)
        placed = tuple(m.at(Point(33.0 + 1.5 * i, y)) for i, m in enumerate(det.models))
        if det_id != "tactical-1" and not crowd:
            placed = tuple(evolve(m, wounds_remaining=0) for m in placed)
        state = state.with_detachment(evolve(det, models=placed, engaged=False, charged_and_moved=False, order=None))
    if not crowd:
        knight = state.detachment("knight-1")
        state = state.with_detachment(evolve(knight, models=tuple(evolve(m, wounds_remaining=0) for m in knight.models)))
    for det_id in ("warhound", "traitors-1"):
        state = state.with_detachment(evolve(state.detachment(det_id), engaged=False, order=None))
    return state


def test_li_issue23_greedy_charges_the_titan_with_the_crowd_not_alone() -> None:
    """LI-FIGHT-4, LI-PAIR-4: a Warhound (CAF 8) beats any one Legionary, but every fight after its first gives its
    opponent a die more: the Tactical, Assault and Knight Detachments in reach charge it together (the crowd's fights
    expected won exceed those lost by more than their fire could do to its Void Shields), where the old rule (CAF
    times Wounds, one Detachment against one) never charged it; the Tactical Detachment alone does not."""
    crowd = _crowd_round_the_titan(crowd=True)
    titan = crowd.detachment("warhound")
    for det_id in ("tactical-1", "assault-1", "knight-1"):
        assert charge_gain(crowd, crowd.detachment(det_id), titan) > 1.0
        assert LiAI("Loyalists").decide(crowd, _order_of(crowd, det_id)) == "charge"
    alone = _crowd_round_the_titan(crowd=False)
    assert charge_gain(alone, alone.detachment("tactical-1"), alone.detachment("warhound")) < 0.0
    assert LiAI("Loyalists").decide(alone, _order_of(alone, "tactical-1")) != "charge"


def test_li_issue23_tactics_weigh_a_charge_at_each_enemy_in_reach() -> None:
    """LI-MOVE-1, LI-FIGHT-3: at a Charge Detachment's move the search weighs a charge at each enemy Detachment in
    reach (the charge as ordered goes for the nearest model, which may not be the Detachment to fight) before holding
    still."""
    state = _crowd_round_the_titan(crowd=True)
    det = state.detachment("assault-1")
    state = state.with_detachment(evolve(det, order="charge"))
    decision = move_decision(state, MoveDetachment("assault-1", origins_of(state.detachment("assault-1"))))
    assert ChargeAt("warhound") in decision.options
    assert LiTactics().candidates(state, decision, 4)[:3] == [AsOrdered(), ChargeAt("warhound"), Hold()]


def _titan_round_one(until: str) -> tuple[LiState, Decision]:
    """Titan at bay's round 1 played by greedy, every chance its likeliest outcome, up to the first decision of kind
    *until* that offers a choice (greedy's allocations and fights being the first option)."""
    state, _ = _opening(TITAN)
    return _next_choice(state, until)


def _next_choice(state: LiState, until: str) -> tuple[LiState, Decision]:
    for _ in range(300):
        node = GAME.node(state)
        if isinstance(node, Decision):
            if node.kind == until and len(node.options) > 1:
                return state, node
            state, _ = GAME.apply(state, LiAI(node.player).decide(state, node))
        else:
            outcomes = node.dist.probabilities()  # type: ignore[union-attr]
            state, _ = GAME.apply(state, max(outcomes, key=lambda o: outcomes[o]))
    raise AssertionError(f"no {until} decision with a choice")


def test_li_issue23_search_spares_the_models_that_hold_the_titan_in_combat() -> None:
    """LI-ALLOC-1, LI-PAIR-1: the Warhound's First Fire hits Tactical-1, three of whose four models touch it. Greedy
    lets the hits go in order (onto the models in base contact: each lost is a fight against the Titan lost); the
    search allocates hit by hit, the first hit to the missile launcher standing out of the combat."""
    state, decision = _titan_round_one("allocation")
    assert decision.actor == "tactical-1" and decision.options == (InOrder(), HitByHit())
    assert LiAI("Loyalists").decide(state, decision) == InOrder()
    assert LiTactics().candidates(state, decision, 4) == [HitByHit()]
    state, _ = GAME.apply(state, HitByHit())
    node = GAME.node(state)
    outcomes = node.dist.probabilities()  # type: ignore[union-attr]
    state, _ = GAME.apply(state, max(outcomes, key=lambda o: outcomes[o]))  # the hit rolls: some hit
    node = GAME.node(state)
    assert isinstance(node, Decision) and AllocateTo("tactical-1-1") in node.options
    assert LiTactics().candidates(state, node, 4) == [AllocateTo("tactical-1-4")]


def test_li_issue23_search_rolls_the_strongest_fight_against_the_titan_first() -> None:
    """LI-FIGHT-1, LI-FIGHT-4: the Loyalists (with Initiative) choose the order of the fights. Greedy rolls Tactical
    marine 1-3's fight against the Warhound first (the first option); the search rolls first the fight its model is
    likeliest to win (the Assault marine that charged, against a Traitor Legionary), then the Assault marines'
    against the Titan, so the Tactical marine fights it last, with the most dice."""
    state, decision = _titan_round_one("fight")
    assert LiAI("Loyalists").decide(state, decision) == ("tactical-1-3", "warhound-1")
    assert LiTactics().candidates(state, decision, 4) == [("assault-1-3", "traitors-1-1")]
    state, _ = GAME.apply(state, ("assault-1-3", "traitors-1-1"))
    while not isinstance(node := GAME.node(state), Decision):
        outcomes = node.dist.probabilities()  # type: ignore[union-attr]
        state, _ = GAME.apply(state, max(outcomes, key=lambda o: outcomes[o]))
    assert node.kind == "fight" and LiTactics().candidates(state, node, 4)[0][0].startswith("assault-1")


def test_li_issue23_search_fires_first_at_the_marines_that_would_wound_the_titan() -> None:
    """LI-FIGHT-6, LI-FIGHT-3: the Warhound's First Fire expects as many models destroyed among the Tactical marines
    at its feet as among the Assault marines, and greedy fires at the first; the search's first candidate is the
    Assault marines, whose fights (CAF 4, +1 for their charge) would wound the Titan, greedy's choice next."""
    state, decision = _titan_round_one("target")
    while decision.actor != "warhound":
        state, _ = GAME.apply(state, LiAI(decision.player).decide(state, decision))
        state, decision = _next_choice(state, "target")
    greedy = LiAI("Traitors").decide(state, decision)
    assert isinstance(greedy, Fire) and greedy.target == "tactical-1"
    found = LiTactics().candidates(state, decision, 4)
    assert isinstance(found[0], Fire) and found[0].target == "assault-1" and found[1] == greedy


def test_li_issue23_search_orders_no_charge_that_does_not_pay() -> None:
    """LI-ORD, LI-FIGHT-4: the Warhound free, Legion lines 3.5 and 5.5 inches south of it. Greedy orders it to charge
    (its CAF times Wounds beats any Legionary's); the charge's fight gains less than its guns would do, so the
    search's Order is First Fire."""
    state = _crowd_round_the_titan(crowd=True)
    titan = state.detachment("warhound")
    assert charge_gain(state, titan, state.detachment("assault-1")) <= 0.0
    decision = _order_of(state, "warhound")
    assert LiAI("Traitors").decide(state, decision) == "charge"
    assert LiTactics().candidates(state, decision, 4) == ["first_fire"]


def test_li_issue23_search_waits_in_first_fire_for_an_enemy_that_must_come_to_it() -> None:
    """LI-STAGE-1, LI-ACT-2: armoured-spearhead's opening, every enemy beyond reach. Greedy Advances the Traitors' missile
    line (24 inches) and the tanks (24 inches); the search orders them First Fire, since no enemy outranges them and
    the enemy's Movement brings it within their range (29 inches apart, 24 + 5 and 24 + 8): they fire first in the
    First Fire stage at what comes. The Knight (8 inches, outranged by the battle cannon) marches as greedy's does."""
    state, _ = _opening("armoured-spearhead")
    for det_id, player in (("tactical-1", "Traitors"), ("russ-2", "Auxilia")):
        decision = _order_of(state, det_id)
        assert LiAI(player).decide(state, decision) == "advance"
        assert waits_in_range(state, state.detachment(det_id))
        assert LiTactics().candidates(state, decision, 4) == ["first_fire"]
    knight = _order_of(state, "knight-1")
    assert not waits_in_range(state, state.detachment("knight-1"))
    assert LiTactics().candidates(state, knight, 4) == [LiAI("Traitors").decide(state, knight)] == ["march"]


def test_li_issue23_search_waits_in_first_fire_in_the_first_round_only() -> None:
    """LI-STAGE-1: the same opening a round later. Two sides that both wait never fight (search against search drew
    every battle of armoured-spearhead when the wait held in every round), so from round 2 the search's Order is
    greedy's: the Advance."""
    state, _ = _opening("armoured-spearhead")
    later = progressed(state, round=2)
    for det_id, player in (("tactical-1", "Traitors"), ("russ-2", "Auxilia")):
        assert waits_in_range(state, state.detachment(det_id))
        assert not waits_in_range(later, later.detachment(det_id))
        decision = _order_of(later, det_id)
        assert LiTactics().candidates(later, decision, 4) == [LiAI(player).decide(later, decision)] == ["advance"]


def test_li_issue23_search_moves_the_marching_knight_before_the_lines() -> None:
    """LI-MOVE-1, LI-MOVE-2, LI-MOVE-3: armoured-spearhead's first Movement phase, the Traitors' lines Advancing and
    the Knight Marching (16 inches). Greedy moves Tactical-1 first (the first option) and the Knight last, into the
    lines that moved across its path; the search moves the Knight first, the Detachment that may go farthest."""
    state, decision = _opening("armoured-spearhead")
    orders = {"tactical-1": "advance", "tactical-2": "advance", "knight-1": "march"}
    for _ in range(200):
        node = GAME.node(state)
        if not isinstance(node, Decision):  # the Initiative roll: the Traitors'
            state, _ = GAME.apply(state, "Traitors")
            continue
        if node.kind == "mover" and node.player == "Traitors":
            break
        choice = orders.get(node.actor, "advance") if node.kind == "order" else LiAI(node.player).decide(state, node)
        state, _ = GAME.apply(state, choice)
    assert set(node.options) == set(orders) and state.detachment("knight-1").order == "march"
    assert LiAI("Traitors").decide(state, node) == "tactical-1"
    assert LiTactics().candidates(state, node, 4) == ["knight-1"]
