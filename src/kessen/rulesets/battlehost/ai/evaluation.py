"""What a battlehost position is worth to a side, for the search AI's leaves (issue 23 §2).

A battle is won by the side that has lost the smaller fraction of its starting models (BH-TURN-3), so a position is
worth the difference of those fractions: a model slain counts whole, a wound suffered by a model of several Wounds
in part (BH-STRIKE-3), and each fight already joined (enemies in base contact, BH-FIGHT-1) counts for part of what
its exact odds say it will cost each side (the fight rule, BH-PROC-5), since it is fought this turn or the next; a
model that could not back away if it lost counts as trapped (BH-BACK-4).

Both sides' joined fights count at their worth: zero-sum (issue 23 §5: with a side's own losses in them weighed
double while it was not behind, search won line-fight as Gondor 65% of 20 against greedy, below greedy's own 70%;
at their worth 85%; weighed up a quarter, or double in 1-vs-1 fights only, no better against ``random`` on the
mirror). The coin tosses a side should not lead with are left out of the search's candidates instead
(:func:`kessen.rulesets.battlehost.ai.tactics.coin_tosses`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kessen.rulesets.battlehost.ai.greedy import fighter
from kessen.rulesets.battlehost.referee.backing_away import retreat
from kessen.rulesets.battlehost.referee.battlefield import Model, enemies_in_contact
from kessen.rulesets.battlehost.referee.state import BhState, cached_dist
from kessen.rulesets.battlehost.rules.fight import Fighter, WholeFight, fight
from kessen.rulesets.battlehost.rules.sides import SIDES

FIGHTS_COUNTED = 0.5
"""The part of a joined fight's expected exchange of wounds a position is credited with before it is fought."""


def evaluate(state: BhState, side: str) -> float:
    """The fraction of its starting models the enemy has lost less the fraction *side* has lost, wounds and joined
    fights counted in part (see the module docstring): -1 .. 1, zero-sum."""
    lost = [0.0, 0.0]
    for _model, s in state.casualties:
        lost[SIDES.index(s)] += 1
    for m in state.models:
        if m.wounds > 1 and m.wounds_left < m.wounds:
            lost[SIDES.index(m.side)] += (m.wounds - m.wounds_left) / (m.wounds + 1)
    mine = SIDES.index(side)
    pending = [0.0, 0.0]
    if state.phase != "over":
        for good, evil in _fights(state.models):
            for i, models in enumerate(models_lost(state, good, evil)):
                pending[i] += FIGHTS_COUNTED * models
    fractions = [(lost[i] + pending[i]) / state.start[i] if state.start[i] else 0.0 for i in (0, 1)]
    return max(-1.0, min(1.0, fractions[1 - mine] - fractions[mine]))


def models_lost(state: BhState, good: list[Model], evil: list[Model]) -> tuple[float, float]:
    """The models each side (good, evil) is expected to lose in the fight of *good* against *evil*, from its exact
    odds (BH-PROC-5): each wound as a share of the Wounds of the side's models in it."""
    dist = cached_dist(fight, WholeFight(tuple(_at_bay(state, good, evil)), tuple(_at_bay(state, evil, good))))
    wounds = {"good": 0, "evil": 0}
    for o, w in dist.items():
        wounds["evil" if o.winner == "good" else "good"] += w * o.wounds
    per_wound = [sum(1 / m.wounds for m in ms) / len(ms) for ms in (good, evil)]
    return wounds["good"] / dist.total * per_wound[0], wounds["evil"] / dist.total * per_wound[1]


def _at_bay(state: BhState, mine: list[Model], theirs: list[Model]) -> list[Fighter]:
    """*mine* as the fight rule sees them, each trapped if it could not back away from *theirs* were it to lose
    (BH-BACK-3/4: struck twice, BH-STRIKE-5)."""
    return [fighter(m, trapped=retreat(m, theirs, state.models, state.board).trapped) for m in mine]


def _fights(models: Sequence[Model]) -> list[tuple[list[Model], list[Model]]]:
    """The joined fights, roughly as BH-FIGHT-1 splits them: a model in contact with several enemies fights them all
    alone; the others pair off."""
    touching = {m.id: enemies_in_contact(tuple(models), m) for m in models}
    used: set[str] = set()
    found: list[tuple[list[Model], list[Model]]] = []
    for m in sorted((m for m in models if touching[m.id]), key=lambda m: (-len(touching[m.id]), m.id)):
        if m.id in used:
            continue
        foes = [e for e in touching[m.id] if e.id not in used]
        if not foes:
            continue
        used |= {m.id, *(e.id for e in foes)}
        found.append(([m], foes) if m.side == "good" else (foes, [m]))
    return found
