"""A Hero's own hit and To Wound rolls in battles, rolled die by die so that Might can raise them (BH-DICE-4, BH-SHOOT-7, BH-STRIKE-2).

The rules of one such die are in rules/might.py; this module puts its roll and its Might decision into the
battle and sends the result back to the shot or the strike it belongs to.
"""

from __future__ import annotations

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.dice import Dist, d
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.options import MightOnRoll
from kessen.rulesets.battlehost.referee.shooting import shot_result
from kessen.rulesets.battlehost.referee.state import BhState, current_fight, put_model, then
from kessen.rulesets.battlehost.referee.steps import HeroMight, HeroRoll, ask
from kessen.rulesets.battlehost.referee.strikes import strike_roll_result
from kessen.rulesets.battlehost.rules.might import HeroDie, die_score, die_succeeds, might_choices, next_die, rolled, wound_die
from kessen.rulesets.battlehost.rules.shooting import MISSED, ShootOutcome
from kessen.rulesets.battlehost.rules.wounding import wound_chart

HERO_DIE: Dist[int] = d(6)


def hero_die_node(state: BhState, step: HeroRoll) -> Chance:
    """The Hero's die is rolled (BH-DICE-4)."""
    return Chance(HERO_DIE, step.die.kind.replace("_", " "))


def hero_die_rolled(state: BhState, step: HeroRoll, face: int, out: list[Event]) -> BhState:
    """The natural roll of a Hero's die; if it failed and Might can save it, its player decides next (BH-DICE-4)."""
    die, hero = step.die, state.get(step.die.hero)
    out.append(ev.HeroRolled(model=hero.id, roll=die.kind, face=face, score=die_score(die, face)))
    if len(might_choices(die, face, hero.might_left)) > 1:
        return then(state, HeroMight(rolled(die, face)))
    return _hero_die_done(state, die, die_succeeds(die, face), out)


def might_on_roll_node(state: BhState, step: HeroMight) -> Decision:
    """After a failed die its player may spend Might on it (BH-DICE-4)."""
    die, hero = step.die, state.get(step.die.hero)
    assert die.face is not None
    return ask(hero.side, "might on roll", [MightOnRoll(hero.id, k) for k in might_choices(die, die.face, hero.might_left)], actor=hero.id)


def might_on_roll(state: BhState, step: HeroMight, choice: MightOnRoll, out: list[Event]) -> BhState:
    """The Might the Hero's player spends on its failed die, and what follows (BH-DICE-4)."""
    die, hero = step.die, state.get(step.die.hero)
    assert die.face is not None
    points = choice.points
    if points:
        state = put_model(state, evolve(hero, might_left=hero.might_left - points))
        out.append(ev.MightOnRoll(model=hero.id, roll=die.kind, points=points, score=die_score(die, die.face, points)))
    return _hero_die_done(state, die, die_succeeds(die, die.face, points), out)


def _hero_die_done(state: BhState, die: HeroDie, success: bool, out: list[Event]) -> BhState:
    """After a Hero's die: the wound roll follows a hit, the second die follows a 6/N entry's 6, else the result (BH-WOUND-1)."""
    if die.kind == "hit_roll":
        assert state.shooting is not None
        if not success:
            return shot_result(state, MISSED, out)
        shooter, target = state.get(state.shooting.model), state.get(state.shooting.target)
        assert shooter.weapon is not None
        entry = wound_chart(shooter.weapon.strength, target.defence)  # BH-SHOOT-8: the weapon's Strength
        if entry.impossible:
            return shot_result(state, ShootOutcome(hit=True, wounded=False, slain=False), out)
        return then(state, HeroRoll(wound_die(shooter.id, entry)))
    following = next_die(die) if success else None
    if following is not None:
        return then(state, HeroRoll(following))
    if state.shooting is not None:
        target = state.get(state.shooting.target)
        return shot_result(state, ShootOutcome(hit=True, wounded=success, slain=success and target.wounds_left == 1), out)
    return strike_roll_result(state, current_fight(state), success, out)
