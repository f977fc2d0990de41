"""Quality rolls: activation (SB-ACT-1, SB-ACT-2) and morale tests (SB-MOR-2)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from kessen.dice import Dist, binomial
from kessen.rulesets.song_of_blades.inputs import ActivationInput, MoraleInput


def quality_die_succeeds(face: int, quality: int) -> bool:
    """A Quality die succeeds on ≥ Quality; a natural 1 always fails, a natural 6 always succeeds (SB-ACT-1).

    >>> [quality_die_succeeds(f, 4) for f in (1, 3, 4, 6)]
    [False, False, True, True]
    """
    return face == 6 or (face != 1 and face >= quality)


def success_chance(quality: int) -> Fraction:
    """The chance that one Quality die succeeds."""
    return Fraction(sum(1 for face in range(1, 7) if quality_die_succeeds(face, quality)), 6)


@dataclass(frozen=True, slots=True)
class ActivationOutcome:
    """Actions earned, failures rolled, and whether the turn passes (§6.3)."""

    actions: int
    failures: int
    turnover: bool


def activation(roll: ActivationInput) -> Dist[ActivationOutcome]:
    """An activation roll of 1–3 dice: each success is an action; two failures or more is a turnover (SB-ACT-1, SB-ACT-2)."""
    return binomial(roll.dice, success_chance(roll.quality)).map(
        lambda actions: ActivationOutcome(actions, roll.dice - actions, roll.dice - actions >= 2)
    )


MoraleResult = Literal["stands", "flees", "destroyed"]


@dataclass(frozen=True, slots=True)
class MoraleOutcome:
    """A morale test: failures, and whether the model stands, flees (1 or 2 moves) or is destroyed (§6.4)."""

    failures: int
    result: MoraleResult
    flee_moves: int


def morale_result(failures: int) -> MoraleOutcome:
    """0 failures: stands; 1 or 2: flees that many moves; 3: destroyed (SB-MOR-2)."""
    if failures == 0:
        return MoraleOutcome(0, "stands", 0)
    if failures == 3:
        return MoraleOutcome(3, "destroyed", 0)
    return MoraleOutcome(failures, "flees", failures)


def morale(test: MoraleInput) -> Dist[MoraleOutcome]:
    """A morale test: three Quality dice (SB-MOR-2)."""
    return binomial(3, 1 - success_chance(test.quality)).map(morale_result)
