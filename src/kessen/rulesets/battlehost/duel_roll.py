"""Duel roll in battles: two-handed declarations, the dice, Might, the winner (BH-DUEL-1..9).

Each side's best score is drawn at once from the ``duel`` procedure's keep-highest (duels.py); Might
and the tie-breaks follow as the players decide.
"""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.dice import Dist, d
from kessen.io.validation import validate_data
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.battlefield import Model
from kessen.rulesets.battlehost.duels import decide_duel, might_to_spend, roll_off_winner, side_best_dist
from kessen.rulesets.battlehost.inputs import FightModel
from kessen.rulesets.battlehost.profiles import Side, other_side
from kessen.rulesets.battlehost.rolls import raise_with_might, useful_might
from kessen.rulesets.battlehost.state import (
    BhState,
    DuelDice,
    Fighting,
    SpendMight,
    UseTwoHanded,
    alive_ids,
    cached_dist,
    living,
    put_model,
    side_of,
    with_fight,
)
from kessen.rulesets.battlehost.strikes import makes_strikes

ROLL_OFF_DIE: Dist[int] = d(6)

DuelDiceSpec = tuple[tuple[int, bool, int], ...]  # (Attacks, two-handed, duel modifier) of each model


def next_declarer(state: BhState, f: Fighting) -> Model | None:
    """The next model with a two-handed weapon to declare, the priority player's models first (BH-DUEL-2)."""
    declared = {m for m, _ in f.declared}
    first = state.priority or "good"
    for side in (first, other_side(first)):
        for m in living(state, side_of(f.fight, side)):
            if m.two_handed and m.id not in declared:
                return m
    return None


def declare(state: BhState, f: Fighting, choice: UseTwoHanded, out: list[Event]) -> BhState:
    """A model declares whether it uses its two-handed weapon in this fight (BH-DUEL-2, BH-DUEL-3)."""
    out.append(ev.TwoHandedDeclared(model=choice.model, used=choice.use))
    return with_fight(state, replace(f, declared=f.declared + ((choice.model, choice.use),)))


def fight_models(state: BhState, f: Fighting, side: Side) -> tuple[FightModel, ...]:
    """A side's models in the fight as the odds procedures see them, with the two-handed declarations."""
    return tuple(
        validate_data(
            FightModel,
            {"fight": m.fight, "attacks": m.attacks, "strength": m.strength, "defence": m.defence,
             "wounds": m.wounds_left, "two_handed": f.uses_two_handed(m.id), "prone": m.prone},
        )
        for m in living(state, side_of(f.fight, side))
    )


def duel_dice_dist(good: tuple[FightModel, ...], evil: tuple[FightModel, ...]) -> Dist[DuelDice]:
    """Each side's best score: a keep-highest of its dice (BH-DUEL-1..5, BH-DUEL-7), from duels.side_best_dist."""
    return cached_dist(_duel_dice, (_dice_spec(good), _dice_spec(evil)))


def _dice_spec(models: tuple[FightModel, ...]) -> DuelDiceSpec:
    return tuple((m.attacks, m.two_handed, m.duel_modifier) for m in models)


def _duel_dice(sides: tuple[DuelDiceSpec, DuelDiceSpec]) -> Dist[DuelDice]:
    def models(spec: DuelDiceSpec) -> list[FightModel]:
        return [FightModel(fight=1, attacks=a, strength=1, defence=1, two_handed=th, duel_modifier=mod) for a, th, mod in spec]

    good, evil = sides
    return side_best_dist(models(good)).combine(side_best_dist(models(evil)), DuelDice)


def duel_rolled(state: BhState, f: Fighting, o: DuelDice, out: list[Event]) -> BhState:
    """Both sides' best scores are known; Might follows, the priority player first (BH-DUEL-4..6)."""
    out.append(ev.DuelRolled(good_best=o.good_best, evil_best=o.evil_best))
    first = state.priority or "good"
    return with_fight(state, replace(f, stage="might", good_best=o.good_best, evil_best=o.evil_best, might_order=(first, other_side(first))))


