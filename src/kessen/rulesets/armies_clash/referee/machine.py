"""Whole battles on the core step machine (``kessen.core.steps``): each step of ``referee.steps`` with the node it
stands at and its resolution (§5.9–§5.27); the referee's other modules, one per section of the rulebook, do each
part.

The state is frozen; ``node`` says what comes next and ``apply`` is pure. Every die is drawn from the
distribution of a ``rules`` procedure (``attack``, ``solo_attack``, ``save``, ``automatic_damage``, ``morale``,
``commander_check``, ``death_saves``) or a d20 function; consequences the rules fix without dice or choices are
steps that settle themselves. When nothing is pending the next unit or solo takes its turn, or the end of the round
begins (``rounds.next_turn``). The battle ends only at the end of a round (AC-WIN-1), so no step interrupts it.

Decisions of this engine where the spec leaves room (each also in the docstring where it is made):

- A stand aims all the rolls of one Attack action at one target; the sum of those rolls is one damage
  instance for overflow (AC-DMG-2), however many rolls the routine has (the limits of the odds contract,
  AC-PROC-6, are for readable tables and do not bind the engine). Against a solo the rolls are judged
  hit by hit, in the routine's order (AC-DMG-5).
- Each target of an area or a multi-target spell rolls its own damage with its own save (the ``save``
  procedure per target); a line is always straight.
- In a unit taking Cast a Spell, a stand "cannot cast" when it has no spell with uses left; such a stand
  declares its own action when it is activated, before it moves: Attack (if the unit could), Dash, Hide
  (skirmishers), Retreat or none — Configure stays a whole-unit action (AC-SPELL-2). A stand that can
  cast casts or takes no action (AC-UNIT-2).
- Joined solos are activated like stands, in any order among them (AC-MOVE-2). A joined solo's bonus
  action comes at the start of its activation: the commander may Incite or Prepare there if it did not
  at the start of the unit's turn (Rally only then, AC-MORALE-6), or give up the post; a solo that may
  command and is joined to a stand of a unit without a commander may take the post (AC-CMD-1, AC-CMD-2).
  A solo that joins on its own count may take command on its next turn (its unit's).
- A joined solo that stays joined takes Attack, Cast a Spell or no action (Dash would move nothing, and
  Hide needs a footprint in cover, AC-HIDE-2, which a joined solo lacks, AC-JOIN-3). One that leaves its
  stand stands on the grid and may also Dash (its speed in squares after leaving) or Hide (AC-ACT-3).
- A hit with an attack that has ``push_ft`` pushes its target up to ``push_ft ÷ 5`` squares away from the
  attacker, once per hit, after the damage; the attacker's general picks where it ends, each step taking it
  farther from the attacker, straight away as far as it goes by default (AC-STAND-4, AC-MOVE-8).
- Only the scoring side attacks or casts at a destroy objective's square.
- Custom objectives are awarded when the scorer's opponent concedes them at the end of a round.
- A battle that reaches the scenario's ``max_rounds`` is judged on VP at the end of that round.
"""

from __future__ import annotations

