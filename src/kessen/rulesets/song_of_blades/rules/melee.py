"""Melee combat: the combat roll, its modifiers, outnumbering and the result ladder (§4.2–4.4)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal, NamedTuple

from kessen.core.records import picklable
from kessen.dice import Dist
from kessen.rulesets.song_of_blades.profiles import SIZE_RANK, ModelState, Size

AttackerState = Literal["standing", "fallen"]


@dataclass(frozen=True, slots=True)
class Melee:
    """One combat roll between an attacker and a defender, as the rules see it (§6.1; the odds input
    ``procedures.MeleeInput`` validates the same fields)."""

    attacker_combat: int
    defender_combat: int
    attacker_state: AttackerState = "standing"
    defender_state: ModelState = "standing"
    free_hack: bool = False
    lethal: bool = False
    power_blow: bool = False
    ambush: bool = False
    attack_number: int = 1
    attacker_mounted: bool = False
    defender_mounted: bool = False
    attacker_size: Size = "normal"
    defender_size: Size = "normal"
    attacker_high_ground: bool = False
    defender_obstacle: bool = False
    attacker_enemies_in_contact: int = 1
    attacker_transfixed_in_contact: int = 0
    defender_enemies_in_contact: int = 1
    defender_transfixed_in_contact: int = 0
    attacker_can_recoil: bool = True
    defender_can_recoil: bool = True


picklable(Melee)  # pickled and copied through their init fields (issue 22 §1)

Result = Literal["nothing", "fall", "recoil", "kill", "gruesome_kill"]
Side = Literal["attacker", "defender", "none"]


class MeleeOutcome(NamedTuple):
    """What one combat roll did: who won, and what happened to whom (§6.1).

    A named tuple rather than a dataclass: it is counted 36 times per combat roll, and a tuple hashes in C.
    """

    winner: Side
    result: Result
    affected: Side


TIE = MeleeOutcome("none", "nothing", "none")
DEFENSIVE_WIN = MeleeOutcome("defender", "nothing", "none")


def outnumbering(enemies_in_contact: int, transfixed_in_contact: int) -> int:
    """−1 per counted enemy in contact beyond the first; transfixed ones are not counted (SB-OUT-1, SB-OUT-2).

    >>> outnumbering(3, 0), outnumbering(3, 1), outnumbering(1, 0)
    (-2, -1, 0)
    """
    return -max(0, enemies_in_contact - transfixed_in_contact - 1)


def attacker_modifier(m: Melee) -> int:
    """Every modifier to the attacker's score (SB-MOD-1, -3, -4, -5b, -6, SB-OUT-1..3)."""
    return (
        (2 if m.defender_state in ("fallen", "transfixed") else 0)  # SB-MOD-1
        + (1 if m.ambush and m.attack_number == 1 else 0)  # SB-MOD-3
        + (1 if m.attacker_mounted and not m.defender_mounted else 0)  # SB-MOD-4
        + (1 if SIZE_RANK[m.attacker_size] > SIZE_RANK[m.defender_size] else 0)  # SB-MOD-6
        + (1 if m.attacker_high_ground else 0)  # SB-MOD-5b
        + outnumbering(m.attacker_enemies_in_contact, m.attacker_transfixed_in_contact)
    )


def defender_modifier(m: Melee) -> int:
    """Every modifier to the defender's score (SB-MOD-7, -5a, -2, SB-OUT-1..3)."""
    return (
        (2 if m.attacker_state == "fallen" else 0)  # SB-MOD-7
        + (1 if m.defender_obstacle else 0)  # SB-MOD-5a
        - (1 if m.power_blow else 0)  # SB-MOD-2
        + outnumbering(m.defender_enemies_in_contact, m.defender_transfixed_in_contact)
    )


def result_of_win(winner_score: int, loser_score: int, winner_die: int, *, lethal: bool, can_recoil: bool) -> Result:
    """The result ladder of a win, checked in order (SB-MELEE-6, SB-MELEE-8, SB-MELEE-10, SB-RECOIL-5).

    >>> result_of_win(9, 3, 2, lethal=False, can_recoil=True)
    'gruesome_kill'
    >>> result_of_win(-1, -2, 1, lethal=False, can_recoil=True)
    'gruesome_kill'
    >>> result_of_win(7, 6, 3, lethal=False, can_recoil=False)
    'fall'
    """
    if winner_score >= 3 * loser_score:
        return "gruesome_kill"
    if winner_score >= 2 * loser_score or lethal:
        return "kill"
    if winner_die % 2 == 0:
        return "fall"
    return "recoil" if can_recoil else "fall"


