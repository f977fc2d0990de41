"""Whole battles: priority, Move, Shoot and Fight phases as a state machine (sections 6–8).

The state is frozen; ``node`` says what comes next and ``apply`` is pure. Chance nodes carry the
distributions of the ruleset's own procedures (``shoot``, ``strikes``, the duel's best scores);
every choice the rules leave to a player is a Decision whose first option is the default policy's.
Steps that need neither dice nor a player are resolved inside ``apply`` (``_settle``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from kessen.core.engine import Chance, Decision, Node, Terminal
from kessen.core.events import Event
from kessen.core.geometry import Point
from kessen.dice import Dist, d
from kessen.io.validation import validate_data
from kessen.rulesets.battlehost import events as ev
from kessen.rulesets.battlehost.battlefield import (
    Board,
    Model,
    Retreat,
    charge_point,
    distance,
    enemies_in_contact,
    furthest_move,
    is_engaged,
    partially_hides,
    retreat,
    terrain_blocks_sight,
)
from kessen.rulesets.battlehost.duels import (
    decide_duel,
    might_to_spend,
    roll_off_winner,
    side_best_dist,
)
from kessen.rulesets.battlehost.inputs import FightModel, ShootInput, StrikesInput
from kessen.rulesets.battlehost.might import (
    HeroDie,
    die_score,
    die_succeeds,
    hit_die,
    might_choices,
    rolled,
    second_die,
    wound_die,
)
from kessen.rulesets.battlehost.pairing import Fight, Split, groups, splits
from kessen.rulesets.battlehost.profiles import Side, other_side
from kessen.rulesets.battlehost.rolls import raise_with_might, useful_might
from kessen.rulesets.battlehost.scenario import Scenario, board_of, models_of
from kessen.rulesets.battlehost.shooting import MISSED, ShootOutcome, shoot
from kessen.rulesets.battlehost.strikes import (
    StrikesOutcome,
    makes_strikes,
    rolls_per_strike,
    strike_targets_allowed,
    strikes,
)
from kessen.rulesets.battlehost.wounding import to_wound_modifier, wound_chart

SIDES: tuple[Side, Side] = ("good", "evil")
MIN_MOVE = 0.05  # inches: shorter advances are not offered

# --- options a player chooses ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveTo:
    """A straight move (BH-MOVE-2), a charge into base contact with *charge* (BH-MOVE-5), after standing up if *stand_up*."""

    model: str
    x: float
    y: float
    charge: str | None = None
    stand_up: bool = False


@dataclass(frozen=True, slots=True)
class StandUp:
    """A prone model stands up without moving (BH-MOVE-7), or after its side won a duel (BH-BACK-5) if *stand*."""

    model: str
    stand: bool = True


@dataclass(frozen=True, slots=True)
class EndMoves:
    """The player moves no more models this phase (BH-MOVE-1)."""


@dataclass(frozen=True, slots=True)
class ShootAt:
    """A model shoots at a target (BH-SHOOT-1..4)."""

    model: str
    target: str


@dataclass(frozen=True, slots=True)
class EndShooting:
    """The player shoots with no more models this phase (BH-SHOOT-1)."""


@dataclass(frozen=True, slots=True)
class ChooseSplit:
    """The priority player's choice among the allowed splits of a group into fights (BH-FIGHT-1)."""

    fights: Split


@dataclass(frozen=True, slots=True)
class ChooseFight:
    """The next fight to resolve (BH-FIGHT-2)."""

    fight: Fight


@dataclass(frozen=True, slots=True)
class UseTwoHanded:
    """Whether a model uses its two-handed weapon in this fight (BH-DUEL-2)."""

    model: str
    use: bool


@dataclass(frozen=True, slots=True)
class SpendMight:
    """Might points spent on the side's best duel die (BH-DUEL-6, BH-DICE-4)."""

    points: int


@dataclass(frozen=True, slots=True)
class NextLoser:
    """The loser that backs away next (BH-BACK-8)."""

    model: str


@dataclass(frozen=True, slots=True)
class MakeWayChoice:
    """Whether the blocking friend makes way (BH-BACK-6)."""

    make_way: bool


@dataclass(frozen=True, slots=True)
class NextStriker:
    """The winner that strikes next (BH-STRIKE-7)."""

    model: str


@dataclass(frozen=True, slots=True)
class StrikeAt:
    """The target of the next strike (BH-STRIKE-7, BH-STRIKE-8)."""

    target: str


# --- chance outcomes -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PriorityRoll:
    """Both players' priority dice (BH-TURN-2)."""

    good: int
    evil: int


@dataclass(frozen=True, slots=True)
class GivenPriority:
    """The scenario gives the first turn's priority (section 4): a step with one certain outcome."""

    player: Side


@dataclass(frozen=True, slots=True)
class DuelDice:
    """Each side's best duel score after modifiers (BH-DUEL-1..5, BH-DUEL-7)."""

    good_best: int
    evil_best: int


