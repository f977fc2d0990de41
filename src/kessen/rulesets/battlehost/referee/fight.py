"""Fight phase: fights and their order, the steps of one fight, and the losers backing away (BH-FIGHT-1..3, BH-BACK-1..8).

A fight goes through its stages (``Fighting.stage``): two-handed declarations, the duel dice, Might,
a roll-off, prone winners standing up (duel.py), the losers backing away (here, with the geometry of
backing_away.py), and the winners' strikes (strikes.py). The whole fight's exact odds, as one question, are
rules/fight.py's; here each of its steps is played as the players choose.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node
from kessen.core.events import Event
from kessen.core.geometry import Point
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.backing_away import Retreat, retreat
from kessen.rulesets.battlehost.referee.duel import (
    ROLL_OFF_DIE,
    after_might,
    declare,
    duel_dice_dist,
    duel_rolled,
    duellists,
    might_options,
    next_declarer,
    rolled_off,
    spend_might,
    useful_might_of,
)
from kessen.rulesets.battlehost.referee.options import (
    ChooseFight,
    ChooseSplit,
    MakeWayChoice,
    NextLoser,
    NextStriker,
    StandUp,
    StrikeAt,
    UseTwoHanded,
)
from kessen.rulesets.battlehost.referee.pairing import Fight, OpenGroup, after_choice, groups, split_into_fights
from kessen.rulesets.battlehost.referee.state import BhState, Fighting, alive_ids, fight_resolved, living, put_model, side_of, with_fight
from kessen.rulesets.battlehost.referee.strikes import aim, allowed_targets, choose_striker, strike_dist, strike_result
from kessen.rulesets.battlehost.rules.sides import other_side

# --- fights and their order (BH-FIGHT-1, BH-FIGHT-2) --------------------------------------------------------


def start_fight_phase(state: BhState, out: list[Event]) -> BhState:
    """Split the engaged models into fights (BH-FIGHT-1); the priority player picks first (BH-FIGHT-2)."""
    out.append(ev.PhaseStarted(turn=state.turn, phase="fight"))
    fixed: list[Fight] = []
    open_groups: list[OpenGroup] = []
    for group in groups(state.models):
        fights, still_open = split_into_fights(state.models, group)
        fixed.extend(fights)
        open_groups.extend(still_open)
    return replace(state, phase="fight", acting=None, fights=tuple(fixed), split_groups=tuple(open_groups), picker=state.priority)


def fightable(state: BhState) -> tuple[Fight, ...]:
    """Unresolved fights with a living model on each side (BH-FIGHT-2)."""
    alive = {m.id for m in state.models}
    return tuple(f for f in state.fights if any(g in alive for g in f.good) and any(e in alive for e in f.evil))


def choose_split(state: BhState, choice: ChooseSplit) -> BhState:
    """The priority player's split of one group of engaged models into fights, or of its first model's fight;
    the rest of the group is split next (BH-FIGHT-1)."""
    group = state.split_groups[0]
    fixed, still_open = after_choice(state.models, group, choice.fights)
    return replace(state, fights=state.fights + choice.fights + fixed, split_groups=still_open + state.split_groups[1:])


def choose_fight(state: BhState, choice: ChooseFight, out: list[Event]) -> BhState:
    """The picking player's next fight, resolved completely before the other player picks (BH-FIGHT-2)."""
    fight = choice.fight
    out.append(ev.FightChosen(player=state.picker or "", good=", ".join(alive_ids(state, fight.good)), evil=", ".join(alive_ids(state, fight.evil))))
    fights = tuple(x for x in state.fights if x != fight)
    return replace(state, fights=fights, fighting=Fighting(fight))


# --- one fight, stage by stage (BH-FIGHT-3) ---------------------------------------------------------------


def fight_node(state: BhState, f: Fighting) -> Node:
    """The roll or choice the fight being resolved waits for."""
    if f.stage == "declare":
        m = next_declarer(state, f)
        assert m is not None
        return Decision(m.side, "two-handed", (UseTwoHanded(m.id, True), UseTwoHanded(m.id, False)))
    if f.stage == "dice":
        return Chance(duel_dice_dist(duellists(state, f, "good"), duellists(state, f, "evil")), "duel roll")
    if f.stage == "might":
        side = f.might_order[0]
        return Decision(side, "might", might_options(state, f, side))
    if f.stage == "roll_off":
        return Chance(ROLL_OFF_DIE, "roll-off")
    if f.stage == "stand_up":
        prone = f.stand_offers[0]
        return Decision(f.winner or "", "stand up", (StandUp(prone, True), StandUp(prone, False)))
    if f.stage == "back_away":
        loser_side = other_side(f.winner or "good")
        if f.offer is not None:
            return Decision(loser_side, "make way", (MakeWayChoice(True), MakeWayChoice(False)))
        return Decision(loser_side, "back away", tuple(NextLoser(m) for m in f.losers))
    assert f.stage == "strike"
    if f.striker is None:
        return Decision(f.winner or "", "striker", tuple(NextStriker(m) for m in f.strikers))
    if f.target is None:
        return Decision(f.winner or "", "strike", tuple(StrikeAt(t) for t in allowed_targets(state, f)))
    return Chance(strike_dist(state, f), "strike")


