"""Fight phase: fights and their order, and the steps of one fight after its duel: prone winners standing up and
the losers backing away (BH-FIGHT-1..3, BH-BACK-1..8).

A fight queues its steps (referee/steps.py): two-handed declarations, the duel dice, Might and a roll-off
(duel.py), prone winners standing up and the losers backing away (here, with the geometry of backing_away.py),
the winners' strikes (strikes.py), and its result. The whole fight's exact odds, as one question, are
rules/fight.py's; here each of its steps is played as the players choose.
"""

from __future__ import annotations

from kessen.core.engine import Decision
from kessen.core.events import Event
from kessen.core.geometry import Point
from kessen.core.records import equal, evolve
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.backing_away import Retreat, retreat
from kessen.rulesets.battlehost.referee.options import ChooseFight, ChooseSplit, MakeWayChoice, NextLoser, StandUp
from kessen.rulesets.battlehost.referee.pairing import Fight, OpenGroup, after_choice, groups, split_into_fights
from kessen.rulesets.battlehost.referee.state import BhState, Fighting, alive_ids, current_fight, fight_resolved, living, put_model, side_of, then, with_fight
from kessen.rulesets.battlehost.referee.steps import (
    BackAway,
    Declare,
    DuelRoll,
    FightOver,
    FightPhase,
    MakeWay,
    PickFight,
    SplitStep,
    StandUpOffer,
    ask,
)
from kessen.rulesets.battlehost.referee.turns import end_turn
from kessen.rulesets.battlehost.rules.sides import other_side

# --- fights and their order (BH-FIGHT-1, BH-FIGHT-2) --------------------------------------------------------


def start_fight_phase(state: BhState, step: FightPhase, choice: None, out: list[Event]) -> BhState:
    """Split the engaged models into fights (BH-FIGHT-1): the priority player splits the groups that may be split
    more than one way, then picks the first fight (BH-FIGHT-2)."""
    out.append(ev.PhaseStarted(turn=state.turn, phase="fight"))
    fixed: list[Fight] = []
    open_groups: list[OpenGroup] = []
    for group in groups(state.models):
        fights, still_open = split_into_fights(state.models, group)
        fixed.extend(fights)
        open_groups.extend(still_open)
    state = evolve(state, phase="fight", fights=tuple(fixed))
    return then(state, *(SplitStep(g) for g in open_groups), PickFight(state.priority or "good"))


def split_node(state: BhState, step: SplitStep) -> Decision:
    """The priority player's choice of a split of one group into fights (BH-FIGHT-1)."""
    return ask(state.priority or "", "split", [ChooseSplit(s) for s in step.group.choices], actor=", ".join(step.group.models))


def choose_split(state: BhState, step: SplitStep, choice: ChooseSplit, out: list[Event]) -> BhState:
    """The priority player's split of one group of engaged models into fights, or of its first model's fight;
    the rest of the group is split next (BH-FIGHT-1)."""
    fixed, still_open = after_choice(state.models, step.group, choice.fights)
    return then(evolve(state, fights=state.fights + choice.fights + fixed), *(SplitStep(g) for g in still_open))


def fightable(state: BhState) -> tuple[Fight, ...]:
    """Unresolved fights with a living model on each side (BH-FIGHT-2)."""
    alive = {m.id for m in state.models}
    return tuple(f for f in state.fights if any(g in alive for g in f.good) and any(e in alive for e in f.evil))


def pick_node(state: BhState, step: PickFight) -> Decision | None:
    """The picking player's choice of the next fight; None when no fight is left (BH-FIGHT-2)."""
    left = fightable(state)
    return ask(step.side, "fight", [ChooseFight(f) for f in left]) if left else None


def choose_fight(state: BhState, step: PickFight, choice: ChooseFight | None, out: list[Event]) -> BhState:
    """The picking player's next fight, resolved completely before the other player picks (BH-FIGHT-2, BH-FIGHT-3);
    with no fight left, the End phase (BH-TURN-1)."""
    if choice is None:
        return end_turn(state, out)
    fight = choice.fight
    out.append(ev.FightChosen(player=step.side, good=", ".join(alive_ids(state, fight.good)), evil=", ".join(alive_ids(state, fight.evil))))
    state = evolve(state, fights=tuple(x for x in state.fights if not equal(x, fight)), fighting=Fighting(fight))
    return then(state, Declare(), DuelRoll(), FightOver(), PickFight(other_side(step.side)))


