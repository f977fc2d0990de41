"""The round: the Orders and Initiative phases as the engine runs them, the End phase, and the end of the battle
[DECISION: the spec leaves these out (§1); the Movement phase is ``movement_phase``].

- Orders: each Detachment on the battlefield is issued one of Advance, First Fire, Charge or March (§3.6); a
  Broken Formation's Detachments only Advance or Charge (LI-BREAK-5). A Detachment holding a Fall Back order keeps
  it through the next round and is issued nothing; the Fall Back order is removed in the End phase of the round
  it began with it (the Detachment rallies). Reserves stay off the table.
- Initiative: either player, with even chances, each round.
"""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.dice import Dist
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.broken import formation_losses
from kessen.rulesets.legions.referee.phases import Order
from kessen.rulesets.legions.referee.state import Detachment, LiState, board_fact, progressed, push
from kessen.rulesets.legions.referee.steps import (
    BeginRound,
    CombatPhase,
    EndPhase,
    IssueOrder,
    MovementPhase,
    OrdersPhase,
    RollInitiative,
    ask,
)

ORDERS: tuple[Order, ...] = ("advance", "first_fire", "charge", "march")
BROKEN_ORDERS: tuple[Order, ...] = ("advance", "charge")


def order_options(state: LiState, det: Detachment) -> tuple[Order, ...]:
    """The Orders a Detachment may be issued; a Broken Formation's only Advance or Charge (LI-BREAK-5)."""
    return BROKEN_ORDERS if state.formation(det.formation).broken else ORDERS


def needs_order(det: Detachment) -> bool:
    """Every Detachment on the battlefield gets an Order, except one that keeps its Fall Back order."""
    return det.on_battlefield and det.order != "fall_back"


def begin_round(state: LiState, step: BeginRound, _: None, out: list[Event]) -> LiState:
    """A round: Orders, Initiative, Movement, Combat and End phases."""
    out.append(ev.RoundStarted(round=state.round))
    return push(progressed(state, phase="orders", initiative=None), OrdersPhase(), RollInitiative(), MovementPhase(), CombatPhase(), EndPhase())


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
    return state.with_detachment(evolve(state.detachment(step.detachment), order=order))


def initiative_roll(state: LiState, step: RollInitiative) -> Chance:
    """Either player may win the Initiative, with even chances."""
    return Chance(Dist.uniform(state.players), "initiative")


def initiative_won(state: LiState, step: RollInitiative, player: str, out: list[Event]) -> LiState:
    """*player* has the Initiative this round."""
    out.append(ev.InitiativeWon(side=player))
    return progressed(state, initiative=player)


def end_phase(state: LiState, step: EndPhase, _: None, out: list[Event]) -> LiState:
    """Orders are removed, except a Fall Back order given this round; one held since the round began goes (it rallies)."""
    out.append(ev.PhaseStarted(phase="end_phase"))
    dets = []
    for d in state.detachments:
        keep = d.order == "fall_back" and d.order_at_phase_start != "fall_back"
        if d.order is not None and not keep and d.on_battlefield:
            out.append(ev.OrderRemoved(detachment=d.id, order=d.order, why="end_phase"))
            d = evolve(d, order=None)
        dets.append(evolve(d, withdrew_this_round=False, charged_and_moved=False))
    return evolve(state, detachments=tuple(dets), course=evolve(state.course, phase="end"))


def next_round(state: LiState, out: list[Event]) -> LiState:
    """Once a round is played through: the next round, or the end of the battle after the last one."""
    if state.round >= state.rounds:
        return end_battle(state, out)
    return push(progressed(state, round=state.round + 1), BeginRound())


def side_gone(state: LiState, out: list[Event]) -> LiState | None:
    """A player with nothing left on the battlefield ends the battle, though never in the middle of a combat,
    which still gets its result; None while both players have something left."""
    if state.combat is None and _gone(state):
        return end_battle(state, out)
    return None


def result(state: LiState) -> Terminal | None:
    """The end of the battle: its winner and summary; None while it goes on."""
    return Terminal(winner(state), summary(state)) if state.ended else None


@board_fact
def _gone(state: LiState) -> tuple[str, ...]:
    """The players with nothing left on the battlefield."""
    present = {d.owner for d in state.detachments if d.on_battlefield}
    return tuple(p for p in state.players if p not in present)


def end_battle(state: LiState, out: list[Event]) -> LiState:
    """The battle ends: nothing more is pending, and the result is told."""
    state = evolve(state, pending=(), course=evolve(state.course, ended=True, combat=None))
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
