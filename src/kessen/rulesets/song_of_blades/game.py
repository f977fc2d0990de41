"""Whole skirmishes: turns, activations, actions, melee, recoil, disengaging and morale as a state machine.

The state is frozen; ``node`` says what comes next and ``apply`` is pure. Steps that the rules resolve
without dice or players (ending an activation, completing a move) happen inside ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.core.geometry import Point, Rect
from kessen.dice import Dist
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.battlefield import (
    EPS,
    Figure,
    RecoilOption,
    Table,
    edge_distance,
    enemies_in_contact,
    free_run,
    landing_is_clear,
    recoil_options,
    sweep_is_clear,
    touching,
)
from kessen.rulesets.song_of_blades.disengaging import free_hack_input, hacks_free_of_charge
from kessen.rulesets.song_of_blades.inputs import (
    ActivationInput,
    DisengageInput,
    HackingEnemy,
    MeleeInput,
    MoraleInput,
)
from kessen.rulesets.song_of_blades.melee import MeleeOutcome, melee
from kessen.rulesets.song_of_blades.priority import may_target
from kessen.rulesets.song_of_blades.quality import ActivationOutcome, MoraleOutcome, activation, morale
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


# --- where the game stands -------------------------------------------------------------------------


def node(state: SobState) -> Node:
    """The next node: the top pending step, else the active player's next choice, else the end."""
    if state.ended:
        return Terminal(winner(state), summary(state))
    if state.pending:
        return _pending_node(state, state.pending[0])
    if state.current is not None:
        return Decision(state.active or "", "action", action_options(state))
    return Decision(state.active or "", "activation", activation_options(state))


def _pending_node(state: SobState, step: Pending) -> Node:
    if isinstance(step, RollOff):
        return Chance(Dist.uniform(state.sides), "roll-off")
    if isinstance(step, ActivationRoll):
        quality = state.get(step.model).quality
        return Chance(activation(ActivationInput(quality=quality, dice=step.dice)), "activation roll")
    if isinstance(step, CombatRoll):
        return Chance(melee(step.roll), "combat roll")
    if isinstance(step, MoraleTest):
        return Chance(morale(MoraleInput(quality=state.get(step.model).quality)), "morale test")
    if isinstance(step, ChooseRecoil):
        loser, winner_ = state.get(step.loser), state.get(step.winner)
        return Decision(loser.side, "recoil", recoil_options(state.figures, state.table, loser, winner_))
    if isinstance(step, ChooseRecoilHacker):
        return Decision(state.get(step.loser).side, "recoil hacker", tuple(Hacker(m) for m in step.candidates))
    if isinstance(step, OfferFollowUp):
        return Decision(state.get(step.winner).side, "follow-up", (FollowUp(True), FollowUp(False)))
    assert isinstance(step, Disengaging)
    if len(step.hackers) > 1:
        return Decision(state.get(step.model).side, "hack order", tuple(Hacker(h) for h in step.hackers))
    return Chance(_hack_dist(step, step.hackers[0]), "free hack")


def _hack_dist(step: Disengaging, hacker: str) -> Dist[MeleeOutcome]:
    enemy = step.setup.enemies[step.positions.index(hacker)]
    return melee(free_hack_input(step.setup, enemy))


def activation_options(state: SobState) -> tuple[Activate | EndTurn, ...]:
    """Every model of the active side not yet activated this turn, with 1–3 dice; or end the turn (SB-ACT-3)."""
    ready = [f for f in state.side_figures(state.active or "") if f.id not in state.activated]
    return tuple(Activate(f.id, n) for f in ready for n in (1, 2, 3)) + (EndTurn(),)


