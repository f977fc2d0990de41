"""The events of a song-of-blades skirmish (their texts are in kessen/i18n/song-of-blades.*.toml).

Every roll reports its dice: natural faces (``faces`` lists several dice as text, highest first, "6, 3, 1") and,
for a combat roll, both scores. Fields that hold a model id or a side name are named ``model``, ``attacker``,
``defender``, ``toward``, ``side`` or ``first``, so that narration never takes a name for a word to translate.
"""

from __future__ import annotations

from typing import ClassVar

from kessen.core.events import Event
from kessen.core.records import record


@record
class RollOff(Event):
    """The roll-off's last roll (ties are rolled again): *first* takes the first turn, *side* is the other."""

    type: ClassVar[str] = "roll_off"
    first: str
    first_die: int
    side: str
    side_die: int


@record
class TurnStarted(Event):
    """A side begins its turn of a round."""

    type: ClassVar[str] = "turn_started"
    round: int
    side: str


@record
class Activation(Event):
    """An activation roll: its dice against Quality, the actions and failures (SB-ACT-1, SB-ACT-2)."""

    type: ClassVar[str] = "activation"
    model: str
    dice: int
    quality: int
    faces: str
    actions: int
    failures: int
    turnover: bool


@record
class Turnover(Event):
    """Two failures or more: the turn passes (SB-ACT-2)."""

    type: ClassVar[str] = "turnover"
    side: str


@record
class Moved(Event):
    """A straight move, what it was for (charge, advance, retreat, line) and the model it was about (SB-MOVE-1)."""

    type: ClassVar[str] = "moved"
    model: str
    purpose: str
    toward: str
    x: float
    y: float


@record
class MovedTo(Event):
    """A straight move about no other model: into cover, onto high ground or anywhere the player chose (SB-MOVE-1);
    *ground* is ``cover`` or ``high_ground`` where it ends there, else empty."""

    type: ClassVar[str] = "moved_to"
    model: str
    x: float
    y: float
    ground: str


@record
class StandUp(Event):
    """A fallen model stands up (SB-DOWN-2)."""

    type: ClassVar[str] = "stood_up"
    model: str


@record
class BreakFree(Event):
    """A transfixed model breaks free (SB-DOWN-7)."""

    type: ClassVar[str] = "broke_free"
    model: str


@record
class AttackDeclared(Event):
    """A melee attack or power blow, maybe from ambush (SB-MELEE-1, SB-MOD-2, SB-MOD-3)."""

    type: ClassVar[str] = "attack"
    attacker: str
    defender: str
    power_blow: bool
    ambush: bool


@record
class CombatResult(Event):
    """A combat roll: both dice and scores, who won (``attacker_wins``, ``defender_wins``, ``tie``, or ``held``: a
    defensive roll that won, SB-MELEE-4) and the result for the loser."""

    type: ClassVar[str] = "combat_roll"
    kind: str
    attacker: str
    defender: str
    attacker_die: int
    attacker_score: int
    defender_die: int
    defender_score: int
    verdict: str
    result: str


@record
class Fell(Event):
    """A model falls (SB-MELEE-6, SB-RECOIL-5)."""

    type: ClassVar[str] = "fell"
    model: str


@record
class Recoiled(Event):
    """A model recoils: a step, a jump over a friend or a drop (SB-RECOIL-1)."""

    type: ClassVar[str] = "recoiled"
    model: str
    kind: str
    x: float
    y: float


@record
class FollowedUp(Event):
    """A winner follows up a recoiled loser (SB-FOLLOW-1)."""

    type: ClassVar[str] = "followed_up"
    model: str
    x: float
    y: float


@record
class Disengaged(Event):
    """A model left contact after its free hacks (SB-DIS-6)."""

    type: ClassVar[str] = "disengaged"
    model: str
    free_hacks: int


@record
class MoraleTested(Event):
    """A morale test: its dice against Quality, the failures and the result (SB-MOR-2)."""

    type: ClassVar[str] = "morale_test"
    model: str
    quality: int
    faces: str
    failures: int
    result: str


@record
class Fled(Event):
    """A model flees (SB-MOVE-4)."""

    type: ClassVar[str] = "fled"
    model: str
    x: float
    y: float


@record
class Removed(Event):
    """A model leaves the table, and how."""

    type: ClassVar[str] = "removed"
    model: str
    how: str


@record
class PointsLost(Event):
    """At the end: what one side lost, in models and in points of its starting points (SB-TURN-4)."""

    type: ClassVar[str] = "points_lost"
    side: str
    models: int
    points: int
    starting_points: int


@record
class GameEnded(Event):
    """The game is over (SB-TURN-4): ``result`` is ``won`` (by *side*) or ``drawn`` (both sides lost the same share
    of their points; *side* is empty)."""

    type: ClassVar[str] = "game_ended"
    side: str
    result: str
