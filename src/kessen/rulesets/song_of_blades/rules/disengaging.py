"""Disengaging: free hacks on a model that leaves contact, in its player's order (§4.9, SB-DIS-*)."""

from __future__ import annotations

from typing import Literal, NamedTuple

from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.song_of_blades.profiles import ModelState, Size
from kessen.rulesets.song_of_blades.rules.melee import Melee, MeleeOutcome, combat_roll_counts

DisengageResult = Literal["disengaged", "fall", "recoil", "kill", "gruesome_kill"]


@record
class HackingEnemy:
    """One enemy in contact with a model that leaves contact (§6.2).

    [DECISION] ``can_recoil`` says whether the leaving model has a legal recoil away from *this* enemy
    (SB-RECOIL-5): a recoil is away from the hacker, so the room to recoil differs from hacker to hacker.
    """

    combat: int
    state: ModelState = "standing"
    size: Size = "normal"
    mounted: bool = False
    flying: bool = False
    high_ground: bool = False
    obstacle: bool = False
    enemies_in_contact: int = 1
    transfixed_in_contact: int = 0
    can_recoil: bool = True


@record
class Disengage:
    """A model leaving contact with all its enemies, listed in the hack order its player chose (§6.2)."""

    combat: int
    enemies: tuple[HackingEnemy, ...]
    size: Size = "normal"
    mounted: bool = False
    flying: bool = False
    free_disengage: bool = False
    failed_morale: bool = False
    can_recoil: bool = True


class DisengageOutcome(NamedTuple):
    """How leaving contact ended (§6.2). A named tuple, as ``MeleeOutcome`` is: made and hashed in C."""

    result: DisengageResult
    free_hacks: int
    by: int


def counts_as_free_disengage(*, free_disengage: bool, mounted: bool, flying: bool, enemy_mounted: bool, enemy_flying: bool) -> bool:
    """Whether a model leaving an enemy has Free Disengage, or counts as having it against that enemy: mounted
    leaving foot, flying leaving a non-flyer (SB-DIS-4; also what stops a follow-up, SB-FOLLOW-2).

    >>> counts_as_free_disengage(free_disengage=False, mounted=True, flying=False, enemy_mounted=True, enemy_flying=False)
    False
    """
    return free_disengage or (mounted and not enemy_mounted) or (flying and not enemy_flying)


def hacks_free_of_charge(leaving: Disengage, enemy: HackingEnemy) -> bool:
    """Whether *enemy* gets no hack on the leaving model (SB-DIS-1, SB-DIS-4, SB-DOWN-5): only standing enemies
    hack, and none against Free Disengage or counting as having it against this enemy."""
    return enemy.state != "standing" or counts_as_free_disengage(
        free_disengage=leaving.free_disengage, mounted=leaving.mounted, flying=leaving.flying,
        enemy_mounted=enemy.mounted, enemy_flying=enemy.flying,
    )


def hack_effect(hack: MeleeOutcome) -> DisengageResult | None:
    """What a free hack did to the leaving model, or None when it had no effect (a tie, or a won defensive roll: the
    model goes on). The first hack with an effect (a fall, a recoil, a kill) ends the sequence and the move
    (SB-DIS-3, SB-DIS-6)."""
    return None if hack.result == "nothing" else hack.result


def free_hack(leaving: Disengage, enemy: HackingEnemy) -> Melee:
    """The combat roll of one free hack: the hacker attacks, the leaving model defends (SB-DIS-2, -3, -7, -8).

    With no room to recoil away from this hacker, a recoil result is a fall (SB-RECOIL-5).
    """
    counted = sum(1 for e in leaving.enemies if e.state != "transfixed")  # SB-DIS-8, SB-OUT-2
    return Melee(
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


def disengage(leaving: Disengage) -> Dist[DisengageOutcome]:
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
        for outcome, ways in combat_roll_counts(free_hack(leaving, enemy)).items():
            effect = hack_effect(outcome)
            if effect is None:
                no_effect += ways
                continue
            key = DisengageOutcome(effect, k + 1, position)
            weights[key] = weights.get(key, 0) + reached * ways * rest
        reached *= no_effect
    weights[DisengageOutcome("disengaged", n, 0)] = reached
    return Dist(weights)
