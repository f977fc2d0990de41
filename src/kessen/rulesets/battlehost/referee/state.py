"""The state of a battle: the frozen game state, its queue of pending steps and the fight being resolved, and
how the phases read and change it (sections 6–8).

Shared by the phase modules (turns, moves, shooting, fight, duel, strikes, might) so that none of them imports
another only for its types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from kessen.core.events import Event
from kessen.core.records import evolve, evolver, picklable
from kessen.dice import Dist
from kessen.dice.cache import BoundedCache, deep_bytes, dist_bytes
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.referee.battlefield import Board, Model, arrangement
from kessen.rulesets.battlehost.referee.options import ShootAt
from kessen.rulesets.battlehost.referee.pairing import Fight
from kessen.rulesets.battlehost.referee.steps import HeroMight, HeroRoll, PriorityStep, Step
from kessen.rulesets.battlehost.rules.might import HeroDie
from kessen.rulesets.battlehost.rules.sides import Side

Phase = Literal["priority", "move", "shoot", "fight", "over"]

# --- the state -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fighting:
    """The fight being resolved and what is known of it so far (BH-FIGHT-3); its steps are in the state's queue."""

    fight: Fight
    declared: tuple[tuple[str, bool], ...] = ()
    good_best: int = 0
    evil_best: int = 0
    might_spent: int = 0
    winner: Side | None = None
    decided_by: str = ""
    losers: tuple[str, ...] = ()
    trapped: frozenset[str] = frozenset()
    strikers: tuple[str, ...] = ()
    striker: str | None = None
    strikes_left: int = 0
    struck: tuple[str, ...] = ()
    target: str | None = None
    wounds: int = 0
    slain: int = 0
    rolls_left: int = 0  # To Wound rolls left in a Hero's strike rolled die by die (BH-STRIKE-5)
    strike_wounds: int = 0  # wounds of that strike so far

    def uses_two_handed(self, model: str) -> bool:
        return dict(self.declared).get(model, False)


@dataclass(frozen=True, slots=True)
class BhState:
    """A frozen game state of a battlehost battle: the board and its models, the turn, what has happened this
    turn, and ``pending``, the steps still to play (the first is the one the battle stands at)."""

    name: str
    board: Board
    turns: int
    models: tuple[Model, ...]
    start: tuple[int, int]
    first_priority: Side | None = None
    turn: int = 0
    priority: Side | None = None
    phase: Phase = "priority"
    moved: tuple[tuple[str, float], ...] = ()
    done: frozenset[str] = frozenset()
    shot: frozenset[str] = frozenset()
    shooting: ShootAt | None = None
    fights: tuple[Fight, ...] = ()
    fighting: Fighting | None = None
    casualties: tuple[tuple[str, Side], ...] = ()
    ended: bool = False
    pending: tuple[Step, ...] = (PriorityStep(),)

    @property
    def hero_die(self) -> HeroDie | None:
        """A Hero's own hit or To Wound die being rolled alone, so that Might may raise it (BH-DICE-4)."""
        step = self.pending[0] if self.pending else None
        return step.die if isinstance(step, HeroRoll | HeroMight) else None

    def model(self, model_id: str) -> Model | None:
        return arrangement(self.models).by_id.get(model_id)

    def get(self, model_id: str) -> Model:
        found = self.model(model_id)
        assert found is not None, model_id
        return found

    def side_models(self, side: Side) -> tuple[Model, ...]:
        return tuple(m for m in self.models if m.side == side)

    def moved_inches(self, model_id: str) -> float:
        """The distance a model moved this turn (BH-MOVE-8)."""
        return dict(self.moved).get(model_id, 0.0)


picklable(Fighting, BhState)  # pickled and copied through their init fields (issue 22 §1)


# --- reading and changing the state --------------------------------------------------------------------------


with_pending: Callable[[BhState, tuple[Step, ...]], BhState] = evolver(BhState, "pending")
"""The state with another queue of pending steps."""
with_models: Callable[[BhState, tuple[Model, ...]], BhState] = evolver(BhState, "models")
"""The state with another tuple of models on the table."""
with_fight: Callable[[BhState, Fighting], BhState] = evolver(BhState, "fighting")
"""The state with *f* as the fight being resolved."""


def put_model(state: BhState, m: Model) -> BhState:
    """The state with *m* in place of the model of the same id."""
    return with_models(state, tuple(m if o.id == m.id else o for o in state.models))


def current_fight(state: BhState) -> Fighting:
    """The fight being resolved."""
    f = state.fighting
    assert f is not None
    return f


def then(state: BhState, *steps: Step) -> BhState:
    """The state with *steps* to play next, before the rest of its queue."""
    return with_pending(state, steps + state.pending)


def side_of(fight: Fight, side: Side) -> tuple[str, ...]:
    """The ids of a side's models in a fight."""
    return fight.good if side == "good" else fight.evil


def living(state: BhState, ids: Sequence[str]) -> tuple[Model, ...]:
    """The models of *ids* still on the table, in the order given."""
    on_table = arrangement(state.models).by_id
    return tuple(on_table[i] for i in ids if i in on_table)


def alive_ids(state: BhState, ids: Sequence[str]) -> tuple[str, ...]:
    """The ids of *ids* still on the table, in the order given."""
    on_table = arrangement(state.models).by_id
    return tuple(i for i in ids if i in on_table)


def wound(state: BhState, model_id: str, wounds: int, out: list[Event]) -> BhState:
    """Wounds suffered; a model whose wounds reach its W is slain and removed at once (BH-STRIKE-3, BH-SHOOT-9)."""
    m = state.get(model_id)
    left = m.wounds_left - wounds
    if left > 0:
        out.append(ev.Wounded(model=m.id, wounds_left=left))
        return put_model(state, evolve(m, wounds_left=left))
    out.append(ev.Slain(model=m.id))
    return evolve(state, models=tuple(o for o in state.models if o.id != m.id), casualties=state.casualties + ((m.id, m.side),))


def fight_resolved(f: Fighting) -> ev.FightResolved:
    """The event that reports a fight's result: winner, how the duel was decided, Might, wounds, slain (BH-FIGHT-3)."""
    return ev.FightResolved(winner=f.winner or "", decided_by=f.decided_by, might_spent=f.might_spent, wounds=f.wounds, slain=f.slain)


# --- the rules' distributions, kept for the battle ---------------------------------------------------------

A = TypeVar("A")
O = TypeVar("O")

DIST_CACHE_BYTES = 32 * 2**20
"""The memory the distributions kept for battles may take (each costs its question and its outcomes)."""

_DIST_CACHE: BoundedCache[tuple[Callable[[Any], Dist[Any]], Any], Dist[Any]] = BoundedCache(
    DIST_CACHE_BYTES, lambda key, dist: deep_bytes(key[1]) + dist_bytes(dist)
)


def cached_dist(procedure: Callable[[A], Dist[O]], arg: A) -> Dist[O]:
    """``procedure(arg)``, kept while it is among the recently used: battles ask the same odds questions again and
    again."""
    found: Dist[O] = _DIST_CACHE.get((procedure, arg), lambda: procedure(arg))
    return found
