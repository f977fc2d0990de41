"""Cast a Spell and areas of effect: what an effect does to one target, saving throws, doubling by stands,
partial coverage, automatic damage, and the spells a caster has left (§5.16, §5.17, §6.5).

The odds contract's ``save`` reads a ``SaveQuestion``; the engine also rolls automatic effects with
``automatic_damage`` and skips the targets an effect cannot touch (``SpellEffect.unaffected``), so each of these
rules is written here once.
"""

from __future__ import annotations

import functools
from dataclasses import field
from typing import Literal

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw
from kessen.rulesets.armies_clash.rules.d20 import CheckShown, RollMode, check_faces, d20, roll_mode, succeeds
from kessen.rulesets.armies_clash.rules.damage import Resistance, damage_roll, scaled_damage
from kessen.rulesets.armies_clash.rules.dice_strings import DiceExpression
from kessen.rulesets.armies_clash.profiles import Ability

SaveResult = Literal["failure", "success", "unaffected"]


@record
class SpellEffect:
    """What one spell or area effect does to one target, whatever the target rolls (§5.16, §5.17): who cast it and how,
    its damage and the target's response to it, the target's isolation and how much of a stand the area covers."""

    target: Literal["stand", "solo", "objective"] = "stand"
    spell_form: Literal["area", "targeted"] = "area"
    caster: Literal["stand", "solo"] = "stand"
    damage: DiceExpression | None = None
    resistance: Resistance = "none"
    target_isolated: bool = False
    partial_coverage: bool = False

    @property
    def unaffected(self) -> bool:
        """A solo's targeted spell never damages an objective square (AC-OBJ-4); an area that covers part of a stand
        leaves it alone if it deals no damage (AC-AOE-7) (steps 1–2 of §6.5)."""
        solo_at_square = self.target == "objective" and self.spell_form == "targeted" and self.caster == "solo"
        return solo_at_square or (self.partial_coverage and self.damage is None)

    @property
    def against_isolated_solo(self) -> bool:
        """A stand's targeted spell at an isolated solo (AC-SPELL-5, AC-INTEG-7)."""
        return self.target == "solo" and self.target_isolated and self.spell_form == "targeted" and self.caster == "stand"


@record
class SaveQuestion:
    """One target's saving throw against one spell or area effect (§6.5), as the rules read it.

    ``target_unconscious`` is a dying or stable PC solo, which fails Strength and Dexterity saves (AC-DMG-5, [FILL]
    5e unconscious); the odds contract has no such field, the engine sets it.
    """

    ability: Ability
    save_bonus: int
    dc: int
    effect: SpellEffect = field(default_factory=SpellEffect)
    on_success: Literal["half", "none"] = "half"
    skirmisher: bool = False
    prepared: bool = False
    extra_advantage: bool = False
    extra_disadvantage: bool = False
    target_unconscious: bool = False

    @property
    def fails_automatically(self) -> bool:
        """An objective square fails every save (AC-OBJ-4); an unconscious solo its Strength and Dexterity saves."""
        return self.effect.target == "objective" or (self.target_unconscious and self.ability in ("str", "dex"))


@record
class SaveOutcome:
    """One target's save against one effect, and the damage it takes (§6.5); in a battle, *dice* are the save's
    d20s when one was rolled (:func:`save_faces`)."""

    result: SaveResult
    damage: int
    dice: CheckShown | None = dice_field(None)


UNAFFECTED = SaveOutcome("unaffected", 0)


def save_roll_mode(situation: SaveQuestion) -> RollMode:
    """How the save is rolled (step 4 of §6.5).

    Advantage: a skirmisher stand's Dexterity save (AC-SKIRM-1), Prepare (AC-CMD-3), others.
    Disadvantage: an isolated solo saving against a stand's targeted spell (AC-SPELL-5), others.
    """
    advantage = (situation.skirmisher and situation.ability == "dex") or situation.prepared or situation.extra_advantage
    disadvantage = situation.extra_disadvantage or situation.effect.against_isolated_solo
    return roll_mode(advantage=advantage, disadvantage=disadvantage)