def action_options(state: SobState) -> tuple[Any, ...]:
    """What the activated model may do with its actions (SB-ACTION-1, SB-ACTION-2, SB-DOWN-*, SB-MOVE-*)."""
    act = state.current
    assert act is not None
    f = state.get(act.model)
    options: list[Any] = []
    if f.state == "transfixed":
        if act.actions >= 2:
            options.append(BreakFree())
        return tuple(options) + (EndActivation(),)
    contacts = enemies_in_contact(state.figures, f)
    if contacts and not act.attacked:
        allowed = may_target(
            [e.state for e in contacts], [e.points for e in contacts],
            melee_priority=state.melee_priority, special_rules=frozenset(f.special_rules),
        )
        for e, ok in zip(contacts, allowed):
            if ok:
                options.append(Attack(e.id))
                if act.actions >= 2:
                    options.append(Attack(e.id, power_blow=True))
    if f.state == "fallen":
        options.append(StandUp())
    else:
        options.extend(move_options(state, f))
    return tuple(options) + (EndActivation(),)


def move_options(state: SobState, f: Figure) -> list[Move]:
    """Straight moves of one move length: a charge into contact with each reachable enemy, an advance
    toward the nearest enemy, and a retreat directly away from it (SB-MOVE-1..3)."""
    length = state.table.stick(f.move)
    contacts = {e.id for e in enemies_in_contact(state.figures, f)}
    enemies = sorted((e for e in state.figures if e.side != f.side), key=lambda e: (edge_distance(f, e), e.id))
    moves: list[Move] = []

    def ok(exact: Point, purpose: str, toward: str) -> None:
        dest = Point(round(exact.x, 3), round(exact.y, 3))  # check the destination the move will really have
        if (dest - f.centre).length() < 0.5 or not state.table.on_table(dest, f.r):
            return
        if state.table.drop_entry(f.centre, dest) is not None or not sweep_is_clear(state.figures, state.table, f, dest):
            return
        moved = f.at(dest)
        if contacts and any(touching(moved, state.get(c)) for c in contacts):
            return  # SB-MOVE-3: a move out of contact must end out of contact with all of them
        moves.append(Move(dest.x, dest.y, purpose, toward))

    for e in enemies:
        if e.id in contacts:
            continue
        towards = (e.centre - f.centre).unit()
        contact_at = (e.centre - f.centre).length() - e.r - f.r
        if 0 < contact_at <= length:
            ok(f.centre + towards.scaled(contact_at), "charge", e.id)
    if enemies:
        nearest = enemies[0]
        towards = (nearest.centre - f.centre).unit()
        if nearest.id not in contacts:
            run = min(length, free_run(state.figures, state.table, f, towards, length))
            if run < (nearest.centre - f.centre).length() - nearest.r - f.r - EPS:
                ok(f.centre + towards.scaled(run), "advance", nearest.id)
        away = towards.scaled(-1)
        run = free_run(state.figures, state.table, f, away, length)
        ok(_clamp(state.table, f, f.centre + away.scaled(run)), "retreat", nearest.id)
    return moves


def _clamp(table: Table, f: Figure, p: Point) -> Point:
    return Point(min(max(p.x, f.r), table.width - f.r), min(max(p.y, f.r), table.depth - f.r))


# --- applying a choice --------------------------------------------------------------------------------


