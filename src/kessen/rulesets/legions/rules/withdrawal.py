"""Withdrawal: the distance moved and the saves for moving through enemy Detachments (LI-WD-1, LI-WD-4, LI-WD-5)."""

from __future__ import annotations

from fractions import Fraction

from kessen.core.engine import dice_field
from kessen.core.records import record
from kessen.dice import Dist, d
from kessen.dice.faces import Draw, failures_until, uniform_face


def withdrawal_passes_automatically(*, scale: int, through_scale: int) -> bool:
    """A model at least 3 Scales bigger than the Detachment it moves through passes without rolling (LI-WD-5).

    >>> withdrawal_passes_automatically(scale=4, through_scale=1), withdrawal_passes_automatically(scale=4, through_scale=2)
    (True, False)
    """
    return scale >= through_scale + 3


def withdrawal_save_target(armour_save: int | None, special_save: int | None, cover_save: int | None) -> int:
    """The value a withdrawal save must reach (LI-WD-4, LI-WD-5).

    The best of the model's Save characteristics, with no AP or other modifier [DECISION LI-WD-5];
    a model with none still rolls and passes only on a natural 6.

    >>> withdrawal_save_target(4, None, 3), withdrawal_save_target(None, None, None)
    (3, 6)
    """
    saves = [s for s in (armour_save, special_save, cover_save) if s is not None]
    return min(saves) if saves else 6


@record
class WithdrawalSaveOutcome:
    """The outcome fields of ``withdrawal_save`` (§5.7); in a battle, *dice* are the save dice rolled, in order
    (:func:`withdrawal_save_faces`)."""

    wounds_lost: int
    destroyed: bool
    dice: tuple[int, ...] = dice_field()


@record
class WithdrawalSaveQuestion:
    """A withdrawing model's save rolls (§5.7): its Scale, Wounds left, the value each roll must reach
    (:func:`withdrawal_save_target`) and the Scales of the enemy Detachments it moves through, in order."""

    scale: int
    wounds_remaining: int
    save: int
    passed_through_scales: tuple[int, ...]


def withdrawal_save(question: WithdrawalSaveQuestion) -> Dist[WithdrawalSaveOutcome]:
    """One roll per enemy Detachment moved through, in order, until the model is destroyed (LI-WD-4, LI-WD-5)."""
    fail = 1 - Fraction(7 - question.save, 6)
    left = question.wounds_remaining
    lost: Dist[int] = Dist.always(0)
    for through in question.passed_through_scales:
        if withdrawal_passes_automatically(scale=question.scale, through_scale=through):
            continue
        lost = lost.bind(lambda n: Dist.always(n) if n == left else Dist.bernoulli(fail, success=n + 1, failure=n))
    return lost.map(lambda n: WithdrawalSaveOutcome(n, n == left))


def withdrawal_save_faces(question: WithdrawalSaveQuestion, outcome: WithdrawalSaveOutcome, draw: Draw) -> tuple[int, ...]:
    """The save dice behind *outcome*, one per Detachment moved through that does not pass automatically, in order,
    none after the roll that destroys the model: which rolls failed given the Wounds lost (the last one failed when
    it was destroyed), then each die among the faces that fail or pass; with :func:`withdrawal_save`'s result,
    exactly the odds of rolling them (LI-WD-4, LI-WD-5)."""
    rolls = sum(not withdrawal_passes_automatically(scale=question.scale, through_scale=t) for t in question.passed_through_scales)
    failing = range(1, question.save)
    passing = range(question.save, 7)
    failed = failures_until(
        draw, rolls=rolls, failures=outcome.wounds_lost, fail_faces=len(failing), sides=6, stopped=outcome.destroyed
    )
    return tuple(uniform_face(draw, failing if f else passing) for f in failed)


@record
class WithdrawalMoveOutcome:
    """The outcome field of ``withdrawal_move`` (§5.8)."""

    distance: int


def withdrawal_move(movement: int) -> Dist[WithdrawalMoveOutcome]:
    """D6 plus the model's Movement, in inches (LI-WD-1, §5.8)."""
    return (d(6) + movement).map(WithdrawalMoveOutcome)
