"""A Hero's own hit and To Wound rolls in battles, rolled die by die so that Might can raise them (BH-DICE-4, BH-SHOOT-7, BH-STRIKE-2).

The rules of one such die are in rules/might.py; this module puts its roll and its Might decision into the
battle and sends the result back to the shot or the strike it belongs to.
"""

from __future__ import annotations

from dataclasses import replace

from kessen.core.engine import Chance, Decision, Node
from kessen.core.events import Event
from kessen.dice import Dist, d
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.options import MightOnRoll
from kessen.rulesets.battlehost.referee.shooting import shot_result
from kessen.rulesets.battlehost.referee.state import BhState, put_model
from kessen.rulesets.battlehost.referee.strikes import strike_roll_result
from kessen.rulesets.battlehost.rules.might import HeroDie, die_score, die_succeeds, might_choices, next_die, rolled, wound_die
from kessen.rulesets.battlehost.rules.shooting import MISSED, ShootOutcome
from kessen.rulesets.battlehost.rules.wounding import wound_chart

HERO_DIE: Dist[int] = d(6)


def hero_die_node(state: BhState, die: HeroDie) -> Node:
    """The Hero's die is rolled; after a failed die its player may spend Might on it (BH-DICE-4)."""
    if die.face is None:
        return Chance(HERO_DIE, die.kind.replace("_", " "))
    hero = state.get(die.hero)
    return Decision(hero.side, "might on roll", tuple(MightOnRoll(hero.id, k) for k in might_choices(die, die.face, hero.might_left)))


def apply_hero_die(state: BhState, die: HeroDie, choice: int | MightOnRoll, out: list[Event]) -> BhState:
    """The natural roll of a Hero's die, or the Might its player spends on it after it failed (BH-DICE-4)."""
    hero = state.get(die.hero)
    if die.face is None:
        assert isinstance(choice, int)
        face = choice
        out.append(ev.HeroRolled(model=hero.id, roll=die.kind, face=face, score=die_score(die, face)))
        if len(might_choices(die, face, hero.might_left)) > 1:
            return replace(state, hero_die=rolled(die, face))
        return _hero_die_done(state, die, die_succeeds(die, face), out)
    assert isinstance(choice, MightOnRoll)
    points = choice.points
    if points:
        state = put_model(state, replace(hero, might_left=hero.might_left - points))
        out.append(ev.MightOnRoll(model=hero.id, roll=die.kind, points=points, score=die_score(die, die.face, points)))
    return _hero_die_done(state, die, die_succeeds(die, die.face, points), out)


def _hero_die_done(state: BhState, die: HeroDie, success: bool, out: list[Event]) -> BhState:
    """After a Hero's die: the wound roll follows a hit, the second die follows a 6/N entry's 6, else the result (BH-WOUND-1)."""
    state = replace(state, hero_die=None)
    if die.kind == "hit_roll":
        assert state.shooting is not None
        if not success:
            return shot_result(state, MISSED, out)
        shooter, target = state.get(state.shooting.model), state.get(state.shooting.target)
        assert shooter.weapon is not None
        entry = wound_chart(shooter.weapon.strength, target.defence)  # BH-SHOOT-8: the weapon's Strength
        if entry.impossible:
            return shot_result(state, ShootOutcome(hit=True, wounded=False, slain=False), out)
        return replace(state, hero_die=wound_die(shooter.id, entry))
    following = next_die(die) if success else None
    if following is not None:
        return replace(state, hero_die=following)
    if state.shooting is not None:
        target = state.get(state.shooting.target)
        return shot_result(state, ShootOutcome(hit=True, wounded=success, slain=success and target.wounds_left == 1), out)
    assert state.fighting is not None
    return strike_roll_result(state, state.fighting, success, out)
