"""Duel roll in battles: two-handed declarations, the dice, Might, the winner (BH-DUEL-1..9).

Each side's best score is drawn at once from the duel rule's keep-highest (rules/duel.py); Might and the
tie-breaks follow as the players decide.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

from kessen.core.engine import Chance, Decision, dice_field
from kessen.core.events import Event
from kessen.core.records import evolve, record
from kessen.dice import Dist, d
from kessen.dice.faces import Draw
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.battlefield import Model
from kessen.rulesets.battlehost.referee.options import SpendMight, UseTwoHanded
from kessen.rulesets.battlehost.referee.state import BhState, Fighting, alive_ids, cached_dist, current_fight, living, put_model, side_of, then, with_fight
from kessen.rulesets.battlehost.referee.steps import (
    BackAway,
    ChooseStriker,
    Declare,
    DuelDecided,
    DuelMight,
    DuelRoll,
    RollOff,
    StandUpOffer,
    ask,
)
from kessen.rulesets.battlehost.rules.dice import raise_with_might, useful_might
from kessen.rulesets.battlehost.rules.duel import (
    Duellist,
    decide_duel,
    duel_die_modifier,
    might_to_spend,
    roll_off_winner,
    side_best_dist,
    side_faces,
    side_fight_value,
    win_chance,
)
from kessen.rulesets.battlehost.rules.sides import Side, other_side
from kessen.rulesets.battlehost.rules.strikes import makes_strikes

ROLL_OFF_DIE: Dist[int] = d(6)


@record
class DuelDice:
    """Each side's best duel score after modifiers (BH-DUEL-1..5, BH-DUEL-7); in a battle, *dice* are each model's
    natural dice, Good's models then Evil's (:func:`duel_faces`)."""

    good_best: int
    evil_best: int
    dice: tuple[tuple[int, ...], ...] = dice_field()


def duel_faces(sides: tuple[tuple[Duellist, ...], tuple[Duellist, ...]], o: DuelDice, draw: Draw) -> tuple[tuple[int, ...], ...]:
    """The natural dice of every model of the duel, Good's then Evil's, known to give each side its best (BH-DUEL-1..4)."""
    good, evil = sides
    return side_faces(good, o.good_best, draw) + side_faces(evil, o.evil_best, draw)


def next_declarer(state: BhState, f: Fighting) -> Model | None:
    """The next model with a two-handed weapon to declare, the priority player's models first (BH-DUEL-2)."""
    declared = {m for m, _ in f.declared}
    first = state.priority or "good"
    for side in (first, other_side(first)):
        for m in living(state, side_of(f.fight, side)):
            if m.two_handed and m.id not in declared:
                return m
    return None


def declare_node(state: BhState, step: Declare) -> Decision | None:
    """The next model with a two-handed weapon declares whether it uses it; None when all have (BH-DUEL-2)."""
    m = next_declarer(state, current_fight(state))
    return None if m is None else ask(m.side, "two-handed", (UseTwoHanded(m.id, True), UseTwoHanded(m.id, False)), actor=m.id)


def declare(state: BhState, step: Declare, choice: UseTwoHanded | None, out: list[Event]) -> BhState:
    """A model declares whether it uses its two-handed weapon in this fight, and the next one after it
    (BH-DUEL-2, BH-DUEL-3)."""
    if choice is None:
        return state
    f = current_fight(state)
    out.append(ev.TwoHandedDeclared(model=choice.model, used=choice.use))
    return then(with_fight(state, evolve(f, declared=f.declared + ((choice.model, choice.use),))), step)


def duellists(state: BhState, f: Fighting, side: Side) -> tuple[Duellist, ...]:
    """A side's models in the fight as their duel dice see them, with the two-handed declarations (BH-DUEL-1..4)."""
    return tuple(Duellist(m.fight, m.attacks, f.uses_two_handed(m.id)) for m in living(state, side_of(f.fight, side)))


