"""Shoot phase in battles: who may shoot, at whom, and what a shot does (BH-SHOOT-1..9).

The odds of a shot are the shoot rule's (rules/shooting.py); a Hero with Might left rolls its shot die
by die instead (might.py).
"""

from __future__ import annotations

import functools
from dataclasses import replace

from kessen.core.events import Event
from kessen.dice import Dist
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.board import Model, distance, hidden_targets, is_engaged, terrain_blocks_sight
from kessen.rulesets.battlehost.referee.fight import start_fight_phase
from kessen.rulesets.battlehost.referee.options import EndShooting, ShootAt, ShootOption
from kessen.rulesets.battlehost.referee.state import BhState, cached_dist, wound
from kessen.rulesets.battlehost.rules.might import hit_die, rolls_die_by_die
from kessen.rulesets.battlehost.rules.shooting import ShootOutcome, Shot, shoot
from kessen.rulesets.battlehost.rules.sides import other_side


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
    """The enemies *shooter* may choose, nearest first (BH-SHOOT-4)."""
    found = [e for e in state.models if in_range(shooter, e) and not terrain_blocks_sight(shooter, e, state.board)]
    hidden = hidden_targets(shooter, found, state.models)
    return tuple(sorted((e for e in found if e.id not in hidden), key=lambda e: (distance(shooter, e), e.id)))


@functools.lru_cache(maxsize=16)
def shoot_options(state: BhState) -> tuple[ShootOption, ...]:
    """Every model of the shooting side that may shoot, at every target it may choose; then ending its shooting (BH-SHOOT-1)."""
    options: list[ShootOption] = []
    for m in state.models:
        if m.side == state.acting and may_shoot(state, m):
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


def apply_shoot(state: BhState, choice: ShootOption, out: list[Event]) -> BhState:
    """A model takes its shot (rolled next), or the player shoots no more; then the other player, then the Fight phase (BH-SHOOT-1)."""
    if isinstance(choice, EndShooting):
        if state.acting == state.priority:
            return replace(state, acting=other_side(state.priority or "good"))
        return start_fight_phase(state, out)
    assert isinstance(choice, ShootAt)
    state = replace(state, shooting=choice, shot=state.shot | {choice.model})
    m = state.get(choice.model)
    if rolls_die_by_die(hero=m.is_hero, might_left=m.might_left):
        assert m.shoot_value is not None
        return replace(state, hero_die=hit_die(m.id, shoot_value=m.shoot_value, moved=state.moved_inches(m.id) > 0))
    return state


def shot_result(state: BhState, o: ShootOutcome, out: list[Event]) -> BhState:
    """The shot's hit and wound; a wound may slay the target (BH-SHOOT-9)."""
    shot = state.shooting
    assert shot is not None
    state = replace(state, shooting=None)
    out.append(ev.Shot(model=shot.model, target=shot.target, hit=o.hit, wounded=o.wounded))
    if o.wounded:
        state = wound(state, shot.target, 1, out)  # BH-SHOOT-9
    return state
