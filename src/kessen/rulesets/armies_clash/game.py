"""Whole battles: initiative, turns, movement, battle actions, damage, end of round, morale, objectives and
the end of the battle, as a state machine (§5.9–§5.27).

The state is frozen; ``node`` says what comes next and ``apply`` is pure. Every die is drawn from the
distribution of the ruleset's own odds procedures (``attack``, ``save``, ``morale``, ``commander_check``,
``death_saves``) or its d20 functions; consequences the rules fix without dice or choices are resolved
inside ``apply``. A decision with one legal option is taken at once.

Decisions of this engine where the spec leaves room (each also in the docstring where it is made):

- A stand aims all the rolls of one Attack action at one target; the sum of those rolls is one damage
  instance for overflow (AC-DMG-2). A routine too big for one ``attack`` question (more than four rolls,
  or a damage ceiling above 300) is asked in parts, each its own instance.
- Each target of an area or a multi-target spell rolls its own damage with its own save (the ``save``
  procedure per target); a line is always straight.
- In a unit taking Cast a Spell, a stand "cannot cast" when it has no spell with uses left; such a stand
  declares its own action when it is activated, before it moves: Attack (if the unit could), Dash, Hide
  (skirmishers), Retreat or none — Configure stays a whole-unit action (AC-SPELL-2). A stand that can
  cast casts or takes no action (AC-UNIT-2).
- Joined solos are activated like stands, in any order among them (AC-MOVE-2). A joined solo's bonus
  action comes at the start of its activation: the commander may Incite or Prepare there if it did not
  at the start of the unit's turn (Rally only then, AC-MORALE-6), or give up the post; a solo that may
  command and is joined to a stand of a unit without a commander may take the post (AC-CMD-1, AC-CMD-2).
  A solo that joins on its own count may take command on its next turn (its unit's).
- A joined solo that stays joined takes Attack, Cast a Spell or no action (Dash would move nothing, and
  Hide needs a footprint in cover, AC-HIDE-2, which a joined solo lacks, AC-JOIN-3). One that leaves its
  stand stands on the grid and may also Dash (its speed in squares after leaving) or Hide (AC-ACT-3).
- A hit with an attack that has ``push_ft`` pushes its target ``push_ft ÷ 5`` squares straight away from
  the attacker, once per hit, after the damage (AC-STAND-4, AC-MOVE-8).
- Only the scoring side attacks or casts at a destroy objective's square.
- Custom objectives are awarded when the scorer's opponent concedes them at the end of a round.
- A battle that reaches the scenario's ``max_rounds`` is judged on VP at the end of that round.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.dice import Dist, d
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.attacks import AttackOutcome, attack
from kessen.rulesets.armies_clash.commanders import commander_check
from kessen.rulesets.armies_clash.d20 import success_chance
from kessen.rulesets.armies_clash.damage import damage_roll, scaled_damage
from kessen.rulesets.armies_clash.dice_strings import parse_dice
from kessen.rulesets.armies_clash.dying import death_saves
from kessen.rulesets.armies_clash.forces import (
    Solo,
    forced_squares,
    Stand,
    Unit,
    movement_budget,
    solo_isolated,
    speed_squares,
    spell_uses_left,
    spend_spell,
    stand_isolated,
)
from kessen.rulesets.armies_clash.grid import (
    DIRECTIONS,
    FOOTPRINT,
    Footprint,
    Grid,
    Square,
    Terrain,
    adjacent,
    area_size,
    away_from,
    burst,
    clip,
    cone,
    coverage,
    distance,
    line,
    reach_squares,
    self_origins,
)
from kessen.rulesets.armies_clash.initiative import initiative_modifier, tie_groups
from kessen.rulesets.armies_clash.inputs import (
    AttackEntry,
    AttackInput,
    CommanderCheckInput,
    DeathSavesInput,
    MoraleInput,
    SaveInput,
)
from kessen.rulesets.armies_clash.morale import morale, must_check_morale
from kessen.rulesets.armies_clash.movement import Destination, Mover, Occupant, classify, destinations
from kessen.rulesets.armies_clash.options import (
    Activate,
    ActivateSolo,
    AttackWith,
    Award,
    Benefit,
    Cast,
    CastArea,
    Declare,
    Done,
    JoinStand,
    Leave,
    NoAction,
    NoShift,
    PassOn,
    PlaceAt,
    Rally,
    Shift,
    Stay,
    Support,
    Switch,
)
from kessen.rulesets.armies_clash.scenario import AttackRecord, Creature, ObjectiveEntry, Scenario, SpellRecord, may_join
from kessen.rulesets.armies_clash.spells import SaveOutcome, save
from kessen.rulesets.armies_clash.victory import DECISIVE_LEAD, VICTORY_VP, rout_chance

SIDES = ("a", "b")
ATTACK_ROLLS_PER_QUESTION = 4
ATTACK_CEILING_PER_QUESTION = 300


def other(side: str) -> str:
    return "b" if side == "a" else "a"


# --- static data and state --------------------------------------------------------------------------


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


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn in progress: whose, which stage, the declared action, and the piece now moving and acting."""

    actor: str
    solo: bool
    stage: str
    action: str = ""
    formation: str | None = None
    done: frozenset[str] = frozenset()
    piece: str = ""
    phase: str = ""
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


# pending steps: chance and decision steps queued by apply, and automatic end-of-round steps


@dataclass(frozen=True, slots=True)
class InitRoll:
    who: str


@dataclass(frozen=True, slots=True)
class TieBreak:
    group: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CommanderRoll:
    unit: str
    benefit: str


@dataclass(frozen=True, slots=True)
class RallyRoll:
    unit: str


@dataclass(frozen=True, slots=True)
class AttackRoll:
    attacker: str
    side: str
    target: str
    kind: str  # stand, solo or objective
    using: str
    question: AttackInput
    push: int = 0  # squares each hit pushes the target (AC-STAND-4)


@dataclass(frozen=True, slots=True)
class SaveRoll:
    caster: str
    side: str
    spell: str
    target: str
    kind: str
    question: SaveInput


@dataclass(frozen=True, slots=True)
class AutoDamage:
    caster: str
    side: str
    spell: str
    target: str
    kind: str
    damage: str
    up: int
    down: int
    resistance: str


@dataclass(frozen=True, slots=True)
class StealthRoll:
    piece: str
    bonus: int
    dc: int


@dataclass(frozen=True, slots=True)
class MoreTargets:
    caster: str
    spell: str
    chosen: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChooseOverflow:
    source: str
    damage: int
    chain: tuple[str, ...]
    side: str


@dataclass(frozen=True, slots=True)
class PlaceSolo:
    solo: str
    unit: str
    vacated: tuple[Square, ...]
    anchor: Square


@dataclass(frozen=True, slots=True)
class ShiftGap:
    side: str
    unit: str
    vacated: tuple[Square, ...]


@dataclass(frozen=True, slots=True)
class DeathRoll:
    solo: str


@dataclass(frozen=True, slots=True)
class MoraleRoll:
    unit: str


@dataclass(frozen=True, slots=True)
class AwardCustom:
    objective: str


@dataclass(frozen=True, slots=True)
class RoutRoll:
    unit: str


@dataclass(frozen=True, slots=True)
class ForcedMove:
    """A push to resolve after an attack's damage (AC-MOVE-8); automatic."""

    piece: str
    by: str
    squares: int


@dataclass(frozen=True, slots=True)
class EndStep:
    """An automatic end-of-round step (AC-END-1..8)."""

    name: str


Pending = Any


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
        return next((s for s in self.stands if s.id == ident), None)

    def unit(self, ident: str) -> Unit:
        return next(u for u in self.units if u.id == ident)

    def solo(self, ident: str) -> Solo | None:
        return next((s for s in self.solos if s.id == ident), None)

    def creature(self, ident: str) -> Creature:
        return self.static.creatures[ident]

    @property
    def grid(self) -> Grid:
        return self.static.grid

    def side_of(self, piece: str) -> str:
        s = self.stand(piece)
        if s is not None:
            return self.unit(s.unit).side
        solo = self.solo(piece)
        assert solo is not None, piece
        return solo.side

    def unit_stands(self, unit: str) -> tuple[Stand, ...]:
        return tuple(s for s in self.stands if s.unit == unit)

    def side_stands(self, side: str) -> tuple[Stand, ...]:
        units = {u.id for u in self.units if u.side == side}
        return tuple(s for s in self.stands if s.unit in units)

    def hp_of(self, objective: str) -> int:
        return dict(self.objective_hp)[objective]

    def wrecked(self) -> frozenset[Square]:
        """Squares of destroy objectives down to 0 HP (a wrecked road is difficult, AC-TERR-2)."""
        return frozenset(
            tuple(o.square) for o in self.static.objectives if o.kind == "destroy" and o.square and self.hp_of(o.id) == 0  # type: ignore[misc]
        )


def initial_state(scenario: Scenario) -> AcState:
    """The battle as set up (§5.9): units, formations, solos placed or joined, commanders named;
    starting stands recorded (AC-SETUP-3); then everyone rolls initiative (AC-INIT-1)."""
    terrain: dict[Square, Terrain] = {}
    for entry in scenario.grid.terrain:
        for square in entry.squares():
            terrain[square] = Terrain(entry.kind, entry.rough, entry.elevation, entry.obscured)
    grid = Grid(scenario.grid.width, scenario.grid.height, tuple(sorted(terrain.items())))
    creatures = {c.id: c for c in scenario.creatures}
    static = Static(
        name=scenario.name, grid=grid, creatures=creatures, objectives=scenario.objectives,
        max_rounds=scenario.max_rounds, extra_round_on_tie=scenario.extra_round_on_tie,
        surprised=frozenset(scenario.surprised),
    )
    stands = tuple(
        Stand(s.id, s.unit, s.creature, s.at[0], s.at[1], FOOTPRINT[creatures[s.creature].size], s.hp or creatures[s.creature].hp)
        for s in scenario.stands
    )
    units = tuple(
        Unit(u.id, u.side, u.type, u.formation, u.commander, u.attrition_vp, sum(1 for s in stands if s.unit == u.id))
        for u in scenario.units
    )
    solos = tuple(
        Solo(
            s.id, s.side, s.creature, FOOTPRINT[creatures[s.creature].size],
            s.at[0] if s.at else 0, s.at[1] if s.at else 0, s.joined_to,
            s.hp or creatures[s.creature].hp, s.pc, s.commands,
        )
        for s in scenario.solos
    )
    objective_hp = tuple((o.id, o.hp) for o in scenario.objectives if o.kind == "destroy" and o.hp is not None)
    pending = tuple(InitRoll(u.id) for u in units) + tuple(InitRoll(s.id) for s in solos)
    state = AcState(static, stands, units, solos, objective_hp=objective_hp, pending=pending)
    return _isolation(state, [])


# --- where the battle stands --------------------------------------------------------------------------


def node(state: AcState) -> Node:
    """The next node: the first pending step, else the turn's next choice, else the end."""
    if state.ended:
        return Terminal(state.winner or None, summary(state))
    if state.pending:
        return _pending_node(state, state.pending[0])
    turn = state.turn
    assert turn is not None, "a settled state always has a turn, a pending step or an end"
    side = _turn_side(state, turn)
    if turn.stage == "rally":
        return Decision(side, "rally", (Rally(True), Rally(False)))
    if turn.stage == "bonus":
        return Decision(side, "commander", (Benefit("incite"), Benefit("prepare"), Benefit("none")))
    if turn.stage == "declare":
        return Decision(side, "action", declare_options(state, turn))
    if turn.stage == "activate":
        return Decision(side, "activate", activate_options(state, turn))
    assert turn.stage == "piece", turn.stage
    if turn.phase in ("move1", "move2"):
        mover_side = other(side) if _routed_piece(state, turn.piece) else side  # AC-MORALE-4
        return Decision(mover_side, "move", move_options(state, turn))
    if turn.phase == "jbonus":
        return Decision(side, "bonus action", bonus_options(state, turn))
    if turn.phase == "jmove":
        return Decision(side, "joined solo", joined_options(state, turn.piece))
    if turn.phase in ("jdeclare", "sdeclare"):
        return Decision(side, "piece action", piece_declare_options(state, turn))
    return Decision(side, "act", act_options(state, turn))


