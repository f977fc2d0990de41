"""Builders for armies-clash engine tests: small battles written as Python data, with a fixed turn order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kessen.io.validation import validate_data
from kessen.rulesets import get_ruleset
from kessen.rulesets.armies_clash.referee import machine as g
from kessen.rulesets.armies_clash.referee.setup import initial_state
from kessen.rulesets.armies_clash.referee.state import AcState, Turn, replace_solo, replace_stand, replace_unit
from kessen.rulesets.armies_clash.referee.steps import InitRoll, Pending, PieceMove, TieBreak
from kessen.rulesets.armies_clash.scenario import Scenario
from tests.engine_support import apply_checked

GAME = get_ruleset("armies-clash").game

ABILITIES = {"str": 1, "dex": 1, "con": 1, "int": 0, "wis": 0, "cha": -1}

HOB: dict[str, Any] = {
    "id": "hob", "size": "medium", "ac": 18, "hp": 11, "speed_ft": 30, "abilities": ABILITIES,
    "attacks": [
        {"id": "longsword", "kind": "melee", "attack_bonus": 3, "damage": "1d8+1"},
        {"id": "shortbow", "kind": "ranged", "attack_bonus": 3, "damage": "1d6+1", "range_ft": 80, "long_range_ft": 320},
    ],
}
OGRE: dict[str, Any] = {
    "id": "ogre", "size": "large", "ac": 11, "hp": 59, "speed_ft": 40, "abilities": {**ABILITIES, "dex": -1},
    "attacks": [{"id": "greatclub", "kind": "melee", "attack_bonus": 6, "damage": "2d8+4"}],
}
ORC: dict[str, Any] = {
    "id": "orc", "size": "medium", "ac": 13, "hp": 15, "speed_ft": 30, "abilities": ABILITIES,
    "attacks": [{"id": "greataxe", "kind": "melee", "attack_bonus": 5, "damage": "1d12+3"}],
}


def creature(ident: str, **changes: Any) -> dict[str, Any]:
    """A copy of the Hob statistics under another id, with changes."""
    return {**HOB, "id": ident, **changes}


def scenario(
    *,
    stands: list[tuple[str, str, str, tuple[int, int]]],
    units: list[dict[str, Any]],
    creatures: list[dict[str, Any]] | None = None,
    solos: list[dict[str, Any]] = (),  # type: ignore[assignment]
    terrain: list[dict[str, Any]] = (),  # type: ignore[assignment]
    objectives: list[dict[str, Any]] = (),  # type: ignore[assignment]
    width: int = 20,
    height: int = 20,
    **options: Any,
) -> Scenario:
    """A validated scenario; ``stands`` are (id, unit, creature, (x, y))."""
    data = {
        "name": "test",
        "grid": {"width": width, "height": height, "terrain": list(terrain)},
        "creatures": creatures or [HOB, OGRE, ORC],
        "units": units,
        "stands": [{"id": i, "unit": u, "creature": c, "at": list(at)} for i, u, c, at in stands],
        "solos": list(solos),
        "objectives": list(objectives),
        **options,
    }
    return validate_data(Scenario, data)


def unit(ident: str, side: str = "a", kind: str = "regiment", formation: str | None = "march", **extra: Any) -> dict[str, Any]:
    out = {"id": ident, "side": side, "type": kind, **extra}
    if kind == "regiment":
        out["formation"] = formation
    return out


def start(s: Scenario, order: list[str] | None = None) -> AcState:
    """The battle after initiative: rolls forced so that the turn order is *order* (default: scenario order of
    units, then solos)."""
    state = g.MACHINE.settle(initial_state(s), [])
    order = order or [u.id for u in s.units] + [x.id for x in s.solos]
    totals: dict[str, int] = {}
    previous = 40
    mods = {}
    for who in order:
        solo = state.solo(who)
        if solo is not None:
            mods[who] = state.creature(solo.creature).abilities.dex
        else:
            stands = state.unit_stands(who)
            ids = {x.id for x in stands}
            dexes = [state.creature(x.creature).abilities.dex for x in stands]
            dexes += [state.creature(x.creature).abilities.dex for x in state.solos if x.joined_to in ids]
            mods[who] = min(dexes) if state.unit(who).type == "regiment" else max(dexes)
    for who in order:
        roll = max(1, min(20, previous - 1 - mods[who]))
        totals[who] = roll
        previous = roll + mods[who]
    while state.pending and isinstance(state.pending[0], InitRoll):
        state, _ = g.MACHINE.apply(state, totals[state.pending[0].who])
    while state.pending and isinstance(state.pending[0], TieBreak):
        group = state.pending[0].group
        state, _ = g.MACHINE.apply(state, tuple(sorted(group, key=order.index)))
    assert list(state.order) == order, state.order
    return state


def with_stand(state: AcState, ident: str, **changes: Any) -> AcState:
    stand = state.stand(ident)
    assert stand is not None
    return replace_stand(state, replace(stand, **changes))


def with_unit(state: AcState, ident: str, **changes: Any) -> AcState:
    return replace_unit(state, replace(state.unit(ident), **changes))


def with_solo(state: AcState, ident: str, **changes: Any) -> AcState:
    solo = state.solo(ident)
    assert solo is not None
    return replace_solo(state, replace(solo, **changes))


def choose(state: AcState, option: Any) -> AcState:
    """The state after a decision's choice, checked legal at the node (``apply_checked``)."""
    return apply_checked(GAME, state, option)[0]


def roll(state: AcState, outcome: Any) -> AcState:
    """The state after a chance outcome, checked possible at the node (``apply_checked``)."""
    return apply_checked(GAME, state, outcome)[0]


def at(state: AcState, turn: Turn, step: Pending) -> AcState:
    """*state* in *turn*, standing at the turn step *step* (nothing else pending)."""
    return replace(state, turn=turn, pending=(step,))


def at_step(state: AcState, step: Pending, **changes: Any) -> AcState:
    """*state*'s turn (with *changes*) standing at the turn step *step* instead."""
    assert state.turn is not None
    return at(state, replace(state.turn, **changes), step)


def at_piece(state: AcState, actor: str, stand: str, action: str = "attack") -> AcState:
    """Put the battle in *actor*'s turn with *stand* activated and about to make its first move."""
    s = state.stand(stand)
    assert s is not None
    unit_ = state.unit(s.unit)
    from kessen.rulesets.armies_clash.rules.movement import movement_budget, speed_squares

    speed = speed_squares(state.creature(s.creature).speed_ft)
    budget = movement_budget(speed, formation=unit_.formation if unit_.type == "regiment" else None, dash=action == "dash")  # type: ignore[arg-type]
    turn = Turn(actor, False, action=action, formation=unit_.formation, done=frozenset({stand}), piece=stand, budget=budget)
    return at(state, turn, PieceMove())
