"""Notation: every choice of every decision as a short stable text a person types, and back (issue 10 §2).

Squares are written ``x,y`` (whole squares, ``x`` east, ``y`` south, §3); ids are the scenario's names; directions
are ``north``, ``east``, ``south``, ``west``. The forms, by decision kind (docs/scenarios/armies-clash.md has the
table with examples)::

    rally            rally | no rally
    benefit, bonus   incite | prepare | command | resign | no bonus
    action,          attack | cast | dash | hide | join | retreat | no action | configure <formation>
    piece_action
    activate         activate <stand or joined solo>
    move             move <piece> to <x,y> | move <solo> to <x,y> joining <stand> | stay
    joined_move      stay | switch to <stand> | leave to <x,y>
    act              attack <target> with <attack or multiattack> | support <stand> | cast <spell> at <target>
                     | cast <spell> at <x,y> [<direction> [mirrored]] | dash | hide | no action
    spell_targets    cast <spell> at <target> | done
    overflow         overflow into <stand>
    place_solo       place at <x,y> | join <stand>
    shift            shift <stand> to <x,y> | no shift
    push             push <piece> to <x,y>
    custom_objective award | no award

A move names the square its piece's footprint is anchored at when it ends (its north-west square); a square off the
grid is a flight (AC-MOVE-5); a push names the square the pushed piece's footprint is anchored at when it
ends, its own square for no push at all (AC-MOVE-8). An area names its origin square (AC-AOE-2) and, for a cone or a line, the direction
it goes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kessen.core.engine import Decision
from kessen.core.errors import IllegalChoice
from kessen.core.notation import unknown, words
from kessen.core.records import record
from kessen.rulesets.armies_clash.referee import options as opt
from kessen.rulesets.armies_clash.referee.attack import attack_refusal
from kessen.rulesets.armies_clash.referee.movement import move_options, move_refusal, push_ends_of, push_refusal
from kessen.rulesets.armies_clash.referee.pieces import spell_of, stats
from kessen.rulesets.armies_clash.referee.regiment_moves import regiment_refusal
from kessen.rulesets.armies_clash.referee.spells import cast_refusal
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.referee.steps import ForcedMove, MoreTargets
from kessen.rulesets.armies_clash.rules.grid import DIRECTION_NAMES, Direction
from kessen.rulesets.armies_clash.rules.movement import Destination
from kessen.rulesets.armies_clash.scenario import SpellRecord

DIRECTIONS_BY_NAME: dict[str, Direction] = {name: d for d, name in DIRECTION_NAMES.items()}
FORMATIONS = ("support", "march", "defensive")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_SQUARE = re.compile(r"^(-?\d{1,4}),(-?\d{1,4})$")


def square(x: int, y: int) -> str:
    """A square as notation writes it.

    >>> square(7, 3)
    '7,3'
    """
    return f"{x},{y}"


def notation(state: AcState, decision: Decision, choice: Any) -> str:
    """*choice* at *decision* as its notation."""
    write = _WRITERS.get(type(choice))
    assert write is not None, f"no notation for {choice!r}"
    return write(state, decision, choice)


def _destination(state: AcState, decision: Decision, d: Destination) -> str:
    text = f"move {decision.actor} to {square(d.x, d.y)}"
    return f"{text} joining {d.stand}" if d.kind == "join" else text


def _declare(state: AcState, decision: Decision, choice: opt.Declare) -> str:
    if choice.action == "configure":
        return f"configure {choice.formation}"
    return "no action" if choice.action == "none" else choice.action


def _cast_area(state: AcState, decision: Decision, choice: opt.CastArea) -> str:
    """A burst at its origin square; a cone from the square just outside its base, and its direction; a line from
    its origin square, and its direction (AC-AOE-2..5)."""
    shape = spell_of(state, decision.actor, choice.spell).shape
    if shape == "cone":
        origin = square(choice.x + choice.dx, choice.y + choice.dy)
        mirrored = " mirrored" if choice.mirrored else ""
        return f"cast {choice.spell} at {origin} {DIRECTION_NAMES[(choice.dx, choice.dy)]}{mirrored}"
    if shape == "line":
        return f"cast {choice.spell} at {square(choice.x, choice.y)} {DIRECTION_NAMES[(choice.dx, choice.dy)]}"
    return f"cast {choice.spell} at {square(choice.x, choice.y)}"


def _shift(state: AcState, decision: Decision, choice: opt.Shift) -> str:
    stand = state.stand_named(choice.stand)
    return f"shift {choice.stand} to {square(stand.x + choice.dx, stand.y + choice.dy)}"


_WRITERS: dict[type, Callable[[AcState, Decision, Any], str]] = {
    opt.Rally: lambda s, dn, c: "rally" if c.rally else "no rally",
    opt.Benefit: lambda s, dn, c: "no bonus" if c.name == "none" else c.name,
    opt.Declare: _declare,
    opt.Activate: lambda s, dn, c: f"activate {c.stand}",
    opt.ActivateSolo: lambda s, dn, c: f"activate {c.solo}",
    Destination: _destination,
    opt.Stay: lambda s, dn, c: "stay",
    opt.AttackWith: lambda s, dn, c: f"attack {c.target} with {c.using}",
    opt.Support: lambda s, dn, c: f"support {c.stand}",
    opt.Cast: lambda s, dn, c: f"cast {c.spell} at {c.target}",
    opt.CastArea: _cast_area,
    opt.Done: lambda s, dn, c: "done",
    opt.NoAction: lambda s, dn, c: "no action",
    opt.Leave: lambda s, dn, c: f"leave to {square(c.x, c.y)}",
    opt.Switch: lambda s, dn, c: f"switch to {c.stand}",
    opt.PassOn: lambda s, dn, c: f"overflow into {c.stand}",
    opt.Shift: _shift,
    opt.NoShift: lambda s, dn, c: "no shift",
    opt.JoinStand: lambda s, dn, c: f"join {c.stand}",
    opt.PlaceAt: lambda s, dn, c: f"place at {square(c.x, c.y)}",
    opt.Award: lambda s, dn, c: "award" if c.award else "no award",
    opt.PushTo: lambda s, dn, c: f"push {_pushed(s).piece} to {square(c.x, c.y)}",
}


def _pushed(state: AcState) -> ForcedMove:
    step = state.pending[0]
    assert isinstance(step, ForcedMove), step
    return step


# --- parsing ------------------------------------------------------------------------------------------------------


@record
class Form:
    """One form of notation: literal words and typed slots (``{name:type}``), and what the filled slots make."""

    pattern: str
    build: Callable[[AcState, Decision, dict[str, Any]], Any]

    def match(self, said: list[str]) -> dict[str, Any] | None:
        """The slots' values when *said* has this form; IllegalChoice when a slot's value is malformed."""
        parts = self.pattern.split()
        if len(parts) != len(said):
            return None
        found: dict[str, Any] = {}
        for part, word in zip(parts, said):
            if not part.startswith("{"):
                if part != word:
                    return None
                continue
            name, kind = part[1:-1].split(":")
            value = _SLOTS[kind](word)
            if value is None:
                return None
            found[name] = value
        return found


def _id(word: str) -> str | None:
    return word if _ID.match(word) else None


def _square(word: str) -> tuple[int, int] | None:
    """``x,y`` in whole squares; a point that is not whole squares is refused (§3)."""
    m = _SQUARE.match(word)
    if m:
        return int(m.group(1)), int(m.group(2))
    if "," in word:
        raise IllegalChoice("AC-GRID-2", f"a square is written x,y in whole squares (got {word!r})")
    return None


_SLOTS: dict[str, Callable[[str], Any]] = {
    "id": _id,
    "square": _square,
    "dir": lambda w: DIRECTIONS_BY_NAME.get(w),
    "formation": lambda w: w if w in FORMATIONS else None,
    "mirrored": lambda w: True if w == "mirrored" else None,
}


def parse(state: AcState, decision: Decision, text: str) -> Any:
    """The choice *text* names at *decision*, if the rules allow it; else IllegalChoice with the rule and the reason
    (the refusal changes nothing)."""
    said = words(text)
    for form in FORMS[decision.kind]:
        fields = form.match(said)
        if fields is not None:
            return form.build(state, decision, fields)
    raise unknown(text, (notation(state, decision, o) for o in decision.options))


def offered(state: AcState, decision: Decision, choice: Any) -> Any:
    """*choice* when it is one of the decision's options (each a legal choice), else a refusal naming the rule."""
    if choice in decision.options:
        return choice
    rule, what = _NOT_OFFERED[decision.kind]
    raise IllegalChoice(rule, f"not {what} now (the legal ones: {_listed(state, decision)})")


