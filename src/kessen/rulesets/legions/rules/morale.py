"""Morale checks (LI-MORALE, LI-RESULT-3..6, §5.6)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist, d
from kessen.dice.faces import Draw, kept_faces

MoraleResult = Literal["pass", "fail", "auto_pass", "auto_fail", "not_taken"]
MoraleTrigger = Literal["casualties", "combat"]
"""What calls for a Morale check: casualties from an attack (LI-MORALE-1) or a lost combat (LI-RESULT-3)."""
EarlierCheck = Literal["none", "passed", "failed"]


@record
class MoraleCheckQuestion:
    """A Morale check (§5.6): the Detachment's Morale (None is "-"), what calls for it, its Formation's Broken state,
    other modifiers to the die, its earlier check this phase and whether it began the phase falling back."""

    morale: int | None
    trigger: MoraleTrigger = "casualties"
    broken: bool = False
    roll_modifier: int = 0
    earlier_check_this_phase: EarlierCheck = "none"
    fall_back_at_phase_start: bool = False


@record
class MoraleShown:
    """A rolled Morale check as the table sees it: its D6 (two when the lower is kept), what is added to the kept
    die (−1 for a Broken Formation and the other modifiers) and the Morale it must reach (LI-MORALE-3, LI-MORALE-4)."""

    dice: tuple[int, ...]
    modifier: int
    morale: int


@record
class MoraleOutcome:
    """The outcome field of ``morale_check`` (§5.6); in a battle, *dice* are the check's D6 when it was rolled
    (:func:`morale_faces`)."""

    result: MoraleResult
    dice: MoraleShown | None = dice_field(None)


def check_without_dice(
    *, morale: int | None, trigger: MoraleTrigger, earlier_check_this_phase: EarlierCheck, fall_back_at_phase_start: bool
) -> MoraleResult | None:
    """The result when no dice are rolled, or ``None`` when the check must be rolled (§5.6 steps 1–3).

    1. A Detachment that began the phase falling back takes no casualties check (LI-MORALE-8).
    2. Morale "-" passes a casualties check and takes no combat check (LI-MORALE-6, LI-RESULT-4).
    3. One check per phase: after a pass, pass; after a fail, fail with no effect (LI-MORALE-7).

    >>> check_without_dice(morale=None, trigger="combat", earlier_check_this_phase="none", fall_back_at_phase_start=False)
    'not_taken'
    """
    if trigger == "casualties" and fall_back_at_phase_start:
        return "not_taken"
    if morale is None:
        return "auto_pass" if trigger == "casualties" else "not_taken"
    if earlier_check_this_phase == "passed":
        return "auto_pass"
    if earlier_check_this_phase == "failed":
        return "auto_fail"
    return None


def morale_die_count(*, trigger: MoraleTrigger, broken: bool) -> int:
    """A Broken Formation's Detachment checking for a lost combat rolls two D6 and keeps the lower (LI-MORALE-4, LI-RESULT-6)."""
    return 2 if trigger == "combat" and broken else 1


def morale_passes(die: int, *, morale: int, broken: bool, roll_modifier: int) -> bool:
    """The (kept) die, −1 for a Broken Formation, plus other modifiers, must reach Morale (LI-MORALE-3, LI-BREAK-5).

    No natural-roll results [DECISION LI-MORALE-3].

    >>> morale_passes(4, morale=3, broken=True, roll_modifier=0), morale_passes(3, morale=3, broken=True, roll_modifier=0)
    (True, False)
    """
    return die - (1 if broken else 0) + roll_modifier >= morale


@lru_cache(maxsize=8)
def _lowest(dice: int) -> Dist[int]:
    return d(6) if dice == 1 else d(6).repeat(dice, min)


def morale_check(value: MoraleCheckQuestion) -> Dist[MoraleOutcome]:
    """A Morale check (LI-MORALE-3..8, LI-RESULT-3..6, §5.6)."""
    settled = check_without_dice(
        morale=value.morale,
        trigger=value.trigger,
        earlier_check_this_phase=value.earlier_check_this_phase,
        fall_back_at_phase_start=value.fall_back_at_phase_start,
    )
    if settled is not None:
        return Dist.always(MoraleOutcome(settled))
    morale = value.morale
    assert morale is not None
    dice = morale_die_count(trigger=value.trigger, broken=value.broken)
    return _lowest(dice).map(
        lambda die: MoraleOutcome(
            "pass" if morale_passes(die, morale=morale, broken=value.broken, roll_modifier=value.roll_modifier) else "fail"
        )
    )


def morale_faces(value: MoraleCheckQuestion, outcome: MoraleOutcome, draw: Draw) -> MoraleShown | None:
    """The D6 behind a rolled check, every roll that gives its pass or fail equally likely; with
    :func:`morale_check`'s result, exactly the odds of rolling them; none for a check settled without dice
    (LI-MORALE-3, LI-MORALE-4, LI-RESULT-6)."""
    if outcome.result not in ("pass", "fail") or value.morale is None:
        return None
    morale = value.morale
    passed = outcome.result == "pass"
    faces = kept_faces(
        draw, dice=morale_die_count(trigger=value.trigger, broken=value.broken), sides=6, keep=min,
        kept=lambda die: morale_passes(die, morale=morale, broken=value.broken, roll_modifier=value.roll_modifier) == passed,
    )
    return MoraleShown(faces, value.roll_modifier - (1 if value.broken else 0), morale)
