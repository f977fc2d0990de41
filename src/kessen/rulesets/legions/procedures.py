"""The legions odds procedures (§5): their inputs, validated strictly at the edge (§5.0, §3.8), each turned into
the question its ``rules`` procedure answers."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from kessen.core.errors import InputError
from kessen.io.validation import StrictModel
from kessen.rulesets import Procedure
from kessen.rulesets.legions.profiles import OBSCURATION_PENALTY, SCALE, ModelType, Obscured
from kessen.rulesets.legions.rules import broken, close_combat, firing, withdrawal
from kessen.rulesets.legions.rules.firing import MAX_HIT_DICE, MAX_TARGET_MODELS
from kessen.rulesets.legions.rules.morale import MoraleCheckQuestion, MoraleTrigger, morale_check
from kessen.rulesets.legions.rules.saves import Attack, TargetProfile, target_profile
from kessen.rulesets.legions.rules.targeting import hit_modifier, may_be_obscured, may_receive_hits

Save = Annotated[int, Field(ge=2, le=6)]
Scale = Annotated[int, Field(ge=1, le=5)]
Wounds = Annotated[int, Field(ge=1, le=20)]
AP = Annotated[int, Field(ge=-6, le=0)]
ArmourSaveModifier = Annotated[int, Field(ge=-3, le=3)]
CAF = Annotated[int, Field(ge=-10, le=30)]
FightModifier = Annotated[int, Field(ge=-10, le=10)]
ExtraDice = Annotated[int, Field(ge=0, le=10)]



def _no_explicit_null(model: StrictModel, name: str, path: str) -> None:
    """A derived-default field may be left out, but ``null`` is not an integer (§5.0)."""
    if name in model.model_fields_set and getattr(model, name) is None:
        raise InputError(path, InputError.NOTHING, "must be an integer, not null")


class TargetModelInput(StrictModel):
    """An entry of ``target_models``: ``count`` identical models of the target Detachment (§5.1)."""

    type: ModelType = Field(default="infantry", description="the model type (§3.1); it sets the Scale and whether it is armoured")
    count: Annotated[int, Field(ge=1, le=30)] = Field(default=1, description="how many identical models this entry stands for")
    wounds: Wounds = Field(default=1, description="the Wounds characteristic (starting Wounds)")
    wounds_remaining: Wounds | None = Field(default=None, description="Wounds left; leave out for an unwounded model (= wounds)")
    armour_save: Save | None = Field(description='the Armour Save "X+" as X, or null for "-" (no Armour Save)')
    special_save: Save | None = Field(default=None, description='a Special Save "X+" as X, not modified by AP (LI-SAVE-6); null for none')
    cover_save: Save | None = Field(default=None, description='a Cover Save "X+" from terrain as X, not modified by AP (LI-SAVE-7); null for none')
    void_shields: Annotated[int, Field(ge=0, le=12)] = Field(default=0, description="the current Void Shield level (LI-VOID)")
    eligible: bool = Field(default=True, description="in range and line of sight of at least one firing model (LI-ALLOC-2)")
    obscured: Obscured = Field(default=0, description="percent hidden, 0, 25 or 50; non-zero only for a knight or titan (LI-OBSC-1)")

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
        return target_profile(self, wounds_remaining=self.remaining, rear_arc=rear_arc)

    def check_at(self, path: str) -> None:
        """Cross-field rules of one entry (§5.1, §3.8)."""
        _no_explicit_null(self, "wounds_remaining", f"{path}.wounds_remaining")
        if self.remaining > self.wounds:
            raise InputError(f"{path}.wounds_remaining", self.remaining, f"must be ≤ wounds ({self.wounds})")
        if self.obscured and not may_be_obscured(self.type):
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

    hits: Annotated[int, Field(ge=0, le=60)] = Field(description="the number of hits to allocate and save (LI-HIT-3)")
    ap: AP = Field(default=0, description="the weapon's AP, 0 to -6 (LI-SAVE-2)")
    light_at: bool = Field(default=False, description="the weapon has Light AT: AP 0 against armoured types (LI-SAVE-10)")
    rear_arc: bool = Field(default=False, description="fired from the target models' rear arc: AP one better against armoured types (LI-ARC-1)")
    armour_save_modifier: ArmourSaveModifier = Field(
        default=0, description="other changes to the Armour Save characteristic, + is better (+1 turns 3+ into 2+)"
    )
    target_models: TargetModels = Field(description="the target Detachment's models in list order (§5.1)")

    def check(self) -> None:
        _check_targets(self.target_models)

    def normalised(self) -> dict[str, Any]:
        return {**self.model_dump(mode="json"), "target_models": [t.normalised() for t in self.target_models]}

    def question(self) -> firing.HitsQuestion:
        """R alone: every eligible model may be allocated hits (§5.3)."""
        allocatable = tuple(e.eligible for e in self.target_models for _ in range(e.count))
        return firing.HitsQuestion(self.hits, _attack(self), _expanded(self), allocatable)


def _attack(value: FireInput | ResolveHitsInput) -> Attack:
    return Attack(value.ap, value.light_at, value.armour_save_modifier)


def _expanded(value: FireInput | ResolveHitsInput) -> tuple[TargetProfile, ...]:
    """T: each entry's ``count`` copies next to each other, in entry order (§5.1 step 1), all hit from the rear arc
    when the input says so."""
    return tuple(p for e in value.target_models for p in [e.profile(rear_arc=value.rear_arc)] * e.count)


class FireInput(StrictModel):
    """One weapon profile fired by some models of a Detachment at one target Detachment (§5.2)."""

    firing_models: Annotated[int, Field(ge=1, le=30)] = Field(description="the models firing this weapon profile at the target")
    dice: Annotated[int, Field(ge=1, le=10)] = Field(default=1, description="the profile's Dice value: D6 rolled per firing model (LI-HIT-1)")
    to_hit: Annotated[int, Field(ge=2, le=6)] = Field(description='the To Hit value "X+" as X')
    hit_modifier: Annotated[int, Field(ge=-6, le=6)] = Field(default=0, description="the sum of other hit modifiers (terrain, special rules)")
    ap: AP = Field(default=0, description="the weapon's AP, 0 to -6 (LI-SAVE-2)")
    light_at: bool = Field(default=False, description="the weapon has Light AT: AP 0 against armoured types (LI-SAVE-10)")
    rear_arc: bool = Field(default=False, description="fired from the target models' rear arc: AP one better against armoured types (LI-ARC-1)")
    armour_save_modifier: ArmourSaveModifier = Field(
        default=0, description="other changes to the Armour Save characteristic, + is better (+1 turns 3+ into 2+)"
    )
    target_scale: Scale | None = Field(default=None, description="the target's Scale; leave out for the highest Scale of its models' types")
    target_engaged_with_scales: Annotated[tuple[Scale, ...], Field(max_length=10)] = Field(
        default=(), description="the Scale of every Detachment the target is Engaged with; empty when it is not Engaged (LI-TGT-5)"
    )
    obscuration_penalty: Annotated[int, Field(ge=0, le=2)] | None = Field(
        default=None, description="the obscuration penalty chosen, 0-2 (LI-OBSC-2); leave out for the largest among eligible models"
    )
    target_models: TargetModels = Field(description="the target Detachment's models in list order (§5.1)")

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

    def question(self) -> firing.FireQuestion:
        """Hit rolls with every modifier summed (LI-HIT-4, LI-TGT-5, LI-OBSC-2), then R on the eligible models hidden
        no more than the chosen penalty (LI-ALLOC-2, LI-OBSC-2)."""
        modifier = hit_modifier(
            target_scale=self.scale, engaged_with_scales=self.target_engaged_with_scales,
            obscuration_penalty=self.penalty, other=self.hit_modifier,
        )
        allocatable = tuple(
            may_receive_hits(eligible=e.eligible, own_penalty=e.penalty, chosen_penalty=self.penalty)
            for e in self.target_models
            for _ in range(e.count)
        )
        return firing.FireQuestion(self.firing_models * self.dice, self.to_hit, modifier, _attack(self), _expanded(self), allocatable)


class FightSide(StrictModel):
    """One model of a fight (§5.4)."""

    caf: CAF = Field(description="the model's Close Assault Factor, added to its fight roll (LI-FIGHT-2)")
    modifier: FightModifier = Field(default=0, description="other fight-roll modifiers")
    charged: bool = Field(default=False, description="its Detachment holds a Charge order and moved at least 1 inch: +1 (LI-FIGHT-3)")
    fight_number: Annotated[int, Field(ge=1, le=10)] = Field(
        default=1, description="this is the model's n-th fight in the combat: its opponent rolls n - 1 extra D6 (LI-FIGHT-4)"
    )
    extra_dice: ExtraDice = Field(default=0, description="extra D6 for this side from other rules, e.g. Rend (LI-FIGHT-4)")


    def question(self) -> close_combat.FightSide:
        return close_combat.FightSide(**self.model_dump())


class FightInput(StrictModel):
    """One fight between model ``a`` and model ``b`` (§5.4)."""

    a: FightSide = Field(description="one model of the fight")
    b: FightSide = Field(description="the other model of the fight")

    def question(self) -> close_combat.FightQuestion:
        return close_combat.FightQuestion(self.a.question(), self.b.question())


class CombatModel(StrictModel):
    """A model in a combat (§5.5)."""

    id: Annotated[str, Field(min_length=1, max_length=20)] = Field(description="the model's name, unique in the combat")
    side: Literal["a", "b"] = Field(description='the side it fights for, "a" or "b"')
    caf: CAF = Field(description="the model's Close Assault Factor (LI-FIGHT-2)")
    wounds_remaining: Wounds = Field(default=1, description="Wounds left")
    charged: bool = Field(default=False, description="its Detachment holds a Charge order and moved at least 1 inch: +1 (LI-FIGHT-3)")
    modifier: FightModifier = Field(default=0, description="other fight-roll modifiers")
    extra_dice: ExtraDice = Field(default=0, description="extra D6 from other rules, e.g. Rend (LI-FIGHT-4)")


class CombatInput(StrictModel):
    """A whole combat from paired fights to its result (§5.5)."""

    models: Annotated[tuple[CombatModel, ...], Field(min_length=2, max_length=20)] = Field(
        description="every model in base contact with an enemy model (LI-PAIR-1)"
    )
    fights: Annotated[tuple[tuple[str, str], ...], Field(min_length=1, max_length=12)] = Field(
        description="the fights as pairs of model ids, in the order they are resolved; they must form stars (LI-PAIR-4)"
    )
    a_other_models: Annotated[int, Field(ge=0, le=100)] = Field(
        default=0, description="surviving models of side a's Detachments in the combat that are in no fight (LI-RESULT-2)"
    )
    b_other_models: Annotated[int, Field(ge=0, le=100)] = Field(default=0, description="the same for side b")

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


    def question(self) -> close_combat.CombatQuestion:
        models = tuple(close_combat.CombatModel(**m.model_dump()) for m in self.models)
        return close_combat.CombatQuestion(models, self.fights, self.a_other_models, self.b_other_models)


class MoraleCheckInput(StrictModel):
    """A Morale check (§5.6)."""

    morale: Save | None = Field(description='the Detachment\'s Morale "X+" as X, or null for "-"')
    trigger: MoraleTrigger = Field(
        default="casualties", description='"casualties" (LI-MORALE-1) or "combat", a lost combat (LI-RESULT-3)'
    )
    broken: bool = Field(default=False, description="the Detachment's Formation is Broken (LI-BREAK-5)")
    roll_modifier: Annotated[int, Field(ge=-3, le=3)] = Field(default=0, description="other modifiers to the die result")
    earlier_check_this_phase: Literal["none", "passed", "failed"] = Field(
        default="none", description="the result of its earlier Morale check this phase, if any (LI-MORALE-7)"
    )
    fall_back_at_phase_start: bool = Field(default=False, description="the Detachment began the phase with a Fall Back order (LI-MORALE-8)")


    def question(self) -> MoraleCheckQuestion:
        return MoraleCheckQuestion(**self.model_dump())


class WithdrawalSaveInput(StrictModel):
    """The save rolls of one withdrawing model (§5.7)."""

    scale: Scale = Field(description="the withdrawing model's Scale")
    wounds_remaining: Wounds = Field(default=1, description="its Wounds left")
    armour_save: Save | None = Field(description='its Armour Save "X+" as X, or null for "-"')
    special_save: Save | None = Field(default=None, description='its Special Save "X+" as X; null for none')
    cover_save: Save | None = Field(default=None, description='its Cover Save "X+" as X; null for none')
    passed_through_scales: Annotated[tuple[Scale, ...], Field(max_length=10)] = Field(
        description="the Scale of each enemy Detachment it moves through, in order (LI-WD-4)"
    )


    def question(self) -> withdrawal.WithdrawalSaveQuestion:
        """The best of the model's saves is each roll's target (LI-WD-5)."""
        save = withdrawal.withdrawal_save_target(self.armour_save, self.special_save, self.cover_save)
        return withdrawal.WithdrawalSaveQuestion(self.scale, self.wounds_remaining, save, self.passed_through_scales)


class WithdrawalMoveInput(StrictModel):
    """The distance of a Withdrawal move (§5.8)."""

    movement: Annotated[int, Field(ge=0, le=30)] = Field(description="the model's Movement characteristic, in inches")


class FormationEntry(StrictModel):
    """Models of one kind in a Formation (§5.9)."""

    type: ModelType = Field(default="infantry", description="the model type; knights and titans count their Wounds (LI-BREAK-1)")
    wounds: Wounds = Field(default=1, description="starting Wounds")
    count: Annotated[int, Field(ge=1, le=500)] = Field(default=1, description="models of this kind in the Formation at the start of the battle")
    destroyed: Annotated[int, Field(ge=0, le=500)] = Field(default=0, description="how many of them are destroyed")
    wounds_lost: Annotated[int, Field(ge=0)] = Field(
        default=0, description="Wounds lost by the surviving knights or titans of this entry; 0 for other types"
    )

    def check_at(self, path: str) -> None:
        """``destroyed`` ≤ ``count``; ``wounds_lost`` only on surviving Knights and Titans (§5.9)."""
        if self.destroyed > self.count:
            raise InputError(f"{path}.destroyed", self.destroyed, f"must be ≤ count ({self.count})")
        if broken.counts_by_wounds(self.type):
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

    models: Annotated[tuple[FormationEntry, ...], Field(min_length=1, max_length=50)] = Field(
        description="the Formation's models, by kind"
    )
    already_broken: bool = Field(default=False, description="the Formation was already Broken (LI-BREAK-6)")

    def check(self) -> None:
        for i, entry in enumerate(self.models):
            entry.check_at(f"models[{i}]")

    def question(self) -> broken.BreakPointQuestion:
        return broken.BreakPointQuestion(tuple(broken.FormationModels(**e.model_dump()) for e in self.models), self.already_broken)


PROCEDURES: dict[str, Procedure[Any]] = {
    p.name: p
    for p in (
        Procedure("fire", "one weapon profile fired at a Detachment: hits, Wounds, models destroyed, shields lost",
                  FireInput, lambda v: firing.fire(v.question()), FireInput.normalised),
        Procedure("resolve_hits", "a number of hits allocated and saved against a Detachment",
                  ResolveHitsInput, lambda v: firing.resolve_hits(v.question()), ResolveHitsInput.normalised),
        Procedure("fight", "one fight roll-off between two models: who wins", FightInput, lambda v: close_combat.fight(v.question())),
        Procedure("combat", "a whole combat from paired fights to its result", CombatInput, lambda v: close_combat.combat(v.question())),
        Procedure("morale_check", "a Morale check after casualties or a lost combat", MoraleCheckInput,
                  lambda v: morale_check(v.question())),
        Procedure("withdrawal_save", "the save rolls of a model withdrawing through enemy Detachments", WithdrawalSaveInput,
                  lambda v: withdrawal.withdrawal_save(v.question())),
        Procedure("withdrawal_move", "the distance of a Withdrawal move", WithdrawalMoveInput,
                  lambda v: withdrawal.withdrawal_move(v.movement)),
        Procedure("break_point", "a Formation's Break Point, losses and whether it is Broken", BreakPointInput,
                  lambda v: broken.break_point(v.question())),
    )
}
