"""The fast one-step AI for song-of-blades (``--ai greedy``), weighing its choices with the exact odds.

A result is worth the share of its side's starting points the model it strikes stands for (SB-TURN-4 decides a
game on the fraction of points lost): a goblin lost costs a mob of eight an eighth of what the hero lost costs a
hero who fights alone.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from math import hypot
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.song_of_blades.referee.battlefield import Figure
from kessen.rulesets.song_of_blades.referee.melee import attack_roll
from kessen.rulesets.song_of_blades.referee.options import Activate, Attack, EndActivation, FollowUp, Move, StandUp
from kessen.rulesets.song_of_blades.referee.state import SobState, replace_figure
from kessen.rulesets.song_of_blades.rules.melee import Melee, melee
from kessen.rulesets.song_of_blades.rules.quality import activation_odds

# What a result is worth to the side that inflicts it (a model removed is worth most).
KILL = 3
RESULT_VALUE = {"nothing": Fraction(0), "recoil": Fraction(1, 2), "fall": Fraction(3, 2), "kill": Fraction(KILL), "gruesome_kill": Fraction(4)}


def activation_value(quality: int, dice: int, last: bool = False) -> Fraction:
    """Expected actions less twice the chance of a turnover (SB-ACT-1, SB-ACT-2), from the exact odds; for the
    side's last model still to activate this turn a turnover costs nothing (SB-ACT-3: no other model is left to
    lose its activation)."""
    expected, turnover = activation_odds(quality, dice)
    return expected if last else expected - 2 * turnover


def share(state: SobState, f: Figure) -> Fraction:
    """The share of its side's starting points that f stands for (SB-TURN-4)."""
    start = state.skirmish.start_points[state.skirmish.sides.index(f.side)]
    return Fraction(f.points, start)


def attack_value(state: SobState, attacker: str, target: str, power_blow: bool) -> Fraction:
    """The expected worth of an attack to the attacker's side: results inflicted less results suffered, from the exact
    melee odds, each weighted by the share of its side's points the model struck stands for."""
    a, d = state.get(attacker), state.get(target)
    return weighted_value(attack_roll(state, a, d, power_blow=power_blow), share(state, a), share(state, d))


def weighted_value(roll: Melee, attacker_share: Fraction, defender_share: Fraction) -> Fraction:
    inflicted, suffered = roll_results(roll)
    return inflicted * defender_share - suffered * attacker_share


@functools.lru_cache(maxsize=4096)
def roll_results(roll: Melee) -> tuple[Fraction, Fraction]:
    """The expected worth of what a combat roll does to the defender and to the attacker, exactly (the AI weighs the
    same few rolls often)."""
    inflicted, suffered = Fraction(0), Fraction(0)
    for o, p in melee(roll).probabilities().items():
        if o.affected == "defender":
            inflicted += p * RESULT_VALUE[o.result]
        elif o.affected == "attacker":
            suffered += p * RESULT_VALUE[o.result]
    return inflicted, suffered


def standing_idle(state: SobState, f: Figure) -> Fraction:
    """What staying in contact without attacking is worth to f's side: the worst attack a standing enemy in contact
    could make on it (SB-MELEE-4: the same roll hurts either model, whoever makes it), 0 with none standing."""
    worst = Fraction(0)
    for e in state.here.contacts(f):
        if e.is_active:
            worst = min(worst, -weighted_value(attack_roll(state, e, f), share(state, e), share(state, f)))
    return worst


def charge_value(state: SobState, f: Figure, move: Move) -> Fraction:
    """The worth of the attack f could make after charging: the roll read off the table with f at the charge's end
    (outnumbering by the friends already on the target counts, SB-OUT-1)."""
    moved = replace_figure(state, f.at(move.destination))
    target = moved.get(move.toward)
    return weighted_value(attack_roll(moved, moved.get(f.id), target), share(state, f), share(state, target))


@functools.lru_cache(maxsize=64)
def best_dice(quality: int, last: bool = False) -> int:
    """The number of activation dice with the best :func:`activation_value` (the fewest among equals): three for
    the last model to activate, whose turnover costs nothing."""
    return max((1, 2, 3), key=lambda n: (activation_value(quality, n, last), -n))


@functools.lru_cache(maxsize=64)
def risks_turnover(quality: int) -> bool:
    """Whether a model of this Quality activated with its :func:`best_dice` may cause a turnover (SB-ACT-2)."""
    return activation_odds(quality, best_dice(quality))[1] > 0


def first_to_activate(state: SobState, models: tuple[str, ...], side: str) -> str:
    """The model a side activates next: one whose best dice cannot cause a turnover before one that risks it, so
    that a turnover costs the fewest activations (SB-ACT-2, SB-ACT-3); among those, the nearest the enemy."""
    safe = tuple(m for m in models if not risks_turnover(state.get(m).quality))
    return nearest_to_the_enemy(state, safe or models, side)


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
    """Activates the model nearest the enemy with the dice that pay best (the models that cannot cause a turnover
    first, the last model with three dice), stands up, attacks the target with the
    best exact odds whenever that is no worse than standing idle in contact, charges the target it fights best
    (a foe its friends already engage counts its outnumbering), advances; recoils, hack orders and follow-ups by
    the default policy."""

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

        models = tuple(dict.fromkeys(o.model for o in activations))
        model = first_to_activate(state, models, self.side)
        return Activate(model, best_dice(state.get(model).quality, last=len(models) == 1))

    def _action(self, state: SobState, options: tuple[Any, ...]) -> Any:
        if any(isinstance(o, StandUp) for o in options):
            return StandUp()
        act = state.current
        assert act is not None
        f = state.get(act.model)
        attacks = [o for o in options if isinstance(o, Attack)]
        if attacks:
            values = {o: attack_value(state, act.model, o.target, o.power_blow) for o in attacks}
            best = max(attacks, key=lambda o: (values[o], o.target))
            # in contact an idle model is attacked all the same: attack unless that is worse (issue 23 §2: goblins
            # that charged the hero stood idle in contact, because a lone goblin's odds are poor)
            if values[best] >= standing_idle(state, f):
                return best
        moves = [o for o in options if isinstance(o, Move)]
        if state.here.contacts(f):
            return EndActivation()  # stay and fight rather than run into free hacks
        charges = [m for m in moves if m.purpose == "charge"]
        if charges:
            return min(charges, key=lambda m: (-charge_value(state, f, m), state.get(m.toward).combat, m.toward))
        advances = [m for m in moves if m.purpose == "advance"]
        if advances:
            return advances[0]
        return EndActivation()
