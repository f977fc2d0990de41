"""Commanders: the DC 15 Charisma check of Prepare and Incite (§5.6, §6.7)."""

from __future__ import annotations

from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.armies_clash.rules.d20 import roll_mode, success_chance

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
    """Whether Prepare or Incite succeeded (§6.7)."""

    success: bool


def commander_check(situation: CommanderCheckQuestion) -> Dist[CommanderCheckOutcome]:
    """d20 + the better of Intimidation and Persuasion ≥ 15, no automatic 1 or 20 (AC-CMD-3, AC-D20-1..3).

    One source each of advantage and disadvantage cancel (AC-D20-2).
    """
    mode = roll_mode(advantage=situation.advantage, disadvantage=situation.disadvantage)
    return success_chance(bonus=situation.check_bonus, target=COMMAND_DC, mode=mode).map(CommanderCheckOutcome)
