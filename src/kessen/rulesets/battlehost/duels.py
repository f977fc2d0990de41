"""The duel roll: dice, two-handed weapons, modifiers, Might, the winner and its tie-breaks (BH-DUEL-1..9)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from kessen.dice import Dist, d, keep_highest
from kessen.rulesets.battlehost.inputs import DuelInput, DuelModel, FightModel
from kessen.rulesets.battlehost.profiles import Side
from kessen.rulesets.battlehost.rolls import raise_with_might, score, score_die, useful_might

DecidedBy = Literal["score", "fight_value", "roll_off"]

# BH-DUEL-3: a model using a two-handed weapon suffers -1 to each of its duel dice, natural 6s included.
TWO_HANDED_DUEL = -1


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


@dataclass(frozen=True, slots=True)
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


def win_chance(own_best: int, other_best: int, *, own_fight: int, other_fight: int) -> Fraction:
    """A side's chance to win once the bests are known: 1, 1/2 (a roll-off) or 0 (BH-DUEL-7..9).

    >>> win_chance(5, 5, own_fight=4, other_fight=4)
    Fraction(1, 2)
    """
    if own_best != other_best:
        return Fraction(int(own_best > other_best))
    if own_fight != other_fight:
        return Fraction(int(own_fight > other_fight))
    return Fraction(1, 2)


def might_to_spend(own_best: int, other_best: int, *, own_fight: int, other_fight: int, might: int) -> int:
    """The Might the default policy spends on its best die: the fewest points that give the best chance to win
    (BH-DUEL-6, BH-DICE-4, BH-PROC-4).

    >>> might_to_spend(4, 5, own_fight=5, other_fight=5, might=3)   # 1 forces a roll-off, 2 wins outright
    2
    >>> might_to_spend(3, 5, own_fight=5, other_fight=5, might=1)   # one point cannot help
    0
    """
    options = range(useful_might(own_best, might) + 1)
    chances = [
        win_chance(raise_with_might(own_best, k), other_best, own_fight=own_fight, other_fight=other_fight)
        for k in options
    ]
    return chances.index(max(chances))


@functools.lru_cache(maxsize=4096)
def model_best_dist(attacks: int, modifier: int) -> Dist[int]:
    """The highest score among one model's *attacks* duel dice, each with *modifier* (BH-DUEL-1, BH-DUEL-4).

    >>> model_best_dist(1, -1).probability(1)
    Fraction(1, 3)
    """
    return keep_highest(attacks, score_die(modifier))


def side_best_dist(models: Sequence[DuelModel | FightModel]) -> Dist[int]:
    """The distribution of a side's best score: the maximum over its models' dice (BH-DUEL-1, BH-DUEL-7)."""
    best: Dist[int] | None = None
    for model in models:
        mine = model_best_dist(
            model.attacks, duel_die_modifier(two_handed=model.two_handed, duel_modifier=model.duel_modifier)
        )
        best = mine if best is None else best.combine(mine, max)
    assert best is not None, "a side has at least one model"
    return best


@dataclass(frozen=True, slots=True)
class DuelOutcome:
    """Who won the duel, what decided it and the Might spent (BH-PROC-4)."""

    winner: Side
    decided_by: DecidedBy
    might_spent: int


_ROLL_OFF: Dist[Side] = d(6).map(roll_off_winner)


def settle_duel(
    good_best: int, evil_best: int, *, good_fight: int, evil_fight: int, good_might: int = 0, evil_might: int = 0
) -> Dist[DuelOutcome]:
    """The duel's outcome once both bests are rolled: Might by the default policy, then the winner (BH-DUEL-6..9).

    At most one side has Might (BH-PROC-4). The roll-off, when needed, is the only die left.

    >>> settle_duel(4, 5, good_fight=5, evil_fight=5, good_might=1).probability(lambda o: o.winner == "good")
    Fraction(1, 2)
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
    decided = decide_duel(good_best, evil_best, good_fight=good_fight, evil_fight=evil_fight)
    if decided is not None:
        return Dist.always(DuelOutcome(decided.winner, decided.decided_by, spent))
    return _ROLL_OFF.map(lambda winner: DuelOutcome(winner, "roll_off", spent))


def duel_roll(
    good: Sequence[DuelModel | FightModel],
    evil: Sequence[DuelModel | FightModel],
    *,
    good_might: int = 0,
    evil_might: int = 0,
) -> Dist[DuelOutcome]:
    """The exact outcome of a duel roll between two sides (BH-DUEL-1..9).

    Each side's best is a keep-highest of its dice (no enumeration of dice); the pair of bests
    then settles the duel, with at most 6 × 6 pairs.
    """
    good_fight = side_fight_value(m.fight for m in good)
    evil_fight = side_fight_value(m.fight for m in evil)
    bests = side_best_dist(good).combine(side_best_dist(evil), lambda g, e: (g, e))
    return bests.bind(
        lambda pair: settle_duel(
            pair[0],
            pair[1],
            good_fight=good_fight,
            evil_fight=evil_fight,
            good_might=good_might,
            evil_might=evil_might,
        )
    )


def duel(roll: DuelInput) -> Dist[DuelOutcome]:
    """The duel roll of one fight (BH-PROC-4)."""
    return duel_roll(roll.good, roll.evil, good_might=roll.good_might, evil_might=roll.evil_might)

