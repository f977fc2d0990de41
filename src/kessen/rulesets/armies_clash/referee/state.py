"""The state of a battle: what never changes, the turn in progress, the pieces and the frozen state itself (its
pending steps are in ``referee.steps``), with the small updates every section of the referee makes to it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar, cast

from mypy_extensions import mypyc_attr

from kessen.core.records import evolve, picklable, record
from kessen.rulesets.armies_clash.referee.steps import Pending
from kessen.rulesets.armies_clash.rules.grid import Footprint, Grid, Square
from kessen.rulesets.armies_clash.rules.movement import FormationName
from kessen.rulesets.armies_clash.scenario import Creature, ObjectiveEntry

UnitType = Literal["skirmisher", "regiment"]
SoloStatus = Literal["up", "dying", "stable", "dead", "gone"]


@mypyc_attr(native_class=False)  # its subclasses are records, which mypyc compiles as Python classes
class _OnTheGrid:
    """A piece with a square footprint anchored at ``x``, ``y`` (§4.2); its ``footprint`` is built with the piece (the
    rules look it up far more often than a piece changes)."""

    __slots__ = ()
    x: int
    y: int
    size: int
    footprint: Footprint

    def __post_init__(self) -> None:
        object.__setattr__(self, "footprint", Footprint(self.x, self.y, self.size))


@record
class Stand(_OnTheGrid):
    """A stand on the grid (§4.3); ``hp`` 0 is a casualty (AC-DMG-3)."""

    id: str
    unit: str
    creature: str
    x: int
    y: int
    size: int
    hp: int
    isolated: bool = False
    hidden: bool = False
    spells_used: tuple[tuple[str, int], ...] = ()
    footprint: Footprint = field(init=False, repr=False, compare=False, hash=False)

    @property
    def casualty(self) -> bool:
        return self.hp == 0


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit (§4.4, §5.4) and its battle status."""

    id: str
    side: str
    type: UnitType
    formation: FormationName | None
    commander: str | None
    attrition_vp: int | None
    starting_stands: int
    routed: bool = False
    eliminated: bool = False
    incite_next: bool = False
    incited: bool = False
    prepared: bool = False
    prepared_round: int = 0


@record
class Solo(_OnTheGrid):
    """A solo (§4.5, §5.5): unattached on the grid at ``(x, y)`` or joined to a stand."""

    id: str
    side: str
    creature: str
    size: int
    x: int
    y: int
    joined_to: str | None
    hp: int
    pc: bool
    can_command: bool
    status: SoloStatus = "up"
    successes: int = 0
    failures: int = 0
    isolated: bool = False
    hidden: bool = False
    own_turn: bool = False
    spells_used: tuple[tuple[str, int], ...] = ()
    footprint: Footprint = field(init=False, repr=False, compare=False, hash=False)

    @property
    def on_grid(self) -> bool:
        """An unattached solo that is still in the battle (alive or down, not fled)."""
        return self.joined_to is None and self.status in ("up", "dying", "stable")


PieceKind = Literal["stand", "solo"]
"""What attacks or casts: a stand or a solo."""

SIDES = ("a", "b")


def other(side: str) -> str:
    """The opposing side."""
    return "b" if side == "a" else "a"


