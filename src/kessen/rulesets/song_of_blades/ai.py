"""A simple AI for song-of-blades that weighs its choices with the exact odds."""

from __future__ import annotations

import functools
from fractions import Fraction
from math import hypot
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.song_of_blades.referee.melee import attack_roll
from kessen.rulesets.song_of_blades.referee.options import Activate, Attack, EndActivation, FollowUp, Move, StandUp
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.melee import Melee, melee
from kessen.rulesets.song_of_blades.rules.quality import activation_odds

# What a result is worth to the side that inflicts it (a model removed is worth most).
RESULT_VALUE = {"nothing": Fraction(0), "recoil": Fraction(1, 2), "fall": Fraction(3, 2), "kill": Fraction(3), "gruesome_kill": Fraction(4)}


def activation_value(quality: int, dice: int) -> Fraction:
    """Expected actions less twice the chance of a turnover (SB-ACT-1, SB-ACT-2), from the exact odds."""
    expected, turnover = activation_odds(quality, dice)
    return expected - 2 * turnover


def attack_value(state: SobState, attacker: str, target: str, power_blow: bool) -> Fraction:
    """The expected worth of an attack: results inflicted less results suffered, from the exact melee odds."""
    return roll_value(attack_roll(state, state.get(attacker), state.get(target), power_blow=power_blow))


@functools.lru_cache(maxsize=4096)
def roll_value(roll: Melee) -> Fraction:
    """The expected worth of a combat roll to the attacker, exactly (the AI weighs the same few rolls often)."""
    value = Fraction(0)
    for o, p in melee(roll).probabilities().items():
        sign = 1 if o.affected == "defender" else -1
        value += sign * p * RESULT_VALUE[o.result]
    return value


@functools.lru_cache(maxsize=64)
def best_dice(quality: int) -> int:
    """The number of activation dice with the best :func:`activation_value` (the fewest among equals)."""
    return max((1, 2, 3), key=lambda n: (activation_value(quality, n), -n))


def nearest_to_the_enemy(state: SobState, models: tuple[str, ...], side: str) -> str:
    """The model whose base is nearest an enemy's (SB-GEO-8 edge distance, as ``battlefield.edge_distance``
    measures it; the lowest id among equals)."""
    enemies = [e for e in state.figures if e.side != side]
    if not enemies:
        return min(models)
    best: tuple[float, str] | None = None
    for m in models:
        f = state.get(m)
        near = max(0.0, min(hypot(f.x - e.x, f.y - e.y) - f.base_mm / 2 - e.base_mm / 2 for e in enemies))
        if best is None or (near, m) < best:
            best = (near, m)
    assert best is not None
    return best[1]


class SobAI:
    """Activates the model nearest the enemy with the dice that pay best, stands up, attacks the target
    with the best exact odds, charges, advances; recoils, hack orders and follow-ups by the default policy."""

    def __init__(self, side: str) -> None:
        self.side = side

    def decide(self, state: SobState, decision: Decision) -> Any:
        options = decision.options
        if decision.kind == "activation":
            return self._activation(state, options)
        if decision.kind == "move":
            return self._action(state, options)
        if decision.kind == "follow-up":
            return FollowUp(True)
        return options[0]  # recoil, hackers: the default policy lists its choice first

    def _activation(self, state: SobState, options: tuple[Any, ...]) -> Any:
        activations = [o for o in options if isinstance(o, Activate)]
        if not activations:
            return options[-1]

        model = nearest_to_the_enemy(state, tuple(dict.fromkeys(o.model for o in activations)), self.side)
        return Activate(model, best_dice(state.get(model).quality))

    def _action(self, state: SobState, options: tuple[Any, ...]) -> Any:
        if any(isinstance(o, StandUp) for o in options):
            return StandUp()
        act = state.current
        assert act is not None
        attacks = [o for o in options if isinstance(o, Attack)]
        if attacks:
            values = {o: attack_value(state, act.model, o.target, o.power_blow) for o in attacks}
            best = max(attacks, key=lambda o: (values[o], o.target))
            if values[best] > Fraction(-1):
                return best
        moves = [o for o in options if isinstance(o, Move)]
        f = state.get(act.model)
        if state.here.contacts(f):
            return EndActivation()  # stay and fight rather than run into free hacks
        charges = [m for m in moves if m.purpose == "charge"]
        if charges:
            return min(charges, key=lambda m: (state.get(m.toward).combat, m.toward))
        advances = [m for m in moves if m.purpose == "advance"]
        if advances:
            return advances[0]
        return EndActivation()
