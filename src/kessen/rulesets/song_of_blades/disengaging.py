"""Disengaging: free hacks on a model that leaves contact, in its player's order (§4.9, SB-DIS-*)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kessen.dice import Dist
from kessen.rulesets.song_of_blades.inputs import (
    DisengageInput,
    HackingEnemy,
    MeleeInput,
)
from kessen.rulesets.song_of_blades.melee import combat_roll_counts

DisengageResult = Literal["disengaged", "fall", "recoil", "kill", "gruesome_kill"]


@dataclass(frozen=True, slots=True)
class DisengageOutcome:
    """How leaving contact ended (§6.2)."""

    result: DisengageResult
    free_hacks: int
    by: int


def hacks_free_of_charge(leaving: DisengageInput, enemy: HackingEnemy) -> bool:
    """Whether *enemy* gets no hack on the leaving model (SB-DIS-1, SB-DIS-4, SB-DOWN-5).

    Only standing enemies hack; Free Disengage, or counting as having it against this enemy
    (mounted leaving foot, flying leaving non-flying), spares the hack.
    """
    return (
        enemy.state != "standing"
        or leaving.free_disengage
        or (leaving.mounted and not enemy.mounted)
        or (leaving.flying and not enemy.flying)
    )


def free_hack_input(leaving: DisengageInput, enemy: HackingEnemy) -> MeleeInput:
    """The combat roll of one free hack: the hacker attacks, the leaving model defends (SB-DIS-2, -3, -7, -8).

    With no room to recoil away from this hacker, a recoil result is a fall (SB-RECOIL-5).
    """
    counted = sum(1 for e in leaving.enemies if e.state != "transfixed")  # SB-DIS-8, SB-OUT-2
    # every value comes from the validated DisengageInput and stays in MeleeInput's ranges (counted ≤ 8 enemies),
    # so the hot path of disengaging skips a second validation
    return MeleeInput.model_construct(
        attacker_combat=enemy.combat,
        defender_combat=leaving.combat,
        free_hack=True,
        lethal=leaving.failed_morale,
        attacker_mounted=enemy.mounted,
        defender_mounted=leaving.mounted,
        attacker_size=enemy.size,
        defender_size=leaving.size,
        attacker_high_ground=enemy.high_ground,
        defender_obstacle=enemy.obstacle,
        attacker_enemies_in_contact=enemy.enemies_in_contact,
        attacker_transfixed_in_contact=enemy.transfixed_in_contact,
        defender_enemies_in_contact=counted,
        defender_transfixed_in_contact=0,
        defender_can_recoil=leaving.can_recoil and enemy.can_recoil,  # SB-RECOIL-5, away from this hacker
    )


def disengage(leaving: DisengageInput) -> Dist[DisengageOutcome]:
    """The exact distribution of leaving contact: hacks in order until the first with an effect (SB-DIS-5, SB-DIS-6).

    A chain, not a tree: every hack is 36 equally likely pairs of dice, and the weight of reaching hack k
    is the number of ways the earlier hacks all had no effect.
    """
    hackers = [(i + 1, e) for i, e in enumerate(leaving.enemies) if not hacks_free_of_charge(leaving, e)]
    n = len(hackers)
    weights: dict[DisengageOutcome, int] = {}
    reached = 1  # ways (out of 36**k) that the first k hacks all had no effect
    for k, (position, enemy) in enumerate(hackers):
        rest = 36 ** (n - k - 1)  # the later hacks are not rolled, but the common denominator is 36**n
        no_effect = 0
        for outcome, ways in combat_roll_counts(free_hack_input(leaving, enemy)).items():
            if outcome.result == "nothing":
                no_effect += ways
                continue
            key = DisengageOutcome(outcome.result, k + 1, position)
            weights[key] = weights.get(key, 0) + reached * ways * rest
        reached *= no_effect
    weights[DisengageOutcome("disengaged", n, 0)] = reached
    return Dist(weights)
