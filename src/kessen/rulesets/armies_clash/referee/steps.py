"""The steps a battle still has to settle (``AcState.pending``), each a frozen value, and the kinds of decision a step
may ask (``DecisionKind``, ``ask``); ``referee.machine`` gives each type its node and its resolution.

Four families: the **turn** in progress, one step per stage of a unit's or solo's turn (AC-MOVE-2: its start, the
commander's Rally or benefit, the declared action, each activation, a piece's moves, bonus action and action, its
end); the **rolls** a choice or a rule queued (initiative, attacks, saves, checks); the **choices** the rules leave
to a general (overflow, a push, the next target of a spell, a solo put back on the grid, a gap to close, a custom
objective); and the **end of the round**, one step per part of §5.24 in order. During a turn the stage step is
always the last one queued (``state.then``); what a choice queues runs first (``state.push``).
"""

from __future__ import annotations

from typing import Literal, get_args

from kessen.core.engine import Asker
from kessen.core.records import record
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion, SoloAttackQuestion, TargetKind
from kessen.rulesets.armies_clash.rules.grid import Square
from kessen.rulesets.armies_clash.rules.spells import SaveQuestion, SpellEffect

DecisionKind = Literal[
    "rally", "benefit", "action", "activate", "move", "bonus", "joined_move", "piece_action", "act", "spell_targets",
    "overflow", "place_solo", "shift", "push", "custom_objective",
]
"""The kinds of decision an armies-clash battle asks (``Decision.kind``; the catalogues' ``decisions`` table names
each, docs/scenarios/armies-clash.md gives each one's notation)."""

DECISION_KINDS: tuple[DecisionKind, ...] = get_args(DecisionKind)


ask: Asker[DecisionKind] = Asker()
"""A decision of one of the kinds."""


# --- the turn (§5.11, AC-MOVE-2) ------------------------------------------------------------------------------


@record
class StartTurn:
    """The turn of ``state.turn``'s unit or solo begins (surprise, Incite, who decides first)."""


@record
class ChooseRally:
    """A routed unit's commander may spend its bonus action to Rally (AC-MORALE-6)."""


@record
class ChooseBenefit:
    """The commander may Incite or Prepare at the start of its unit's turn (AC-CMD-3)."""


@record
class DeclareAction:
    """The unit or unattached solo declares its battle action (AC-ACT-1)."""


@record
class ChooseActivation:
    """The next stand or joined solo of the unit to move and act, or the end of the turn (AC-MOVE-2)."""


@record
class PieceMove:
    """The active piece's move: before its action, or (``second``) after it (AC-REG-5, AC-SKIRM-5, AC-SOLO-6)."""

    second: bool = False


@record
class SoloBonus:
    """A joined solo's bonus action at the start of its activation (AC-CMD-1..3, AC-D20-9)."""


@record
class JoinedMove:
    """A joined solo stays, switches to another stand of its unit or leaves its stand (AC-JOIN-4)."""


@record
class PieceDeclare:
    """A piece's own action inside its unit's turn: a joined solo that left a routed unit (``joined``, AC-JOIN-6), or
    a stand that cannot cast in a unit that casts (AC-SPELL-2)."""

    joined: bool


@record
class PieceAct:
    """The active piece's part of the action: its attack, support, spell, or the action that needs no choice."""


@record
class EndTurn:
    """The turn ends: isolation is recomputed (AC-INTEG-6), Incite and Prepare run out (AC-CMD-3)."""


# --- rolls ------------------------------------------------------------------------------------------------------


@record
class InitRoll:
    who: str


@record
class TieBreak:
    group: tuple[str, ...]


@record
class CommanderRoll:
    unit: str
    benefit: str


@record
class RallyRoll:
    unit: str


@record
class AttackRoll:
    attacker: str
    side: str
    target: str
    kind: TargetKind
    using: str
    question: AttackQuestion | SoloAttackQuestion


@record
class SaveRoll:
    caster: str
    side: str
    spell: str
    target: str
    kind: TargetKind
    question: SaveQuestion


@record
class AutoDamage:
    caster: str
    side: str
    spell: str
    target: str
    kind: TargetKind
    effect: SpellEffect


@record
class StealthRoll:
    piece: str
    bonus: int
    dc: int


@record
class DeathRoll:
    solo: str


@record
class MoraleRoll:
    unit: str


@record
class RoutRoll:
    unit: str


# --- choices the rules leave to a general --------------------------------------------------------------------------


@record
class MoreTargets:
    caster: str
    spell: str
    chosen: tuple[str, ...]


@record
class ChooseOverflow:
    source: str
    damage: int
    chain: tuple[str, ...]
    side: str


@record
class PlaceSolo:
    solo: str
    unit: str
    vacated: tuple[Square, ...]
    anchor: Square


@record
class ShiftGap:
    side: str
    unit: str
    vacated: tuple[Square, ...]


@record
class AwardCustom:
    objective: str


@record
class ForcedMove:
    """A push to resolve after an attack's damage, up to *squares* away from *by*, its end picked by *by*'s general
    (AC-MOVE-8)."""

    piece: str
    by: str
    squares: int


# --- the end of the round (§5.24), in order ---------------------------------------------------------------------


@record
class EliminateCasualties:
    """AC-END-1, AC-END-2: casualties leave; their solos come back; gaps may close."""


@record
class EliminateUnits:
    """AC-END-3: units with no stands left are eliminated."""


@record
class DyingSolos:
    """AC-END-4: dying solos roll their death saves."""


@record
class Isolation:
    """AC-END-5: isolation is recomputed."""


@record
class MoraleChecks:
    """AC-END-6: units that lost half their stands check morale."""


@record
class DefendObjectives:
    """AC-END-7: defend objectives score."""


@record
class CustomObjectives:
    """AC-OBJ-6: custom objectives not yet scored are put to the scorer's opponent."""


@record
class Judge:
    """AC-END-8: the battle ends, or the next round begins."""


@record
class Finish:
    """The battle is over (after a decisive victory's rout rolls, AC-WIN-2)."""


END_OF_ROUND = (
    EliminateCasualties(), EliminateUnits(), DyingSolos(), Isolation(), MoraleChecks(), DefendObjectives(),
    CustomObjectives(), Judge(),
)
"""The automatic steps of the end of the round, in order (AC-END-1..8)."""

Pending = (
    StartTurn | ChooseRally | ChooseBenefit | DeclareAction | ChooseActivation | PieceMove | SoloBonus | JoinedMove
    | PieceDeclare | PieceAct | EndTurn
    | InitRoll | TieBreak | CommanderRoll | RallyRoll | AttackRoll | SaveRoll | AutoDamage | StealthRoll | DeathRoll
    | MoraleRoll | RoutRoll
    | MoreTargets | ChooseOverflow | PlaceSolo | ShiftGap | AwardCustom | ForcedMove
    | EliminateCasualties | EliminateUnits | DyingSolos | Isolation | MoraleChecks | DefendObjectives | CustomObjectives
    | Judge | Finish
)
"""A step queued in ``AcState.pending``: a stage of the turn, a roll, a general's choice or a part of the end of
the round."""
