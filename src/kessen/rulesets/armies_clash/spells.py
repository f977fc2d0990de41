"""Cast a Spell and areas of effect: saving throws, doubling by stands, partial coverage (§5.16, §5.17, §6.5)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from kessen.dice import Dist
from kessen.rulesets.armies_clash.d20 import RollMode, d20, roll_mode, succeeds
from kessen.rulesets.armies_clash.damage import Resistance, damage_roll, scaled_damage
from kessen.rulesets.armies_clash.dice_strings import DiceExpression
from kessen.rulesets.armies_clash.profiles import Ability

SaveResult = Literal["failure", "success", "unaffected"]


@dataclass(frozen=True, slots=True)
class SaveQuestion:
    """One target's saving throw against one spell or area effect (§6.5), as the rules read it.

    ``target_unconscious`` is a dying or stable PC solo, which fails Strength and Dexterity saves (AC-DMG-5, [FILL]
    5e unconscious); the odds contract has no such field, the engine sets it.
    """

    ability: Ability
    save_bonus: int
    dc: int
    target: Literal["stand", "solo", "objective"] = "stand"
    spell_form: Literal["area", "targeted"] = "area"
    caster: Literal["stand", "solo"] = "stand"
    damage: DiceExpression | None = None
    on_success: Literal["half", "none"] = "half"
    resistance: Resistance = "none"
    target_isolated: bool = False
    partial_coverage: bool = False
    skirmisher: bool = False
    prepared: bool = False
    extra_advantage: bool = False
    extra_disadvantage: bool = False
    target_unconscious: bool = False

    @property
    def fails_automatically(self) -> bool:
        """An objective square fails every save (AC-OBJ-4); an unconscious solo its Strength and Dexterity saves."""
        return self.target == "objective" or (self.target_unconscious and self.ability in ("str", "dex"))


@dataclass(frozen=True, slots=True)
class SaveOutcome:
    """One target's save against one effect, and the damage it takes (§6.5)."""

    result: SaveResult
    damage: int


UNAFFECTED = SaveOutcome("unaffected", 0)


def save_roll_mode(situation: SaveQuestion) -> RollMode:
    """How the save is rolled (step 4 of §6.5).

    Advantage: a skirmisher stand's Dexterity save (AC-SKIRM-1), Prepare (AC-CMD-3), others.
    Disadvantage: an isolated solo saving against a stand's targeted spell (AC-SPELL-5), others.
    """
    advantage = (situation.skirmisher and situation.ability == "dex") or situation.prepared or situation.extra_advantage
    disadvantage = situation.extra_disadvantage or (
        situation.target == "solo"
        and situation.target_isolated
        and situation.spell_form == "targeted"
        and situation.caster == "stand"
    )
    return roll_mode(advantage=advantage, disadvantage=disadvantage)


def doublings(situation: SaveQuestion, *, saved: bool) -> int:
    """How many times the damage doubles (AC-AOE-9): a stand's area spell (AC-AOE-8); an isolated solo
    failing its save against a stand's targeted spell (AC-SPELL-5)."""
    stand_area = situation.spell_form == "area" and situation.caster == "stand"
    isolated_solo = (
        not saved
        and situation.spell_form == "targeted"
        and situation.caster == "stand"
        and situation.target == "solo"
        and situation.target_isolated
    )
    return int(stand_area) + int(isolated_solo)


def halvings(situation: SaveQuestion, *, saved: bool) -> int:
    """How many times the damage halves (AC-AOE-9): a successful save on a "half" effect; a partly covered stand (AC-AOE-7)."""
    return int(saved) + int(situation.partial_coverage)


@functools.lru_cache(maxsize=4096)
def save(situation: SaveQuestion) -> Dist[SaveOutcome]:
    """One target's saving throw against one spell or area effect (§6.5).

    An objective square is never affected by a solo's targeted spell and fails every save (AC-OBJ-4);
    a partly covered stand ignores an effect that deals no damage (AC-AOE-7). A save succeeds when
    d20 + bonus ≥ DC, with no automatic 1 or 20 (AC-D20-3); an unconscious solo fails Strength and
    Dexterity saves (AC-DMG-5). Cached: the engine asks the same questions often.
    """
    if situation.target == "objective" and situation.spell_form == "targeted" and situation.caster == "solo":
        return Dist.always(UNAFFECTED)  # step 1
    if situation.partial_coverage and situation.damage is None:
        return Dist.always(UNAFFECTED)  # step 2
    if situation.fails_automatically:
        saved_dist = Dist.always(False)  # step 3
    else:
        saved_dist = d20(save_roll_mode(situation)).map(
            lambda natural: succeeds(natural, bonus=situation.save_bonus, target=situation.dc)
        )
    return saved_dist.bind(lambda saved: _damage(situation, saved=saved))


def _damage(situation: SaveQuestion, *, saved: bool) -> Dist[SaveOutcome]:
    """Step 5 of §6.5: the damage after a save succeeded or failed."""
    result: SaveResult = "success" if saved else "failure"
    if situation.damage is None or (saved and situation.on_success == "none"):
        return Dist.always(SaveOutcome(result, 0))
    up, down = doublings(situation, saved=saved), halvings(situation, saved=saved)
    return damage_roll(situation.damage).map(
        lambda raw: SaveOutcome(result, scaled_damage(raw, doublings=up, halvings=down, resistance=situation.resistance))
    )
