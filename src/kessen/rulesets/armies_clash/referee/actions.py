"""Battle actions: declaring the turn's action, activating stands and joined solos, and each piece's part of the
action (§5.13)."""

from __future__ import annotations

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.attack import attack_options, attack_with
from kessen.rulesets.armies_clash.referee.movement import after_action, solo_budget, stand_budget
from kessen.rulesets.armies_clash.referee.options import (
    Activate,
    ActivateSolo,
    AttackWith,
    Cast,
    CastArea,
    Declare,
    NoAction,
    Support,
)
from kessen.rulesets.armies_clash.referee.pieces import castable, enemy_footprints, stats
from kessen.rulesets.armies_clash.referee.special_actions import configure, hide, solo_join_destinations
from kessen.rulesets.armies_clash.referee.spells import cast_area, cast_options, cast_targeted
from kessen.rulesets.armies_clash.referee.state import AcState, Turn, set_turn, then
from kessen.rulesets.armies_clash.referee.steps import ChooseActivation, EndTurn, PieceDeclare, PieceMove, SoloBonus
from kessen.rulesets.armies_clash.rules.grid import adjacent, goal_distances
from kessen.rulesets.armies_clash.rules.movement import FormationName, speed_squares

ActOption = AttackWith | Support | Cast | CastArea | Declare | NoAction
"""What the active piece may do as its part of the action."""


def declare_options(state: AcState, turn: Turn) -> tuple[Declare, ...]:
    """The battle actions open to the unit or unattached solo (AC-ACT-1, AC-ACT-4, AC-ATTACK-5, AC-REG-2,
    AC-SKIRM-3): a routed unit may only Retreat."""
    if turn.solo:
        options = [Declare("attack")] if stats(state, turn.actor).attacks else []
        if castable(state, turn.actor):
            options.append(Declare("cast"))
        options += [Declare("dash"), Declare("hide")]
        if solo_join_destinations(state, turn.actor):
            options.append(Declare("join"))
        return tuple(options) + (Declare("none"),)
    unit = state.unit(turn.actor)
    if unit.routed:
        return (Declare("retreat"),)
    stands = state.unit_stands(unit.id)
    options = []
    if unit.formation != "defensive" and any(state.creature(s.creature).attacks for s in stands):
        options.append(Declare("attack"))
    if any(castable(state, s.id) for s in stands):
        options.append(Declare("cast"))
    options.append(Declare("dash"))
    if unit.type == "regiment":
        formations: tuple[FormationName, ...] = ("support", "march", "defensive")
        options += [Declare("configure", f) for f in formations if f != unit.formation]
    if unit.type == "skirmisher":
        options.append(Declare("hide"))
    options += [Declare("retreat"), Declare("none")]
    return tuple(options)


def activate_options(state: AcState, turn: Turn) -> tuple[Activate | ActivateSolo, ...]:
    """Who moves and acts next (AC-MOVE-2): any stand of the unit not yet activated (nearest the enemy first, the
    default), or any solo joined to one of its stands that has not had its turn this round (AC-INIT-4)."""
    side = state.unit(turn.actor).side
    enemies = goal_distances(state.grid.width, state.grid.height, enemy_footprints(state, side))
    stands = state.unit_stands(turn.actor)
    ready = [s for s in stands if s.id not in turn.done]
    ready.sort(key=lambda s: (enemies.to(s.footprint), s.id))
    ids = {s.id for s in stands}
    solos = [
        s.id for s in sorted(state.solos, key=lambda s: s.id)
        if s.joined_to in ids and s.status == "up" and not s.own_turn and s.id not in state.acted
    ]
    return tuple(Activate(s.id) for s in ready) + tuple(ActivateSolo(i) for i in solos)


def piece_declare_options(state: AcState, turn: Turn, step: PieceDeclare) -> tuple[Declare, ...]:
    """A piece's own action inside its unit's turn: a joined solo of a routed unit that left at the start of its
    turn acts as an unattached solo (AC-JOIN-6); a stand that cannot cast in a unit that casts picks any other
    action the unit could take, Configure excepted (AC-SPELL-2)."""
    if step.joined:
        return declare_options(state, Turn(turn.piece, True))
    stand = state.stand_named(turn.piece)
    unit = state.unit(stand.unit)
    options = []
    if unit.formation != "defensive" and state.creature(stand.creature).attacks:
        options.append(Declare("attack"))
    options.append(Declare("dash"))
    if unit.type == "skirmisher":
        options.append(Declare("hide"))
    return tuple(options) + (Declare("retreat"), Declare("none"))