def doublings(effect: SpellEffect, *, failed_save: bool) -> int:
    """How many times the damage doubles (AC-AOE-9): a stand's area spell (AC-AOE-8); an isolated solo failing its
    save against a stand's targeted spell (AC-SPELL-5: only a failed save, so never an automatic effect)."""
    return int(effect.spell_form == "area" and effect.caster == "stand") + int(failed_save and effect.against_isolated_solo)


def halvings(effect: SpellEffect, *, saved: bool) -> int:
    """How many times the damage halves (AC-AOE-9): a successful save on a "half" effect; a partly covered stand (AC-AOE-7)."""
    return int(saved) + int(effect.partial_coverage)


@functools.lru_cache(maxsize=4096)
def save(situation: SaveQuestion) -> Dist[SaveOutcome]:
    """One target's saving throw against one spell or area effect (§6.5).

    An objective square is never affected by a solo's targeted spell and fails every save (AC-OBJ-4);
    a partly covered stand ignores an effect that deals no damage (AC-AOE-7). A save succeeds when
    d20 + bonus ≥ DC, with no automatic 1 or 20 (AC-D20-3); an unconscious solo fails Strength and
    Dexterity saves (AC-DMG-5). Cached: the engine asks the same questions often.
    """
    if situation.effect.unaffected:
        return Dist.always(UNAFFECTED)  # steps 1–2
    if situation.fails_automatically:
        saved_dist = Dist.always(False)  # step 3
    else:
        saved_dist = d20(save_roll_mode(situation)).map(
            lambda natural: succeeds(natural, bonus=situation.save_bonus, target=situation.dc)
        )
    return saved_dist.bind(lambda saved: _damage(situation, saved=saved))


def save_faces(situation: SaveQuestion, outcome: SaveOutcome, draw: Draw) -> CheckShown | None:
    """The d20s behind a saving throw that was rolled (none for a target unaffected or failing automatically): with
    :func:`save`'s result, exactly the odds of rolling them (§6.5 step 4, AC-D20-1..3)."""
    if situation.effect.unaffected or situation.fails_automatically:
        return None
    return check_faces(
        draw, bonus=situation.save_bonus, target=situation.dc, mode=save_roll_mode(situation), success=outcome.result == "success"
    )


def _damage(situation: SaveQuestion, *, saved: bool) -> Dist[SaveOutcome]:
    """Step 5 of §6.5: the damage after a save succeeded or failed."""
    result: SaveResult = "success" if saved else "failure"
    effect = situation.effect
    if effect.damage is None or (saved and situation.on_success == "none"):
        return Dist.always(SaveOutcome(result, 0))
    up, down = doublings(effect, failed_save=not saved), halvings(effect, saved=saved)
    return damage_roll(effect.damage).map(
        lambda raw: SaveOutcome(result, scaled_damage(raw, doublings=up, halvings=down, resistance=effect.resistance))
    )


@functools.lru_cache(maxsize=1024)
def automatic_damage(effect: SpellEffect) -> Dist[int]:
    """The damage of an effect that allows no save and makes no roll (``resolution`` automatic): the roll, doubled
    and halved per AC-AOE-9 (no save, so no save's halving), then resistance.

    >>> from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
    >>> automatic_damage(SpellEffect(damage=parse_dice("2d6"), partial_coverage=True)).probability(7)
    Fraction(1, 6)
    """
    assert effect.damage is not None, "an effect without damage is not rolled"
    up, down = doublings(effect, failed_save=False), halvings(effect, saved=False)
    return damage_roll(effect.damage).map(lambda raw: scaled_damage(raw, doublings=up, halvings=down, resistance=effect.resistance))


def spell_uses_left(used: tuple[tuple[str, int], ...], spell: str, uses: int | None) -> bool:
    """Whether a caster may cast *spell* again (AC-SPELL-1; ``uses`` None = at will)."""
    return uses is None or dict(used).get(spell, 0) < uses


def spend_spell(used: tuple[tuple[str, int], ...], spell: str) -> tuple[tuple[str, int], ...]:
    counts = dict(used)
    counts[spell] = counts.get(spell, 0) + 1
    return tuple(sorted(counts.items()))
