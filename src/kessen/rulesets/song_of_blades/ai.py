"""A simple AI for song-of-blades that weighs its choices with the exact odds."""

from __future__ import annotations

from fractions import Fraction
from math import hypot
from typing import Any

import numpy as np

from kessen.core.engine import Decision
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, enemies_in_contact
from kessen.rulesets.song_of_blades.referee.melee import attack_roll
from kessen.rulesets.song_of_blades.referee.options import Activate, Attack, EndActivation, FollowUp, Move, StandUp
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.melee import melee
from kessen.rulesets.song_of_blades.rules.quality import activation_odds

# What a result is worth to the side that inflicts it (a model removed is worth most).
RESULT_VALUE = {"nothing": Fraction(0), "recoil": Fraction(1, 2), "fall": Fraction(3, 2), "kill": Fraction(3), "gruesome_kill": Fraction(4)}


def activation_value(quality: int, dice: int) -> Fraction:
    """Expected actions less twice the chance of a turnover (SB-ACT-1, SB-ACT-2), from the exact odds."""
    expected, turnover = activation_odds(quality, dice)
    return expected - 2 * turnover


def attack_value(state: SobState, attacker: str, target: str, power_blow: bool) -> Fraction:
    """The expected worth of an attack: results inflicted less results suffered, from the exact melee odds."""
    roll = attack_roll(state, state.get(attacker), state.get(target), power_blow=power_blow)
    value = Fraction(0)
    for o, p in melee(roll).probabilities().items():
        sign = 1 if o.affected == "defender" else -1
        value += sign * p * RESULT_VALUE[o.result]
    return value


def nearest_to_the_enemy(state: SobState, models: tuple[str, ...], side: str) -> str:
    """The model whose base is nearest an enemy's (SB-GEO-8 edge distance; the lowest id among equals).

    Every pair is measured at once with numpy; the few models within a micrometre of the best are then measured
    again exactly as ``battlefield.edge_distance`` does, so the choice is the one that exact measure makes.
    """
    figures = {f.id: f for f in state.figures}
    ready = [figures[m] for m in models]
    enemies = [e for e in state.figures if e.side != side]
    if not enemies:
        return min(models)

    def exact(f: Figure) -> tuple[float, str]:
        return (max(0.0, min(hypot(f.x - e.x, f.y - e.y) - f.base_mm / 2 - e.base_mm / 2 for e in enemies)), f.id)

    fx, fy, fr = (np.array(v, dtype=float) for v in zip(*((f.x, f.y, f.base_mm / 2) for f in ready)))
    ex, ey, er = (np.array(v, dtype=float) for v in zip(*((e.x, e.y, e.base_mm / 2) for e in enemies)))
    gaps = np.hypot(fx[:, None] - ex[None, :], fy[:, None] - ey[None, :]) - fr[:, None] - er[None, :]
    nearest = np.maximum(gaps.min(axis=1), 0.0)
    close = nearest <= nearest.min() + 1e-3
    return min((exact(f) for f, near in zip(ready, close) if near))[1]


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
            values = {o: attack_value(state, act.model, o.target, o.power_blow) for o in attacks}
            best = max(attacks, key=lambda o: (values[o], o.target))
            if values[best] > Fraction(-1):
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