# --- the state -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fighting:
    """The fight being resolved and how far it has got (BH-FIGHT-3)."""

    fight: Fight
    stage: str = "declare"  # declare, dice, might, roll_off, stand_up, back_away, strike
    declared: tuple[tuple[str, bool], ...] = ()
    good_best: int = 0
    evil_best: int = 0
    might_order: tuple[Side, ...] = ()
    might_spent: int = 0
    winner: Side | None = None
    decided_by: str = ""
    stand_offers: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()
    offer: tuple[str, Retreat] | None = None
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
    """A frozen game state of a battlehost battle."""

    name: str
    board: Board
    turns: int
    models: tuple[Model, ...]
    start: tuple[int, int]
    first_priority: Side | None = None
    turn: int = 0
    priority: Side | None = None
    phase: str = "priority"  # priority, move, shoot, fight, over
    acting: Side | None = None
    moved: tuple[tuple[str, float], ...] = ()
    done: frozenset[str] = frozenset()
    shot: frozenset[str] = frozenset()
    shooting: ShootAt | None = None
    split_groups: tuple[tuple[Split, ...], ...] = ()
    fights: tuple[Fight, ...] = ()
    picker: Side | None = None
    fighting: Fighting | None = None
    casualties: tuple[tuple[str, Side], ...] = ()
    ended: bool = False
    hero_die: HeroDie | None = None  # a Hero's own hit or To Wound die, rolled alone for Might (BH-DICE-4)

    def model(self, model_id: str) -> Model | None:
        return next((m for m in self.models if m.id == model_id), None)

    def get(self, model_id: str) -> Model:
        found = self.model(model_id)
        assert found is not None, model_id
        return found

    def side_models(self, side: Side) -> tuple[Model, ...]:
        return tuple(m for m in self.models if m.side == side)

    def moved_inches(self, model_id: str) -> float:
        """The distance a model moved this turn (BH-MOVE-8)."""
        return dict(self.moved).get(model_id, 0.0)


def initial_state(scenario: Scenario) -> BhState:
    """The board as the scenario sets it, before the first priority roll."""
    models = models_of(scenario)
    return BhState(
        name=scenario.name, board=board_of(scenario), turns=scenario.turns, models=models,
        start=(len(scenario.good), len(scenario.evil)), first_priority=scenario.first_priority,
    )


# --- where the game stands ---------------------------------------------------------------------------------


def node(state: BhState) -> Node:
    """The next node: the battle's end, a roll, or a player's choice."""
    if state.ended:
        return Terminal(winner(state), summary(state))
    if state.hero_die is not None:
        return _hero_die_node(state, state.hero_die)
    if state.phase == "priority":
        if state.turn == 0 and state.first_priority is not None:
            return Chance(Dist.always(GivenPriority(state.first_priority)), "priority given")
        return Chance(priority_dist(first_turn=state.turn == 0), "priority roll")
    if state.phase == "move":
        return Decision(state.acting or "", "move", move_options(state))
    if state.phase == "shoot":
        if state.shooting is not None:
            return Chance(shot_dist(state, state.shooting), "shot")
        return Decision(state.acting or "", "shoot", shoot_options(state))
    assert state.phase == "fight"
    if state.split_groups:
        return Decision(state.priority or "", "split", tuple(ChooseSplit(s) for s in state.split_groups[0]))
    if state.fighting is None:
        return Decision(state.picker or "", "fight", tuple(ChooseFight(f) for f in fightable(state)))
    return _fight_node(state, state.fighting)


def priority_dist(*, first_turn: bool) -> Dist[PriorityRoll]:
    """Both players' D6; in the first turn a tie is rolled again, so only unequal pairs remain (BH-TURN-2)."""
    pairs = d(6).combine(d(6), PriorityRoll)
    return pairs.filter_given(lambda r: r.good != r.evil) if first_turn else pairs


# --- Move phase (BH-MOVE-1..8) ---------------------------------------------------------------------------------


def move_limit(m: Model, *, stand_up: bool) -> float:
    """Mv inches, or half of it after standing up (BH-MOVE-2, BH-MOVE-7)."""
    return m.move / 2 if stand_up else float(m.move)


@functools.lru_cache(maxsize=16)
def move_options(state: BhState) -> tuple[Any, ...]:
    """For each model of the moving side that has not moved and is not engaged: a charge at each enemy
    it can reach, an advance towards the nearest enemy (and half of it for a shooter), standing up for
    a prone model; then ending the player's moves (BH-MOVE-1..7)."""
    side = state.acting
    charges: list[MoveTo] = []
    advances: list[Any] = []
    for m in state.models:
        if m.side != side or m.id in state.done or is_engaged(state.models, m):
            continue  # BH-MOVE-6
        limit = move_limit(m, stand_up=m.prone)
        enemies = sorted((e for e in state.models if e.side != side), key=lambda e: (distance(m, e), e.id))
        for e in enemies:
            if distance(m, e) > limit:
                break
            p = charge_point(m, e, state.models, state.board, limit=limit)
            if p is not None:
                charges.append(MoveTo(m.id, p.x, p.y, charge=e.id, stand_up=m.prone))
        if enemies:
            toward = enemies[0].centre - m.centre
            run = furthest_move(m, toward.unit(), state.models, state.board, limit=limit)
            runs = [run] + ([m.move / 2] if m.weapon is not None and not m.prone and run > m.move / 2 + MIN_MOVE else [])
            for length in runs:
                if length >= MIN_MOVE:
                    p = m.centre + toward.unit().scaled(length)
                    advances.append(MoveTo(m.id, p.x, p.y, stand_up=m.prone))
        if m.prone:
            advances.append(StandUp(m.id))
    return (*charges, *advances, EndMoves())


