"""The song-of-blades procedures of the odds contract (§6): their inputs, validated strictly at the edge, and the
rules/ procedure each one asks once its input is turned into the rules' own plain values."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.dice import Dist
from kessen.io.validation import StrictModel
from kessen.rulesets import Procedure
from kessen.rulesets.song_of_blades.profiles import ModelState, Size, SpecialRule
from kessen.rulesets.song_of_blades.rules import disengaging, melee, priority, quality

Combat = Annotated[int, Field(ge=0, le=12)]
Quality = Annotated[int, Field(ge=2, le=6)]
MAX_IN_CONTACT = 8
"""The odds inputs' limit on models in contact, as §6 gives it (1-8). The engine is not bound by it: it asks the
rules/ procedures directly with every enemy in contact (up to a side's 50 models), so no position is clipped."""
InContact = Annotated[int, Field(ge=1, le=MAX_IN_CONTACT)]
TransfixedInContact = Annotated[int, Field(ge=0, le=MAX_IN_CONTACT - 1)]


class MeleeInput(StrictModel):
    """One combat roll between an attacker and a defender (§6.1)."""

    attacker_combat: Combat = Field(description="the attacker's Combat (0-12), added to its d6")
    defender_combat: Combat = Field(description="the defender's Combat (0-12), added to its d6")
    attacker_state: Literal["standing", "fallen"] = Field(
        default="standing", description="standing or fallen; a fallen attacker gives its opponent +2 and a lethal win (SB-MOD-7); "
        "a transfixed model cannot attack (SB-DOWN-8)")
    defender_state: ModelState = Field(
        default="standing", description="standing, fallen or transfixed; a fallen or transfixed defender gives the attacker +2 and "
        "a lethal win (SB-MOD-1), a transfixed one rolls defensively (SB-DOWN-6)")
    free_hack: bool = Field(default=False, description="the roll is a free hack by the attacker: the defender's roll is defensive (SB-MELEE-4)")
    lethal: bool = Field(default=False, description="the attacker's win is lethal for another reason, e.g. a hack on a model fleeing "
                         "after a failed morale test (SB-MELEE-10, SB-DIS-7)")
    power_blow: bool = Field(default=False, description="a 2-action power blow: the defender is at -1 (SB-MOD-2)")
    ambush: bool = Field(default=False, description="the attacker attacks from hiding: +1 on its first attack (SB-MOD-3)")
    attack_number: Annotated[int, Field(ge=1, le=6)] = Field(
        default=1, description="which attack of the attacker's activation this is (1-6); the ambush bonus counts only on 1")
    attacker_mounted: bool = Field(default=False, description="the attacker is mounted: +1 against a defender on foot (SB-MOD-4)")
    defender_mounted: bool = Field(default=False, description="the defender is mounted (no +1 for a mounted attacker)")
    attacker_size: Size = Field(default="normal", description="the attacker's size class: normal, big, huge or gargantuan; "
                                "+1 against a smaller defender (SB-MOD-6)")
    defender_size: Size = Field(default="normal", description="the defender's size class: normal, big, huge or gargantuan")
    attacker_high_ground: bool = Field(default=False, description="the attacker stands higher than the defender: +1 (SB-MOD-5b)")
    defender_obstacle: bool = Field(default=False, description="the defender fights from behind an obstacle the attacker strikes "
                                    "across: +1 (SB-MOD-5a)")
    attacker_enemies_in_contact: InContact = Field(
        default=1, description=f"enemies in base contact with the attacker, the defender included (1-{MAX_IN_CONTACT}): "
        "-1 for each one beyond the first (SB-OUT-1)")
    attacker_transfixed_in_contact: TransfixedInContact = Field(
        default=0, description="how many of the attacker's enemies in contact are transfixed; they do not count (SB-OUT-2)")
    defender_enemies_in_contact: InContact = Field(
        default=1, description=f"enemies in base contact with the defender, the attacker included (1-{MAX_IN_CONTACT}): "
        "-1 for each one beyond the first (SB-OUT-1)")
    defender_transfixed_in_contact: TransfixedInContact = Field(
        default=0, description="how many of the defender's enemies in contact are transfixed (never the attacker)")
    attacker_can_recoil: bool = Field(default=True, description="false: the attacker has no legal recoil, so a recoil result "
                                      "is a fall (SB-RECOIL-5)")
    defender_can_recoil: bool = Field(default=True, description="false: the defender has no legal recoil, so a recoil result "
                                      "is a fall (SB-RECOIL-5)")

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

    combat: Combat = Field(description="this enemy's Combat (0-12)")
    state: ModelState = Field(default="standing", description="standing, fallen or transfixed; only a standing enemy hacks "
                              "(SB-DOWN-5); every one but a transfixed one counts for outnumbering (SB-DIS-8)")
    size: Size = Field(default="normal", description="this enemy's size class: normal, big, huge or gargantuan")
    mounted: bool = Field(default=False, description="this enemy is mounted (a mounted leaving model is hacked only by mounted "
                          "enemies, SB-DIS-4)")
    flying: bool = Field(default=False, description="this enemy flies (a flying leaving model is hacked only by flying "
                         "enemies, SB-DIS-4)")
    high_ground: bool = Field(default=False, description="this enemy stands higher than the leaving model: +1 on its hack (SB-MOD-5b)")
    obstacle: bool = Field(default=False, description="the leaving model defends an obstacle against this enemy: +1 to the "
                           "leaving model (SB-MOD-5a)")
    enemies_in_contact: InContact = Field(
        default=1, description="models in contact with this enemy that are its enemies, the leaving model included: -1 for "
        "each one beyond the first on its hack (SB-OUT-3)")
    transfixed_in_contact: TransfixedInContact = Field(
        default=0, description="how many of those are transfixed (at most enemies_in_contact - 1)")
    can_recoil: bool = Field(default=True, description="false: the leaving model has no legal recoil away from this enemy, so "
                             "a recoil from its hack is a fall (SB-RECOIL-5)")


class DisengageInput(StrictModel):
    """A model leaving contact with all its enemies, in the chosen hack order (§6.2)."""

    combat: Combat = Field(description="the leaving model's Combat (0-12)")
    size: Size = Field(default="normal", description="the leaving model's size class: normal, big, huge or gargantuan")
    mounted: bool = Field(default=False, description="the leaving model is mounted: enemies on foot do not hack it (SB-DIS-4)")
    flying: bool = Field(default=False, description="the leaving model flies: enemies that do not fly do not hack it (SB-DIS-4)")
    free_disengage: bool = Field(default=False, description="the leaving model has the Free Disengage special rule: no hacks (SB-DIS-4)")
    failed_morale: bool = Field(default=False, description="it leaves because it failed a morale test: every hack is lethal (SB-DIS-7)")
    can_recoil: bool = Field(default=True, description="false: the leaving model has no legal recoil at all, so a recoil result "
                             "is a fall (SB-RECOIL-5)")
    enemies: Annotated[tuple[HackingEnemy, ...], Field(min_length=1, max_length=MAX_IN_CONTACT)] = Field(
        description=f"every enemy in contact with the leaving model (1-{MAX_IN_CONTACT}), in the order its player "
        "chose for their hacks (SB-DIS-5)")

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

    quality: Quality = Field(description="the model's Quality (2-6): a die succeeds on this or more")
    dice: Annotated[int, Field(ge=1, le=3)] = Field(default=1, description="how many dice the player rolls (1-3)")


class MoraleInput(StrictModel):
    """A morale test: three dice against Quality (§6.4)."""

    quality: Quality = Field(description="the model's Quality (2-6): a die fails below this")


class TargetEnemy(StrictModel):
    """An enemy in contact, as melee priority sees it (§6.5)."""

    state: ModelState = Field(default="standing", description="standing, fallen or transfixed (a transfixed enemy counts as "
                              "standing for melee priority, SB-PRIO-1)")
    points: Annotated[int, Field(ge=1, le=10000)] = Field(description="this enemy's points (1-10000), compared by SB-PRIO-3")


class MeleeTargetsInput(StrictModel):
    """Which enemies in contact a model may attack (§6.5)."""

    melee_priority: bool = Field(default=False, description="the optional melee priority rule is on (SB-PRIO-1)")
    special_rules: tuple[SpecialRule, ...] = Field(
        default=(), description="the attacking model's special rules, no duplicates: free_disengage, opportunistic, "
        "combat_master, assassin (the last three may always choose a fallen enemy, SB-PRIO-2)")
    enemies: Annotated[tuple[TargetEnemy, ...], Field(min_length=1, max_length=MAX_IN_CONTACT)] = Field(
        description=f"the enemies in base contact with the attacking model (1-{MAX_IN_CONTACT})")

    def check(self) -> None:
        """No special rule twice (§3.1)."""
        seen: set[str] = set()
        for i, rule in enumerate(self.special_rules):
            if rule in seen:
                raise InputError(f"special_rules[{i}]", rule, "duplicate special rule")
            seen.add(rule)


# --- the odds registry: each input as the rules' own values --------------------------------------------------


# An input's fields as the rules' keywords: vars(model) is the validated values as pydantic keeps them (model_dump
# copies them through its serializer, and dict(model) through a generator: a third of a melee question's time).


def _melee(m: MeleeInput) -> Dist[melee.MeleeOutcome]:
    return melee.melee(melee.Melee(**vars(m)))


def _disengage(d: DisengageInput) -> Dist[disengaging.DisengageOutcome]:
    enemies = tuple(disengaging.HackingEnemy(**vars(e)) for e in d.enemies)
    return disengaging.disengage(disengaging.Disengage(**{**vars(d), "enemies": enemies}))


def _activation(a: ActivationInput) -> Dist[quality.ActivationOutcome]:
    return quality.activation(a.quality, a.dice)


def _morale(m: MoraleInput) -> Dist[quality.MoraleOutcome]:
    return quality.morale(m.quality)


def _melee_targets(q: MeleeTargetsInput) -> Dist[Any]:
    return priority.melee_targets(q.enemies, melee_priority=q.melee_priority, special_rules=q.special_rules)


PROCEDURES: dict[str, Procedure[Any]] = {
    p.name: p
    for p in (
        Procedure("melee", "one combat roll or free hack: winner, result and who suffers it", MeleeInput, _melee),
        Procedure("disengage", "leaving contact: free hacks in the chosen order until one has an effect", DisengageInput, _disengage),
        Procedure("activation", "an activation roll of 1-3 dice against Quality: actions and turnover", ActivationInput, _activation),
        Procedure("morale", "a morale test of three dice against Quality: stands, flees or destroyed", MoraleInput, _morale),
        Procedure("melee_targets", "which enemies in contact may be attacked (melee priority)", MeleeTargetsInput, _melee_targets),
    )
}
