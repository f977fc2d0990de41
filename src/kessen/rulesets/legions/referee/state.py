"""The battle as the engine holds it: models, Detachments, Formations and the frozen game state (§3.2–§3.6)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import partial, update_wrapper
from operator import attrgetter
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from mypy_extensions import mypyc_attr

from kessen.core.geometry import Point
from kessen.core.records import evolve, evolver, memo, picklable, record
from kessen.rulesets.legions.referee.memo import MISSING, remembered
from kessen.rulesets.legions.profiles import OBSCURATION_PENALTY, Hidden, ModelType, Weapon
from kessen.rulesets.legions.referee.phases import MoraleThisPhase, Order, Phase, Stage
from kessen.rulesets.legions.referee.steps import Step
from kessen.rulesets.legions.rules.saves import TargetProfile, target_profile

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Model:
    """One model on the battlefield (§3.2); ``wounds_remaining`` 0 means destroyed and removed."""

    id: str
    type: ModelType
    scale: int
    movement: int
    armour_save: int | None
    special_save: int | None
    cover_save: int | None
    wounds: int
    wounds_remaining: int
    caf: int
    morale: int | None
    void_shields: int
    void_shields_max: int
    x: float
    y: float
    base_radius: float
    facing: float
    obscured: Hidden
    weapons: tuple[Weapon, ...]
    _centre: Point | None = memo("x", "y")

    def __hash__(self) -> int:
        # Equal models have equal ids, places and Wounds, so hashing these alone keeps ``hash`` and ``==`` in step;
        # the search's tables hash every model of a state at every position they keep (issue 23 §2).
        return hash((self.id, self.x, self.y, self.wounds_remaining))

    @property
    def alive(self) -> bool:
        return self.wounds_remaining > 0

    @property
    def centre(self) -> Point:
        centre = self._centre
        if centre is None:
            centre = Point(self.x, self.y)
            object.__setattr__(self, "_centre", centre)
        return centre

    @property
    def longest_range(self) -> int:
        """The longest range of its weapons' profiles, -1 with none: a target at *r* inches is in range of one of
        them exactly when ``longest_range >= r`` (LI-TGT-2)."""
        return max((p.range for w in self.weapons for p in w.profiles), default=-1)

    @property
    def penalty(self) -> int:
        """Its own obscuration penalty (LI-OBSC-1); 100 (only inessential parts visible) is never targeted."""
        return OBSCURATION_PENALTY.get(self.obscured, 2)

    def at(self, p: Point) -> Model:
        return evolve(self, x=p.x, y=p.y)

    def target_profile(self, *, rear_arc: bool = False) -> TargetProfile:
        """The model as the saving rules see it, hit from its rear arc or not (LI-ARC-1)."""
        return target_profile(self, wounds_remaining=self.wounds_remaining, rear_arc=rear_arc)


@dataclass(frozen=True, slots=True)
class Detachment:
    """A Detachment with the statuses the Combat phase reads (§3.4)."""

    id: str
    owner: str
    formation: str
    models: tuple[Model, ...]
    order: Order | None = None
    engaged: bool = False
    pinned: bool = False
    in_reserve: bool = False
    charged_and_moved: bool = False
    withdrew_this_round: bool = False
    order_at_phase_start: Order | None = None
    morale_this_phase: MoraleThisPhase = "none"
    _live: tuple[Model, ...] | None = memo("models")
    _gaps: dict[str, tuple[tuple[Model, ...], float]] | None = memo("models")
    _sights: dict[str, tuple[tuple[Model, ...], frozenset[frozenset[str]], Any]] | None = memo("models")
    _questions: dict[Any, Any] | None = memo("models")
    _aims: dict[Any, Any] | None = memo("models", "withdrew_this_round")
    _hash: int | None = memo()

    def __hash__(self) -> int:
        # Worked out once per Detachment, which the states that follow share while it is unchanged: the search's
        # tables hash a whole state at every position they keep (issue 23 §2).
        found = self._hash
        if found is None:
            found = hash((self.id, self.models, self.order, self.engaged, self.pinned, self.in_reserve,
                          self.charged_and_moved, self.withdrew_this_round, self.order_at_phase_start,
                          self.morale_this_phase))
            object.__setattr__(self, "_hash", found)
        return found

    @property
    def live(self) -> tuple[Model, ...]:
        live = self._live
        if live is None:
            live = tuple(m for m in self.models if m.wounds_remaining > 0)
            object.__setattr__(self, "_live", live)
        return live

    @property
    def gaps(self) -> dict[str, tuple[tuple[Model, ...], float]]:
        """The memo of ``battlefield.closest_gap``: by another Detachment's id, its models as they were measured and
        the least distance to them."""
        gaps = self._gaps
        if gaps is None:
            gaps = {}
            object.__setattr__(self, "_gaps", gaps)
        return gaps

    @property
    def sights(self) -> dict[str, tuple[tuple[Model, ...], frozenset[frozenset[str]], Any]]:
        """The memo of ``targeting.sightlines``: by another Detachment's id, its models as they were seen, the pairs
        of models the battle blocks, and the sightlines found."""
        sights = self._sights
        if sights is None:
            sights = {}
            object.__setattr__(self, "_sights", sights)
        return sights

    @property
    def aims(self) -> dict[Any, Any]:
        """The memo of ``targeting.targets``, ``targeting.fire_options`` and ``firing.volleys`` of this Detachment,
        each beside what it was worked out from besides the Detachment's models and whether it may fire (the enemy
        Detachments' models and statuses, the pairs of models the battle blocks, the target's models and the Scales
        it is Engaged with)."""
        aims = self._aims
        if aims is None:
            aims = {}
            object.__setattr__(self, "_aims", aims)
        return aims

    @property
    def questions(self) -> dict[Any, Any]:
        """The memo of ``firing.volley_question``: by a volley at this Detachment, its ``fire`` question."""
        questions = self._questions
        if questions is None:
            questions = {}
            object.__setattr__(self, "_questions", questions)
        return questions

    @property
    def on_battlefield(self) -> bool:
        """On the battlefield: not in Reserve, and with at least one model left."""
        return not self.in_reserve and bool(self.live)

    @property
    def scale(self) -> int:
        """The highest Scale of its models [DECISION §3.1]."""
        return max(m.scale for m in self.models)

    @property
    def morale(self) -> int | None:
        """The best (lowest) numeric Morale of its models; "-" only if all are "-" [DECISION §3.4]."""
        values = [m.morale for m in self.live if m.morale is not None]
        return min(values) if values else None

    def model(self, model_id: str) -> Model:
        return next(m for m in self.models if m.id == model_id)

    def with_model(self, model: Model) -> Detachment:
        return evolve(self, models=tuple(model if m.id == model.id else m for m in self.models))


@dataclass(frozen=True, slots=True)
class Formation:
    """A Formation: its starting size and whether it is Broken (§3.5)."""

    id: str
    owner: str
    starting_size: int
    broken: bool = False


@dataclass(frozen=True, slots=True)
class CombatProgress:
    """The combat being resolved: its Detachments, the pairs of them Engaged with each other when it began, its
    fights still to come and the tallies (LI-CC-1, LI-ENG-1)."""

    detachments: tuple[str, ...]
    engaged: frozenset[frozenset[str]] = frozenset()
    fights: tuple[tuple[str, str], ...] = ()
    fought: tuple[tuple[str, int], ...] = ()
    won: tuple[tuple[str, int], ...] = ()

    def fights_of(self, model_id: str) -> int:
        return dict(self.fought).get(model_id, 0)

    def won_by(self, player: str) -> int:
        return dict(self.won).get(player, 0)

    def engaged_with(self, det_id: str) -> tuple[str, ...]:
        """The Detachments *det_id* was Engaged with when the combat began (LI-ENG-3, LI-WD-8)."""
        return tuple(sorted(d for pair in self.engaged if det_id in pair for d in pair if d != det_id))


@dataclass(frozen=True, slots=True)
class Battle:
    """What a battle keeps from its start to its end: the scenario's name, the battlefield's size in inches, the
    players and their battlefield edges, how many rounds it lasts, and the pairs of models that cannot see each other."""

    name: str
    width: int
    height: int
    players: tuple[str, str]
    edges: tuple[str, str]
    rounds: int
    no_sight: frozenset[frozenset[str]] = frozenset()


@dataclass(frozen=True, slots=True)
class Course:
    """Where a battle has got to: the round, phase and stage, who has the Initiative, the Detachments activated (or
    moved) in this stage (or phase), those Engaged & Pinned when the First Fire stage began, those that took part in
    a combat in this Engagement stage (LI-BREAK-4), the combat being resolved, and whether the battle is over."""

    round: int = 1
    phase: Phase = "orders"
    stage: Stage | None = None
    initiative: str | None = None
    activated: frozenset[str] = frozenset()
    pinned_at_stage_start: frozenset[str] = frozenset()
    in_combat: frozenset[str] = frozenset()
    combat: CombatProgress | None = None
    ended: bool = False


picklable(Model, Detachment, Formation, CombatProgress, Battle, Course)  # pickled and copied through their init fields (issue 22 §1)


Index = tuple[dict[str, Detachment], dict[str, Detachment], dict[str, Model]]


class Part(Generic[T]):
    """A field of one of a record's parts, read as the record's own: ``width = Part[int]("battle.width")``."""

    __slots__ = ("_read",)

    def __init__(self, path: str) -> None:
        self._read = attrgetter(path)

    def __get__(self, value: object, owner: type | None = None) -> T:
        found: T = self._read(value)
        return found


@mypyc_attr(native_class=False)  # the base of a record, which mypyc compiles as a Python class
class _Parts:
    """The fields of a state's setting and course, read as the state's own (``state.width``, ``state.phase``): class
    attributes of a base, so that ``dataclasses`` never takes them for the state's fields."""

    __slots__ = ()

    name = Part[str]("battle.name")
    width = Part[int]("battle.width")
    height = Part[int]("battle.height")
    players = Part[tuple[str, str]]("battle.players")
    edges = Part[tuple[str, str]]("battle.edges")
    rounds = Part[int]("battle.rounds")
    no_sight = Part[frozenset[frozenset[str]]]("battle.no_sight")
    round = Part[int]("course.round")
    phase = Part[Phase]("course.phase")
    stage = Part[Stage | None]("course.stage")
    initiative = Part[str | None]("course.initiative")
    activated = Part[frozenset[str]]("course.activated")
    pinned_at_stage_start = Part[frozenset[str]]("course.pinned_at_stage_start")
    in_combat = Part[frozenset[str]]("course.in_combat")
    combat = Part[CombatProgress | None]("course.combat")
    ended = Part[bool]("course.ended")


