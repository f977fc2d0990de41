"""The duel roll: dice, two-handed weapons, modifiers, Might, the winner and its tie-breaks (BH-DUEL-1..9)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import prod
from typing import Literal, Protocol

from kessen.core.records import record
from kessen.dice import Dist, d
from kessen.dice.faces import Draw, weighted
from kessen.rulesets.battlehost.rules.dice import FACES, faces_scoring_at_most, raise_with_might, score, useful_might
from kessen.rulesets.battlehost.rules.sides import Side

DecidedBy = Literal["score", "fight_value", "roll_off"]

# BH-DUEL-3: a model using a two-handed weapon suffers -1 to each of its duel dice, natural 6s included.
TWO_HANDED_DUEL = -1


class RollsDuelDice(Protocol):
    """A model as its duel dice see it: its Fight value, Attacks, two-handed weapon and flat modifier (BH-DUEL-1..4)."""

    @property
    def fight(self) -> int: ...
    @property
    def attacks(self) -> int: ...
    @property
    def two_handed(self) -> bool: ...
    @property
    def duel_modifier(self) -> int: ...


@record
class Duellist:
    """One model's part in a duel roll (BH-PROC-4)."""

    fight: int
    attacks: int
    two_handed: bool = False
    duel_modifier: int = 0


@record
class Duel:
    """The duel roll of one fight: each side's models and the Might it may spend on its best die (BH-PROC-4)."""

    good: tuple[Duellist, ...]
    evil: tuple[Duellist, ...]
    good_might: int = 0
    evil_might: int = 0


def duel_die_modifier(*, two_handed: bool, duel_modifier: int = 0) -> int:
    """The modifier to each of a model's duel dice: its flat modifier, −1 if it uses a two-handed weapon (BH-DUEL-3, BH-DUEL-4).

    >>> duel_die_modifier(two_handed=True, duel_modifier=1)
    0
    """
    return duel_modifier + (TWO_HANDED_DUEL if two_handed else 0)


def duel_scores(faces: Iterable[int], *, two_handed: bool, duel_modifier: int = 0) -> tuple[int, ...]:
    """The scores of one model's duel dice from their natural faces, clamped to 1–6 (BH-DUEL-3, BH-DUEL-4, BH-DICE-2).

    >>> duel_scores([6, 2, 1], two_handed=True)
    (5, 1, 1)
    """
    modifier = duel_die_modifier(two_handed=two_handed, duel_modifier=duel_modifier)
    return tuple(score(face, modifier) for face in faces)


def side_best(scores: Iterable[int]) -> int:
    """A side's score: the highest score among all its dice, whichever model rolled them (BH-DUEL-1, BH-DUEL-7).

    >>> side_best([3, 5, 1])
    5
    """
    return max(scores)


def side_fight_value(fight_values: Iterable[int]) -> int:
    """A side's Fight value for the tie-break: the highest among its models in the fight (BH-DUEL-8).

    >>> side_fight_value([3, 5, 4])
    5
    """
    return max(fight_values)


def roll_off_winner(face: int) -> Side:
    """The tie-break die: 1–3 Evil wins, 4–6 Good wins (BH-DUEL-9).

    >>> roll_off_winner(3), roll_off_winner(4)
    ('evil', 'good')
    """
    if not 1 <= face <= 6:
        raise ValueError(f"a D6 shows 1 to 6 (got {face})")
    return "good" if face >= 4 else "evil"


@record
class DuelDecision:
    """Who won a duel and what decided it (BH-DUEL-7..9)."""

    winner: Side
    decided_by: DecidedBy


def decide_duel(good_best: int, evil_best: int, *, good_fight: int, evil_fight: int) -> DuelDecision | None:
    """The winner from the two sides' best scores, or None when only a roll-off can decide (BH-DUEL-7, BH-DUEL-8).

    >>> decide_duel(5, 5, good_fight=4, evil_fight=3)
    DuelDecision(winner='good', decided_by='fight_value')
    >>> decide_duel(5, 5, good_fight=3, evil_fight=3) is None
    True
    """
    if good_best != evil_best:
        return DuelDecision("good" if good_best > evil_best else "evil", "score")
    if good_fight != evil_fight:
        return DuelDecision("good" if good_fight > evil_fight else "evil", "fight_value")
    return None


def duel_winner(
    good_best: int, evil_best: int, *, good_fight: int, evil_fight: int, roll_off_face: int | None = None
) -> DuelDecision:
    """The winner of a duel from the best scores, Fight values and, if needed, the roll-off die (BH-DUEL-7..9).

    >>> duel_winner(5, 5, good_fight=3, evil_fight=3, roll_off_face=2)
    DuelDecision(winner='evil', decided_by='roll_off')
    """
    decided = decide_duel(good_best, evil_best, good_fight=good_fight, evil_fight=evil_fight)
    if decided is not None:
        return decided
    if roll_off_face is None:
        raise ValueError("the bests and the Fight values are equal: the roll-off die is needed")
    return DuelDecision(roll_off_winner(roll_off_face), "roll_off")


