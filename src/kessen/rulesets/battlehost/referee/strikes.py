"""Strikes in battles: who strikes, at whom, and the wounds (BH-STRIKE-1..9).

A striker's strikes at one target are drawn whole from the strikes rule (rules/strikes.py) when it
cannot turn to another target, else strike by strike; a Hero with Might left rolls die by die (might.py).
"""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.dice import Dist
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.board import Model
from kessen.rulesets.battlehost.referee.state import BhState, Fighting, cached_dist, side_of, with_fight, wound
from kessen.rulesets.battlehost.rules.might import HeroDie, rolls_die_by_die, wound_die
from kessen.rulesets.battlehost.rules.sides import other_side
from kessen.rulesets.battlehost.rules.strikes import Strikes, StrikesOutcome, rolls_per_strike, strike_targets_allowed, strikes
from kessen.rulesets.battlehost.rules.wounding import to_wound_modifier, wound_chart


def choose_striker(state: BhState, f: Fighting, striker: str) -> BhState:
    """The next winner to strike, with its A strikes (BH-STRIKE-4, BH-STRIKE-7)."""
    return with_fight(state, replace(
        f, striker=striker, strikes_left=state.get(striker).attacks, strikers=tuple(s for s in f.strikers if s != striker), struck=(),
    ))


def allowed_targets(state: BhState, f: Fighting) -> tuple[str, ...]:
    """The losers the current striker may aim its next strike at (BH-STRIKE-7, BH-STRIKE-9), current target first."""
    losers = side_of(f.fight, other_side(f.winner or "good"))
    alive = [state.model(i) is not None for i in losers]
    struck = [losers.index(s) for s in f.struck]
    allowed = [losers[i] for i in strike_targets_allowed(alive, struck)]
    current = f.struck[-1] if f.struck else None
    if current in allowed:
        allowed.remove(current)
        allowed.insert(0, current)
    return tuple(allowed)


def aimed(f: Fighting, target: str) -> Fighting:
    """The fight with the current striker's next strike aimed at *target* (BH-STRIKE-7)."""
    return replace(f, target=target, struck=f.struck if f.struck[-1:] == (target,) else f.struck + (target,))


def aim(state: BhState, f: Fighting, target: str) -> BhState:
    """The current striker aims its next strike; a Hero with Might rolls it die by die (BH-STRIKE-5, BH-DICE-4)."""
    f = aimed(f, target)
    assert f.striker is not None
    striker = state.get(f.striker)
    if not rolls_die_by_die(hero=striker.is_hero, might_left=striker.might_left):
        return with_fight(state, f)
    f = replace(f, rolls_left=rolls_per_strike(trapped=target in f.trapped), strike_wounds=0)
    return replace(with_fight(state, f), hero_die=strike_die(state, f))


def strike_input(striker: Model, target: Model, *, strikes_made: int, trapped: bool, two_handed: bool) -> Strikes:
    """The question of strikes at one target (BH-PROC-3)."""
    return Strikes(strikes_made, striker.strength, target.defence, target.wounds_left, trapped=trapped, two_handed=two_handed)


def strikes_made(state: BhState, f: Fighting) -> int:
    """One strike at a time while the striker may still turn to another target, else all it has left (BH-STRIKE-7, BH-STRIKE-8)."""
    return 1 if len(allowed_targets(state, f)) > 1 else f.strikes_left


def strike_dist(state: BhState, f: Fighting) -> Dist[StrikesOutcome]:
    """The exact outcomes of the strikes now aimed, from the strikes rule (BH-STRIKE-2..6)."""
    assert f.striker is not None and f.target is not None
    striker, target = state.get(f.striker), state.get(f.target)
    made = strikes_made(state, f)
    return cached_dist(strikes, strike_input(striker, target, strikes_made=made, trapped=f.target in f.trapped, two_handed=f.uses_two_handed(striker.id)))


def strike_result(state: BhState, f: Fighting, o: StrikesOutcome, out: list[Event]) -> BhState:
    """The wounds of the strikes just rolled (BH-STRIKE-3)."""
    assert f.striker is not None and f.target is not None
    made = strikes_made(state, f)
    target = f.target
    out.append(ev.Struck(model=f.striker, target=target, strikes=made, wounds=o.wounds))
    f = replace(f, strikes_left=f.strikes_left - made, wounds=f.wounds + o.wounds, slain=f.slain + int(o.slain), target=None)
    state = with_fight(state, f)
    if o.wounds:
        state = wound(state, target, o.wounds, out)
    return state


def strike_die(state: BhState, f: Fighting) -> HeroDie:
    """One To Wound roll of the Hero's strike: its Strength against the target's Defence, +1 two-handed (BH-STRIKE-2, BH-STRIKE-6)."""
    assert f.striker is not None and f.target is not None
    striker, target = state.get(f.striker), state.get(f.target)
    entry = wound_chart(striker.strength, target.defence)
    return wound_die(striker.id, entry, modifier=to_wound_modifier(two_handed=f.uses_two_handed(striker.id)))


def strike_roll_result(state: BhState, f: Fighting, wounded: bool, out: list[Event]) -> BhState:
    """One To Wound roll of a Hero's strike: a wound at once; the strike's second roll at a trapped model
    is lost if the first slew it (BH-STRIKE-3, BH-STRIKE-5, BH-STRIKE-9)."""
    assert f.striker is not None and f.target is not None
    striker, target = f.striker, f.target
    f = replace(f, rolls_left=f.rolls_left - 1, strike_wounds=f.strike_wounds + int(wounded))
    state = with_fight(state, f)
    if wounded:
        state = wound(state, target, 1, out)
    alive = state.model(target) is not None
    if alive and f.rolls_left > 0:
        return replace(state, hero_die=strike_die(state, f))
    out.append(ev.Struck(model=striker, target=target, strikes=1, wounds=f.strike_wounds))
    return with_fight(state, replace(
        f, strikes_left=f.strikes_left - 1, wounds=f.wounds + f.strike_wounds, slain=f.slain + int(not alive),
        target=None, rolls_left=0, strike_wounds=0,
    ))
