"""Notation: every choice as a short stable text a person types and the referee parses back (docs/scenarios/
song-of-blades.md has the table of forms). Coordinates are millimetres, written exactly by ``core.notation`` (the
point a suggested move's or recoil's notation names is the point applied, issue 22 §1); a point a person types is
taken as written.

    activation     activate k1 3 · end turn
    action         attack orc-2 · power blow orc-2 · move k1 to 312,440 · stand up · break free · end activation
    recoil         recoil to 290,455
    recoil hacker  hacker orc-1          hack order   hacker orc-1
    follow-up      follow up · stay

A move goes to any point the rules allow and a recoil to any legal spot (free decisions); every other choice is
one of the suggested options. Anything else is refused with the rule it breaks; a refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.geometry import Point
from kessen.core.notation import exact_point, normalise, parse_point, suggested_tables, unknown, words
from kessen.rulesets.song_of_blades.referee import state as st
from kessen.rulesets.song_of_blades.referee import steps as sp
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, RecoilOption
from kessen.rulesets.song_of_blades.referee.moves import free_move
from kessen.rulesets.song_of_blades.referee.options import (
    Activate,
    Attack,
    BreakFree,
    EndActivation,
    EndTurn,
    FollowUp,
    Hacker,
    Move,
    StandUp,
)
from kessen.rulesets.song_of_blades.referee.recoiling import recoil_spot
from kessen.rulesets.song_of_blades.referee.state import SobState
from kessen.rulesets.song_of_blades.rules.priority import may_target

_FIXED = {EndTurn: "end turn", EndActivation: "end activation", StandUp: "stand up", BreakFree: "break free"}


def notation(decision: Decision, choice: Any, at: Callable[[float, float], str] = exact_point) -> str:
    """The notation of a choice at *decision* (a move names the model that moves: the decision's actor), its points
    written by *at*."""
    fixed = _FIXED.get(type(choice))
    if fixed is not None:
        return fixed
    if isinstance(choice, Activate):
        return f"activate {choice.model} {choice.dice}"
    if isinstance(choice, Attack):
        return f"{'power blow' if choice.power_blow else 'attack'} {choice.target}"
    if isinstance(choice, Move):
        return f"move {decision.actor} to {at(choice.x, choice.y)}"
    if isinstance(choice, RecoilOption):
        return f"recoil to {at(choice.x, choice.y)}"
    if isinstance(choice, Hacker):
        return f"hacker {choice.model}"
    if isinstance(choice, FollowUp):
        return "follow up" if choice.follow else "stay"
    raise TypeError(f"no notation for {choice!r}")


def parse(state: SobState, decision: Decision, text: str) -> Any:
    """The choice *text* names at *decision*: a suggested option, a move to any point the rules allow, a recoil to
    any legal spot; else IllegalChoice with the rule and the reason.

    [DECISION] A suggested move or recoil is also found by its notation as kessen wrote it before points were written
    exactly (to 0.001 mm, issue 22 §1), before the text is read as a free choice: a save of then replays the very
    choice it recorded."""
    exact, rounded = suggested_tables(decision, notation)
    wanted = normalise(text)
    found = exact.get(wanted)
    if found is None:
        found = rounded.get(wanted)
    if found is not None:
        return found
    said = words(text)
    if decision.kind == "move":
        move = _action(state, decision, said)
        if move is not None:
            return move
    elif decision.kind == "recoil" and said[:2] == ["recoil", "to"] and len(said) == 3:
        step = state.pending[0]
        assert isinstance(step, sp.ChooseRecoil)
        x, y = _point(said[2])
        return recoil_spot(state.figures, state.table, state.get(step.loser), state.get(step.winner), Point(x, y))
    elif decision.kind == "activation" and len(said) == 3 and said[0] == "activate":
        _activation(state, decision, said[1], said[2])
    elif decision.kind in ("hack order", "recoil hacker") and len(said) == 2 and said[0] == "hacker":
        rule, whom = ("SB-DIS-5", "still to hack") if decision.kind == "hack order" else ("SB-RECOIL-3", "newly touched by")
        raise IllegalChoice(rule, f"{said[1]} is not one of the enemies {whom} {decision.actor}")
    raise unknown(text, (notation(decision, o) for o in decision.options))


def _point(token: str) -> tuple[float, float]:
    """A point of notation, taken as written (notation writes it back exactly)."""
    return parse_point(token)


def _action(state: SobState, decision: Decision, said: list[str]) -> Move | None:
    """The move to any legal point *said* names; any other action it names that is not suggested is refused with
    its reason; None when it names no action."""
    act = state.current
    assert act is not None
    f = state.get(decision.actor)
    if len(said) == 4 and said[0] == "move" and said[2] == "to":
        if said[1] != f.id:
            raise IllegalChoice("SB-ACT-1", f"{f.id} is the model activated now, not {said[1]}")
        x, y = _point(said[3])
        return free_move(state, f, Point(x, y))
    blow = said[:2] == ["power", "blow"]
    if (said[:1] == ["attack"] and len(said) == 2) or (blow and len(said) == 3):
        _refuse_attack(state, f, said[-1], act.actions, act.attacked, power_blow=blow)
    if said == ["stand", "up"]:
        raise IllegalChoice("SB-DOWN-2", f"{f.id} is not fallen")
    if said == ["break", "free"]:
        if f.state != "transfixed":
            raise IllegalChoice("SB-DOWN-7", f"{f.id} is not transfixed")
        raise IllegalChoice("SB-DOWN-7", f"breaking free costs 2 actions ({act.actions} left)")
    return None


def _refuse_attack(state: SobState, f: Figure, target: str, actions: int, attacked: bool, *, power_blow: bool) -> None:
    """Why an attack that is not suggested may not be made (SB-MELEE-1, SB-ACTION-2, SB-MOD-2, SB-PRIO-1, SB-DOWN-7)."""
    enemy = state.figure(target)
    if enemy is None:
        raise IllegalChoice("SB-MELEE-1", f"there is no model {target} on the table")
    if enemy.side == f.side:
        raise IllegalChoice("SB-MELEE-1", f"{target} is a friend of {f.id}")
    if f.state == "transfixed":
        raise IllegalChoice("SB-DOWN-7", f"{f.id} is transfixed and cannot attack")
    contacts = state.here.contacts(f)
    if enemy not in contacts:
        raise IllegalChoice("SB-MELEE-1", f"{target} is not in base contact with {f.id}")
    if attacked:
        raise IllegalChoice("SB-ACTION-2", f"{f.id} has made its attack this activation")
    if power_blow and actions < 2:
        raise IllegalChoice("SB-MOD-2", f"a power blow costs 2 actions ({actions} left)")
    allowed = may_target([e.state for e in contacts], [e.points for e in contacts], melee_priority=state.melee_priority,
                         special_rules=frozenset(f.special_rules))
    if not allowed[contacts.index(enemy)]:
        raise IllegalChoice("SB-PRIO-1", f"{target} is fallen: {f.id} attacks a standing enemy first (melee priority)")


def _activation(state: SobState, decision: Decision, model: str, dice: str) -> None:
    """Why an activation that is not suggested may not be made (SB-ACT-1, SB-ACT-3, SB-TURN-1)."""
    f = state.figure(model)
    if f is None or f.side != decision.player:
        raise IllegalChoice("SB-TURN-1", f"{model} is not a model of {decision.player} on the table")
    if model in state.turn.activated:
        raise IllegalChoice("SB-ACT-3", f"{model} has been activated this turn")
    raise IllegalChoice("SB-ACT-1", f"a model activates with 1, 2 or 3 dice (got {dice!r})")