@dataclass(frozen=True, eq=False)
class Static:
    """What never changes during a battle: the grid, the creatures, the objectives and the options."""

    name: str
    grid: Grid
    creatures: dict[str, Creature]
    objectives: tuple[ObjectiveEntry, ...]
    max_rounds: int
    extra_round_on_tie: bool
    surprised: frozenset[str]

    def objective(self, ident: str) -> ObjectiveEntry:
        return next(o for o in self.objectives if o.id == ident)

    def __eq__(self, other: object) -> bool:
        # the very object at once (states of one battle share it); a copy, or one read back from a pickle, field by field
        if self is other:
            return True
        if not isinstance(other, Static):
            return NotImplemented
        # typed as plain objects: compiled, a Grid (a record, a Python class) compared as its declared type is compared
        # by identity
        mine: tuple[object, ...] = (self.name, self.grid, self.creatures, self.objectives, self.max_rounds)
        theirs: tuple[object, ...] = (other.name, other.grid, other.creatures, other.objectives, other.max_rounds)
        return mine == theirs and (self.extra_round_on_tie, self.surprised) == (other.extra_round_on_tie, other.surprised)

    def __hash__(self) -> int:
        return hash((self.name, self.max_rounds, len(self.creatures)))


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn in progress: whose, the declared action, and the piece now moving and acting (the stage it stands
    at is the turn step queued last, ``referee.steps``)."""

    actor: str
    solo: bool
    action: str = ""
    formation: FormationName | None = None
    done: frozenset[str] = frozenset()
    piece: str = ""
    budget: int = 0
    moved: bool = False
    road_used: bool = False
    supported: frozenset[str] = frozenset()
    unit_action: str = ""  # the unit's action, kept while a joined solo takes its own (AC-ACT-3)
    piece_action: str = ""  # a non-casting stand's own action in a unit that casts (AC-SPELL-2)
    bonus_used: frozenset[str] = frozenset()  # solos that spent their bonus action this turn (AC-D20-9)

    @property
    def doing(self) -> str:
        """The action the active piece takes."""
        return self.piece_action or self.action


@dataclass(frozen=True, slots=True)
class AcState:
    """A frozen state of an armies-clash battle."""

    static: Static
    stands: tuple[Stand, ...]
    units: tuple[Unit, ...]
    solos: tuple[Solo, ...]
    objective_hp: tuple[tuple[str, int], ...] = ()
    scored: frozenset[str] = frozenset()
    vp: tuple[int, int] = (0, 0)
    round: int = 0
    rolls: tuple[tuple[str, int, int], ...] = ()
    order: tuple[str, ...] = ()
    turn_index: int = -1
    turn: Turn | None = None
    pending: tuple[Pending, ...] = ()
    acted: frozenset[str] = frozenset()
    shifted: frozenset[str] = frozenset()
    extra_round: bool = False
    lost: tuple[int, int] = (0, 0)
    result: str = ""
    winner: str = ""
    ended: bool = False

    # lookups
    def stand(self, ident: str) -> Stand | None:
        for s in self.stands:  # a plain loop: the lookups are many and the tuples short
            if s.id == ident:
                return s
        return None

    def unit(self, ident: str) -> Unit:
        for u in self.units:
            if u.id == ident:
                return u
        raise AssertionError(f"no unit {ident}")

    def solo(self, ident: str) -> Solo | None:
        for s in self.solos:
            if s.id == ident:
                return s
        return None

    def stand_named(self, ident: str) -> Stand:
        """The stand *ident*, which the caller knows is on the table."""
        found = self.stand(ident)
        assert found is not None, f"no stand {ident}"
        return found

    def solo_named(self, ident: str) -> Solo:
        """The solo *ident*, which the caller knows is on the table."""
        found = self.solo(ident)
        assert found is not None, f"no solo {ident}"
        return found

    def creature(self, ident: str) -> Creature:
        return self.static.creatures[ident]

    @property
    def grid(self) -> Grid:
        return self.static.grid

    def side_of(self, piece: str) -> str:
        s = self.stand(piece)
        if s is not None:
            return self.unit(s.unit).side
        return self.solo_named(piece).side

    def unit_stands(self, unit: str) -> tuple[Stand, ...]:
        return tuple(s for s in self.stands if s.unit == unit)

    def side_stands(self, side: str) -> tuple[Stand, ...]:
        units = {u.id for u in self.units if u.side == side}
        return tuple([s for s in self.stands if s.unit in units])

    def hp_of(self, objective: str) -> int:
        return dict(self.objective_hp)[objective]

    def wrecked(self) -> frozenset[Square]:
        """Squares of destroy objectives down to 0 HP (a wrecked road is difficult, AC-TERR-2)."""
        return frozenset(
            o.square for o in self.static.objectives if o.kind == "destroy" and o.square is not None and self.hp_of(o.id) == 0
        )


picklable(Unit, Static, Turn, AcState)  # pickled and copied through their init fields (issue 22 §1)


R = TypeVar("R")
P = ParamSpec("P")


def per_state(question: Callable[Concatenate[AcState, P], R]) -> Callable[Concatenate[AcState, P], R]:
    """*question* about a state (and hashable positional arguments), answered once per state: the answers are kept for
    the state last asked about, while the options of one node ask the same thing again and again; a question about
    another state starts afresh and lets the old one go. Each caller keeps the table of the state it asked about, so
    threads asking about different states never mix their answers."""
    latest: list[tuple[AcState | None, dict[Any, Any]]] = [(None, {})]

    @functools.wraps(question)
    def asked(state: AcState, /, *args: P.args, **kwargs: P.kwargs) -> R:
        entry = latest[0]
        if entry[0] is not state:
            entry = latest[0] = (state, {})
        key = (args, tuple(kwargs.items())) if kwargs else args
        answers = entry[1]
        if key in answers:
            found: R = answers[key]
            return found
        answer = answers[key] = question(state, *args, **kwargs)
        return answer

    return asked


def push(state: AcState, *steps: Pending) -> AcState:
    """Queue *steps* before the steps already pending: what a choice or a roll brings about comes first."""
    return evolve(state, pending=tuple(steps) + state.pending)


def then(state: AcState, step: Pending) -> AcState:
    """Queue the next stage of the turn after everything pending (the rolls and choices it waits for)."""
    return evolve(state, pending=state.pending + (step,))


def set_turn(state: AcState, **changes: Any) -> AcState:
    assert state.turn is not None
    return evolve(state, turn=evolve(state.turn, **changes))


def replace_stand(state: AcState, stand: Stand) -> AcState:
    return evolve(state, stands=tuple(stand if s.id == stand.id else s for s in state.stands))


def replace_solo(state: AcState, solo: Solo) -> AcState:
    return evolve(state, solos=tuple(solo if s.id == solo.id else s for s in state.solos))


def replace_unit(state: AcState, unit: Unit) -> AcState:
    return evolve(state, units=tuple(unit if u.id == unit.id else u for u in state.units))


def add_vp(state: AcState, side: str, vp: int) -> AcState:
    a, b = state.vp
    return evolve(state, vp=(a + vp, b) if side == "a" else (a, b + vp))


def lost_plus(state: AcState, side: str, n: int = 1) -> tuple[int, int]:
    """The stands lost per side, with *n* more lost by *side*."""
    a, b = state.lost
    return (a + n, b) if side == "a" else (a, b + n)
