"""The race on the core step machine: the step table (TOY-1..3)."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Chance, Decision, Terminal
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.core.steps import StepMachine, StepRule
from tests.toy.events import Dashed
from tests.toy.referee.options import Confirm, Dash
from tests.toy.referee.state import GOAL, TURNS, ToyState, with_pending
from tests.toy.referee.steps import ChooseDash, ConfirmStep, RollDash, ask
from tests.toy.rules.dash import DashOutcome, DashQuestion, dash


def _winner(state: ToyState) -> str | None:
    return next((state.sides[i] for i, p in enumerate(state.position) if p >= GOAL), None)


def _result(state: ToyState) -> Terminal | None:
    """TOY-3: the first to square 10 wins; after 12 turns a draw."""
    won = _winner(state)
    if won is not None or (state.turn >= TURNS and not state.pending):
        return Terminal(won, {"rounds": state.turn, "casualties": {s: 0 for s in state.sides}, "survivors": {s: 1 for s in state.sides},
                              "position": dict(zip(state.sides, state.position))})
    return None


def _refill(state: ToyState, out: list[Event]) -> ToyState:
    """The next turn: the side whose turn it is dashes, confirming first when it stands on square 8 (TOY-2)."""
    side = state.turn % 2
    steps: tuple[Any, ...] = (ChooseDash(side),)
    if state.position[side] >= 8 and not state.confirmed[side]:
        steps = (ConfirmStep(side),) + steps
    return evolve(state, turn=state.turn + 1, pending=steps)


def _dash_node(state: ToyState, step: ChooseDash) -> Decision:
    player = state.sides[step.side]
    return ask(player, "dash", (Dash(3), Dash(2), Dash(1)), free=True, actor=f"{player} racer")


def _dash(state: ToyState, step: ChooseDash, choice: Dash, out: list[Event]) -> ToyState:
    return evolve(state, pending=(RollDash(step.side, choice.squares),) + state.pending)


def _confirm(state: ToyState, step: ConfirmStep, choice: Confirm, out: list[Event]) -> ToyState:
    confirmed = list(state.confirmed)
    confirmed[step.side] = True
    return evolve(state, confirmed=(confirmed[0], confirmed[1]))


def _rolled(state: ToyState, step: RollDash, rolled: DashOutcome, out: list[Event]) -> ToyState:
    out.append(Dashed(side=state.sides[step.side], squares=step.squares, made_it=rolled.made_it))
    if not rolled.made_it:
        return state
    position = list(state.position)
    position[step.side] += step.squares
    return evolve(state, position=(position[0], position[1]))


MACHINE: StepMachine[ToyState] = StepMachine(
    {
        ChooseDash: StepRule(_dash, _dash_node),
        ConfirmStep: StepRule(_confirm, lambda s, step: ask(s.sides[step.side], "confirm", (Confirm(),))),
        RollDash: StepRule(_rolled, lambda s, step: Chance(dash(DashQuestion(step.squares)), "dash roll")),
    },
    with_pending=with_pending,
    result=_result,
    refill=_refill,
)