def _apply_move(state: BhState, choice: Any, out: list[Event]) -> BhState:
    if isinstance(choice, EndMoves):
        return _next_mover(state, out)
    if isinstance(choice, StandUp):
        out.append(ev.StoodUp(model=choice.model))
        m = state.get(choice.model)
        return replace(_put(state, replace(m, prone=False)), done=state.done | {m.id})
    assert isinstance(choice, MoveTo)
    m = state.get(choice.model)
    if choice.stand_up:
        out.append(ev.StoodUp(model=m.id))
        m = replace(m, prone=False)
    dest = Point(choice.x, choice.y)
    inches = (dest - m.centre).length()
    if choice.charge is not None:
        out.append(ev.Charged(model=m.id, target=choice.charge, x=dest.x, y=dest.y, inches=inches))
    else:
        out.append(ev.Moved(model=m.id, x=dest.x, y=dest.y, inches=inches))
    state = _put(state, m.at(dest))
    return replace(state, done=state.done | {m.id}, moved=state.moved + ((m.id, inches),))


def _next_mover(state: BhState, out: list[Event]) -> BhState:
    if state.acting == state.priority:
        return replace(state, acting=other_side(state.priority or "good"))
    out.append(ev.PhaseStarted(turn=state.turn, phase="shoot"))
    return replace(state, phase="shoot", acting=state.priority)


# --- Shoot phase (BH-SHOOT-1..9) ---------------------------------------------------------------------------


def may_shoot(state: BhState, m: Model) -> bool:
    """A missile weapon (and a Shoot value), not moved more than half its Mv, not engaged, not yet shot, not prone (BH-SHOOT-2, BH-SHOOT-3).

    [DECISION] A prone model does not shoot (the published game's lying-down models cannot).
    """
    return (
        m.weapon is not None
        and m.shoot_value is not None
        and not m.prone
        and m.id not in state.shot
        and state.moved_inches(m.id) <= m.move / 2 + 1e-9
        and not is_engaged(state.models, m)
    )


def may_target(state: BhState, shooter: Model, target: Model) -> bool:
    """An enemy in range, in sight, and partly hidden by no other model (BH-SHOOT-4, BH-GEO-8)."""
    assert shooter.weapon is not None
    if target.side == shooter.side or distance(shooter, target) > shooter.weapon.range_inches + 1e-9:
        return False
    if terrain_blocks_sight(shooter, target, state.board):
        return False
    return not any(
        partially_hides(x, shooter, target) for x in state.models if x.id not in (shooter.id, target.id)
    )


def targets(state: BhState, shooter: Model) -> tuple[Model, ...]:
    """The enemies *shooter* may choose, nearest first (BH-SHOOT-4)."""
    found = [e for e in state.models if e.side != shooter.side and may_target(state, shooter, e)]
    return tuple(sorted(found, key=lambda e: (distance(shooter, e), e.id)))


@functools.lru_cache(maxsize=16)
def shoot_options(state: BhState) -> tuple[Any, ...]:
    """Every model of the shooting side that may shoot, at every target it may choose; then ending its shooting (BH-SHOOT-1)."""
    options: list[Any] = []
    for m in state.models:
        if m.side == state.acting and may_shoot(state, m):
            options.extend(ShootAt(m.id, t.id) for t in targets(state, m))
    return (*options, EndShooting())


def shot_input(state: BhState, shot: ShootAt) -> ShootInput:
    """The odds question of one shot: Shoot value, moved this turn, the weapon's Strength, the target (BH-SHOOT-5..9)."""
    m, t = state.get(shot.model), state.get(shot.target)
    assert m.weapon is not None and m.shoot_value is not None
    return validate_data(
        ShootInput,
        {"shoot_value": m.shoot_value, "moved": state.moved_inches(m.id) > 0, "strength": m.weapon.strength,
         "defence": t.defence, "wounds": t.wounds_left},
    )


def shot_dist(state: BhState, shot: ShootAt) -> Dist[ShootOutcome]:
    return _cached(shoot, shot_input(state, shot))


def _apply_shoot(state: BhState, choice: Any, out: list[Event]) -> BhState:
    if isinstance(choice, EndShooting):
        if state.acting == state.priority:
            return replace(state, acting=other_side(state.priority or "good"))
        return _start_fight_phase(state, out)
    assert isinstance(choice, ShootAt)
    state = replace(state, shooting=choice, shot=state.shot | {choice.model})
    m = state.get(choice.model)
    if rolls_die_by_die(m):
        assert m.shoot_value is not None
        return replace(state, hero_die=hit_die(m.id, shoot_value=m.shoot_value, moved=state.moved_inches(m.id) > 0))
    return state


def _shot_result(state: BhState, o: ShootOutcome, out: list[Event]) -> BhState:
    shot = state.shooting
    assert shot is not None
    state = replace(state, shooting=None)
    out.append(ev.Shot(model=shot.model, target=shot.target, hit=o.hit, wounded=o.wounded))
    if o.wounded:
        state = _wound(state, shot.target, 1, out)  # BH-SHOOT-9
    return state


# --- Fight phase (BH-FIGHT-*, BH-DUEL-*, BH-BACK-*, BH-STRIKE-*) -------------------------------------------------


def _start_fight_phase(state: BhState, out: list[Event]) -> BhState:
    """Split the engaged models into fights (BH-FIGHT-1); the priority player picks first (BH-FIGHT-2)."""
    out.append(ev.PhaseStarted(turn=state.turn, phase="fight"))
    fixed: list[Fight] = []
    open_groups: list[tuple[Split, ...]] = []
    for group in groups(state.models):
        allowed = splits(state.models, group)
        if len(allowed) == 1:
            fixed.extend(allowed[0])
        else:
            open_groups.append(allowed)
    return replace(state, phase="fight", acting=None, fights=tuple(fixed), split_groups=tuple(open_groups), picker=state.priority)


