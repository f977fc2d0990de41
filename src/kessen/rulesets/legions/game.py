"""Whole battles as a state machine: rounds, Orders, Initiative, Movement, the Combat phase and its three stages.

The state holds a stack of pending steps. ``node`` looks at the first step: a chance step carries the
exact distribution of one of the ruleset's own procedures (``fire``, ``fight``, ``morale_check``,
``withdrawal_move``, ``withdrawal_save``); a decision step lists the legal options with the default
policy's choice first. Steps the rules resolve without dice or players run inside ``apply`` (in
``_settle``), and so do a decision with one option and a chance with one outcome.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.core.geometry import Point
from kessen.dice import Dist
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.allocation import morale_threshold_reached
from kessen.rulesets.legions.battlefield import (
    EDGE_FACING,
    ENGAGEMENT_ZONE_INCHES,
    combats,
    distance,
    engaged_with,
    enemy_contacts,
    has_enemy_contact,
    moved_through,
    nearest_free_point,
    overlaps,
    room_to_edge,
    withdrawal_path,
)
from kessen.rulesets.legions.broken import break_point_of, is_broken, losses, starting_size
from kessen.rulesets.legions.close_combat import combat_winner, fight_dice
from kessen.rulesets.legions.inputs import FightInput, FightSide, FormationEntry, MoraleCheckInput, WithdrawalMoveInput, WithdrawalSaveInput
from kessen.rulesets.legions.movement import may_move, move_detachment, needs_order, order_options, refresh_engagement
from kessen.rulesets.legions.pairing import pairings
from kessen.rulesets.legions.procedures import PROCEDURES
from kessen.rulesets.legions.profiles import SCALE
from kessen.rulesets.legions.targeting import engaged_penalty
from kessen.rulesets.legions.scenario import Scenario, model_ids
from kessen.rulesets.legions.shooting import Fire, HoldFire, Volley, apply_volley, fire_options, volley_dist, volley_input, volleys
from kessen.rulesets.legions.state import CombatProgress, Detachment, Formation, LiState, Model, Profile, Stage, Weapon
from kessen.rulesets.legions.withdrawal import withdrawal_passes_automatically

# --- pending steps ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BeginRound:
    pass


@dataclass(frozen=True, slots=True)
class OrdersPhase:
    pass


@dataclass(frozen=True, slots=True)
class IssueOrder:
    detachment: str


@dataclass(frozen=True, slots=True)
class RollInitiative:
    pass


@dataclass(frozen=True, slots=True)
class MovementPhase:
    pass


@dataclass(frozen=True, slots=True)
class MoveTurn:
    player: str


@dataclass(frozen=True, slots=True)
class ChooseMover:
    player: str


@dataclass(frozen=True, slots=True)
class EndMovement:
    pass


@dataclass(frozen=True, slots=True)
class CombatPhase:
    pass


@dataclass(frozen=True, slots=True)
class StageStart:
    stage: Stage


@dataclass(frozen=True, slots=True)
class ActTurn:
    stage: Stage
    player: str


@dataclass(frozen=True, slots=True)
class ChooseActivation:
    stage: Stage
    player: str


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    detachment: str


@dataclass(frozen=True, slots=True)
class ChooseAllocation:
    volleys: tuple[Volley, ...]


@dataclass(frozen=True, slots=True)
class VolleyRoll:
    volley: Volley


@dataclass(frozen=True, slots=True)
class AttackEnd:
    attacker: str
    target: str
    models_at_start: int
    wounds_at_start: int


@dataclass(frozen=True, slots=True)
class EndActivation:
    detachment: str


@dataclass(frozen=True, slots=True)
class StageEnd:
    stage: Stage


@dataclass(frozen=True, slots=True)
class ChooseCombat:
    combats: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class RunCombat:
    detachments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChoosePairing:
    options: tuple[tuple[tuple[str, str], ...], ...]


@dataclass(frozen=True, slots=True)
class ChooseFight:
    pass


@dataclass(frozen=True, slots=True)
class FightRoll:
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class FightsDone:
    detachments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CombatDone:
    detachments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MoraleRoll:
    detachment: str
    trigger: str


@dataclass(frozen=True, slots=True)
class WithdrawalRoll:
    detachment: str


@dataclass(frozen=True, slots=True)
class ChooseWithdrawer:
    detachment: str
    roll: int
    foes: frozenset[str]
    moved: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class WithdrawalSaves:
    model: str
    end: tuple[float, float]
    through: tuple[str, ...]
    foes: frozenset[str]


@dataclass(frozen=True, slots=True)
class EndPhase:
    pass


CONTROL = (
    BeginRound, OrdersPhase, MovementPhase, MoveTurn, EndMovement, CombatPhase, StageStart, ActTurn,
    AttackEnd, EndActivation, StageEnd, RunCombat, FightsDone, CombatDone, EndPhase,
)

# --- the initial state ---------------------------------------------------------------------------------


def initial_state(scenario: Scenario) -> LiState:
    """The battlefield as the scenario sets it (§3)."""
    players = (scenario.players[0].name, scenario.players[1].name)
    edges = (scenario.players[0].edge, scenario.players[1].edge)
    formations: list[Formation] = []
    detachments: list[Detachment] = []
    for f in scenario.formations:
        entries: list[FormationEntry] = []
        edge = edges[players.index(f.player)]
        for d in f.detachments:
            ids = iter(model_ids(d.id, d.models))
            models: list[Model] = []
            for entry in d.models:
                p = scenario.profiles[entry.profile]
                weapons = tuple(
                    Weapon(w.name, tuple(Profile(x.range, x.dice, x.to_hit, x.ap, "light_at" in x.traits) for x in w.profiles))
                    for w in p.weapons
                )
                for k in range(entry.count):
                    wounds_left = p.wounds if entry.wounds_remaining is None else entry.wounds_remaining
                    models.append(Model(
                        id=next(ids), type=p.type, scale=p.scale or _scale(p.type), movement=p.movement,
                        armour_save=p.armour_save, special_save=p.special_save, cover_save=entry.cover_save,
                        wounds=p.wounds, wounds_remaining=wounds_left, caf=p.caf, morale=p.morale,
                        void_shields=(p.void_shields if entry.void_shields is None else entry.void_shields) if wounds_left else 0,
                        void_shields_max=p.void_shields,
                        x=float(entry.x + k * entry.dx), y=float(entry.y + k * entry.dy), base_radius=float(p.base_radius),
                        facing=float(EDGE_FACING[edge] if entry.facing is None else entry.facing),
                        obscured=entry.obscured, weapons=weapons,
                    ))
                    entries.append(FormationEntry(type=p.type, wounds=p.wounds, count=1))
            detachments.append(Detachment(
                id=d.id, owner=f.player, formation=f.id, models=tuple(models), order=d.order, engaged=d.engaged,
                pinned=d.pinned, in_reserve=d.in_reserve, charged_and_moved=d.charged_and_moved,
                withdrew_this_round=d.withdrew_this_round,
            ))
        formations.append(Formation(f.id, f.player, starting_size(tuple(entries)), f.broken))
    if scenario.start == "combat":
        pending: tuple[object, ...] = (CombatPhase(), EndPhase())
        if scenario.initiative is None:
            pending = (RollInitiative(),) + pending
        phase = "combat"
    else:
        pending, phase = (BeginRound(),), "orders"
    return LiState(
        name=scenario.name, width=scenario.battlefield.width, height=scenario.battlefield.height, players=players,
        edges=edges, rounds=scenario.rounds, formations=tuple(formations), detachments=tuple(detachments),
        no_sight=frozenset(frozenset(p) for p in scenario.no_line_of_sight), phase=phase,
        initiative=scenario.initiative, pending=pending,
    )


def _scale(model_type: str) -> int:
    return SCALE[model_type]


def opened(state: LiState) -> LiState:
    """The initial state run up to its first chance or decision; the events on the way wait in ``opening``."""
    out: list[Event] = []
    state = _settle(state, out)
    return replace(state, opening=tuple(out))


# --- where the battle stands -----------------------------------------------------------------------------


def node(state: LiState) -> Node:
    """The next node: the first pending step's chance or decision, or the end of the battle."""
    if state.ended or not state.pending:
        return Terminal(winner(state), summary(state))
    found = _node_of(state, state.pending[0])
    assert found is not None, state.pending[0]
    return found