def duel_dice_dist(good: tuple[Duellist, ...], evil: tuple[Duellist, ...]) -> Dist[DuelDice]:
    """Each side's best score: the highest of its dice (BH-DUEL-1..5, BH-DUEL-7), from the duel rule's own count."""
    return cached_dist(_duel_dice, (good, evil))


def _duel_dice(sides: tuple[tuple[Duellist, ...], tuple[Duellist, ...]]) -> Dist[DuelDice]:
    good, evil = sides
    return side_best_dist(good).combine(side_best_dist(evil), DuelDice)


def duel_node(state: BhState, step: DuelRoll) -> Chance:
    """Both sides' duel dice, as each side's best score (BH-DUEL-1..5, BH-DUEL-7)."""
    f = current_fight(state)
    sides = duellists(state, f, "good"), duellists(state, f, "evil")
    return Chance(duel_dice_dist(*sides), "duel roll", dice=partial(duel_faces, sides))


def duel_rolled(state: BhState, step: DuelRoll, o: DuelDice, out: list[Event]) -> BhState:
    """Both sides' best scores are known; Might follows, the priority player first, then the winner (BH-DUEL-4..7)."""
    out.append(duel_rolled_event(state, o))
    first = state.priority or "good"
    state = with_fight(state, evolve(current_fight(state), good_best=o.good_best, evil_best=o.evil_best))
    return then(state, DuelMight(first), DuelMight(other_side(first)), DuelDecided())


def duel_rolled_event(state: BhState, o: DuelDice) -> ev.DuelRolled:
    """The duel roll as the battle report tells it: the bests, and when its dice were drawn, each model's natural
    dice and the modifier to each of them (BH-DUEL-3, BH-DUEL-4)."""
    f = current_fight(state)
    words: dict[str, tuple[object, ...]] = {}
    start = 0
    for side in ("good", "evil") if o.dice else ():
        models = living(state, side_of(f.fight, side))
        words[f"{side}_models"] = tuple(m.id for m in models)
        words[f"{side}_dice"] = o.dice[start : start + len(models)]
        words[f"{side}_modifiers"] = tuple(duel_die_modifier(two_handed=d.two_handed, duel_modifier=d.duel_modifier) for d in duellists(state, f, side))
        start += len(models)
    return ev.DuelRolled(good_best=o.good_best, evil_best=o.evil_best, **words)  # type: ignore[arg-type]


def side_fight_value_of(state: BhState, f: Fighting, side: Side) -> int:
    """The side's Fight value for the tie-break: the highest among its models in the fight (BH-DUEL-8)."""
    return side_fight_value(m.fight for m in living(state, side_of(f.fight, side)))


def side_might(state: BhState, f: Fighting, side: Side) -> int:
    """The Might the side's Heroes in the fight have left (BH-DUEL-6)."""
    return sum(m.might_left for m in living(state, side_of(f.fight, side)) if m.is_hero)


def bests(f: Fighting, side: Side) -> tuple[int, int]:
    """The side's best duel score and its enemy's, as rolled and raised so far (BH-DUEL-7)."""
    return (f.good_best, f.evil_best) if side == "good" else (f.evil_best, f.good_best)


def useful_might_of(state: BhState, f: Fighting, side: Side) -> int:
    """The most Might points that can still raise the side's best die (BH-DUEL-6, BH-DICE-4)."""
    return useful_might(bests(f, side)[0], side_might(state, f, side))


def might_options(state: BhState, f: Fighting, side: Side) -> tuple[SpendMight, ...]:
    """0 to the useful most points on the side's best die; the default policy's choice first (BH-DUEL-6, BH-PROC-4)."""
    own, other = bests(f, side)
    most = useful_might_of(state, f, side)
    best = might_to_spend(
        own, other, own_fight=side_fight_value_of(state, f, side),
        other_fight=side_fight_value_of(state, f, other_side(side)), might=most,
    )
    return (SpendMight(best), *(SpendMight(k) for k in range(most + 1) if k != best))


