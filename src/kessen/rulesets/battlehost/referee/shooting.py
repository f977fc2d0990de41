"""Shoot phase in battles: who may shoot, at whom, and what a shot does (BH-SHOOT-1..9).

The odds of a shot are the shoot rule's (rules/shooting.py); a Hero with Might left rolls its shot die
by die instead (might.py).
"""

from __future__ import annotations

from functools import partial

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.dice import Dist
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.battlefield import Local, Model, arrangement, distance, hidden_targets, is_engaged, terrain_blocks_sight
from kessen.rulesets.battlehost.referee.options import EndShooting, ShootAt, ShootOption
from kessen.rulesets.battlehost.referee.state import BhState, cached_dist, then, wound
from kessen.rulesets.battlehost.referee.steps import HeroRoll, ShootPhase, ShootStep, ShotRoll, ask
from kessen.rulesets.battlehost.rules.might import hit_die, rolls_die_by_die
from kessen.rulesets.battlehost.rules.shooting import ShootOutcome, Shot, hit_roll_needed, shoot, shot_faces
from kessen.rulesets.battlehost.rules.wounding import wound_chart
from kessen.rulesets.battlehost.rules.sides import Side


def may_shoot(state: BhState, m: Model) -> bool:
    """A missile weapon (and a Shoot value), not moved more than half its Mv, not engaged, not yet shot, not prone (BH-SHOOT-2, BH-SHOOT-3).

    [DECISION] A prone model does not shoot (the published game's lying-down models cannot).
    """
    return (
        m.weapon is not None
        and m.shoot_value is not None
        and not m.prone
        and m.id not in state.shot
        and state.moved_inches(m.id) <= m.move / 2 + 1e-9
        and not is_engaged(state.models, m)
    )


def in_range(shooter: Model, target: Model) -> bool:
    """An enemy within the weapon's range, edge to edge (BH-SHOOT-4, BH-SHOOT-10)."""
    assert shooter.weapon is not None
    return target.side != shooter.side and distance(shooter, target) <= shooter.weapon.range_inches + 1e-9


def may_target(state: BhState, shooter: Model, target: Model) -> bool:
    """An enemy in range, in sight, and partly hidden by no other model (BH-SHOOT-4, BH-GEO-8)."""
    return target in targets(state, shooter)


def targets(state: BhState, shooter: Model) -> tuple[Model, ...]:
    """The enemies *shooter* may choose, nearest first (BH-SHOOT-4); kept for the arrangement of the table, since a
    Move phase asks of every shooter after each move and a Shoot phase after each shot."""
    kept = _kept_targets(state, shooter)
    if kept is not None:
        return kept
    chosen = _TARGETS.get(state.models, shooter, state.board)
    if chosen is None:
        found = [e for e in _within_range(state, shooter) if in_range(shooter, e) and not terrain_blocks_sight(shooter, e, state.board)]
        hidden = hidden_targets(shooter, found, state.models)
        chosen = tuple(sorted((e for e in found if e.id not in hidden), key=lambda e: (distance(shooter, e), e.id)))
        _TARGETS.put(state.models, shooter, state.board, _sight_reach(state, shooter), chosen)
    arrangement(state.models).targets[shooter.id] = (shooter, state.board, chosen)
    return chosen


_TARGETS: Local[tuple[Model, ...]] = Local()
_HAS_TARGET: Local[bool] = Local()
"""Each shooter's targets, and whether it has any, kept while nothing within its sight reach changes (issue 26)."""


def _sight_reach(state: BhState, shooter: Model) -> float:
    """How far from *shooter*'s centre a model can matter to its targets: a target's edge is within range, so its
    centre within range + r + the target's radius; a model hiding it reaches into the sight area, which lies within
    the target's radius of the segment to it (BH-GEO-8, BH-SHOOT-4)."""
    assert shooter.weapon is not None
    return shooter.weapon.range_inches + shooter.r + 3 * arrangement(state.models).widest() + 1e-6


def _kept_targets(state: BhState, shooter: Model) -> tuple[Model, ...] | None:
    """The targets of *shooter* already found for this arrangement of the table and this board, if they were."""
    kept = arrangement(state.models).targets.get(shooter.id)
    return kept[2] if kept is not None and kept[0] is shooter and kept[1] is state.board else None


def has_target(state: BhState, shooter: Model) -> bool:
    """Whether *shooter* may choose any target (BH-SHOOT-4): ``bool(targets(state, shooter))``, found at the first
    enemy in range and in sight whom no other model partly hides."""
    kept = _kept_targets(state, shooter)
    if kept is not None:
        return bool(kept)
    known = _HAS_TARGET.get(state.models, shooter, state.board)
    if known is None:
        known = would_have_target(state, shooter)
        _HAS_TARGET.put(state.models, shooter, state.board, _sight_reach(state, shooter), known)
    return known


