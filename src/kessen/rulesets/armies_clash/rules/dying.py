"""Dying solos: end-of-round death saving throws (§5.24, AC-END-4, §6.10)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist, d
from kessen.dice.faces import Draw, weighted

Fate = Literal["dead", "stable", "revived", "dying"]

MAX_DEATH_SAVES = 10
"""At most this many death saves at the end of a round (AC-END-4); five always settle the matter."""


@record
class DeathSavesQuestion:
    """A dying solo's death-save tallies before its end-of-round saves (§6.10)."""

    successes: int = 0
    failures: int = 0


@record
class DeathSavesOutcome:
    """How a dying PC solo's death saves ended, and after how many rolls (§6.10); in a battle, *dice* are the d20s
    rolled (:func:`death_faces`)."""

    result: Fate
    rolls: int
    dice: tuple[int, ...] = dice_field()


@record
class Tally:
    """Death-save successes and failures so far, and how it stands."""

    successes: int
    failures: int
    fate: Fate = "dying"


def death_save(tally: Tally, natural: int) -> Tally:
    """One death saving throw (AC-END-4): 20 revives; 10–19 is a success, 2–9 a failure, 1 two failures;
    three successes make the solo stable, three failures kill it.

    >>> death_save(Tally(0, 2), 1)
    Tally(successes=0, failures=4, fate='dead')
    >>> death_save(Tally(2, 2), 20)
    Tally(successes=2, failures=2, fate='revived')
    """
    if natural == 20:
        return Tally(tally.successes, tally.failures, "revived")
    if natural >= 10:
        successes = tally.successes + 1
        return Tally(successes, tally.failures, "stable" if successes >= 3 else "dying")
    failures = tally.failures + (2 if natural == 1 else 1)
    return Tally(tally.successes, failures, "dead" if failures >= 3 else "dying")


def death_saves(situation: DeathSavesQuestion) -> Dist[DeathSavesOutcome]:
    """Death saves rolled one after another until the solo's fate is settled, at most 10 (AC-END-4)."""
    state: Dist[tuple[Tally, int]] = Dist.always((Tally(situation.successes, situation.failures), 0))
    for _ in range(MAX_DEATH_SAVES):
        state = state.bind(_next)
    return state.map(lambda s: DeathSavesOutcome(s[0].fate, s[1]))


def _next(state: tuple[Tally, int]) -> Dist[tuple[Tally, int]]:
    tally, rolls = state
    if tally.fate != "dying":
        return Dist.always(state)
    # only the tallies matter once settled; forget them so equal fates merge
    return d(20).map(lambda n: _settled(death_save(tally, n), rolls + 1))


def _settled(tally: Tally, rolls: int) -> tuple[Tally, int]:
    return (Tally(0, 0, tally.fate), rolls) if tally.fate != "dying" else (tally, rolls)


@lru_cache(maxsize=1024)
def _ways(tally: Tally, left: int, fate: Fate) -> int:
    """How many of the 20**left rolls of *left* more death saves from *tally* settle at *fate* on the last of them."""
    if tally.fate != "dying" or left == 0:
        return int(left == 0 and tally.fate == fate)
    return sum(_ways(death_save(tally, n), left - 1, fate) for n in range(1, 21))


def death_faces(situation: DeathSavesQuestion, outcome: DeathSavesOutcome, draw: Draw) -> tuple[int, ...]:
    """The d20s behind *outcome*, one by one, each face weighted by the rolls after it that still settle the same
    fate after as many rolls; with :func:`death_saves`' result, exactly the odds of rolling them (AC-END-4)."""
    tally = Tally(situation.successes, situation.failures)
    faces: list[int] = []
    for left in range(outcome.rolls - 1, -1, -1):
        face = int(weighted(draw, {n: _ways(death_save(tally, n), left, outcome.result) for n in range(1, 21)}))
        faces.append(face)
        tally = death_save(tally, face)
    return tuple(faces)