def fight_over(state: BhState, step: FightOver, choice: None, out: list[Event]) -> BhState:
    """The fight's result: winner, how the duel was decided, Might, wounds and models slain (BH-FIGHT-3)."""
    f = state.fighting
    assert f is not None
    out.append(fight_resolved(f))
    return evolve(state, fighting=None)


# --- prone winners stand up (BH-BACK-5) -----------------------------------------------------------------------


def stand_up_node(state: BhState, step: StandUpOffer) -> Decision:
    """A prone winner's player: stand it up at once, or leave it prone (BH-BACK-5)."""
    return ask(current_fight(state).winner or "", "stand up", (StandUp(step.model, True), StandUp(step.model, False)), actor=step.model)


def stand_up(state: BhState, step: StandUpOffer, choice: StandUp, out: list[Event]) -> BhState:
    """A prone model whose side won the duel may stand up at once instead of striking (BH-BACK-5)."""
    if choice.stand:
        out.append(ev.StoodUp(model=choice.model))
        state = put_model(state, evolve(state.get(choice.model), prone=False))
    return state


# --- the losers back away or are trapped (BH-BACK-1..8) -------------------------------------------------------


def back_away_node(state: BhState, step: BackAway) -> Decision | None:
    """The losing player's choice of the loser that backs away next; None when every loser has (BH-BACK-8)."""
    f = current_fight(state)
    losers = alive_ids(state, f.losers)
    return ask(other_side(f.winner or "good"), "back away", [NextLoser(m) for m in losers]) if losers else None


def choose_loser(state: BhState, step: BackAway, choice: NextLoser | None, out: list[Event]) -> BhState:
    """One loser backs away or is trapped, with any making way first; then the next (BH-BACK-1..8)."""
    if choice is None:
        return state
    f = current_fight(state)
    loser = choice.model
    f = evolve(f, losers=tuple(x for x in alive_ids(state, f.losers) if x != loser))
    m = state.get(loser)
    winners = living(state, side_of(f.fight, f.winner or "good"))
    how = retreat(m, winners, state.models, state.board)
    if how.make_way is not None:
        return then(with_fight(state, f), MakeWay(loser, how), step)
    return then(back_away(state, f, loser, how, out, make_way=False), step)


def make_way_node(state: BhState, step: MakeWay) -> Decision:
    """The loser's player: the blocking friend makes way, or stays and the loser is trapped (BH-BACK-6)."""
    return ask(state.get(step.loser).side, "make way", (MakeWayChoice(True), MakeWayChoice(False)), actor=step.retreat.make_way.model if step.retreat.make_way else "")


def make_way(state: BhState, step: MakeWay, choice: MakeWayChoice, out: list[Event]) -> BhState:
    """The friend makes way if its owner chose so; then the loser backs away, else it is trapped (BH-BACK-6)."""
    return back_away(state, current_fight(state), step.loser, step.retreat, out, make_way=choice.make_way)


def back_away(state: BhState, f: Fighting, loser: str, how: Retreat, out: list[Event], *, make_way: bool) -> BhState:
    """The friend makes way if it may and its owner chose so; then the loser backs away, else it is trapped (BH-BACK-4, BH-BACK-6)."""
    m = state.get(loser)
    if how.make_way is not None and make_way:
        friend = state.get(how.make_way.model)
        out.append(ev.MadeWay(model=friend.id, loser=loser, x=how.make_way.x, y=how.make_way.y))
        state = put_model(state, friend.at(Point(how.make_way.x, how.make_way.y)))
    if how.trapped or (how.make_way is not None and not make_way):
        out.append(ev.Trapped(model=loser, reason=how.reason if how.trapped else "declined"))
        return with_fight(state, evolve(f, trapped=f.trapped | {loser}))
    out.append(ev.BackedAway(model=loser, x=how.x, y=how.y))
    return with_fight(put_model(state, m.at(Point(how.x, how.y))), f)
