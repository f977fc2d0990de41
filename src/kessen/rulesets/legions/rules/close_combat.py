"""Close combat: fight rolls, extra dice, fights and the combat result (LI-FIGHT, LI-RESULT, §5.4, §5.5)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Literal

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist, d
from kessen.dice.faces import Draw, sum_faces, sum_ways, weighted

Winner = Literal["a", "b", "draw"]
Side = Literal["a", "b"]


@record
class FightSide:
    """One model of a fight (§5.4): its CAF, other modifiers, whether it charged (LI-FIGHT-3), which fight of the
    combat this is for it (LI-FIGHT-4) and extra dice from other rules."""

    caf: int
    modifier: int = 0
    charged: bool = False
    fight_number: int = 1
    extra_dice: int = 0


@record
class FightQuestion:
    """One fight between model *a* and model *b* (§5.4)."""

    a: FightSide
    b: FightSide


@record
class CombatModel:
    """A model of a combat (§5.5)."""

    id: str
    side: Side
    caf: int
    wounds_remaining: int = 1
    charged: bool = False
    modifier: int = 0
    extra_dice: int = 0


@record
class CombatQuestion:
    """A combat from its paired fights, in the order they are resolved, to its result (§5.5); the ``*_other_models``
    are the surviving models of each side's Detachments in the combat that are in no fight (LI-RESULT-2)."""

    models: tuple[CombatModel, ...]
    fights: tuple[tuple[str, str], ...]
    a_other_models: int = 0
    b_other_models: int = 0

MAX_FIGHT_DICE = 6
"""A fight roll never uses more than 6D6, whatever adds the dice (LI-FIGHT-4)."""


def fight_dice(*, opponent_fights_before: int, extra_dice: int) -> int:
    """How many D6 a model rolls in a fight (LI-FIGHT-2, LI-FIGHT-4).

    2D6, one more for every fight its opponent has already fought in this combat, plus dice from
    other rules, never more than 6D6.

    >>> fight_dice(opponent_fights_before=1, extra_dice=0), fight_dice(opponent_fights_before=2, extra_dice=3)
    (3, 6)
    """
    return min(MAX_FIGHT_DICE, 2 + opponent_fights_before + extra_dice)


def fight_bonus(*, caf: int, modifier: int, charged: bool) -> int:
    """What a model adds to its fight dice: CAF, other modifiers, +1 for a charge that moved (LI-FIGHT-2, LI-FIGHT-3).

    >>> fight_bonus(caf=2, modifier=-1, charged=True)
    2
    """
    return caf + modifier + (1 if charged else 0)


def fight_winner(a_total: int, b_total: int) -> Winner:
    """The higher total wins; equal totals are a draw (LI-FIGHT-5)."""
    if a_total == b_total:
        return "draw"
    return "a" if a_total > b_total else "b"


@lru_cache(maxsize=64)
def _dice_sum(dice: int) -> Dist[int]:
    return d(6).repeat(dice)


@lru_cache(maxsize=4096)
def fight_result(a_dice: int, b_dice: int, a_lead: int) -> Dist[Winner]:
    """Who wins a fight in which a rolls *a_dice* D6 and b *b_dice* D6, a adding *a_lead* more than b (LI-FIGHT-2, LI-FIGHT-5)."""
    return _dice_sum(a_dice).combine(_dice_sum(b_dice), lambda x, y: fight_winner(x + a_lead, y))


@record
class FightShown:
    """A fight roll as the table sees it: each side's D6 and what it adds to them (LI-FIGHT-2..4)."""

    a_dice: tuple[int, ...]
    b_dice: tuple[int, ...]
    a_bonus: int
    b_bonus: int


@record
class FightOutcome:
    """The outcome field of ``fight`` (§5.4); in a battle, *dice* are both sides' fight dice (:func:`fight_faces`)."""

    winner: Winner
    dice: FightShown | None = dice_field(None)


def _bonus(side: FightSide) -> int:
    return fight_bonus(caf=side.caf, modifier=side.modifier, charged=side.charged)


def fight(value: FightQuestion) -> Dist[FightOutcome]:
    """One fight: each side's dice and bonus, higher total wins (LI-FIGHT-2..5, §5.4).

    ``fight_number`` n of a model means its opponent rolls n − 1 extra dice (LI-FIGHT-4).
    """
    a_dice, b_dice = _fight_dice(value)
    return fight_result(a_dice, b_dice, _bonus(value.a) - _bonus(value.b)).map(FightOutcome)


def _fight_dice(value: FightQuestion) -> tuple[int, int]:
    return (
        fight_dice(opponent_fights_before=value.b.fight_number - 1, extra_dice=value.a.extra_dice),
        fight_dice(opponent_fights_before=value.a.fight_number - 1, extra_dice=value.b.extra_dice),
    )