def _node_of(state: LiState, step: object) -> Chance | Decision | None:
    """The node of a chance or decision step; None when the step has nothing left to decide or roll."""
    if isinstance(step, IssueOrder):
        det = state.detachment(step.detachment)
        return Decision(det.owner, "order", order_options(state, det))
    if isinstance(step, RollInitiative):
        return Chance(Dist.uniform(state.players), "initiative")
    if isinstance(step, ChooseMover):
        movers = _movers(state, step.player)
        return Decision(step.player, "move", movers) if movers else None
    if isinstance(step, ChooseActivation):
        ready = _eligible(state, step.stage, step.player)
        return Decision(step.player, "activation", ready) if ready else None
    if isinstance(step, ChooseTarget):
        det = state.detachment(step.detachment)
        if not det.live:
            return None
        return Decision(det.owner, "target", fire_options(state, det))
    if isinstance(step, ChooseAllocation):
        target = state.detachment(step.volleys[0].target)
        return Decision(target.owner, "allocation", allocation_orders(step.volleys))
    if isinstance(step, VolleyRoll):
        value = volley_input(state, step.volley)
        return None if value is None else Chance(volley_dist(value), "volley")
    if isinstance(step, ChooseCombat):
        return Decision(_initiative(state), "combat", step.combats)
    if isinstance(step, ChoosePairing):
        return Decision(_initiative(state), "pairing", step.options)
    if isinstance(step, ChooseFight):
        left = _fights_left(state)
        return Decision(_initiative(state), "fight", left) if left else None
    if isinstance(step, FightRoll):
        a, b = state.model(step.a), state.model(step.b)
        if not (a.alive and b.alive):
            return None  # LI-FIGHT-6: not fought, counts for nobody
        return Chance(PROCEDURES["fight"].dist(fight_input(state, a, b)), "fight")
    if isinstance(step, MoraleRoll):
        det = state.detachment(step.detachment)
        if not det.live:
            return None
        return Chance(PROCEDURES["morale_check"].dist(morale_input(state, det, step.trigger)), "morale check")
    if isinstance(step, WithdrawalRoll):
        return Chance(PROCEDURES["withdrawal_move"].dist(WithdrawalMoveInput(movement=0)), "withdrawal roll")
    if isinstance(step, ChooseWithdrawer):
        withdrawers = withdrawal_order(state, step)
        return Decision(state.detachment(step.detachment).owner, "withdrawal order", withdrawers) if withdrawers else None
    if isinstance(step, WithdrawalSaves):
        return Chance(PROCEDURES["withdrawal_save"].dist(withdrawal_save_input(state, step)), "withdrawal saves")
    raise AssertionError(f"not a chance or decision step: {step!r}")


