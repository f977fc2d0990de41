"""What the search AI knows of armies-clash (``kessen.core.tactics.Tactics``): which decisions are worth searching,
which of a move's many ends are worth weighing, and what a position is worth (``evaluation``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from kessen.ai.search import Budget
from kessen.core.decisions import Decider
from kessen.core.engine import Decision
from kessen.rulesets.armies_clash.ai.evaluation import worth
from kessen.rulesets.armies_clash.ai.greedy import AcAI, cohesive_anchors, expected_damage, spell_value
from kessen.rulesets.armies_clash.ai.area import area_harm
from kessen.rulesets.armies_clash.ai.paths import gap_in, walking_gaps
from kessen.rulesets.armies_clash.ai.shelter import after_action, caster, safest_end, sheltered, sheltering_ends
from kessen.rulesets.armies_clash.referee.options import AttackWith, Benefit, Cast, CastArea, NoAction
from kessen.rulesets.armies_clash.referee.pieces import goals, piece_footprint, stats
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.rules.grid import Footprint, goal_distances
from kessen.rulesets.armies_clash.rules.movement import Destination

SEARCHED = frozenset({"action", "move", "act", "benefit"})
"""The decisions whose options are weighed against each other: a unit's battle action, where each piece moves, what
it attacks or casts, and the commander's benefit. The others (which stand activates next, where a pushed enemy goes,
overflow and shifts, rallying) are played as the greedy AI plays them."""


def distinct_ends(state: AcState, options: Sequence[Any]) -> list[Any]:
    """A move's ends worth weighing: for each distance the piece may end from its nearest goal (enemy or objective;
    for a piece that must walk to strike, the walking distance around deep water, as greedy reckons it, ``paths``),
    one end that keeps the piece within its unit's spacing (AC-INTEG-2, AC-INTEG-3: an isolated stand is struck
    with advantage for double damage) and one that does not, in cover (AC-TERR-3) where one is, else the cheapest.
    The ends that keep the unit together come first, nearest first; the many ends at one distance differ little."""
    turn = state.turn
    if turn is None:
        return list(options)
    piece = turn.piece
    side = state.side_of(piece)
    targets = goals(state, side)
    here = piece_footprint(state, piece)
    size = here.size
    walker = AcAI.reach(state, piece) == 1
    paths = walking_gaps(state.grid, size, stats(state, piece).swim_ft > 0, targets) if walker else None
    aims = goal_distances(state.grid.width, state.grid.height, targets)
    close = cohesive_anchors(state, piece, size)
    best: dict[tuple[int, int], tuple[tuple[bool, int], Destination]] = {}
    for o in options:
        if isinstance(o, Destination) and o.kind == "move":
            end = Footprint(o.x, o.y, size)
            gap = gap_in(paths, end, targets) if paths is not None else aims.at(o.x, o.y, size)
            loose = int(close is not None and (o.x, o.y) not in close)
            rank = (not any(state.grid.at(sq).kind == "forest" for sq in end.squares()), o.cost)
            found = best.get((loose, gap))
            if found is None or rank < found[0]:
                best[(loose, gap)] = (rank, o)
    return [best[key][1] for key in sorted(best)]


def distinct_acts(state: AcState, options: Sequence[Any]) -> list[Any]:
    """A piece's acts worth weighing against each other, in the order given, each once: of the attacks with the
    same routine, as likely to do as much, on stands of one unit with as many HP (AC-ATTACK-1: an orc regiment's
    three unhurt stands), only the first, as the playouts could tell them apart only by the dice; of the routines
    on one target only the one that does most (a captain's multiattack, not one longsword of it; a pike, not a
    crossbow shot at disadvantage in contact, AC-D20-8); no action (AC-ACT-1) only where no attack or spell would
    do anything (it gains nothing over striking)."""
    turn = state.turn
    seen: set[Any] = set()
    kept: list[Any] = []
    useful = turn is not None and any(_act_value(state, o) > 0 for o in options)
    damage: dict[Any, Fraction] = {}
    most: dict[str, Fraction] = {}
    for strike in options:
        if isinstance(strike, AttackWith) and turn is not None:
            d = damage[strike] = expected_damage(state, turn.piece, strike)
            most[strike.target] = max(d, most.get(strike.target, d))
    for o in options:
        key: Any = o
        if isinstance(o, NoAction) and useful:
            continue
        if isinstance(o, AttackWith) and o in damage:
            if damage[o] < most[o.target] and kept:
                continue
            stand = state.stand(o.target)
            if stand is not None:
                key = (stand.unit, stand.hp, o.using, damage[o])
        if key not in seen:
            seen.add(key)
            kept.append(o)
    return kept


def ranked_acts(state: AcState, options: Sequence[Any]) -> list[Any]:
    """A piece's acts by what they do, best first, with the best of each kind (an attack, a targeted spell, an area
    spell) ahead of the rest: the area spell's many aims would otherwise fill the candidates, and a spell of few uses
    kept for a better aim (AC-SPELL-1) is the choice to weigh against it."""
    ranked = sorted(options, key=lambda o: -_act_value(state, o))
    heads: list[Any] = []
    for kind in (CastArea, Cast, AttackWith):
        found = next((o for o in ranked if isinstance(o, kind)), None)
        if found is not None:
            heads.append(found)
    heads.sort(key=lambda o: -_act_value(state, o))
    return heads + [o for o in ranked if o not in heads]


WEAK_ACT = 0.25
"""An act that does less than this share of the best act's mean damage is not weighed: the playouts of a few dozen
decisions tell it from the best only by the dice (a crossbow shot at disadvantage, 1.1 HP, beside a pike's 6.4)."""


def worth_weighing(state: AcState, ranked: list[Any]) -> list[Any]:
    """The acts of *ranked* (best first) but the attacks and spells that do less than ``WEAK_ACT`` of the best one's
    mean damage (a Support, AC-ATTACK-6, is kept: it does its damage through another stand)."""
    best = _act_value(state, ranked[0]) if ranked else 0.0
    if best <= 0:
        return ranked
    strikes = (AttackWith, Cast, CastArea)
    return [o for o in ranked if not isinstance(o, strikes) or _act_value(state, o) >= WEAK_ACT * best]


def worth_benefits(options: Sequence[Any]) -> list[Any]:
    """A commander's bonus actions worth weighing (AC-CMD-1..3): Incite and Prepare where it can use them (either
    only helps: no benefit, "none", is weighed only where neither can be used), and never giving the post up."""
    kept = [o for o in options if not (isinstance(o, Benefit) and o.name == "resign")]
    if any(isinstance(o, Benefit) and o.name in ("incite", "prepare") for o in kept):
        kept = [o for o in kept if not (isinstance(o, Benefit) and o.name == "none")]
    return kept


class AcTactics:
    """Greedy's choice first; then, at a searched decision, the other options: at a move one end per distance from
    the nearest goal, at an attack or a spell the others by their expected damage from the exact odds. A caster
    solo's move starts from its safest end instead, and it and the stand that alone shelters it weigh only ends
    that keep it sheltered (``guarded``)."""

    budget = Budget(nodes=800, width=4, horizon=16, settle=16)
    """The search's default budget here: what one core searches in about 0.1 s compiled (issue 23 §2). Playouts of
    16 decisions (a unit's turn is about 7: its action, then each stand's move and attack) settled at the side's next
    decision of the kind weighed, so that each candidate is judged after the enemy has answered it; on the two-fords
    mirror 400 nodes over 8 decisions won 47% of 38 decided battles against greedy, 1,200 over 20 settled 64% of 39
    (issue 23 §5). 900 rather than 1,000 since the searched median of hold-the-bridge's b seat was 112 ms with
    1,000, and 800 since hold-the-bridge's a seat and goblin-horde's b seat were still at 103–105 ms with 900, on the
    same battles as strong (benchmarks/README.md, issue 23's armies-clash log)."""

    def greedy(self, side: str) -> Decider:
        return AcAI(side)

    def candidates(self, state: AcState, decision: Decision, limit: int) -> Sequence[Any]:
        first = AcAI(decision.player).decide(state, decision)
        if decision.kind not in SEARCHED or limit <= 1:
            return [first]
        options: list[Any] = list(decision.options)
        if decision.kind == "move" and decision.player == state.side_of(decision.actor):
            options = distinct_ends(state, options) + [o for o in options if not isinstance(o, Destination)]
            first, options = guarded(state, decision, first, options)
        elif decision.kind == "benefit":
            options = worth_benefits(options)
        elif decision.kind == "act":
            return distinct_acts(state, [first, *worth_weighing(state, ranked_acts(state, options))])[:limit]
        rest = [o for o in options if o != first]
        return [first, *rest][:limit]

    def evaluate(self, state: AcState, side: str) -> float:
        return worth(state, side)


def guarded(state: AcState, decision: Decision, first: Any, options: list[Any]) -> tuple[Any, list[Any]]:
    """A move's first candidate and rivals with a caster solo kept sheltered (``shelter``): the caster's own move
    starts from its safest end and weighs only ends within 2 squares of a friendly stand; a stand that alone
    shelters it weighs only the ends that go on doing so, greedy's choice among them first."""
    piece = decision.actor or ""
    if caster(state, piece) is not None:
        safe = safest_end(state, piece, decision.options, second=after_action(state))
        if safe is None:
            return first, options
        rivals = [first, *[o for o in options if o != first]]
        return safe, [o for o in rivals if o != safe and sheltered(state, piece, o)]
    kept = sheltering_ends(state, piece, decision.options)
    if kept is None:
        return first, options
    first = AcAI(decision.player).decide(state, replace(decision, options=tuple(kept)))
    return first, [o for o in options if o in kept]


def _act_value(state: AcState, option: Any) -> float:
    turn = state.turn
    if turn is None:
        return 0.0
    if isinstance(option, AttackWith):
        return float(expected_damage(state, turn.piece, option))
    if isinstance(option, CastArea):
        return area_harm(state, turn.piece, option)
    if isinstance(option, Cast):
        return float(spell_value(state, turn.piece, option))
    return 0.0