def declare(state: AcState, turn: Turn, choice: Declare, out: list[Event]) -> AcState:
    """The unit or solo declares its action (AC-ACT-1); a solo then moves, a unit activates its pieces."""
    out.append(ev.ActionDeclared(who=turn.actor, action=choice.action))
    if turn.solo:
        solo = state.solo_named(turn.actor)
        budget = solo_budget(state, solo, choice.action)
        return then(set_turn(state, action=choice.action, piece=solo.id, budget=budget), PieceMove())
    if choice.action == "configure":
        assert choice.formation, "Configure names a formation"
        state = configure(state, turn.actor, choice.formation, out)
    return then(set_turn(state, action=choice.action), ChooseActivation())


def activate(state: AcState, choice: Activate | ActivateSolo | None, out: list[Event]) -> AcState:
    """The next stand (or joined solo) moves and acts; it finishes before the next one starts (AC-MOVE-2); with
    no one left to activate (None) the turn ends."""
    turn = state.turn
    assert turn is not None
    if choice is None:
        return then(state, EndTurn())
    if isinstance(choice, ActivateSolo):
        state = evolve(state, acted=state.acted | {choice.solo})
        state = set_turn(
            state, piece=choice.solo, unit_action=turn.action, action="free", piece_action="", budget=0, moved=True,
            road_used=False,
        )
        return then(state, SoloBonus())
    stand = state.stand_named(choice.stand)
    state = set_turn(state, done=turn.done | {stand.id}, piece=stand.id, moved=False, road_used=False, piece_action="")
    if turn.action == "cast" and not castable(state, stand.id):
        return then(set_turn(state, budget=0), PieceDeclare(joined=False))  # AC-SPELL-2
    assert state.turn is not None
    return then(set_turn(state, budget=stand_budget(state, state.turn, stand)), PieceMove())


def piece_declare(state: AcState, step: PieceDeclare, choice: Declare, out: list[Event]) -> AcState:
    """A piece's own action inside its unit's turn (AC-JOIN-6, AC-SPELL-2); then it moves."""
    turn = state.turn
    assert turn is not None
    out.append(ev.ActionDeclared(who=turn.piece, action=choice.action))
    if step.joined:
        solo = state.solo_named(turn.piece)
        budget = solo_budget(state, solo, choice.action)
        return then(set_turn(state, action=choice.action, budget=budget, moved=False, road_used=False), PieceMove())
    stand = state.stand_named(turn.piece)
    state = set_turn(state, piece_action=choice.action)
    assert state.turn is not None
    return then(set_turn(state, budget=stand_budget(state, state.turn, stand)), PieceMove())


def act_options(state: AcState, turn: Turn) -> tuple[ActOption, ...]:
    """What the active piece may do as its part of the turn's action (AC-UNIT-2, AC-ATTACK-*, AC-SPELL-2)."""
    piece = turn.piece
    options: list[ActOption] = []
    s = state.stand(piece)
    if s is not None:
        unit = state.unit(turn.actor)
        if turn.doing == "attack":
            options += attack_options(state, piece)
            if unit.formation == "support" and turn.action == "attack":
                options += [
                    Support(m.id) for m in state.unit_stands(unit.id)
                    if m.id not in turn.done and m.id != piece and adjacent(m.footprint, s.footprint)
                ]
        elif turn.doing == "cast":
            options += cast_options(state, piece)
    else:
        if turn.action in ("attack", "free"):
            options += attack_options(state, piece)
        if turn.action in ("cast", "free"):
            options += cast_options(state, piece)
        solo = state.solo(piece)
        if turn.action == "free" and not turn.solo and solo is not None and solo.joined_to is None:
            options += [Declare("dash"), Declare("hide")]  # a solo that left its stand (AC-ACT-3)
    return tuple(options) + (NoAction(),)


def act(state: AcState, turn: Turn, choice: ActOption, out: list[Event]) -> AcState:
    """The active piece attacks, supports, casts, or (a solo that left its stand) Dashes or Hides; then it may move
    again (AC-ACT-3, AC-ATTACK-6)."""
    piece = turn.piece
    if isinstance(choice, AttackWith):
        state = attack_with(state, piece, choice, supported=piece in turn.supported, out=out)
    elif isinstance(choice, Support):
        out.append(ev.Supported(piece=piece, helped=choice.stand))
        state = set_turn(state, supported=turn.supported | {choice.stand})
    elif isinstance(choice, Cast):
        state = cast_targeted(state, piece, choice.spell, choice.target, out)
    elif isinstance(choice, CastArea):
        state = cast_area(state, piece, choice, out)
    elif isinstance(choice, Declare):  # a solo that left its stand Dashes or Hides (AC-ACT-3)
        out.append(ev.ActionDeclared(who=piece, action=choice.action))
        state = set_turn(state, action=choice.action)
        assert state.turn is not None
        if choice.action == "hide":
            return hide(state, state.turn)
        solo = state.solo_named(piece)
        state = set_turn(state, budget=turn.budget + speed_squares(state.creature(solo.creature).speed_ft))
    now = state.turn
    assert now is not None
    if now.piece != piece:
        return state
    return after_action(state, now)