def _initiative(state: LiState) -> str:
    assert state.initiative is not None
    return state.initiative


def _movers(state: LiState, player: str) -> tuple[str, ...]:
    return tuple(d.id for d in state.detachments_of(player) if d.id not in state.activated and may_move(d))


def _eligible(state: LiState, stage: Stage, player: str) -> tuple[str, ...]:
    """The Detachments of *player* that must still activate in a firing stage (LI-ACT-2, LI-ACT-3, LI-ACT-6, LI-ACT-8, LI-STAGE-2).

    First Fire stage: holds a First Fire order, on the battlefield, not Engaged & Pinned at the start
    of the stage. Advancing Fire stage: holds an Advance order, on the battlefield, not Engaged &
    Pinned. March and Fall Back never activate; Reserves do not.
    """
    wanted = "first_fire" if stage == "first_fire" else "advance"
    return tuple(
        d.id for d in state.detachments_of(player)
        if d.order == wanted and d.on_battlefield and d.id not in state.activated
        and not (d.id in state.pinned_at_stage_start if stage == "first_fire" else d.pinned)
    )


def allocation_orders(vs: tuple[Volley, ...]) -> tuple[tuple[tuple[str, int], ...], ...]:
    """The orders in which the target's controller may take the weapon profiles' hits, declared order first (LI-ALLOC-5)."""
    keys = tuple(dict.fromkeys(v.key for v in vs))
    if len(keys) > 4:
        return (keys, keys[::-1])
    return tuple(itertools.permutations(keys))


def _fights_left(state: LiState) -> tuple[tuple[str, str], ...]:
    assert state.combat is not None
    return tuple(f for f in state.combat.fights if state.model(f[0]).alive and state.model(f[1]).alive)


def fight_input(state: LiState, a: Model, b: Model) -> FightInput:
    """One fight of the combat in progress: each model's CAF, charge bonus and fights fought so far (LI-FIGHT-2..4)."""
    combat = state.combat
    assert combat is not None

    def side(m: Model) -> FightSide:
        return FightSide(caf=m.caf, charged=state.owner_of_model(m.id).charged_and_moved, fight_number=min(10, combat.fights_of(m.id) + 1))

    return FightInput(a=side(a), b=side(b))


def morale_input(state: LiState, det: Detachment, trigger: str) -> MoraleCheckInput:
    """A Detachment's Morale check as the ``morale_check`` procedure asks it (LI-MORALE-3..8, LI-RESULT-6).

    During the Engagement stage the Formation's Broken state is still the one it had when the stage
    began: Break Points are checked only at its end (LI-BREAK-4).
    """
    return MoraleCheckInput(
        morale=det.morale,
        trigger=trigger,  # type: ignore[arg-type]
        broken=state.formation(det.formation).broken,
        earlier_check_this_phase=det.morale_this_phase,
        fall_back_at_phase_start=det.order_at_phase_start == "fall_back",
    )


def withdrawal_order(state: LiState, step: ChooseWithdrawer) -> tuple[str, ...]:
    """The models still to make their Withdrawal move, nearest their battlefield edge first (LI-WD-6 default)."""
    det = state.detachment(step.detachment)
    edge = state.edge_of(det.owner)
    left = [m for m in det.live if m.id not in step.moved]
    return tuple(m.id for m in sorted(left, key=lambda m: (room_to_edge(state, m, edge), m.id)))


def withdrawal_save_input(state: LiState, step: WithdrawalSaves) -> WithdrawalSaveInput:
    m = state.model(step.model)
    return WithdrawalSaveInput(
        scale=m.scale, wounds_remaining=m.wounds_remaining, armour_save=m.armour_save, special_save=m.special_save,
        cover_save=m.cover_save, passed_through_scales=tuple(state.detachment(t).scale for t in step.through)[:10],
    )


# --- applying a choice ---------------------------------------------------------------------------------------


