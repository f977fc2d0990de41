"""Morale: the end-of-round check after heavy losses, routing, and the commander's rally (§5.25, §6.6)."""

from __future__ import annotations

from typing import Literal

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.faces import Draw
from kessen.rulesets.armies_clash.rules.d20 import CheckShown, RollMode, check_faces, roll_mode, success_chance

MORALE_DC = 10
"""The DC of the morale check and of the rally save (AC-MORALE-2, AC-MORALE-6)."""


@record
class MoraleQuestion:
    """A unit's morale check (§6.6): in ``check`` mode its starting stands and losses, in ``rally`` mode its
    commander's Charisma modifier; the Wisdom modifiers of its stands and joined solos; any advantage."""

    wisdom_modifiers: tuple[int, ...]
    mode: Literal["check", "rally"] = "check"
    starting_stands: int | None = None
    stands_lost: int | None = None
    commander_cha_modifier: int | None = None
    advantage: bool = False
    disadvantage: bool = False


@record
class MoraleOutcome:
    """Whether the unit had to check, and whether it is routed afterwards (§6.6); in a battle, *dice* are the check's
    d20s (:func:`morale_faces`)."""

    checked: bool
    routed: bool
    dice: CheckShown | None = dice_field(None)


NO_CHECK = MoraleOutcome(checked=False, routed=False)


def must_check_morale(*, starting_stands: int, stands_lost: int) -> bool:
    """A unit that has lost half or more of its starting stands checks morale (AC-MORALE-1).

    >>> must_check_morale(starting_stands=6, stands_lost=3), must_check_morale(starting_stands=5, stands_lost=2)
    (True, False)
    """
    return 2 * stands_lost >= starting_stands


def morale_bonus(wisdom_modifiers: tuple[int, ...], *, commander_cha_modifier: int = 0) -> int:
    """The save's bonus: the highest Wisdom modifier among stands and joined solos (AC-MORALE-2), plus the
    commander's Charisma modifier when rallying (AC-MORALE-6).

    >>> morale_bonus((0, 1, -1)), morale_bonus((0,), commander_cha_modifier=3)
    (1, 3)
    """
    return max(wisdom_modifiers) + commander_cha_modifier


def morale(situation: MoraleQuestion) -> Dist[MoraleOutcome]:
    """A morale check (failure routs, AC-MORALE-3) or a rally (success un-routs, AC-MORALE-6) (§6.6).

    A rally is always a roll, so it reports ``checked`` true. [DECISION: the spec defines ``checked``
    only for check mode; a rally save is a check that was made.]
    """
    if situation.mode == "check":
        assert situation.starting_stands is not None and situation.stands_lost is not None
        if not must_check_morale(starting_stands=situation.starting_stands, stands_lost=situation.stands_lost):
            return Dist.always(NO_CHECK)
    bonus, mode = _roll(situation)
    return success_chance(bonus=bonus, target=MORALE_DC, mode=mode).map(
        lambda saved: MoraleOutcome(checked=True, routed=not saved)
    )


def _roll(situation: MoraleQuestion) -> tuple[int, RollMode]:
    bonus = morale_bonus(situation.wisdom_modifiers, commander_cha_modifier=situation.commander_cha_modifier or 0)
    return bonus, roll_mode(advantage=situation.advantage, disadvantage=situation.disadvantage)


def morale_faces(situation: MoraleQuestion, outcome: MoraleOutcome, draw: Draw) -> CheckShown | None:
    """The d20s behind a morale check or rally that was rolled (a failed check routs, a rally that succeeds
    un-routs): with :func:`morale`'s result, exactly the odds of rolling them (AC-MORALE-2, AC-MORALE-6)."""
    if not outcome.checked:
        return None
    bonus, mode = _roll(situation)
    return check_faces(draw, bonus=bonus, target=MORALE_DC, mode=mode, success=not outcome.routed)
