"""The round: the Orders, Initiative and Movement phases as the engine runs them, the End phase, and the end of
the battle [DECISION: the spec leaves these out (§1); movement holds the engine's own rules for them]."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.events import Event
from kessen.core.steps import StepRule
from kessen.dice import Dist
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.battlefield import has_enemy_contact
from kessen.rulesets.legions.referee.broken import formation_losses
from kessen.rulesets.legions.referee.movement import (
    may_move,
    move_detachment,
    needs_order,
    order_options,
    refresh_engagement,
)
from kessen.rulesets.legions.referee.phases import Order
from kessen.rulesets.legions.referee.state import LiState, push
from kessen.rulesets.legions.referee.steps import (
    ask,
    BeginRound,
    ChooseMover,
    CombatPhase,
    EndMovement,
    EndPhase,
    IssueOrder,
    MovementPhase,
    MoveTurn,
    OrdersPhase,
    RollInitiative,
)


def begin_round(state: LiState, step: BeginRound, _: None, out: list[Event]) -> LiState:
    """A round: Orders, Initiative, Movement, Combat and End phases."""
    out.append(ev.RoundStarted(round=state.round))
    return push(replace(state, phase="orders", initiative=None), OrdersPhase(), RollInitiative(), MovementPhase(), CombatPhase(), EndPhase())


def orders_phase(state: LiState, step: OrdersPhase, _: None, out: list[Event]) -> LiState:
    """Every Detachment that needs an Order is issued one, the first player's first."""
    out.append(ev.PhaseStarted(phase="orders_phase"))
    issue = [IssueOrder(d.id) for p in state.players for d in state.detachments_of(p) if needs_order(d)]
    return push(state, *issue)


def order_decision(state: LiState, step: IssueOrder) -> Decision:
    """The Orders its owner may issue the Detachment."""
    det = state.detachment(step.detachment)
    return ask(det.owner, "order", order_options(state, det), actor=det.id)


def issue_order(state: LiState, step: IssueOrder, order: Order, out: list[Event]) -> LiState:
    """The Detachment holds the issued Order."""
    out.append(ev.OrderIssued(detachment=step.detachment, order=order))
    return state.with_detachment(replace(state.detachment(step.detachment), order=order))


def initiative_roll(state: LiState, step: RollInitiative) -> Chance:
    """Either player may win the Initiative, with even chances."""
    return Chance(Dist.uniform(state.players), "initiative")


def initiative_won(state: LiState, step: RollInitiative, player: str, out: list[Event]) -> LiState:
    """*player* has the Initiative this round."""
    out.append(ev.InitiativeWon(side=player))
    return replace(state, initiative=player)


def movement_phase(state: LiState, step: MovementPhase, _: None, out: list[Event]) -> LiState:
    """The players take turns to move a Detachment, the player with Initiative first."""
    out.append(ev.PhaseStarted(phase="movement_phase"))
    return push(replace(state, phase="movement", activated=frozenset()), MoveTurn(state.player_with_initiative()), EndMovement())


def movers(state: LiState, player: str) -> tuple[str, ...]:
    """The Detachments of *player* still to move this phase."""
    return tuple(d.id for d in state.detachments_of(player) if d.id not in state.activated and may_move(d))


def move_turn(state: LiState, step: MoveTurn, _: None, out: list[Event]) -> LiState:
    """The player moves a Detachment if it has one left; the turns go on while either player has one."""
    if not (movers(state, step.player) or movers(state, state.other(step.player))):
        return state
    if movers(state, step.player):
        return push(state, ChooseMover(step.player), MoveTurn(state.other(step.player)))
    return push(state, MoveTurn(state.other(step.player)))


def mover_decision(state: LiState, step: ChooseMover) -> Decision | None:
    """Which of its Detachments the player moves next; none when it has none left."""
    found = movers(state, step.player)
    return ask(step.player, "mover", found) if found else None


