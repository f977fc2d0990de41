"""The Attack action on the battlefield: targets, reach and range, and the ``attack`` questions of one action
(§5.14, §5.15)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from kessen.core.events import Event
from kessen.dice import Dist
from kessen.rulesets.armies_clash.attacks import AttackOutcome, attack
from kessen.rulesets.armies_clash.damage import Resistance
from kessen.rulesets.armies_clash.dice_strings import parse_dice
from kessen.rulesets.armies_clash.forces import forced_squares
from kessen.rulesets.armies_clash.grid import Footprint, adjacent, distance, reach_squares
from kessen.rulesets.armies_clash.inputs import AttackEntry, AttackInput
from kessen.rulesets.armies_clash.options import AttackWith
from kessen.rulesets.armies_clash.profiles import Cover, Formation
from kessen.rulesets.armies_clash.referee.pieces import (
    kind_of,
    objective_footprint,
    objectives_to_destroy,
    piece_footprint,
    stats,
    unhide,
)
from kessen.rulesets.armies_clash.referee.state import AcState, AttackRoll, PieceKind, TargetKind, other, push
from kessen.rulesets.armies_clash.scenario import AttackRecord, Creature, SpellRecord

ATTACK_ROLLS_PER_QUESTION = 4
ATTACK_CEILING_PER_QUESTION = 300


@functools.lru_cache(maxsize=4096)
def attack_dist(question: AttackInput) -> Dist[AttackOutcome]:
    """The ``attack`` procedure, cached (the engine and the AI ask the same questions often)."""
    return attack(question)


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


def _adjacent_enemy(state: AcState, piece: str, origin: Footprint) -> bool:
    """Next to an enemy stand or a conscious unattached enemy solo (AC-D20-8)."""
    side = state.side_of(piece)
    return any(adjacent(origin, s.footprint) for s in state.side_stands(other(side))) or any(
        adjacent(origin, s.footprint) for s in state.solos if s.side != side and s.on_grid and s.status == "up"
    )


@dataclass(frozen=True, slots=True)
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
    solo = state.solo(piece)
    assert solo is not None
    return Attacker("solo", solo.isolated and solo.joined_to is None, solo.hidden, "none", False)


@dataclass(frozen=True, slots=True)
class Target:
    """What the rolls against one target depend on: its square(s), AC, HP, isolation, formation and hiding."""

    footprint: Footprint
    ac: int
    hp: int
    isolated: bool
    defensive: bool
    creature: Creature | None
    hidden: bool

    def response(self, damage_type: str) -> Resistance:
        """Its resistance, vulnerability or immunity to the damage type; an objective has none."""
        return self.creature.response(damage_type) if self.creature is not None else "none"


def target_info(state: AcState, kind: TargetKind, target: str) -> Target:
    """The target of an attack or a spell as the rolls see it."""
    if kind == "objective":
        return Target(objective_footprint(state.static.objective(target)), state.static.objective(target).ac,
                      state.hp_of(target), False, False, None, False)
    if kind == "stand":
        s = state.stand(target)
        assert s is not None
        c = state.creature(s.creature)
        return Target(s.footprint, c.ac, s.hp, s.isolated, state.unit(s.unit).formation == "defensive", c, s.hidden)
    solo = state.solo(target)
    assert solo is not None
    c = state.creature(solo.creature)
    fp = piece_footprint(state, target)
    return Target(fp, c.ac, solo.hp, solo.isolated and solo.joined_to is None, False, c, solo.hidden)


def attack_question(
    state: AcState, piece: str, kind: TargetKind, target: str, attacks: tuple[AttackEntry, ...], *,
    action: str, resistance: Resistance, supported: bool = False, long_range: bool = False,
) -> AttackInput:
    """One ``attack`` question of *piece* against *target*: advantage and disadvantage from the battlefield
    (AC-ATTACK-7, AC-TERR-6, AC-D20-8, AC-HIDE-4, AC-INTEG-1, AC-CMD-3), the target's AC from its formation and
    cover (AC-ATTACK-8)."""
    flags = attacker(state, piece)
    origin = piece_footprint(state, piece)
    t = target_info(state, kind, target)
    return AttackInput(
        attacker=flags.kind, action="spell" if action == "spell" else "attack", attacks=attacks, target=kind,
        target_ac=t.ac, target_hp=max(1, t.hp), target_isolated=t.isolated, target_defensive=t.defensive,
        target_cover=_cover(state, t.footprint) if kind != "objective" else "none", resistance=resistance,
        attacker_isolated=flags.isolated, attacker_formation=flags.formation,
        supported=supported and flags.formation == "support", incited=flags.incited,
        higher_ground=state.grid.level(origin) > state.grid.level(t.footprint), long_range=long_range,
        adjacent_enemy=_adjacent_enemy(state, piece, origin), extra_advantage=flags.hidden,
        extra_disadvantage=t.hidden,
    )


def attack_questions(
    state: AcState, piece: str, using: str, kind: TargetKind, target: str, *, supported: bool
) -> list[AttackInput]:
    """The ``attack`` questions of one Attack action against one target (see ``attack_plan``)."""
    return [q for q, _push in attack_plan(state, piece, using, kind, target, supported=supported)]


def attack_plan(
    state: AcState, piece: str, using: str, kind: TargetKind, target: str, *, supported: bool
) -> list[tuple[AttackInput, int]]:
    """The ``attack`` questions of one stand's or solo's Attack action against one target (§6.3): a stand with a
    reach-10 ft melee attack rolls it once more (AC-ATTACK-3); see ``attack_question`` for each roll's flags.
    Rolls are grouped by the flags that differ between them (range, resistance) and split to fit the procedure's
    limits. Each question comes with the squares one of its hits pushes the target (AC-STAND-4), so rolls of a
    pushing attack are asked apart from the others."""
    recs = dict(routines(stats(state, piece)))[using]
    flat = list(recs)
    if state.stand(piece) is not None:
        flat += [r for r in recs if r.kind == "melee" and r.reach >= 10][:1]
    t = target_info(state, kind, target)
    gap = distance(piece_footprint(state, piece), t.footprint)
    groups: dict[tuple[Resistance, bool, int], list[AttackRecord]] = {}
    for r in flat:
        long_range = r.kind == "ranged" and gap > reach_squares(r.range_ft or 5)
        push_squares = forced_squares(r.push_ft or 0) if kind != "objective" else 0
        groups.setdefault((t.response(r.damage_type), long_range, push_squares), []).append(r)
    questions = []
    for (response, long_range, push_squares), rolls in groups.items():
        for chunk in _chunks(rolls):
            entries = tuple(
                AttackEntry(kind=r.kind, attack_bonus=r.attack_bonus, damage=r.damage, count=n)
                for r, n in _counted(chunk)
            )
            question = attack_question(
                state, piece, kind, target, entries, action="attack", resistance=response, supported=supported,
                long_range=long_range,
            )
            questions.append((question, push_squares))
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


def attack_with(state: AcState, piece: str, choice: AttackWith, *, supported: bool, out: list[Event]) -> AcState:
    """The piece attacks: it comes out of hiding and its rolls are queued, one step per question (AC-ATTACK-4)."""
    kind = kind_of(state, choice.target)
    side = state.side_of(piece)
    steps = [
        AttackRoll(piece, side, choice.target, kind, choice.using, q, push_squares)
        for q, push_squares in attack_plan(state, piece, choice.using, kind, choice.target, supported=supported)
    ]
    return push(unhide(state, piece, out), *steps)
