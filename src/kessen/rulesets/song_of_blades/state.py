"""The state of a skirmish: the options a player chooses, the steps still pending, and the frozen game state."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kessen.core.events import Event
from kessen.core.geometry import Point, Rect
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.battlefield import Figure, Table
from kessen.rulesets.song_of_blades.inputs import DisengageInput, MeleeInput
from kessen.rulesets.song_of_blades.scenario import Scenario, base_mm, move_length

# --- options a player chooses ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Activate:
    """Activate a model with 1–3 dice (SB-ACT-1)."""

    model: str
    dice: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop activating; the turn passes (SB-TURN-1)."""


@dataclass(frozen=True, slots=True)
class Attack:
    """A melee attack (1 action), or a power blow (2 actions) (SB-MELEE-1, SB-MOD-2)."""

    target: str
    power_blow: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    """One straight move (1 action) to a destination (SB-MOVE-1..3); ``toward`` names its purpose."""

    x: float
    y: float
    purpose: str  # "charge", "advance" or "retreat"
    toward: str  # the enemy it charges or advances on, or retreats from

    @property
    def destination(self) -> Point:
        return Point(self.x, self.y)


@dataclass(frozen=True, slots=True)
class StandUp:
    """Stand up (1 action) (SB-DOWN-2)."""


@dataclass(frozen=True, slots=True)
class BreakFree:
    """A transfixed model breaks free (2 actions) (SB-DOWN-7)."""


@dataclass(frozen=True, slots=True)
class EndActivation:
    """Spend no more actions this activation."""


@dataclass(frozen=True, slots=True)
class Hacker:
    """The enemy that hacks next (SB-DIS-5) or the one that hacks a recoiling model (SB-RECOIL-3)."""

    model: str


@dataclass(frozen=True, slots=True)
class FollowUp:
    """Whether the winner follows a recoiled loser (SB-FOLLOW-1)."""

    follow: bool


# --- pending steps ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOff:
    """Who takes the first turn (SB-TURN-1)."""


@dataclass(frozen=True, slots=True)
class ActivationRoll:
    model: str
    dice: int


@dataclass(frozen=True, slots=True)
class CombatRoll:
    """A combat roll to draw; ``kind`` is attack, free_hack or recoil_hack."""

    attacker: str
    defender: str
    kind: str
    roll: MeleeInput


@dataclass(frozen=True, slots=True)
class ChooseRecoil:
    loser: str
    winner: str


@dataclass(frozen=True, slots=True)
class ChooseRecoilHacker:
    loser: str
    candidates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OfferFollowUp:
    winner: str
    loser: str


@dataclass(frozen=True, slots=True)
class Disengaging:
    """A model leaving contact: hackers still to hack, then where it goes (SB-DIS-*, SB-MOVE-3, SB-MOVE-4)."""

    model: str
    hackers: tuple[str, ...]
    setup: DisengageInput
    positions: tuple[str, ...]  # hacker ids in the order of ``setup.enemies``
    then: Move | None  # the move it completes, or None when it flees
    flee_moves: int = 0


@dataclass(frozen=True, slots=True)
class MoraleTest:
    model: str


Pending = RollOff | ActivationRoll | CombatRoll | ChooseRecoil | ChooseRecoilHacker | OfferFollowUp | Disengaging | MoraleTest


@dataclass(frozen=True, slots=True)
class Activation:
    """The model being activated and what it has left (SB-ACT-*, SB-ACTION-*)."""

    model: str
    actions: int
    turnover: bool
    attacked: bool = False


@dataclass(frozen=True, slots=True)
class Casualty:
    model: str
    side: str
    points: int
    how: str


@dataclass(frozen=True, slots=True)
class SobState:
    """A frozen game state of a song-of-blades skirmish."""

    name: str
    table: Table
    options: tuple[bool, bool]  # follow_up, melee_priority
    turns: int
    sides: tuple[str, str]
    figures: tuple[Figure, ...]
    start_points: tuple[int, int]
    round: int = 0
    first: str | None = None
    active: str | None = None
    second_half: bool = False
    activated: frozenset[str] = frozenset()
    hidden: frozenset[tuple[str, str]] = frozenset()  # (ambusher, target hidden from) at turn start
    ambushed: frozenset[str] = frozenset()
    current: Activation | None = None
    pending: tuple[Pending, ...] = (RollOff(),)
    casualties: tuple[Casualty, ...] = ()
    ended: bool = False

    @property
    def follow_up(self) -> bool:
        return self.options[0]

    @property
    def melee_priority(self) -> bool:
        return self.options[1]

    def figure(self, model: str) -> Figure | None:
        return next((f for f in self.figures if f.id == model), None)

    def get(self, model: str) -> Figure:
        found = self.figure(model)
        assert found is not None, model
        return found

    def side_figures(self, side: str) -> tuple[Figure, ...]:
        return tuple(f for f in self.figures if f.side == side)

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]


def initial_state(scenario: Scenario) -> SobState:
    """The table as the scenario sets it, before the roll-off."""
    o = scenario.options
    table = Table(
        width=o.table_width_mm,
        depth=o.table_depth_mm,
        scale=o.scale,
        impassable=tuple(Rect(*r) for r in scenario.impassable),
        drops=tuple((Rect(*a.rect), a.drop_mm) for a in scenario.drop_areas),
        high_ground=tuple((Rect(*h.rect), h.height_mm) for h in scenario.high_ground),
        cover=tuple(Rect(*r) for r in scenario.cover),
        obstacles=tuple((Point(s[0], s[1]), Point(s[2], s[3])) for s in scenario.obstacles),
    )
    figures = tuple(
        Figure(
            id=m.id, side=s.side, name=m.name, points=m.points, quality=m.quality, combat=m.combat,
            size=m.size, mounted=m.mounted, flying=m.flying, move=move_length(m),
            special_rules=m.special_rules, base_mm=base_mm(m), x=m.x, y=m.y, state=m.state,
        )
        for s in scenario.sides
        for m in s.models
    )
    sides = (scenario.sides[0].side, scenario.sides[1].side)
    points = tuple(sum(m.points for m in s.models) for s in scenario.sides)
    return SobState(
        name=scenario.name, table=table, options=(o.follow_up, o.melee_priority), turns=scenario.turns,
        sides=sides, figures=figures, start_points=(points[0], points[1]),
    )


def push(state: SobState, *steps: Pending) -> SobState:
    return replace(state, pending=tuple(steps) + state.pending)


def replace_figure(state: SobState, f: Figure) -> SobState:
    return replace(state, figures=tuple(f if o.id == f.id else o for o in state.figures))


def remove(state: SobState, f: Figure, how: str, out: list[Event]) -> SobState:
    out.append(ev.Removed(model=f.id, how=how))
    pending = tuple(p for p in state.pending if f.id not in _models_of(p))
    return replace(
        state,
        figures=tuple(o for o in state.figures if o.id != f.id),
        casualties=state.casualties + (Casualty(f.id, f.side, f.points, how),),
        pending=pending,
    )


def _models_of(step: Pending) -> tuple[str, ...]:
    if isinstance(step, CombatRoll):
        return (step.attacker, step.defender)
    if isinstance(step, ChooseRecoil):
        return (step.loser, step.winner)
    if isinstance(step, OfferFollowUp):
        return (step.loser, step.winner)
    if isinstance(step, ChooseRecoilHacker):
        return (step.loser,)
    if isinstance(step, Disengaging | MoraleTest | ActivationRoll):
        return (step.model,)
    return ()
