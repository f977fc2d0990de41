"""Notation: every choice as a short stable text a person types and the referee parses back (the table of forms is
in docs/scenarios/battlehost.md). Coordinates are inches, written exactly by ``core.notation`` (the point a
suggested move's notation names is the point it moves to, issue 22 §1); a point a person types is taken as written.

    move         move Captain to 12.5,30 · charge Captain at Orc 2 to 14,31.2 · stand Guard 1 ·
                 stand Guard 1 and move to 10,8 · stand Guard 1 and charge at Orc 2 to 11,9 · end moves
    shoot        shoot Archer 1 at Orc 3 · end shooting
    split        split Captain vs Orc 1, Orc 2 / Guard 1 vs Orc 3
    fight        fight Captain vs Orc 1, Orc 2
    two-handed   use two-handed · no two-handed
    might        might 1            might on roll   might 0
    stand up     stand up · stay prone
    back away    back away Orc 1
    make way     make way · no make way
    striker      striker Guard 1
    strike       strike Orc 2

Model ids are written as the scenario gives them (they may hold spaces). A move is a free decision: any model of
the moving side may go to any point the rules allow (referee/moves.py says why one is refused); every other choice
is one of the suggested options. Anything else is refused, naming the rule it breaks; a refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.notation import exact_point, normalise, suggested_tables, unknown
from kessen.rulesets.battlehost.referee import options as op
from kessen.rulesets.battlehost.referee.moves import free_move
from kessen.rulesets.battlehost.referee.pairing import Fight
from kessen.rulesets.battlehost.referee.state import BhState
from kessen.rulesets.battlehost.rules.sides import side_named

_FIXED: dict[type, str] = {op.EndMoves: "end moves", op.EndShooting: "end shooting"}
SHOWN = 8  # the choices a refusal lists


def _fight(f: Fight) -> str:
    return f"{', '.join(f.good)} vs {', '.join(f.evil)}"


def notation(choice: Any, at: Callable[[float, float], str] = exact_point) -> str:
    """The notation of a choice (the forms of the module docstring), its points written by *at*."""
    fixed = _FIXED.get(type(choice))
    if fixed is not None:
        return fixed
    if isinstance(choice, op.MoveTo):
        to = at(choice.x, choice.y)
        if choice.stand_up:
            return f"stand {choice.model} and " + (f"charge at {choice.charge} to {to}" if choice.charge else f"move to {to}")
        return f"charge {choice.model} at {choice.charge} to {to}" if choice.charge else f"move {choice.model} to {to}"
    if isinstance(choice, op.StandUp):
        return f"stand {choice.model}"
    if isinstance(choice, op.ShootAt):
        return f"shoot {choice.model} at {choice.target}"
    if isinstance(choice, op.ChooseSplit):
        return "split " + " / ".join(_fight(f) for f in choice.fights)
    if isinstance(choice, op.ChooseFight):
        return "fight " + _fight(choice.fight)
    if isinstance(choice, op.UseTwoHanded):
        return "use two-handed" if choice.use else "no two-handed"
    if isinstance(choice, op.SpendMight | op.MightOnRoll):
        return f"might {choice.points}"
    if isinstance(choice, op.NextLoser):
        return f"back away {choice.model}"
    if isinstance(choice, op.MakeWayChoice):
        return "make way" if choice.make_way else "no make way"
    if isinstance(choice, op.NextStriker):
        return f"striker {choice.model}"
    if isinstance(choice, op.StrikeAt):
        return f"strike {choice.target}"
    raise TypeError(f"not a battlehost choice: {choice!r}")


def decision_notation(decision: Decision, choice: Any, at: Callable[[float, float], str] = exact_point) -> str:
    """The notation of *choice* at *decision*: a prone model's standing up when its side won the duel is
    ``stand up`` or ``stay prone`` (the model is the decision's actor), in the Move phase ``stand <model>``."""
    if decision.kind == "stand up" and isinstance(choice, op.StandUp):
        return "stand up" if choice.stand else "stay prone"
    return notation(choice, at)


def parse(state: BhState, decision: Decision, text: str) -> Any:
    """The choice *text* names at *decision*: a suggested option, or at a move any move the rules allow; else
    IllegalChoice with the rule and the reason.

    [DECISION] A suggested move is also found by its notation as kessen wrote it before points were written
    exactly (to 0.001", issue 22 §1), before the text is read as a free move: a save of then replays the very move
    it recorded."""
    exact, rounded = suggested_tables(decision, decision_notation)
    said = normalise(text)
    found = exact.get(said)
    if found is None:
        found = rounded.get(said)
    if found is not None:
        return found
    if decision.kind == "move":
        move = free_move(state, side_named(decision.player), said)
        if move is not None:
            return move
    form = _FORMS.get(decision.kind)
    if form is not None and said.startswith(form[0]):
        shown = [decision_notation(decision, o) for o in decision.options[:SHOWN]]
        more = f" and {len(decision.options) - SHOWN} more" if len(decision.options) > SHOWN else ""
        raise IllegalChoice(form[1], f"{form[2]}: {said!r} is not one of them (the choices: {'; '.join(shown)}{more})")
    raise unknown(text, (decision_notation(decision, o) for o in decision.options))


_FORMS: dict[str, tuple[str, str, str]] = {
    "shoot": ("shoot ", "BH-SHOOT-1", "a model that may shoot, at a target in range and in sight, hidden by no model"),
    "split": ("split ", "BH-FIGHT-1", "a split into as many fights as the touching models allow"),
    "fight": ("fight ", "BH-FIGHT-2", "one of the fights not yet resolved"),
    "might": ("might ", "BH-DUEL-6", "Might points the side's Heroes have, up to what can still raise the best die"),
    "might on roll": ("might ", "BH-DICE-4", "Might points the Hero has, up to what can still make the die succeed"),
    "back away": ("back away ", "BH-BACK-8", "one of the losers still to back away"),
    "striker": ("striker ", "BH-STRIKE-7", "one of the winners still to strike"),
    "strike": ("strike ", "BH-STRIKE-8", "an enemy the striker may strike"),
}
"""The rule behind each decision's list of choices, when a text of its form names none of them."""
