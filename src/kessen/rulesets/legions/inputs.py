"""The inputs of the legions odds procedures (§5), validated strictly (§5.0, §3.8)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.validation import StrictModel
from kessen.rulesets.legions.profiles import (
    KNIGHTS_AND_TITANS,
    OBSCURATION_PENALTY,
    SCALE,
    ModelType,
    Obscured,
    TargetProfile,
)

Save = Annotated[int, Field(ge=2, le=6)]
Scale = Annotated[int, Field(ge=1, le=5)]
Wounds = Annotated[int, Field(ge=1, le=20)]
AP = Annotated[int, Field(ge=-6, le=0)]
ArmourSaveModifier = Annotated[int, Field(ge=-3, le=3)]
CAF = Annotated[int, Field(ge=-10, le=30)]
FightModifier = Annotated[int, Field(ge=-10, le=10)]
ExtraDice = Annotated[int, Field(ge=0, le=10)]

MoraleTrigger = Literal["casualties", "combat"]
"""What calls for a Morale check: casualties from an attack (LI-MORALE-1) or a lost combat (LI-RESULT-3)."""

MAX_TARGET_MODELS = 30
MAX_HIT_DICE = 60


def _no_explicit_null(model: StrictModel, name: str, path: str) -> None:
    """A derived-default field may be left out, but ``null`` is not an integer (§5.0)."""
    if name in model.model_fields_set and getattr(model, name) is None:
        raise InputError(path, None, "must be an integer")


class TargetModelInput(StrictModel):
    """An entry of ``target_models``: ``count`` identical models of the target Detachment (§5.1)."""

    type: ModelType = "infantry"
    count: Annotated[int, Field(ge=1, le=30)] = 1
    wounds: Wounds = 1
    wounds_remaining: Wounds | None = None
    armour_save: Save | None
    special_save: Save | None = None
    cover_save: Save | None = None
    void_shields: Annotated[int, Field(ge=0, le=12)] = 0
    eligible: bool = True
    obscured: Obscured = 0

    @property
    def remaining(self) -> int:
        """Wounds left, defaulting to the full Wounds characteristic."""
        return self.wounds if self.wounds_remaining is None else self.wounds_remaining

    @property
    def penalty(self) -> int:
        """This model's own obscuration penalty (LI-OBSC-1)."""
        return OBSCURATION_PENALTY[self.obscured]

    def profile(self, *, rear_arc: bool) -> TargetProfile:
        """The model as the saving rules see it, hit from its rear arc or not (LI-ARC-1)."""
        return TargetProfile(
            type=self.type,
            wounds=self.wounds,
            wounds_remaining=self.remaining,
            armour_save=self.armour_save,
            special_save=self.special_save,
            cover_save=self.cover_save,
            void_shields=self.void_shields,
            rear_arc=rear_arc,
        )

    def check_at(self, path: str) -> None:
        """Cross-field rules of one entry (§5.1, §3.8)."""
        _no_explicit_null(self, "wounds_remaining", f"{path}.wounds_remaining")
        if self.remaining > self.wounds:
            raise InputError(f"{path}.wounds_remaining", self.remaining, f"must be ≤ wounds ({self.wounds})")
        if self.obscured and self.type not in KNIGHTS_AND_TITANS:
            raise InputError(
                f"{path}.obscured", self.obscured, f"only a knight or titan can be obscured, not a {self.type} (LI-OBSC-1)"
            )

    def normalised(self) -> dict[str, Any]:
        return {**self.model_dump(mode="json"), "wounds_remaining": self.remaining}


TargetModels = Annotated[tuple[TargetModelInput, ...], Field(min_length=1)]


def _check_targets(targets: tuple[TargetModelInput, ...]) -> None:
    for i, entry in enumerate(targets):
        entry.check_at(f"target_models[{i}]")
    total = sum(entry.count for entry in targets)
    if total > MAX_TARGET_MODELS:
        raise InputError("target_models", total, f"must hold at most {MAX_TARGET_MODELS} models after expanding count")