import itertools
from functools import partial
from typing import Any

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.core.steps import StepMachine, StepRule
from kessen.dice import Dist, d
from kessen.rulesets.armies_clash.referee import (
    actions,
    commanders,
    damage,
    dying,
    end_of_round,
    ending,
    initiative,
    integrity,
    morale,
    movement,
    objectives,
    rounds,
    special_actions,
    spells,
)
from kessen.rulesets.armies_clash.referee.attack import attack_node
from kessen.rulesets.armies_clash.referee.options import Award, Benefit, Done, Rally
from kessen.rulesets.armies_clash.referee.pieces import routed_piece
from kessen.rulesets.armies_clash.referee.regiment_moves import regiment_activations, regiment_options
from kessen.rulesets.armies_clash.referee.state import AcState, Turn, other, push, then
from kessen.rulesets.armies_clash.referee.steps import (
    AttackRoll,
    AutoDamage,
    AwardCustom,
    ChooseActivation,
    ChooseBenefit,
    ChooseOverflow,
    ChooseRally,
    CommanderRoll,
    CustomObjectives,
    DeathRoll,
    DeclareAction,
    DefendObjectives,
    DyingSolos,
    EliminateCasualties,
    EliminateUnits,
    EndTurn,
    Finish,
    ForcedMove,
    InitRoll,
    Isolation,
    JoinedMove,
    Judge,
    MoraleChecks,
    MoraleRoll,
    MoreTargets,
    PieceAct,
    PieceDeclare,
    Pending,
    PieceMove,
    PlaceSolo,
    RallyRoll,
    RoutRoll,
    SaveRoll,
    ShiftGap,
    SoloBonus,
    StartTurn,
    StealthRoll,
    TieBreak,
    ask,
)
from kessen.rulesets.armies_clash.rules.commanders import commander_check, commander_faces
from kessen.rulesets.armies_clash.rules.d20 import success_chance
from kessen.rulesets.armies_clash.rules.dying import death_saves
from kessen.rulesets.armies_clash.rules.ending import rout_chance
from kessen.rulesets.armies_clash.rules.morale import morale as morale_check
from kessen.rulesets.armies_clash.rules.morale import morale_faces
from kessen.rulesets.armies_clash.rules.spells import automatic_damage, save, save_faces

AUTOMATIC = ("dash", "retreat", "configure", "none", "join")
"""Actions whose part a piece plays with no further choice once it has moved (it may move on afterwards)."""


def _turn(state: AcState) -> Turn:
    assert state.turn is not None, "a turn step with no turn in progress"
    return state.turn


def _side(state: AcState) -> str:
    return rounds.turn_side(state, _turn(state))


def _active(state: AcState) -> bool:
    """The active piece is still in the fight: a stand on the grid, or a conscious solo (else it is done)."""
    piece = _turn(state).piece
    solo = state.solo(piece)
    return state.stand(piece) is not None or (solo is not None and solo.status == "up")


# --- the turn ---------------------------------------------------------------------------------------------------


def _rally_node(state: AcState, step: ChooseRally) -> Decision:
    commander = state.unit(_turn(state).actor).commander or ""
    return ask(_side(state), "rally", (Rally(True), Rally(False)), actor=commander)


def _benefit_node(state: AcState, step: ChooseBenefit) -> Decision:
    commander = state.unit(_turn(state).actor).commander or ""
    return ask(_side(state), "benefit", (Benefit("incite"), Benefit("prepare"), Benefit("none")), actor=commander)


def _declare_node(state: AcState, step: DeclareAction) -> Decision:
    turn = _turn(state)
    return ask(_side(state), "action", actions.declare_options(state, turn), actor=turn.actor)


def _activation_node(state: AcState, step: ChooseActivation) -> Decision | None:
    turn = _turn(state)
    options = regiment_activations(state, actions.activate_options(state, turn))
    return ask(_side(state), "activate", options, actor=turn.actor) if options else None


def _move_node(state: AcState, step: PieceMove) -> Decision | None:
    """The ends of the move the rules allow, a regiment kept together (AC-REG-4); a routed stand's path is the enemy
    general's to pick (AC-MORALE-4)."""
    if not _active(state):
        return None
    turn = _turn(state)
    side = _side(state)
    options = regiment_options(state, turn)
    mover = other(side) if routed_piece(state, turn.piece) else side
    return ask(mover, "move", options, actor=turn.piece, free=len(options) > 1)


def _solo_bonus_node(state: AcState, step: SoloBonus) -> Decision | None:
    if not _active(state):
        return None
    turn = _turn(state)
    return ask(_side(state), "bonus", commanders.bonus_options(state, turn), actor=turn.piece)


def _joined_move_node(state: AcState, step: JoinedMove) -> Decision | None:
    if not _active(state):
        return None
    piece = _turn(state).piece
    return ask(_side(state), "joined_move", special_actions.joined_options(state, piece), actor=piece)


def _piece_declare_node(state: AcState, step: PieceDeclare) -> Decision | None:
    if not _active(state):
        return None
    turn = _turn(state)
    return ask(_side(state), "piece_action", actions.piece_declare_options(state, turn, step), actor=turn.piece)


