"""A simple AI for song-of-blades that weighs its choices with the exact odds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.song_of_blades.battlefield import edge_distance, enemies_in_contact
from kessen.rulesets.song_of_blades.game import (
    Activate,
    Attack,
    EndActivation,
    FollowUp,
    Move,
    SobState,
    StandUp,
    attack_roll,
)
from kessen.rulesets.song_of_blades.inputs import ActivationInput
from kessen.rulesets.song_of_blades.melee import melee
from kessen.rulesets.song_of_blades.quality import activation

# What a result is worth to the side that inflicts it (a model removed is worth most).
RESULT_VALUE = {"nothing": Fraction(0), "recoil": Fraction(1, 2), "fall": Fraction(3, 2), "kill": Fraction(3), "gruesome_kill": Fraction(4)}


def activation_value(quality: int, dice: int) -> Fraction:
    """Expected actions less twice the chance of a turnover (SB-ACT-1, SB-ACT-2), from the exact odds."""
    dist = activation(ActivationInput(quality=quality, dice=dice))
    expected = sum((p * o.actions for o, p in dist.probabilities().items()), Fraction(0))
    return expected - 2 * dist.probability(lambda o: o.turnover)


def attack_value(state: SobState, attacker: str, target: str, power_blow: bool) -> Fraction:
    """The expected worth of an attack: results inflicted less results suffered, from the exact melee odds."""
    roll = attack_roll(state, state.get(attacker), state.get(target), power_blow=power_blow)
    value = Fraction(0)
    for o, p in melee(roll).probabilities().items():
        sign = 1 if o.affected == "defender" else -1
        value += sign * p * RESULT_VALUE[o.result]
    return value


class SobAI:
    """Activates the model nearest the enemy with the dice that pay best, stands up, attacks the target
    with the best exact odds, charges, advances; recoils, hack orders and follow-ups by the default policy."""

    def __init__(self, side: str) -> None:
        self.side = side

    def decide(self, state: SobState, decision: Decision) -> Any:
        options = decision.options
        if decision.what == "activation":
            return self._activation(state, options)
        if decision.what == "action":
            return self._action(state, options)
        if decision.what == "follow-up":
            return FollowUp(True)
        return options[0]  # recoil, hackers: the default policy lists its choice first

    def _activation(self, state: SobState, options: tuple[Any, ...]) -> Any:
        activations = [o for o in options if isinstance(o, Activate)]
        if not activations:
            return options[-1]

        def urgency(o: Activate) -> tuple[float, str]:
            f = state.get(o.model)
            enemies = [e for e in state.figures if e.side != f.side]
            near = min((edge_distance(f, e) for e in enemies), default=0.0)
            return (near, f.id)

        model = min(activations, key=urgency).model
        quality = state.get(model).quality
        dice = max((1, 2, 3), key=lambda n: (activation_value(quality, n), -n))
        return Activate(model, dice)

    def _action(self, state: SobState, options: tuple[Any, ...]) -> Any:
        if any(isinstance(o, StandUp) for o in options):
            return StandUp()
        act = state.current
        assert act is not None
        attacks = [o for o in options if isinstance(o, Attack)]
        if attacks:
            best = max(attacks, key=lambda o: (attack_value(state, act.model, o.target, o.power_blow), o.target))
            if attack_value(state, act.model, best.target, best.power_blow) > Fraction(-1):
                return best
        moves = [o for o in options if isinstance(o, Move)]
        f = state.get(act.model)
        if enemies_in_contact(state.figures, f):
            return EndActivation()  # stay and fight rather than run into free hacks
        charges = [m for m in moves if m.purpose == "charge"]
        if charges:
            return min(charges, key=lambda m: (state.get(m.toward).combat, m.toward))
        advances = [m for m in moves if m.purpose == "advance"]
        if advances:
            return advances[0]
        return EndActivation()