def fight_faces(value: FightQuestion, outcome: FightOutcome, draw: Draw) -> FightShown:
    """Both sides' fight dice behind *outcome*: the two sums weighted by the rolls that make them and that winner,
    then each side's dice given its sum; with :func:`fight`'s result, exactly the odds of rolling them (LI-FIGHT-2,
    LI-FIGHT-5)."""
    a_dice, b_dice = _fight_dice(value)
    a_bonus, b_bonus = _bonus(value.a), _bonus(value.b)
    sums = weighted(draw, {
        (x, y): sum_ways((6,) * a_dice, x) * sum_ways((6,) * b_dice, y)
        for x in range(a_dice, 6 * a_dice + 1) for y in range(b_dice, 6 * b_dice + 1)
        if fight_winner(x + a_bonus - b_bonus, y) == outcome.winner
    })
    return FightShown(
        sum_faces(draw, sides=(6,) * a_dice, total=sums[0]), sum_faces(draw, sides=(6,) * b_dice, total=sums[1]), a_bonus, b_bonus
    )


@record
class CombatOutcome:
    """The outcome fields of ``combat`` (§5.5)."""

    a_fights_won: int
    b_fights_won: int
    a_destroyed: int
    b_destroyed: int
    winner: Winner


def combat_winner(
    *, a_fights_won: int, b_fights_won: int, a_all_destroyed: bool, b_all_destroyed: bool
) -> Winner:
    """The combat result (LI-RESULT-1, LI-RESULT-2).

    A side with no models left in the combat loses even if it won more fights; otherwise the side
    that won more fights wins, and equal numbers are a draw.

    >>> combat_winner(a_fights_won=1, b_fights_won=2, a_all_destroyed=False, b_all_destroyed=True)
    'a'
    """
    if a_all_destroyed:
        return "b"
    if b_all_destroyed:
        return "a"
    if a_fights_won == b_fights_won:
        return "draw"
    return "a" if a_fights_won > b_fights_won else "b"


# The running state of a combat: the models that still have a fight to come, as sorted
# (model index, Wounds left, fights fought) triples, then a's and b's fights won and models destroyed.
_Models = tuple[tuple[int, int, int], ...]
_State = tuple[_Models, int, int, int, int]


def combat(value: CombatQuestion) -> Dist[CombatOutcome]:
    """A whole combat, fight by fight in the given order, to its result (LI-FIGHT-1..6, LI-RESULT-1..2, §5.5).

    A fight whose model is already destroyed is skipped and counts for nobody (LI-FIGHT-6); only
    fights actually fought add extra dice (LI-FIGHT-4). A model leaves the running state after its
    last fight, remembered only in the destroyed counts, so equal states merge.
    """
    models = value.models
    index = {m.id: i for i, m in enumerate(models)}
    fights = [(index[x], index[y]) if models[index[x]].side == "a" else (index[y], index[x]) for x, y in value.fights]
    last_fight = {i: k for k, pair in enumerate(fights) for i in pair}
    bonus = [fight_bonus(caf=m.caf, modifier=m.modifier, charged=m.charged) for m in models]

    def play(k: int) -> Callable[[_State], Dist[_State]]:
        a, b = fights[k]

        def step(state: _State) -> Dist[_State]:
            in_play, a_won, b_won, a_lost, b_lost = state
            table = {i: (w, n) for i, w, n in in_play}
            (aw, an), (bw, bn) = (table.get(i, (models[i].wounds_remaining, 0)) for i in (a, b))

            def settle(
                new_a: tuple[int, int], new_b: tuple[int, int], won: tuple[int, int], lost: tuple[int, int]
            ) -> _State:
                after_fight = {**table, a: new_a, b: new_b}
                kept = tuple(sorted((i, w, n) for i, (w, n) in after_fight.items() if last_fight[i] > k))
                return (kept, a_won + won[0], b_won + won[1], a_lost + lost[0], b_lost + lost[1])

            if aw == 0 or bw == 0:  # LI-FIGHT-6
                return Dist.always(settle((aw, an), (bw, bn), (0, 0), (0, 0)))
            a_dice = fight_dice(opponent_fights_before=bn, extra_dice=models[a].extra_dice)
            b_dice = fight_dice(opponent_fights_before=an, extra_dice=models[b].extra_dice)

            def after(winner: Winner) -> _State:
                if winner == "a":  # LI-FIGHT-5: the loser loses one Wound, destroyed at 0
                    return settle((aw, an + 1), (bw - 1, bn + 1), (1, 0), (0, 1 if bw == 1 else 0))
                if winner == "b":
                    return settle((aw - 1, an + 1), (bw, bn + 1), (0, 1), (1 if aw == 1 else 0, 0))
                return settle((aw, an + 1), (bw, bn + 1), (0, 0), (0, 0))

            return fight_result(a_dice, b_dice, bonus[a] - bonus[b]).map(after)

        return step

    state: Dist[_State] = Dist.always(((), 0, 0, 0, 0))
    for k in range(len(fights)):
        state = state.bind(play(k))

    a_fighting = sum(1 for m in models if m.side == "a")
    b_fighting = len(models) - a_fighting

    def outcome(final: _State) -> CombatOutcome:
        _, a_won, b_won, a_lost, b_lost = final
        winner = combat_winner(
            a_fights_won=a_won,
            b_fights_won=b_won,
            a_all_destroyed=a_lost == a_fighting and value.a_other_models == 0,
            b_all_destroyed=b_lost == b_fighting and value.b_other_models == 0,
        )
        return CombatOutcome(a_won, b_won, a_lost, b_lost, winner)

    return state.map(outcome)
