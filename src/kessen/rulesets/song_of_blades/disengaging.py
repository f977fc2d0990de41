"""Disengaging: free hacks on a model that leaves contact, in its player's order (§4.9, SB-DIS-*)."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Literal

from kessen.dice import Dist
from kessen.rulesets.song_of_blades.inputs import DisengageInput, HackingEnemy, MeleeInput
from kessen.rulesets.song_of_blades.melee import melee

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
    """The combat roll of one free hack: the hacker attacks, the leaving model defends (SB-DIS-2, -3, -7, -8)."""
    counted = sum(1 for e in leaving.enemies if e.state != "transfixed")  # SB-DIS-8, SB-OUT-2
    return MeleeInput(
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
        defender_can_recoil=leaving.can_recoil,
    )


def disengage(leaving: DisengageInput) -> Dist[DisengageOutcome]:
    """The exact distribution of leaving contact: hacks in order until the first with an effect (SB-DIS-5, SB-DIS-6).

    A chain, not a tree: the weight of reaching hack k is the product of the earlier hacks' chances of
    having no effect, so each hack's distribution is used once.
    """
    hackers = [(i + 1, e) for i, e in enumerate(leaving.enemies) if not hacks_free_of_charge(leaving, e)]
    hacks = [melee(free_hack_input(leaving, enemy)) for _, enemy in hackers]
    denominator = prod(h.total for h in hacks)
    weights: dict[DisengageOutcome, int] = {}
    reached = 1  # weight of every hack so far having no effect, over the totals of those hacks
    for k, ((position, _), hack) in enumerate(zip(hackers, hacks)):
        rest = denominator // prod(h.total for h in hacks[: k + 1])
        for outcome, w in hack.items():
            if outcome.result == "nothing":
                continue
            key = DisengageOutcome(outcome.result, k + 1, position)
            weights[key] = weights.get(key, 0) + reached * w * rest
        reached *= sum(w for o, w in hack.items() if o.result == "nothing")
    weights[DisengageOutcome("disengaged", len(hackers), 0)] = reached
    return Dist(weights)