def _act_node(state: AcState, step: PieceAct) -> Decision | None:
    """Hide and the actions that need no choice settle themselves (AC-HIDE-1..3)."""
    turn = _turn(state)
    if not _active(state) or turn.doing == "hide" or turn.doing in AUTOMATIC:
        return None
    return ask(_side(state), "act", actions.act_options(state, turn), actor=turn.piece)


def _act(state: AcState, step: PieceAct, choice: Any, out: list[Event]) -> AcState:
    turn = _turn(state)
    if choice is not None:
        return actions.act(state, turn, choice, out)
    if not _active(state):
        return rounds.piece_done(state)
    if turn.doing == "hide":
        return special_actions.hide(state, turn)
    return movement.after_action(state, turn)


def _or_done(resolve: Any) -> Any:
    """A piece step's resolution, or the piece is done when it fell before its step (its node was None)."""

    def resolved(state: AcState, step: Any, choice: Any, out: list[Event]) -> AcState:
        return rounds.piece_done(state) if choice is None else resolve(state, step, choice, out)

    return resolved


# --- choices the rules leave to a general ----------------------------------------------------------------------


def _more_targets_node(state: AcState, step: MoreTargets) -> Decision:
    return ask(state.side_of(step.caster), "spell_targets", spells.more_targets(state, step), actor=step.caster)


def _more_targets(state: AcState, step: MoreTargets, choice: Any, out: list[Event]) -> AcState:
    if isinstance(choice, Done):
        return spells.resolve_targets(state, step, out)
    return spells.cast_targeted(state, step.caster, step.spell, choice.target, out, step.chosen)


def _place_solo_node(state: AcState, step: PlaceSolo) -> Decision:
    solo = state.solo_named(step.solo)
    return ask(solo.side, "place_solo", special_actions.place_options(state, step), actor=solo.id)


def _push_node(state: AcState, step: ForcedMove) -> Decision | None:
    """The pusher's general picks where a push leaves its target, when there is more than one place (AC-MOVE-8)."""
    options = movement.push_options(state, step)
    return ask(state.side_of(step.by), "push", options, actor=step.by, free=True) if options else None


def _custom_node(state: AcState, step: AwardCustom) -> Decision:
    scorer = state.static.objective(step.objective).side
    return ask(other(scorer), "custom_objective", (Award(False), Award(True)), actor="")


def _chance(kind: str, dist: Any, faces: Any = None) -> Any:
    """The node of a roll: *dist* of the state and the step; with *faces*, ``faces(state, step)`` draws the dice
    behind the outcome drawn (:attr:`Chance.dice`)."""
    if faces is None:
        return lambda state, step: Chance(dist(state, step), kind)
    return lambda state, step: Chance(dist(state, step), kind, dice=faces(state, step))


def _automatic(resolve: Any) -> StepRule[AcState, Any]:
    """A step that settles itself: ``resolve(state, out)``."""
    return StepRule(lambda state, step, choice, out: resolve(state, out))