def apply_fight(state: BhState, f: Fighting, choice: Any, out: list[Event]) -> BhState:
    """The fight after the roll or choice its node asked for."""
    if f.stage == "declare":
        return declare(state, f, choice, out)
    if f.stage == "dice":
        return duel_rolled(state, f, choice, out)
    if f.stage == "might":
        return spend_might(state, f, choice.points, out)
    if f.stage == "roll_off":
        return rolled_off(state, f, choice, out)
    if f.stage == "stand_up":
        return _stand_up(state, f, choice, out)
    if f.stage == "back_away":
        if f.offer is not None:
            loser, how = f.offer
            return _back_away(state, replace(f, offer=None), loser, how, out, make_way=choice.make_way)
        return _choose_loser(state, f, choice.model, out)
    assert f.stage == "strike"
    if f.striker is None:
        return choose_striker(state, f, choice.model)
    if f.target is None:
        return aim(state, f, choice.target)
    return strike_result(state, f, choice, out)


def settle_fight(state: BhState, f: Fighting, out: list[Event]) -> tuple[BhState, bool]:
    """Advance the fight through steps that need no choice and no dice; True when it moved on."""
    if f.stage == "declare" and next_declarer(state, f) is None:
        return with_fight(state, replace(f, stage="dice")), True
    if f.stage == "might":
        if not f.might_order:
            return after_might(state, f, out), True
        if useful_might_of(state, f, f.might_order[0]) == 0:
            return with_fight(state, replace(f, might_order=f.might_order[1:])), True
    if f.stage == "stand_up" and not f.stand_offers:
        return with_fight(state, replace(f, stage="back_away")), True
    if f.stage == "back_away" and f.offer is None:
        f = replace(f, losers=alive_ids(state, f.losers))
        if not f.losers:
            return with_fight(state, replace(f, stage="strike")), True
        if len(f.losers) == 1:
            return _choose_loser(state, f, f.losers[0], out), True
    if f.stage == "strike":
        alive_losers = alive_ids(state, side_of(f.fight, other_side(f.winner or "good")))
        if f.striker is not None and (f.strikes_left <= 0 or not allowed_targets(state, f)):
            return with_fight(state, replace(f, striker=None, strikes_left=0, struck=(), target=None)), True  # BH-STRIKE-9
        strikers = alive_ids(state, f.strikers)
        if f.striker is None and (not strikers or not alive_losers):
            out.append(fight_resolved(f))
            return replace(state, fighting=None, picker=other_side(state.picker or "good")), True
        if f.striker is None and (len(strikers) == 1 or len(alive_losers) == 1):
            # The order of strikers changes nothing against one loser (BH-PROC-5), so it is not asked.
            s = strikers[0]
            return with_fight(state, replace(f, strikers=strikers[1:], striker=s, strikes_left=state.get(s).attacks, struck=())), True
        if f.striker is None and strikers != f.strikers:
            return with_fight(state, replace(f, strikers=strikers)), True
        if f.striker is not None and f.target is None:
            allowed = allowed_targets(state, f)
            if len(allowed) == 1:
                return aim(state, f, allowed[0]), True
    return state, False


def _stand_up(state: BhState, f: Fighting, choice: StandUp, out: list[Event]) -> BhState:
    """A prone model whose side won the duel may stand up at once instead of striking (BH-BACK-5)."""
    if choice.stand:
        out.append(ev.StoodUp(model=choice.model))
        state = put_model(state, replace(state.get(choice.model), prone=False))
    return with_fight(state, replace(f, stand_offers=f.stand_offers[1:]))


# --- the losers back away or are trapped (BH-BACK-1..8) -------------------------------------------------------


def _choose_loser(state: BhState, f: Fighting, loser: str, out: list[Event]) -> BhState:
    """One loser backs away or is trapped, with any making way first (BH-BACK-1..8)."""
    f = replace(f, losers=tuple(x for x in f.losers if x != loser))
    m = state.get(loser)
    winners = living(state, side_of(f.fight, f.winner or "good"))
    how = retreat(m, winners, state.models, state.board)
    if how.make_way is not None:
        return with_fight(state, replace(f, offer=(loser, how)))
    return _back_away(state, f, loser, how, out, make_way=False)


def _back_away(state: BhState, f: Fighting, loser: str, how: Retreat, out: list[Event], *, make_way: bool) -> BhState:
    """The friend makes way if it may and its owner chose so; then the loser backs away, else it is trapped (BH-BACK-4, BH-BACK-6)."""
    m = state.get(loser)
    if how.make_way is not None and make_way:
        friend = state.get(how.make_way.model)
        out.append(ev.MadeWay(model=friend.id, loser=loser, x=how.make_way.x, y=how.make_way.y))
        state = put_model(state, friend.at(Point(how.make_way.x, how.make_way.y)))
    if how.trapped or (how.make_way is not None and not make_way):
        out.append(ev.Trapped(model=loser, reason=how.reason if how.trapped else "declined"))
        return with_fight(state, replace(f, trapped=f.trapped | {loser}))
    out.append(ev.BackedAway(model=loser, x=how.x, y=how.y))
    return with_fight(put_model(state, m.at(Point(how.x, how.y))), f)