def apply(state: SobState, choice: Any) -> tuple[SobState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = []
    if state.pending:
        step, rest = state.pending[0], state.pending[1:]
        state = replace(state, pending=rest)
        state = _resolve(state, step, choice, out)
    elif state.current is not None:
        state = _act(state, choice, out)
    else:
        state = _activate(state, choice, out)
    state = _settle(state, out)
    return state, tuple(out)


def _resolve(state: SobState, step: Pending, choice: Any, out: list[Event]) -> SobState:
    if isinstance(step, RollOff):
        out.append(ev.RollOff(first=choice))
        return _start_turn(replace(state, first=choice, round=1, active=choice, second_half=False), out)
    if isinstance(step, ActivationRoll):
        o: ActivationOutcome = choice
        out.append(ev.Activation(model=step.model, dice=step.dice, actions=o.actions, failures=o.failures, turnover=o.turnover))
        return replace(state, current=Activation(step.model, o.actions, o.turnover))
    if isinstance(step, CombatRoll):
        return _combat_result(state, step, choice, out)
    if isinstance(step, MoraleTest):
        return _morale_result(state, step.model, choice, out)
    if isinstance(step, ChooseRecoil):
        return _recoil(state, step.loser, step.winner, choice, out)
    if isinstance(step, ChooseRecoilHacker):
        return _push(state, _recoil_hack(state, choice.model, step.loser))
    if isinstance(step, OfferFollowUp):
        return _follow_up(state, step, choice.follow, out)
    assert isinstance(step, Disengaging)
    if isinstance(choice, Hacker):  # the leaving player picked the next hacker (SB-DIS-5)
        order = (choice.model,) + tuple(h for h in step.hackers if h != choice.model)
        return _push(state, replace(step, hackers=order[:1]), replace(step, hackers=order[1:]))
    return _hack_result(state, step, choice, out)


def _push(state: SobState, *steps: Pending) -> SobState:
    return replace(state, pending=tuple(steps) + state.pending)


def _activate(state: SobState, choice: Activate | EndTurn, out: list[Event]) -> SobState:
    if isinstance(choice, EndTurn):
        return _end_turn(state, out)
    return _push(replace(state, activated=state.activated | {choice.model}), ActivationRoll(choice.model, choice.dice))


def _spend(state: SobState, n: int, *, attacked: bool = False) -> SobState:
    act = state.current
    assert act is not None
    return replace(state, current=replace(act, actions=act.actions - n, attacked=act.attacked or attacked))


def _act(state: SobState, choice: Any, out: list[Event]) -> SobState:
    act = state.current
    assert act is not None
    f = state.get(act.model)
    if isinstance(choice, EndActivation):
        return replace(state, current=replace(act, actions=0))
    if isinstance(choice, StandUp):
        out.append(ev.StandUp(model=f.id))
        return _replace_figure(_spend(state, 1), replace(f, state="standing"))
    if isinstance(choice, BreakFree):
        out.append(ev.BreakFree(model=f.id))
        return _replace_figure(_spend(state, 2), replace(f, state="standing"))
    if isinstance(choice, Attack):
        state = _spend(state, 2 if choice.power_blow else 1, attacked=True)
        target = state.get(choice.target)
        ambush = (f.id, target.id) in state.hidden and f.id not in state.ambushed
        out.append(ev.AttackDeclared(attacker=f.id, defender=target.id, power_blow=choice.power_blow, ambush=ambush))
        if ambush:
            state = replace(state, ambushed=state.ambushed | {f.id})
        roll = attack_roll(state, f, target, power_blow=choice.power_blow, ambush=ambush)
        return _push(state, CombatRoll(f.id, target.id, "attack", roll))
    assert isinstance(choice, Move)
    state = _spend(state, 1)
    return _begin_move(state, f, choice, out)


def _begin_move(state: SobState, f: Figure, move: Move, out: list[Event]) -> SobState:
    """A move that starts in contact disengages first (SB-MOVE-3, SB-DIS-*)."""
    setup = disengage_setup(state, f, failed_morale=False)
    if setup is None:
        return _finish_move(state, f, move, out)
    step = _disengaging(state, f, setup, then=move)
    if step is None:
        out.append(ev.Disengaged(model=f.id, free_hacks=0))
        return _finish_move(state, f, move, out)
    return _push(state, step)


def _finish_move(state: SobState, f: Figure, move: Move, out: list[Event]) -> SobState:
    out.append(ev.Moved(model=f.id, purpose=move.purpose, toward=move.toward, x=move.x, y=move.y))
    return _replace_figure(state, f.at(move.destination))


def disengage_setup(state: SobState, f: Figure, *, failed_morale: bool) -> DisengageInput | None:
    """The disengage procedure's input for f leaving all its enemies in contact, or None when none."""
    contacts = enemies_in_contact(state.figures, f)
    if not contacts:
        return None
    enemies = tuple(
        HackingEnemy(
            combat=e.combat, state=e.state, size=e.size, mounted=e.mounted, flying=e.flying,
            high_ground=state.table.ground_height(e.centre) > state.table.ground_height(f.centre),
            obstacle=state.table.across_obstacle(e.centre, f.centre),
            enemies_in_contact=min(8, len(enemies_in_contact(state.figures, e))),
            transfixed_in_contact=min(7, sum(1 for o in enemies_in_contact(state.figures, e) if o.state == "transfixed")),
        )
            for e in contacts[:8]
    )
    return DisengageInput(
        combat=f.combat, size=f.size, mounted=f.mounted, flying=f.flying,
        free_disengage="free_disengage" in f.special_rules, failed_morale=failed_morale, enemies=enemies,
    )


def _disengaging(state: SobState, f: Figure, setup: DisengageInput, *, then: Move | None, flee_moves: int = 0) -> Disengaging | None:
    contacts = enemies_in_contact(state.figures, f)
    contacts = contacts[:8]
    positions = tuple(e.id for e in contacts)
    hackers = tuple(e.id for e, entry in zip(contacts, setup.enemies) if not hacks_free_of_charge(setup, entry))
    if not hackers:
        return None  # SB-DIS-1, SB-DIS-4
    return Disengaging(f.id, hackers, setup, positions, then, flee_moves)


def _hack_result(state: SobState, step: Disengaging, o: MeleeOutcome, out: list[Event]) -> SobState:
    hacker = step.hackers[0]
    leaver = state.get(step.model)
    out.append(ev.CombatResult(kind="free_hack", attacker=hacker, defender=leaver.id, winner=o.winner, result=o.result))
    if o.result != "nothing":
        # SB-DIS-6: the first hack with an effect ends the sequence and the move
        state = replace(state, pending=tuple(p for p in state.pending if not (isinstance(p, Disengaging) and p.model == leaver.id)))
        return _suffer(state, leaver.id, hacker, o.result, out)
    remaining = tuple(p for p in state.pending if isinstance(p, Disengaging) and p.model == leaver.id)
    if remaining and remaining[0].hackers:
        return state
    state = replace(state, pending=tuple(p for p in state.pending if p not in remaining))
    hacks = sum(1 for e in step.setup.enemies if not hacks_free_of_charge(step.setup, e))
    out.append(ev.Disengaged(model=leaver.id, free_hacks=hacks))
    if step.then is not None:
        return _finish_move(state, leaver, step.then, out)
    return _flee(state, leaver, step.flee_moves, out)


def attack_roll(
    state: SobState, a: Figure, d: Figure, *, power_blow: bool = False, ambush: bool = False, free_hack: bool = False
) -> MeleeInput:
    """The combat roll of a melee attack, with every modifier read off the table (SB-MOD-*, SB-OUT-*, SB-TERR-*)."""
    a_contacts = enemies_in_contact(state.figures, a)
    d_contacts = enemies_in_contact(state.figures, d)
    return MeleeInput(
        free_hack=free_hack,
        attacker_combat=a.combat,
        defender_combat=d.combat,
        attacker_state="fallen" if a.state == "fallen" else "standing",
        defender_state=d.state,
        power_blow=power_blow,
        ambush=ambush,
        attacker_mounted=a.mounted,
        defender_mounted=d.mounted,
        attacker_size=a.size,
        defender_size=d.size,
        attacker_high_ground=state.table.ground_height(a.centre) > state.table.ground_height(d.centre),
        defender_obstacle=state.table.across_obstacle(a.centre, d.centre),
        attacker_enemies_in_contact=min(8, max(1, len(a_contacts))),
        attacker_transfixed_in_contact=min(7, sum(1 for e in a_contacts if e.state == "transfixed")),
        defender_enemies_in_contact=min(8, max(1, len(d_contacts))),
        defender_transfixed_in_contact=min(7, sum(1 for e in d_contacts if e.state == "transfixed" and e.id != a.id)),
        attacker_can_recoil=bool(recoil_options(state.figures, state.table, a, d)),
        defender_can_recoil=bool(recoil_options(state.figures, state.table, d, a)),
    )


def _recoil_hack(state: SobState, hacker: str, victim: str) -> CombatRoll:
    """The one free hack on a model that recoiled into an active enemy; its roll is defensive (SB-RECOIL-3)."""
    return CombatRoll(hacker, victim, "recoil_hack", attack_roll(state, state.get(hacker), state.get(victim), free_hack=True))


def _combat_result(state: SobState, step: CombatRoll, o: MeleeOutcome, out: list[Event]) -> SobState:
    out.append(ev.CombatResult(kind=step.kind, attacker=step.attacker, defender=step.defender, winner=o.winner, result=o.result))
    if o.result == "nothing":
        return state
    loser, winner_ = (step.defender, step.attacker) if o.affected == "defender" else (step.attacker, step.defender)
    return _suffer(state, loser, winner_, o.result, out)


def _suffer(state: SobState, loser_id: str, winner_id: str, result: str, out: list[Event]) -> SobState:
    """Apply a combat result to the loser (SB-MELEE-6, SB-MELEE-7, SB-DOWN-1, SB-RECOIL-*)."""
    loser = state.get(loser_id)
    if result == "fall":
        out.append(ev.Fell(model=loser.id))
        return _replace_figure(state, replace(loser, state="fallen"))
    if result in ("kill", "gruesome_kill"):
        state = _remove(state, loser, result, out)
        if result == "gruesome_kill":
            # SB-MELEE-7: every friend of the victim within Long of its last position tests morale
            reach = state.table.stick("long")
            testers = [f for f in state.side_figures(loser.side) if edge_distance(f, loser) <= reach]
            state = _push(state, *(MoraleTest(f.id) for f in testers))
        return state
    assert result == "recoil"
    return _push(state, ChooseRecoil(loser.id, winner_id))


def _recoil(state: SobState, loser_id: str, winner_id: str, option: RecoilOption, out: list[Event]) -> SobState:
    loser, winner_ = state.get(loser_id), state.get(winner_id)
    before = {e.id for e in enemies_in_contact(state.figures, loser)}
    if option.kind == "drop":
        out.append(ev.Recoiled(model=loser.id, kind="drop", x=option.x, y=option.y))
        # SB-FALL-1: a drop of at least Short kills, a lower one leaves the model fallen where it lands
        if option.drop_mm >= state.table.stick("short"):
            return _remove(state, loser, "falling", out)
        out.append(ev.Fell(model=loser.id))
        return _replace_figure(state, replace(loser.at(option.destination), state="fallen"))
    out.append(ev.Recoiled(model=loser.id, kind=option.kind, x=option.x, y=option.y))
    state = _replace_figure(state, loser.at(option.destination))
    moved = state.get(loser_id)
    if state.follow_up and follow_up_allowed(state, winner_, moved):
        state = _push(state, OfferFollowUp(winner_id, loser_id))
    new = tuple(e.id for e in enemies_in_contact(state.figures, moved) if e.is_active and e.id not in before)
    if len(new) == 1:
        return _push(state, _recoil_hack(state, new[0], loser_id))
    if new:
        return _push(state, ChooseRecoilHacker(loser_id, new))
    return state


def follow_up_allowed(state: SobState, winner_: Figure, loser: Figure) -> bool:
    """SB-FOLLOW-2, SB-FOLLOW-4: not against Free Disengage (or counting as having it), nor while engaged."""
    if "free_disengage" in loser.special_rules or (loser.mounted and not winner_.mounted) or (loser.flying and not winner_.flying):
        return False
    return not [e for e in enemies_in_contact(state.figures, winner_) if e.id != loser.id]


def _follow_up(state: SobState, step: OfferFollowUp, follow: bool, out: list[Event]) -> SobState:
    """Move the winner straight back into contact, if the path is clear (SB-FOLLOW-1, SB-FOLLOW-3, SB-FOLLOW-4)."""
    w, l = state.figure(step.winner), state.figure(step.loser)
    if not follow or w is None or l is None or not follow_up_allowed(state, w, l):
        return state
    direction = (l.centre - w.centre).unit()
    dest = w.centre + direction.scaled((l.centre - w.centre).length() - w.r - l.r)
    if state.table.drop_entry(w.centre, dest) is not None or not sweep_is_clear(state.figures, state.table, w, dest):
        return state
    out.append(ev.FollowedUp(model=w.id, x=round(dest.x, 3), y=round(dest.y, 3)))
    return _replace_figure(state, w.at(dest))


def _morale_result(state: SobState, model: str, o: MoraleOutcome, out: list[Event]) -> SobState:
    f = state.figure(model)
    if f is None:
        return state
    out.append(ev.MoraleTested(model=model, failures=o.failures, result=o.result))
    if o.result == "destroyed":
        return _remove(state, f, "destroyed", out)
    if o.result == "stands":
        return state
    if f.state != "standing":
        # SB-MOVE-1, SB-DOWN-3, SB-DOWN-7, SB-DOWN-8: a fallen or transfixed model cannot move, so it does not
        # flee and never disengages (no free hacks on it); it stays where it is. [DECISION: the spec is silent.]
        return state
    setup = disengage_setup(state, f, failed_morale=True)
    if setup is not None:
        step = _disengaging(state, f, setup, then=None, flee_moves=o.flee_moves)
        if step is not None:
            return _push(state, step)  # SB-MOR-3, SB-DIS-7: lethal hacks first
    return _flee(state, f, o.flee_moves, out)


def _flee(state: SobState, f: Figure, moves: int, out: list[Event]) -> SobState:
    """A flight straight away from the nearest enemy (SB-MOVE-4)."""
    enemies = [e for e in state.figures if e.side != f.side]
    if not enemies or f.state != "standing":
        return state
    nearest = min(enemies, key=lambda e: ((e.centre - f.centre).length(), e.id))
    away = (f.centre - nearest.centre).unit()
    length = moves * state.table.stick(f.move)
    run = free_run(state.figures, state.table, f, away, length)
    dest = f.centre + away.scaled(run)
    entry = state.table.drop_entry(f.centre, dest)
    if entry is not None:
        t, depth = entry
        edge = f.centre + away.scaled(run * t)
        land = edge + away.scaled(f.r)
        if depth < state.table.stick("short") and state.table.on_table(land, f.r) and not landing_is_clear(state.figures, state.table, f, land):
            # [DECISION] no room at the foot of a low drop: the flight stops short of the edge, as if blocked
            stop = f.centre + away.scaled(max(0.0, run * t - 0.01))
            out.append(ev.Fled(model=f.id, x=round(stop.x, 3), y=round(stop.y, 3)))
            return _replace_figure(state, f.at(stop))
        out.append(ev.Fled(model=f.id, x=round(edge.x, 3), y=round(edge.y, 3)))
        if depth >= state.table.stick("short"):
            return _remove(state, f, "falling", out)
        if not state.table.on_table(land, f.r):
            return _remove(state, f, "fled", out)  # it would land off the table: it has left the game
        return _replace_figure(state, replace(f.at(land), state="fallen"))
    if not state.table.on_table(dest, f.r):
        out.append(ev.Fled(model=f.id, x=round(dest.x, 3), y=round(dest.y, 3)))
        return _remove(state, f, "fled", out)  # SB-MOVE-4: off the table counts as a casualty
    out.append(ev.Fled(model=f.id, x=round(dest.x, 3), y=round(dest.y, 3)))
    return _replace_figure(state, f.at(dest))


def _replace_figure(state: SobState, f: Figure) -> SobState:
    return replace(state, figures=tuple(f if o.id == f.id else o for o in state.figures))


def _remove(state: SobState, f: Figure, how: str, out: list[Event]) -> SobState:
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


# --- turns -------------------------------------------------------------------------------------------


def _settle(state: SobState, out: list[Event]) -> SobState:
    """Resolve what needs no dice and no player: the end of an activation, a turn, the game (SB-ACT-2, SB-TURN-*)."""
    while not state.ended:
        if any(not state.side_figures(s) for s in state.sides) and state.round > 0:
            return _end_game(state, out)
        if state.pending:
            top = state.pending[0]
            if isinstance(top, ChooseRecoil) and not recoil_options(state.figures, state.table, state.get(top.loser), state.get(top.winner)):
                out.append(ev.Fell(model=top.loser))  # SB-RECOIL-5: no usable recoil, it falls instead
                state = _replace_figure(replace(state, pending=state.pending[1:]), replace(state.get(top.loser), state="fallen"))
                continue
            return state
        act = state.current
        if act is not None and (act.actions <= 0 or state.figure(act.model) is None or not action_options(state)[:-1]):
            state = replace(state, current=None)
            if act.turnover:
                out.append(ev.Turnover(side=state.active or ""))
                state = _end_turn(state, out)
            continue
        if act is None and state.round > 0 and len(activation_options(state)) == 1:
            state = _end_turn(state, out)
            continue
        return state
    return state


def _start_turn(state: SobState, out: list[Event]) -> SobState:
    """A new turn: ambushers are the models in cover at its start (SB-TERR-2)."""
    side = state.active or ""
    hidden: set[tuple[str, str]] = set()
    for f in state.side_figures(side):
        cover = state.table.cover_at(f.centre)
        if cover is not None:
            rect = state.table.cover[cover]
            hidden |= {(f.id, e.id) for e in state.figures if e.side != side and not rect.contains(e.centre)}
    out.append(ev.TurnStarted(round=state.round, side=side))
    return replace(state, activated=frozenset(), hidden=frozenset(hidden), ambushed=frozenset(), current=None)


def _end_turn(state: SobState, out: list[Event]) -> SobState:
    nxt = state.other(state.active or "")
    if not state.second_half:
        return _start_turn(replace(state, active=nxt, second_half=True, current=None), out)
    if state.round >= state.turns:
        return _end_game(state, out)
    return _start_turn(replace(state, active=nxt, second_half=False, round=state.round + 1, current=None), out)


def _end_game(state: SobState, out: list[Event]) -> SobState:
    state = replace(state, ended=True, pending=(), current=None)
    out.append(ev.GameEnded(winner=winner(state) or "", **{"lost_" + k: v for k, v in _lost(state).items()}))
    return state


def _lost(state: SobState) -> dict[str, str]:
    return {
        "a": f"{sum(c.points for c in state.casualties if c.side == state.sides[0])}/{state.start_points[0]}",
        "b": f"{sum(c.points for c in state.casualties if c.side == state.sides[1])}/{state.start_points[1]}",
    }


def winner(state: SobState) -> str | None:
    """SB-TURN-4: a side with no model left loses; else the smaller fraction of points lost wins."""
    alive = [s for s in state.sides if state.side_figures(s)]
    if len(alive) == 1:
        return alive[0]
    if not alive:
        return None
    lost = [sum(c.points for c in state.casualties if c.side == s) for s in state.sides]
    a = lost[0] * state.start_points[1]
    b = lost[1] * state.start_points[0]
    if a == b:
        return None
    return state.sides[0] if a < b else state.sides[1]


def summary(state: SobState) -> dict[str, Any]:
    return {
        "rounds": state.round,
        "casualties": {s: sum(1 for c in state.casualties if c.side == s) for s in state.sides},
        "points_lost": {s: sum(c.points for c in state.casualties if c.side == s) for s in state.sides},
        "survivors": {s: len(state.side_figures(s)) for s in state.sides},
    }
