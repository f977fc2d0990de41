"""The registry: ruleset id → its procedures and, loaded the first time it is asked for, its engine.

Each ruleset package defines ``RULESET``; this module imports it on first use. The rulesets kessen ships are listed
here (``_PACKAGES``); a ruleset laid out the same way outside kessen (a plug-in, a test's toy) joins them with
:func:`register`. A ruleset never imports another ruleset, and ``core``/``dice`` never import a ruleset.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from kessen.core.engine import Decision, Game, is_dice_field
from kessen.core.errors import InputError, UnknownProcedureError, UnknownRulesetError
from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.cache import BoundedCache, deep_bytes, dist_bytes

if TYPE_CHECKING:  # pydantic is loaded with a ruleset's procedures, not with the registry
    from kessen.io.validation import StrictModel

_PACKAGES: dict[str, str] = {
    "song-of-blades": "kessen.rulesets.song_of_blades",
    "battlehost": "kessen.rulesets.battlehost",
    "legions": "kessen.rulesets.legions",
    "armies-clash": "kessen.rulesets.armies_clash",
}
_SHIPPED = frozenset(_PACKAGES)

I = TypeVar("I", bound="StrictModel")


@record
class Procedure(Generic[I]):
    """One combat procedure: a pure function from a validated input to an exact distribution.

    *compute* returns a ``Dist`` whose outcomes are frozen dataclasses; their fields, in order,
    are the outcome fields of the odds contract.
    """

    name: str
    summary: str
    input_model: type[I]
    compute: Callable[[I], Dist[Any]]
    normalise: Callable[[I], dict[str, Any]] | None = None

    def dist(self, value: I) -> Dist[Any]:
        """The exact distribution for a validated input, cached: a repeated situation costs nothing."""
        return _cached_dist(self, value)

    def normalised(self, value: I) -> dict[str, Any]:
        """The input as the contract echoes it: every field present, defaults filled."""
        if self.normalise is not None:
            return self.normalise(value)
        return value.model_dump(mode="json")


def question_input(procedure: Procedure[Any], question: Any) -> dict[str, Any]:
    """The JSON input of *procedure* that asks *question*, its rule's own input (a record whose fields are named as
    the input's), validated as the API validates it and checked to ask exactly that question: what an option's
    "open in the calculator" link fills the odds page with."""
    body = _plain(question)
    value = procedure.input_model.model_validate_json(json.dumps(body))
    rules = getattr(value, "rules", None) or getattr(value, "question", None)
    if rules is not None and rules() != question:
        raise ValueError(f"{procedure.name}: {body} does not ask {question}")
    return procedure.normalised(value)


def odds_input_of(procedures: Mapping[str, Procedure[Any]], asked: tuple[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
    """*asked*, a procedure's name and its rule's question, as that procedure's name and JSON input; None stays None."""
    if asked is None:
        return None
    name, question = asked
    return name, question_input(procedures[name], question)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


ODDS_CACHE_BYTES = 128 * 2**20
"""The memory the odds answered through the API may keep (each question costs its input and its distribution)."""

_odds_cache: BoundedCache[tuple[Procedure[Any], StrictModel], Dist[Any]] = BoundedCache(
    ODDS_CACHE_BYTES, lambda key, dist: deep_bytes(key[1]) + dist_bytes(dist)
)


def _cached_dist(procedure: Procedure[Any], value: StrictModel) -> Dist[Any]:
    return _odds_cache.get((procedure, value), lambda: procedure.compute(value))


def outcome_fields(outcome: Any) -> dict[str, Any]:
    """An outcome object as the flat JSON object of the odds contract (the dice a battle shows are not odds)."""
    if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
        return {f.name: getattr(outcome, f.name) for f in dataclasses.fields(outcome) if not is_dice_field(f)}
    if hasattr(outcome, "_asdict"):
        return dict(outcome._asdict())
    raise TypeError(f"an outcome must be a dataclass or a named tuple, not {type(outcome).__name__}")


@record
class Engine:
    """What a ruleset plays battles with: its ``Game``, how a sweep swaps a scenario's deployment, and which
    decisions ``kessen-save/1`` never recorded (see :meth:`Ruleset.new_since_v1`)."""

    game: Game[Any]
    swap_deployment: Callable[[dict[str, Any]], None] | None = None
    since_v1: Callable[[Decision], bool] | None = None


_engine_lock = threading.Lock()


