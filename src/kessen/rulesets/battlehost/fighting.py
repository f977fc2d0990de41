"""A whole fight: the duel roll, trapped losers, then the winners' strikes (BH-FIGHT-3, BH-BACK-4/5, BH-STRIKE-*)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kessen.dice import Dist
from kessen.rulesets.battlehost.duels import DecidedBy, DuelOutcome, duel_roll
from kessen.rulesets.battlehost.inputs import FightInput, FightModel
from kessen.rulesets.battlehost.profiles import Side
from kessen.rulesets.battlehost.strikes import (
    Striker,
    StrikeTarget,
    counts_as_trapped,
    makes_strikes,
    resolve_strikes,
)


@dataclass(frozen=True, slots=True)
class FightOutcome:
    """The duel's result and what the strikes did to the losing side (BH-PROC-5)."""

    winner: Side
    decided_by: DecidedBy
    might_spent: int
    wounds: int
    slain: int


def striking_winners(winners: Sequence[FightModel]) -> tuple[Striker, ...]:
    """The winning side's strikers, in list order: every model but the prone ones (BH-STRIKE-4, BH-BACK-5).

    Only the prone model itself forgoes its strikes; its standing friends strike ([DECISION] in BH-BACK-5).
    """
    return tuple(
        Striker(attacks=m.attacks, strength=m.strength, two_handed=m.two_handed)
        for m in winners
        if makes_strikes(prone=m.prone)
    )


def struck_losers(losers: Sequence[FightModel]) -> tuple[StrikeTarget, ...]:
    """The losing side's models as targets, trapped if they could not back away or are prone (BH-BACK-4, BH-BACK-5)."""
    return tuple(
        StrikeTarget(defence=m.defence, wounds=m.wounds, trapped=counts_as_trapped(trapped=m.trapped, prone=m.prone))
        for m in losers
    )


def strikes_after_duel(fight: FightInput, winner: Side) -> Dist[tuple[int, int]]:
    """(wounds, slain) on the losing side once *winner* is known (BH-FIGHT-3 steps 2 and 3, BH-PROC-5's allocation)."""
    winners, losers = (fight.good, fight.evil) if winner == "good" else (fight.evil, fight.good)
    return resolve_strikes(striking_winners(winners), struck_losers(losers))


def fight(fight: FightInput) -> Dist[FightOutcome]:
    """A whole fight: the duel exactly as BH-PROC-4, then the winners strike the losers (BH-PROC-5, BH-FIGHT-3).

    The strikes depend on the duel only through its winner, so each winner's strike distribution
    is computed once and attached to every duel outcome it won.
    """
    after = {side: strikes_after_duel(fight, side) for side in ("good", "evil")}

    def then_strike(duel: DuelOutcome) -> Dist[FightOutcome]:
        return after[duel.winner].map(
            lambda hurt: FightOutcome(duel.winner, duel.decided_by, duel.might_spent, hurt[0], hurt[1])
        )

    return duel_roll(fight.good, fight.evil, good_might=fight.good_might, evil_might=fight.evil_might).bind(then_strike)