def chance_after_might(state: BhState, f: Fighting, side: Side, points: int) -> Fraction:
    """The side's exact chance to win the duel once it spends *points* Might on its best die: 1, 1/2 (a roll-off)
    or 0 (BH-DUEL-6..9)."""
    own, other = bests(f, side)
    return win_chance(
        raise_with_might(own, points), other,
        own_fight=side_fight_value_of(state, f, side), other_fight=side_fight_value_of(state, f, other_side(side)),
    )


def might_node(state: BhState, step: DuelMight) -> Decision | None:
    """The side's choice of Might on its best die; None when no point it has can change it (BH-DUEL-6)."""
    f = current_fight(state)
    if useful_might_of(state, f, step.side) == 0:
        return None
    heroes = ", ".join(m.id for m in living(state, side_of(f.fight, step.side)) if m.is_hero and m.might_left)
    return ask(step.side, "might", might_options(state, f, step.side), actor=heroes)


def spend_might(state: BhState, step: DuelMight, choice: SpendMight | None, out: list[Event]) -> BhState:
    """Raise the side's best die by the points spent, taken from its Heroes in fight order (BH-DUEL-6, BH-DICE-4)."""
    if choice is None:
        return state
    side, points, f = step.side, choice.points, current_fight(state)
    if points:
        left = points
        for m in living(state, side_of(f.fight, side)):
            if m.is_hero and m.might_left and left:
                used = min(left, m.might_left)
                left -= used
                state = put_model(state, evolve(m, might_left=m.might_left - used))
                best = raise_with_might(bests(f, side)[0], points - left)
                out.append(ev.MightSpent(model=m.id, points=used, best=best))
        if side == "good":
            f = evolve(f, good_best=raise_with_might(f.good_best, points))
        else:
            f = evolve(f, evil_best=raise_with_might(f.evil_best, points))
        f = evolve(f, might_spent=f.might_spent + points)
    return with_fight(state, f)


def after_might(state: BhState, step: DuelDecided, choice: None, out: list[Event]) -> BhState:
    """The winner: best score, then Fight value, else a roll-off (BH-DUEL-7..9)."""
    f = current_fight(state)
    decided = decide_duel(
        f.good_best, f.evil_best,
        good_fight=side_fight_value_of(state, f, "good"), evil_fight=side_fight_value_of(state, f, "evil"),
    )
    if decided is None:
        return then(state, RollOff())
    return won(state, f, decided.winner, decided.decided_by, out)


def roll_off_node(state: BhState, step: RollOff) -> Chance:
    """One D6 decides a duel tied on scores and Fight values (BH-DUEL-9)."""
    return Chance(ROLL_OFF_DIE, "roll-off")


def rolled_off(state: BhState, step: RollOff, face: int, out: list[Event]) -> BhState:
    """The roll-off: 1–3 Evil wins, 4–6 Good wins (BH-DUEL-9)."""
    winner = roll_off_winner(face)
    out.append(ev.RolledOff(face=face, winner=winner))
    return won(state, current_fight(state), winner, "roll_off", out)


def won(state: BhState, f: Fighting, winner: Side, decided_by: str, out: list[Event]) -> BhState:
    """The duel is won: prone winners may stand up, then the losers back away, then the winners strike (BH-FIGHT-3, BH-BACK-5)."""
    out.append(ev.DuelWon(winner=winner, decided_by=decided_by))
    winners = living(state, side_of(f.fight, winner))
    losers = alive_ids(state, side_of(f.fight, other_side(winner)))
    strikers = tuple(m.id for m in winners if makes_strikes(prone=m.prone))  # BH-BACK-5
    offers = tuple(StandUpOffer(m.id) for m in winners if m.prone)
    state = with_fight(state, evolve(f, winner=winner, decided_by=decided_by, losers=losers, strikers=strikers))
    return then(state, *offers, BackAway(), ChooseStriker())