def _listed(state: AcState, decision: Decision, shown: int = 6) -> str:
    items = [notation(state, decision, o) for o in decision.options[: shown + 1]]
    more = f", … ({len(decision.options)} in all)" if len(decision.options) > shown else ""
    return ", ".join(items[:shown]) + more


_NOT_OFFERED: dict[str, tuple[str, str]] = {
    "rally": ("AC-MORALE-6", "a choice of a routed unit's commander"),
    "benefit": ("AC-CMD-3", "a benefit the commander may use"),
    "action": ("AC-ACT-1", "a battle action this unit or solo may take"),
    "activate": ("AC-MOVE-2", "a stand or joined solo that may act next"),
    "move": ("AC-MOVE-1", "a legal end of this move"),
    "bonus": ("AC-CMD-2", "a bonus action this solo may take"),
    "joined_move": ("AC-JOIN-4", "a move of this joined solo"),
    "piece_action": ("AC-SPELL-2", "an action this piece may take"),
    "act": ("AC-ACT-2", "a part of the action this piece may play"),
    "spell_targets": ("AC-SPELL-3", "a further target of this spell"),
    "overflow": ("AC-DMG-2", "a stand the damage may pass on to"),
    "place_solo": ("AC-JOIN-5", "a place this solo may come back to"),
    "shift": ("AC-END-2", "a shift into this gap"),
    "push": ("AC-MOVE-8", "an end of this push"),
    "custom_objective": ("AC-OBJ-6", "an answer to this objective"),
}


