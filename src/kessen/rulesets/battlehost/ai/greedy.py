"""An AI for battlehost that weighs its choices with the exact odds of the ruleset's procedures.

What it does, as a player would: a model at a choke point (a doorway, a gap in a wall) holds it; a
shooter with a target stays still and shoots the target it is likeliest to slay; a charge is made when
the exact odds of the fight it would start, counting the enemies that could still pile in,
are good enough; a two-handed weapon is used when it pays; Might is spent where its exact worth in
wounds beats what a point is worth kept. Every other choice is the default policy (the first option).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.core.geometry import Point, beyond, segment_distance
from kessen.core.records import evolve
from kessen.dice import Dist
from kessen.rulesets.battlehost.referee.battlefield import (
    EPS,
    Board,
    Local,
    Model,
    arrangement,
    distance,
    enemies_in_contact,
    engaged_ids,
    first_blocker,
    ground_blocks_at,
    is_engaged,
)
from kessen.rulesets.battlehost.referee import duel as referee_duel
from kessen.rulesets.battlehost.referee.backing_away import BACK_AWAY, MAKE_WAY_LIMIT, retreat
from kessen.rulesets.battlehost.referee.moves import sidesteps, ways_round
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee import shooting as referee_shooting
from kessen.rulesets.battlehost.referee import state as st
from kessen.rulesets.battlehost.referee.steps import DecisionKind
from kessen.rulesets.battlehost.rules.fight import Fighter, FightOutcome, WholeFight, fight
from kessen.rulesets.battlehost.rules.might import later_dice_chance
from kessen.rulesets.battlehost.rules.sides import SIDES, Side, other_side, side_named
from kessen.rulesets.battlehost.rules.wounding import wound_chance, wound_chart

# A charge is made unless its exact expected exchange of wounds is worse than this (by a side not ahead).
CHARGE_THRESHOLD = Fraction(-1, 2)
# A side ahead on casualties charges only where it expects to gain at least this many of its own models' worth (a
# share of the battle, :func:`wound_share`): an even fight is a coin toss that can only lose it its lead (BH-TURN-3;
# issue 23 §5: search against random lost battles it led in lone charges at even enemies).
CHARGE_MARGIN = Fraction(1, 10)
# What a point of Might kept for later duels is worth, in wounds: spend it only for more.
MIGHT_POINT = Fraction(1, 4)
# A model holds where at most this many enemies can reach it at once, if more are coming.
CHOKE_SLOTS = 2
SLOT_ANGLES = 24  # contact positions tried around a model, 15° apart
MOST_IN_A_FIGHT = 6  # the most models of a side a charge's worth counts in one fight


def fighter(m: Model, *, two_handed: bool = False, trapped: bool = False) -> Fighter:
    """A model as the fight rule sees it (BH-PROC-5)."""
    return Fighter(m.fight, m.attacks, m.strength, m.defence, m.wounds_left, two_handed, prone=m.prone, trapped=trapped)


def _fight_odds(mine: Sequence[Fighter], theirs: Sequence[Fighter], side: str) -> Dist[FightOutcome]:
    """The exact odds of the fight these models would make, from the fight rule (BH-PROC-5).

    The engine's fights have no limit on the models of a side (a monster on a large base may have a dozen foes),
    so the rule is asked directly, without the odds input's 1–8 a side.
    """
    if len(mine) > 1 and len(theirs) > 1:
        theirs = theirs[:1]
    good, evil = (mine, theirs) if side == "good" else (theirs, mine)
    return st.cached_dist(fight, WholeFight(tuple(good), tuple(evil)))


def exchange(
    mine: Sequence[Fighter], theirs: Sequence[Fighter], side: str, dealt: Fraction = Fraction(1), suffered: Fraction = Fraction(1),
) -> Fraction:
    """Expected wounds inflicted less wounds suffered in one fight, from the exact fight odds (BH-PROC-5): summed in
    the distribution's integer weights, over their total; with *dealt* and *suffered*, each wound weighed by what it
    is worth (see :func:`wound_share`)."""
    dist = _fight_odds(mine, theirs, side)
    return sum((w * o.wounds * (dealt if o.winner == side else -suffered) for o, w in dist.items()), Fraction(0)) / dist.total


def wound_share(state: st.BhState, models: Sequence[Model]) -> Fraction:
    """What a wound to one of *models* (of one side) is worth on average, as a share of that side's starting models:
    the battle is won on the fractions lost (BH-TURN-3), so a wound to a two-Wound troll that is its side's only model
    is worth half the battle, a wound to one of ten warriors a tenth (issue 23 §5)."""
    start = state.start[SIDES.index(models[0].side)]
    return sum((Fraction(1, start * m.wounds) for m in models), Fraction(0)) / len(models)


def duel_stakes(mine: Sequence[Fighter], theirs: Sequence[Fighter], side: str) -> Fraction:
    """What winning the duel is worth against losing it: expected wounds dealt if the side wins plus expected
    wounds suffered if it loses, from the exact fight odds (BH-PROC-5), each the winner's weight of wounds over its
    weight of winning."""
    won: dict[str, int] = {"good": 0, "evil": 0}
    wounds: dict[str, int] = {"good": 0, "evil": 0}
    for o, w in _fight_odds(mine, theirs, side).items():
        won[o.winner] += w
        wounds[o.winner] += w * o.wounds
    return sum((Fraction(wounds[s], won[s]) for s in won if won[s]), Fraction(0))


_SLOT_DIRECTIONS = tuple(Point(1.0, 0.0).rotated(k * 360 / SLOT_ANGLES) for k in range(SLOT_ANGLES))


def open_contact_slots(models: tuple[Model, ...], board: Board, m: Model, at: Point, engaged: frozenset[str]) -> int:
    """How many enemies could stand in base contact with *m* standing at *at*, each coming straight from where it is:
    contact positions around *at*, packed greedily, on the board, clear of terrain, friends and each other, that
    some enemy within two moves can reach without passing through *m* or its friends (BH-GEO-2, BH-GEO-5, BH-GEO-7).
    *engaged* holds the ids of every model of *models* in base contact with an enemy. The model of *m*'s id in
    *models*, wherever it stands, counts as neither friend nor enemy.

    A model surely out of reach (its square distance, :func:`beyond`) is passed over without measuring it, and the
    paths of the enemies coming are tested only against the friends near enough to stand in one (issue 26)."""
    enemies = [e for e in models if e.side != m.side and e.id not in engaged]
    friends = [f for f in models if f.side == m.side and f.id != m.id]
    placed: list[tuple[float, float]] = []
    for e_r in sorted({e.r for e in enemies})[:1]:
        ring = m.r + e_r  # the slots' distance from *at*
        # only these can stand in a slot's way, or reach one (within two moves of it): the others are too far
        crowding = [f for f in friends if beyond(at.x - f.x, at.y - f.y, ring + f.r + e_r) <= 0
                    and math.hypot(at.x - f.x, at.y - f.y) < ring + f.r + e_r]
        coming = [e for e in enemies if beyond(at.x - e.x, at.y - e.y, 2 * e.move + m.r + e.r + ring + 1e-9) <= 0
                  and math.hypot(at.x - e.x, at.y - e.y) <= 2 * e.move + m.r + e.r + ring + 1e-9]
        # a coming enemy's path runs from within this reach of *at* to a slot; a friend in its way comes within EPS
        # of it, edge to edge
        span = max((2 * e.move + m.r + 2 * e.r + ring + EPS + 1e-6 for e in coming), default=0.0)
        in_the_way = [f for f in friends if beyond(at.x - f.x, at.y - f.y, span + f.r) <= 0]
        for u in _SLOT_DIRECTIONS:
            x, y = at.x + u.x * ring, at.y + u.y * ring
            if not board.on_board_at(x, y, e_r) or board.overlaps_terrain_at(x, y, e_r):
                continue
            if any(math.hypot(x - f.x, y - f.y) < f.r + e_r - 0.01 for f in crowding):
                continue
            if any(math.hypot(x - qx, y - qy) < 2 * e_r - 0.01 for qx, qy in placed):
                continue
            if any(_can_come(board, e, x, y, m, at, in_the_way) for e in coming):
                placed.append((x, y))
    return len(placed)


def _can_come(board: Board, e: Model, x: float, y: float, m: Model, at: Point, friends: list[Model]) -> bool:
    if math.hypot(x - e.x, y - e.y) > 2 * e.move + m.r + e.r:
        return False
    if segment_distance(e.x, e.y, x, y, at.x, at.y) < m.r + e.r - 0.05:
        return False  # it would have to pass through the model
    return not ground_blocks_at(e.r, e.x, e.y, x, y, board) and first_blocker(e, x, y, friends) is None


def engaged_ids_after_move(models: tuple[Model, ...], moved: Model) -> frozenset[str]:
    """:func:`engaged_ids` of *models* with the model of *moved*'s id standing as *moved*. A mover is engaged with no
    one before it moves (BH-MOVE-6), so the contacts are the same but its own with the enemies it now touches
    (BH-GEO-3); any other move is judged afresh."""
    before = engaged_ids(models)
    if moved.id in before:
        return engaged_ids(tuple(moved if x.id == moved.id else x for x in models))
    touching = enemies_in_contact(models, moved)
    return before | {moved.id, *(e.id for e in touching)} if touching else before


def within_two_moves(state: st.BhState, m: Model, *, enemies: bool) -> int:
    """Enemies (or friends, *m* included) not engaged that could reach *m* within two moves: a model surely farther
    (its square distance, :func:`beyond`) is passed over without measuring it (issue 26)."""
    engaged = engaged_ids(state.models)
    return sum(
        1 for x in state.models
        if (x.side != m.side) == enemies and x.id not in engaged
        and beyond(x.x - m.x, x.y - m.y, 2 * x.move + m.r + x.r) <= 0 and distance(x, m) <= 2 * x.move
    )


def behind(state: st.BhState, side: str) -> bool:
    """*side* has lost the greater fraction of its starting models: as things stand it loses the battle (BH-TURN-3)."""
    lost = [0, 0]
    for _model, s in state.casualties:
        lost[SIDES.index(s)] += 1
    mine = SIDES.index(side)
    return lost[mine] * state.start[1 - mine] > lost[1 - mine] * state.start[mine]


def holds_choke_point(state: st.BhState, m: Model) -> bool:
    """An outnumbered model holds a choke point: a spot where at most CHOKE_SLOTS enemies can reach it at once,
    fewer than are coming; the side with more models near attacks instead, and so does a side that is behind on
    casualties, since holding cannot win it the battle (BH-TURN-3; issue 23 §5: a band that had lost a model stood
    at a wall for nine turns while the enemy picked off its flank).

    Kept from one table to the next while nothing changes within its reach and the smallest free enemy base is the
    same (:data:`_HOLDS`, issue 26)."""
    if behind(state, m.side):
        return False
    known = arrangement(state.models)
    smallest = known.smallest_free_enemy(m.side)
    kept = _HOLDS.get(state.models, m, state.board)
    if kept is not None and kept[0] == smallest:
        return kept[1]
    holds = _holds(state, m)
    _HOLDS.put(state.models, m, state.board, 2 * known.fastest() + 2 * m.r + 4 * known.widest() + 0.1, (smallest, holds))
    return holds


def _holds(state: st.BhState, m: Model) -> bool:
    """:func:`holds_choke_point` of a side not behind, worked out."""
    coming = within_two_moves(state, m, enemies=True)
    if coming <= within_two_moves(state, m, enemies=False):
        return False
    return open_contact_slots(state.models, state.board, m, m.centre, engaged_ids(state.models)) <= min(CHOKE_SLOTS, coming - 1)


_HOLDS: Local[tuple[float | None, bool]] = Local()
"""Whether each model holds a choke point, with the smallest base of the enemies free to come (which sizes the contact
slots). What else it reads lies within two of the fastest moves, two of its own radii and four of the widest of its
centre (:func:`within_two_moves`; :func:`open_contact_slots`: the slots round it, the enemies that can reach one, the
friends in their way), and of those which are engaged: :class:`Local` drops it when any of that changes."""


class Wary:
    """Moves that do not end where several enemies can charge the mover before it can be helped (BH-MOVE-1: the player
    who moves first is charged by the other, who picks the fights; issue 23 §5: a warrior advanced alone into reach of
    three enemies, who charged it together). Only while the enemy moves after us this phase."""

    def __init__(self, state: st.BhState, *, enemy_moves_after: bool) -> None:
        self.state, self.enemy_moves_after = state, enemy_moves_after
        self.stay: set[str] = set()
        engaged = engaged_ids(state.models)
        self.free = [e for e in state.models if e.id not in engaged and e.id not in state.done]

    def threats(self, m: Model, x: float, y: float) -> int:
        """The enemies not engaged and not yet moved whose straight charge could reach *m* standing at (x, y); one
        surely out of reach (its square distance, :func:`beyond`) is not measured (issue 26)."""
        return sum(1 for e in self.free if e.side != m.side and beyond(e.x - x, e.y - y, e.move + 1e-9 + e.r + m.r) <= 0
                   and math.hypot(e.x - x, e.y - y) - e.r - m.r <= e.move + 1e-9)

    def staying(self, model_id: str) -> bool:
        return model_id in self.stay

    def move(self, o: op.MoveTo, options: Sequence[Any]) -> op.MoveTo | None:
        """*o* if it ends within reach of no more enemies than one, or than reach the mover where it stands; else the
        mover's other suggested move (not a charge) that does and ends nearest *o*'s end (its half advance, a way
        round); None (and the mover stays) when none does."""
        if not self.enemy_moves_after:
            return o
        m = self.state.get(o.model)
        allowed = max(1, self.threats(m, m.x, m.y))
        if self.threats(m, o.x, o.y) <= allowed:
            return o
        safe = [x for x in options if isinstance(x, op.MoveTo) and x.model == m.id and x.charge is None
                and self.threats(m, x.x, x.y) <= allowed]
        if safe:
            return min(safe, key=lambda x: (math.hypot(x.x - o.x, x.y - o.y), x.x, x.y))
        self.stay.add(m.id)
        return None


class BattlehostAI:
    """Holds choke points, keeps shooters still to shoot the likeliest kill, charges where the exact fight odds
    (with the enemies that could pile in) allow, uses a two-handed weapon when it pays and spends Might where it is
    worth more than a point kept; every other choice is the default policy (the first option)."""

    def __init__(self, side: str) -> None:
        self.side = side
        self.charge_read = 2
        """How far the last charge value read round its contact point: a place in :attr:`ChargeTable.reaches`."""

    def decide(self, state: st.BhState, decision: Decision) -> Any:
        kind: DecisionKind = decision.kind  # type: ignore[assignment]
        policy = _POLICIES.get(kind)
        return decision.options[0] if policy is None else policy(self, state, decision)

    def _is_shooter(self, m: Model) -> bool:
        return m.weapon is not None and m.shoot_value is not None

    # --- shooting ---------------------------------------------------------------------------------------------

    def _shoot(self, state: st.BhState, decision: Decision) -> Any:
        """The shot likeliest to slay, then to wound, from the exact ``shoot`` odds (BH-PROC-2)."""
        options: tuple[Any, ...] = decision.options
        shots = [o for o in options if isinstance(o, op.ShootAt)]
        if not shots:
            return next(o for o in options if isinstance(o, op.EndShooting))

        def worth(o: op.ShootAt) -> tuple[Fraction, Fraction]:
            dist = referee_shooting.shot_dist(state, o)
            return (dist.probability(lambda r: r.slain), dist.probability(lambda r: r.wounded))

        return max(shots, key=worth)

    # --- moving -------------------------------------------------------------------------------------------------

    def _charge_value(
        self, state: st.BhState, o: op.MoveTo, comrades: Sequence[Model], *, enemy_moves_after: bool,
    ) -> tuple[Fraction, Fraction]:
        """The exact exchange of the fight a charge starts: friends already on the target fight beside the charger,
        and so do the *comrades* that can charge it too this phase (they follow, each counting this charger as a
        friend on the target; issue 23 §2: riders were fed to the troll one at a time); joining a fight a friend
        already makes is worth what it adds to that fight. If the enemy moves after us, its free models near the
        charge point may pile in, as many as can reach it. Returned twice: in wounds, and with each wound weighed as
        a share of its side's starting models (:func:`wound_share`)."""
        m, target = state.get(o.model), state.get(o.charge or "")
        friends = [f for f in enemies_in_contact(state.models, target) if f.side == m.side]
        gang = [*friends, m, *comrades[: max(0, MOST_IN_A_FIGHT - len(friends) - 1)]]
        charged = m.at(Point(o.x, o.y))
        moved = tuple(charged if x.id == m.id else x for x in state.models)
        # who could not back away if it lost: the target from the models on it, the charger from the target
        # (BH-BACK-3/4: a trapped loser is struck twice, BH-STRIKE-5; issue 23 §5: charges ended against a wall)
        target_trapped = retreat(target, [*friends, charged], moved, state.board).trapped
        mine_trapped = retreat(charged, [target], moved, state.board).trapped
        us = [fighter(x, trapped=mine_trapped and x.id == m.id) for x in gang]
        self.charge_read = 0  # the target, the models on it and both back-away paths
        if friends:
            return _both(lambda d, s: exchange(us, [fighter(target, trapped=target_trapped)], self.side, d, s) - exchange(
                [fighter(x) for x in friends], [fighter(target)], self.side, d, s), state, gang, [target])
        theirs = [target]
        if not friends and enemy_moves_after:
            at = Point(o.x, o.y)
            engaged = engaged_ids(state.models)
            joiners = sorted(
                (e for e in state.models
                 if e.side != m.side and e.id != target.id and e.id not in state.done and e.id not in engaged
                 and beyond(e.x - at.x, e.y - at.y, e.move + e.r + m.r) <= 0  # surely out of reach: not measured (issue 26)
                 and (e.centre - at).length() - e.r - m.r <= e.move),
                key=lambda e: ((e.centre - at).length(), e.id),
            )
            self.charge_read = 1  # and the enemies that could join
            if joiners:
                self.charge_read = 2  # and those that could reach a slot round it within two moves
                # the table as it stands: the charger, moved or not, counts as neither friend nor enemy there
                room = open_contact_slots(state.models, state.board, charged, at, engaged_ids_after_move(state.models, charged)) - 1
                theirs += joiners[: max(0, min(room, 5))]
        if len(theirs) > 1 and len(gang) == 1:
            return _both(lambda d, s: exchange([fighter(charged, trapped=mine_trapped)], [fighter(x) for x in theirs], self.side, d, s),
                         state, [m], theirs)
        return _both(lambda d, s: exchange(us, [fighter(target, trapped=target_trapped)], self.side, d, s), state, gang, [target])

    def _move(self, state: st.BhState, decision: Decision) -> Any:
        """Hold choke points; charge the target with the best exact exchange, if it is not too poor (or, when ahead on
        casualties, if it gains); keep shooters with a target still; advance the rest (shooters by half a move, so
        that they may still shoot, BH-SHOOT-2); with nothing else to do, charge even at poor odds unless ahead
        (BH-TURN-3)."""
        options: tuple[Any, ...] = decision.options
        options = options[: options.index(op.EndMoves()) + 1]  # the moves into line after it are for people
        holding: dict[str, bool] = {}
        aiming: dict[str, bool] = {}

        def holds(model_id: str) -> bool:
            if model_id not in holding:
                holding[model_id] = holds_choke_point(state, state.get(model_id))
            return holding[model_id]

        def has_target(m: Model) -> bool:
            if m.id not in aiming:
                aiming[m.id] = referee_shooting.has_target(state, m)
            return aiming[m.id]

        def free_to_charge(o: Any) -> bool:
            if not isinstance(o, op.MoveTo) or o.charge is None:
                return False
            m = state.get(o.model)
            return not ((self._is_shooter(m) and has_target(m)) or holds(m.id))

        free = [free_to_charge(o) for o in options]
        gangs: dict[str, list[str]] = {}  # each target's chargers, in order (issue 26: not every charge for each charge)
        for o, charge in zip(options, free):
            if charge:
                gang = gangs.setdefault(o.charge, [])
                if o.model not in gang:
                    gang.append(o.model)
        best: tuple[Fraction, int] | None = None
        chosen: Any = None
        share = Fraction(0)
        table = ChargeTable(state, self.side) if gangs else None
        for i, o in enumerate(options):
            if free[i]:
                assert table is not None
                comrades = [state.get(c) for c in gangs[o.charge] if c != o.model]
                enemy_moves_after = decision.player == state.priority
                kept = table.kept(o, comrades, enemy_moves_after)
                if kept is None:
                    kept = self._charge_value(state, o, comrades, enemy_moves_after=enemy_moves_after)
                    table.keep(o, comrades, enemy_moves_after, self.charge_read, kept)
                value, worth = kept
                if best is None or (value, -i) > best:
                    best, chosen, share = (value, -i), o, worth
        # a side ahead on casualties keeps its lead: it fights only where it gains, its share of the battle counted
        # (a wound to a lone troll is worth more than a rider lost); a side level or behind must fight to win (BH-TURN-3)
        ahead = behind(state, other_side(side_named(self.side)))
        if best is not None and (share * state.start[SIDES.index(self.side)] >= CHARGE_MARGIN if ahead else best[0] >= CHARGE_THRESHOLD):
            return chosen
        wary = Wary(state, enemy_moves_after=decision.player == state.priority)
        for o in options:
            if isinstance(o, op.StandUp):
                return o
            if isinstance(o, op.MoveTo) and o.charge is None:
                m = state.get(o.model)
                if holds(m.id) or wary.staying(m.id):
                    continue
                if self._is_shooter(m):
                    if has_target(m) or is_engaged(state.models, m):
                        continue
                    chosen_move = wary.move(self._to_shoot(state, decision, m), decision.options)
                else:
                    chosen_move = wary.move(self._round_the_way(state, decision, m, o) or o, decision.options)
                if chosen_move is not None:
                    return chosen_move
        ways = [o for o in ways_round(state, side_named(decision.player)) if not holds(o.model) and not wary.staying(o.model)]
        for o in ways:
            chosen_move = wary.move(o, decision.options)
            if chosen_move is not None:
                return chosen_move  # round the wall toward the enemy (issue 23 §2: orcs stood at a wall 1" from a door)
        steps = [o for o in sidesteps(state, side_named(decision.player)) if not holds(o.model) and not wary.staying(o.model) and not (
            self._is_shooter(state.get(o.model)) and has_target(state.get(o.model)))]
        for o in steps:
            chosen_move = wary.move(o, decision.options)
            if chosen_move is not None:
                return chosen_move  # round a friend or a control zone in the way (issue 23 §5: a band stood still for turns)
        if chosen is not None and not ahead:
            return chosen  # charge even at poor odds rather than stand idle, unless ahead
        return next(o for o in options if isinstance(o, op.EndMoves))

    def _round_the_way(self, state: st.BhState, decision: Decision, m: Model, advance: op.MoveTo) -> op.MoveTo | None:
        """Of *m*'s moves round what cuts its straight *advance* short (BH-MOVE-3), the one that ends nearest the nearest
        enemy, if nearer than the advance does; else None (issue 23 §5: warriors shuffled a few tenths of an inch behind
        a friend, turn after turn)."""
        options: tuple[Any, ...] = decision.options
        listed = sidesteps(state, side_named(decision.player))
        steps = [x for x in options[options.index(op.EndMoves()) + 1:] if isinstance(x, op.MoveTo) and x.model == m.id
                 and x.charge is None and x in listed]
        nearest = arrangement(state.models).nearest_enemy(m)  # edge to edge, then by id
        if not steps or nearest is None:
            return None
        best = min(steps, key=lambda x: math.hypot(x.x - nearest.x, x.y - nearest.y))
        ahead = math.hypot(advance.x - nearest.x, advance.y - nearest.y)
        return best if math.hypot(best.x - nearest.x, best.y - nearest.y) < ahead else None

    def _to_shoot(self, state: st.BhState, decision: Decision, m: Model) -> op.MoveTo:
        """A shooter with no target: the first of its moves of at most half its Move (so that it may still shoot,
        BH-SHOOT-2) after which it has a target in sight that no model hides (BH-SHOOT-4; issue 23 §5: archers
        followed their own warriors and could not see past them), else its half advance."""
        options: tuple[Any, ...] = decision.options
        halves = [x for x in options if isinstance(x, op.MoveTo) and x.model == m.id and x.charge is None
                  and math.hypot(x.x - m.x, x.y - m.y) <= m.move / 2 + 1e-9]
        for x in halves:
            if referee_shooting.would_have_target(state, m.at(Point(x.x, x.y))):
                return x
        advances = [x for x in options[: options.index(op.EndMoves())] if isinstance(x, op.MoveTo) and x.model == m.id and x.charge is None]
        return advances[-1]  # the half move keeps it able to shoot (BH-SHOOT-2)

    # --- fighting -----------------------------------------------------------------------------------------------

    def _sides(self, state: st.BhState, side: Side, *, declared: bool = True) -> tuple[list[Fighter], list[Fighter]]:
        f = state.fighting
        assert f is not None
        mine = [fighter(m, two_handed=declared and f.uses_two_handed(m.id)) for m in st.living(state, st.side_of(f.fight, side))]
        theirs = [fighter(m, two_handed=declared and f.uses_two_handed(m.id)) for m in st.living(state, st.side_of(f.fight, other_side(side)))]
        return mine, theirs

    def _two_handed(self, state: st.BhState, decision: Decision) -> Any:
        options: tuple[Any, ...] = decision.options
        f = state.fighting
        assert f is not None
        model = state.get(options[0].model)
        mine, theirs = self._sides(state, model.side)
        index = [m.id for m in st.living(state, st.side_of(f.fight, model.side))].index(model.id)
        values = []
        for o in options:
            trial = [evolve(x, two_handed=o.use) if i == index else x for i, x in enumerate(mine)]
            values.append(exchange(trial, theirs, model.side))
        return options[max(range(len(options)), key=lambda i: (values[i], -i))]

    def _duel_might(self, state: st.BhState, decision: Decision) -> Any:
        """The points whose exact chance to win, times what the duel is worth, less the points' worth, is best (BH-DUEL-6)."""
        f = state.fighting
        assert f is not None
        side = side_named(decision.player)
        stakes = duel_stakes(*self._sides(state, side), side)

        def value(o: op.SpendMight) -> tuple[Fraction, int]:
            chance = referee_duel.chance_after_might(state, f, side, o.points)
            return (chance * stakes - o.points * MIGHT_POINT, -o.points)

        options: tuple[Any, ...] = decision.options
        return max(options, key=value)

    def _might_on_roll(self, state: st.BhState, decision: Decision) -> Any:
        """Spend on a failed die when what the success is worth in wounds (exact chances of what follows) beats the
        points' worth kept (BH-DICE-4)."""
        options: tuple[Any, ...] = decision.options
        die = state.hero_die
        assert die is not None and die.face is not None
        spend = options[0]
        if spend.points == 0:
            return spend
        if die.kind == "hit_roll":
            assert state.shooting is not None
            shooter, target = state.get(state.shooting.model), state.get(state.shooting.target)
            assert shooter.weapon is not None
            worth = wound_chance(wound_chart(shooter.weapon.strength, target.defence))
        elif die.kind == "wound_roll" and len(die.needs) > 1:
            worth = later_dice_chance(die)
        else:
            worth = Fraction(1)
        return spend if worth >= spend.points * MIGHT_POINT else next(o for o in options if o.points == 0)


