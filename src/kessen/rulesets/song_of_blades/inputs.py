"""The inputs of the song-of-blades odds procedures (§6), validated strictly."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.validation import StrictModel
from kessen.rulesets.song_of_blades.profiles import MAX_MODELS_PER_SIDE, ModelState, Size, SpecialRule

Combat = Annotated[int, Field(ge=0, le=12)]
Quality = Annotated[int, Field(ge=2, le=6)]
InContact = Annotated[int, Field(ge=1, le=MAX_MODELS_PER_SIDE)]
TransfixedInContact = Annotated[int, Field(ge=0, le=MAX_MODELS_PER_SIDE - 1)]


class MeleeInput(StrictModel):
    """One combat roll between an attacker and a defender (§6.1)."""

    attacker_combat: Combat
    defender_combat: Combat
    attacker_state: Literal["standing", "fallen"] = "standing"
    defender_state: ModelState = "standing"
    free_hack: bool = False
    lethal: bool = False
    power_blow: bool = False
    ambush: bool = False
    attack_number: Annotated[int, Field(ge=1, le=6)] = 1
    attacker_mounted: bool = False
    defender_mounted: bool = False
    attacker_size: Size = "normal"
    defender_size: Size = "normal"
    attacker_high_ground: bool = False
    defender_obstacle: bool = False
    attacker_enemies_in_contact: InContact = 1
    attacker_transfixed_in_contact: TransfixedInContact = 0
    defender_enemies_in_contact: InContact = 1
    defender_transfixed_in_contact: TransfixedInContact = 0
    attacker_can_recoil: bool = True
    defender_can_recoil: bool = True

    def check(self) -> None:
        """The cross-field rules of §6.1."""
        if self.attacker_transfixed_in_contact > self.attacker_enemies_in_contact:
            raise InputError(
                "attacker_transfixed_in_contact",
                self.attacker_transfixed_in_contact,
                f"must be ≤ attacker_enemies_in_contact ({self.attacker_enemies_in_contact})",
            )
        if self.defender_transfixed_in_contact > self.defender_enemies_in_contact - 1:
            raise InputError(
                "defender_transfixed_in_contact",
                self.defender_transfixed_in_contact,
                f"must be ≤ defender_enemies_in_contact − 1 ({self.defender_enemies_in_contact - 1}): "
                "the attacker is never transfixed",
            )
        if self.defender_state == "transfixed" and self.attacker_transfixed_in_contact < 1:
            raise InputError(
                "attacker_transfixed_in_contact",
                self.attacker_transfixed_in_contact,
                "must be ≥ 1 when defender_state is transfixed (the defender is one of them)",
            )
        if self.free_hack:
            for name in ("attacker_state", "defender_state"):
                if getattr(self, name) != "standing":
                    raise InputError(name, getattr(self, name), "must be standing in a free hack (SB-DOWN-8)")
            for name in ("power_blow", "ambush"):
                if getattr(self, name):
                    raise InputError(name, True, "a free hack cannot be a power blow or an ambush (SB-MOD-2, SB-MOD-3)")


class HackingEnemy(StrictModel):
    """One enemy in contact with a model that leaves contact (§6.2).

    [DECISION] ``can_recoil`` (default true) says whether the leaving model has a legal recoil away from *this*
    enemy (SB-RECOIL-5): a recoil is away from the hacker, so the room to recoil differs from hacker to hacker.
    The hack is the ``melee`` free hack with ``defender_can_recoil`` = the top-level ``can_recoil`` and this one.
    """

    combat: Combat
    state: ModelState = "standing"
    size: Size = "normal"
    mounted: bool = False
    flying: bool = False
    high_ground: bool = False
    obstacle: bool = False
    enemies_in_contact: InContact = 1
    transfixed_in_contact: TransfixedInContact = 0
    can_recoil: bool = True


class DisengageInput(StrictModel):
    """A model leaving contact with all its enemies, in the chosen hack order (§6.2)."""

    combat: Combat
    size: Size = "normal"
    mounted: bool = False
    flying: bool = False
    free_disengage: bool = False
    failed_morale: bool = False
    can_recoil: bool = True
    enemies: Annotated[tuple[HackingEnemy, ...], Field(min_length=1, max_length=MAX_MODELS_PER_SIDE)]

    def check(self) -> None:
        """Each enemy's transfixed count leaves room for the leaving model (§6.2)."""
        for i, enemy in enumerate(self.enemies):
            if enemy.transfixed_in_contact > enemy.enemies_in_contact - 1:
                raise InputError(
                    f"enemies[{i}].transfixed_in_contact",
                    enemy.transfixed_in_contact,
                    f"must be ≤ enemies_in_contact − 1 ({enemy.enemies_in_contact - 1})",
                )


class ActivationInput(StrictModel):
    """An activation roll of 1–3 dice against Quality (§6.3)."""

    quality: Quality
    dice: Annotated[int, Field(ge=1, le=3)] = 1


class MoraleInput(StrictModel):
    """A morale test: three dice against Quality (§6.4)."""

    quality: Quality


class TargetEnemy(StrictModel):
    """An enemy in contact, as melee priority sees it (§6.5)."""

    state: ModelState = "standing"
    points: Annotated[int, Field(ge=1, le=10000)]


class MeleeTargetsInput(StrictModel):
    """Which enemies in contact a model may attack (§6.5)."""

    melee_priority: bool = False
    special_rules: tuple[SpecialRule, ...] = ()
    enemies: Annotated[tuple[TargetEnemy, ...], Field(min_length=1, max_length=MAX_MODELS_PER_SIDE)]

    def check(self) -> None:
        """No special rule twice (§3.1)."""
        seen: set[str] = set()
        for i, rule in enumerate(self.special_rules):
            if rule in seen:
                raise InputError(f"special_rules[{i}]", rule, "duplicate special rule")
            seen.add(rule)
