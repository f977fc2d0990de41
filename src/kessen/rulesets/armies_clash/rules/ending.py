"""Ending the battle: victory points, decisive and tactical victories, the rout of the losers (§5.27, §6.9)."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from kessen.core.engine import Rolled
from kessen.core.records import record
from kessen.dice.faces import Draw, uniform_face
from kessen.dice import Dist, binomial, d

BattleResult = Literal["continue", "decisive", "tactical", "draw"]
Winner = Literal["a", "b", "none"]

VICTORY_VP = 10
"""VP that end the battle (AC-OBJ-1, AC-WIN-1)."""
DECISIVE_LEAD = 3
"""A lead of this many VP is a decisive victory (AC-WIN-2)."""
ROUT_ROLL = 10
"""A losing unit is eliminated on a d20 of this or more after a decisive defeat (AC-WIN-2)."""


@record
class DecisiveRoutQuestion:
    """Both sides' VP and surviving units at the battle-end judgement (§6.9)."""

    vp_a: int
    vp_b: int
    units_a: int
    units_b: int


@record
class DecisiveRoutOutcome:
    """The battle-end judgement and how many of the loser's units flee (§6.9)."""

    result: BattleResult
    winner: Winner
    eliminated: int


def judgement(*, vp_a: int, vp_b: int) -> tuple[BattleResult, Winner]:
    """The result by VP: the battle goes on while both sides have fewer than 10; then equal totals draw,
    a lead of 1–2 is tactical, a lead of 3 or more decisive (AC-WIN-1, AC-WIN-2).

    >>> judgement(vp_a=12, vp_b=9), judgement(vp_a=12, vp_b=10), judgement(vp_a=10, vp_b=10), judgement(vp_a=9, vp_b=9)
    (('decisive', 'a'), ('tactical', 'a'), ('draw', 'none'), ('continue', 'none'))
    """
    if vp_a < VICTORY_VP and vp_b < VICTORY_VP:
        return "continue", "none"
    if vp_a == vp_b:
        return "draw", "none"
    winner: Winner = "a" if vp_a > vp_b else "b"
    return ("decisive" if abs(vp_a - vp_b) >= DECISIVE_LEAD else "tactical"), winner


def rout_faces(outcome: Rolled, draw: Draw) -> tuple[int, ...]:
    """The d20 behind a rout roll known to have eliminated the unit (10 or more) or not (AC-WIN-2)."""
    return (uniform_face(draw, (n for n in range(1, 21) if (n >= ROUT_ROLL) == outcome.value)),)


def rout_chance() -> Fraction:
    """The chance that one surviving unit of a decisively beaten side is eliminated: d20 ≥ 10 (AC-WIN-2).

    >>> rout_chance()
    Fraction(11, 20)
    """
    return d(20).at_least(ROUT_ROLL)


def decisive_rout(situation: DecisiveRoutQuestion) -> Dist[DecisiveRoutOutcome]:
    """The battle-end judgement; after a decisive victory each surviving losing unit rolls independently
    to flee (AC-WIN-2). Units eliminated this way score no VP (AC-WIN-3)."""
    result, winner = judgement(vp_a=situation.vp_a, vp_b=situation.vp_b)
    if result != "decisive":
        return Dist.always(DecisiveRoutOutcome(result, winner, 0))
    survivors = situation.units_b if winner == "a" else situation.units_a
    return binomial(survivors, rout_chance()).map(lambda eliminated: DecisiveRoutOutcome(result, winner, eliminated))
