"""Whole battles as a state machine: the node of a state, applying a choice, and the automatic steps between
(§5.9–§5.27); the referee's other modules, one per section of the rulebook, do each part.

The state is frozen; ``node`` says what comes next and ``apply`` is pure. Every die is drawn from the
distribution of a ``rules`` procedure (``attack``, ``solo_attack``, ``save``, ``automatic_damage``, ``morale``,
``commander_check``, ``death_saves``) or a d20 function; consequences the rules fix without dice or choices are
resolved inside ``apply``. A decision with one legal option is taken at once.

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
- A hit with an attack that has ``push_ft`` pushes its target ``push_ft ÷ 5`` squares straight away from
  the attacker, once per hit, after the damage (AC-STAND-4, AC-MOVE-8).
- Only the scoring side attacks or casts at a destroy objective's square.
- Custom objectives are awarded when the scorer's opponent concedes them at the end of a round.
- A battle that reaches the scenario's ``max_rounds`` is judged on VP at the end of that round.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.dice import Dist, d
from kessen.rulesets.armies_clash.referee import (
    actions,
    commanders,
    damage,
    dying,
    end_of_round,
    ending,
    initiative,
    morale,
    movement,
    objectives,
    rounds,
    special_actions,
    spells,
)
from kessen.rulesets.armies_clash.referee.attack import attack_dist
from kessen.rulesets.armies_clash.referee.options import Award, Benefit, Done, Rally
from kessen.rulesets.armies_clash.referee.pieces import routed_piece
from kessen.rulesets.armies_clash.referee.state import (
    AcState,
    AttackRoll,
    AutoDamage,
    AwardCustom,
    ChooseOverflow,
    CommanderRoll,
    DeathRoll,
    EndStep,
    ForcedMove,
    InitRoll,
    MoraleRoll,
    MoreTargets,
    Pending,
    PlaceSolo,
    RallyRoll,
    RoutRoll,
    SaveRoll,
    ShiftGap,
    StealthRoll,
    TieBreak,
    other,
    set_turn,
)
from kessen.rulesets.armies_clash.rules.commanders import commander_check
from kessen.rulesets.armies_clash.rules.d20 import success_chance
from kessen.rulesets.armies_clash.rules.dying import death_saves
from kessen.rulesets.armies_clash.rules.ending import rout_chance
from kessen.rulesets.armies_clash.rules.morale import morale as morale_check
from kessen.rulesets.armies_clash.rules.spells import automatic_damage, save

_last: list[tuple[AcState, Node]] = []
"""The node of the state last asked about: ``apply`` settles a state by asking its node, and the driver then asks
for the same state's node again; a state is frozen, so the same object has the same node."""


def node(state: AcState) -> Node:
    """The next node: the first pending step, else the turn's next choice, else the end."""
    if _last and _last[0][0] is state:
        return _last[0][1]
    found = _node(state)
    _last[:] = [(state, found)]
    return found


def _node(state: AcState) -> Node:
    if state.ended:
        return Terminal(state.winner or None, ending.summary(state))
    if state.pending:
        return _pending_node(state, state.pending[0])
    turn = state.turn
    assert turn is not None, "a settled state always has a turn, a pending step or an end"
    side = rounds.turn_side(state, turn)
    if turn.stage == "rally":
        return Decision(side, "rally", (Rally(True), Rally(False)))
    if turn.stage == "bonus":
        return Decision(side, "commander", (Benefit("incite"), Benefit("prepare"), Benefit("none")))
    if turn.stage == "declare":
        return Decision(side, "action", actions.declare_options(state, turn))
    if turn.stage == "activate":
        return Decision(side, "activate", actions.activate_options(state, turn))
    assert turn.stage == "piece", turn.stage
    if turn.phase in ("move1", "move2"):
        mover_side = other(side) if routed_piece(state, turn.piece) else side  # AC-MORALE-4
        return Decision(mover_side, "move", movement.move_options(state, turn))
    if turn.phase == "jbonus":
        return Decision(side, "bonus action", commanders.bonus_options(state, turn))
    if turn.phase == "jmove":
        return Decision(side, "joined solo", special_actions.joined_options(state, turn.piece))
    if turn.phase in ("jdeclare", "sdeclare"):
        return Decision(side, "piece action", actions.piece_declare_options(state, turn))
    return Decision(side, "act", actions.act_options(state, turn))


def _pending_node(state: AcState, step: Pending) -> Node:
    if isinstance(step, InitRoll):
        return Chance(d(20), "initiative")
    if isinstance(step, TieBreak):
        return Chance(Dist.uniform(itertools.permutations(step.group)), "initiative tie")
    if isinstance(step, CommanderRoll):
        return Chance(commander_check(commanders.commander_question(state, step.unit)), "commander check")
    if isinstance(step, RallyRoll):
        return Chance(morale_check(morale.rally_question(state, step.unit)), "rally")
    if isinstance(step, AttackRoll):
        return Chance(attack_dist(step.question), "attack")
    if isinstance(step, SaveRoll):
        return Chance(save(step.question), "save")
    if isinstance(step, AutoDamage):
        return Chance(automatic_damage(step.effect), "damage")
    if isinstance(step, StealthRoll):
        return Chance(success_chance(bonus=step.bonus, target=step.dc), "stealth")
    if isinstance(step, DeathRoll):
        return Chance(death_saves(dying.death_question(state, step)), "death saves")
    if isinstance(step, MoraleRoll):
        return Chance(morale_check(morale.morale_question(state, step.unit)), "morale")
    if isinstance(step, RoutRoll):
        return Chance(Dist.bernoulli(rout_chance()), "rout")
    if isinstance(step, MoreTargets):
        return Decision(state.side_of(step.caster), "spell targets", spells.more_targets(state, step))
    if isinstance(step, ChooseOverflow):
        return Decision(step.side, "overflow", damage.overflow_options(state, step))
    if isinstance(step, PlaceSolo):
        solo = state.solo(step.solo)
        assert solo is not None
        return Decision(solo.side, "place solo", special_actions.place_options(state, step))
    if isinstance(step, ShiftGap):
        return Decision(step.side, "shift", end_of_round.shift_options(state, step))
    if isinstance(step, AwardCustom):
        scorer = state.static.objective(step.objective).side
        return Decision(other(scorer), "custom objective", (Award(False), Award(True)))
    raise AssertionError(f"automatic step left pending: {step!r}")


