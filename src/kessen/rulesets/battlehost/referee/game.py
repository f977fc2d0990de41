"""Whole battles as a state machine: what the next node is, the pure transition, the steps that settle
themselves, and the battlehost Game the engine drives.

The state is frozen (state.py); ``node`` says what comes next and ``apply`` is pure. Chance nodes carry
the distributions of the ruleset's own rules (a shot, strikes, the duel's best scores); every choice the
rules leave to a player is a Decision whose first option is the default policy's. Steps that need neither
dice nor a player are resolved inside ``apply`` (``_settle``). The phases themselves live in turns.py,
moves.py, shooting.py, fight.py (with duel.py, backing_away.py and strikes.py) and might.py.
"""

from __future__ import annotations

from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.dice import Dist
from kessen.rulesets.battlehost import text
from kessen.rulesets.battlehost.ai import BattlehostAI
from kessen.rulesets.battlehost.referee.fight import (
    apply_fight,
    choose_fight,
    choose_split,
    fight_node,
    fightable,
    settle_fight,
)
from kessen.rulesets.battlehost.referee.might import apply_hero_die, hero_die_node
from kessen.rulesets.battlehost.referee.moves import apply_move, move_options, next_mover
from kessen.rulesets.battlehost.referee.options import ChooseFight, ChooseSplit, EndShooting
from kessen.rulesets.battlehost.referee.setup import initial_state
from kessen.rulesets.battlehost.referee.shooting import apply_shoot, shoot_options, shot_dist, shot_result
from kessen.rulesets.battlehost.referee.state import BhState
from kessen.rulesets.battlehost.referee.turns import GivenPriority, apply_priority, end_battle, end_turn, priority_dist, summary, winner
from kessen.rulesets.battlehost.rules.sides import SIDES
from kessen.rulesets.battlehost.scenario import load_scenario

RULESET_ID = "battlehost"


def node(state: BhState) -> Node:
    """The next node: the battle's end, a roll, or a player's choice."""
    if state.ended:
        return Terminal(winner(state), summary(state))
    if state.hero_die is not None:
        return hero_die_node(state, state.hero_die)
    if state.phase == "priority":
        if state.turn == 0 and state.first_priority is not None:
            return Chance(Dist.always(GivenPriority(state.first_priority)), "priority given")
        return Chance(priority_dist(first_turn=state.turn == 0), "priority roll")
    if state.phase == "move":
        return Decision(state.acting or "", "move", move_options(state))
    if state.phase == "shoot":
        if state.shooting is not None:
            return Chance(shot_dist(state, state.shooting), "shot")
        return Decision(state.acting or "", "shoot", shoot_options(state))
    assert state.phase == "fight"
    if state.split_groups:
        return Decision(state.priority or "", "split", tuple(ChooseSplit(s) for s in state.split_groups[0].choices))
    if state.fighting is None:
        return Decision(state.picker or "", "fight", tuple(ChooseFight(f) for f in fightable(state)))
    return fight_node(state, state.fighting)


def apply(state: BhState, choice: Any) -> tuple[BhState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = []
    if state.hero_die is not None:
        state = apply_hero_die(state, state.hero_die, choice, out)
    elif state.phase == "priority":
        state = apply_priority(state, choice, out)
    elif state.phase == "move":
        state = apply_move(state, choice, out)
    elif state.phase == "shoot":
        state = shot_result(state, choice, out) if state.shooting is not None else apply_shoot(state, choice, out)
    elif state.split_groups:
        state = choose_split(state, choice)
    elif state.fighting is None:
        state = choose_fight(state, choice, out)
    else:
        state = apply_fight(state, state.fighting, choice, out)
    return _settle(state, out), tuple(out)


def _settle(state: BhState, out: list[Event]) -> BhState:
    """Resolve what needs no dice and no player: fixed priority, empty choices, the end of a phase, the battle (BH-TURN-*)."""
    while not state.ended:
        if state.turn > 0 and any(not state.side_models(s) for s in SIDES):
            return end_battle(state, out)  # BH-TURN-3: a side with no models left loses at once
        if state.hero_die is not None:
            return state
        if state.phase == "move" and len(move_options(state)) == 1:
            state = next_mover(state, out)
            continue
        if state.phase == "shoot" and state.shooting is None and len(shoot_options(state)) == 1:
            state = apply_shoot(state, EndShooting(), out)
            continue
        if state.phase == "fight" and not state.split_groups:
            f = state.fighting
            if f is None:
                left = fightable(state)
                if not left:
                    state = end_turn(state, out)
                    continue
                if len(left) == 1:
                    state = choose_fight(state, ChooseFight(left[0]), out)
                    continue
                return state
            state, moved_on = settle_fight(state, f, out)
            if moved_on:
                continue
        return state
    return state


class BattlehostGame:
    """battlehost for the engine (kessen.core.engine.Game): scenario loading, nodes, apply, AI, narration."""

    ruleset = RULESET_ID

    def start(self, state: BhState) -> tuple[BhState, tuple[Event, ...]]:
        """The initial state, settled already by the scenario loader; the first events come with the first step."""
        return state, ()

    def node(self, state: BhState) -> Node:
        return node(state)

    def apply(self, state: BhState, choice: Any) -> tuple[BhState, tuple[Event, ...]]:
        return apply(state, choice)

    def load_scenario(self, text: str, source: str) -> BhState:
        return initial_state(load_scenario(text, source))

    def sides(self, state: BhState) -> tuple[str, ...]:
        return SIDES

    def ai(self, side: str) -> BattlehostAI:
        return BattlehostAI(side)

    def narrate(self, event: Event, lang: str) -> str:
        return text.narrate(event, lang)

    def describe(self, state: BhState, option: Any, lang: str) -> str:
        return text.describe(state, option, lang)

    def show(self, state: BhState, lang: str) -> str:
        return text.show(state, node(state), lang)