@record
class LiState(_Parts):
    """A frozen state of a legions battle: the battle's fixed setting, the Formations and Detachments as they stand,
    the steps still to be done (the first is where the game stands) and where the battle has got to.

    The fields of the setting and of the course are read as the state's own (``state.width``, ``state.phase``); a
    change of the course is made with :func:`progressed`. [The state keeps few fields of its own, so that the next
    state, made at every step, is cheap to make.]"""

    battle: Battle
    formations: tuple[Formation, ...]
    detachments: tuple[Detachment, ...]
    pending: tuple[Step, ...] = ()
    course: Course = Course()
    _board: dict[Hashable, Any] | None = memo("battle", "detachments")
    """What is worked out from the battlefield as it stands (see ``board``)."""
    _ids: Index | None = memo("detachments")
    _hash: int | None = memo()

    def __hash__(self) -> int:
        # Worked out once per state: the search's tables look a new state up twice and keep it (issue 23 §2).
        found = self._hash
        if found is None:
            found = hash((self.battle, self.formations, self.detachments, self.pending, self.course))
            object.__setattr__(self, "_hash", found)
        return found


    @property
    def board(self) -> dict[Hashable, Any]:
        """The memo of facts worked out from the battlefield alone (the battle's setting, the Detachments and their
        models): states that differ only in their step queue, phase or tallies share it (``kessen.core.records.evolve``)."""
        board = self._board
        if board is None:
            board = {}
            object.__setattr__(self, "_board", board)
        return board

    def _index(self) -> Index:
        """The Detachments by id, each model's Detachment by the model's id, and the models by id."""
        index = self._ids
        if index is None:
            dets = self.detachments
            index = ({d.id: d for d in dets}, {m.id: d for d in dets for m in d.models}, {m.id: m for d in dets for m in d.models})
            object.__setattr__(self, "_ids", index)
        return index

    def player_with_initiative(self) -> str:
        """The player who has the Initiative this round (it is rolled before anything asks for it)."""
        assert self.initiative is not None
        return self.initiative

    def other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def edge_of(self, player: str) -> str:
        return self.edges[self.players.index(player)]

    def detachment(self, det_id: str) -> Detachment:
        return self._index()[0][det_id]

    def formation(self, formation_id: str) -> Formation:
        return next(f for f in self.formations if f.id == formation_id)

    def owner_of_model(self, model_id: str) -> Detachment:
        return self._index()[1][model_id]

    def model(self, model_id: str) -> Model:
        return self._index()[2][model_id]

    def with_detachment(self, det: Detachment) -> LiState:
        return _with_detachments(self, tuple(det if d.id == det.id else d for d in self.detachments))

    def with_model(self, model: Model) -> LiState:
        return self.with_detachment(self.owner_of_model(model.id).with_model(model))

    def with_formation(self, formation: Formation) -> LiState:
        return evolve(self, formations=tuple(formation if f.id == formation.id else f for f in self.formations))

    def detachments_of(self, player: str) -> tuple[Detachment, ...]:
        return remembered(self.board, ("detachments_of", player), partial(_detachments_of, self, player))

    def live_models(self) -> tuple[tuple[Detachment, Model], ...]:
        """Every model on the battlefield, with its Detachment."""
        return remembered(self.board, "live_models", partial(_live_models, self))


