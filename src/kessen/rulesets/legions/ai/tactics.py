"""What the search AI knows of legions (``kessen.core.tactics.Tactics``): which decisions are worth searching, in
what order, and what a position is worth (``evaluation``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kessen.ai.search import Budget
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.rulesets.legions.ai.evaluation import worth
from kessen.rulesets.legions.ai.greedy import LiAI, expected_damage, expected_destroyed, longest_range, order_for
from kessen.rulesets.legions.referee.allocation import AllocateTo, HitByHit, InOrder, allocatable
from kessen.rulesets.legions.referee.battlefield import closest_gap, in_base_contact, touching
from kessen.rulesets.legions.referee.close_combat import fight_question
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.referee.movement import ChargeAt, Hold, InLine, MoveTo, allowance
from kessen.rulesets.legions.referee.state import Detachment, LiState, Model
from kessen.rulesets.legions.rules.close_combat import fight_result
from kessen.rulesets.legions.referee.steps import AllocateHit, VolleyAllocation
from kessen.rulesets.legions.referee.targeting import Fire

SEARCHED = frozenset({"target", "move"})
"""The decisions whose options are weighed against each other: the target of each attack, whose worth the search
sees within its budget (the volley, the saves and the losses on the target), and each move, whose worth shows in
the firing that follows and in who can shoot whom after it (the evaluation's threat). The others are played as the
greedy AI plays them. [DECISION] Orders are not searched: measured against greedy (issue 23 §5) a search over them
on the losses alone did worse than greedy's rules (titan-at-bay, Traitors: 2 of 8 battles won against greedy's 84%),
and with the threat term it changed nothing measurable (titan-at-bay Loyalists 13 of 60 won against 12 of 60,
armoured-spearhead Traitors 11 of 60 against 12 of 60). What the Orders miss, the moves make up: a line ordered to
Advance out of its range may still pull back in line out of the enemy's. The search's Orders are greedy's but for a
Charge, given only where the crowd's fights pay (``charge_gain``), not for fighting better model for model: greedy's
Warhound charged whatever came in reach (its CAF times Wounds beats any Legionary's) and was swarmed; with the
search's Orders alone the Traitors won 71 of 100 battles of titan-at-bay against greedy, 65 without (issue 23 §5);
and for First Fire where the Detachment may wait for an enemy that must come to it (``search_order``)."""

RULED = frozenset({"allocation", "fight", "mover"})
"""The decisions greedy plays by the default (the first option) that the search plays by a rule of its own, without
playouts (greedy, their playout policy, would play the rest of the volley or combat by the default again, so
playouts cannot tell the rule's worth): where a volley's hits go (``spare``), which fight is rolled next
(``next_fight``) and which Detachment moves next (``first_mover``). Measured greedy against greedy (issue 23 §5, 200
battles, seed 1), the two combat rules in the Loyalists' hands turned titan-at-bay from 85 of 200 won to 125: in
round 1 the Warhound's fire no longer kills the Legionaries that hold it in combat, and its fights go to the
strongest first, so the weakest fights it with the most dice (LI-FIGHT-4)."""

class LiTactics:
    """Greedy's choice first (at an allocation, a fight or a mover the rule's choice alone, ``RULED``; at an Order,
    ``search_order`` alone; at a target, the attack of the best ``target_worth`` if it is better
    than greedy's); at a target, the other attacks after it by ``target_worth``, holding fire last; at a move, a charge at each of the two nearest enemy Detachments in reach, holding
    still, the move back in line toward the own edge and the move in line toward the nearest enemy."""

    budget = Budget(nodes=800, width=4, horizon=16)
    """The search's default budget here: what one core searches in about 0.1 s compiled (issue 23 §2)."""

    def greedy(self, side: str) -> Decider:
        return LiAI(side)

    def candidates(self, state: LiState, decision: Decision, limit: int) -> Sequence[Any]:
        if decision.kind == "allocation":
            return [spare(state, decision)]
        if decision.kind == "fight":
            return [next_fight(state, decision)]
        if decision.kind == "mover":
            return [first_mover(state, decision)]
        if decision.kind == "order":
            return [search_order(state, decision)]
        first = LiAI(decision.player).decide(state, decision)
        if decision.kind not in SEARCHED or limit <= 1:
            return [first]
        rest = [o for o in decision.options if o != first]
        if decision.kind == "target":
            det = state.detachment(decision.actor)
            worths = {o: target_worth(state, det, o) for o in decision.options}
            best = max(decision.options, key=lambda o: (worths[o], o == first))
            if worths[best] > worths[first]:  # the fights the target's models would win weigh more than greedy saw
                first = best
            rest = sorted((o for o in decision.options if o != first), key=lambda o: -worths[o])
        elif decision.kind == "move":
            rest = [o for o in _moves(decision.options) if o != first]
        return [first, *rest][:limit]

    def evaluate(self, state: LiState, side: str) -> float:
        return worth(state, side)


def search_order(state: LiState, decision: Decision) -> str:
    """The search's Order: greedy's without its Charges that do not pay (``order_for``, *crowd_only*), and First Fire
    instead of an Advance where the Detachment waits with profit (``waits_in_range``)."""
    order = order_for(state, decision, crowd_only=True)
    if order == "advance" and "first_fire" in decision.options and waits_in_range(state, state.detachment(decision.actor)):
        return "first_fire"
    return order


def waits_in_range(state: LiState, det: Detachment) -> bool:
    """Whether the Detachment, ordered to fire first where it stands (LI-STAGE-1: the First Fire stage comes before the
    Advancing Fire stage), fires first at an enemy coming to it: in the first round only, no enemy Detachment
    outranges it (each must come within its weapons' reach to fire at it) and one is within its longest range plus
    that enemy's Movement (it may come into range this round). Greedy Advanced armoured-spearhead's missile line (24
    inches, as far as the tanks' battle cannon) into the tanks' fire at the start; greedy against greedy with this
    Order (and ``first_mover``) the Traitors won 80 of the first 100 battles against 74 (issue 23 §5). Only in the
    first round: two sides that both wait for the other never fight (search against search, every battle of
    armoured-spearhead was drawn with the wait in every round)."""
    if state.round != 1:
        return False
    reach = longest_range(det)
    enemies = [e for e in state.detachments if e.owner != det.owner and e.on_battlefield and e.live]
    if any(longest_range(e) > reach for e in enemies):
        return False
    return any(closest_gap(det, e) <= reach + min(m.movement for m in e.live) for e in enemies)


def first_mover(state: LiState, decision: Decision) -> Any:
    """The Detachment moved next (LI-MOVE-1): the one that may go farthest (its slowest model's Movement, twice it
    under a March order, LI-MOVE-2), the first listed among equals, so that the slower ones do not stand in its way
    (LI-MOVE-3: a model stops where its base would overlap another). Greedy moved armoured-spearhead's Legion lines
    first and the Knight marching behind them ran into them, 9 of its 16 inches: greedy against greedy, moving the
    Knight first won 234 of 300 battles as Traitors against 200 (issue 23 §5)."""
    options = [str(o) for o in decision.options]
    return max(options, key=lambda o: (_allowance_of(state, o), -options.index(o)))


def _allowance_of(state: LiState, det_id: str) -> float:
    det = state.detachment(det_id)
    return min((allowance(det, m) for m in det.live), default=0.0)


def _moves(options: Sequence[Any]) -> list[Any]:
    """A move's rivals to greedy's (as ordered): a charge at each of the two nearest enemy Detachments in reach (the
    charge as ordered goes for the nearest model, which may be the wrong Detachment to fight), holding still, the
    move back in line toward the own edge (out of the enemy's reach), a move in line toward the nearest enemy
    Detachment."""
    found: list[Any] = [o for o in options if isinstance(o, ChargeAt)][:2]
    if Hold() in options:
        found.append(Hold())
    found += [o for o in options if isinstance(o, MoveTo)][:1]
    found += [o for o in options if isinstance(o, InLine)][:1]
    return found



def spare(state: LiState, decision: Decision) -> Any:
    """Where a volley's hits go (LI-ALLOC-1): the models whose loss costs least first (``hit_order``). In order when
    the default order (§5.1 R: wounded models first, then the Detachment's order) already is, hit by hit otherwise,
    each hit then to the model of least cost the rules allow (LI-ALLOC-2, LI-ALLOC-3)."""
    step = state.pending[0]
    assert isinstance(step, VolleyAllocation | AllocateHit)
    models = allocatable(state, step.volley)
    touched = touching(state)
    order = [m for m in models if m.wounds_remaining < m.wounds] + [m for m in models if m.wounds_remaining == m.wounds]
    costs = [hit_order(m, touched) for m in order]
    if costs == sorted(costs):
        return InOrder()
    if HitByHit() in decision.options:
        return HitByHit()
    spared = [o for o in decision.options if isinstance(o, AllocateTo)]
    if not spared:
        return decision.options[0]
    return min(spared, key=lambda o: (hit_order(state.model(o.model), touched), decision.options.index(o)))


def hit_order(model: Model, touched: Any) -> tuple[bool, int, int]:
    """A model's cost as a hit's casualty, least first: one in base contact with an enemy model last (it holds a fight,
    LI-PAIR-1: lost, its fight is not fought), then by its longest weapon range (the reach of its fire) and its CAF."""
    reach = max((p.range for w in model.weapons for p in w.profiles), default=0)
    return (model.id in touched, reach, model.caf)


def next_fight(state: LiState, decision: Decision) -> Any:
    """The fight rolled next (LI-FIGHT-1): the one whose own model is likeliest to win it less to lose it, from the
    exact ``fight`` odds as it stands now. A model in several fights gives each later opponent a die more
    (LI-FIGHT-4), so the strongest fight it first and the weakest last, with the most dice."""
    def edge(fight: Any) -> float:
        a, b = state.model(fight[0]), state.model(fight[1])
        odds = answer(fight_question(state, a, b)).probabilities()
        won = float(sum(p for o, p in odds.items() if o.winner == "a"))
        lost = float(sum(p for o, p in odds.items() if o.winner == "b"))
        return won - lost if state.owner_of_model(a.id).owner == decision.player else lost - won

    options = list(decision.options)
    return max(options, key=lambda o: (edge(o), -options.index(o)))


def target_worth(state: LiState, det: Detachment, option: Any) -> float:
    """An attack's worth to the search: greedy's (``expected_damage``) and, for a target whose models touch *det*'s
    side's, the fights they would win that its models destroyed do not fight (LI-FIGHT-6): the models destroyed
    expected, times the fights the target's models in base contact expect to win (each its best first fight against
    a model of ours it touches, from the exact odds, LI-FIGHT-2, LI-FIGHT-3), shared over its models. Greedy's
    Warhound fired at the Tactical marines at its feet, not at the Assault marines that would wound it (the two
    expected the same models destroyed): greedy against greedy, 115 of 200 won as Traitors, 129 of 200 firing at
    the Assault marines. The search found that attack often enough by itself: with this worth it won 65 of 100 as
    Traitors against greedy, 66 without (issue 23 §5); it is kept as the search's first guess, which costs no
    playouts."""
    if not isinstance(option, Fire):
        return 0.0
    worth = expected_damage(state, det, option)
    target = state.detachment(option.target)
    live = target.live
    touched = touching(state)
    ours = [d for d in state.detachments_of(det.owner) if d.on_battlefield]
    held = 0.0
    for m in live:
        if not touched.get(m.id):
            continue
        bonus = m.caf + (1 if target.charged_and_moved else 0)
        held += max((float(fight_result(2, 2, bonus - o.caf - (1 if d.charged_and_moved else 0)).probabilities().get("a", 0))
                     for d in ours if d.id in touched[m.id] for o in d.live if in_base_contact(m, o)), default=0.0)
    if held == 0.0:
        return worth
    return worth + expected_destroyed(state, det, option) * held / len(live)
