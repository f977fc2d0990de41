"""The exact numbers shown beside a choice (``Game.odds``; their labels are the catalogue's ``[odds]`` table).

Each comes from the rules/ procedure the choice leads to, read off the table as the engine will roll it.
"""

from __future__ import annotations

from fractions import Fraction

from kessen.core.engine import Decision
from kessen.rulesets.song_of_blades.referee.melee import attack_roll
from kessen.rulesets.song_of_blades.referee.options import Activate, Attack
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.melee import melee
from kessen.rulesets.song_of_blades.rules.quality import activation_odds

Odds = dict[str, Fraction]


def attack_odds(state: SobState, attacker: str, attack: Attack) -> Odds:
    """An attack's chances: the attacker wins (the defender suffers a result), kills, or suffers a result itself
    (SB-MELEE-4..6)."""
    roll = attack_roll(state, state.get(attacker), state.get(attack.target), power_blow=attack.power_blow)
    dist = melee(roll)
    return {
        "win": dist.probability(lambda o: o.affected == "defender"),
        "kill": dist.probability(lambda o: o.affected == "defender" and o.result in ("kill", "gruesome_kill")),
        "suffer": dist.probability(lambda o: o.affected == "attacker"),
    }


def activation_numbers(state: SobState, activate: Activate) -> Odds:
    """An activation's expected actions and chance of a turnover (SB-ACT-1, SB-ACT-2)."""
    expected, turnover = activation_odds(state.get(activate.model).quality, activate.dice)
    return {"expected_actions": expected, "turnover": turnover}


def choice_odds(state: SobState, decision: Decision, choice: object) -> Odds | None:
    """The numbers of *choice* at *decision*, or None for a choice that rolls nothing."""
    if isinstance(choice, Attack):
        return attack_odds(state, decision.actor, choice)
    if isinstance(choice, Activate):
        return activation_numbers(state, choice)
    return None