def win_halves(own_best: int, other_best: int, *, own_fight: int, other_fight: int) -> int:
    """A side's chance to win once the bests are known, in halves: 2 (it wins), 1 (a roll-off) or 0 (BH-DUEL-7..9).

    >>> win_halves(6, 5, own_fight=1, other_fight=9), win_halves(5, 5, own_fight=4, other_fight=4)
    (2, 1)
    """
    if own_best != other_best:
        return 2 if own_best > other_best else 0
    if own_fight != other_fight:
        return 2 if own_fight > other_fight else 0
    return 1


def win_chance(own_best: int, other_best: int, *, own_fight: int, other_fight: int) -> Fraction:
    """A side's chance to win once the bests are known: 1, 1/2 (a roll-off) or 0 (BH-DUEL-7..9).

    >>> win_chance(5, 5, own_fight=4, other_fight=4)
    Fraction(1, 2)
    """
    return Fraction(win_halves(own_best, other_best, own_fight=own_fight, other_fight=other_fight), 2)


def might_to_spend(own_best: int, other_best: int, *, own_fight: int, other_fight: int, might: int) -> int:
    """The Might the default policy spends on its best die: the fewest points that give the best chance to win
    (BH-DUEL-6, BH-DICE-4, BH-PROC-4).

    >>> might_to_spend(4, 5, own_fight=5, other_fight=5, might=3)   # 1 forces a roll-off, 2 wins outright
    2
    >>> might_to_spend(3, 5, own_fight=5, other_fight=5, might=1)   # one point cannot help
    0
    """
    most = useful_might(own_best, might)
    if most == 0 or win_halves(own_best, other_best, own_fight=own_fight, other_fight=other_fight) == 2:
        return 0  # no point can change the die, or the side wins already
    chances = [
        win_halves(raise_with_might(own_best, k), other_best, own_fight=own_fight, other_fight=other_fight)
        for k in range(most + 1)
    ]
    return chances.index(max(chances))


def model_best_at_most(attacks: int, modifier: int) -> tuple[int, ...]:
    """For each score s = 0..6, the ways (out of 6**attacks) that all of a model's duel dice score s or less
    (BH-DUEL-1, BH-DUEL-4).

    >>> model_best_at_most(2, 0)
    (0, 1, 4, 9, 16, 25, 36)
    """
    return tuple(faces ** attacks for faces in faces_scoring_at_most(modifier))


def side_best_weights(models: Sequence[RollsDuelDice]) -> dict[int, int]:
    """A side's best score → its weight out of 6**(the side's dice) (BH-DUEL-1, BH-DUEL-7).

    The best is at most s exactly when every die of every model is; the weight of a best of s is
    then (ways at most s) − (ways at most s − 1). No die is enumerated.
    """
    at_most = [1] * 7
    for model in models:
        mine = model_best_at_most(
            model.attacks, duel_die_modifier(two_handed=model.two_handed, duel_modifier=model.duel_modifier)
        )
        at_most = [a * b for a, b in zip(at_most, mine)]
    return {s: at_most[s] - at_most[s - 1] for s in range(1, 7) if at_most[s] > at_most[s - 1]}


def side_faces(models: Sequence[RollsDuelDice], best: int, draw: Draw) -> tuple[tuple[int, ...], ...]:
    """The natural duel dice of each of a side's models, known to give the side's *best* score: die by die, each
    face weighted by the ways the dice after it can still make that best (none above it, one at it if none was
    yet); with :func:`side_best_dist`'s best, exactly the odds of rolling them (BH-DUEL-1, BH-DUEL-3, BH-DUEL-4)."""
    modifiers = [
        duel_die_modifier(two_handed=m.two_handed, duel_modifier=m.duel_modifier) for m in models for _ in range(m.attacks)
    ]
    at_most = [faces_scoring_at_most(mod) for mod in modifiers]
    faces: list[int] = []
    reached = False
    for i, mod in enumerate(modifiers):
        none_above = prod(a[best] for a in at_most[i + 1 :])
        one_at = none_above - prod(a[best - 1] for a in at_most[i + 1 :])
        face = weighted(draw, {
            f: none_above if reached or score(f, mod) == best else one_at for f in FACES if score(f, mod) <= best
        })
        reached = reached or score(face, mod) == best
        faces.append(face)
    grouped, start = [], 0
    for m in models:
        grouped.append(tuple(faces[start : start + m.attacks]))
        start += m.attacks
    return tuple(grouped)


def model_best_dist(attacks: int, modifier: int) -> Dist[int]:
    """The highest score among one model's *attacks* duel dice, each with *modifier* (BH-DUEL-1, BH-DUEL-4).

    >>> model_best_dist(1, -1).probability(1)
    Fraction(1, 3)
    """
    at_most = model_best_at_most(attacks, modifier)
    return Dist({s: at_most[s] - at_most[s - 1] for s in range(1, 7)})