def fightable(state: BhState) -> tuple[Fight, ...]:
    """Unresolved fights with a living model on each side (BH-FIGHT-2)."""
    alive = {m.id for m in state.models}
    return tuple(f for f in state.fights if any(g in alive for g in f.good) and any(e in alive for e in f.evil))


def side_of(fight: Fight, side: Side) -> tuple[str, ...]:
    return fight.good if side == "good" else fight.evil


def _living(state: BhState, ids: Sequence[str]) -> tuple[Model, ...]:
    return tuple(m for m in (state.model(i) for i in ids) if m is not None)


def fight_models(state: BhState, f: Fighting, side: Side) -> tuple[FightModel, ...]:
    """A side's models in the fight as the odds procedures see them, with the two-handed declarations."""
    return tuple(
        validate_data(
            FightModel,
            {"fight": m.fight, "attacks": m.attacks, "strength": m.strength, "defence": m.defence,
             "wounds": m.wounds_left, "two_handed": f.uses_two_handed(m.id), "prone": m.prone},
        )
        for m in _living(state, side_of(f.fight, side))
    )


def duel_dice_dist(good: tuple[FightModel, ...], evil: tuple[FightModel, ...]) -> Dist[DuelDice]:
    """Each side's best score: a keep-highest of its dice (BH-DUEL-1..5, BH-DUEL-7), from duels.side_best_dist."""
    return _duel_dice(tuple((m.attacks, m.two_handed, m.duel_modifier) for m in good), tuple((m.attacks, m.two_handed, m.duel_modifier) for m in evil))


_DIST_CACHE: dict[Any, Dist[Any]] = {}


def _cached(fn: Any, arg: Any) -> Dist[Any]:
    key = (fn, arg)
    found = _DIST_CACHE.get(key)
    if found is None:
        found = _DIST_CACHE[key] = fn(arg)
    return found


def _duel_dice(good: tuple[tuple[int, bool, int], ...], evil: tuple[tuple[int, bool, int], ...]) -> Dist[DuelDice]:
    key = ("duel", good, evil)
    found = _DIST_CACHE.get(key)
    if found is None:
        def models(spec: tuple[tuple[int, bool, int], ...]) -> list[FightModel]:
            return [FightModel(fight=1, attacks=a, strength=1, defence=1, two_handed=th, duel_modifier=mod) for a, th, mod in spec]

        found = _DIST_CACHE[key] = side_best_dist(models(good)).combine(side_best_dist(models(evil)), DuelDice)
    return found


ROLL_OFF_DIE: Dist[int] = d(6)


def side_fight_value_of(state: BhState, f: Fighting, side: Side) -> int:
    """The highest Fight value among the side's models in the fight (BH-DUEL-8)."""
    return max(m.fight for m in _living(state, side_of(f.fight, side)))


def side_might(state: BhState, f: Fighting, side: Side) -> int:
    """The Might the side's Heroes in the fight have left (BH-DUEL-6)."""
    return sum(m.might_left for m in _living(state, side_of(f.fight, side)) if m.is_hero)


def might_options(state: BhState, f: Fighting, side: Side) -> tuple[SpendMight, ...]:
    """0 to the useful most points on the side's best die; the default policy's choice first (BH-DUEL-6, BH-PROC-4)."""
    own, other = (f.good_best, f.evil_best) if side == "good" else (f.evil_best, f.good_best)
    most = useful_might(own, side_might(state, f, side))
    best = might_to_spend(
        own, other, own_fight=side_fight_value_of(state, f, side),
        other_fight=side_fight_value_of(state, f, other_side(side)), might=most,
    )
    return (SpendMight(best), *(SpendMight(k) for k in range(most + 1) if k != best))


def strike_input(striker: Model, target: Model, *, strikes_made: int, trapped: bool, two_handed: bool) -> StrikesInput:
    return validate_data(
        StrikesInput,
        {"strikes": strikes_made, "strength": striker.strength, "defence": target.defence, "wounds": target.wounds_left,
         "trapped": trapped, "two_handed": two_handed},
    )


def allowed_targets(state: BhState, f: Fighting) -> tuple[str, ...]:
    """The losers the current striker may aim its next strike at (BH-STRIKE-7, BH-STRIKE-9), current target first."""
    losers = side_of(f.fight, other_side(f.winner or "good"))
    alive = [state.model(i) is not None for i in losers]
    struck = [losers.index(s) for s in f.struck]
    allowed = [losers[i] for i in strike_targets_allowed(alive, struck)]
    current = f.struck[-1] if f.struck else None
    if current in allowed:
        allowed.remove(current)
        allowed.insert(0, current)
    return tuple(allowed)


def _strike_dist(state: BhState, f: Fighting) -> Dist[StrikesOutcome]:
    assert f.striker is not None and f.target is not None
    striker, target = state.get(f.striker), state.get(f.target)
    several = len(allowed_targets(state, f)) > 1
    made = 1 if several else f.strikes_left
    return _cached(strikes, strike_input(striker, target, strikes_made=made, trapped=f.target in f.trapped, two_handed=f.uses_two_handed(striker.id)))