def apply(state: AcState, choice: Any) -> tuple[AcState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = []
    state = _apply_choice(state, choice, out)
    state = settle(state, out)
    return state, tuple(out)


def settle(state: AcState, out: list[Event]) -> AcState:
    """Run automatic steps and single-option decisions until a real chance, choice or the end."""
    while True:
        state = _advance(state, out)
        if state.ended:
            return state
        n = node(state)
        if isinstance(n, Decision) and len(n.options) == 1:
            state = _apply_choice(state, n.options[0], out)
            continue
        return state


def _apply_choice(state: AcState, choice: Any, out: list[Event]) -> AcState:
    if state.pending:
        step, rest = state.pending[0], state.pending[1:]
        return _resolve(replace(state, pending=rest), step, choice, out)
    turn = state.turn
    assert turn is not None
    if turn.stage == "rally":
        return morale.rally(state, turn, choice, out)
    if turn.stage == "bonus":
        return commanders.bonus(state, turn, choice, out)
    if turn.stage == "declare":
        return actions.declare(state, turn, choice, out)
    if turn.stage == "activate":
        return actions.activate(state, turn, choice, out)
    if turn.phase in ("move1", "move2"):
        return movement.move(state, turn, choice, out)
    if turn.phase == "jbonus":
        return commanders.solo_bonus(state, turn, choice, out)
    if turn.phase == "jmove":
        return special_actions.joined_move(state, turn, choice, out)
    if turn.phase in ("jdeclare", "sdeclare"):
        return actions.piece_declare(state, turn, choice, out)
    return actions.act(state, turn, choice, out)


def _resolve(state: AcState, step: Pending, choice: Any, out: list[Event]) -> AcState:
    """The outcome or choice of the pending *step* (already taken off the queue)."""
    if isinstance(step, InitRoll):
        return initiative.init_roll(state, step.who, choice, out)
    if isinstance(step, TieBreak):
        return initiative.tie_break(state, step.group, choice, out)
    if isinstance(step, CommanderRoll):
        return commanders.commander_result(state, step, choice, out)
    if isinstance(step, RallyRoll):
        return morale.rally_result(state, step, choice, out)
    if isinstance(step, AttackRoll):
        return damage.attack_result(state, step, choice, out)
    if isinstance(step, SaveRoll):
        return damage.save_result(state, step, choice, out)
    if isinstance(step, AutoDamage):
        return damage.auto_result(state, step, choice, out)
    if isinstance(step, StealthRoll):
        return special_actions.stealth_result(state, step, choice, out)
    if isinstance(step, MoreTargets):
        if isinstance(choice, Done):
            return spells.resolve_targets(state, step, out)
        return spells.cast_targeted(state, step.caster, step.spell, choice.target, out, step.chosen)
    if isinstance(step, ChooseOverflow):
        return damage.overflow(state, step, choice, out)
    if isinstance(step, PlaceSolo):
        return special_actions.place_solo(state, step, choice, out)
    if isinstance(step, ShiftGap):
        return end_of_round.shift(state, step, choice, out)
    if isinstance(step, DeathRoll):
        return dying.death_result(state, step.solo, choice, out)
    if isinstance(step, MoraleRoll):
        return morale.morale_result(state, step, choice, out)
    if isinstance(step, AwardCustom):
        return objectives.award_custom(state, step, choice, out)
    if isinstance(step, RoutRoll):
        return ending.rout_result(state, step, choice, out)
    raise AssertionError(step)


def _advance(state: AcState, out: list[Event]) -> AcState:
    """Run the automatic steps: end-of-round steps, pushes, the next turn, the start and end of turns, pieces that
    fell or whose action needs no choice."""
    while not state.ended:
        if state.pending:
            step = state.pending[0]
            if isinstance(step, EndStep):
                state = end_of_round.end_step(replace(state, pending=state.pending[1:]), step.name, out)
                continue
            if isinstance(step, ForcedMove):
                state = movement.forced_move(replace(state, pending=state.pending[1:]), step, out)
                continue
            return state
        turn = state.turn
        if turn is None:
            if state.round == 0:
                return state
            state = rounds.next_turn(state, out)
            continue
        if turn.stage == "start":
            state = rounds.start_turn(state, turn, out)
            continue
        if turn.stage == "activate" and not actions.activate_options(state, turn):
            state = set_turn(state, stage="end")
            continue
        if turn.stage == "end":
            state = rounds.end_turn(state, turn, out)
            continue
        if turn.stage == "piece":
            alive = state.stand(turn.piece) is not None or (
                (s := state.solo(turn.piece)) is not None and s.status == "up"
            )
            if not alive:
                state = rounds.piece_done(state)
                continue
            if turn.phase == "act" and turn.doing == "hide":
                state = special_actions.hide(state, turn)
                continue
            if turn.phase == "act" and turn.doing in ("dash", "retreat", "configure", "none", "join"):
                state = movement.after_action(state, turn)
                continue
        return state
    return state