def _turn_side(state: AcState, turn: Turn) -> str:
    return state.side_of(turn.actor) if turn.solo else state.unit(turn.actor).side


def _pending_node(state: AcState, step: Pending) -> Node:
    if isinstance(step, InitRoll):
        return Chance(d(20), "initiative")
    if isinstance(step, TieBreak):
        return Chance(Dist.uniform(itertools.permutations(step.group)), "initiative tie")
    if isinstance(step, CommanderRoll):
        return Chance(commander_check(_commander_question(state, step.unit)), "commander check")
    if isinstance(step, RallyRoll):
        return Chance(morale(_rally_question(state, step.unit)), "rally")
    if isinstance(step, AttackRoll):
        return Chance(attack_dist(step.question), "attack")
    if isinstance(step, SaveRoll):
        return Chance(save_dist(step.question), "save")
    if isinstance(step, AutoDamage):
        return Chance(_auto_dist(step.damage, step.up, step.down, step.resistance), "damage")
    if isinstance(step, StealthRoll):
        return Chance(success_chance(bonus=step.bonus, target=step.dc), "stealth")
    if isinstance(step, DeathRoll):
        solo = state.solo(step.solo)
        assert solo is not None
        return Chance(death_saves(DeathSavesInput(successes=min(2, solo.successes), failures=min(2, solo.failures))), "death saves")
    if isinstance(step, MoraleRoll):
        return Chance(morale(_morale_question(state, step.unit)), "morale")
    if isinstance(step, RoutRoll):
        return Chance(Dist.bernoulli(rout_chance()), "rout")
    if isinstance(step, MoreTargets):
        return Decision(state.side_of(step.caster), "spell targets", _more_targets(state, step))
    if isinstance(step, ChooseOverflow):
        return Decision(step.side, "overflow", _overflow_options(state, step))
    if isinstance(step, PlaceSolo):
        solo = state.solo(step.solo)
        assert solo is not None
        return Decision(solo.side, "place solo", _place_options(state, step))
    if isinstance(step, ShiftGap):
        return Decision(step.side, "shift", _shift_options(state, step))
    if isinstance(step, AwardCustom):
        scorer = state.static.objective(step.objective).side
        return Decision(other(scorer), "custom objective", (Award(False), Award(True)))
    raise AssertionError(f"automatic step left pending: {step!r}")


@functools.lru_cache(maxsize=4096)
def attack_dist(question: AttackInput) -> Dist[AttackOutcome]:
    """The ``attack`` procedure, cached (the engine and the AI ask the same questions often)."""
    return attack(question)


@functools.lru_cache(maxsize=4096)
def save_dist(question: SaveInput) -> Dist[SaveOutcome]:
    return save(question)


@functools.lru_cache(maxsize=1024)
def _auto_dist(damage: str, up: int, down: int, resistance: str) -> Dist[int]:
    """An automatic spell's damage: the roll, doubled or halved per AC-AOE-9, then resistance."""
    return damage_roll(parse_dice(damage)).map(
        lambda raw: scaled_damage(raw, doublings=up, halvings=down, resistance=resistance)  # type: ignore[arg-type]
    )


# --- questions for the odds procedures ---------------------------------------------------------------


def _wisdom(state: AcState, unit: str) -> tuple[int, ...]:
    """Wisdom modifiers of the unit's stands and the solos joined to them (AC-MORALE-2)."""
    stands = state.unit_stands(unit)
    ids = {s.id for s in stands}
    mods = {state.creature(s.creature).abilities.wis for s in stands}
    mods |= {state.creature(s.creature).abilities.wis for s in state.solos if s.joined_to in ids and s.status == "up"}
    return tuple(sorted(mods))


def _morale_question(state: AcState, unit: str) -> MoraleInput:
    u = state.unit(unit)
    on_grid = len(state.unit_stands(unit))
    return MoraleInput(
        mode="check", wisdom_modifiers=_wisdom(state, unit), starting_stands=u.starting_stands,
        stands_lost=u.starting_stands - on_grid, advantage=u.prepared,
    )


def _rally_question(state: AcState, unit: str) -> MoraleInput:
    commander = commander_of(state, unit)
    assert commander is not None
    return MoraleInput(
        mode="rally", wisdom_modifiers=_wisdom(state, unit),
        commander_cha_modifier=state.creature(commander.creature).abilities.cha, advantage=state.unit(unit).prepared,
    )


def _commander_question(state: AcState, unit: str) -> CommanderCheckInput:
    commander = commander_of(state, unit)
    assert commander is not None
    c = state.creature(commander.creature)
    return CommanderCheckInput(check_bonus=max(c.skill("intimidation"), c.skill("persuasion")))


def commander_of(state: AcState, unit: str) -> Solo | None:
    """The unit's commander while it can lead: conscious and joined to a stand of the unit (AC-CMD-1, AC-CMD-2)."""
    ident = state.unit(unit).commander
    if ident is None:
        return None
    solo = state.solo(ident)
    if solo is None or solo.status != "up" or solo.joined_to is None:
        return None
    stand = state.stand(solo.joined_to)
    return solo if stand is not None and stand.unit == unit else None


# --- options --------------------------------------------------------------------------------------------


def _stats(state: AcState, piece: str) -> Creature:
    s = state.stand(piece)
    if s is not None:
        return state.creature(s.creature)
    solo = state.solo(piece)
    assert solo is not None
    return state.creature(solo.creature)


def _castable(state: AcState, piece: str) -> list[SpellRecord]:
    s = state.stand(piece)
    used = s.spells_used if s is not None else state.solo(piece).spells_used  # type: ignore[union-attr]
    return [sp for sp in _stats(state, piece).spells if spell_uses_left(used, sp.id, sp.uses)]


def declare_options(state: AcState, turn: Turn) -> tuple[Declare, ...]:
    """The battle actions open to the unit or unattached solo (AC-ACT-1, AC-ACT-4, AC-ATTACK-5, AC-REG-2,
    AC-SKIRM-3): a routed unit may only Retreat."""
    if turn.solo:
        options = [Declare("attack")] if _stats(state, turn.actor).attacks else []
        if _castable(state, turn.actor):
            options.append(Declare("cast"))
        options += [Declare("dash"), Declare("hide")]
        if _solo_join_destinations(state, turn.actor):
            options.append(Declare("join"))
        return tuple(options) + (Declare("none"),)
    unit = state.unit(turn.actor)
    if unit.routed:
        return (Declare("retreat"),)
    stands = state.unit_stands(unit.id)
    options = []
    if unit.formation != "defensive" and any(state.creature(s.creature).attacks for s in stands):
        options.append(Declare("attack"))
    if any(_castable(state, s.id) for s in stands):
        options.append(Declare("cast"))
    options.append(Declare("dash"))
    if unit.type == "regiment":
        options += [Declare("configure", f) for f in ("support", "march", "defensive") if f != unit.formation]
    if unit.type == "skirmisher":
        options.append(Declare("hide"))
    options += [Declare("retreat"), Declare("none")]
    return tuple(options)


def activate_options(state: AcState, turn: Turn) -> tuple[Activate | ActivateSolo, ...]:
    """Who moves and acts next (AC-MOVE-2): any stand of the unit not yet activated (nearest the enemy first, the
    default), or any solo joined to one of its stands that has not had its turn this round (AC-INIT-4)."""
    side = state.unit(turn.actor).side
    enemies = _enemy_footprints(state, side)
    stands = state.unit_stands(turn.actor)
    ready = [s for s in stands if s.id not in turn.done]
    ready.sort(key=lambda s: (min((distance(s.footprint, e) for e in enemies), default=0), s.id))
    ids = {s.id for s in stands}
    solos = [
        s.id for s in sorted(state.solos, key=lambda s: s.id)
        if s.joined_to in ids and s.status == "up" and not s.own_turn and s.id not in state.acted
    ]
    return tuple(Activate(s.id) for s in ready) + tuple(ActivateSolo(i) for i in solos)


def bonus_options(state: AcState, turn: Turn) -> tuple[Benefit, ...]:
    """A joined solo's bonus action at the start of its activation (AC-D20-9): the commander may Incite or Prepare
    (if it has not spent its bonus action yet; never while the unit is routed, whose Rally comes only at the start of
    the turn, AC-MORALE-6) or give up the post; a solo that may command, joined to a stand of a unit without a
    commander and commanding no other unit, may take the post, by default (AC-CMD-1, AC-CMD-2, AC-CMD-3)."""
    solo = state.solo(turn.piece)
    assert solo is not None
    unit = state.unit(turn.actor)
    if solo.id in turn.bonus_used:
        return (Benefit("none"),)
    if unit.commander == solo.id:
        uses = () if unit.routed else (Benefit("incite"), Benefit("prepare"))
        return uses + (Benefit("none"), Benefit("resign"))
    if unit.commander is None and solo.can_command and not any(u.commander == solo.id for u in state.units):
        return (Benefit("command"), Benefit("none"))
    return (Benefit("none"),)


def piece_declare_options(state: AcState, turn: Turn) -> tuple[Declare, ...]:
    """A piece's own action inside its unit's turn: a joined solo of a routed unit that left at the start of its
    turn acts as an unattached solo (AC-JOIN-6); a stand that cannot cast in a unit that casts picks any other
    action the unit could take, Configure excepted (AC-SPELL-2)."""
    if turn.phase == "jdeclare":
        return declare_options(state, Turn(turn.piece, True, "declare"))
    stand = state.stand(turn.piece)
    assert stand is not None
    unit = state.unit(stand.unit)
    options = []
    if unit.formation != "defensive" and state.creature(stand.creature).attacks:
        options.append(Declare("attack"))
    options.append(Declare("dash"))
    if unit.type == "skirmisher":
        options.append(Declare("hide"))
    return tuple(options) + (Declare("retreat"), Declare("none"))


def _enemy_footprints(state: AcState, side: str, *, stands_only: bool = False) -> tuple[Footprint, ...]:
    out = [s.footprint for s in state.side_stands(other(side))]
    if not stands_only:
        out += [s.footprint for s in state.solos if s.side != side and s.on_grid]
    return tuple(out)


def occupancy(state: AcState) -> dict[Square, Occupant]:
    """Who stands on each square: stands and unattached solos on the grid (joined solos have no footprint)."""
    occ: dict[Square, Occupant] = {}
    types = {u.id: (u.type, u.side) for u in state.units}
    for s in state.stands:
        kind, side = types[s.unit]
        for sq in s.footprint.squares():
            occ[sq] = (kind, side, s.id)
    for solo in state.solos:
        if solo.on_grid:
            for sq in solo.footprint.squares():
                occ[sq] = ("solo", solo.side, solo.id)
    return occ


def _piece_footprint(state: AcState, piece: str) -> Footprint:
    """Where a piece acts from: its own squares, or its stand's for a joined solo (AC-JOIN-3)."""
    s = state.stand(piece)
    if s is not None:
        return s.footprint
    solo = state.solo(piece)
    assert solo is not None
    if solo.joined_to is not None:
        stand = state.stand(solo.joined_to)
        assert stand is not None
        return stand.footprint
    return solo.footprint


