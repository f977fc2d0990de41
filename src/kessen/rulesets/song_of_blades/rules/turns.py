"""Turns and the end of the game: the roll-off for the first turn and who wins (SB-TURN-1, SB-TURN-4)."""

from __future__ import annotations

from typing import NamedTuple

from kessen.dice import Dist


class RollOffDice(NamedTuple):
    """The last roll of the roll-off: the d6 of the scenario's first side and of its second (SB-TURN-1)."""

    first_die: int
    second_die: int


# SB-TURN-1: each player rolls a d6, the higher goes first, ties are rolled again; so the roll that decides is
# one of the 30 equally likely pairs of different faces
ROLL_OFF: Dist[RollOffDice] = Dist({RollOffDice(a, b): 1 for a in range(1, 7) for b in range(1, 7) if a != b})


def first_to_play(rolled: RollOffDice) -> int:
    """Which side takes the first turn, 0 (the scenario's first) or 1: the higher die (SB-TURN-1).

    >>> first_to_play(RollOffDice(2, 5))
    1
    """
    return 0 if rolled.first_die > rolled.second_die else 1


def game_winner(*, models_left: tuple[int, int], points_lost: tuple[int, int], starting_points: tuple[int, int]) -> int | None:
    """Which side wins, 0 or 1, or None for a draw (SB-TURN-4): a side with no model left loses; else the side that
    lost the smaller fraction of its starting points wins, equal fractions are a draw (compared exactly).

    >>> game_winner(models_left=(1, 1), points_lost=(30, 20), starting_points=(90, 50))
    0
    >>> game_winner(models_left=(1, 1), points_lost=(36, 20), starting_points=(90, 50)) is None
    True
    """
    alive = [i for i in (0, 1) if models_left[i] > 0]
    if len(alive) < 2:
        return alive[0] if alive else None
    first, second = points_lost[0] * starting_points[1], points_lost[1] * starting_points[0]
    if first == second:
        return None
    return 0 if first < second else 1
