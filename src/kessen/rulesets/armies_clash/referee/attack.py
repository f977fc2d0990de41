"""The Attack action on the battlefield: targets, reach and range, and the ``attack`` question of one action
(§5.14, §5.15)."""

from __future__ import annotations

import functools
from fractions import Fraction
from functools import partial
from typing import Any

from kessen.core.engine import Chance
from kessen.core.events import Event
from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.armies_clash.referee.damage import overflow_eligible
from kessen.rulesets.armies_clash.referee.options import AttackWith
from kessen.rulesets.armies_clash.referee.pieces import (
    kind_of,
    objective_footprint,
    objectives_to_destroy,
    piece_footprint,
    solo_condition,
    stats,
    unhide,
)
from kessen.rulesets.armies_clash.referee.state import AcState, PieceKind, other, per_state, push
from kessen.rulesets.armies_clash.referee.steps import AttackRoll
from kessen.rulesets.armies_clash.rules.attack import (
    attack_faces,
    AttackQuestion,
    AttackTotals,
    Roll,
    SoloAttackQuestion,
    TargetKind,
    action_rolls,
    attack_totals,
    solo_attack,
    solo_faces,
)
from kessen.rulesets.armies_clash.rules.damage import Resistance, SoloHits
from kessen.rulesets.armies_clash.rules.grid import Footprint, adjacent, distance, reach_squares
from kessen.rulesets.armies_clash.rules.movement import forced_squares
from kessen.rulesets.armies_clash.profiles import Cover, Formation
from kessen.rulesets.armies_clash.scenario import AttackRecord, Creature, SpellRecord

Question = AttackQuestion | SoloAttackQuestion
"""The question of one action against one target: against a solo it is judged hit by hit (AC-DMG-5)."""


def attack_dist(question: Question) -> Dist[AttackTotals] | Dist[SoloHits]:
    """The distribution the engine draws one action's rolls from: ``solo_attack`` against a solo, else the
    ``attack`` rolls' totals (both cached)."""
    if isinstance(question, SoloAttackQuestion):
        return solo_attack(question)
    return attack_totals(question)


def attack_node(state: AcState, step: AttackRoll) -> Chance:
    """An action's attack rolls, and the d20s behind the outcome drawn: behind the totals against a stand or an
    objective (§6.3), behind the solo's fate hit by hit against a solo (AC-DMG-5)."""
    question = step.question
    if isinstance(question, SoloAttackQuestion):
        return Chance(solo_attack(question), "attack", dice=partial(solo_faces, question))
    return Chance(attack_totals(question), "attack", dice=partial(attack_faces, question))


def attack_targets(state: AcState, piece: str) -> list[tuple[TargetKind, str, Footprint]]:
    """Everything *piece* may aim at: enemy stands, unattached enemy solos and its side's destroy objectives
    (AC-ATTACK-2, AC-OBJ-4); joined solos never."""
    side = state.side_of(piece)
    out: list[tuple[TargetKind, str, Footprint]] = [("stand", s.id, s.footprint) for s in state.side_stands(other(side))]
    out += [("solo", s.id, s.footprint) for s in state.solos if s.side != side and s.on_grid]
    out += [("objective", o.id, objective_footprint(o)) for o in objectives_to_destroy(state, side)]
    return out


def routines(creature: Creature) -> list[tuple[str, tuple[AttackRecord, ...]]]:
    """The attack routines of one Attack action: the multiattack, or any one attack (AC-ATTACK-1)."""
    by_id = {a.id: a for a in creature.attacks}
    out: list[tuple[str, tuple[AttackRecord, ...]]] = []
    if creature.multiattack:
        out.append(("multiattack", tuple(by_id[i] for i in creature.multiattack)))
    out += [(a.id, (a,)) for a in creature.attacks]
    return out


def in_reach(record: AttackRecord | SpellRecord, gap: int, kind: TargetKind) -> bool:
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
    """Each routine at each target all its attacks reach (AC-ATTACK-1, AC-ATTACK-2, AC-RANGE-1)."""
    origin = piece_footprint(state, piece)
    out = []
    for label, recs in routines(stats(state, piece)):
        for kind, target, fp in attack_targets(state, piece):
            gap = distance(origin, fp)
            if all(in_reach(r, gap, kind) for r in recs):
                out.append(AttackWith(label, target))
    return out


def _cover(state: AcState, fp: Footprint) -> Cover:
    """Half cover for a piece with any square in forest (AC-TERR-3)."""
    return "half" if any(state.grid.on_grid(s) and state.grid.at(s).kind == "forest" for s in fp.squares()) else "none"


@per_state
def _adjacent_enemy(state: AcState, piece: str, origin: Footprint) -> bool:
    """Next to an enemy stand or a conscious unattached enemy solo (AC-D20-8)."""
    side = state.side_of(piece)
    return any(adjacent(origin, s.footprint) for s in state.side_stands(other(side))) or any(
        adjacent(origin, s.footprint) for s in state.solos if s.side != side and s.on_grid and s.status == "up"
    )


