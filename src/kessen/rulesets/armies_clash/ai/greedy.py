"""The greedy AI for armies-clash (``--ai greedy``): it weighs attacks and spells with the exact odds of the ``attack``
and ``save`` procedures, closes on the enemy in good order (a piece that must walk to strike walks the way around
deep water, ``paths``) and otherwise plays the default policy."""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.dice import Dist
from kessen.rulesets.armies_clash.ai.paths import gap_in, walking_gap, walking_gaps
from kessen.rulesets.armies_clash.referee.attack import attack_dist, attack_plan, routines
from kessen.rulesets.armies_clash.referee.options import (
    AttackWith,
    Benefit,
    Cast,
    CastArea,
    Declare,
    NoAction,
    Stay,
    Support,
)
from kessen.rulesets.armies_clash.referee.pieces import goals, kind_of, piece_footprint, routed_piece, spell_of, stats
from kessen.rulesets.armies_clash.referee.spells import area_squares, area_targets
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.referee.steps import ForcedMove
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, AttackTotals
from kessen.rulesets.armies_clash.rules.damage import SoloHits, damage_roll
from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
from kessen.rulesets.armies_clash.rules.grid import (
    Footprint,
    GoalDistances,
    Grid,
    Square,
    anchors_within,
    goal_distances,
    reach_squares,
)
from kessen.rulesets.armies_clash.rules.movement import Destination, movement_budget, speed_squares
from kessen.rulesets.armies_clash.scenario import Creature

TYPICAL_AC = 14
"""The AC a piece's attacks are weighed against when it chooses between closing to melee and keeping to range."""


def expected_damage(state: AcState, piece: str, option: AttackWith) -> Fraction:
    """The mean damage of an attack option, from the exact ``attack`` distributions; objective squares count
    double (they are worth VP), but not from long range (AC-RANGE-2: a shot at disadvantage at the square is no
    better than one at an enemy stand as far, which also wears its unit down toward attrition VP)."""
    kind = kind_of(state, option.target)
    total = Fraction(0)
    turn = state.turn
    supported = turn is not None and piece in turn.supported
    plan = attack_plan(state, piece, option.using, kind, option.target, supported=supported)
    dist = attack_dist(plan)
    total += _mean_of(dist)
    if kind == "objective" and isinstance(plan, AttackQuestion) and not any(r.long_range for r in plan.rolls):
        total *= 2
    elif kind == "stand":
        stand = state.stand(option.target)
        if stand is not None and stand.hp == 0:
            total /= 2  # a casualty only passes damage on
    return total


def _mean_of(dist: Dist[AttackTotals] | Dist[SoloHits]) -> Fraction:
    """The exact mean damage of an action's distribution, counted in integers once per distribution and kept with
    it (the engine's distributions are cached, and the same attack is weighed again and again)."""
    return dist.kept(_mean_damage_of)


def _mean_damage_of(dist: Dist[Any]) -> Fraction:
    return Fraction(sum(o.damage * w for o, w in dist.items()), dist.total)


@functools.lru_cache(maxsize=256)
def mean_damage(text: str | None) -> Fraction:
    """The exact mean of a damage roll written as dice (``8d6``), 0 for none."""
    if text is None:
        return Fraction(0)
    dist = damage_roll(parse_dice(text))
    return sum((p * v for v, p in dist.probabilities().items()), Fraction(0))


def spell_value(state: AcState, piece: str, option: Cast | CastArea) -> Fraction:
    """What a spell is worth: its mean damage on each enemy it reaches, less twice that on each friend."""
    sp = spell_of(state, piece, option.spell)
    mean = mean_damage(sp.damage)
    side = state.side_of(piece)
    if isinstance(option, Cast):
        return mean
    value = Fraction(0)
    for kind, target, partial in area_targets(state, piece, area_squares(state, piece, option)):
        share = Fraction(1, 2) if partial else Fraction(1)
        if kind == "objective":
            value += 2 * mean
        elif state.side_of(target) == side:
            value -= 2 * share * mean
        else:
            value += share * mean
    return value


