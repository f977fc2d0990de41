"""The choices a player makes at a decision node (SB-TURN-3): activations, actions, hackers, follow-ups.

The recoil candidates a loser's player chooses among are ``battlefield.RecoilOption`` (SB-GEO-5).
"""

from __future__ import annotations

from dataclasses import dataclass

from kessen.core.geometry import Point
from kessen.core.records import picklable, record

@record
class Activate:
    """Activate a model with 1–3 dice (SB-ACT-1)."""

    model: str
    dice: int


@record
class EndTurn:
    """Stop activating; the turn passes (SB-TURN-1)."""


@record
class Attack:
    """A melee attack (1 action), or a power blow (2 actions) (SB-MELEE-1, SB-MOD-2)."""

    target: str
    power_blow: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    """One straight move (1 action) to a destination (SB-MOVE-1..3), and what it is for: ``charge``, ``advance``
    or ``retreat`` about the enemy ``toward`` names, ``line`` beside the friend it names, ``cover`` or
    ``high_ground`` (no model), or ``move`` (anywhere the player named).

    A native class of the compiled engine (``@record`` written out): every suggested move of every placement is
    one, made and read in the referee's hot loop (issue 25 §2)."""

    x: float
    y: float
    purpose: str
    toward: str

    @property
    def destination(self) -> Point:
        return Point(self.x, self.y)


@record
class StandUp:
    """Stand up (1 action) (SB-DOWN-2)."""


@record
class BreakFree:
    """A transfixed model breaks free (2 actions) (SB-DOWN-7)."""


@record
class EndActivation:
    """Spend no more actions this activation."""


@record
class Hacker:
    """The enemy that hacks next (SB-DIS-5) or the one that hacks a recoiling model (SB-RECOIL-3)."""

    model: str


@record
class FollowUp:
    """Whether the winner follows a recoiled loser (SB-FOLLOW-1)."""

    follow: bool


picklable(Move)  # pickled and copied through its init fields (issue 22 §1)
