"""A whole fight: the duel roll, trapped losers, then the winners' strikes (BH-FIGHT-3, BH-BACK-4/5, BH-STRIKE-*)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.battlehost.rules.duel import DecidedBy, duel_weights
from kessen.rulesets.battlehost.rules.sides import Side
from kessen.rulesets.battlehost.rules.strikes import Striker, StrikeTarget, counts_as_trapped, makes_strikes, strike_weights


@record
class Fighter:
    """One model's part in a whole fight (BH-PROC-5)."""

    fight: int
    attacks: int
    strength: int
    defence: int
    wounds: int = 1
    two_handed: bool = False
    duel_modifier: int = 0
    prone: bool = False
    trapped: bool = False


@record
class WholeFight:
    """A whole fight, duel then strikes: each side's models and the Might it may spend in the duel (BH-PROC-5)."""

    good: tuple[Fighter, ...]
    evil: tuple[Fighter, ...]
    good_might: int = 0
    evil_might: int = 0


@record
class FightOutcome:
    """The duel's result and what the strikes did to the losing side (BH-PROC-5)."""

    winner: Side
    decided_by: DecidedBy
    might_spent: int
    wounds: int
    slain: int


def striking_winners(winners: Sequence[Fighter]) -> tuple[Striker, ...]:
    """The winning side's strikers, in list order: every model but the prone ones (BH-STRIKE-4, BH-BACK-5).

    Only the prone model itself forgoes its strikes; its standing friends strike ([DECISION] in BH-BACK-5).
    """
    return tuple(
        Striker(attacks=m.attacks, strength=m.strength, two_handed=m.two_handed)
        for m in winners
        if makes_strikes(prone=m.prone)
    )


def struck_losers(losers: Sequence[Fighter]) -> tuple[StrikeTarget, ...]:
    """The losing side's models as targets, trapped if they could not back away or are prone (BH-BACK-4, BH-BACK-5)."""
    return tuple(
        StrikeTarget(defence=m.defence, wounds=m.wounds, trapped=counts_as_trapped(trapped=m.trapped, prone=m.prone))
        for m in losers
    )


def strikes_after_duel(fight: WholeFight, winner: Side) -> tuple[dict[tuple[int, int], int], int]:
    """(wounds, slain) on the losing side once *winner* is known, as weights and their total
    (BH-FIGHT-3 steps 2 and 3, BH-PROC-5's allocation)."""
    winners, losers = (fight.good, fight.evil) if winner == "good" else (fight.evil, fight.good)
    return strike_weights(striking_winners(winners), struck_losers(losers))


def fight(fight: WholeFight) -> Dist[FightOutcome]:
    """A whole fight: the duel exactly as BH-PROC-4, then the winners strike the losers (BH-PROC-5, BH-FIGHT-3).

    The strikes depend on the duel only through its winner, so each winner's strikes are counted
    once and attached to every duel outcome it won, over one common total.
    """
    duel = duel_weights(fight.good, fight.evil, good_might=fight.good_might, evil_might=fight.evil_might)
    after = {side: strikes_after_duel(fight, side) for side in {key[0] for key in duel}}
    common = math.lcm(*(total for _, total in after.values()))
    out: dict[FightOutcome, int] = {}
    for (winner, decided_by, might_spent), ways in duel.items():
        hurt, total = after[winner]
        scale = ways * (common // total)
        for (wounds, slain), w in hurt.items():
            out[FightOutcome(winner, decided_by, might_spent, wounds, slain)] = scale * w
    return Dist(out)