@record
class Attacker:
    """What the ``attack`` procedure needs to know of the piece that attacks or casts."""

    kind: PieceKind
    isolated: bool
    hidden: bool
    formation: Formation
    incited: bool


def attacker(state: AcState, piece: str) -> Attacker:
    """The attacker's flags: a stand's isolation, formation and Incite; a joined solo is never isolated."""
    stand = state.stand(piece)
    if stand is not None:
        unit = state.unit(stand.unit)
        return Attacker("stand", stand.isolated, stand.hidden, unit.formation or "none", unit.incited)
    solo = state.solo_named(piece)
    return Attacker("solo", solo.isolated and solo.joined_to is None, solo.hidden, "none", False)


@record
class Target:
    """What the rolls against one target depend on: its square(s), AC, HP, isolation, formation and hiding."""

    footprint: Footprint
    ac: int
    hp: int
    isolated: bool
    defensive: bool
    creature: Creature | None
    hidden: bool
    unconscious: bool = False

    def response(self, damage_type: str) -> Resistance:
        """Its resistance, vulnerability or immunity to the damage type; an objective has none."""
        return self.creature.response(damage_type) if self.creature is not None else "none"


def target_info(state: AcState, kind: TargetKind, target: str) -> Target:
    """The target of an attack or a spell as the rolls see it."""
    if kind == "objective":
        return Target(objective_footprint(state.static.objective(target)), state.static.objective(target).ac,
                      state.hp_of(target), False, False, None, False)
    if kind == "stand":
        s = state.stand_named(target)
        c = state.creature(s.creature)
        return Target(s.footprint, c.ac, s.hp, s.isolated, state.unit(s.unit).formation == "defensive", c, s.hidden)
    solo = state.solo_named(target)
    c = state.creature(solo.creature)
    fp = piece_footprint(state, target)
    return Target(
        fp, c.ac, solo.hp, solo.isolated and solo.joined_to is None, False, c, solo.hidden, solo_condition(solo).unconscious
    )


def attack_question(
    state: AcState, piece: str, kind: TargetKind, target: str, rolls: tuple[Roll, ...], *, action: str,
    supported: bool = False,
) -> Question:
    """The question of *piece*'s *rolls* against *target*: advantage and disadvantage from the battlefield
    (AC-ATTACK-7, AC-TERR-6, AC-D20-8, AC-HIDE-4, AC-INTEG-1, AC-CMD-3, AC-DMG-5), the target's AC from its
    formation and cover (AC-ATTACK-8); against a solo, with the solo's condition (AC-DMG-5)."""
    return _question(state, piece, kind, target, target_info(state, kind, target), rolls, action=action, supported=supported)


def _question(
    state: AcState, piece: str, kind: TargetKind, target: str, t: Target, rolls: tuple[Roll, ...], *, action: str,
    supported: bool,
) -> Question:
    """``attack_question`` of the target *target* that ``target_info`` sees as *t*."""
    flags = attacker(state, piece)
    origin = piece_footprint(state, piece)
    question = AttackQuestion(
        rolls, t.ac, max(1, t.hp), attacker=flags.kind, action="spell" if action == "spell" else "attack", target=kind,
        target_isolated=t.isolated, target_defensive=t.defensive,
        target_cover=_cover(state, t.footprint) if kind != "objective" else "none",
        attacker_isolated=flags.isolated, supported=supported and flags.formation == "support", incited=flags.incited,
        higher_ground=state.grid.level(origin) > state.grid.level(t.footprint),
        adjacent_enemy=_adjacent_enemy(state, piece, origin), extra_advantage=flags.hidden,
        extra_disadvantage=t.hidden, target_unconscious=t.unconscious, attacker_adjacent=adjacent(origin, t.footprint),
    )
    if kind != "solo":
        return question
    solo = state.solo(target)
    assert solo is not None and t.creature is not None
    return SoloAttackQuestion(question, solo_condition(solo), t.creature.hp, solo.pc)


def attack_plan(state: AcState, piece: str, using: str, kind: TargetKind, target: str, *, supported: bool) -> Question:
    """The question of one stand's or solo's Attack action against one target: every roll of the routine (a stand's
    reach bonus roll included, AC-ATTACK-3), each at the target's response to its damage type (AC-D20-7), at long
    range or not (AC-RANGE-2), with the squares one of its hits pushes the target (AC-STAND-4). All the rolls are
    one damage instance (AC-DMG-2), however many there are: the odds contract's limits (AC-PROC-6) are for
    readable tables and do not bind the engine."""
    t = target_info(state, kind, target)
    gap = distance(piece_footprint(state, piece), t.footprint)
    routine = [
        (
            Roll(
                record.profile(), t.response(record.damage_type),
                long_range=record.kind == "ranged" and gap > reach_squares(record.range_ft or 5),
                push_squares=forced_squares(record.push_ft or 0) if kind != "objective" else 0,
            ),
            1,
        )
        for record in _routine(stats(state, piece), using)
    ]
    rolls = action_rolls(routine, reach_bonus=state.stand(piece) is not None)
    return _question(state, piece, kind, target, t, rolls, action="attack", supported=supported)


