"""The state of a skirmish: the frozen game state and its queue of pending steps (``referee.steps``; SB-TURN-*,
SB-ACT-*)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kessen.core.events import Event
from kessen.core.records import evolve, evolver, picklable, record
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, Table
from kessen.rulesets.song_of_blades.referee.placement import Placement, placement
from kessen.rulesets.song_of_blades.referee import steps as sp

@dataclass(frozen=True, slots=True)
class Activation:
    """The model being activated and what it has left (SB-ACT-*, SB-ACTION-*)."""

    model: str
    actions: int
    turnover: bool
    attacked: bool = False


@dataclass(frozen=True, slots=True)
class Casualty:
    """A model removed from the table, with its points and how it went (SB-TURN-4)."""

    model: str
    side: str
    points: int
    how: str


@dataclass(frozen=True, slots=True)
class Skirmish:
    """What a skirmish is played for, the same from its first state to its last (§3.4, SB-TURN-1, SB-TURN-4)."""

    name: str
    options: tuple[bool, bool]  # follow_up, melee_priority
    turns: int
    sides: tuple[str, str]
    start_points: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Turn:
    """Where the rounds stand: whose turn it is and what it has used up (SB-TURN-1, SB-ACT-3, SB-TERR-2)."""

    round: int = 0
    first: str | None = None
    active: str | None = None
    second_half: bool = False
    activated: frozenset[str] = frozenset()
    hidden: frozenset[tuple[str, str]] = frozenset()  # (ambusher, target hidden from) at turn start
    ambushed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class SobState:
    """A frozen game state of a song-of-blades skirmish.

    What never changes and what changes once a turn are records of their own (``skirmish``, ``turn``): the state is
    copied at every step, and a copy costs one slot per field.
    """

    skirmish: Skirmish
    table: Table
    figures: tuple[Figure, ...]
    turn: Turn = Turn()
    current: Activation | None = None
    pending: tuple[sp.Pending, ...] = (sp.RollOff(),)
    casualties: tuple[Casualty, ...] = ()
    ended: bool = False

    @property
    def follow_up(self) -> bool:
        return self.skirmish.options[0]

    @property
    def melee_priority(self) -> bool:
        return self.skirmish.options[1]

    @property
    def here(self) -> Placement:
        """The placement of the figures on the table, with the facts known about it (``referee.placement``)."""
        return placement(self.figures, self.table)

    def figure(self, model: str) -> Figure | None:
        return placement(self.figures, self.table).by_id.get(model)

    def get(self, model: str) -> Figure:
        found = self.figure(model)
        assert found is not None, model
        return found

    def side_figures(self, side: str) -> tuple[Figure, ...]:
        return placement(self.figures, self.table).side(side)

    def other(self, side: str) -> str:
        sides = self.skirmish.sides
        return sides[1] if side == sides[0] else sides[0]


picklable(Activation, Casualty, Skirmish, Turn, SobState)  # pickled and copied through their init fields (issue 22 §1)


with_pending: Callable[[SobState, tuple[sp.Pending, ...]], SobState] = evolver(SobState, "pending")
"""The state with another queue of pending steps (the copy made most often: every step taken off the queue)."""
_with_figures: Callable[[SobState, tuple[Figure, ...]], SobState] = evolver(SobState, "figures")
with_current: Callable[[SobState, Activation | None], SobState] = evolver(SobState, "current")
"""The state with another activation (or none): made at every activation, roll and action (issue 25 §2)."""
with_turn_pending: Callable[[SobState, Turn, tuple[sp.Pending, ...]], SobState] = evolver(SobState, "turn", "pending")
with_turn_current: Callable[[SobState, Turn, Activation | None], SobState] = evolver(SobState, "turn", "current")
with_activated: Callable[[Turn, frozenset[str]], Turn] = evolver(Turn, "activated")
with_turn_start: Callable[[Turn, frozenset[str], frozenset[tuple[str, str]], frozenset[str]], Turn] = evolver(
    Turn, "activated", "hidden", "ambushed")
with_half: Callable[[Turn, str, bool], Turn] = evolver(Turn, "active", "second_half")
with_round: Callable[[Turn, str, bool, int], Turn] = evolver(Turn, "active", "second_half", "round")
with_actions: Callable[[Activation, int], Activation] = evolver(Activation, "actions")
_spent: Callable[[Activation, int, bool], Activation] = evolver(Activation, "actions", "attacked")


def spend(state: SobState, n: int, *, attacked: bool = False) -> SobState:
    """The activated model spends *n* actions (SB-ACTION-1); an attack also uses up its one attack (SB-ACTION-2)."""
    act = state.current
    assert act is not None
    return with_current(state, _spent(act, act.actions - n, act.attacked or attacked))


def push(state: SobState, *steps: sp.Pending) -> SobState:
    """The state with *steps* to settle before everything already pending."""
    return with_pending(state, steps + state.pending)


def replace_figure(state: SobState, f: Figure) -> SobState:
    """The state with f in place of the figure of the same id."""
    return _with_figures(state, tuple(f if o.id == f.id else o for o in state.figures))


def remove(state: SobState, f: Figure, how: str, out: list[Event]) -> SobState:
    """f leaves the table as a casualty (*how*: kill, gruesome_kill, falling, destroyed, fled), with every step
    still pending about it."""
    out.append(ev.Removed(model=f.id, how=how))
    pending = tuple(p for p in state.pending if f.id not in _models_of(p))
    return evolve(
        state,
        figures=tuple(o for o in state.figures if o.id != f.id),
        casualties=state.casualties + (Casualty(f.id, f.side, f.points, how),),
        pending=pending,
    )


def _models_of(step: sp.Pending) -> tuple[str, ...]:
    if isinstance(step, sp.CombatRoll):
        return (step.attacker, step.defender)
    if isinstance(step, sp.ChooseRecoil):
        return (step.loser, step.winner)
    if isinstance(step, sp.OfferFollowUp):
        return (step.loser, step.winner)
    if isinstance(step, sp.ChooseRecoilHacker):
        return (step.loser,)
    if isinstance(step, sp.Disengaging | sp.MoraleTest | sp.ActivationRoll | sp.ChooseAction):
        return (step.model,)
    return ()
