"""A tiny race game on the core step machine, to test core and Match with no ruleset in the way.

Two racers on a track. On its turn a side declares a dash of N squares (suggested 1 to 3; any N from 1 to 6 is
legal: a free decision, rule TOY-1) and rolls a d6: on N or more it moves N squares, else it stays. A side that
reaches square 8 must first confirm (a decision with one option: the settle policy takes it). First to 10 wins;
after 12 turns the battle is a draw.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from kessen.core.board import Board
from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.errors import IllegalChoice, InputError
from kessen.core.events import Event
from kessen.core.notation import find_suggested, unknown, words
from kessen.core.steps import StepMachine, StepRule
from kessen.dice import d
from kessen.rulesets import Ruleset

GOAL, TURNS = 10, 12


@dataclass(frozen=True, slots=True)
class Dash:
    squares: int


@dataclass(frozen=True, slots=True)
class Confirm:
    pass


@dataclass(frozen=True, slots=True)
class ChooseDash:
    side: int


@dataclass(frozen=True, slots=True)
class ConfirmStep:
    side: int


@dataclass(frozen=True, slots=True)
class RollDash:
    side: int
    squares: int


@dataclass(frozen=True, slots=True)
class NextTurn:
    pass


@dataclass(frozen=True, slots=True)
class Dashed(Event):
    type = "dashed"
    side: str
    squares: int
    made_it: bool


@dataclass(frozen=True, slots=True)
class ToyState:
    sides: tuple[str, str]
    position: tuple[int, int] = (0, 0)
    turn: int = 0
    pending: tuple[Any, ...] = ()
    confirmed: tuple[bool, bool] = (False, False)


def _winner(state: ToyState) -> str | None:
    for i, p in enumerate(state.position):
        if p >= GOAL:
            return state.sides[i]
    return None


def _result(state: ToyState) -> Terminal | None:
    won = _winner(state)
    if won is not None or (state.turn >= TURNS and not state.pending):
        return Terminal(won, {"rounds": state.turn, "position": dict(zip(state.sides, state.position))})
    return None


def _refill(state: ToyState, out: list[Event]) -> ToyState:
    side = state.turn % 2
    steps: tuple[Any, ...] = (ChooseDash(side),)
    if state.position[side] >= 8 and not state.confirmed[side]:
        steps = (ConfirmStep(side),) + steps
    return replace(state, turn=state.turn + 1, pending=steps)


def _dash_node(state: ToyState, step: ChooseDash) -> Decision:
    return Decision(state.sides[step.side], "dash", (Dash(3), Dash(2), Dash(1)), free=True, actor=f"{state.sides[step.side]} racer")


def _dash(state: ToyState, step: ChooseDash, choice: Dash, out: list[Event]) -> ToyState:
    return replace(state, pending=(RollDash(step.side, choice.squares),) + state.pending)


def _confirm(state: ToyState, step: ConfirmStep, choice: Confirm, out: list[Event]) -> ToyState:
    confirmed = list(state.confirmed)
    confirmed[step.side] = True
    return replace(state, confirmed=(confirmed[0], confirmed[1]))


def _roll_node(state: ToyState, step: RollDash) -> Chance:
    return Chance(d(6).map(lambda face: face >= step.squares), "dash roll")


def _rolled(state: ToyState, step: RollDash, made_it: bool, out: list[Event]) -> ToyState:
    out.append(Dashed(side=state.sides[step.side], squares=step.squares, made_it=made_it))
    if not made_it:
        return state
    position = list(state.position)
    position[step.side] += step.squares
    return replace(state, position=(position[0], position[1]))


MACHINE: StepMachine[ToyState] = StepMachine(
    {
        ChooseDash: StepRule(_dash, _dash_node),
        ConfirmStep: StepRule(_confirm, lambda s, step: Decision(s.sides[step.side], "confirm", (Confirm(),))),
        RollDash: StepRule(_rolled, _roll_node),
    },
    with_pending=lambda state, pending: replace(state, pending=pending),
    result=_result,
    refill=_refill,
)


class FirstOption:
    def decide(self, state: Any, decision: Decision) -> Any:
        return decision.options[0]


class ToyGame:
    """The toy race as a kessen Game."""

    ruleset = "toy"

    def start(self, state: ToyState) -> tuple[ToyState, tuple[Event, ...]]:
        return MACHINE.start(state)

    def node(self, state: ToyState) -> Node:
        return MACHINE.node(state)

    def apply(self, state: ToyState, choice: Any) -> tuple[ToyState, tuple[Event, ...]]:
        return MACHINE.apply(state, choice)

    def notation(self, state: ToyState, decision: Decision, choice: Any) -> str:
        return "confirm" if isinstance(choice, Confirm) else f"dash {choice.squares}"

    def parse(self, state: ToyState, decision: Decision, text: str) -> Any:
        found = find_suggested(decision.options, lambda o: self.notation(state, decision, o), text)
        if found is not None:
            return found
        parts = words(text)
        if decision.kind == "dash" and len(parts) == 2 and parts[0] == "dash" and parts[1].isdigit():
            squares = int(parts[1])
            if not 1 <= squares <= 6:
                raise IllegalChoice("TOY-1", f"a dash is 1 to 6 squares (got {squares})")
            return Dash(squares)
        raise unknown(text, (self.notation(state, decision, o) for o in decision.options))

    def odds(self, state: ToyState, decision: Decision, choice: Any) -> dict[str, Fraction] | None:
        if not isinstance(choice, Dash):
            return None
        return {"made_it": Fraction(max(0, 7 - choice.squares), 6)}

    def describe(self, state: ToyState, option: Any, lang: str) -> str:
        return self.notation(state, Decision("", "", (option,)), option)

    def prompt(self, state: ToyState, decision: Decision, lang: str) -> str:
        return f"{decision.player}: {decision.kind}"

    def load_scenario(self, text: str, source: str) -> ToyState:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            raise InputError(source, InputError.NOTHING, "not valid JSON") from None
        sides = data.get("sides") if isinstance(data, dict) else None
        if not (isinstance(sides, list) and len(sides) == 2 and all(isinstance(s, str) for s in sides)):
            raise InputError(f"{source}: sides", sides, "must be two side names")
        return ToyState((sides[0], sides[1]))

    def sides(self, state: ToyState) -> tuple[str, ...]:
        return state.sides

    def ai(self, side: str) -> FirstOption:
        return FirstOption()

    def narrate(self, event: Event, lang: str) -> str:
        return json.dumps(event.to_json_dict())

    def show(self, state: ToyState, lang: str) -> str:
        return f"{state.sides[0]} {state.position[0]}, {state.sides[1]} {state.position[1]}"

    def board(self, state: ToyState) -> Board:
        return {
            "ruleset": "toy", "units": "square", "width": GOAL + 1, "height": 2, "sides": list(state.sides), "terrain": [],
            "models": [
                {"id": f"racer-{i}", "name": side, "side": side, "x": state.position[i], "y": i, "base": None, "footprint": [1, 1],
                 "wounds": None, "wounds_max": None, "status": [], "group": None}
                for i, side in enumerate(state.sides)
            ],
        }


TOY = Ruleset(id="toy", title="A toy race", prefix="TOY", procedures={}, game=ToyGame())
SCENARIO = '{"sides": ["Red", "Blue"]}'
