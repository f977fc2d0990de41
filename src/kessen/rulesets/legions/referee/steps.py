"""The pending steps of a battle: what the state machine (``core.steps``) does next, one step at a time.

Some steps are settled by the rules with no dice and no player (a stage begins, an activation ends); every other
step is a chance (its distribution is one of the ruleset's own procedures) or a decision (its options list the
default policy's choice first). The first pending step is the one the game stands at; each module of ``referee``
plays the steps of its part of the rules, and ``referee.machine`` gives each step type its ``StepRule``.
"""

from __future__ import annotations

from typing import Literal

from kessen.core.engine import Asker, Decision, dice_field
from kessen.core.records import record
from kessen.rulesets.legions.profiles import Profile
from kessen.rulesets.legions.referee.phases import Stage
from kessen.rulesets.legions.rules.morale import MoraleTrigger

DecisionKind = Literal[
    "order", "mover", "move", "activation", "target", "hits", "allocation", "combat", "pairing", "fight", "withdrawer"
]
"""The kinds of decision a legions battle asks (the AIs and the catalogues' ``decisions`` table key on them)."""

KINDS_SINCE_V1: frozenset[str] = frozenset({"move", "allocation"})
"""The kinds of decision added after kessen-save/1 (issue 10: where a Detachment's models go, how a volley's hits
are allocated). Their first option is what the engine did before without asking,
so a v1 save (option indices) replays exactly when each of these takes its first option without using an index
(``test_li_v1_saves_replay_when_the_decisions_added_since_take_their_default``)."""


def new_since_v1(decision: Decision) -> bool:
    """A decision of a kind kessen-save/1 never recorded (:data:`KINDS_SINCE_V1`), for ``Ruleset.new_since_v1``."""
    return decision.kind in KINDS_SINCE_V1


ask: Asker[DecisionKind] = Asker()
"""A decision of one of the kinds."""


# --- the round: Orders, Initiative, Movement, End phase -------------------------------------------------


@record
class BeginRound:
    """A new round begins: its phases are queued."""


@record
class OrdersPhase:
    """The Orders phase: every Detachment that needs an Order is queued for one."""


@record
class IssueOrder:
    """Decision: the Order a Detachment's owner issues it."""

    detachment: str


@record
class RollInitiative:
    """Chance: which player has the Initiative this round."""


@record
class MovementPhase:
    """The Movement phase begins."""


@record
class MoveTurn:
    """A player's turn to move a Detachment, if either player still has one to move."""

    player: str


@record
class ChooseMover:
    """Decision: which Detachment the player moves next."""

    player: str


Origins = tuple[tuple[str, float, float], ...]
"""Where each live model of a Detachment stood when its move began: (model id, x, y)."""


@record
class MoveDetachment:
    """Decision: where the models of a Detachment go (LI-MOVE-1); *origins* are where they stood when its move
    began, *moved* the models already placed one at a time."""

    detachment: str
    origins: Origins
    moved: frozenset[str] = frozenset()


@record
class EndMovement:
    """The Movement phase ends: Engaged and Pinned are read from the bases."""


@record
class EndPhase:
    """The End phase: Orders are removed, then the next round or the end of the battle."""


# --- the Combat phase: stages and activation ---------------------------------------------------------------


@record
class CombatPhase:
    """The Combat phase begins: its three stages are queued."""


@record
class StageStart:
    """A stage begins."""

    stage: Stage


@record
class ActTurn:
    """A player's turn to activate a Detachment in a firing stage, if either player still has one to."""

    stage: Stage
    player: str


@record
class ChooseActivation:
    """Decision: which eligible Detachment the player activates next."""

    stage: Stage
    player: str


@record
class EndActivation:
    """An activation ends: its Order token goes."""

    detachment: str


@record
class StageEnd:
    """A stage ends."""

    stage: Stage


# --- firing ------------------------------------------------------------------------------------------------


@record
class Volley:
    """Some firing models of one weapon profile that see the target alike: one ``fire`` question (LI-FAST-1)."""

    attacker: str
    target: str
    weapon: str
    profile_index: int
    profile: Profile
    firing_models: int
    eligible: frozenset[str]
    rear: frozenset[str]
    penalty: int
    engaged_with_scales: tuple[int, ...]

    @property
    def key(self) -> tuple[str, int]:
        return (self.weapon, self.profile_index)


@record
class ChooseTarget:
    """Decision: the attack an activated Detachment declares, or holding fire."""

    detachment: str


@record
class ChooseAllocation:
    """Decision: the weapon profile whose hits the target's controller takes next, among those of *volleys*
    (LI-ALLOC-5)."""

    volleys: tuple[Volley, ...]


