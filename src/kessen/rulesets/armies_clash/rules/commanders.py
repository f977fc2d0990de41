"""Commanders: the DC 15 Charisma check of Prepare and Incite (§5.6, §6.7)."""

from __future__ import annotations

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw
from kessen.rulesets.armies_clash.rules.d20 import CheckShown, check_faces, roll_mode, success_chance

COMMAND_DC = 15
"""The DC of Prepare and Incite (AC-CMD-3)."""


@record
class CommanderCheckQuestion:
    """The commander's check (§6.7): the better of its Intimidation and Persuasion bonuses, and any advantage."""

    check_bonus: int
    advantage: bool = False
    disadvantage: bool = False


@record
class CommanderCheckOutcome:
    """Whether Prepare or Incite succeeded (§6.7); in a battle, *dice* are the check's d20s (:func:`commander_faces`)."""

    success: bool
    dice: CheckShown | None = dice_field(None)


def commander_check(situation: CommanderCheckQuestion) -> Dist[CommanderCheckOutcome]:
    """d20 + the better of Intimidation and Persuasion ≥ 15, no automatic 1 or 20 (AC-CMD-3, AC-D20-1..3).

    One source each of advantage and disadvantage cancel (AC-D20-2).
    """
    mode = roll_mode(advantage=situation.advantage, disadvantage=situation.disadvantage)
    return success_chance(bonus=situation.check_bonus, target=COMMAND_DC, mode=mode).map(CommanderCheckOutcome)


def commander_faces(situation: CommanderCheckQuestion, outcome: CommanderCheckOutcome, draw: Draw) -> CheckShown:
    """The d20s behind a commander's check: with :func:`commander_check`'s result, exactly the odds of rolling them
    (AC-CMD-3, AC-D20-1..3)."""
    mode = roll_mode(advantage=situation.advantage, disadvantage=situation.disadvantage)
    return check_faces(draw, bonus=situation.check_bonus, target=COMMAND_DC, mode=mode, success=outcome.success)