class ResolveHitsInput(StrictModel):
    """A number of hits resolved against a Detachment: R alone (§5.3)."""

    hits: Annotated[int, Field(ge=0, le=60)]
    ap: AP = 0
    light_at: bool = False
    rear_arc: bool = False
    armour_save_modifier: ArmourSaveModifier = 0
    target_models: TargetModels

    def check(self) -> None:
        _check_targets(self.target_models)

    def normalised(self) -> dict[str, Any]:
        return {**self.model_dump(mode="json"), "target_models": [t.normalised() for t in self.target_models]}


class FireInput(StrictModel):
    """One weapon profile fired by some models of a Detachment at one target Detachment (§5.2)."""

    firing_models: Annotated[int, Field(ge=1, le=30)]
    dice: Annotated[int, Field(ge=1, le=10)] = 1
    to_hit: Annotated[int, Field(ge=2, le=6)]
    hit_modifier: Annotated[int, Field(ge=-6, le=6)] = 0
    ap: AP = 0
    light_at: bool = False
    rear_arc: bool = False
    armour_save_modifier: ArmourSaveModifier = 0
    target_scale: Scale | None = None
    target_engaged_with_scales: Annotated[tuple[Scale, ...], Field(max_length=10)] = ()
    obscuration_penalty: Annotated[int, Field(ge=0, le=2)] | None = None
    target_models: TargetModels

    @property
    def scale(self) -> int:
        """The target's Scale: as given, else the highest Scale of its models' types (§3.1)."""
        if self.target_scale is not None:
            return self.target_scale
        return max(SCALE[t.type] for t in self.target_models)

    @property
    def penalty(self) -> int:
        """The chosen obscuration penalty: as given, else the largest among eligible models (LI-OBSC-2, §5.2)."""
        if self.obscuration_penalty is not None:
            return self.obscuration_penalty
        return max(t.penalty for t in self.target_models if t.eligible)

    def check(self) -> None:
        """Cross-field rules of §5.2."""
        if self.firing_models * self.dice > MAX_HIT_DICE:
            raise InputError("dice", self.firing_models * self.dice, f"firing_models × dice must be ≤ {MAX_HIT_DICE}")
        _no_explicit_null(self, "target_scale", "target_scale")
        _no_explicit_null(self, "obscuration_penalty", "obscuration_penalty")
        _check_targets(self.target_models)
        if not any(t.eligible for t in self.target_models):
            raise InputError("target_models", "no eligible model", "at least one model must be eligible (LI-TGT-1)")
        if self.obscuration_penalty is not None:
            offered = sorted({t.penalty for t in self.target_models if t.eligible})
            if self.obscuration_penalty not in offered:
                raise InputError(
                    "obscuration_penalty",
                    self.obscuration_penalty,
                    f"must be the penalty of an eligible target model, one of {offered} (LI-OBSC-2)",
                )

    def normalised(self) -> dict[str, Any]:
        return {
            **self.model_dump(mode="json"),
            "target_scale": self.scale,
            "obscuration_penalty": self.penalty,
            "target_models": [t.normalised() for t in self.target_models],
        }


class FightSide(StrictModel):
    """One model of a fight (§5.4)."""

    caf: CAF
    modifier: FightModifier = 0
    charged: bool = False
    fight_number: Annotated[int, Field(ge=1, le=10)] = 1
    extra_dice: ExtraDice = 0


class FightInput(StrictModel):
    """One fight between model ``a`` and model ``b`` (§5.4)."""

    a: FightSide
    b: FightSide


class CombatModel(StrictModel):
    """A model in a combat (§5.5)."""

    id: Annotated[str, Field(min_length=1, max_length=20)]
    side: Literal["a", "b"]
    caf: CAF
    wounds_remaining: Wounds = 1
    charged: bool = False
    modifier: FightModifier = 0
    extra_dice: ExtraDice = 0