def _routed_piece(state: AcState, piece: str) -> bool:
    s = state.stand(piece)
    return s is not None and state.unit(s.unit).routed


def _mover(state: AcState, turn: Turn) -> Mover:
    piece = turn.piece
    s = state.stand(piece)
    c = _stats(state, piece)
    side = state.side_of(piece)
    if s is not None:
        unit = state.unit(s.unit)
        return Mover(
            piece, side, False, s.footprint, c.swim_ft > 0, turn.budget,
            retreat=turn.doing == "retreat", routed=unit.routed, road_available=not turn.road_used,
        )
    solo = state.solo(piece)
    assert solo is not None
    return Mover(piece, side, True, solo.footprint, c.swim_ft > 0, turn.budget, road_available=not turn.road_used)


def _destinations(state: AcState, turn: Turn) -> list[Destination]:
    mover = _mover(state, turn)
    solo = state.solo(turn.piece)
    joiner = _stats(state, turn.piece).size if solo is not None else None

    def can_join(stand_id: str) -> bool:
        stand = state.stand(stand_id)
        return joiner is not None and stand is not None and may_join(joiner, state.creature(stand.creature).size)

    return destinations(
        state.grid, occupancy(state), mover,
        enemy_stands=_enemy_footprints(state, mover.side, stands_only=True),
        enemies=_enemy_footprints(state, mover.side), wrecked=state.wrecked(), may_join=can_join,
    )


def move_options(state: AcState, turn: Turn) -> tuple[Any, ...]:
    """Stay, or every legal end of a move (AC-MOVE-1..7). A routed stand's paths are the enemy's to pick, and
    its default runs farthest; otherwise the default closes on the nearest enemy or objective. A solo that
    declared Join may only move onto a stand to join it (AC-JOIN-1); other moves never end in a join."""
    dests = _destinations(state, turn)
    joining = state.solo(turn.piece) is not None and turn.action == "join"
    if joining:
        dests = [x for x in dests if x.kind == "join"]
    else:
        dests = [x for x in dests if x.kind != "join"]
    side = state.side_of(turn.piece)
    goals = _goals(state, side)
    size = _piece_footprint(state, turn.piece).size

    def near(x: Destination) -> int:
        fp = Footprint(x.x, x.y, size)
        return min((distance(fp, g) for g in goals), default=0)

    if _routed_piece(state, turn.piece):
        dests.sort(key=lambda x: (x.kind != "flee", -near(x), x.cost, x.y, x.x))
        return tuple(dests) + (Stay(),)
    dests.sort(key=lambda x: (x.kind == "flee", near(x), x.cost, x.kind, x.y, x.x, x.stand))
    if joining:
        return tuple(dests)
    return tuple(dests) + (Stay(),)


def _goals(state: AcState, side: str) -> tuple[Footprint, ...]:
    """What a side advances on: enemy pieces and the squares of its own destroy objectives still standing."""
    goals = list(_enemy_footprints(state, side))
    goals += [Footprint(o.square[0], o.square[1]) for o in _objectives_to_destroy(state, side)]  # type: ignore[index]
    return tuple(goals)


def _objectives_to_destroy(state: AcState, side: str) -> list[ObjectiveEntry]:
    return [o for o in state.static.objectives if o.kind == "destroy" and o.side == side and state.hp_of(o.id) > 0]


def _solo_join_destinations(state: AcState, solo: str) -> list[Destination]:
    c = _stats(state, solo)
    turn = Turn(solo, True, "piece", action="join", piece=solo, budget=speed_squares(c.speed_ft))
    return [x for x in _destinations(state, turn) if x.kind == "join"]


def attack_targets(state: AcState, piece: str) -> list[tuple[str, str, Footprint]]:
    """Everything *piece* may aim at: enemy stands, unattached enemy solos and its side's destroy objectives
    (AC-ATTACK-2, AC-OBJ-4); joined solos never."""
    side = state.side_of(piece)
    out: list[tuple[str, str, Footprint]] = [("stand", s.id, s.footprint) for s in state.side_stands(other(side))]
    out += [("solo", s.id, s.footprint) for s in state.solos if s.side != side and s.on_grid]
    out += [("objective", o.id, Footprint(o.square[0], o.square[1])) for o in _objectives_to_destroy(state, side)]  # type: ignore[index]
    return out


def routines(creature: Creature) -> list[tuple[str, tuple[AttackRecord, ...]]]:
    """The attack routines of one Attack action: the multiattack, or any one attack (AC-ATTACK-1)."""
    by_id = {a.id: a for a in creature.attacks}
    out: list[tuple[str, tuple[AttackRecord, ...]]] = []
    if creature.multiattack:
        out.append(("multiattack", tuple(by_id[i] for i in creature.multiattack)))
    out += [(a.id, (a,)) for a in creature.attacks]
    return out


def in_reach(record: AttackRecord | SpellRecord, gap: int, kind: str) -> bool:
    """Melee only at distance 1 (an objective square also at 0) (AC-ATTACK-2, AC-OBJ-4); ranged within long range
    (AC-RANGE-1, AC-RANGE-2)."""
    if isinstance(record, AttackRecord) and record.kind == "melee":
        return gap == 1 or (kind == "objective" and gap == 0)
    if isinstance(record, SpellRecord):
        assert record.range_ft != "self"
        return 0 < gap <= reach_squares(record.range_ft) or (kind == "objective" and gap == 0)
    assert record.range_ft is not None
    return 0 < gap <= reach_squares(record.long_range_ft or record.range_ft) or (kind == "objective" and gap == 0)


def attack_options(state: AcState, piece: str) -> list[AttackWith]:
    origin = _piece_footprint(state, piece)
    out = []
    for label, recs in routines(_stats(state, piece)):
        for kind, target, fp in attack_targets(state, piece):
            gap = distance(origin, fp)
            if all(in_reach(r, gap, kind) for r in recs):
                out.append(AttackWith(label, target))
    return out


def cast_options(state: AcState, piece: str) -> list[Any]:
    """Targeted spells at each legal target, area spells at each origin (AC-SPELL-3, AC-SPELL-4, AC-AOE-2)."""
    origin = _piece_footprint(state, piece)
    is_stand = state.stand(piece) is not None
    out: list[Any] = []
    for sp in _castable(state, piece):
        if sp.form == "targeted":
            out += [Cast(sp.id, t) for t in _spell_targets(state, piece, sp, origin, is_stand)]
            continue
        if sp.range_ft == "self":
            for direction, base, sq in self_origins(origin):
                if not state.grid.on_grid(sq):
                    continue
                if sp.shape == "cone":
                    out.append(CastArea(sp.id, base[0], base[1], direction[0], direction[1]))
                    out.append(CastArea(sp.id, base[0], base[1], direction[0], direction[1], True))
                elif sp.shape == "line":
                    out.append(CastArea(sp.id, sq[0], sq[1], direction[0], direction[1]))
                else:
                    out.append(CastArea(sp.id, sq[0], sq[1]))
            continue
        reach = reach_squares(sp.range_ft)
        for x in range(max(0, origin.x - reach), min(state.grid.width, origin.x + origin.size + reach)):
            for y in range(max(0, origin.y - reach), min(state.grid.height, origin.y + origin.size + reach)):
                gap = distance(origin, Footprint(x, y))
                if 0 < gap <= reach:
                    if sp.shape == "line":
                        out += [CastArea(sp.id, x, y, dx, dy) for dx, dy in DIRECTIONS]
                    else:
                        out.append(CastArea(sp.id, x, y))
    return out


def _spell_targets(state: AcState, piece: str, sp: SpellRecord, origin: Footprint, is_stand: bool) -> list[str]:
    out = []
    for kind, target, fp in attack_targets(state, piece):
        if kind == "stand" and not is_stand and (sp.max_targets or 1) < 5:
            continue  # a solo's targeted spell reaches stands only if it could target 5 or more (AC-SPELL-4)
        if kind == "objective" and not is_stand:
            continue  # a solo's targeted spell does not damage a square (AC-OBJ-4)
        if in_reach(sp, distance(origin, fp), kind):
            out.append(target)
    return out


def act_options(state: AcState, turn: Turn) -> tuple[Any, ...]:
    """What the active piece may do as its part of the turn's action (AC-UNIT-2, AC-ATTACK-*, AC-SPELL-2)."""
    piece = turn.piece
    options: list[Any] = []
    if state.stand(piece) is not None:
        unit = state.unit(turn.actor)
        if turn.doing == "attack":
            options += attack_options(state, piece)
            if unit.formation == "support" and turn.action == "attack":
                s = state.stand(piece)
                options += [
                    Support(m.id) for m in state.unit_stands(unit.id)
                    if m.id not in turn.done and m.id != piece and adjacent(m.footprint, s.footprint)  # type: ignore[union-attr]
                ]
        elif turn.doing == "cast":
            options += cast_options(state, piece)
    else:
        if turn.action in ("attack", "free"):
            options += attack_options(state, piece)
        if turn.action in ("cast", "free"):
            options += cast_options(state, piece)
        solo = state.solo(piece)
        if turn.action == "free" and not turn.solo and solo is not None and solo.joined_to is None:
            options += [Declare("dash"), Declare("hide")]  # a solo that left its stand (AC-ACT-3)
    return tuple(options) + (NoAction(),)


def joined_options(state: AcState, piece: str) -> tuple[Any, ...]:
    """A joined solo's move: stay, leave its stand for adjacent squares, or switch to an adjacent stand of the
    unit (AC-JOIN-4)."""
    solo = state.solo(piece)
    assert solo is not None and solo.joined_to is not None
    stand = state.stand(solo.joined_to)
    assert stand is not None
    options: list[Any] = [Stay()]
    size = solo.size
    c = state.creature(solo.creature)
    for m in state.unit_stands(stand.unit):
        if m.id != stand.id and adjacent(m.footprint, stand.footprint) and may_join(c.size, state.creature(m.creature).size):
            options.append(Switch(m.id))
    occ = occupancy(state)
    mover = Mover(piece, solo.side, True, Footprint(-99, -99, size), c.swim_ft > 0, 0)
    sfp = stand.footprint
    for x in range(sfp.x - size, sfp.x + sfp.size + 1):
        for y in range(sfp.y - size, sfp.y + sfp.size + 1):
            fp = Footprint(x, y, size)
            if adjacent(fp, sfp) and state.grid.holds(fp):
                place = classify(state.grid, occ, mover, fp, may_join=lambda _: False)
                if place.legal and place.stop:
                    options.append(Leave(x, y))
    return tuple(options)


def _more_targets(state: AcState, step: MoreTargets) -> tuple[Any, ...]:
    sp = next(s for s in _stats(state, step.caster).spells if s.id == step.spell)
    origin = _piece_footprint(state, step.caster)
    left = [t for t in _spell_targets(state, step.caster, sp, origin, state.stand(step.caster) is not None) if t not in step.chosen]
    return tuple(Cast(sp.id, t) for t in left) + (Done(),)


def _overflow_options(state: AcState, step: ChooseOverflow) -> tuple[PassOn, ...]:
    return tuple(PassOn(s.id) for s in _overflow_eligible(state, step.source, step.chain))


def _overflow_eligible(state: AcState, source: str, chain: tuple[str, ...]) -> list[Stand]:
    """Adjacent stands of the same unit and creature not yet in the chain; engine default first: lowest HP above 0,
    then lowest id, casualties last (AC-DMG-2)."""
    s = state.stand(source)
    assert s is not None
    eligible = [
        t for t in state.stands
        if t.unit == s.unit and t.creature == s.creature and t.id not in chain and t.id != source and adjacent(t.footprint, s.footprint)
    ]
    return sorted(eligible, key=lambda t: (t.hp == 0, t.hp, t.id))