def side_best_dist(models: Sequence[RollsDuelDice]) -> Dist[int]:
    """The distribution of a side's best score: the maximum over its models' dice (BH-DUEL-1, BH-DUEL-7)."""
    return Dist(side_best_weights(models))


@record
class DuelOutcome:
    """Who won the duel, what decided it and the Might spent (BH-PROC-4)."""

    winner: Side
    decided_by: DecidedBy
    might_spent: int


_ROLL_OFF: Dist[Side] = d(6).map(roll_off_winner)
# BH-DUEL-9: the roll-off's faces for each side, over the roll-off's total.
_ROLL_OFF_FACES: dict[Side, int] = {side: _ROLL_OFF.weight(side) for side in ("good", "evil")}
_ROLL_OFF_TOTAL = _ROLL_OFF.total


def settle_bests(
    good_best: int, evil_best: int, *, good_fight: int, evil_fight: int, good_might: int = 0, evil_might: int = 0
) -> tuple[DuelDecision | None, int]:
    """The default Might policy, then the winner if the dice decide it (None: a roll-off), and the Might spent
    (BH-DUEL-6..8, BH-PROC-4). At most one side has Might.

    >>> settle_bests(4, 5, good_fight=5, evil_fight=5, good_might=1)
    (None, 1)
    """
    if good_might and evil_might:
        raise ValueError("the default Might policy serves one side only (BH-PROC-4)")
    spent = 0
    if good_might:
        spent = might_to_spend(good_best, evil_best, own_fight=good_fight, other_fight=evil_fight, might=good_might)
        good_best = raise_with_might(good_best, spent)
    elif evil_might:
        spent = might_to_spend(evil_best, good_best, own_fight=evil_fight, other_fight=good_fight, might=evil_might)
        evil_best = raise_with_might(evil_best, spent)
    return decide_duel(good_best, evil_best, good_fight=good_fight, evil_fight=evil_fight), spent


def settle_duel(
    good_best: int, evil_best: int, *, good_fight: int, evil_fight: int, good_might: int = 0, evil_might: int = 0
) -> Dist[DuelOutcome]:
    """The duel's outcome once both bests are rolled: Might by the default policy, then the winner (BH-DUEL-6..9).

    The roll-off, when needed, is the only die left.

    >>> settle_duel(4, 5, good_fight=5, evil_fight=5, good_might=1).probability(lambda o: o.winner == "good")
    Fraction(1, 2)
    """
    decided, spent = settle_bests(
        good_best, evil_best, good_fight=good_fight, evil_fight=evil_fight, good_might=good_might, evil_might=evil_might
    )
    if decided is not None:
        return Dist.always(DuelOutcome(decided.winner, decided.decided_by, spent))
    return _ROLL_OFF.map(lambda winner: DuelOutcome(winner, "roll_off", spent))


DuelKey = tuple[Side, DecidedBy, int]


def duel_weights(
    good: Sequence[RollsDuelDice],
    evil: Sequence[RollsDuelDice],
    *,
    good_might: int = 0,
    evil_might: int = 0,
) -> dict[DuelKey, int]:
    """(winner, decided_by, might_spent) → weight over every natural die of the duel and the roll-off (BH-DUEL-1..9).

    Each side's best comes from :func:`side_best_weights`; the at most 6 × 6 pairs of bests are
    settled by :func:`settle_bests`, and a pair that needs a roll-off splits over its faces.
    """
    good_fight = side_fight_value(m.fight for m in good)
    evil_fight = side_fight_value(m.fight for m in evil)
    evil_bests = side_best_weights(evil).items()
    out: dict[DuelKey, int] = {}
    for good_best, good_ways in side_best_weights(good).items():
        for evil_best, evil_ways in evil_bests:
            ways = good_ways * evil_ways
            decided, spent = settle_bests(
                good_best, evil_best,
                good_fight=good_fight, evil_fight=evil_fight, good_might=good_might, evil_might=evil_might,
            )
            if decided is not None:
                key: DuelKey = (decided.winner, decided.decided_by, spent)
                out[key] = out.get(key, 0) + ways * _ROLL_OFF_TOTAL
            else:
                for side, faces in _ROLL_OFF_FACES.items():
                    key = (side, "roll_off", spent)
                    out[key] = out.get(key, 0) + ways * faces
    return out


def duel_roll(
    good: Sequence[RollsDuelDice],
    evil: Sequence[RollsDuelDice],
    *,
    good_might: int = 0,
    evil_might: int = 0,
) -> Dist[DuelOutcome]:
    """The exact outcome of a duel roll between two sides (BH-DUEL-1..9)."""
    weights = duel_weights(good, evil, good_might=good_might, evil_might=evil_might)
    return Dist({DuelOutcome(*key): ways for key, ways in weights.items()})


def duel(roll: Duel) -> Dist[DuelOutcome]:
    """The duel roll of one fight (BH-PROC-4)."""
    return duel_roll(roll.good, roll.evil, good_might=roll.good_might, evil_might=roll.evil_might)