def _move(state: AcState, decision: Decision, f: dict[str, Any]) -> Any:
    """A move to the square named (a flight if its footprint leaves the grid), or onto a stand to join it."""
    if f["piece"] != decision.actor:
        raise IllegalChoice("AC-MOVE-2", f"{decision.actor} moves now, not {f['piece']}")
    x, y = f["at"]
    stand = f.get("stand", "")
    assert state.turn is not None
    for option in move_options(state, state.turn):
        if isinstance(option, Destination) and (option.x, option.y) == (x, y) and (option.kind == "join") == bool(stand):
            if option.stand == stand:
                return _kept_together(state, decision, option)
    raise IllegalChoice(*move_refusal(state, state.turn, x, y, stand))


def _kept_together(state: AcState, decision: Decision, option: Any) -> Any:
    """A move's end the movement rules allow, or a stand to activate, unless it breaks up a regiment (AC-REG-4)."""
    refused = regiment_refusal(state, option)
    if refused is not None:
        raise IllegalChoice(*refused)
    return offered(state, decision, option)


def _push_to(state: AcState, decision: Decision, f: dict[str, Any]) -> Any:
    """Any end of the push its rules allow (AC-MOVE-8), suggested or not."""
    step = _pushed(state)
    if f["piece"] != step.piece:
        raise IllegalChoice("AC-MOVE-8", f"{step.by} pushes {step.piece}, not {f['piece']}")
    x, y = f["at"]
    if (x, y) in push_ends_of(state, step):
        return opt.PushTo(x, y)
    raise IllegalChoice(*push_refusal(state, step, x, y))


def _attack(state: AcState, decision: Decision, f: dict[str, Any]) -> Any:
    """An attack the piece may make now, else the rule it breaks (AC-ATTACK-1, AC-ATTACK-2, AC-RANGE-2)."""
    choice = opt.AttackWith(f["using"], f["target"])
    if choice in decision.options:
        return choice
    raise IllegalChoice(*attack_refusal(state, decision.actor, choice))


def _cast_at_square(state: AcState, decision: Decision, f: dict[str, Any]) -> Any:
    """An area spell at its origin square, with the direction of a cone or a line (AC-AOE-2..5)."""
    spell, (x, y) = f["spell"], f["at"]
    direction: Direction = f.get("dir", (0, 0))
    shape = next((sp.shape for sp in _spells(state, decision.actor) if sp.id == spell), None)
    if shape == "cone":
        choice = opt.CastArea(spell, x - direction[0], y - direction[1], direction[0], direction[1], bool(f.get("mirrored")))
    else:
        choice = opt.CastArea(spell, x, y, direction[0], direction[1])
    if choice in decision.options:
        return choice
    rule, reason = cast_refusal(state, decision.actor, spell, at=(x, y))
    if rule == "AC-SPELL-2" and any(isinstance(o, opt.CastArea) and o.spell == spell for o in decision.options):
        rule, reason = "AC-AOE-2", f"{spell} at {square(x, y)}: a cone or a line names its direction, another area none"
    raise IllegalChoice(rule, reason)