def _place_options(state: AcState, step: PlaceSolo) -> tuple[Any, ...]:
    """Where a solo of an eliminated stand goes: on the vacated squares (its old anchor first), onto an adjacent
    stand of the unit, or failing room, the nearest legal place (AC-JOIN-5)."""
    solo = state.solo(step.solo)
    assert solo is not None
    c = state.creature(solo.creature)
    size = solo.size
    occ = occupancy(state)
    vacated = set(step.vacated)

    def fits(fp: Footprint) -> bool:
        if not state.grid.holds(fp):
            return False
        for sq in fp.squares():
            if sq in occ or (state.grid.at(sq).kind == "deep_water" and c.swim_ft == 0):
                return False
        return True

    places: list[Any] = []
    xs = [sq[0] for sq in vacated]
    ys = [sq[1] for sq in vacated]
    for x in range(min(xs) - size + 1, max(xs) + 1):
        for y in range(min(ys) - size + 1, max(ys) + 1):
            fp = Footprint(x, y, size)
            if any(sq in vacated for sq in fp.squares()) and fits(fp):
                places.append(PlaceAt(x, y))
    places.sort(key=lambda p: (p != PlaceAt(*step.anchor), p.y, p.x))
    vac_fp = [Footprint(sq[0], sq[1]) for sq in vacated]
    joins = [
        JoinStand(m.id) for m in state.unit_stands(step.unit)
        if any(adjacent(m.footprint, v) for v in vac_fp) and may_join(c.size, state.creature(m.creature).size)
    ]
    if not places and not joins:
        for radius in range(1, state.grid.width + state.grid.height):
            ring = [
                PlaceAt(x, y) for x in range(state.grid.width) for y in range(state.grid.height)
                if min(distance(Footprint(x, y, size), v) for v in vac_fp) == radius and fits(Footprint(x, y, size))
            ]
            if ring:
                places = sorted(ring, key=lambda p: (p.y, p.x))
                break
    return tuple(places) + tuple(joins) or (PlaceAt(*step.anchor),)


def _shift_options(state: AcState, step: ShiftGap) -> tuple[Any, ...]:
    """Allied stands next to the gap that may step into it: at least one vacated square entered, otherwise a
    legal place, cost and lock ignored; each stand shifts once a round (AC-END-2)."""
    occ = occupancy(state)
    vacated = set(step.vacated)
    options: list[Any] = []
    for s in state.side_stands(step.side):
        if s.id in state.shifted:
            continue
        for dx, dy in DIRECTIONS:
            fp = s.footprint.moved((dx, dy))
            if not any(sq in vacated for sq in fp.squares()) or not state.grid.holds(fp):
                continue
            c = state.creature(s.creature)
            ok = all(
                (occ.get(sq) is None or occ[sq][2] == s.id) and sq in vacated | set(s.footprint.squares()) | _free(state, occ, sq)
                and (state.grid.at(sq).kind != "deep_water" or c.swim_ft > 0)
                for sq in fp.squares()
            )
            if ok:
                options.append(Shift(s.id, dx, dy))
    return tuple(options) + (NoShift(),)


def _free(state: AcState, occ: dict[Square, Occupant], sq: Square) -> set[Square]:
    return {sq} if sq not in occ else set()


# --- applying a choice ------------------------------------------------------------------------------------