@record
class VolleyAllocation:
    """Decision: whether the target's controller lets a volley's hits go in the default order (rolled at once, with
    its ``fire`` outcome) or allocates them hit by hit once they are rolled (LI-ALLOC-1)."""

    volley: Volley


@record
class VolleyRoll:
    """Chance: one volley's ``fire`` outcome (its hits allocated in the default order, §5.1 R)."""

    volley: Volley


@record
class HitRoll:
    """Chance: a volley's hit rolls alone (LI-HIT), before its hits are allocated one at a time."""

    volley: Volley


@record
class AllocateHit:
    """Decision: the model the next hit of a volley goes to (LI-ALLOC-1..4), with the volley's tallies so far and
    what its report tells (the hit modifier, the arc, LI-ARC-1, and the natural hit dice when they were drawn)."""

    volley: Volley
    hits: int
    left: int
    modifier: int
    arc: str
    wounds: int = 0
    destroyed: int = 0
    shields_lost: int = 0
    hit_dice: tuple[int, ...] = dice_field()


@record
class SaveRoll:
    """Chance: the save, or the Void Shield, of one hit allocated to *model* (LI-SAVE, LI-VOID)."""

    allocation: AllocateHit
    model: str


@record
class RestRoll:
    """Chance: the hits left of a volley, allocated in the default order at once (§5.1 R)."""

    allocation: AllocateHit


@record
class AttackEnd:
    """An attack is completely resolved: the target's size and Wounds when it began."""

    attacker: str
    target: str
    models_at_start: int
    wounds_at_start: int


# --- the Engagement stage: combats ----------------------------------------------------------------------------


@record
class ChooseCombat:
    """Decision: which combat the player with Initiative resolves next."""

    combats: tuple[tuple[str, ...], ...]


@record
class RunCombat:
    """A combat begins."""

    detachments: tuple[str, ...]


@record
class ChoosePairing:
    """Decision: the fight of the next model of the combat that is in no fight yet (LI-PAIR-3, LI-PAIR-4).

    *contacts* is the combat's base-contact graph, *chosen* the fights already formed, *default* the pairing
    the first options lead to.
    """

    contacts: tuple[tuple[str, str], ...]
    chosen: tuple[tuple[str, str], ...] = ()
    default: tuple[tuple[str, str], ...] = ()


@record
class ChooseFight:
    """Decision: which fight is resolved next."""


@record
class FightRoll:
    """Chance: one fight's ``fight`` outcome."""

    a: str
    b: str


@record
class FightsDone:
    """Every fight of a combat is resolved: the combat result."""

    detachments: tuple[str, ...]


@record
class CombatDone:
    """A combat is over: Engaged is read from the bases again."""

    detachments: tuple[str, ...]


# --- Morale and Withdrawal ----------------------------------------------------------------------------------------


@record
class MoraleRoll:
    """Chance: a Detachment's ``morale_check`` outcome; after a lost combat, with the Detachments it was Engaged with."""

    detachment: str
    trigger: MoraleTrigger
    engaged_with: tuple[str, ...] = ()


@record
class WithdrawalRoll:
    """Chance: the dice a withdrawing Detachment adds to its Movement; it must leave the Engagement Zones of the
    Detachments it was Engaged with (LI-WD-8)."""

    detachment: str
    engaged_with: tuple[str, ...]


@record
class ChooseWithdrawer:
    """Decision: which model of the withdrawing Detachment makes its Withdrawal move next."""

    detachment: str
    roll: int
    foes: frozenset[str]
    moved: frozenset[str] = frozenset()


@record
class WithdrawalSaves:
    """Chance: a withdrawing model's ``withdrawal_save`` outcome, then where it ends."""

    model: str
    end: tuple[float, float]
    through: tuple[str, ...]
    foes: frozenset[str]


Step = (
    BeginRound | OrdersPhase | IssueOrder | RollInitiative | MovementPhase | MoveTurn | ChooseMover | MoveDetachment
    | EndMovement
    | CombatPhase | StageStart | ActTurn | ChooseActivation | ChooseTarget | ChooseAllocation | VolleyAllocation
    | VolleyRoll | HitRoll | AllocateHit | SaveRoll | RestRoll
    | AttackEnd | EndActivation | StageEnd | ChooseCombat | RunCombat | ChoosePairing | ChooseFight | FightRoll
    | FightsDone | CombatDone | MoraleRoll | WithdrawalRoll | ChooseWithdrawer | WithdrawalSaves
    | EndPhase
)