def cohesive_anchors(state: AcState, piece: str, size: int) -> frozenset[tuple[int, int]] | None:
    """The anchors where a footprint of side *size* keeps the stand *piece* within its unit's spacing of another of
    its unit's stands as they stand now (adjacent in a regiment, 2 squares in a skirmisher unit: AC-INTEG-2,
    AC-INTEG-3); None for a piece with no such mate (a solo, a unit's last stand)."""
    stand = state.stand(piece)
    mates = [m.footprint for m in state.unit_stands(stand.unit) if m.id != piece] if stand else []
    if not mates:
        return None
    assert stand is not None
    spacing = 1 if state.unit(stand.unit).type == "regiment" else 2
    return frozenset(anchor for m in mates for anchor in anchors_within(m, size, spacing))


def _routine_worth(creature: Creature, kind: str) -> Fraction:
    """The mean damage of *creature*'s best routine of *kind* (melee or ranged) against a middling AC, from the dice
    and the attack bonus (a natural 20 always hits, a 1 always misses: AC-D20-3), 0 with none."""
    best = Fraction(0)
    for _label, records in routines(creature):
        if any(r.kind != kind for r in records):
            continue
        total = Fraction(0)
        for r in records:
            chance = Fraction(min(19, max(1, 21 + r.attack_bonus - TYPICAL_AC)), 20)
            total += chance * mean_damage(r.damage)
        best = max(best, total)
    return best


@functools.lru_cache(maxsize=64)
def closes_to_melee(creature: Creature) -> bool:
    """Whether *creature* strikes harder in melee than at range (an orc's greataxe, 1d12+3, against its javelin,
    1d6+3): such a piece closes to strike in melee, and throws only while it cannot (issue 23 §2)."""
    melee = _routine_worth(creature, "melee")
    return melee > 0 and melee > _routine_worth(creature, "ranged")


def walks_to_strike(state: AcState, piece: str) -> bool:
    """Whether *piece* must (or would rather) walk next to its goals to strike: no ranged attack or spell, or a melee
    stronger than its ranged attacks (``closes_to_melee``); such a piece is judged by its walking distance round the
    terrain (``paths``)."""
    return AcAI.reach(state, piece) == 1 or (not stats(state, piece).spells and closes_to_melee(stats(state, piece)))


def wet(state: AcState, end: Footprint) -> bool:
    """Whether a footprint stands in shallow water (AC-TERR-4: difficult, and a ford is where the enemy waits): of
    two ends as good, greedy takes the dry one."""
    shallow = _shallow(state.grid)
    return bool(shallow) and any(sq in shallow for sq in end.squares())


@functools.lru_cache(maxsize=16)
def _shallow(grid: Grid) -> frozenset[Square]:
    """The grid's shallow-water squares, found once per grid."""
    squares = ((x, y) for x in range(grid.width) for y in range(grid.height))
    return frozenset(sq for sq in squares if grid.at(sq).kind == "shallow_water")


def _gap(state: AcState, piece: str, aims: GoalDistances, targets: tuple[Footprint, ...], *, walker: bool) -> int:
    """How far *piece* stands from striking its nearest goal: the straight distance, or for a piece that must walk
    into melee to strike, the walking distance around the terrain (``paths``)."""
    here = piece_footprint(state, piece)
    if not walker:
        return aims.to(here)
    return walking_gap(state.grid, here, stats(state, piece).swim_ft > 0, targets)