def _cast_target(state: AcState, decision: Decision, f: dict[str, Any]) -> Any:
    """A targeted spell at a target the rules allow (a further one for a multi-target spell), else the rule broken."""
    choice = opt.Cast(f["spell"], f["target"])
    if choice in decision.options:
        return choice
    step = state.pending[0]
    if isinstance(step, MoreTargets) and choice.target in step.chosen:
        raise IllegalChoice("AC-SPELL-3", f"{choice.target} is a target of this {choice.spell} already")
    if isinstance(step, MoreTargets) and choice.spell != step.spell:
        raise IllegalChoice("AC-SPELL-3", f"the further targets are for {step.spell}, not {choice.spell}")
    further = isinstance(step, MoreTargets)
    raise IllegalChoice(*cast_refusal(state, decision.actor, choice.spell, target=choice.target, further=further))


def _spells(state: AcState, piece: str) -> tuple[SpellRecord, ...]:
    return tuple(stats(state, piece).spells)


def _shift_to(state: AcState, decision: Decision, f: dict[str, Any]) -> Any:
    stand = state.stand(f["stand"])
    if stand is None:
        raise IllegalChoice("AC-END-2", f"no stand {f['stand']} on the grid")
    x, y = f["at"]
    return offered(state, decision, opt.Shift(stand.id, x - stand.x, y - stand.y))


def _fixed(choice: Any) -> Callable[[AcState, Decision, dict[str, Any]], Any]:
    """A form that names one choice."""
    return lambda state, decision, f: offered(state, decision, choice)


def _made(make: Callable[[dict[str, Any]], Any]) -> Callable[[AcState, Decision, dict[str, Any]], Any]:
    """A form whose slots make the choice."""
    return lambda state, decision, f: offered(state, decision, make(f))


_BENEFITS = tuple(Form(name, _fixed(opt.Benefit(name))) for name in ("incite", "prepare", "command", "resign")) + (
    Form("no bonus", _fixed(opt.Benefit("none"))),
)
_DECLARES = tuple(Form(a, _fixed(opt.Declare(a))) for a in ("attack", "cast", "dash", "hide", "join", "retreat")) + (
    Form("no action", _fixed(opt.Declare("none"))),
    Form("configure {formation:formation}", _made(lambda f: opt.Declare("configure", f["formation"]))),
)
_CAST_TARGET = Form("cast {spell:id} at {target:id}", _cast_target)

FORMS: dict[str, tuple[Form, ...]] = {
    "rally": (Form("rally", _fixed(opt.Rally(True))), Form("no rally", _fixed(opt.Rally(False)))),
    "benefit": _BENEFITS,
    "bonus": _BENEFITS,
    "action": _DECLARES,
    "piece_action": _DECLARES,
    "activate": (
        Form("activate {who:id}", lambda s, dn, f: _kept_together(s, dn, opt.Activate(f["who"]) if s.stand(f["who"]) else opt.ActivateSolo(f["who"]))),
    ),
    "move": (
        Form("move {piece:id} to {at:square}", _move),
        Form("move {piece:id} to {at:square} joining {stand:id}", _move),
        Form("stay", lambda s, dn, f: _kept_together(s, dn, opt.Stay())),
    ),
    "joined_move": (
        Form("stay", _fixed(opt.Stay())),
        Form("switch to {stand:id}", _made(lambda f: opt.Switch(f["stand"]))),
        Form("leave to {at:square}", _made(lambda f: opt.Leave(*f["at"]))),
    ),
    "act": (
        Form("attack {target:id} with {using:id}", _attack),
        Form("support {stand:id}", _made(lambda f: opt.Support(f["stand"]))),
        _CAST_TARGET,
        Form("cast {spell:id} at {at:square}", _cast_at_square),
        Form("cast {spell:id} at {at:square} {dir:dir}", _cast_at_square),
        Form("cast {spell:id} at {at:square} {dir:dir} {mirrored:mirrored}", _cast_at_square),
        Form("dash", _fixed(opt.Declare("dash"))),
        Form("hide", _fixed(opt.Declare("hide"))),
        Form("no action", _fixed(opt.NoAction())),
    ),
    "spell_targets": (_CAST_TARGET, Form("done", _fixed(opt.Done()))),
    "overflow": (Form("overflow into {stand:id}", _made(lambda f: opt.PassOn(f["stand"]))),),
    "place_solo": (
        Form("place at {at:square}", _made(lambda f: opt.PlaceAt(*f["at"]))),
        Form("join {stand:id}", _made(lambda f: opt.JoinStand(f["stand"]))),
    ),
    "shift": (Form("shift {stand:id} to {at:square}", _shift_to), Form("no shift", _fixed(opt.NoShift()))),
    "push": (Form("push {piece:id} to {at:square}", _push_to),),
    "custom_objective": (Form("award", _fixed(opt.Award(True))), Form("no award", _fixed(opt.Award(False)))),
}
