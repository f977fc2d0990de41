"""The steps a race still has to settle (``ToyState.pending``) and the kinds of decision they ask."""

from __future__ import annotations

from typing import Literal

from kessen.core.engine import Asker
from kessen.core.records import record

DecisionKind = Literal["dash", "confirm"]
"""The kinds of decision a racer's side makes."""


ask: Asker[DecisionKind] = Asker()
"""A decision of one of the kinds."""


@record
class ChooseDash:
    """Side *side* (0 or 1) declares its dash (TOY-1)."""

    side: int


@record
class ConfirmStep:
    """Side *side* confirms its racer's place (TOY-2)."""

    side: int


@record
class RollDash:
    """The d6 of side *side*'s dash of *squares* squares (TOY-1)."""

    side: int
    squares: int