ChargeReads = tuple[float, tuple[Model, ...], tuple[bool, ...], tuple[bool, ...]]
"""What a charge's value was worked out from, near its contact point: how far that reaches, the models within it (the
very objects, in order), which of them were engaged and which had moved."""

_CHARGES: dict[tuple[op.MoveTo, bool, str], tuple[int, ChargeReads, tuple[Model, ...], tuple[tuple[float, int], ...], tuple[int, int], Board, tuple[Fraction, Fraction]]] = {}
"""Each charge's value (:meth:`BattlehostAI._charge_value`) with what it was worked out from, kept from one decision to
the next: after one model moves, most charges on the table are worth what they were (issue 26)."""


class ChargeTable:
    """The charge values of one move decision that stand from an earlier decision, and those found now.

    A charge's value reads only the charger, the models within one of :attr:`reaches` of its contact point, whether
    each is engaged and has moved, the comrades that charge the same target, and of the whole table only the bases of the
    enemies free to join (the smallest among them sizes the contact slots), the board and the sides' starting models.
    A value is kept while all of these are the same (the models the very same objects): then it is worked out from
    the same numbers, and is the same. Which reach it read is itself settled by the models within the smallest: the
    target, the models on it (then it reads no farther), and the enemies that could join."""

    def __init__(self, state: st.BhState, side: str) -> None:
        self.state, self.side = state, side
        known = arrangement(state.models)
        self.engaged = known.engaged
        wide, fastest = known.widest(), known.fastest()
        # centre to centre from the contact point, with a few bases to spare: the target, the models on it, both
        # back-away paths and a friend making way (BH-BACK-1..6, BH-GEO-3); the enemies that could join the fight
        # (a move away); those that could reach a slot round it and the friends in their way (two moves away)
        back = BACK_AWAY + MAKE_WAY_LIMIT + 8 * wide + 0.1
        self.reaches = (back, max(back, fastest + 8 * wide + 0.1), max(back, 2 * fastest + 8 * wide + 0.1))
        counts: dict[float, int] = {}
        for e in state.models:
            if e.side != side and e.id not in self.engaged:
                counts[e.r] = counts.get(e.r, 0) + 1
        self.free_radii = sorted(counts.items())
        """The bases of the enemies free to join a fight (not engaged), each radius with how many have it, smallest
        first."""

    def radii_read(self, near: int) -> tuple[tuple[float, int], ...]:
        """What a charge's contact slots read of the free enemies' bases (:func:`open_contact_slots`: the smallest
        of those still free after the charge), for a charge whose *near* models (the reads) are the same: each radius
        with its count up to *near* + 1, up to the first radius more enemies have than *near*. The charge engages
        only models near its contact point, so that radius stays free whatever it engages, and the smallest free
        radius after the charge is the same wherever these are (issue 26: the whole sorted list changed whenever any
        enemy anywhere was engaged)."""
        read: list[tuple[float, int]] = []
        for r, n in self.free_radii:
            read.append((r, min(n, near + 1)))
            if n > near:
                break
        return tuple(read)

    def reads(self, o: op.MoveTo, read: int) -> ChargeReads:
        """What the value of charge *o* is worked out from within the reach *read* of its contact point."""
        state, reach = self.state, self.reaches[read]
        near = tuple(x for x in state.models if beyond(x.x - o.x, x.y - o.y, reach) <= 0)
        return (reach, near, tuple(x.id in self.engaged for x in near), tuple(x.id in state.done for x in near))

    def kept(self, o: op.MoveTo, comrades: Sequence[Model], enemy_moves_after: bool) -> tuple[Fraction, Fraction] | None:
        """The value of charge *o* kept from an earlier decision, if it still stands."""
        found = _CHARGES.get((o, enemy_moves_after, self.side))
        state = self.state
        if found is None or state.get(o.model).side != self.side:
            return None
        read, reads, gang, radii, start, board, value = found
        if board is not state.board or start != state.start or len(gang) != len(comrades) + 1 or any(
            a is not b for a, b in zip(gang, (state.get(o.model), *comrades))
        ):
            return None
        if read == 2 and radii != self.radii_read(len(reads[1])):  # only the reach of two moves sizes contact slots
            return None
        now = self.reads(o, read)
        if now[0] != reads[0] or len(now[1]) != len(reads[1]) or any(a is not b for a, b in zip(now[1], reads[1])) or now[2:] != reads[2:]:
            return None
        return value

    def keep(self, o: op.MoveTo, comrades: Sequence[Model], enemy_moves_after: bool, read: int, value: tuple[Fraction, Fraction]) -> None:
        """Keep the value of charge *o*, found now reading within the reach *read*."""
        if len(_CHARGES) > 20_000:
            _CHARGES.clear()
        state, reads = self.state, self.reads(o, read)
        radii = self.radii_read(len(reads[1])) if read == 2 else ()
        _CHARGES[(o, enemy_moves_after, self.side)] = (read, reads, (state.get(o.model), *comrades), radii, state.start, state.board, value)


def _both(worth: Callable[[Fraction, Fraction], Fraction], state: st.BhState, mine: Sequence[Model], theirs: Sequence[Model]) -> tuple[Fraction, Fraction]:
    """A fight's *worth* in wounds, and with each wound weighed as a share of its side (:func:`wound_share`)."""
    return worth(Fraction(1), Fraction(1)), worth(wound_share(state, theirs), wound_share(state, mine))


_POLICIES: dict[DecisionKind, Callable[[BattlehostAI, st.BhState, Decision], Any]] = {
    "move": BattlehostAI._move,
    "shoot": BattlehostAI._shoot,
    "two-handed": BattlehostAI._two_handed,
    "might": BattlehostAI._duel_might,
    "might on roll": BattlehostAI._might_on_roll,
}
"""The AI's policy for each kind of decision (a module table: a compiled class has no methods in its body)."""
