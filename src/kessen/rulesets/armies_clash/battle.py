"""The armies-clash game as the engine drives it: scenario loading, nodes, apply, AI, narration, the board."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import narrate
from kessen.rulesets.armies_clash import game as g
from kessen.rulesets.armies_clash.ai import AcAI, expected_damage
from kessen.rulesets.armies_clash.board import render_board
from kessen.rulesets.armies_clash.movement import Destination
from kessen.rulesets.armies_clash.options import (
    Activate,
    ActivateSolo,
    AttackWith,
    Award,
    Benefit,
    Cast,
    CastArea,
    Declare,
    Done,
    JoinStand,
    Leave,
    NoAction,
    NoShift,
    PassOn,
    PlaceAt,
    Rally,
    Shift,
    Stay,
    Support,
    Switch,
)
from kessen.rulesets.armies_clash.referee.setup import initial_state
from kessen.rulesets.armies_clash.referee.state import SIDES, AcState
from kessen.rulesets.armies_clash.scenario import load_scenario

RULESET_ID = "armies-clash"


def load_state(text: str, source: str) -> AcState:
    """The settled initial state of a scenario file's text."""
    return g.settle(initial_state(load_scenario(text, source)), [])


class AcGame:
    """armies-clash for the engine (kessen.core.engine.Game)."""

    ruleset = RULESET_ID

    def node(self, state: AcState) -> Node:
        return g.node(state)

    def apply(self, state: AcState, choice: Any) -> tuple[AcState, tuple[Event, ...]]:
        return g.apply(state, choice)

    def load_scenario(self, text: str, source: str) -> AcState:
        return load_state(text, source)

    def sides(self, state: AcState) -> tuple[str, ...]:
        return SIDES

    def ai(self, side: str) -> AcAI:
        return AcAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return narrate(RULESET_ID, event, lang)

    def show(self, state: AcState, lang: str) -> str:
        return render_board(state, lang)

    def describe(self, state: AcState, option: Any, lang: str) -> str:  # noqa: C901
        """An option in words; an attack shows its exact expected damage."""
        if isinstance(option, AttackWith):
            piece = state.turn.piece if state.turn else ""
            mean = expected_damage(state, piece, option)
            return f"attack {option.target} with {option.using}  [expected damage {float(mean):.2f}]"
        if isinstance(option, Destination):
            road = " +road step" if option.road else ""
            what = {"move": "move to", "flee": "flee off the grid at", "join": f"join {option.stand} at"}[option.kind]
            return f"{what} ({option.x}, {option.y}), cost {option.cost}{road}"
        simple: dict[type, str] = {
            Stay: "stay", NoAction: "no action", Done: "no more targets", NoShift: "leave the gap",
        }
        if type(option) in simple:
            return simple[type(option)]
        if isinstance(option, Declare):
            return f"{option.action} {option.formation}".strip()
        if isinstance(option, Activate):
            return f"activate {option.stand}"
        if isinstance(option, ActivateSolo):
            return f"{option.solo} takes its turn"
        if isinstance(option, Support):
            return f"support {option.stand}"
        if isinstance(option, Cast):
            return f"cast {option.spell} at {option.target}"
        if isinstance(option, CastArea):
            facing = f" facing ({option.dx}, {option.dy})" if option.dx or option.dy else ""
            return f"cast {option.spell} at ({option.x}, {option.y}){facing}{' mirrored' if option.mirrored else ''}"
        if isinstance(option, Rally):
            return "rally" if option.rally else "do not rally"
        if isinstance(option, Benefit):
            return option.name
        if isinstance(option, Leave):
            return f"leave the stand to ({option.x}, {option.y})"
        if isinstance(option, Switch):
            return f"switch to {option.stand}"
        if isinstance(option, PassOn):
            return f"overflow into {option.stand}"
        if isinstance(option, Shift):
            return f"shift {option.stand} by ({option.dx}, {option.dy})"
        if isinstance(option, JoinStand):
            return f"join {option.stand}"
        if isinstance(option, PlaceAt):
            return f"place at ({option.x}, {option.y})"
        if isinstance(option, Award):
            return "award" if option.award else "not met"
        return repr(option)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