@dataclass(frozen=True, slots=True, init=False)
class Ruleset:
    """A ruleset: its id, title, rule-ID prefix and procedures, and the engine it plays battles with.

    The engine is given as it is (``game=``, ...) or as a loader (``engine=``) called the first time ``game``,
    ``swap_deployment`` or ``new_since_v1`` is asked for: the odds of a procedure never import the engine.
    ``dataclasses.replace(ruleset, game=...)`` gives a ruleset of that game alone (no loader, no swap). A ruleset
    given neither only answers odds (``plays_battles`` is false). *package* is the package it is laid out in
    (``Ruleset.of_package``), where its scenario model and, outside kessen, its catalogues are found.
    """

    id: str
    title: str
    prefix: str
    procedures: Mapping[str, Procedure[Any]]
    package: str | None
    _loader: Callable[[], Engine] | None = field(init=False)
    _engine: Engine | None = field(init=False)

    def __init__(
        self, id: str, title: str, prefix: str, procedures: Mapping[str, Procedure[Any]], game: Game[Any] | None = None,
        swap_deployment: Callable[[dict[str, Any]], None] | None = None, since_v1: Callable[[Decision], bool] | None = None,
        *, engine: Callable[[], Engine] | None = None, package: str | None = None,
    ) -> None:
        if engine is not None and (game is not None or swap_deployment is not None or since_v1 is not None):
            raise TypeError("give a ruleset's engine either as a loader or as its parts, not both")
        for name, value in (("id", id), ("title", title), ("prefix", prefix), ("procedures", procedures), ("package", package)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_loader", engine)
        object.__setattr__(self, "_engine", None if game is None else Engine(game, swap_deployment, since_v1))

    def _loaded(self) -> Engine:
        found = self._engine
        if found is None:
            if self._loader is None:
                raise InputError("ruleset", self.id, "this ruleset does not play whole battles yet")
            with _engine_lock:  # one Game object per ruleset, however many threads ask at once
                found = self._engine
                if found is None:
                    found = self._loader()
                    object.__setattr__(self, "_engine", found)
        return found

    @property
    def plays_battles(self) -> bool:
        """Whether the ruleset has an engine (else it only answers odds)."""
        return self._engine is not None or self._loader is not None

    @property
    def game(self) -> Game[Any]:
        """The ruleset's ``Game``; an InputError on ``ruleset`` for a ruleset that only answers odds."""
        return self._loaded().game

    @property
    def swap_deployment(self) -> Callable[[dict[str, Any]], None] | None:
        """Turns a parsed scenario file's deployment so the sides stand where the other stood (a sweep's
        swap_sides)."""
        return self._loaded().swap_deployment

    def new_since_v1(self, decision: Decision) -> bool:
        """Whether *decision* is one the engine asks only since ``kessen-save/1`` (whose decisions are option
        indices): a decision of a kind added since, or one that then settled itself. A v1 file never recorded it, so
        its replay gives it its first option, which is what the engine did before without asking."""
        since_v1 = self._loaded().since_v1
        return since_v1 is not None and since_v1(decision)

    @classmethod
    def of_package(cls, package: str, *, id: str, title: str, prefix: str) -> Ruleset:
        """The ruleset of *package*, laid out as every ruleset is (docs/architecture.md): its odds are
        ``<package>.procedures.PROCEDURES``, its engine ``<package>.referee.game.ENGINE``, imported the first time a
        battle asks for it (odds never do)."""
        procedures: Mapping[str, Procedure[Any]] = importlib.import_module(f"{package}.procedures").PROCEDURES

        def engine() -> Engine:
            found: Engine = importlib.import_module(f"{package}.referee.game").ENGINE
            return found

        return cls(id, title, prefix, procedures, engine=engine, package=package)

    def procedure(self, name: str) -> Procedure[Any]:
        """The named procedure, or an error listing the ones this ruleset has."""
        try:
            return self.procedures[name]
        except KeyError:
            raise UnknownProcedureError(self.id, name, tuple(self.procedures)) from None


def register(ruleset_id: str, package: str) -> None:
    """Add the ruleset of *package*, laid out as every ruleset is (docs/architecture.md, "Adding a fifth ruleset"),
    under *ruleset_id*: a ruleset kept outside kessen (a plug-in, a test's toy), whose catalogues are its package's
    ``i18n/<id>.<lang>.toml``. An id already taken is a ValueError. A process pool's workers know it only if they
    register it too (or play in this process: ``workers=1``)."""
    if ruleset_id in _PACKAGES:
        raise ValueError(f"a ruleset {ruleset_id!r} is already registered ({_PACKAGES[ruleset_id]})")
    _PACKAGES[ruleset_id] = package


def unregister(ruleset_id: str) -> None:
    """Forget a ruleset added with :func:`register` (a test's toy, after the test)."""
    if ruleset_id in _SHIPPED:
        raise ValueError(f"{ruleset_id!r} ships with kessen and stays registered")
    _PACKAGES.pop(ruleset_id, None)
    _cache.pop(ruleset_id, None)


def ruleset_ids() -> tuple[str, ...]:
    """The ids of the rulesets this installation ships, in a stable order."""
    return tuple(rid for rid in _PACKAGES if _load(rid) is not None)


def engine_modules(ruleset_ids: Iterable[str] | None = None) -> tuple[str, ...]:
    """The modules a battle of each registered ruleset (or of those of *ruleset_ids* registered) imports, its
    procedures and its referee's game, named without importing them: what a process that will play them can load
    ahead (a Dask worker's fork server)."""
    packages = _PACKAGES.values() if ruleset_ids is None else (_PACKAGES[r] for r in ruleset_ids if r in _PACKAGES)
    return tuple(f"{package}.{module}" for package in packages for module in ("procedures", "referee.game"))


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id, or an error listing the known ids."""
    found = _load(ruleset_id) if ruleset_id in _PACKAGES else None
    if found is None:
        raise UnknownRulesetError(ruleset_id, ruleset_ids())
    return found


_cache: dict[str, Ruleset | None] = {}


def _load(ruleset_id: str) -> Ruleset | None:
    if ruleset_id not in _cache:
        module = importlib.import_module(_PACKAGES[ruleset_id])
        _cache[ruleset_id] = getattr(module, "RULESET", None)
    return _cache[ruleset_id]