RULES: dict[type, StepRule[AcState, Any]] = {
    # the turn (§5.11, AC-MOVE-2)
    StartTurn: _automatic(lambda s, out: rounds.start_turn(s, _turn(s), out)),
    ChooseRally: StepRule(lambda s, step, c, out: morale.rally(s, _turn(s), c, out), _rally_node),
    ChooseBenefit: StepRule(lambda s, step, c, out: commanders.bonus(s, _turn(s), c, out), _benefit_node),
    DeclareAction: StepRule(lambda s, step, c, out: actions.declare(s, _turn(s), c, out), _declare_node),
    ChooseActivation: StepRule(lambda s, step, c, out: actions.activate(s, c, out), _activation_node),
    PieceMove: StepRule(movement.move, _move_node),
    SoloBonus: StepRule(_or_done(lambda s, step, c, out: commanders.solo_bonus(s, _turn(s), c, out)), _solo_bonus_node),
    JoinedMove: StepRule(_or_done(lambda s, step, c, out: special_actions.joined_move(s, c, out)), _joined_move_node),
    PieceDeclare: StepRule(_or_done(actions.piece_declare), _piece_declare_node),
    PieceAct: StepRule(_act, _act_node),
    EndTurn: _automatic(lambda s, out: rounds.end_turn(s, _turn(s), out)),
    # rolls
    InitRoll: StepRule(lambda s, step, c, out: initiative.init_roll(s, step.who, c, out), _chance("initiative", lambda s, step: d(20))),
    TieBreak: StepRule(
        lambda s, step, c, out: initiative.tie_break(s, step.group, c, out),
        _chance("initiative tie", lambda s, step: Dist.uniform(itertools.permutations(step.group))),
    ),
    CommanderRoll: StepRule(
        commanders.commander_result,
        _chance(
            "commander check", lambda s, step: commander_check(commanders.commander_question(s, step.unit)),
            lambda s, step: partial(commander_faces, commanders.commander_question(s, step.unit)),
        ),
    ),
    RallyRoll: StepRule(
        morale.rally_result,
        _chance(
            "rally", lambda s, step: morale_check(morale.rally_question(s, step.unit)),
            lambda s, step: partial(morale_faces, morale.rally_question(s, step.unit)),
        ),
    ),
    AttackRoll: StepRule(damage.attack_result, attack_node),
    SaveRoll: StepRule(damage.save_result, _chance("save", lambda s, step: save(step.question), lambda s, step: partial(save_faces, step.question))),
    AutoDamage: StepRule(damage.auto_result, _chance("damage", lambda s, step: automatic_damage(step.effect))),
    StealthRoll: StepRule(
        special_actions.stealth_result, _chance("stealth", lambda s, step: success_chance(bonus=step.bonus, target=step.dc))
    ),
    DeathRoll: StepRule(
        lambda s, step, c, out: dying.death_result(s, step.solo, c, out),
        _chance("death saves", lambda s, step: death_saves(dying.death_question(s, step))),
    ),
    MoraleRoll: StepRule(
        morale.morale_result,
        _chance(
            "morale", lambda s, step: morale_check(morale.morale_question(s, step.unit)),
            lambda s, step: partial(morale_faces, morale.morale_question(s, step.unit)),
        ),
    ),
    RoutRoll: StepRule(ending.rout_result, _chance("rout", lambda s, step: Dist.bernoulli(rout_chance()))),
    # choices the rules leave to a general
    MoreTargets: StepRule(_more_targets, _more_targets_node),
    ChooseOverflow: StepRule(
        damage.overflow, lambda s, step: ask(step.side, "overflow", damage.overflow_options(s, step), actor="")
    ),
    PlaceSolo: StepRule(special_actions.place_solo, _place_solo_node),
    ShiftGap: StepRule(
        end_of_round.shift, lambda s, step: ask(step.side, "shift", end_of_round.shift_options(s, step), actor=step.unit)
    ),
    AwardCustom: StepRule(objectives.award_custom, _custom_node),
    ForcedMove: StepRule(movement.forced_move, _push_node),
    # the end of the round (§5.24)
    EliminateCasualties: _automatic(end_of_round.eliminate_casualties),
    EliminateUnits: _automatic(end_of_round.eliminate_empty_units),
    DyingSolos: _automatic(lambda s, out: dying.death_steps(s)),
    Isolation: _automatic(integrity.isolation),
    MoraleChecks: _automatic(morale.morale_steps),
    DefendObjectives: _automatic(objectives.defend),
    CustomObjectives: _automatic(lambda s, out: push(s, *objectives.custom_steps(s))),
    Judge: _automatic(ending.judge),
    Finish: _automatic(ending.finish),
}


def _result(state: AcState) -> Terminal | None:
    return Terminal(state.winner or None, ending.summary(state)) if state.ended else None


def _with_pending(state: AcState, pending: tuple[Pending, ...]) -> AcState:
    return evolve(state, pending=pending)


MACHINE: StepMachine[AcState] = StepMachine(RULES, with_pending=_with_pending, result=_result, refill=rounds.next_turn)
"""The armies-clash battle on the core step machine."""