def apply(state: LiState, choice: Any) -> tuple[LiState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = list(state.opening)  # type: ignore[arg-type]
    state = replace(state, opening=())
    step, rest = state.pending[0], state.pending[1:]
    state = _resolve(replace(state, pending=rest), step, choice, out)
    state = _settle(state, out)
    return state, tuple(out)


def _push(state: LiState, *steps: object) -> LiState:
    return replace(state, pending=tuple(steps) + state.pending)


def _settle(state: LiState, out: list[Event]) -> LiState:
    """Run every step that needs no dice and no player, until a real chance or decision (or the end)."""
    while not state.ended:
        if state.combat is None and _a_side_is_gone(state):  # a combat in progress still gets its result
            return _end_battle(state, out)
        if not state.pending:
            return state
        step = state.pending[0]
        if isinstance(step, CONTROL):
            state = _control(replace(state, pending=state.pending[1:]), step, out)
            continue
        found = _node_of(state, step)
        if found is None:
            state = replace(state, pending=state.pending[1:])
            continue
        if isinstance(found, Decision) and len(found.options) == 1:
            state = _resolve(replace(state, pending=state.pending[1:]), step, found.options[0], out)
            continue
        if isinstance(found, Chance) and len(found.dist) == 1:
            state = _resolve(replace(state, pending=state.pending[1:]), step, found.dist.outcomes()[0], out)
            continue
        return state
    return state


def _resolve(state: LiState, step: object, choice: Any, out: list[Event]) -> LiState:
    if isinstance(step, IssueOrder):
        out.append(ev.OrderIssued(detachment=step.detachment, order=choice))
        return state.with_detachment(replace(state.detachment(step.detachment), order=choice))
    if isinstance(step, RollInitiative):
        out.append(ev.InitiativeWon(side=choice))
        return replace(state, initiative=choice)
    if isinstance(step, ChooseMover):
        state = replace(state, activated=state.activated | {choice})
        det = state.detachment(choice)
        state, moved = move_detachment(state, choice)
        out.append(ev.Moved(detachment=choice, order=det.order or "", distance=round(moved, 3), engaged=has_enemy_contact(state, state.detachment(choice))))
        return state
    if isinstance(step, ChooseActivation):
        out.append(ev.Activated(detachment=choice, side=step.player, stage=step.stage))
        return _push(replace(state, activated=state.activated | {choice}), ChooseTarget(choice), EndActivation(choice))
    if isinstance(step, ChooseTarget):
        return _declare(state, step.detachment, choice, out)
    if isinstance(step, ChooseAllocation):
        order = {key: k for k, key in enumerate(choice)}
        ordered = sorted(step.volleys, key=lambda v: order[v.key])
        return _push(state, *(VolleyRoll(v) for v in ordered))
    if isinstance(step, VolleyRoll):
        return _volley(state, step.volley, choice, out)
    if isinstance(step, ChooseCombat):
        rest = tuple(c for c in step.combats if c != choice)
        return _push(state, RunCombat(choice), *((ChooseCombat(rest),) if rest else ()))
    if isinstance(step, ChoosePairing):
        assert state.combat is not None
        out.append(ev.Paired(fights=", ".join(f"{a}-{b}" for a, b in choice)))
        return _push(replace(state, combat=replace(state.combat, fights=choice)), ChooseFight())
    if isinstance(step, ChooseFight):
        assert state.combat is not None
        left = tuple(f for f in state.combat.fights if f != choice)
        return _push(replace(state, combat=replace(state.combat, fights=left)), FightRoll(*choice), ChooseFight())
    if isinstance(step, FightRoll):
        return _fight(state, step, choice.winner, out)
    if isinstance(step, MoraleRoll):
        return _morale(state, step, choice.result, out)
    if isinstance(step, WithdrawalRoll):
        det = state.detachment(step.detachment)
        out.append(ev.Withdrawal(detachment=det.id, roll=choice.distance))
        foes = frozenset(m.id for e in engaged_with(state, det.id) for m in state.detachment(e).live)
        state = state.with_detachment(replace(det, withdrew_this_round=True))
        return _push(state, ChooseWithdrawer(det.id, choice.distance, foes))
    if isinstance(step, ChooseWithdrawer):
        return _withdraw_model(state, step, choice, out)
    if isinstance(step, WithdrawalSaves):
        return _withdrawal_saved(state, step, choice, out)
    raise AssertionError(f"unknown step {step!r}")


# --- rounds and phases -----------------------------------------------------------------------------------------


def _control(state: LiState, step: object, out: list[Event]) -> LiState:
    if isinstance(step, BeginRound):
        out.append(ev.RoundStarted(round=state.round))
        return _push(replace(state, phase="orders", initiative=None), OrdersPhase(), RollInitiative(), MovementPhase(), CombatPhase(), EndPhase())
    if isinstance(step, OrdersPhase):
        out.append(ev.PhaseStarted(phase="orders_phase"))
        issue = [IssueOrder(d.id) for p in state.players for d in state.detachments_of(p) if needs_order(d)]
        return _push(state, *issue)
    if isinstance(step, MovementPhase):
        out.append(ev.PhaseStarted(phase="movement_phase"))
        return _push(replace(state, phase="movement", activated=frozenset()), MoveTurn(_initiative(state)), EndMovement())
    if isinstance(step, MoveTurn):
        if not (_movers(state, step.player) or _movers(state, state.other(step.player))):
            return state
        if _movers(state, step.player):
            return _push(state, ChooseMover(step.player), MoveTurn(state.other(step.player)))
        return _push(state, MoveTurn(state.other(step.player)))
    if isinstance(step, EndMovement):
        return replace(refresh_engagement(state), activated=frozenset())
    if isinstance(step, CombatPhase):
        out.append(ev.PhaseStarted(phase="combat_phase"))
        dets = tuple(replace(d, order_at_phase_start=d.order, morale_this_phase="none") for d in state.detachments)
        state = replace(state, phase="combat", detachments=dets)
        stages: tuple[Stage, ...] = ("first_fire", "engagement", "advancing_fire")
        return _push(state, *(s for stage in stages for s in (StageStart(stage), StageEnd(stage))))  # LI-STAGE-1
    if isinstance(step, StageStart):
        return _stage_start(state, step.stage, out)
    if isinstance(step, ActTurn):
        return _act_turn(state, step)
    if isinstance(step, AttackEnd):
        return _attack_end(state, step, out)
    if isinstance(step, EndActivation):
        det = state.detachment(step.detachment)
        if det.order in ("first_fire", "advance"):  # LI-ACT-5, LI-ACT-6: the token goes when the activation ends
            out.append(ev.OrderRemoved(detachment=det.id, order=det.order, why="activated"))
            return state.with_detachment(replace(det, order=None))
        return state
    if isinstance(step, StageEnd):
        return _stage_end(state, step.stage, out)
    if isinstance(step, RunCombat):
        return _run_combat(state, step.detachments, out)
    if isinstance(step, FightsDone):
        return _combat_result(state, step.detachments, out)
    if isinstance(step, CombatDone):
        return _combat_done(state, step.detachments, out)
    if isinstance(step, EndPhase):
        return _end_phase(state, out)
    raise AssertionError(f"unknown control step {step!r}")


def _stage_start(state: LiState, stage: Stage, out: list[Event]) -> LiState:
    out.append(ev.StageStarted(stage=stage))
    state = replace(state, stage=stage, activated=frozenset())
    if stage == "engagement":
        found = combats(state)  # LI-ENG-2: identified at the start of the stage
        state = replace(state, fought=frozenset())
        return _push(state, ChooseCombat(found)) if found else state
    if stage == "first_fire":
        state = replace(state, pinned_at_stage_start=frozenset(d.id for d in state.detachments if d.pinned))
    return _push(state, ActTurn(stage, _initiative(state)))


def _act_turn(state: LiState, step: ActTurn) -> LiState:
    """LI-ACT-1: ``p = initiative; while anyone has an eligible unactivated detachment: if p has one, p activates one; p = other(p)``."""
    mine, theirs = _eligible(state, step.stage, step.player), _eligible(state, step.stage, state.other(step.player))
    if not mine and not theirs:
        return state
    nxt = ActTurn(step.stage, state.other(step.player))
    return _push(state, ChooseActivation(step.stage, step.player), nxt) if mine else _push(state, nxt)


def _stage_end(state: LiState, stage: Stage, out: list[Event]) -> LiState:
    dets = []
    for d in state.detachments:
        if stage == "first_fire" and d.id in state.pinned_at_stage_start and d.order == "first_fire":
            out.append(ev.OrderRemoved(detachment=d.id, order="first_fire", why="pinned"))  # LI-ACT-4
            d = replace(d, order=None)
        if stage == "advancing_fire" and d.order == "advance" and d.pinned and not d.in_reserve:
            out.append(ev.OrderRemoved(detachment=d.id, order="advance", why="pinned"))  # LI-ACT-8
            d = replace(d, order=None)
        if stage == "engagement":
            if d.order == "charge":  # LI-ENG-6: every Charge order goes, fought or not
                out.append(ev.OrderRemoved(detachment=d.id, order="charge", why="engagement_over"))
                d = replace(d, order=None)
            if d.engaged and not has_enemy_contact(state, d):
                out.append(ev.NoLongerEngaged(detachment=d.id))
                d = replace(d, engaged=False, pinned=False)
        dets.append(d)
    state = replace(state, detachments=tuple(dets), activated=frozenset(), stage=None)
    if stage == "engagement":  # LI-BREAK-4: Formations whose Detachments fought are checked now, not after each combat
        for f in dict.fromkeys(state.detachment(d).formation for d in sorted(state.fought)):
            state = check_break_point(state, f, out)
    return state


# --- firing -----------------------------------------------------------------------------------------------------


def _declare(state: LiState, det_id: str, choice: Fire | HoldFire, out: list[Event]) -> LiState:
    det = state.detachment(det_id)
    if isinstance(choice, HoldFire):
        reason = "chose_not_to" if len(fire_options(state, det)) > 1 else ("withdrew" if det.withdrew_this_round else "no_target")
        out.append(ev.HeldFire(detachment=det_id, reason=reason))
        return state
    out.append(ev.TargetDeclared(detachment=det_id, target=choice.target, penalty=choice.penalty))
    vs = volleys(state, det, choice)  # LI-FIRE-2: everything is declared before any dice are rolled
    target = state.detachment(choice.target)
    end = AttackEnd(det_id, target.id, len(target.live), sum(m.wounds_remaining for m in target.live))
    if len({v.key for v in vs}) > 1:
        return _push(state, ChooseAllocation(vs), end)
    return _push(state, *(VolleyRoll(v) for v in vs), end)


def _volley(state: LiState, v: Volley, outcome: Any, out: list[Event]) -> LiState:
    value = volley_input(state, v)
    assert value is not None
    state, dead = apply_volley(state, value, v.target, outcome)
    out.append(ev.Volley(
        detachment=v.attacker, target=v.target, weapon=v.weapon if len(_weapon_profiles(state, v)) == 1 else f"{v.weapon}#{v.profile_index + 1}",
        firing_models=v.firing_models, dice=v.firing_models * v.profile.dice, to_hit=v.profile.to_hit,
        modifier=value.hit_modifier - value.penalty - _engaged_penalty(value), rear_arc=value.rear_arc,
        hits=outcome.hits, wounds=outcome.wounds, destroyed=outcome.destroyed, shields_lost=outcome.shields_lost,
    ))
    out.extend(ev.Destroyed(model=m, detachment=v.target, how="fire") for m in dead)
    return state


def _weapon_profiles(state: LiState, v: Volley) -> tuple[Profile, ...]:
    for m in state.detachment(v.attacker).models:
        for w in m.weapons:
            if w.name == v.weapon:
                return w.profiles
    return ()


def _engaged_penalty(value: Any) -> int:
    return engaged_penalty(value.scale, value.target_engaged_with_scales)


def _attack_end(state: LiState, step: AttackEnd, out: list[Event]) -> LiState:
    """After the attacker has completely resolved its attack: the Break Point, then the Morale check (LI-BREAK-4, LI-BREAK-7, LI-MORALE-1, LI-MORALE-2)."""
    target = state.detachment(step.target)
    state = check_break_point(state, target.formation, out)
    lost = step.wounds_at_start - sum(m.wounds_remaining for m in target.live)
    if target.live and morale_threshold_reached(lost, step.models_at_start):
        return _push(state, MoraleRoll(target.id, "casualties"))
    return state


def formation_losses(state: LiState, formation_id: str) -> tuple[int, int]:
    """(losses, Break Point) of a Formation now (LI-BREAK-1..3), through the ``break_point`` rules."""
    formation = state.formation(formation_id)
    entries = tuple(
        FormationEntry(
            type=m.type,  # type: ignore[arg-type]
            wounds=m.wounds,
            count=1,
            destroyed=0 if m.alive else 1,
            wounds_lost=(m.wounds - m.wounds_remaining) if m.alive and m.type in ("knight", "titan") else 0,
        )
        for d in state.detachments if d.formation == formation_id for m in d.models
    )
    return losses(entries), break_point_of(formation.starting_size)


def check_break_point(state: LiState, formation_id: str, out: list[Event]) -> LiState:
    """A Formation becomes Broken once its losses reach its Break Point, and stays so (LI-BREAK-3, LI-BREAK-6)."""
    formation = state.formation(formation_id)
    if formation.broken:
        return state
    lost, point = formation_losses(state, formation_id)
    if is_broken(losses=lost, break_point=point, already_broken=False):
        out.append(ev.FormationBroken(formation=formation_id, losses=lost, break_point=point))
        return state.with_formation(replace(formation, broken=True))
    return state


def _morale(state: LiState, step: MoraleRoll, result: str, out: list[Event]) -> LiState:
    """A Morale check's effect (LI-MORALE-5..7, LI-RESULT-3, LI-RESULT-4)."""
    det = state.detachment(step.detachment)
    out.append(ev.MoraleChecked(detachment=det.id, trigger=step.trigger, result=result))
    if result == "pass":
        return state.with_detachment(replace(det, morale_this_phase="passed"))
    if result != "fail":
        return state  # auto_pass, not_taken; auto_fail has no further effect (LI-MORALE-7)
    if det.order is not None and det.order != "fall_back":
        out.append(ev.OrderRemoved(detachment=det.id, order=det.order, why="morale"))
    out.append(ev.OrderIssued(detachment=det.id, order="fall_back"))
    state = state.with_detachment(replace(det, order="fall_back", morale_this_phase="failed"))
    if step.trigger == "combat":
        return _push(state, WithdrawalRoll(det.id))  # LI-RESULT-3: a failed combat check withdraws
    return state


# --- combats ---------------------------------------------------------------------------------------------------------


def _run_combat(state: LiState, dets: tuple[str, ...], out: list[Event]) -> LiState:
    """The combat sequence: pair off, fights, result, Withdrawal (LI-CC-1)."""
    first = _initiative(state)
    edges = tuple(
        (a, b) if state.owner_of_model(a).owner == first else (b, a) for a, b in enemy_contacts(state, dets)
    )
    live_dets = tuple(d for d in dets if state.detachment(d).live)
    if not edges:
        return _push(state, CombatDone(live_dets))
    out.append(ev.CombatStarted(detachments=", ".join(dets)))
    state = replace(state, combat=CombatProgress(dets))
    return _push(state, ChoosePairing(pairings(edges)), FightsDone(dets), CombatDone(dets))


def _fight(state: LiState, step: FightRoll, winner_: str, out: list[Event]) -> LiState:
    """One fight: the loser loses one Wound, destroyed at 0, no save (LI-FIGHT-5)."""
    combat = state.combat
    assert combat is not None
    a, b = state.model(step.a), state.model(step.b)
    a_dice = fight_dice(opponent_fights_before=combat.fights_of(b.id), extra_dice=0)
    b_dice = fight_dice(opponent_fights_before=combat.fights_of(a.id), extra_dice=0)
    out.append(ev.FightRolled(attacker=a.id, defender=b.id, attacker_dice=a_dice, defender_dice=b_dice, winner={"a": a.id, "b": b.id}.get(winner_, "draw")))
    fought = dict(combat.fought)
    fought[a.id], fought[b.id] = fought.get(a.id, 0) + 1, fought.get(b.id, 0) + 1
    won = dict(combat.won)
    state = replace(state, fought=state.fought | {state.owner_of_model(a.id).id, state.owner_of_model(b.id).id})
    if winner_ != "draw":
        loser = b if winner_ == "a" else a
        side = state.owner_of_model((a if winner_ == "a" else b).id).owner
        won[side] = won.get(side, 0) + 1
        hurt = replace(loser, wounds_remaining=loser.wounds_remaining - 1)
        if not hurt.alive:
            hurt = replace(hurt, void_shields=0)
            out.append(ev.Destroyed(model=loser.id, detachment=state.owner_of_model(loser.id).id, how="fight"))
        state = state.with_model(hurt)
    return replace(state, combat=replace(combat, fought=tuple(sorted(fought.items())), won=tuple(sorted(won.items()))))


def _combat_result(state: LiState, dets: tuple[str, ...], out: list[Event]) -> LiState:
    """The combat result and the losing side's Morale checks (LI-RESULT-1..5)."""
    combat = state.combat
    assert combat is not None
    first, second = _initiative(state), state.other(_initiative(state))

    def gone(player: str) -> bool:
        return not any(state.detachment(d).live for d in dets if state.detachment(d).owner == player)

    result = combat_winner(
        a_fights_won=combat.won_by(first), b_fights_won=combat.won_by(second), a_all_destroyed=gone(first), b_all_destroyed=gone(second)
    )
    winner_ = {"a": first, "b": second}.get(result, "")
    out.append(ev.CombatResult(detachments=", ".join(dets), winner=winner_ or "draw", fights_won=f"{combat.won_by(first)}-{combat.won_by(second)}"))
    state = replace(state, combat=None)
    if not winner_:
        return state  # LI-RESULT-5: a draw, nobody checks
    losers = [d for d in dets if state.detachment(d).owner != winner_ and state.detachment(d).live]
    return _push(state, *(MoraleRoll(d, "combat") for d in losers))


def _combat_done(state: LiState, dets: tuple[str, ...], out: list[Event]) -> LiState:
    """LI-ENG-5: a Detachment stays Engaged only while a model of it touches an enemy model."""
    for det_id in dets:
        det = state.detachment(det_id)
        if det.engaged and not has_enemy_contact(state, det):
            out.append(ev.NoLongerEngaged(detachment=det_id))
            state = state.with_detachment(replace(det, engaged=False, pinned=False))
        elif not det.engaged and has_enemy_contact(state, det):
            state = state.with_detachment(replace(det, engaged=True))
    return state


def _withdraw_model(state: LiState, step: ChooseWithdrawer, model_id: str, out: list[Event]) -> LiState:
    """One model's Withdrawal move: straight toward its edge, saves for enemy Detachments moved through (LI-WD-1..5)."""
    det = state.detachment(step.detachment)
    model = state.model(model_id)
    start, end = withdrawal_path(state, model, state.edge_of(det.owner), step.roll + model.movement)
    through = moved_through(state, model, det.owner, start, end)
    state = _push(state, replace(step, moved=step.moved | {model_id}))
    rolls = [t for t in through if not withdrawal_passes_automatically(scale=model.scale, through_scale=t.scale)]
    saves = WithdrawalSaves(model_id, (end.x, end.y), tuple(t.id for t in through), step.foes)
    if rolls:
        return _push(state, saves)
    return _place(state, saves, 0, out)


def _withdrawal_saved(state: LiState, step: WithdrawalSaves, outcome: Any, out: list[Event]) -> LiState:
    model = state.model(step.model)
    if outcome.destroyed:
        out.append(ev.WithdrawalMove(model=model.id, x=round(model.x, 3), y=round(model.y, 3), through=", ".join(step.through), wounds_lost=outcome.wounds_lost))
        out.append(ev.Destroyed(model=model.id, detachment=state.owner_of_model(model.id).id, how="withdrawal_save"))
        return state.with_model(replace(model, wounds_remaining=0, void_shields=0))
    state = state.with_model(replace(model, wounds_remaining=model.wounds_remaining - outcome.wounds_lost))
    return _place(state, step, outcome.wounds_lost, out)


def _place(state: LiState, step: WithdrawalSaves, wounds_lost: int, out: list[Event]) -> LiState:
    """Where the model ends: destroyed on an enemy, moved off friends, destroyed inside the Engagement Zone (LI-WD-6, LI-WD-8)."""
    det = state.owner_of_model(step.model)
    model = state.model(step.model).at(Point(*step.end))
    others = [(d, m) for d, m in state.live_models() if m.id != model.id]
    through = ", ".join(step.through)

    def destroyed(how: str) -> LiState:
        out.append(ev.WithdrawalMove(model=model.id, x=round(model.x, 3), y=round(model.y, 3), through=through, wounds_lost=wounds_lost))
        out.append(ev.Destroyed(model=model.id, detachment=det.id, how=how))
        return state.with_model(replace(model, wounds_remaining=0, void_shields=0))

    if any(d.owner != det.owner and overlaps(model, m) for d, m in others):
        return destroyed("ended_on_enemy")
    if any(overlaps(model, m) for _, m in others):
        model = model.at(nearest_free_point(state, model, model.centre))
    if any(m.id in step.foes and distance(model, m) < ENGAGEMENT_ZONE_INCHES for _, m in others):
        return destroyed("engagement_zone")
    out.append(ev.WithdrawalMove(model=model.id, x=round(model.x, 3), y=round(model.y, 3), through=through, wounds_lost=wounds_lost))
    return state.with_model(replace(model, x=round(model.x, 6), y=round(model.y, 6)))


# --- the End phase and the end of the battle ----------------------------------------------------------------------------


def _end_phase(state: LiState, out: list[Event]) -> LiState:
    """Orders are removed, except a Fall Back order given this round; one held since the round began goes (it rallies)."""
    out.append(ev.PhaseStarted(phase="end_phase"))
    dets = []
    for d in state.detachments:
        keep = d.order == "fall_back" and d.order_at_phase_start != "fall_back"
        if d.order is not None and not keep and d.on_battlefield:
            out.append(ev.OrderRemoved(detachment=d.id, order=d.order, why="end_phase"))
            d = replace(d, order=None)
        dets.append(replace(d, withdrew_this_round=False, charged_and_moved=False))
    state = replace(state, detachments=tuple(dets), phase="end")
    if state.round >= state.rounds:
        return _end_battle(state, out)
    return _push(replace(state, round=state.round + 1), BeginRound())


def _a_side_is_gone(state: LiState) -> bool:
    return any(not any(d.on_battlefield for d in state.detachments_of(p)) for p in state.players)


def _end_battle(state: LiState, out: list[Event]) -> LiState:
    state = replace(state, ended=True, pending=(), combat=None)
    out.append(ev.BattleEnded(winner=winner(state) or "draw", losses=", ".join(f"{p} {a}/{b}" for p, (a, b) in side_losses(state).items())))
    return state


def side_losses(state: LiState) -> dict[str, tuple[int, int]]:
    """Each player's losses and starting size, counted as for Break Points (LI-BREAK-1, LI-BREAK-3)."""
    result = {}
    for p in state.players:
        forms = [f for f in state.formations if f.owner == p]
        result[p] = (sum(formation_losses(state, f.id)[0] for f in forms), sum(f.starting_size for f in forms))
    return result


def winner(state: LiState) -> str | None:
    """[DECISION] A side with nothing left on the battlefield loses; otherwise the smaller share of its
    starting size lost wins; equal shares are a draw."""
    gone = [p for p in state.players if not any(d.on_battlefield for d in state.detachments_of(p))]
    if len(gone) == 1:
        return state.other(gone[0])
    if gone:
        return None
    (la, sa), (lb, sb) = side_losses(state).values()
    if la * sb == lb * sa:
        return None
    return state.players[0] if la * sb < lb * sa else state.players[1]


def summary(state: LiState) -> dict[str, Any]:
    return {
        "rounds": state.round,
        "casualties": {p: sum(1 for d in state.detachments_of(p) for m in d.models if not m.alive) for p in state.players},
        "losses": {p: f"{a}/{b}" for p, (a, b) in side_losses(state).items()},
        "broken": sorted(f.id for f in state.formations if f.broken),
    }