class AcAI:
    """Declares Attack (or Cast a Spell when its casters can), Dashes when nothing is in reach, incites, rallies,
    moves each piece to fighting distance of the nearest enemy or objective while keeping its unit together, picks
    the attack or spell with the best expected damage, and pushes an enemy off the field when it can."""

    def __init__(self, side: str) -> None:
        self.side = side

    def decide(self, state: AcState, decision: Decision) -> Any:
        options = decision.options
        if decision.kind == "action":
            return self._action(state, options)
        if decision.kind == "benefit":
            unit = state.unit(state.turn.actor) if state.turn else None
            return Benefit("prepare") if unit is not None and unit.formation == "defensive" else Benefit("incite")
        if decision.kind == "move" and state.turn is not None and not routed_piece(state, state.turn.piece):
            return self._move(state, options)
        if decision.kind == "act":
            return self._act(state, options)
        if decision.kind == "push":
            return self._push(state, options)
        return options[0]

    @staticmethod
    def _push(state: AcState, options: tuple[Any, ...]) -> Any:
        """Push the enemy off the field where the push can (it flees, AC-MOVE-5), else straight away as far as it
        goes (the default)."""
        step = state.pending[0]
        assert isinstance(step, ForcedMove), step
        size = piece_footprint(state, step.piece).size
        flights = [o for o in options if not all(state.grid.on_grid(sq) for sq in Footprint(o.x, o.y, size).squares())]
        return flights[0] if flights else options[0]

    def _action(self, state: AcState, options: tuple[Any, ...]) -> Any:
        turn = state.turn
        assert turn is not None
        names = {o.action: o for o in options if isinstance(o, Declare)}
        pieces = [turn.actor] if turn.solo else [s.id for s in state.unit_stands(turn.actor)]
        side = state.side_of(pieces[0])
        targets = goals(state, side)
        aims = goal_distances(state.grid.width, state.grid.height, targets)
        reaches = [self.reach(state, p) for p in pieces]
        gap = min(_gap(state, p, aims, targets, walker=walks_to_strike(state, p)) for p in pieces)
        reach = max(reaches, default=1)
        speed = max(speed_squares(stats(state, p).speed_ft) for p in pieces)
        if "configure" in names and not turn.solo and state.unit(turn.actor).formation == "defensive":
            for o in options:
                if isinstance(o, Declare) and o.formation == ("support" if gap <= speed + 1 else "march"):
                    return o
        if gap > speed + reach and "dash" in names:
            return names["dash"]
        if "cast" in names:
            return names["cast"]
        if "attack" in names:
            return names["attack"]
        return names.get("dash", options[0])

    @staticmethod
    def reach(state: AcState, piece: str) -> int:
        """How far *piece* strikes, in squares: its longest ranged attack or spell, 1 for melee alone."""
        creature = stats(state, piece)
        reaches = [1] + [reach_squares(a.range_ft or 5) for a in creature.attacks if a.kind == "ranged"]
        reaches += [reach_squares(s.range_ft) for s in creature.spells if s.range_ft != "self"]
        return max(reaches)

    def _move(self, state: AcState, options: tuple[Any, ...]) -> Any:
        turn = state.turn
        assert turn is not None
        piece = turn.piece
        side = state.side_of(piece)
        aims = goal_distances(state.grid.width, state.grid.height, goals(state, side))
        creature = stats(state, piece)
        walker = walks_to_strike(state, piece)  # it walks to strike: around the river, not toward it
        ranged = max((reach_squares(a.range_ft or 5) for a in creature.attacks if a.kind == "ranged"), default=0)
        want_low, want_high = (2, ranged) if ranged >= 2 and not walker else (1, 1)
        if turn.doing == "dash":  # no strike this turn: only as near as next turn's move strikes from (issue 23 §2)
            stand = state.stand(piece)
            regiment = stand is not None and state.unit(stand.unit).type == "regiment"
            formation = turn.formation if regiment else None
            budget = movement_budget(speed_squares(creature.speed_ft), formation=formation, dash=False)
            want_low = want_high = budget + want_high
        here = piece_footprint(state, piece)
        size = here.size
        swimmer = creature.swim_ft > 0
        close = cohesive_anchors(state, piece, size)

        targets = goals(state, side)
        paths = walking_gaps(state.grid, size, swimmer, targets) if walker else None

        def score(option: Any) -> tuple[int, int, int, int, int, int]:
            if isinstance(option, Stay):
                x, y, cost = here.x, here.y, 0
            else:
                assert isinstance(option, Destination)
                if option.kind != "move":  # never flee the field or join on its own accord, however far the enemy
                    return (1, 0, 0, 0, 0, 0)
                x, y, cost = option.x, option.y, option.cost
            end = Footprint(x, y, size)
            gap = gap_in(paths, end, targets) if paths is not None else aims.at(x, y, size)
            off = 0 if want_low <= gap <= want_high else (want_low - gap if gap < want_low else gap - want_high)
            loose = int(close is not None and (x, y) not in close)
            return (0, off, loose, int(wet(state, end)), gap, cost)

        return min(options, key=score)

    def _act(self, state: AcState, options: tuple[Any, ...]) -> Any:
        turn = state.turn
        assert turn is not None
        piece = turn.piece
        best: Any = None
        best_value = Fraction(0)
        for o in options:
            if isinstance(o, AttackWith):
                value = expected_damage(state, piece, o)
            elif isinstance(o, (Cast, CastArea)):
                value = spell_value(state, piece, o)
            else:
                continue
            if value > best_value:
                best, best_value = o, value
        if best is not None:
            return best
        supports = [o for o in options if isinstance(o, Support)]
        return supports[0] if supports else NoAction()
