"""The steps of a battle: what a state's ``pending`` queue holds, one frozen value per step (sections 6–8).

A turn is queued step by step (BH-TURN-1): the priority roll, each player's moves, the Shoot phase and each
player's shots, the Fight phase with its splits and fights; a fight queues its own steps as they become known
(declarations, the duel roll, Might, the roll-off, standing up, backing away, making way, strikes). Each step
type has its rule (its node and its resolution) in the phase module that plays it; referee/machine.py puts them
into the one :class:`~kessen.core.steps.StepMachine`. A step's decision is of one of the kinds of ``DecisionKind``
(``ask``).
"""

from __future__ import annotations

from typing import Literal

from kessen.core.engine import Asker
from kessen.core.records import record
from kessen.rulesets.battlehost.referee.backing_away import Retreat
from kessen.rulesets.battlehost.referee.pairing import OpenGroup
from kessen.rulesets.battlehost.rules.might import HeroDie
from kessen.rulesets.battlehost.rules.sides import Side

DecisionKind = Literal[
    "move", "shoot", "split", "fight", "two-handed", "might", "might on roll", "stand up", "back away", "make way", "striker", "strike",
]
"""The kinds of decision a battlehost player makes (each has its prompt in the catalogues' ``decisions`` table)."""


ask: Asker[DecisionKind] = Asker()
"""A decision of one of the kinds."""


# --- the turn (BH-TURN-1..3) ---------------------------------------------------------------------------------


@record
class PriorityStep:
    """The priority roll that begins a turn, or the first turn's priority the scenario gives (BH-TURN-2)."""


@record
class MoveStep:
    """*side* moves a model, or ends its moves (BH-MOVE-1)."""

    side: Side


@record
class ShootPhase:
    """The Shoot phase begins (BH-TURN-1)."""


@record
class ShootStep:
    """*side* shoots with a model, or ends its shooting (BH-SHOOT-1)."""

    side: Side


@record
class ShotRoll:
    """The shot being made is rolled (BH-SHOOT-5..9)."""


@record
class FightPhase:
    """The Fight phase begins: the engaged models are split into fights (BH-FIGHT-1)."""


@record
class SplitStep:
    """The priority player splits a group of touching models into fights (BH-FIGHT-1)."""

    group: OpenGroup


@record
class PickFight:
    """*side* picks the next fight, or the Fight phase ends when none is left (BH-FIGHT-2, BH-TURN-1)."""

    side: Side


# --- one fight (BH-FIGHT-3) ----------------------------------------------------------------------------------


@record
class Declare:
    """The next model with a two-handed weapon declares whether it uses it (BH-DUEL-2)."""


@record
class DuelRoll:
    """Both sides roll their duel dice (BH-DUEL-1..5)."""


@record
class DuelMight:
    """*side* may spend Might on its best duel die (BH-DUEL-6)."""

    side: Side


@record
class DuelDecided:
    """The higher score wins, then the higher Fight value, else a roll-off follows (BH-DUEL-7..9)."""


@record
class RollOff:
    """The roll-off of a tied duel (BH-DUEL-9)."""


@record
class StandUpOffer:
    """A prone *model* whose side won the duel may stand up (BH-BACK-5)."""

    model: str


@record
class BackAway:
    """The losing player chooses which loser backs away next, until none is left (BH-BACK-1, BH-BACK-8)."""


@record
class MakeWay:
    """A friend may make way for *loser*, as *retreat* says (BH-BACK-6)."""

    loser: str
    retreat: Retreat


@record
class ChooseStriker:
    """The winning player chooses which winner strikes next, until none is left (BH-STRIKE-7)."""


@record
class Aim:
    """The striker aims its next strike, until it has none left or no target it may strike (BH-STRIKE-7..9)."""


@record
class StrikeRoll:
    """The strikes just aimed are rolled (BH-STRIKE-2..6)."""


@record
class FightOver:
    """The fight's result is reported (BH-FIGHT-3)."""


# --- a Hero's own dice (BH-DICE-4) ---------------------------------------------------------------------------


@record
class HeroRoll:
    """One die of a Hero's own hit or To Wound roll is rolled (BH-DICE-4)."""

    die: HeroDie


@record
class HeroMight:
    """The Hero may spend Might on its failed die, *die* with its face rolled (BH-DICE-4)."""

    die: HeroDie


Step = (
    PriorityStep | MoveStep | ShootPhase | ShootStep | ShotRoll | FightPhase | SplitStep | PickFight
    | Declare | DuelRoll | DuelMight | DuelDecided | RollOff | StandUpOffer | BackAway | MakeWay
    | ChooseStriker | Aim | StrikeRoll | FightOver | HeroRoll | HeroMight
)
