"""The steps a skirmish still has to settle (``SobState.pending``), each a frozen value, and the kinds of decision a step
may ask (``DecisionKind``, ``ask``); ``referee.machine`` gives each type its node and its resolution.

The first pending step is the one the game stands at; when the queue runs empty the turn sequence
(``referee.turns.refill``) queues the next activation or action.
"""

from __future__ import annotations

from typing import Literal

from kessen.core.engine import Asker
from kessen.core.records import record
from kessen.rulesets.song_of_blades.referee.options import Move
from kessen.rulesets.song_of_blades.rules.disengaging import Disengage
from kessen.rulesets.song_of_blades.rules.melee import Melee

DecisionKind = Literal["activation", "move", "recoil", "recoil hacker", "hack order", "follow-up"]
"""The kinds of decision a player makes (SB-TURN-3); docs/scenarios/song-of-blades.md gives each one's notation.

[DECISION] A move is one of the activated model's actions (SB-ACTION-1), chosen beside its attacks, standing up
and ending the activation; that decision (the model's next action) has the kind ``move``, which kessen gives every
decision that offers a free move (issue 10), and is free while the model can move."""


ask: Asker[DecisionKind] = Asker()
"""A decision of one of the kinds."""


# --- the pending steps ---------------------------------------------------------------------------------


@record
class RollOff:
    """Who takes the first turn (SB-TURN-1)."""


@record
class ChooseActivation:
    """The active player activates a model not yet activated this turn, or ends the turn (SB-ACT-1, SB-TURN-1)."""


@record
class ChooseAction:
    """The activated model's player spends its next action, or ends its activation (SB-ACTION-1)."""

    model: str


@record
class ActivationRoll:
    """The activation roll of a model with its chosen dice (SB-ACT-1)."""

    model: str
    dice: int


@record
class CombatRoll:
    """A combat roll to draw; ``kind`` is attack, free_hack or recoil_hack."""

    attacker: str
    defender: str
    kind: str
    roll: Melee


@record
class ChooseRecoil:
    """The loser of a combat roll must recoil from the winner: its player chooses where (SB-GEO-5)."""

    loser: str
    winner: str


@record
class ChooseRecoilHacker:
    """The recoiled loser touches several new active enemies: its player picks the one hacker (SB-RECOIL-3)."""

    loser: str
    candidates: tuple[str, ...]


@record
class OfferFollowUp:
    """The winner may follow the recoiled loser up (SB-FOLLOW-1)."""

    winner: str
    loser: str


@record
class Disengaging:
    """A model leaving contact: hackers still to hack, then where it goes (SB-DIS-*, SB-MOVE-3, SB-MOVE-4)."""

    model: str
    hackers: tuple[str, ...]
    setup: Disengage
    positions: tuple[str, ...]  # hacker ids in the order of ``setup.enemies``
    then: Move | None  # the move it completes, or None when it flees
    flee_moves: int = 0


@record
class MoraleTest:
    """A model takes a morale test (SB-MOR-1)."""

    model: str


Pending = (
    RollOff | ChooseActivation | ActivationRoll | ChooseAction | CombatRoll | ChooseRecoil | ChooseRecoilHacker | OfferFollowUp
    | Disengaging | MoraleTest
)