@functools.lru_cache(maxsize=256)
def _routine(creature: Creature, using: str) -> tuple[AttackRecord, ...]:
    """The attacks of the routine *using* of *creature* (``routines``), found once."""
    return dict(routines(creature))[using]


def attack_with(state: AcState, piece: str, choice: AttackWith, *, supported: bool, out: list[Event]) -> AcState:
    """The piece attacks: it comes out of hiding and its rolls are queued as one step (AC-ATTACK-4)."""
    kind = kind_of(state, choice.target)
    question = attack_plan(state, piece, choice.using, kind, choice.target, supported=supported)
    step = AttackRoll(piece, state.side_of(piece), choice.target, kind, choice.using, question)
    return push(unhide(state, piece, out), step)


@record
class AttackOdds:
    """What ``kessen play`` shows beside an attack: the exact mean damage of the action's distribution and, where it
    applies, the chance of its decisive effect: ``casualty`` (the target stand, or the stand a casualty's damage
    passes on to, goes to 0 HP), ``falls`` (a conscious solo goes down), ``killed`` (an unconscious solo dies),
    ``destroyed`` (an objective square goes to 0 HP)."""

    mean_damage: Fraction
    effect: str
    chance: Fraction | None


def attack_odds(state: AcState, piece: str, option: AttackWith) -> AttackOdds:
    """The exact odds of *piece* taking *option* now, from the very distribution the engine will draw from."""
    kind = kind_of(state, option.target)
    supported = state.turn is not None and piece in state.turn.supported
    # Dist[Any]: a lambda over the union of the two distributions is compiled for one of its types (mypyc)
    dist: Dist[Any] = attack_dist(attack_plan(state, piece, option.using, kind, option.target, supported=supported))
    mean = dist.map(lambda o: o.damage).mean()
    assert isinstance(mean, Fraction)
    if kind == "solo":
        solo = state.solo_named(option.target)
        if solo.status == "up":
            return AttackOdds(mean, "falls", dist.probability(lambda o: isinstance(o, SoloHits) and o.status != "up"))
        return AttackOdds(mean, "killed", dist.probability(lambda o: isinstance(o, SoloHits) and o.status == "dead"))
    if kind == "objective":
        hp = state.hp_of(option.target)
        return AttackOdds(mean, "destroyed", dist.probability(lambda o: o.damage >= hp))
    stand = state.stand_named(option.target)
    threshold = stand.hp
    if threshold == 0:  # a casualty passes all it takes on (AC-DMG-4), first to the default stand (AC-DMG-2)
        nexts = [s for s in overflow_eligible(state, stand.id, ()) if s.hp > 0]
        if not nexts:
            return AttackOdds(mean, "casualty", None)
        threshold = nexts[0].hp
    return AttackOdds(mean, "casualty", dist.probability(lambda o: o.damage >= threshold))


def attack_refusal(state: AcState, piece: str, choice: AttackWith) -> tuple[str, str]:
    """Why *piece* may not make the attack *choice*, which ``attack_options`` does not hold: the first rule it breaks
    (AC-ATTACK-1: no such routine, not an enemy; AC-ATTACK-2: melee out of reach; AC-RANGE-2: beyond long range)."""
    recs = dict(routines(stats(state, piece))).get(choice.using)
    if recs is None:
        names = ", ".join(label for label, _ in routines(stats(state, piece)))
        return "AC-ATTACK-1", f"{piece} has no attack {choice.using} (its attacks: {names})"
    target = next(((kind, fp) for kind, t, fp in attack_targets(state, piece) if t == choice.target), None)
    if target is None:
        return "AC-ATTACK-1", f"{choice.target} is not an enemy stand, unattached enemy solo or objective {piece} may attack"
    kind, fp = target
    gap = distance(piece_footprint(state, piece), fp)
    short = next((r for r in recs if not in_reach(r, gap, kind)), None)
    if short is None:
        return "AC-UNIT-2", f"{piece} is not making an attack now"
    if short.kind == "melee":
        return "AC-ATTACK-2", f"{choice.target} is {gap} squares from {piece}, and {short.id} is a melee attack (next to it only)"
    long_ft = short.long_range_ft or short.range_ft or 0
    return "AC-RANGE-2", f"{choice.target} is {gap} squares from {piece}, beyond {short.id}'s long range ({reach_squares(long_ft)} squares)"