def _detachments_of(state: LiState, player: str) -> tuple[Detachment, ...]:
    return tuple(d for d in state.detachments if d.owner == player)


def _live_models(state: LiState) -> tuple[tuple[Detachment, Model], ...]:
    return tuple((d, m) for d in state.detachments if not d.in_reserve for m in d.live)


def board_fact(fact: Callable[Concatenate[LiState, P], T]) -> Callable[Concatenate[LiState, P], T]:
    """*fact* (a function of the battlefield as it stands: it reads no state field outside ``LiState.board``'s
    sources) worked out once per board and remembered there.

    Its arguments after the state are the state's own Detachments and models, remembered by their ids, or hashable
    values; asked about a Detachment or model that is not the state's own (a changed copy), it is worked out afresh.
    """

    def remembered_fact(state: LiState, /, *args: P.args, **kwargs: P.kwargs) -> T:
        key: list[Hashable] = [fact]
        for arg in args:
            own: Detachment | Model | None
            if isinstance(arg, Detachment):
                own = state._index()[0].get(arg.id)
            elif isinstance(arg, Model):
                own = state._index()[2].get(arg.id)
            else:
                key.append(arg)
                continue
            if own is not arg:
                return fact(state, *args, **kwargs)
            key.append(arg.id)
        if kwargs:
            key.append(tuple(kwargs.items()))
        board, known = state.board, tuple(key)
        found: T = board.get(known, MISSING)
        if found is MISSING:  # ``remembered``, without making a closure for each question asked
            found = board[known] = fact(state, *args, **kwargs)
        return found

    update_wrapper(remembered_fact, fact)
    return remembered_fact


def progressed(state: LiState, /, **changes: Any) -> LiState:
    """*state* with its course changed: ``progressed(state, phase="combat")`` (the fields of ``Course``)."""
    return _with_course(state, evolve(state.course, **changes))


def push(state: LiState, *steps: Step) -> LiState:
    """The state with *steps* to be done next, in their order, before the steps already pending."""
    return with_pending(state, steps + state.pending)


with_pending: Callable[[LiState, tuple[Step, ...]], LiState] = evolver(LiState, "pending")
"""The state with another queue of pending steps (the copy made most often: every step taken off the queue)."""
_with_course: Callable[[LiState, Course], LiState] = evolver(LiState, "course")
_with_detachments: Callable[[LiState, tuple[Detachment, ...]], LiState] = evolver(LiState, "detachments")
