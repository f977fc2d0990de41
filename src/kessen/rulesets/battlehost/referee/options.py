"""The options a player chooses among at each decision of a battle, one frozen value each (sections 6–8)."""

from __future__ import annotations

from kessen.core.records import record
from kessen.rulesets.battlehost.referee.pairing import Fight, Split

@record
class MoveTo:
    """A straight move (BH-MOVE-2), a charge into base contact with *charge* (BH-MOVE-5), after standing up if *stand_up*."""

    model: str
    x: float
    y: float
    charge: str | None = None
    stand_up: bool = False


@record
class StandUp:
    """A prone model stands up without moving (BH-MOVE-7), or after its side won a duel (BH-BACK-5) if *stand*."""

    model: str
    stand: bool = True


@record
class EndMoves:
    """The player moves no more models this phase (BH-MOVE-1)."""


@record
class ShootAt:
    """A model shoots at a target (BH-SHOOT-1..4)."""

    model: str
    target: str


@record
class EndShooting:
    """The player shoots with no more models this phase (BH-SHOOT-1)."""


@record
class ChooseSplit:
    """The priority player's choice of a whole allowed split of a group into fights, or of the fight its first model is
    in when the group has more than MAX_SPLITS splits (BH-FIGHT-1)."""

    fights: Split


@record
class ChooseFight:
    """The next fight to resolve (BH-FIGHT-2)."""

    fight: Fight


@record
class UseTwoHanded:
    """Whether a model uses its two-handed weapon in this fight (BH-DUEL-2)."""

    model: str
    use: bool


@record
class SpendMight:
    """Might points spent on the side's best duel die (BH-DUEL-6, BH-DICE-4)."""

    points: int


@record
class MightOnRoll:
    """Might points a Hero spends on its own failed hit or To Wound die (BH-DICE-4)."""

    model: str
    points: int


@record
class NextLoser:
    """The loser that backs away next (BH-BACK-8)."""

    model: str


@record
class MakeWayChoice:
    """Whether the blocking friend makes way (BH-BACK-6)."""

    make_way: bool


@record
class NextStriker:
    """The winner that strikes next (BH-STRIKE-7)."""

    model: str


@record
class StrikeAt:
    """The target of the next strike (BH-STRIKE-7, BH-STRIKE-8)."""

    target: str


MoveOption = MoveTo | StandUp | EndMoves
ShootOption = ShootAt | EndShooting