def apply(state: AcState, choice: Any) -> tuple[AcState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = []
    state = _apply_choice(state, choice, out)
    state = settle(state, out)
    return state, tuple(out)


def settle(state: AcState, out: list[Event]) -> AcState:
    """Run automatic steps and single-option decisions until a real chance, choice or the end."""
    while True:
        state = _advance(state, out)
        if state.ended:
            return state
        n = node(state)
        if isinstance(n, Decision) and len(n.options) == 1:
            state = _apply_choice(state, n.options[0], out)
            continue
        return state


def _apply_choice(state: AcState, choice: Any, out: list[Event]) -> AcState:
    if state.pending:
        step, rest = state.pending[0], state.pending[1:]
        return _resolve(replace(state, pending=rest), step, choice, out)
    turn = state.turn
    assert turn is not None
    if turn.stage == "rally":
        return _rally(state, turn, choice, out)
    if turn.stage == "bonus":
        return _bonus(state, turn, choice, out)
    if turn.stage == "declare":
        return _declare(state, turn, choice, out)
    if turn.stage == "activate":
        return _activate(state, turn, choice, out)
    if turn.phase in ("move1", "move2"):
        return _move(state, turn, choice, out)
    if turn.phase == "jbonus":
        return _solo_bonus(state, turn, choice, out)
    if turn.phase == "jmove":
        return _joined_move(state, turn, choice, out)
    if turn.phase in ("jdeclare", "sdeclare"):
        return _piece_declare(state, turn, choice, out)
    return _act(state, turn, choice, out)


def _push(state: AcState, *steps: Pending) -> AcState:
    return replace(state, pending=tuple(steps) + state.pending)


def _set_turn(state: AcState, **changes: Any) -> AcState:
    assert state.turn is not None
    return replace(state, turn=replace(state.turn, **changes))


def _replace_stand(state: AcState, stand: Stand) -> AcState:
    return replace(state, stands=tuple(stand if s.id == stand.id else s for s in state.stands))


def _replace_solo(state: AcState, solo: Solo) -> AcState:
    return replace(state, solos=tuple(solo if s.id == solo.id else s for s in state.solos))


def _replace_unit(state: AcState, unit: Unit) -> AcState:
    return replace(state, units=tuple(unit if u.id == unit.id else u for u in state.units))


def _add_vp(state: AcState, side: str, vp: int) -> AcState:
    a, b = state.vp
    return replace(state, vp=(a + vp, b) if side == "a" else (a, b + vp))


# turn stages


def _rally(state: AcState, turn: Turn, choice: Rally, out: list[Event]) -> AcState:
    state = _set_turn(state, stage="declare")
    if not choice.rally:
        return state
    return _push(_spend_bonus(state, turn.actor), RallyRoll(turn.actor))


def _bonus(state: AcState, turn: Turn, choice: Benefit, out: list[Event]) -> AcState:
    state = _set_turn(state, stage="declare")
    return state if choice.name == "none" else _push(_spend_bonus(state, turn.actor), CommanderRoll(turn.actor, choice.name))


def _spend_bonus(state: AcState, unit: str) -> AcState:
    """The unit's commander spends its bonus action (AC-CMD-2, AC-D20-9)."""
    commander = commander_of(state, unit)
    assert commander is not None and state.turn is not None
    return _set_turn(state, bonus_used=state.turn.bonus_used | {commander.id})


def _solo_bonus(state: AcState, turn: Turn, choice: Benefit, out: list[Event]) -> AcState:
    """A joined solo's bonus action at the start of its activation (AC-CMD-1..3)."""
    state = _set_turn(state, phase="jmove")
    if choice.name == "none":
        return state
    state = _set_turn(state, bonus_used=turn.bonus_used | {turn.piece})
    unit = state.unit(turn.actor)
    if choice.name == "command":
        out.append(ev.CommandTaken(commander=turn.piece, unit=unit.id))
        return _replace_unit(state, replace(unit, commander=turn.piece))
    if choice.name == "resign":
        out.append(ev.CommandGivenUp(commander=turn.piece, unit=unit.id))
        return _replace_unit(state, replace(unit, commander=None))
    return _push(state, CommanderRoll(unit.id, choice.name))


def _declare(state: AcState, turn: Turn, choice: Declare, out: list[Event]) -> AcState:
    out.append(ev.ActionDeclared(who=turn.actor, action=choice.action))
    if turn.solo:
        solo = state.solo(turn.actor)
        assert solo is not None
        speed = speed_squares(state.creature(solo.creature).speed_ft)
        budget = movement_budget(speed, formation=None, dash=choice.action == "dash")
        return _set_turn(state, stage="piece", action=choice.action, piece=solo.id, phase="move1", budget=budget)
    if choice.action == "configure":
        unit = state.unit(turn.actor)
        state = _replace_unit(state, replace(unit, formation=choice.formation))  # type: ignore[arg-type]
        out.append(ev.Configured(unit=unit.id, formation=choice.formation))
    return _set_turn(state, stage="activate", action=choice.action)


def _activate(state: AcState, turn: Turn, choice: Activate | ActivateSolo, out: list[Event]) -> AcState:
    """The next stand (or joined solo) moves and acts; it finishes before the next one starts (AC-MOVE-2)."""
    if isinstance(choice, ActivateSolo):
        state = replace(state, acted=state.acted | {choice.solo})
        return _set_turn(
            state, stage="piece", piece=choice.solo, phase="jbonus", unit_action=turn.action, action="free",
            piece_action="", budget=0, moved=True, road_used=False,
        )
    stand = state.stand(choice.stand)
    assert stand is not None
    state = _set_turn(
        state, done=turn.done | {stand.id}, piece=stand.id, moved=False, road_used=False, stage="piece", piece_action="",
    )
    if turn.action == "cast" and not _castable(state, stand.id):
        return _set_turn(state, phase="sdeclare", budget=0)  # AC-SPELL-2
    return _set_turn(state, phase="move1", budget=_stand_budget(state, state.turn, stand))  # type: ignore[arg-type]


def _stand_budget(state: AcState, turn: Turn, stand: Stand) -> int:
    """The stand's movement budget: the formation at the start of the turn, doubled or raised by Dash (AC-MOVE-1)."""
    unit = state.unit(stand.unit)
    speed = speed_squares(state.creature(stand.creature).speed_ft)
    formation = turn.formation if unit.type == "regiment" else None
    return movement_budget(speed, formation=formation, dash=turn.doing == "dash")  # type: ignore[arg-type]


def _piece_declare(state: AcState, turn: Turn, choice: Declare, out: list[Event]) -> AcState:
    """A piece's own action inside its unit's turn (AC-JOIN-6, AC-SPELL-2); then it moves."""
    out.append(ev.ActionDeclared(who=turn.piece, action=choice.action))
    if turn.phase == "jdeclare":
        solo = state.solo(turn.piece)
        assert solo is not None
        speed = speed_squares(state.creature(solo.creature).speed_ft)
        budget = movement_budget(speed, formation=None, dash=choice.action == "dash")
        return _set_turn(state, action=choice.action, phase="move1", budget=budget, moved=False, road_used=False)
    stand = state.stand(turn.piece)
    assert stand is not None
    state = _set_turn(state, piece_action=choice.action)
    return _set_turn(state, phase="move1", budget=_stand_budget(state, state.turn, stand))  # type: ignore[arg-type]


def _move(state: AcState, turn: Turn, choice: Any, out: list[Event]) -> AcState:
    piece = turn.piece
    if isinstance(choice, Stay):
        return _after_move(state, turn, moved=False)
    dest: Destination = choice
    if dest.kind == "flee":
        return _piece_done(_flee(state, piece, out))
    stand = state.stand(piece)
    if dest.kind == "join":
        solo = state.solo(piece)
        assert solo is not None
        state = _replace_solo(state, replace(solo, joined_to=dest.stand, hidden=False))
        out.append(ev.Moved(piece=piece, x=dest.x, y=dest.y, cost=dest.cost, road=dest.road))
        out.append(ev.Joined(solo=piece, stand=dest.stand))
        return _piece_done(state)
    if stand is not None:
        state = _replace_stand(state, replace(stand, x=dest.x, y=dest.y))
    else:
        solo = state.solo(piece)
        assert solo is not None
        state = _replace_solo(state, replace(solo, x=dest.x, y=dest.y))
    out.append(ev.Moved(piece=piece, x=dest.x, y=dest.y, cost=dest.cost, road=dest.road))
    state = _reveal_near(state, piece, out)
    left = 0 if dest.road else turn.budget - dest.cost
    state = _set_turn(state, budget=left, road_used=turn.road_used or dest.road, moved=True)
    return _after_move(state, state.turn, moved=True)  # type: ignore[arg-type]


def _after_move(state: AcState, turn: Turn, *, moved: bool) -> AcState:
    if turn.phase == "move1":
        if state.solo(turn.piece) is not None and turn.action == "join":
            return _piece_done(state)
        return _set_turn(state, phase="act")
    return _piece_done(state)


def _reveal_near(state: AcState, piece: str, out: list[Event]) -> AcState:
    """A hidden piece stops being hidden when an enemy stand or solo ends a move next to it (AC-HIDE-4)."""
    fp = _piece_footprint(state, piece)
    side = state.side_of(piece)
    for s in state.side_stands(other(side)):
        if s.hidden and distance(s.footprint, fp) == 1:
            state = _replace_stand(state, replace(s, hidden=False))
            out.append(ev.Revealed(piece=s.id))
    for solo in state.solos:
        if solo.side != side and solo.hidden and solo.on_grid and distance(solo.footprint, fp) == 1:
            state = _replace_solo(state, replace(solo, hidden=False))
            out.append(ev.Revealed(piece=solo.id))
    return state


def _may_move_again(state: AcState, turn: Turn) -> bool:
    """Skirmisher stands and solos split their movement around the action (AC-SKIRM-5, AC-SOLO-6); a regiment stand
    moves all before or all after it (AC-REG-5)."""
    stand = state.stand(turn.piece)
    if stand is None:
        solo = state.solo(turn.piece)
        return solo is not None and solo.on_grid and solo.status == "up" and turn.budget > 0
    if state.unit(stand.unit).type == "skirmisher":
        return turn.budget > 0
    return not turn.moved


def _piece_done(state: AcState) -> AcState:
    turn = state.turn
    assert turn is not None
    if turn.solo:
        return _set_turn(state, stage="end", piece="", phase="")
    if state.solo(turn.piece) is not None:  # back to the unit's own action (AC-MOVE-2)
        return _set_turn(state, stage="activate", piece="", phase="", action=turn.unit_action, unit_action="", piece_action="")
    return _set_turn(state, stage="activate", piece="", phase="", piece_action="")


def _flee(state: AcState, piece: str, out: list[Event]) -> AcState:
    """A piece with a square off the grid has fled the battlefield: eliminated at once, no gap left; its joined
    solos leave with it; a unit whose last stand flees is eliminated now (AC-MOVE-5, AC-END-3)."""
    stand = state.stand(piece)
    if stand is None:
        solo = state.solo(piece)
        assert solo is not None
        out.append(ev.Fled(piece=piece, unit=""))
        return _replace_solo(state, replace(solo, status="gone"))
    unit = state.unit(stand.unit)
    out.append(ev.Fled(piece=piece, unit=unit.id))
    state = replace(state, stands=tuple(s for s in state.stands if s.id != piece), lost=_lost_plus(state, unit.side))
    for solo in state.solos:
        if solo.joined_to == piece and solo.status in ("up", "dying", "stable"):
            out.append(ev.Fled(piece=solo.id, unit=unit.id))
            state = _replace_solo(state, replace(solo, status="gone", joined_to=None))
    state = _check_commander(state, unit.id, out)
    if not state.unit_stands(unit.id):
        state = _eliminate_unit(state, unit.id, out)
    return state


def _lost_plus(state: AcState, side: str, n: int = 1) -> tuple[int, int]:
    a, b = state.lost
    return (a + n, b) if side == "a" else (a, b + n)


def _eliminate_unit(state: AcState, unit_id: str, out: list[Event], *, score: bool = True) -> AcState:
    """A unit with no stands left is eliminated; the enemy's attrition objective scores it (AC-END-3, AC-OBJ-2)."""
    unit = state.unit(unit_id)
    if unit.eliminated:
        return state
    state = _replace_unit(state, replace(unit, eliminated=True, commander=None))
    vp = 0
    if score:
        for o in state.static.objectives:
            if o.kind == "attrition" and o.side != unit.side:
                vp = unit.attrition_vp or o.vp_per_unit or 0
                state = _add_vp(state, o.side, vp)
                break
    out.append(ev.UnitEliminated(unit=unit_id, scorer=other(unit.side), vp=vp))
    return state


def _check_commander(state: AcState, unit_id: str, out: list[Event]) -> AcState:
    """A commander that falls or is no longer joined to a stand of its unit stops being commander (AC-CMD-2)."""
    unit = state.unit(unit_id)
    if unit.commander is not None and commander_of(state, unit_id) is None:
        out.append(ev.CommandLost(commander=unit.commander, unit=unit_id))
        state = _replace_unit(state, replace(unit, commander=None))
    return state


def _joined_move(state: AcState, turn: Turn, choice: Any, out: list[Event]) -> AcState:
    solo = state.solo(turn.piece)
    assert solo is not None
    if isinstance(choice, Switch):
        state = _replace_solo(state, replace(solo, joined_to=choice.stand))
        out.append(ev.Joined(solo=solo.id, stand=choice.stand))
        return _set_turn(state, phase="act", action="free")
    if isinstance(choice, Leave):
        unit = state.unit(turn.actor)
        state = _replace_solo(state, replace(solo, joined_to=None, x=choice.x, y=choice.y))
        out.append(ev.LeftStand(solo=solo.id, x=choice.x, y=choice.y))
        state = _check_commander(state, unit.id, out)
        if unit.routed:  # leaving a routed unit costs no movement: a whole unattached solo's turn follows (AC-JOIN-6)
            return _set_turn(state, phase="jdeclare", action="free", budget=0)
        return _set_turn(state, phase="act", action="free", budget=0)
    return _set_turn(state, phase="act", action="free")


def _act(state: AcState, turn: Turn, choice: Any, out: list[Event]) -> AcState:
    piece = turn.piece
    if isinstance(choice, AttackWith):
        state = _attack(state, piece, choice, supported=piece in turn.supported, out=out)
    elif isinstance(choice, Support):
        out.append(ev.Supported(piece=piece, helped=choice.stand))
        state = _set_turn(state, supported=turn.supported | {choice.stand})
    elif isinstance(choice, Cast):
        state = _cast_targeted(state, piece, choice.spell, choice.target, out)
    elif isinstance(choice, CastArea):
        state = _cast_area(state, piece, choice, out)
    elif isinstance(choice, Declare):  # a solo that left its stand Dashes or Hides (AC-ACT-3)
        out.append(ev.ActionDeclared(who=piece, action=choice.action))
        state = _set_turn(state, action=choice.action)
        if choice.action == "hide":
            return _hide(state, state.turn)  # type: ignore[arg-type]
        solo = state.solo(piece)
        assert solo is not None
        state = _set_turn(state, budget=turn.budget + speed_squares(state.creature(solo.creature).speed_ft))
    turn = state.turn  # type: ignore[assignment]
    assert turn is not None
    if turn.piece != piece:
        return state
    if _may_move_again(state, turn):
        return _set_turn(state, phase="move2")
    return _piece_done(state)


# attacks


def _cover(state: AcState, fp: Footprint) -> str:
    """Half cover for a piece with any square in forest (AC-TERR-3)."""
    return "half" if any(state.grid.on_grid(s) and state.grid.at(s).kind == "forest" for s in fp.squares()) else "none"


def _adjacent_enemy(state: AcState, piece: str, origin: Footprint) -> bool:
    """Next to an enemy stand or a conscious unattached enemy solo (AC-D20-8)."""
    side = state.side_of(piece)
    return any(adjacent(origin, s.footprint) for s in state.side_stands(other(side))) or any(
        adjacent(origin, s.footprint) for s in state.solos if s.side != side and s.on_grid and s.status == "up"
    )


def _attacker_flags(state: AcState, piece: str) -> dict[str, Any]:
    stand = state.stand(piece)
    if stand is not None:
        unit = state.unit(stand.unit)
        return {
            "attacker": "stand", "attacker_isolated": stand.isolated, "hidden": stand.hidden,
            "attacker_formation": unit.formation or "none", "incited": unit.incited,
        }
    solo = state.solo(piece)
    assert solo is not None
    return {
        "attacker": "solo", "attacker_isolated": solo.isolated and solo.joined_to is None, "hidden": solo.hidden,
        "attacker_formation": "none", "incited": False,
    }


def _target_info(state: AcState, kind: str, target: str) -> tuple[Footprint, int, int, bool, bool, Creature | None, bool]:
    """(footprint, AC, HP, isolated, defensive, creature, hidden) of an attack's target."""
    if kind == "objective":
        o = state.static.objective(target)
        assert o.square is not None
        return Footprint(o.square[0], o.square[1]), o.ac, state.hp_of(target), False, False, None, False
    if kind == "stand":
        s = state.stand(target)
        assert s is not None
        c = state.creature(s.creature)
        return s.footprint, c.ac, s.hp, s.isolated, state.unit(s.unit).formation == "defensive", c, s.hidden
    solo = state.solo(target)
    assert solo is not None
    c = state.creature(solo.creature)
    fp = _piece_footprint(state, target)
    return fp, c.ac, solo.hp, solo.isolated and solo.joined_to is None, False, c, solo.hidden


def attack_questions(
    state: AcState, piece: str, using: str, kind: str, target: str, *, supported: bool
) -> list[AttackInput]:
    """The ``attack`` questions of one Attack action against one target (see ``attack_plan``)."""
    return [q for q, _push in attack_plan(state, piece, using, kind, target, supported=supported)]


def attack_plan(
    state: AcState, piece: str, using: str, kind: str, target: str, *, supported: bool
) -> list[tuple[AttackInput, int]]:
    """The ``attack`` questions of one stand's or solo's Attack action against one target (§6.3): a stand with a
    reach-10 ft melee attack rolls it once more (AC-ATTACK-3); each roll's advantage and disadvantage come from the
    battlefield (AC-ATTACK-7, AC-TERR-6, AC-D20-8, AC-HIDE-4, AC-INTEG-1, AC-CMD-3); the target's AC from its
    formation and cover (AC-ATTACK-8). Rolls are grouped by the flags that differ between them (range, resistance)
    and split to fit the procedure's limits. Each question comes with the squares one of its hits pushes the target
    (AC-STAND-4), so rolls of a pushing attack are asked apart from the others."""
    creature = _stats(state, piece)
    recs = dict(routines(creature))[using]
    flags = _attacker_flags(state, piece)
    origin = _piece_footprint(state, piece)
    flat = list(recs)
    if flags["attacker"] == "stand":
        flat += [r for r in recs if r.kind == "melee" and r.reach >= 10][:1]
    fp, ac, hp, isolated, defensive, tc, hidden = _target_info(state, kind, target)
    gap = distance(origin, fp)
    groups: dict[tuple[str, bool, int], list[AttackRecord]] = {}
    for r in flat:
        long_range = r.kind == "ranged" and gap > reach_squares(r.range_ft or 5)
        response = tc.response(r.damage_type) if tc is not None else "none"
        push = forced_squares(r.push_ft or 0) if kind != "objective" else 0
        groups.setdefault((response, long_range, push), []).append(r)
    questions = []
    for (response, long_range, push), rolls in groups.items():
        for chunk in _chunks(rolls):
            entries = tuple(
                AttackEntry(kind=r.kind, attack_bonus=r.attack_bonus, damage=r.damage, count=n)
                for r, n in _counted(chunk)
            )
            questions.append((AttackInput(
                attacker=flags["attacker"], action="attack", attacks=entries, target=kind, target_ac=ac,
                target_hp=max(1, hp), target_isolated=isolated, target_defensive=defensive,
                target_cover=_cover(state, fp) if kind != "objective" else "none", resistance=response,
                attacker_isolated=flags["attacker_isolated"], attacker_formation=flags["attacker_formation"],
                supported=supported and flags["attacker_formation"] == "support", incited=flags["incited"],
                higher_ground=state.grid.level(origin) > state.grid.level(fp), long_range=long_range,
                adjacent_enemy=_adjacent_enemy(state, piece, origin), extra_advantage=flags["hidden"],
                extra_disadvantage=hidden,
            ), push))
    return questions


def _chunks(rolls: list[AttackRecord]) -> list[list[AttackRecord]]:
    out: list[list[AttackRecord]] = [[]]
    ceiling = 0
    for r in rolls:
        top = parse_dice(r.damage).highest(critical=True)
        if len(out[-1]) == ATTACK_ROLLS_PER_QUESTION or ceiling + top > ATTACK_CEILING_PER_QUESTION:
            out.append([])
            ceiling = 0
        out[-1].append(r)
        ceiling += top
    return out


def _counted(rolls: list[AttackRecord]) -> list[tuple[AttackRecord, int]]:
    out: list[tuple[AttackRecord, int]] = []
    for r in rolls:
        if out and out[-1][0] is r:
            out[-1] = (r, out[-1][1] + 1)
        else:
            out.append((r, 1))
    return out


def _kind_of(state: AcState, target: str) -> str:
    if state.stand(target) is not None:
        return "stand"
    if state.solo(target) is not None:
        return "solo"
    return "objective"


def _attack(state: AcState, piece: str, choice: AttackWith, *, supported: bool, out: list[Event]) -> AcState:
    kind = _kind_of(state, choice.target)
    side = state.side_of(piece)
    steps = [
        AttackRoll(piece, side, choice.target, kind, choice.using, q, push)
        for q, push in attack_plan(state, piece, choice.using, kind, choice.target, supported=supported)
    ]
    return _push(_unhide(state, piece, out), *steps)


def _unhide(state: AcState, piece: str, out: list[Event]) -> AcState:
    """Attacking or casting ends hiding (AC-HIDE-4)."""
    stand = state.stand(piece)
    if stand is not None and stand.hidden:
        out.append(ev.Revealed(piece=piece))
        return _replace_stand(state, replace(stand, hidden=False))
    solo = state.solo(piece)
    if solo is not None and solo.hidden:
        out.append(ev.Revealed(piece=piece))
        return _replace_solo(state, replace(solo, hidden=False))
    return state


# spells


def _spell(state: AcState, piece: str, spell: str) -> SpellRecord:
    return next(s for s in _stats(state, piece).spells if s.id == spell)


def _spend(state: AcState, piece: str, spell: str) -> AcState:
    stand = state.stand(piece)
    if stand is not None:
        return _replace_stand(state, replace(stand, spells_used=spend_spell(stand.spells_used, spell)))
    solo = state.solo(piece)
    assert solo is not None
    return _replace_solo(state, replace(solo, spells_used=spend_spell(solo.spells_used, spell)))


def _cast_targeted(state: AcState, piece: str, spell: str, target: str, out: list[Event], chosen: tuple[str, ...] = ()) -> AcState:
    sp = _spell(state, piece, spell)
    chosen = chosen + (target,)
    if not chosen[:-1]:
        state = _unhide(_spend(state, piece, spell), piece, out)
    if len(chosen) < (sp.max_targets or 1):
        step = MoreTargets(piece, spell, chosen)
        if len(_more_targets(state, step)) > 1:
            return _push(state, step)
    out.append(ev.SpellCast(caster=piece, spell=spell, aim=",".join(chosen)))
    steps: list[Pending] = []
    for t in chosen:
        kind = _kind_of(state, t)
        steps += _spell_effects(state, piece, sp, t, kind, partial=False)
        if kind == "stand":  # a joined solo is part of the stand for spells (AC-SPELL-6)
            steps += [s for solo in state.solos if solo.joined_to == t and solo.status != "dead"
                      for s in _spell_effects(state, piece, sp, solo.id, "solo", partial=False)]
    return _push(state, *steps)


def area_squares(state: AcState, piece: str, choice: CastArea) -> frozenset[Square]:
    """The squares of an area spell on the grid (AC-AOE-1, AC-AOE-3..6)."""
    sp = _spell(state, piece, choice.spell)
    n = area_size(sp.size_ft or 5)
    if sp.shape == "cone":
        return clip(state.grid, cone((choice.x, choice.y), (choice.dx, choice.dy), n, mirrored=choice.mirrored))
    if sp.shape == "line":
        return clip(state.grid, line((choice.x, choice.y), (choice.dx, choice.dy), n))
    squares = burst((choice.x, choice.y), n)
    if sp.range_ft == "self":  # a self-origin area never includes the caster (AC-AOE-2)
        own = set(_piece_footprint(state, piece).squares())
        squares = tuple(s for s in squares if s not in own)
    return clip(state.grid, squares)


def area_targets(state: AcState, piece: str, area: frozenset[Square]) -> list[tuple[str, str, bool]]:
    """(kind, id, partly covered) of everything an area affects: stands with any square in it, unattached solos
    with any square in it, the solos joined to covered stands, and objective squares (AC-AOE-7, AC-SPELL-6)."""
    out: list[tuple[str, str, bool]] = []
    for s in state.stands:
        cover = coverage(area, s.footprint)
        if cover != "none":
            out.append(("stand", s.id, cover == "partial"))
            out += [("solo", solo.id, False) for solo in state.solos if solo.joined_to == s.id and solo.status != "dead"]
    out += [("solo", s.id, False) for s in state.solos if s.on_grid and coverage(area, s.footprint) != "none"]
    side = state.side_of(piece)
    out += [
        ("objective", o.id, False) for o in _objectives_to_destroy(state, side)
        if tuple(o.square) in area  # type: ignore[arg-type]
    ]
    return out


def _cast_area(state: AcState, piece: str, choice: CastArea, out: list[Event]) -> AcState:
    sp = _spell(state, piece, choice.spell)
    state = _unhide(_spend(state, piece, choice.spell), piece, out)
    out.append(ev.SpellCast(caster=piece, spell=sp.id, aim=f"({choice.x},{choice.y})"))
    area = area_squares(state, piece, choice)
    steps: list[Pending] = []
    for kind, target, partial in area_targets(state, piece, area):
        steps += _spell_effects(state, piece, sp, target, kind, partial=partial)
    return _push(state, *steps)


def _spell_effects(state: AcState, piece: str, sp: SpellRecord, target: str, kind: str, *, partial: bool) -> list[Pending]:
    """The roll one spell makes against one target: a spell attack (``attack`` with action spell), a saving throw
    (``save``), or automatic damage (AC-SPELL-*, AC-AOE-7..9, AC-OBJ-4)."""
    side = state.side_of(piece)
    caster = "stand" if state.stand(piece) is not None else "solo"
    if kind == "objective" and sp.form == "targeted" and caster == "solo":
        return []
    if partial and sp.damage is None:
        return []
    fp, ac, hp, isolated, defensive, tc, hidden = _target_info(state, kind, target)
    response = tc.response(sp.damage_type) if tc is not None else "none"
    if sp.resolution == "attack":
        assert sp.kind is not None and sp.attack_bonus is not None
        flags = _attacker_flags(state, piece)
        origin = _piece_footprint(state, piece)
        entry = AttackEntry(kind=sp.kind, attack_bonus=sp.attack_bonus, damage=sp.damage or "0", count=1)
        q = AttackInput(
            attacker=caster, action="spell", attacks=(entry,), target=kind, target_ac=ac, target_hp=max(1, hp),
            target_isolated=isolated, target_defensive=defensive,
            target_cover=_cover(state, fp) if kind != "objective" else "none", resistance=response,
            attacker_isolated=flags["attacker_isolated"], attacker_formation=flags["attacker_formation"],
            incited=flags["incited"], higher_ground=state.grid.level(origin) > state.grid.level(fp),
            adjacent_enemy=_adjacent_enemy(state, piece, origin), extra_advantage=flags["hidden"],
            extra_disadvantage=hidden,
        )
        return [AttackRoll(piece, side, target, kind, sp.id, q)]
    if sp.resolution == "save":
        assert sp.save_ability is not None and sp.dc is not None
        target_stand = state.stand(target) if kind == "stand" else None
        q = SaveInput(
            ability=sp.save_ability, save_bonus=tc.save(sp.save_ability) if tc is not None else 0, dc=sp.dc,
            target=kind, spell_form=sp.form, caster=caster, damage=sp.damage, on_success=sp.on_success,
            resistance=response, target_isolated=isolated if kind == "solo" else False,
            partial_coverage=partial and kind == "stand",
            skirmisher=target_stand is not None and state.unit(target_stand.unit).type == "skirmisher",
            prepared=target_stand is not None and state.unit(target_stand.unit).prepared,
        )
        return [SaveRoll(piece, side, sp.id, target, kind, q)]
    if sp.damage is None:
        return []
    up = int(sp.form == "area" and caster == "stand")
    return [AutoDamage(piece, side, sp.id, target, kind, sp.damage, up, int(partial), response)]


# resolving pending steps


def _resolve(state: AcState, step: Pending, choice: Any, out: list[Event]) -> AcState:  # noqa: C901
    if isinstance(step, InitRoll):
        return _init_roll(state, step.who, choice, out)
    if isinstance(step, TieBreak):
        return _tie_break(state, step.group, choice, out)
    if isinstance(step, CommanderRoll):
        unit = state.unit(step.unit)
        commander = commander_of(state, unit.id)
        assert commander is not None
        out.append(ev.CommanderBenefit(commander=commander.id, unit=unit.id, benefit=step.benefit, success=choice.success))
        if choice.success and step.benefit == "incite":
            return _replace_unit(state, replace(unit, incite_next=True))
        if choice.success and step.benefit == "prepare":
            return _replace_unit(state, replace(unit, prepared=True, prepared_round=state.round))
        return state
    if isinstance(step, RallyRoll):
        unit = state.unit(step.unit)
        commander = commander_of(state, unit.id)
        out.append(ev.RallyRolled(commander=commander.id if commander else "", unit=unit.id, success=not choice.routed))
        return state if choice.routed else _replace_unit(state, replace(unit, routed=False))
    if isinstance(step, AttackRoll):
        o: AttackOutcome = choice
        out.append(ev.Attacked(attacker=step.attacker, defender=step.target, using=step.using, hits=o.hits, crits=o.crits, damage=o.damage))
        if step.push and o.hits:  # the push follows the damage and any overflow choice (AC-MOVE-8)
            state = _push(state, ForcedMove(step.target, step.attacker, step.push * o.hits))
        return _deal(state, step.target, step.kind, o.damage, step.side, out, hits=o.hits, crits=o.crits)
    if isinstance(step, SaveRoll):
        so: SaveOutcome = choice
        out.append(ev.SpellResult(caster=step.caster, spell=step.spell, target=step.target, result=so.result, damage=so.damage))
        return _deal(state, step.target, step.kind, so.damage, step.side, out, hits=1, crits=0)
    if isinstance(step, AutoDamage):
        out.append(ev.SpellResult(caster=step.caster, spell=step.spell, target=step.target, result="hit", damage=choice))
        return _deal(state, step.target, step.kind, choice, step.side, out, hits=1, crits=0)
    if isinstance(step, StealthRoll):
        out.append(ev.Hid(piece=step.piece, hidden=choice))
        stand = state.stand(step.piece)
        if stand is not None:
            return _replace_stand(state, replace(stand, hidden=choice))
        solo = state.solo(step.piece)
        assert solo is not None
        return _replace_solo(state, replace(solo, hidden=choice))
    if isinstance(step, MoreTargets):
        if isinstance(choice, Done):
            return _resolve_targets(state, step, out)
        return _cast_targeted(state, step.caster, step.spell, choice.target, out, step.chosen)
    if isinstance(step, ChooseOverflow):
        out.append(ev.Overflowed(source=step.source, piece=choice.stand, damage=step.damage))
        return _damage_stand(state, choice.stand, step.damage, step.chain, step.side, out)
    if isinstance(step, PlaceSolo):
        return _place_solo(state, step, choice, out)
    if isinstance(step, ShiftGap):
        if isinstance(choice, Shift):
            stand = state.stand(choice.stand)
            assert stand is not None
            state = _replace_stand(state, replace(stand, x=stand.x + choice.dx, y=stand.y + choice.dy))
            out.append(ev.Shifted(piece=stand.id, x=stand.x + choice.dx, y=stand.y + choice.dy))
            return replace(state, shifted=state.shifted | {stand.id})
        return state
    if isinstance(step, DeathRoll):
        return _death_result(state, step.solo, choice, out)
    if isinstance(step, MoraleRoll):
        out.append(ev.MoraleChecked(unit=step.unit, routed=choice.routed))
        unit = state.unit(step.unit)
        return _replace_unit(state, replace(unit, routed=True)) if choice.routed else state
    if isinstance(step, AwardCustom):
        if choice.award:
            o = state.static.objective(step.objective)
            out.append(ev.CustomScored(objective=o.id, scorer=o.side, vp=o.vp or 0))
            return replace(_add_vp(state, o.side, o.vp or 0), scored=state.scored | {o.id})
        return state
    if isinstance(step, RoutRoll):
        out.append(ev.RoutRolled(unit=step.unit, eliminated=choice))
        if choice:
            unit = state.unit(step.unit)
            gone = state.unit_stands(unit.id)
            state = replace(state, stands=tuple(s for s in state.stands if s.unit != unit.id), lost=_lost_plus(state, unit.side, len(gone)))
            state = _eliminate_unit(state, unit.id, out, score=False)  # AC-WIN-3
        return state
    raise AssertionError(step)


def _resolve_targets(state: AcState, step: MoreTargets, out: list[Event]) -> AcState:
    sp = _spell(state, step.caster, step.spell)
    # every target is chosen: resolve as a cast with max_targets reached
    out.append(ev.SpellCast(caster=step.caster, spell=step.spell, aim=",".join(step.chosen)))
    steps: list[Pending] = []
    for t in step.chosen:
        kind = _kind_of(state, t)
        steps += _spell_effects(state, step.caster, sp, t, kind, partial=False)
        if kind == "stand":
            steps += [s for solo in state.solos if solo.joined_to == t and solo.status != "dead"
                      for s in _spell_effects(state, step.caster, sp, solo.id, "solo", partial=False)]
    return _push(state, *steps)


def _init_roll(state: AcState, who: str, roll: int, out: list[Event]) -> AcState:
    """Each unit rolls d20 + its initiative modifier, every solo d20 + Dexterity (AC-INIT-1, AC-INIT-2)."""
    if state.solo(who) is not None:
        solo = state.solo(who)
        assert solo is not None
        modifier = state.creature(solo.creature).abilities.dex
    else:
        unit = state.unit(who)
        stands = state.unit_stands(who)
        ids = {s.id for s in stands}
        mods = [state.creature(s.creature).abilities.dex for s in stands]
        mods += [state.creature(s.creature).abilities.dex for s in state.solos if s.joined_to in ids]
        modifier = initiative_modifier(unit.type, mods)
    out.append(ev.InitiativeRolled(who=who, roll=roll, total=roll + modifier))
    state = replace(state, rolls=state.rolls + ((who, modifier, roll + modifier),))
    if any(isinstance(p, InitRoll) for p in state.pending):
        return state
    groups = tie_groups(state.rolls)  # AC-INIT-3
    state = replace(state, order=tuple(i for g in groups for i in g))
    ties = [TieBreak(g) for g in groups if len(g) > 1]
    if ties:
        return _push(state, *ties)
    return _start_battle(state, out)


def _tie_break(state: AcState, group: tuple[str, ...], order: tuple[str, ...], out: list[Event]) -> AcState:
    start = state.order.index(group[0])
    state = replace(state, order=state.order[:start] + tuple(order) + state.order[start + len(group):])
    if any(isinstance(p, TieBreak) for p in state.pending):
        return state
    return _start_battle(state, out)


def _start_battle(state: AcState, out: list[Event]) -> AcState:
    out.append(ev.TurnOrder(order=",".join(state.order)))
    return _new_round(state, out)


def _new_round(state: AcState, out: list[Event]) -> AcState:
    """A round: every unit and unattached solo in initiative order (AC-ROUND-1); a solo acts on its unit's turn if it
    starts the round joined, on its own count otherwise (AC-INIT-4)."""
    state = replace(
        state, round=state.round + 1, turn_index=-1, turn=None, acted=frozenset(), shifted=frozenset(),
        solos=tuple(replace(s, own_turn=s.joined_to is None) for s in state.solos),
    )
    out.append(ev.RoundStarted(round=state.round))
    return state


def forced_move(state: AcState, step: ForcedMove, out: list[Event]) -> AcState:
    """Forced movement (AC-MOVE-8): the target moves straight away from the pusher, square by square, ignoring
    movement cost and the adjacency lock; it stops before any square it could not legally occupy (stop on: an enemy
    piece, an allied stand or solo, deep water without a swim speed); a step with any square off the grid makes it
    flee the battlefield (AC-MOVE-5). A piece that has left the grid, died or joined is not pushed."""
    stand = state.stand(step.piece)
    solo = state.solo(step.piece)
    if stand is None and (solo is None or not solo.on_grid):
        return state
    start = stand.footprint if stand is not None else solo.footprint  # type: ignore[union-attr]
    direction = away_from(_piece_footprint(state, step.by), start)
    if direction is None:
        return state
    creature = _stats(state, step.piece)
    mover = Mover(step.piece, state.side_of(step.piece), stand is None, start, creature.swim_ft > 0, 0)
    occ = occupancy(state)
    fp, moved = start, 0
    for _ in range(step.squares):
        place = classify(state.grid, occ, mover, fp.moved(direction), may_join=lambda _: False)
        if place.flee:
            out.append(ev.Pushed(piece=step.piece, by=step.by, x=fp.x + direction[0], y=fp.y + direction[1], squares=moved + 1))
            return _flee(state, step.piece, out)
        if not (place.legal and place.stop):
            break
        fp, moved = fp.moved(direction), moved + 1
    if not moved:
        return state
    if stand is not None:
        state = _replace_stand(state, replace(stand, x=fp.x, y=fp.y))
    elif solo is not None:
        state = _replace_solo(state, replace(solo, x=fp.x, y=fp.y))
    out.append(ev.Pushed(piece=step.piece, by=step.by, x=fp.x, y=fp.y, squares=moved))
    return _reveal_near(state, step.piece, out)


def _deal(state: AcState, target: str, kind: str, damage: int, side: str, out: list[Event], *, hits: int, crits: int) -> AcState:
    if kind == "stand":
        return _damage_stand(state, target, damage, (), side, out) if damage > 0 else state
    if kind == "solo":
        return _damage_solo(state, target, damage, out, hits=hits, crits=crits)
    return _damage_objective(state, target, damage, out)


def _damage_stand(state: AcState, target: str, damage: int, chain: tuple[str, ...], side: str, out: list[Event]) -> AcState:
    """Damage to a stand; what its HP cannot take overflows to an adjacent stand of the same unit and creature, each
    stand once per instance; a casualty takes nothing and passes all on (AC-DMG-1..4)."""
    stand = state.stand(target)
    if stand is None:
        return state
    taken = min(stand.hp, damage)
    if taken:
        state = _replace_stand(state, replace(stand, hp=stand.hp - taken))
        out.append(ev.Damaged(piece=target, damage=taken, hp=stand.hp - taken))
        if stand.hp - taken == 0:
            out.append(ev.BecameCasualty(piece=target))
    rest = damage - taken
    if rest <= 0:
        return state
    chain = chain + (target,)
    eligible = _overflow_eligible(state, target, chain)
    if not eligible:
        return state
    if len(eligible) > 1:
        return _push(state, ChooseOverflow(target, rest, chain, side))
    out.append(ev.Overflowed(source=target, piece=eligible[0].id, damage=rest))
    return _damage_stand(state, eligible[0].id, rest, chain, side, out)


def _damage_solo(state: AcState, target: str, damage: int, out: list[Event], *, hits: int, crits: int) -> AcState:
    """Damage to a solo under the standard rules at once: an NPC dies at 0 HP, a PC falls dying unless the damage
    left over is at least its HP maximum; a dying PC takes a failed death save per hit, two for a critical hit
    (AC-SOLO-5, AC-DMG-5)."""
    solo = state.solo(target)
    if solo is None or damage <= 0 or solo.status in ("dead", "gone"):
        return state
    maximum = state.creature(solo.creature).hp
    if solo.status == "up":
        if damage < solo.hp:
            out.append(ev.Damaged(piece=target, damage=damage, hp=solo.hp - damage))
            return _replace_solo(state, replace(solo, hp=solo.hp - damage))
        left = damage - solo.hp
        out.append(ev.Damaged(piece=target, damage=solo.hp, hp=0))
        if not solo.pc or left >= maximum:
            solo = replace(solo, hp=0, status="dead", joined_to=None if solo.joined_to is None else solo.joined_to)
            out.append(ev.SoloDown(piece=target, how="killed"))
        else:
            solo = replace(solo, hp=0, status="dying", successes=0, failures=0)
            out.append(ev.SoloDown(piece=target, how="dying"))
    else:
        failures = solo.failures + max(1, hits + crits)
        if damage >= maximum or failures >= 3:
            solo = replace(solo, status="dead", failures=min(3, failures))
            out.append(ev.SoloDown(piece=target, how="killed"))
        else:
            solo = replace(solo, status="dying", failures=failures)
    state = _replace_solo(state, solo)
    for unit in state.units:
        if unit.commander == target:
            state = _check_commander(state, unit.id, out)
    return state


def _damage_objective(state: AcState, target: str, damage: int, out: list[Event]) -> AcState:
    """An objective square loses HP; at 0 its scorer gains its VP at once (AC-OBJ-3)."""
    hp = state.hp_of(target)
    if damage <= 0 or hp == 0:
        return state
    left = max(0, hp - damage)
    state = replace(state, objective_hp=tuple((i, left if i == target else h) for i, h in state.objective_hp))
    out.append(ev.ObjectiveDamaged(objective=target, damage=hp - left, hp=left))
    if left == 0:
        o = state.static.objective(target)
        out.append(ev.ObjectiveDestroyed(objective=target, scorer=o.side, vp=o.vp or 0))
        state = replace(_add_vp(state, o.side, o.vp or 0), scored=state.scored | {target})
    return state


def _place_solo(state: AcState, step: PlaceSolo, choice: Any, out: list[Event]) -> AcState:
    solo = state.solo(step.solo)
    assert solo is not None
    if isinstance(choice, JoinStand):
        out.append(ev.Joined(solo=solo.id, stand=choice.stand))
        return _replace_solo(state, replace(solo, joined_to=choice.stand))
    out.append(ev.LeftStand(solo=solo.id, x=choice.x, y=choice.y))
    state = _replace_solo(state, replace(solo, joined_to=None, x=choice.x, y=choice.y))
    unit = next((u for u in state.units if u.commander == solo.id), None)
    return _check_commander(state, unit.id, out) if unit is not None else state


def _death_result(state: AcState, ident: str, outcome: Any, out: list[Event]) -> AcState:
    """End-of-round death saves: dead, stable (unconscious at 0 HP) or revived with 1 HP (AC-END-4)."""
    solo = state.solo(ident)
    assert solo is not None
    out.append(ev.DeathSaves(piece=ident, result=outcome.result, rolls=outcome.rolls))
    if outcome.result == "dead":
        return _replace_solo(state, replace(solo, status="dead"))
    if outcome.result == "revived":
        return _replace_solo(state, replace(solo, status="up", hp=1, successes=0, failures=0))
    return _replace_solo(state, replace(solo, status="stable", successes=0, failures=0))


# --- automatic progress: turns and the end of the round ------------------------------------------------


def _advance(state: AcState, out: list[Event]) -> AcState:
    while not state.ended:
        if state.pending:
            step = state.pending[0]
            if isinstance(step, EndStep):
                state = _end_step(replace(state, pending=state.pending[1:]), step.name, out)
                continue
            if isinstance(step, ForcedMove):
                state = forced_move(replace(state, pending=state.pending[1:]), step, out)
                continue
            return state
        turn = state.turn
        if turn is None:
            if state.round == 0:
                return state
            state = _next_turn(state, out)
            continue
        if turn.stage == "start":
            state = _start_turn(state, turn, out)
            continue
        if turn.stage == "activate" and not activate_options(state, turn):
            state = _set_turn(state, stage="end")
            continue
        if turn.stage == "end":
            state = _end_turn(state, turn, out)
            continue
        if turn.stage == "piece":
            alive = state.stand(turn.piece) is not None or (
                (s := state.solo(turn.piece)) is not None and s.status == "up" and s.status != "gone"
            )
            if not alive:
                state = _piece_done(state)
                continue
            if turn.phase == "act" and turn.doing == "hide":
                state = _hide(state, turn)
                continue
            if turn.phase == "act" and turn.doing in ("dash", "retreat", "configure", "none", "join"):
                state = _set_turn(state, phase="move2") if _may_move_again(state, turn) else _piece_done(state)
                continue
        return state
    return state


def _next_turn(state: AcState, out: list[Event]) -> AcState:
    index = state.turn_index + 1
    while index < len(state.order):
        who = state.order[index]
        solo = state.solo(who)
        if solo is not None:
            if solo.own_turn and solo.status == "up" and solo.joined_to is None and who not in state.acted:
                return replace(state, turn_index=index, turn=Turn(who, True, "start"))
        else:
            unit = state.unit(who)
            if not unit.eliminated and state.unit_stands(who):
                return replace(state, turn_index=index, turn=Turn(who, False, "start", formation=unit.formation))
        index += 1
    return replace(state, turn_index=index, turn=None, pending=state.pending + tuple(EndStep(n) for n in END_STEPS))


def _start_turn(state: AcState, turn: Turn, out: list[Event]) -> AcState:
    side = _turn_side(state, turn)
    out.append(ev.TurnStarted(who=turn.actor, side=side))
    if state.round == 1 and turn.actor in state.static.surprised:  # AC-INIT-5
        out.append(ev.Surprised(who=turn.actor))
        return _set_turn(state, stage="end")
    if turn.solo:
        return _set_turn(state, stage="declare")
    unit = state.unit(turn.actor)
    state = _replace_unit(state, replace(unit, incited=unit.incite_next, incite_next=False))  # AC-CMD-3 Incite
    commander = commander_of(state, unit.id)
    if commander is None:
        return _set_turn(state, stage="declare")
    return _set_turn(state, stage="rally" if unit.routed else "bonus")


def _hide(state: AcState, turn: Turn) -> AcState:
    """A piece in forest or obscured squares makes a Stealth check against the best passive Perception among enemy
    stands and unattached enemy solos; others take no action (AC-HIDE-1..3)."""
    piece = turn.piece
    fp = _piece_footprint(state, piece)
    can = any(state.grid.on_grid(s) and (state.grid.at(s).kind == "forest" or state.grid.at(s).obscured) for s in fp.squares())
    state = _set_turn(state, phase="move2") if _may_move_again(state, turn) else _piece_done(state)
    if not can:
        return state
    side = state.side_of(piece)
    watchers = [state.creature(s.creature).passive_perception for s in state.side_stands(other(side))]
    watchers += [state.creature(s.creature).passive_perception for s in state.solos if s.side != side and s.on_grid and s.status == "up"]
    dc = max(watchers, default=10)
    return _push(state, StealthRoll(piece, _stats(state, piece).skill("stealth"), dc))


def _end_turn(state: AcState, turn: Turn, out: list[Event]) -> AcState:
    """End of a turn: isolation is recomputed (AC-INTEG-6); Incite's advantage ends; Prepare set in an earlier
    round ends with the commander's (the unit's) turn (AC-CMD-3, AC-CMD-4)."""
    if turn.solo:
        state = replace(state, acted=state.acted | {turn.actor})
    else:
        unit = state.unit(turn.actor)
        prepared = unit.prepared and unit.prepared_round >= state.round
        state = _replace_unit(state, replace(unit, incited=False, prepared=prepared))
    state = replace(state, turn=None)
    return _isolation(state, out)


def _isolation(state: AcState, out: list[Event]) -> AcState:
    """Recompute who is isolated (AC-INTEG-2..6)."""
    types = {u.id: u.type for u in state.units}
    by_unit: dict[str, list[Stand]] = {}
    for s in state.stands:
        by_unit.setdefault(s.unit, []).append(s)
    stands = tuple(replace(s, isolated=stand_isolated(s, types[s.unit], by_unit[s.unit])) for s in state.stands)  # type: ignore[arg-type]
    state = replace(state, stands=stands)
    solos = tuple(
        replace(s, isolated=solo_isolated(s, state.side_stands(s.side))) if s.on_grid else replace(s, isolated=False)
        for s in state.solos
    )
    return replace(state, solos=solos)


END_STEPS = ("eliminate", "units", "deaths", "isolation", "morale", "defend", "custom", "judge")


def _end_step(state: AcState, name: str, out: list[Event]) -> AcState:
    """The end of the round, in order (AC-END-1..8)."""
    if name == "eliminate":
        return _eliminate_casualties(state, out)
    if name == "units":
        for unit in state.units:
            if not unit.eliminated and not state.unit_stands(unit.id):
                state = _eliminate_unit(state, unit.id, out)
        return state
    if name == "deaths":
        return _push(state, *(DeathRoll(s.id) for s in sorted(state.solos, key=lambda s: s.id) if s.status == "dying"))
    if name == "isolation":
        return _isolation(state, out)
    if name == "morale":
        steps = []
        for who in state.order:
            if state.solo(who) is not None:
                continue
            unit = state.unit(who)
            stands = state.unit_stands(who)
            if unit.eliminated or unit.routed or not stands:
                continue
            if must_check_morale(starting_stands=unit.starting_stands, stands_lost=unit.starting_stands - len(stands)):
                steps.append(MoraleRoll(who))
        return _push(state, *steps)
    if name == "defend":
        return _defend(state, out)
    if name == "finish":
        return _finish(state, out)
    if name == "custom":
        return _push(state, *(AwardCustom(o.id) for o in state.static.objectives if o.kind == "custom" and o.id not in state.scored))
    return _judge(state, out)


def _eliminate_casualties(state: AcState, out: list[Event]) -> AcState:
    """Casualties leave the grid; their joined solos are placed; each gap may take one allied stand (AC-END-1, AC-END-2).
    Shifts follow the initiative order of the units that lost stands."""
    rank = {who: i for i, who in enumerate(state.order)}
    removed = sorted((s for s in state.stands if s.hp == 0), key=lambda s: (rank.get(s.unit, 0), s.id))
    if not removed:
        return state
    steps: list[Pending] = []
    places: list[Pending] = []
    for s in removed:
        side = state.unit(s.unit).side
        out.append(ev.StandRemoved(piece=s.id))
        vacated = tuple(s.footprint.squares())
        places += [PlaceSolo(solo.id, s.unit, vacated, (s.x, s.y)) for solo in state.solos if solo.joined_to == s.id and solo.status in ("up", "dying", "stable")]
        steps.append(ShiftGap(side, s.unit, vacated))
        state = replace(state, lost=_lost_plus(state, side))
    gone = {s.id for s in removed}
    state = replace(state, stands=tuple(s for s in state.stands if s.id not in gone))
    return _push(state, *places, *steps)


def _defend(state: AcState, out: list[Event]) -> AcState:
    """Defend: 1 VP if at least 2 of the side's stands are on or next to the protected square, the square still
    stands, and no enemy stand or unattached enemy solo is within 2 squares of it (AC-OBJ-5)."""
    for o in state.static.objectives:
        if o.kind != "defend":
            continue
        target = state.static.objective(o.protects or "")
        assert target.square is not None
        square = Footprint(target.square[0], target.square[1])
        if state.hp_of(target.id) == 0:
            continue
        mine = sum(1 for s in state.side_stands(o.side) if distance(s.footprint, square) <= 1)
        threat = any(distance(fp, square) <= 2 for fp in _enemy_footprints(state, o.side))
        if mine >= 2 and not threat:
            out.append(ev.DefendScored(objective=o.id, scorer=o.side))
            state = _add_vp(state, o.side, 1)
    return state


def verdict(vp_a: int, vp_b: int) -> tuple[str, str]:
    """Compare totals: a lead of 3 or more is decisive, 1–2 tactical, equal a draw (AC-WIN-2)."""
    if vp_a == vp_b:
        return "draw", ""
    winner = "a" if vp_a > vp_b else "b"
    return ("decisive" if abs(vp_a - vp_b) >= DECISIVE_LEAD else "tactical"), winner


def _judge(state: AcState, out: list[Event]) -> AcState:
    """The battle ends when a side has 10 VP, or a side has no stands left, or the last round is over; judged on VP
    (AC-WIN-1, AC-WIN-2, AC-WIN-4); after a decisive victory each surviving losing unit flees on a d20 of 10+."""
    vp_a, vp_b = state.vp
    out.append(ev.RoundEnded(round=state.round, vp_a=vp_a, vp_b=vp_b))
    empty = not state.side_stands("a") or not state.side_stands("b")
    if max(vp_a, vp_b) < VICTORY_VP and not empty and state.round < state.static.max_rounds:
        return _new_round(state, out)
    result, winner = verdict(vp_a, vp_b)
    if result == "draw" and state.static.extra_round_on_tie and not state.extra_round and not empty:
        return _new_round(replace(state, extra_round=True), out)
    state = replace(state, result=result, winner=winner)
    if result == "decisive":
        loser = other(winner)
        survivors = [who for who in state.order if state.solo(who) is None and state.unit(who).side == loser and state.unit_stands(who)]
        if survivors:
            return replace(state, pending=tuple(RoutRoll(u) for u in survivors) + (EndStep("finish"),))
    return _finish(state, out)


def _finish(state: AcState, out: list[Event]) -> AcState:
    vp_a, vp_b = state.vp
    out.append(ev.BattleEnded(result=state.result, winner=state.winner or "none", vp_a=vp_a, vp_b=vp_b))
    return replace(state, ended=True, pending=())


def summary(state: AcState) -> dict[str, Any]:
    """The result: casualties (stands lost) per side, VP, the kind of result and the rounds fought."""
    return {
        "casualties": {"a": state.lost[0], "b": state.lost[1]},
        "vp": {"a": state.vp[0], "b": state.vp[1]},
        "result": state.result,
        "rounds": state.round,
    }