def side_fight_value_of(state: BhState, f: Fighting, side: Side) -> int:
    """The highest Fight value among the side's models in the fight (BH-DUEL-8)."""
    return max(m.fight for m in living(state, side_of(f.fight, side)))


def side_might(state: BhState, f: Fighting, side: Side) -> int:
    """The Might the side's Heroes in the fight have left (BH-DUEL-6)."""
    return sum(m.might_left for m in living(state, side_of(f.fight, side)) if m.is_hero)


def useful_might_of(state: BhState, f: Fighting, side: Side) -> int:
    """The most Might points that can still raise the side's best die (BH-DUEL-6, BH-DICE-4)."""
    own = f.good_best if side == "good" else f.evil_best
    return useful_might(own, side_might(state, f, side))


def might_options(state: BhState, f: Fighting, side: Side) -> tuple[SpendMight, ...]:
    """0 to the useful most points on the side's best die; the default policy's choice first (BH-DUEL-6, BH-PROC-4)."""
    own, other = (f.good_best, f.evil_best) if side == "good" else (f.evil_best, f.good_best)
    most = useful_might_of(state, f, side)
    best = might_to_spend(
        own, other, own_fight=side_fight_value_of(state, f, side),
        other_fight=side_fight_value_of(state, f, other_side(side)), might=most,
    )
    return (SpendMight(best), *(SpendMight(k) for k in range(most + 1) if k != best))


def spend_might(state: BhState, f: Fighting, points: int, out: list[Event]) -> BhState:
    """Raise the side's best die by the points spent, taken from its Heroes in fight order (BH-DUEL-6, BH-DICE-4)."""
    side = f.might_order[0]
    f = replace(f, might_order=f.might_order[1:])
    if points:
        left = points
        for m in living(state, side_of(f.fight, side)):
            if m.is_hero and m.might_left and left:
                used = min(left, m.might_left)
                left -= used
                state = put_model(state, replace(m, might_left=m.might_left - used))
                best = raise_with_might(f.good_best if side == "good" else f.evil_best, points - left)
                out.append(ev.MightSpent(model=m.id, points=used, best=best))
        if side == "good":
            f = replace(f, good_best=raise_with_might(f.good_best, points))
        else:
            f = replace(f, evil_best=raise_with_might(f.evil_best, points))
        f = replace(f, might_spent=f.might_spent + points)
    return with_fight(state, f)


def after_might(state: BhState, f: Fighting, out: list[Event]) -> BhState:
    """The winner: best score, then Fight value, else a roll-off (BH-DUEL-7..9)."""
    decided = decide_duel(
        f.good_best, f.evil_best,
        good_fight=side_fight_value_of(state, f, "good"), evil_fight=side_fight_value_of(state, f, "evil"),
    )
    if decided is None:
        return with_fight(state, replace(f, stage="roll_off"))
    return won(state, f, decided.winner, decided.decided_by, out)


def rolled_off(state: BhState, f: Fighting, face: int, out: list[Event]) -> BhState:
    """The roll-off: 1–3 Evil wins, 4–6 Good wins (BH-DUEL-9)."""
    winner = roll_off_winner(face)
    out.append(ev.RolledOff(face=face, winner=winner))
    return won(state, f, winner, "roll_off", out)


def won(state: BhState, f: Fighting, winner: Side, decided_by: str, out: list[Event]) -> BhState:
    """The duel is won: prone winners may stand up, then the losers back away, then the winners strike (BH-FIGHT-3, BH-BACK-5)."""
    out.append(ev.DuelWon(winner=winner, decided_by=decided_by))
    winners = living(state, side_of(f.fight, winner))
    losers = alive_ids(state, side_of(f.fight, other_side(winner)))
    strikers = tuple(m.id for m in winners if makes_strikes(prone=m.prone))  # BH-BACK-5
    offers = tuple(m.id for m in winners if m.prone)
    return with_fight(state, replace(f, stage="stand_up", winner=winner, decided_by=decided_by, losers=losers, strikers=strikers, stand_offers=offers))
