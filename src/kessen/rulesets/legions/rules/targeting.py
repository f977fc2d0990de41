"""Targets: the Engaged-target penalty and obscured Knights and Titans (LI-TGT, LI-OBSC)."""

from __future__ import annotations

from collections.abc import Iterable

from kessen.rulesets.legions.profiles import KNIGHTS_AND_TITANS


def may_be_obscured(model_type: str) -> bool:
    """Partial visibility matters only for Knights and Titans (LI-OBSC-1).

    >>> may_be_obscured("titan"), may_be_obscured("super_heavy_vehicle")
    (True, False)
    """
    return model_type in KNIGHTS_AND_TITANS


def engaged_penalty(target_scale: int, engaged_with_scales: Iterable[int]) -> int:
    """The hit penalty against an Engaged target: 1 unless it out-Scales everything it is Engaged with by 2 (LI-TGT-5).

    Only the Detachments the target is Engaged with count, never the rest of its combat (LI-ENG-3);
    an empty list means the target is not Engaged.

    >>> engaged_penalty(5, [1, 3]), engaged_penalty(5, [1, 3, 4]), engaged_penalty(2, [])
    (0, 1, 0)
    """
    return 1 if any(target_scale < scale + 2 for scale in engaged_with_scales) else 0


def hit_modifier(*, target_scale: int, engaged_with_scales: Iterable[int], obscuration_penalty: int, other: int = 0) -> int:
    """The sum of the modifiers to every hit roll against a target (LI-HIT-4): the other modifiers (terrain,
    special rules), less the Engaged-target penalty (LI-TGT-5) and the chosen obscuration penalty (LI-OBSC-1/2).

    >>> hit_modifier(target_scale=2, engaged_with_scales=[1], obscuration_penalty=0, other=1)
    0
    """
    return other - engaged_penalty(target_scale, engaged_with_scales) - obscuration_penalty


def may_receive_hits(*, eligible: bool, own_penalty: int, chosen_penalty: int) -> bool:
    """Whether a model may be allocated hits rolled with the chosen obscuration penalty (LI-ALLOC-2, LI-OBSC-2).

    It must be an eligible target of a firing model (in range and line of sight), and hidden no
    more than the penalty the firer chose.

    >>> may_receive_hits(eligible=True, own_penalty=2, chosen_penalty=1)
    False
    """
    return eligible and own_penalty <= chosen_penalty