def _fight_node(state: BhState, f: Fighting) -> Node:
    if f.stage == "declare":
        m = _next_declarer(state, f)
        assert m is not None
        return Decision(m.side, "two-handed", (UseTwoHanded(m.id, True), UseTwoHanded(m.id, False)))
    if f.stage == "dice":
        return Chance(duel_dice_dist(fight_models(state, f, "good"), fight_models(state, f, "evil")), "duel roll")
    if f.stage == "might":
        side = f.might_order[0]
        return Decision(side, "might", might_options(state, f, side))
    if f.stage == "roll_off":
        return Chance(ROLL_OFF_DIE, "roll-off")
    if f.stage == "stand_up":
        prone = f.stand_offers[0]
        return Decision(f.winner or "", "stand up", (StandUp(prone, True), StandUp(prone, False)))
    if f.stage == "back_away":
        loser_side = other_side(f.winner or "good")
        if f.offer is not None:
            return Decision(loser_side, "make way", (MakeWayChoice(True), MakeWayChoice(False)))
        return Decision(loser_side, "back away", tuple(NextLoser(m) for m in f.losers))
    assert f.stage == "strike"
    if f.striker is None:
        return Decision(f.winner or "", "striker", tuple(NextStriker(m) for m in f.strikers))
    if f.target is None:
        return Decision(f.winner or "", "strike", tuple(StrikeAt(t) for t in allowed_targets(state, f)))
    return Chance(_strike_dist(state, f), "strike")


def _next_declarer(state: BhState, f: Fighting) -> Model | None:
    """The next model with a two-handed weapon to declare, the priority player's models first (BH-DUEL-2)."""
    declared = {m for m, _ in f.declared}
    first = state.priority or "good"
    for side in (first, other_side(first)):
        for m in _living(state, side_of(f.fight, side)):
            if m.two_handed and m.id not in declared:
                return m
    return None


def _apply_fight(state: BhState, choice: Any, out: list[Event]) -> BhState:
    if state.split_groups:
        assert isinstance(choice, ChooseSplit)
        return replace(state, fights=state.fights + choice.fights, split_groups=state.split_groups[1:])
    f = state.fighting
    if f is None:
        assert isinstance(choice, ChooseFight)
        fight = choice.fight
        out.append(ev.FightChosen(player=state.picker or "", good=", ".join(_alive_ids(state, fight.good)), evil=", ".join(_alive_ids(state, fight.evil))))
        fights = tuple(x for x in state.fights if x != fight)
        return replace(state, fights=fights, fighting=Fighting(fight))
    if f.stage == "declare":
        out.append(ev.TwoHandedDeclared(model=choice.model, used=choice.use))
        return _set(state, replace(f, declared=f.declared + ((choice.model, choice.use),)))
    if f.stage == "dice":
        o: DuelDice = choice
        out.append(ev.DuelRolled(good_best=o.good_best, evil_best=o.evil_best))
        first = state.priority or "good"
        return _set(state, replace(f, stage="might", good_best=o.good_best, evil_best=o.evil_best, might_order=(first, other_side(first))))
    if f.stage == "might":
        return _spend_might(state, f, choice.points, out)
    if f.stage == "roll_off":
        won = roll_off_winner(choice)
        out.append(ev.RolledOff(face=choice, winner=won))
        return _won(state, f, won, "roll_off", out)
    if f.stage == "stand_up":
        if choice.stand:
            out.append(ev.StoodUp(model=choice.model))
            state = _put(state, replace(state.get(choice.model), prone=False))
        return _set(state, replace(f, stand_offers=f.stand_offers[1:]))
    if f.stage == "back_away":
        if f.offer is not None:
            loser, how = f.offer
            return _back_away(state, replace(f, offer=None), loser, how, out, make_way=choice.make_way)
        return _choose_loser(state, f, choice.model, out)
    assert f.stage == "strike"
    if f.striker is None:
        return _set(state, replace(f, striker=choice.model, strikes_left=state.get(choice.model).attacks, strikers=tuple(s for s in f.strikers if s != choice.model), struck=()))
    if f.target is None:
        return _aim(state, f, choice.target)
    return _strike_result(state, f, choice, out)


def _alive_ids(state: BhState, ids: Sequence[str]) -> tuple[str, ...]:
    return tuple(m.id for m in _living(state, ids))


def _spend_might(state: BhState, f: Fighting, points: int, out: list[Event]) -> BhState:
    """Raise the side's best die by the points spent, taken from its Heroes in fight order (BH-DUEL-6, BH-DICE-4)."""
    side = f.might_order[0]
    f = replace(f, might_order=f.might_order[1:])
    if points:
        left = points
        for m in _living(state, side_of(f.fight, side)):
            if m.is_hero and m.might_left and left:
                used = min(left, m.might_left)
                left -= used
                state = _put(state, replace(m, might_left=m.might_left - used))
                best = raise_with_might(f.good_best if side == "good" else f.evil_best, points - left)
                out.append(ev.MightSpent(model=m.id, points=used, best=best))
        if side == "good":
            f = replace(f, good_best=raise_with_might(f.good_best, points))
        else:
            f = replace(f, evil_best=raise_with_might(f.evil_best, points))
        f = replace(f, might_spent=f.might_spent + points)
    return _set(state, f)


