"""Strikes in battles: who strikes, at whom, and the wounds (BH-STRIKE-1..9).

A striker's strikes at one target are drawn whole from the strikes rule (rules/strikes.py) when it
cannot turn to another target, else strike by strike; a Hero with Might left rolls die by die (might.py).
"""

from __future__ import annotations

from functools import partial

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.dice import Dist
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.battlefield import Model
from kessen.rulesets.battlehost.referee.options import NextStriker, StrikeAt
from kessen.rulesets.battlehost.referee.state import BhState, Fighting, alive_ids, cached_dist, current_fight, side_of, then, with_fight, wound
from kessen.rulesets.battlehost.referee.steps import Aim, ChooseStriker, HeroRoll, StrikeRoll, ask
from kessen.rulesets.battlehost.rules.might import HeroDie, rolls_die_by_die, wound_die
from kessen.rulesets.battlehost.rules.sides import other_side
from kessen.rulesets.battlehost.rules.strikes import Strikes, StrikesOutcome, rolls_per_strike, strike_targets_allowed, strikes, strikes_faces
from kessen.rulesets.battlehost.rules.wounding import to_wound_modifier, wound_chart


def _strikers_and_losers(state: BhState, f: Fighting) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return alive_ids(state, f.strikers), alive_ids(state, side_of(f.fight, other_side(f.winner or "good")))


def striker_node(state: BhState, step: ChooseStriker) -> Decision | None:
    """The winning player's choice of the winner that strikes next (BH-STRIKE-7); None when no winner or no loser
    is left, or when the order cannot matter: one winner, or one loser (BH-PROC-5), who then strike in fight order."""
    f = current_fight(state)
    strikers, losers = _strikers_and_losers(state, f)
    if len(strikers) <= 1 or len(losers) <= 1:
        return None
    return ask(f.winner or "", "striker", [NextStriker(m) for m in strikers])


def choose_striker(state: BhState, step: ChooseStriker, choice: NextStriker | None, out: list[Event]) -> BhState:
    """The next winner to strike, with its A strikes, then the one after it (BH-STRIKE-4, BH-STRIKE-7)."""
    f = current_fight(state)
    strikers, losers = _strikers_and_losers(state, f)
    if choice is None and not (strikers and losers):
        return state
    striker = strikers[0] if choice is None else choice.model
    f = evolve(f, striker=striker, strikes_left=state.get(striker).attacks, strikers=tuple(s for s in strikers if s != striker), struck=())
    return then(with_fight(state, f), Aim(), step)


def aim_node(state: BhState, step: Aim) -> Decision | None:
    """The striker's choice of its next strike's target (BH-STRIKE-7, BH-STRIKE-8); None when it has no strike
    left or no target it may strike (BH-STRIKE-9)."""
    f = current_fight(state)
    allowed = allowed_targets(state, f) if f.strikes_left > 0 else ()
    return ask(f.winner or "", "strike", [StrikeAt(t) for t in allowed], actor=f.striker or "") if allowed else None


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
    return evolve(f, target=target, struck=f.struck if f.struck[-1:] == (target,) else f.struck + (target,))


def aim(state: BhState, step: Aim, choice: StrikeAt | None, out: list[Event]) -> BhState:
    """The current striker aims its next strike, rolled next, then aims again; a Hero with Might rolls it die by
    die (BH-STRIKE-5, BH-DICE-4). With no strike left, or no target, the striker is done (BH-STRIKE-9)."""
    f = current_fight(state)
    if choice is None:
        return with_fight(state, evolve(f, striker=None, strikes_left=0, struck=(), target=None))
    f = aimed(f, choice.target)
    assert f.striker is not None
    striker = state.get(f.striker)
    if not rolls_die_by_die(hero=striker.is_hero, might_left=striker.might_left):
        return then(with_fight(state, f), StrikeRoll(), step)
    f = evolve(f, rolls_left=rolls_per_strike(trapped=choice.target in f.trapped), strike_wounds=0)
    return then(with_fight(state, f), HeroRoll(strike_die(state, f)), step)


def strike_input(striker: Model, target: Model, *, strikes_made: int, trapped: bool, two_handed: bool) -> Strikes:
    """The question of strikes at one target (BH-PROC-3)."""
    return Strikes(strikes_made, striker.strength, target.defence, target.wounds_left, trapped=trapped, two_handed=two_handed)


def strikes_made(state: BhState, f: Fighting) -> int:
    """One strike at a time while the striker may still turn to another target, else all it has left (BH-STRIKE-7, BH-STRIKE-8)."""
    return 1 if len(allowed_targets(state, f)) > 1 else f.strikes_left


def aimed_strikes(state: BhState, f: Fighting) -> Strikes:
    """The question of the strikes now aimed (BH-PROC-3)."""
    assert f.striker is not None and f.target is not None
    striker, target = state.get(f.striker), state.get(f.target)
    made = strikes_made(state, f)
    return strike_input(striker, target, strikes_made=made, trapped=f.target in f.trapped, two_handed=f.uses_two_handed(striker.id))


def strike_dist(state: BhState, f: Fighting) -> Dist[StrikesOutcome]:
    """The exact outcomes of the strikes now aimed, from the strikes rule (BH-STRIKE-2..6)."""
    return cached_dist(strikes, aimed_strikes(state, f))


def strike_node(state: BhState, step: StrikeRoll) -> Chance:
    """The strikes just aimed, from the strikes rule, and the dice that make the outcome drawn (BH-STRIKE-2..6)."""
    f = current_fight(state)
    return Chance(strike_dist(state, f), "strike", dice=partial(strikes_faces, aimed_strikes(state, f)))


def strike_result(state: BhState, step: StrikeRoll, o: StrikesOutcome, out: list[Event]) -> BhState:
    """The wounds of the strikes just rolled (BH-STRIKE-3)."""
    f = current_fight(state)
    assert f.striker is not None and f.target is not None
    asked = aimed_strikes(state, f)
    made, target = asked.strikes, f.target
    out.append(ev.Struck(
        model=f.striker, target=target, strikes=made, wounds=o.wounds, dice=o.dice,
        wound_needed=str(wound_chart(asked.strength, asked.defence)), modifier=to_wound_modifier(two_handed=asked.two_handed),
    ))
    f = evolve(f, strikes_left=f.strikes_left - made, wounds=f.wounds + o.wounds, slain=f.slain + int(o.slain), target=None)
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
    f = evolve(f, rolls_left=f.rolls_left - 1, strike_wounds=f.strike_wounds + int(wounded))
    state = with_fight(state, f)
    if wounded:
        state = wound(state, target, 1, out)
    alive = state.model(target) is not None
    if alive and f.rolls_left > 0:
        return then(state, HeroRoll(strike_die(state, f)))
    out.append(ev.Struck(model=striker, target=target, strikes=1, wounds=f.strike_wounds))
    return with_fight(state, evolve(
        f, strikes_left=f.strikes_left - 1, wounds=f.wounds + f.strike_wounds, slain=f.slain + int(not alive),
        target=None, rolls_left=0, strike_wounds=0,
    ))
