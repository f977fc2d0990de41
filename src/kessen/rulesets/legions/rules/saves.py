"""Saves: the target model, AP and its changes, several Save characteristics, Void Shields (LI-SAVE, LI-ARC, LI-VOID)."""

from __future__ import annotations

from typing import Protocol

from kessen.core.records import record
from kessen.rulesets.legions.profiles import ModelType, is_armoured


@record
class TargetProfile:
    """One model of a target Detachment as the saving rules see it (§3.2).

    ``armour_save``, ``special_save`` and ``cover_save`` hold X of "X+"; ``None`` is "-". ``rear_arc`` says
    whether the hits of the attack come from a firing model standing in its rear arc (LI-ARC-1, LI-ARC-2): it is
    judged for each hit from the model that hit is allocated to, and matters only for armoured types.
    """

    type: ModelType
    wounds: int
    wounds_remaining: int
    armour_save: int | None
    special_save: int | None = None
    cover_save: int | None = None
    void_shields: int = 0
    rear_arc: bool = False

    @property
    def is_wounded(self) -> bool:
        """A model with fewer Wounds left than its Wounds characteristic is wounded (§3.2)."""
        return self.wounds_remaining < self.wounds


class Saving(Protocol):
    """What a model's datasheet gives the saving rules (a model on the battlefield, a target model of an odds input)."""

    @property
    def type(self) -> ModelType: ...
    @property
    def wounds(self) -> int: ...
    @property
    def armour_save(self) -> int | None: ...
    @property
    def special_save(self) -> int | None: ...
    @property
    def cover_save(self) -> int | None: ...
    @property
    def void_shields(self) -> int: ...


def target_profile(model: Saving, *, wounds_remaining: int, rear_arc: bool) -> TargetProfile:
    """*model* as the saving rules see it, with the Wounds it has left, hit from its rear arc or not (LI-ARC-1)."""
    return TargetProfile(
        type=model.type,
        wounds=model.wounds,
        wounds_remaining=wounds_remaining,
        armour_save=model.armour_save,
        special_save=model.special_save,
        cover_save=model.cover_save,
        void_shields=model.void_shields,
        rear_arc=rear_arc,
    )


@record
class Attack:
    """What the firing weapon brings to each save: AP, Light AT, Armour Save changes (§5.1).

    The rear arc is not part of it: it depends on the model each hit is allocated to (``TargetProfile.rear_arc``).
    """

    ap: int = 0
    light_at: bool = False
    armour_save_modifier: int = 0


def shield_ap(attack: Attack, model_type: str) -> int:
    """The AP a hit brings against Void Shields: trait changes only, never the rear arc (LI-VOID-2, LI-ARC-3, LI-SAVE-10).

    >>> shield_ap(Attack(ap=-2, light_at=True), "titan")
    0
    """
    return 0 if attack.light_at and is_armoured(model_type) else attack.ap


def save_ap(attack: Attack, model_type: str, *, rear_arc: bool) -> int:
    """The AP used against the Armour Save of a model hit from *rear_arc* or not (LI-SAVE-2, LI-SAVE-10, LI-ARC-1).

    Light AT sets the AP to 0 against armoured types first; then the rear arc improves it by 1
    against armoured types.

    >>> save_ap(Attack(ap=-1, light_at=True), "knight", rear_arc=True)
    -1
    >>> save_ap(Attack(ap=-1, light_at=True), "infantry", rear_arc=True)
    -1
    >>> save_ap(Attack(ap=0), "infantry", rear_arc=True)
    0
    """
    return shield_ap(attack, model_type) - (1 if rear_arc and is_armoured(model_type) else 0)


def save_target(model: TargetProfile, attack: Attack) -> int | None:
    """The best Save characteristic the controller can use against this hit; ``None`` if it has none (LI-SAVE-1..7).

    AP and Armour Save modifiers change only the Armour Save (LI-SAVE-2), the AP improved by one when the
    hit comes from the model's rear arc (LI-ARC-1); "-" armour cannot be changed (LI-SAVE-5); Special and
    Cover Saves ignore AP (LI-SAVE-6, LI-SAVE-7). The controller takes the best (smallest) value (LI-SAVE-1).

    >>> save_target(TargetProfile("infantry", 1, 1, armour_save=5, cover_save=4), Attack(ap=-1))
    4
    """
    candidates = []
    if model.armour_save is not None:
        ap = save_ap(attack, model.type, rear_arc=model.rear_arc)
        candidates.append(model.armour_save - ap - attack.armour_save_modifier)
    candidates += [save for save in (model.special_save, model.cover_save) if save is not None]
    return min(candidates) if candidates else None


def save_passes(face: int, target: int | None) -> bool:
    """Whether a save die of *face* passes against *target* (LI-SAVE-3, LI-SAVE-4, LI-SAVE-9).

    No natural-roll results: 1+ or better passes whatever the die, 7+ or worse fails; no usable
    Save characteristic at all fails [DECISION LI-SAVE-9].

    >>> save_passes(1, 1), save_passes(6, 7), save_passes(4, 4), save_passes(6, None)
    (True, False, True, False)
    """
    return target is not None and face >= target


def save_faces(target: int | None) -> int:
    """How many faces of the save die pass against *target*, out of 6 (LI-SAVE-3, LI-SAVE-4, LI-SAVE-9).

    >>> save_faces(4), save_faces(1), save_faces(7), save_faces(None)
    (3, 6, 0, 0)
    """
    return sum(save_passes(face, target) for face in range(1, 7))