def _after_might(state: BhState, f: Fighting, out: list[Event]) -> BhState:
    """The winner: best score, then Fight value, else a roll-off (BH-DUEL-7..9)."""
    decided = decide_duel(
        f.good_best, f.evil_best,
        good_fight=side_fight_value_of(state, f, "good"), evil_fight=side_fight_value_of(state, f, "evil"),
    )
    if decided is None:
        return _set(state, replace(f, stage="roll_off"))
    return _won(state, f, decided.winner, decided.decided_by, out)


def _won(state: BhState, f: Fighting, winner_: Side, decided_by: str, out: list[Event]) -> BhState:
    out.append(ev.DuelWon(winner=winner_, decided_by=decided_by))
    winners = _living(state, side_of(f.fight, winner_))
    losers = _alive_ids(state, side_of(f.fight, other_side(winner_)))
    strikers = tuple(m.id for m in winners if makes_strikes(prone=m.prone))  # BH-BACK-5
    offers = tuple(m.id for m in winners if m.prone)
    return _set(state, replace(f, stage="stand_up", winner=winner_, decided_by=decided_by, losers=losers, strikers=strikers, stand_offers=offers))


def _choose_loser(state: BhState, f: Fighting, loser: str, out: list[Event]) -> BhState:
    """One loser backs away or is trapped, with any making way first (BH-BACK-1..8)."""
    f = replace(f, losers=tuple(x for x in f.losers if x != loser))
    m = state.get(loser)
    winners = _living(state, side_of(f.fight, f.winner or "good"))
    how = retreat(m, winners, state.models, state.board)
    if how.make_way is not None:
        return _set(state, replace(f, offer=(loser, how)))
    return _back_away(state, f, loser, how, out, make_way=False)


def _back_away(state: BhState, f: Fighting, loser: str, how: Retreat, out: list[Event], *, make_way: bool) -> BhState:
    m = state.get(loser)
    if how.make_way is not None and make_way:
        friend = state.get(how.make_way.model)
        out.append(ev.MadeWay(model=friend.id, loser=loser, x=how.make_way.x, y=how.make_way.y))
        state = _put(state, friend.at(Point(how.make_way.x, how.make_way.y)))
    if how.trapped or (how.make_way is not None and not make_way):
        out.append(ev.Trapped(model=loser, reason=how.reason if how.trapped else "declined"))
        return _set(state, replace(f, trapped=f.trapped | {loser}))
    out.append(ev.BackedAway(model=loser, x=how.x, y=how.y))
    return _set(_put(state, m.at(Point(how.x, how.y))), f)


def _strike_result(state: BhState, f: Fighting, o: StrikesOutcome, out: list[Event]) -> BhState:
    assert f.striker is not None and f.target is not None
    made = 1 if len(allowed_targets(state, f)) > 1 else f.strikes_left
    target = f.target
    out.append(ev.Struck(model=f.striker, target=target, strikes=made, wounds=o.wounds))
    f = replace(f, strikes_left=f.strikes_left - made, wounds=f.wounds + o.wounds, slain=f.slain + int(o.slain), target=None)
    state = _set(state, f)
    if o.wounds:
        state = _wound(state, target, o.wounds, out)
    return state


def _settle_fight(state: BhState, f: Fighting, out: list[Event]) -> tuple[BhState, bool]:
    """Advance the fight through steps that need no choice and no dice; True when it moved on."""
    if f.stage == "declare" and _next_declarer(state, f) is None:
        return _set(state, replace(f, stage="dice")), True
    if f.stage == "might":
        if not f.might_order:
            return _after_might(state, f, out), True
        side = f.might_order[0]
        own = f.good_best if side == "good" else f.evil_best
        if useful_might(own, side_might(state, f, side)) == 0:
            return _set(state, replace(f, might_order=f.might_order[1:])), True
    if f.stage == "stand_up" and not f.stand_offers:
        return _set(state, replace(f, stage="back_away")), True
    if f.stage == "back_away" and f.offer is None:
        f = replace(f, losers=_alive_ids(state, f.losers))
        if not f.losers:
            return _set(state, replace(f, stage="strike")), True
        if len(f.losers) == 1:
            return _choose_loser(state, f, f.losers[0], out), True
    if f.stage == "strike":
        alive_losers = _alive_ids(state, side_of(f.fight, other_side(f.winner or "good")))
        if f.striker is not None and (f.strikes_left <= 0 or not allowed_targets(state, f)):
            return _set(state, replace(f, striker=None, strikes_left=0, struck=(), target=None)), True  # BH-STRIKE-9
        strikers = _alive_ids(state, f.strikers)
        if f.striker is None and (not strikers or not alive_losers):
            out.append(ev.FightResolved(winner=f.winner or "", decided_by=f.decided_by, might_spent=f.might_spent, wounds=f.wounds, slain=f.slain))
            return replace(state, fighting=None, picker=other_side(state.picker or "good")), True
        if f.striker is None and (len(strikers) == 1 or len(alive_losers) == 1):
            # The order of strikers changes nothing against one loser (BH-PROC-5), so it is not asked.
            s = strikers[0]
            return _set(state, replace(f, strikers=strikers[1:], striker=s, strikes_left=state.get(s).attacks, struck=())), True
        if f.striker is None and strikers != f.strikers:
            return _set(state, replace(f, strikers=strikers)), True
        if f.striker is not None and f.target is None:
            allowed = allowed_targets(state, f)
            if len(allowed) == 1:
                return _aim(state, f, allowed[0]), True
    return state, False


