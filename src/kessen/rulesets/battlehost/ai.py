"""A simple AI for battlehost that weighs its choices with the exact odds of the ruleset's procedures."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.io.validation import validate_data
from kessen.rulesets.battlehost import game as g
from kessen.rulesets.battlehost.battlefield import Model, enemies_in_contact, is_engaged
from kessen.rulesets.battlehost.fighting import fight
from kessen.rulesets.battlehost.inputs import FightInput

# A charge is made unless its exact expected exchange of wounds is worse than this.
CHARGE_THRESHOLD = Fraction(-1, 2)


def _fight_model(m: Model, *, two_handed: bool = False) -> dict[str, Any]:
    return {"fight": m.fight, "attacks": m.attacks, "strength": m.strength, "defence": m.defence,
            "wounds": m.wounds_left, "two_handed": two_handed, "prone": m.prone}


def exchange(mine: list[dict[str, Any]], theirs: list[dict[str, Any]], side: str) -> Fraction:
    """Expected wounds inflicted less wounds suffered in one fight, from the exact ``fight`` odds (BH-PROC-5)."""
    if len(mine) > 1 and len(theirs) > 1:
        theirs = theirs[:1]
    good, evil = (mine, theirs) if side == "good" else (theirs, mine)
    value = Fraction(0)
    for o, p in g._cached(fight, validate_data(FightInput, {"good": good, "evil": evil})).probabilities().items():
        value += p * o.wounds * (1 if o.winner == side else -1)
    return value


class BattlehostAI:
    """Charges where the exact fight odds allow, keeps archers still to shoot, shoots the likeliest wound,
    uses a two-handed weapon when it pays; every other choice is the default policy (the first option)."""

    def __init__(self, side: str) -> None:
        self.side = side

    def decide(self, state: g.BhState, decision: Decision) -> Any:
        options = decision.options
        if decision.what == "move":
            return self._move(state, options)
        if decision.what == "shoot":
            shots = [o for o in options if isinstance(o, g.ShootAt)]
            if not shots:
                return options[-1]
            return max(shots, key=lambda o: g.shot_dist(state, o).probability(lambda r: r.wounded))
        if decision.what == "two-handed":
            return self._two_handed(state, options)
        return options[0]

    def _is_shooter(self, m: Model) -> bool:
        return m.weapon is not None and m.shoot_value is not None

    def _move(self, state: g.BhState, options: tuple[Any, ...]) -> Any:
        """Charge the target with the best exact exchange of wounds (friends already on it fight too); advance;
        keep shooters still while they have a target; charge even at poor odds rather than stand idle."""
        best: tuple[Fraction, int] | None = None
        chosen: Any = None
        for i, o in enumerate(options):
            if isinstance(o, g.MoveTo) and o.charge is not None:
                m = state.get(o.model)
                if self._is_shooter(m) and g.targets(state, m):
                    continue
                target = state.get(o.charge)
                friends = [f for f in enemies_in_contact(state.models, target) if f.side == m.side]
                value = exchange([_fight_model(x) for x in (*friends, m)], [_fight_model(target)], self.side)
                if best is None or (value, -i) > best:
                    best, chosen = (value, -i), o
        if best is not None and best[0] >= CHARGE_THRESHOLD:
            return chosen
        for o in options:
            if isinstance(o, g.StandUp):
                return o
            if isinstance(o, g.MoveTo) and o.charge is None:
                m = state.get(o.model)
                if self._is_shooter(m):
                    if g.targets(state, m) or is_engaged(state.models, m):
                        continue
                    halves = [x for x in options if isinstance(x, g.MoveTo) and x.model == m.id and x.charge is None]
                    return halves[-1]  # the half move keeps it able to shoot (BH-SHOOT-2)
                return o
        return chosen if chosen is not None else options[-1]

    def _two_handed(self, state: g.BhState, options: tuple[Any, ...]) -> Any:
        f = state.fighting
        assert f is not None
        model = state.get(options[0].model)
        mine = [_fight_model(m, two_handed=f.uses_two_handed(m.id)) for m in g._living(state, g.side_of(f.fight, model.side))]
        theirs = [_fight_model(m) for m in g._living(state, g.side_of(f.fight, "evil" if model.side == "good" else "good"))]
        index = [m.id for m in g._living(state, g.side_of(f.fight, model.side))].index(model.id)
        values = []
        for o in options:
            mine[index]["two_handed"] = o.use
            values.append(exchange([dict(x) for x in mine], theirs, model.side))
        return options[max(range(len(options)), key=lambda i: (values[i], -i))]