def combat_roll(m: Melee, attacker_die: int, defender_die: int) -> MeleeOutcome:
    """One combat roll from the two natural dice (SB-MELEE-3..10, SB-DOWN-4, SB-DOWN-6).

    No natural-roll overrides in melee (SB-MELEE-9): the die counts only for its score and parity.
    """
    return _Roll(m).outcome(attacker_die, defender_die)


class _Roll:
    """One combat roll's fixed parts (Combat plus modifiers, lethality, recoil room), read once."""

    __slots__ = ("a_bonus", "d_bonus", "a_lethal", "d_lethal", "a_can_recoil", "d_can_recoil", "defensive")

    def __init__(self, m: Melee) -> None:
        self.a_bonus = m.attacker_combat + attacker_modifier(m)
        self.d_bonus = m.defender_combat + defender_modifier(m)
        self.a_lethal = m.lethal or m.defender_state != "standing"  # SB-MELEE-10, SB-MOD-1
        self.d_lethal = m.attacker_state == "fallen"  # SB-MOD-7
        self.a_can_recoil = m.defender_can_recoil
        self.d_can_recoil = m.attacker_can_recoil
        self.defensive = m.free_hack or m.defender_state == "transfixed"  # SB-MELEE-4, SB-DOWN-6

    def outcome(self, attacker_die: int, defender_die: int) -> MeleeOutcome:
        a = attacker_die + self.a_bonus
        dd = defender_die + self.d_bonus
        if a == dd:
            return TIE  # SB-MELEE-5
        if a > dd:
            return _ATTACKER_WINS[result_of_win(a, dd, attacker_die, lethal=self.a_lethal, can_recoil=self.a_can_recoil)]
        if self.defensive:
            return DEFENSIVE_WIN  # a defensive roll that wins hurts no one
        return _DEFENDER_WINS[result_of_win(dd, a, defender_die, lethal=self.d_lethal, can_recoil=self.d_can_recoil)]


_RESULTS: tuple[Result, ...] = ("fall", "recoil", "kill", "gruesome_kill")
_ATTACKER_WINS = {r: MeleeOutcome("attacker", r, "defender") for r in _RESULTS}
_DEFENDER_WINS = {r: MeleeOutcome("defender", r, "attacker") for r in _RESULTS}


class MeleeDice(NamedTuple):
    """One combat roll as the dice fell: both natural dice, both scores and what they did (SB-MELEE-3..6)."""

    attacker_die: int
    defender_die: int
    attacker_score: int
    defender_score: int
    outcome: MeleeOutcome


@functools.lru_cache(maxsize=1024)
def melee_dice(m: Melee) -> Dist[MeleeDice]:
    """The 36 equally likely rolls of one combat roll, each with its scores and outcome: what a game draws, so
    that its report can show the dice; ``melee`` is this distribution with the dice forgotten (§6.1). Built once
    per roll (a skirmish rolls the same few again and again), always in the same order."""
    roll = _Roll(m)
    return Dist(
        {
            MeleeDice(da, dd, da + roll.a_bonus, dd + roll.d_bonus, roll.outcome(da, dd)): 1
            for da in range(1, 7)
            for dd in range(1, 7)
        }
    )


def combat_roll_counts(m: Melee) -> dict[MeleeOutcome, int]:
    """How many of the 36 equally likely pairs of dice give each outcome of a combat roll (§6.1)."""
    outcome = _Roll(m).outcome
    counts: dict[MeleeOutcome, int] = {}
    for attacker_die in range(1, 7):
        for defender_die in range(1, 7):
            o = outcome(attacker_die, defender_die)
            counts[o] = counts.get(o, 0) + 1
    return counts


def melee(m: Melee) -> Dist[MeleeOutcome]:
    """The exact distribution of one combat roll (§6.1)."""
    return Dist(combat_roll_counts(m))