# --- Might on a Hero's own hit and To Wound rolls (BH-DICE-4, BH-SHOOT-7, BH-STRIKE-2) -----------------------

HERO_DIE: Dist[int] = d(6)


def rolls_die_by_die(m: Model) -> bool:
    """A Hero with Might left rolls its own hit and To Wound rolls one die at a time, so that it may spend
    Might on a failed die (BH-DICE-4); any other model's rolls are drawn whole from the procedures."""
    return m.is_hero and m.might_left > 0


def _hero_die_node(state: BhState, die: HeroDie) -> Node:
    if die.face is None:
        return Chance(HERO_DIE, die.kind.replace("_", " "))
    hero = state.get(die.hero)
    return Decision(hero.side, "might on roll", tuple(SpendMight(k) for k in might_choices(die, die.face, hero.might_left)))


def _apply_hero_die(state: BhState, die: HeroDie, choice: Any, out: list[Event]) -> BhState:
    """The natural roll of a Hero's die, or the Might its player spends on it after it failed (BH-DICE-4)."""
    hero = state.get(die.hero)
    if die.face is None:
        face: int = choice
        out.append(ev.HeroRolled(model=hero.id, roll=die.kind, face=face, score=die_score(die, face)))
        if len(might_choices(die, face, hero.might_left)) > 1:
            return replace(state, hero_die=rolled(die, face))
        return _hero_die_done(state, die, die_succeeds(die, face), out)
    points: int = choice.points
    if points:
        state = _put(state, replace(hero, might_left=hero.might_left - points))
        out.append(ev.MightOnRoll(model=hero.id, roll=die.kind, points=points, score=die_score(die, die.face, points)))
    return _hero_die_done(state, die, die_succeeds(die, die.face, points), out)


def _hero_die_done(state: BhState, die: HeroDie, success: bool, out: list[Event]) -> BhState:
    """After a Hero's die: the wound roll follows a hit, the second die follows a 6/N entry's 6, else the result (BH-WOUND-1)."""
    state = replace(state, hero_die=None)
    if die.kind == "hit_roll":
        assert state.shooting is not None
        if not success:
            return _shot_result(state, MISSED, out)
        shooter, target = state.get(state.shooting.model), state.get(state.shooting.target)
        assert shooter.weapon is not None
        entry = wound_chart(shooter.weapon.strength, target.defence)  # BH-SHOOT-8: the weapon's Strength
        if entry.impossible:
            return _shot_result(state, ShootOutcome(hit=True, wounded=False, slain=False), out)
        return replace(state, hero_die=wound_die(shooter.id, entry))
    if die.kind == "wound_roll" and success and die.then is not None:
        return replace(state, hero_die=second_die(die))
    if state.shooting is not None:
        target = state.get(state.shooting.target)
        return _shot_result(state, ShootOutcome(hit=True, wounded=success, slain=success and target.wounds_left == 1), out)
    assert state.fighting is not None
    return _strike_roll_result(state, state.fighting, success, out)


def _aim(state: BhState, f: Fighting, target: str) -> BhState:
    """The current striker aims its next strike; a Hero with Might rolls it die by die (BH-STRIKE-5, BH-DICE-4)."""
    f = replace(f, target=target, struck=f.struck if f.struck[-1:] == (target,) else f.struck + (target,))
    assert f.striker is not None
    if not rolls_die_by_die(state.get(f.striker)):
        return _set(state, f)
    f = replace(f, rolls_left=rolls_per_strike(trapped=target in f.trapped), strike_wounds=0)
    return replace(_set(state, f), hero_die=_strike_die(state, f))


def _strike_die(state: BhState, f: Fighting) -> HeroDie:
    """One To Wound roll of the Hero's strike: its Strength against the target's Defence, +1 two-handed (BH-STRIKE-2, BH-STRIKE-6)."""
    assert f.striker is not None and f.target is not None
    striker, target = state.get(f.striker), state.get(f.target)
    entry = wound_chart(striker.strength, target.defence)
    return wound_die(striker.id, entry, modifier=to_wound_modifier(two_handed=f.uses_two_handed(striker.id)))


def _strike_roll_result(state: BhState, f: Fighting, wounded: bool, out: list[Event]) -> BhState:
    """One To Wound roll of a Hero's strike: a wound at once; the strike's second roll at a trapped model
    is lost if the first slew it (BH-STRIKE-3, BH-STRIKE-5, BH-STRIKE-9)."""
    assert f.striker is not None and f.target is not None
    striker, target = f.striker, f.target
    f = replace(f, rolls_left=f.rolls_left - 1, strike_wounds=f.strike_wounds + int(wounded))
    state = _set(state, f)
    if wounded:
        state = _wound(state, target, 1, out)
    alive = state.model(target) is not None
    if alive and f.rolls_left > 0:
        return replace(state, hero_die=_strike_die(state, f))
    out.append(ev.Struck(model=striker, target=target, strikes=1, wounds=f.strike_wounds))
    return _set(state, replace(
        f, strikes_left=f.strikes_left - 1, wounds=f.wounds + f.strike_wounds, slain=f.slain + int(not alive),
        target=None, rolls_left=0, strike_wounds=0,
    ))


# --- wounds, removal, turns ---------------------------------------------------------------------------------