def would_have_target(state: BhState, shooter: Model) -> bool:
    """Whether *shooter*, standing where it is given in place of the model of its id, may choose any target
    (BH-SHOOT-4): :func:`has_target` on that table, found afresh. The model of its id counts for nothing here wherever
    it stands (no enemy of its own side, and never hiding a target from itself), so the table as it stands answers,
    with its grid: the AI asks after each move a shooter could make, without a table made for each (issue 26)."""
    return any(
        in_range(shooter, e) and not terrain_blocks_sight(shooter, e, state.board) and not hidden_targets(shooter, (e,), state.models)
        for e in _within_range(state, shooter)
    )


def _within_range(state: BhState, shooter: Model) -> tuple[Model, ...]:
    """The models near enough to *shooter* to be in range, and a few more, in order (read off the arrangement's
    grid): :func:`in_range` decides."""
    assert shooter.weapon is not None
    return arrangement(state.models).near(shooter.x, shooter.y, shooter.weapon.range_inches + shooter.r + 1e-6)


def shoot_options(state: BhState, side: Side) -> tuple[ShootOption, ...]:
    """Every model of the shooting side that may shoot, at every target it may choose; then ending its shooting (BH-SHOOT-1)."""
    options: list[ShootOption] = []
    for m in state.models:
        if m.side == side and may_shoot(state, m):
            options.extend(ShootAt(m.id, t.id) for t in targets(state, m))
    return (*options, EndShooting())


def shot_input(state: BhState, shot: ShootAt) -> Shot:
    """The question of one shot: Shoot value, moved this turn, the weapon's Strength, the target (BH-SHOOT-5..9)."""
    m, t = state.get(shot.model), state.get(shot.target)
    assert m.weapon is not None and m.shoot_value is not None
    return Shot(m.shoot_value, m.weapon.strength, t.defence, moved=state.moved_inches(m.id) > 0, wounds=t.wounds_left)


def shot_dist(state: BhState, shot: ShootAt) -> Dist[ShootOutcome]:
    """The exact outcomes of one shot, from the shoot rule (BH-PROC-2)."""
    return cached_dist(shoot, shot_input(state, shot))


def start_shoot_phase(state: BhState, step: ShootPhase, choice: None, out: list[Event]) -> BhState:
    """The Shoot phase follows the Move phase (BH-TURN-1)."""
    out.append(ev.PhaseStarted(turn=state.turn, phase="shoot"))
    return evolve(state, phase="shoot")


def shoot_node(state: BhState, step: ShootStep) -> Decision:
    """The shooting player's choice: a model and its target, or the end of its shooting (BH-SHOOT-1)."""
    return ask(step.side, "shoot", shoot_options(state, step.side))


def apply_shoot(state: BhState, step: ShootStep, choice: ShootOption, out: list[Event]) -> BhState:
    """A model takes its shot (rolled next) and its player shoots again, or the player shoots no more (BH-SHOOT-1).

    A Hero with Might left rolls its hit roll alone, so that it may raise it (BH-DICE-4)."""
    if isinstance(choice, EndShooting):
        return state
    state = evolve(state, shooting=choice, shot=state.shot | {choice.model})
    m = state.get(choice.model)
    if rolls_die_by_die(hero=m.is_hero, might_left=m.might_left):
        assert m.shoot_value is not None
        return then(state, HeroRoll(hit_die(m.id, shoot_value=m.shoot_value, moved=state.moved_inches(m.id) > 0)), step)
    return then(state, ShotRoll(), step)


def shot_node(state: BhState, step: ShotRoll) -> Chance:
    """The exact outcomes of the shot being made, and the dice that make the one drawn (BH-PROC-2)."""
    assert state.shooting is not None
    return Chance(shot_dist(state, state.shooting), "shot", dice=partial(shot_faces, shot_input(state, state.shooting)))


def shot_rolled(state: BhState, step: ShotRoll, o: ShootOutcome, out: list[Event]) -> BhState:
    """The shot's outcome, as rolled (BH-SHOOT-5..9)."""
    return shot_result(state, o, out)


def shot_result(state: BhState, o: ShootOutcome, out: list[Event]) -> BhState:
    """The shot's hit and wound; a wound may slay the target (BH-SHOOT-9)."""
    shot = state.shooting
    assert shot is not None
    asked = shot_input(state, shot)
    state = evolve(state, shooting=None)
    out.append(ev.Shot(
        model=shot.model, target=shot.target, hit=o.hit, wounded=o.wounded, dice=o.dice,
        hit_needed=hit_roll_needed(asked.shoot_value, moved=asked.moved), wound_needed=str(wound_chart(asked.strength, asked.defence)),
    ))
    if o.wounded:
        state = wound(state, shot.target, 1, out)  # BH-SHOOT-9
    return state