class CombatInput(StrictModel):
    """A whole combat from paired fights to its result (§5.5)."""

    models: Annotated[tuple[CombatModel, ...], Field(min_length=2, max_length=20)]
    fights: Annotated[tuple[tuple[str, str], ...], Field(min_length=1, max_length=12)]
    a_other_models: Annotated[int, Field(ge=0, le=100)] = 0
    b_other_models: Annotated[int, Field(ge=0, le=100)] = 0

    def check(self) -> None:
        """Ids unique and known, fights between opponents, each pair once, every model fighting,
        and the fights forming stars (§5.5, LI-PAIR-4)."""
        side: dict[str, str] = {}
        for i, model in enumerate(self.models):
            if model.id in side:
                raise InputError(f"models[{i}].id", model.id, "duplicate id")
            side[model.id] = model.side
        pairs: set[frozenset[str]] = set()
        fights_of: dict[str, int] = {m.id: 0 for m in self.models}
        for k, (x, y) in enumerate(self.fights):
            for j, name in enumerate((x, y)):
                if name not in side:
                    raise InputError(f"fights[{k}][{j}]", name, "unknown model id")
            if side[x] == side[y]:
                raise InputError(f"fights[{k}]", [x, y], "a fight joins two models of opposing sides")
            pair = frozenset((x, y))
            if pair in pairs:
                raise InputError(f"fights[{k}]", [x, y], "the same pair fights only once")
            pairs.add(pair)
            fights_of[x] += 1
            fights_of[y] += 1
        for i, model in enumerate(self.models):
            if fights_of[model.id] == 0:
                raise InputError(f"models[{i}].id", model.id, "every model in the combat must be in a fight (LI-PAIR-1)")
        for k, (x, y) in enumerate(self.fights):
            if fights_of[x] > 1 and fights_of[y] > 1:
                raise InputError(
                    f"fights[{k}]", [x, y], "both models are in more than one fight: fights must form stars (LI-PAIR-4)"
                )


class MoraleCheckInput(StrictModel):
    """A Morale check (§5.6)."""

    morale: Save | None
    trigger: MoraleTrigger = "casualties"
    broken: bool = False
    roll_modifier: Annotated[int, Field(ge=-3, le=3)] = 0
    earlier_check_this_phase: Literal["none", "passed", "failed"] = "none"
    fall_back_at_phase_start: bool = False


class WithdrawalSaveInput(StrictModel):
    """The save rolls of one withdrawing model (§5.7)."""

    scale: Scale
    wounds_remaining: Wounds = 1
    armour_save: Save | None
    special_save: Save | None = None
    cover_save: Save | None = None
    passed_through_scales: Annotated[tuple[Scale, ...], Field(max_length=10)]


class WithdrawalMoveInput(StrictModel):
    """The distance of a Withdrawal move (§5.8)."""

    movement: Annotated[int, Field(ge=0, le=30)]


class FormationEntry(StrictModel):
    """Models of one kind in a Formation (§5.9)."""

    type: ModelType = "infantry"
    wounds: Wounds = 1
    count: Annotated[int, Field(ge=1, le=500)] = 1
    destroyed: Annotated[int, Field(ge=0, le=500)] = 0
    wounds_lost: Annotated[int, Field(ge=0)] = 0

    def check_at(self, path: str) -> None:
        """``destroyed`` ≤ ``count``; ``wounds_lost`` only on surviving Knights and Titans (§5.9)."""
        if self.destroyed > self.count:
            raise InputError(f"{path}.destroyed", self.destroyed, f"must be ≤ count ({self.count})")
        if self.type in KNIGHTS_AND_TITANS:
            most = (self.count - self.destroyed) * (self.wounds - 1)
            if self.wounds_lost > most:
                raise InputError(
                    f"{path}.wounds_lost",
                    self.wounds_lost,
                    f"must be ≤ {most}: (count − destroyed) × (wounds − 1), Wounds lost by the surviving models",
                )
        elif self.wounds_lost:
            raise InputError(f"{path}.wounds_lost", self.wounds_lost, f"must be 0 for a {self.type} (counted by models)")


class BreakPointInput(StrictModel):
    """A Formation's Break Point and losses (§5.9)."""

    models: Annotated[tuple[FormationEntry, ...], Field(min_length=1, max_length=50)]
    already_broken: bool = False

    def check(self) -> None:
        for i, entry in enumerate(self.models):
            entry.check_at(f"models[{i}]")