def _wound(state: BhState, model_id: str, wounds: int, out: list[Event]) -> BhState:
    """Wounds suffered; a model whose wounds reach its W is slain and removed at once (BH-STRIKE-3, BH-SHOOT-9)."""
    m = state.get(model_id)
    left = m.wounds_left - wounds
    if left > 0:
        out.append(ev.Wounded(model=m.id, wounds_left=left))
        return _put(state, replace(m, wounds_left=left))
    out.append(ev.Slain(model=m.id))
    return replace(state, models=tuple(o for o in state.models if o.id != m.id), casualties=state.casualties + ((m.id, m.side),))


def _put(state: BhState, m: Model) -> BhState:
    return replace(state, models=tuple(m if o.id == m.id else o for o in state.models))


def _set(state: BhState, f: Fighting) -> BhState:
    return replace(state, fighting=f)


def apply(state: BhState, choice: Any) -> tuple[BhState, tuple[Event, ...]]:
    """The state after *choice* at the current node, with the events it caused (pure)."""
    out: list[Event] = []
    if state.hero_die is not None:
        state = _apply_hero_die(state, state.hero_die, choice, out)
    elif state.phase == "priority":
        state = _priority(state, choice, out)
    elif state.phase == "move":
        state = _apply_move(state, choice, out)
    elif state.phase == "shoot":
        state = _shot_result(state, choice, out) if state.shooting is not None else _apply_shoot(state, choice, out)
    else:
        state = _apply_fight(state, choice, out)
    return _settle(state, out), tuple(out)


def _priority(state: BhState, roll: PriorityRoll | GivenPriority, out: list[Event]) -> BhState:
    """BH-TURN-2: the higher roll has priority; a later tie goes to the player who did not have it."""
    turn = state.turn + 1
    if isinstance(roll, GivenPriority):
        out.append(ev.PriorityGiven(turn=turn, player=roll.player))
        return _start_turn(state, turn, roll.player, out)
    if roll.good != roll.evil:
        side: Side = "good" if roll.good > roll.evil else "evil"
    else:
        side = other_side(state.priority or "good")
    out.append(ev.PriorityRolled(turn=turn, good_roll=roll.good, evil_roll=roll.evil, player=side))
    return _start_turn(state, turn, side, out)


def _start_turn(state: BhState, turn: int, side: Side, out: list[Event]) -> BhState:
    out.append(ev.PhaseStarted(turn=turn, phase="move"))
    return replace(state, turn=turn, priority=side, phase="move", acting=side, moved=(), done=frozenset(), shot=frozenset())


def _settle(state: BhState, out: list[Event]) -> BhState:
    """Resolve what needs no dice and no player: fixed priority, empty choices, the end of a phase, the battle (BH-TURN-*)."""
    while not state.ended:
        if state.turn > 0 and any(not state.side_models(s) for s in SIDES):
            return _end_battle(state, out)  # BH-TURN-3: a side with no models left loses at once
        if state.hero_die is not None:
            return state
        if state.phase == "move" and len(move_options(state)) == 1:
            state = _next_mover(state, out)
            continue
        if state.phase == "shoot" and state.shooting is None and len(shoot_options(state)) == 1:
            state = _apply_shoot(state, EndShooting(), out)
            continue
        if state.phase == "fight" and not state.split_groups:
            f = state.fighting
            if f is None:
                left = fightable(state)
                if not left:
                    state = _end_turn(state, out)
                    continue
                if len(left) == 1:
                    state = _apply_fight(state, ChooseFight(left[0]), out)
                    continue
                return state
            state, moved_on = _settle_fight(state, f, out)
            if moved_on:
                continue
        return state
    return state


def _end_turn(state: BhState, out: list[Event]) -> BhState:
    """End phase: the battle ends after the last turn, else the next turn's priority roll (BH-TURN-1, BH-TURN-3)."""
    state = replace(state, fights=(), fighting=None, picker=None)
    if state.turn >= state.turns:
        return _end_battle(state, out)
    return replace(state, phase="priority")


def _end_battle(state: BhState, out: list[Event]) -> BhState:
    f = state.fighting
    if f is not None and f.winner is not None:  # the last fight of the battle still reports its result
        out.append(ev.FightResolved(winner=f.winner, decided_by=f.decided_by, might_spent=f.might_spent, wounds=f.wounds, slain=f.slain))
    state = replace(state, ended=True, phase="over", fighting=None, shooting=None)
    lost = casualties(state)
    out.append(ev.BattleEnded(
        winner=winner(state) or "draw", turn=state.turn,
        good_lost=f"{lost['good']}/{state.start[0]}", evil_lost=f"{lost['evil']}/{state.start[1]}",
    ))
    return state


def casualties(state: BhState) -> dict[str, int]:
    return {s: sum(1 for _, side in state.casualties if side == s) for s in SIDES}


def winner(state: BhState) -> str | None:
    """BH-TURN-3: a side with no models left loses; else the smaller fraction of models lost wins; equal is a draw."""
    alive = [s for s in SIDES if state.side_models(s)]
    if len(alive) == 1:
        return alive[0]
    if not alive:
        return None
    lost = casualties(state)
    a, b = lost["good"] * state.start[1], lost["evil"] * state.start[0]
    if a == b:
        return None
    return "good" if a < b else "evil"


def summary(state: BhState) -> dict[str, Any]:
    return {
        "turns": state.turn,
        "casualties": casualties(state),
        "survivors": {s: len(state.side_models(s)) for s in SIDES},
    }


def enemies_touching(state: BhState, m: Model) -> tuple[Model, ...]:
    return enemies_in_contact(state.models, m)
