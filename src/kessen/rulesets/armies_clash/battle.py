"""The armies-clash game as the engine drives it: scenario loading, nodes, apply, AI, narration, the board."""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Node
from kessen.core.events import Event
from kessen.i18n import catalogue, narrate, option_text, option_word
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

    def start(self, state: AcState) -> tuple[AcState, tuple[Event, ...]]:
        """The initial state, settled already by the scenario loader; the first events come with the first step."""
        return state, ()

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

    def describe(self, state: AcState, option: Any, lang: str) -> str:
        """An option in the words of the *lang* catalogue; an attack shows its exact expected damage."""
        if isinstance(option, AttackWith):
            piece = state.turn.piece if state.turn else ""
            mean = expected_damage(state, piece, option)
            return _say(lang, "attack", target=option.target, using=option.using, damage=f"{float(mean):.2f}")
        if isinstance(option, Destination):
            road = _say(lang, "road") if option.road else ""
            return _say(lang, f"destination_{option.kind}", stand=option.stand, x=option.x, y=option.y, cost=option.cost, road=road)
        simple: dict[type, str] = {Stay: "stay", NoAction: "no_action", Done: "done", NoShift: "no_shift"}
        if type(option) in simple:
            return _say(lang, simple[type(option)])
        if isinstance(option, Declare):
            if option.formation:
                return _say(lang, "declare_formation", action=_word(lang, option.action), formation=_word(lang, option.formation))
            return _say(lang, "declare", action=_word(lang, option.action))
        if isinstance(option, Activate):
            return _say(lang, "activate", stand=option.stand)
        if isinstance(option, ActivateSolo):
            return _say(lang, "activate_solo", solo=option.solo)
        if isinstance(option, Support):
            return _say(lang, "support", stand=option.stand)
        if isinstance(option, Cast):
            return _say(lang, "cast", spell=option.spell, target=option.target)
        if isinstance(option, CastArea):
            facing = _say(lang, "facing", dx=option.dx, dy=option.dy) if option.dx or option.dy else ""
            mirrored = _say(lang, "mirrored") if option.mirrored else ""
            return _say(lang, "cast_area", spell=option.spell, x=option.x, y=option.y, facing=facing, mirrored=mirrored)
        if isinstance(option, Rally):
            return _say(lang, "rally" if option.rally else "no_rally")
        if isinstance(option, Benefit):
            return _say(lang, "benefit", benefit=_word(lang, option.name))
        if isinstance(option, Leave):
            return _say(lang, "leave", x=option.x, y=option.y)
        if isinstance(option, Switch):
            return _say(lang, "switch", stand=option.stand)
        if isinstance(option, PassOn):
            return _say(lang, "pass_on", stand=option.stand)
        if isinstance(option, Shift):
            return _say(lang, "shift", stand=option.stand, dx=option.dx, dy=option.dy)
        if isinstance(option, JoinStand):
            return _say(lang, "join_stand", stand=option.stand)
        if isinstance(option, PlaceAt):
            return _say(lang, "place_at", x=option.x, y=option.y)
        if isinstance(option, Award):
            return _say(lang, "award" if option.award else "not_met")
        return repr(option)


def _say(lang: str, key: str, **fields: object) -> str:
    return option_text(RULESET_ID, lang, key, **fields)


def _word(lang: str, word: str) -> str:
    return option_word(RULESET_ID, lang, word)
