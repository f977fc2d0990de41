"""The exact numbers shown beside a choice (``Game.odds``; keys labelled in the catalogues' ``[odds]`` table): a
shot's chances to hit, wound and slay (BH-PROC-2), a strike's expected wounds and chance to slay (BH-PROC-3), and the
side's chance to win the duel after the Might it spends (BH-DUEL-6..9), and before a fight is chosen or a charge made,
the chance to win its duel (BH-DUEL-1..9). Shots, strikes and duels are shown without any Might a Hero may add later
to its own dice [DECISION: nor two-handed weapons, declared later; a charge's duel is the charger against the model it
charges, one against one, as it stands before others join]."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.battlehost.referee import duel as referee_duel
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee import shooting as referee_shooting
from kessen.rulesets.battlehost.referee import strikes as referee_strikes
from kessen.rulesets.battlehost.referee.state import BhState, cached_dist, current_fight, living
from kessen.rulesets.battlehost.rules.duel import Duel, Duellist, duel
from kessen.rulesets.battlehost.rules.sides import Side, side_named


def shot_odds(state: BhState, shot: op.ShootAt) -> dict[str, Fraction]:
    """A shot's chances to hit, to wound and to slay its target (BH-PROC-2)."""
    dist = referee_shooting.shot_dist(state, shot)
    return {
        "hit": dist.probability(lambda o: o.hit), "wound": dist.probability(lambda o: o.wounded),
        "slay": dist.probability(lambda o: o.slain),
    }


def strike_odds(state: BhState, strike: op.StrikeAt) -> dict[str, Fraction]:
    """The expected wounds and the chance to slay of the striker's strikes at a target, as many as it makes at
    it now (BH-PROC-3, BH-STRIKE-5)."""
    dist = referee_strikes.strike_dist(state, referee_strikes.aimed(current_fight(state), strike.target))
    mean = sum((p * o.wounds for o, p in dist.probabilities().items()), Fraction(0))
    return {"expected_wounds": mean, "slay": dist.probability(lambda o: o.slain)}


def duel_odds(state: BhState, good: tuple[str, ...], evil: tuple[str, ...], side: Side) -> dict[str, Fraction]:
    """The side's chance to win the duel of a fight between these models, from the duel rule, before Might and
    two-handed weapons (BH-DUEL-1..9, BH-PROC-4)."""
    sides = [tuple(Duellist(m.fight, m.attacks) for m in living(state, ids)) for ids in (good, evil)]
    dist = cached_dist(duel, Duel(sides[0], sides[1]))
    return {"duel": dist.probability(lambda o: o.winner == side)}


def odds(state: BhState, decision: Decision, choice: Any) -> dict[str, Fraction] | None:
    """The exact numbers of *choice* at *decision*, or None where the choice starts no roll of its own."""
    if isinstance(choice, op.ShootAt):
        return shot_odds(state, choice)
    if isinstance(choice, op.StrikeAt):
        return strike_odds(state, choice)
    if isinstance(choice, op.ChooseFight):
        return duel_odds(state, choice.fight.good, choice.fight.evil, side_named(decision.player))
    if isinstance(choice, op.MoveTo) and choice.charge is not None:
        side = state.get(choice.model).side
        pair = (choice.model, choice.charge) if side == "good" else (choice.charge, choice.model)
        return duel_odds(state, pair[:1], pair[1:], side)
    if isinstance(choice, op.SpendMight):
        side = side_named(decision.player)
        return {"win_duel": referee_duel.chance_after_might(state, current_fight(state), side, choice.points)}
    return None