def move(state: LiState, step: ChooseMover, det_id: str | None, out: list[Event]) -> LiState:
    """The chosen Detachment moves by its Order."""
    if det_id is None:
        return state
    state = replace(state, activated=state.activated | {det_id})
    det = state.detachment(det_id)
    state, moved = move_detachment(state, det_id)
    out.append(ev.Moved(detachment=det_id, order=det.order or "", distance=round(moved, 3), engaged=has_enemy_contact(state, state.detachment(det_id))))
    return state


def end_movement(state: LiState, step: EndMovement, _: None, out: list[Event]) -> LiState:
    """Engaged and Engaged & Pinned are read from the bases (LI-ENG-1)."""
    return replace(refresh_engagement(state), activated=frozenset())


def end_phase(state: LiState, step: EndPhase, _: None, out: list[Event]) -> LiState:
    """Orders are removed, except a Fall Back order given this round; one held since the round began goes (it rallies)."""
    out.append(ev.PhaseStarted(phase="end_phase"))
    dets = []
    for d in state.detachments:
        keep = d.order == "fall_back" and d.order_at_phase_start != "fall_back"
        if d.order is not None and not keep and d.on_battlefield:
            out.append(ev.OrderRemoved(detachment=d.id, order=d.order, why="end_phase"))
            d = replace(d, order=None)
        dets.append(replace(d, withdrew_this_round=False, charged_and_moved=False))
    return replace(state, detachments=tuple(dets), phase="end")


def next_round(state: LiState, out: list[Event]) -> LiState:
    """Once a round is played through: the next round, or the end of the battle after the last one."""
    if state.round >= state.rounds:
        return end_battle(state, out)
    return push(replace(state, round=state.round + 1), BeginRound())


def side_gone(state: LiState, out: list[Event]) -> LiState | None:
    """A player with nothing left on the battlefield ends the battle, though never in the middle of a combat,
    which still gets its result; None while both players have something left."""
    if state.combat is None and _gone(state):
        return end_battle(state, out)
    return None


def result(state: LiState) -> Terminal | None:
    """The end of the battle: its winner and summary; None while it goes on."""
    return Terminal(winner(state), summary(state)) if state.ended else None


def _gone(state: LiState) -> list[str]:
    """The players with nothing left on the battlefield."""
    return [p for p in state.players if not any(d.on_battlefield for d in state.detachments_of(p))]


def end_battle(state: LiState, out: list[Event]) -> LiState:
    """The battle ends: nothing more is pending, and the result is told."""
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
    gone = _gone(state)
    if len(gone) == 1:
        return state.other(gone[0])
    if gone:
        return None
    (la, sa), (lb, sb) = side_losses(state).values()
    if la * sb == lb * sa:
        return None
    return state.players[0] if la * sb < lb * sa else state.players[1]


def summary(state: LiState) -> dict[str, Any]:
    """The Terminal's summary: rounds played, models destroyed and models left per side, each side's losses against
    its starting size as Break Points count them (LI-BREAK-1, LI-BREAK-3), the Broken Formations."""
    return {
        "rounds": state.round,
        "casualties": {p: sum(1 for d in state.detachments_of(p) for m in d.models if not m.alive) for p in state.players},
        "survivors": {p: sum(1 for d in state.detachments_of(p) for m in d.models if m.alive) for p in state.players},
        "losses": {p: f"{a}/{b}" for p, (a, b) in side_losses(state).items()},
        "broken": sorted(f.id for f in state.formations if f.broken),
    }


RULES: dict[type, StepRule[LiState, Any]] = {
    BeginRound: StepRule(begin_round),
    OrdersPhase: StepRule(orders_phase),
    IssueOrder: StepRule(issue_order, order_decision),
    RollInitiative: StepRule(initiative_won, initiative_roll),
    MovementPhase: StepRule(movement_phase),
    MoveTurn: StepRule(move_turn),
    ChooseMover: StepRule(move, mover_decision),
    EndMovement: StepRule(end_movement),
    EndPhase: StepRule(end_phase),
}
"""The steps of a round outside the Combat phase."""
