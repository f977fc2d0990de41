"""Damage: stands, overflow to their neighbours, solos falling and dying, objective squares (§5.23)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.engine import Rolled
from kessen.core.events import Event
from kessen.core.records import equal
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.objectives import damage_objective
from kessen.rulesets.armies_clash.referee.options import PassOn
from kessen.rulesets.armies_clash.referee.pieces import check_commander, solo_condition
from kessen.rulesets.armies_clash.referee.state import AcState, Stand, push, replace_solo, replace_stand
from kessen.rulesets.armies_clash.referee.steps import AttackRoll, AutoDamage, ChooseOverflow, ForcedMove, SaveRoll
from kessen.rulesets.armies_clash.rules.attack import AttackTotals, TargetKind
from kessen.rulesets.armies_clash.rules.d20 import check_told
from kessen.rulesets.armies_clash.rules.damage import Condition, DamageShown, SoloHits, take_damage
from kessen.rulesets.armies_clash.rules.grid import adjacent
from kessen.rulesets.armies_clash.rules.spells import SaveOutcome


def attack_result(state: AcState, step: AttackRoll, outcome: AttackTotals | SoloHits, out: list[Event]) -> AcState:
    """An attack's hits deal their damage; a pushing attack's push follows the damage and any overflow choice
    (AC-DMG-1, AC-MOVE-8). Against a solo the outcome already holds its condition, judged hit by hit (AC-DMG-5)."""
    o = outcome
    rolls = o.dice
    out.append(ev.Attacked(
        attacker=step.attacker, defender=step.target, using=step.using, hits=o.hits, crits=o.crits, damage=o.damage,
        d20=tuple(r.d20 for r in rolls), modes=tuple(r.mode for r in rolls), bonus=tuple(r.bonus for r in rolls),
        armour_class=tuple(r.armour_class for r in rolls), results=tuple(r.result for r in rolls), roll_damage=tuple(r.damage for r in rolls),
    ))
    if o.pushed:
        state = push(state, ForcedMove(step.target, step.attacker, o.pushed))
    if isinstance(o, SoloHits):
        return solo_damaged(state, step.target, Condition(o.hp, o.status, o.failures), out)
    return deal(state, step.target, step.kind, o.damage, step.side, out)


def save_result(state: AcState, step: SaveRoll, outcome: SaveOutcome, out: list[Event]) -> AcState:
    """A saving throw's damage, one instance (AC-SPELL-5)."""
    out.append(ev.SpellResult(
        caster=step.caster, spell=step.spell, target=step.target, result=outcome.result, damage=outcome.damage, **check_told(outcome.dice),
    ))
    return deal(state, step.target, step.kind, outcome.damage, step.side, out)


def auto_result(state: AcState, step: AutoDamage, rolled: Rolled, out: list[Event]) -> AcState:
    """An automatic spell's damage, one instance (AC-AOE-9), with its damage dice when drawn."""
    damage: int = rolled.value
    shown: DamageShown = rolled.dice or DamageShown((), 0)
    out.append(ev.SpellResult(
        caster=step.caster, spell=step.spell, target=step.target, result="hit", damage=damage,
        damage_dice=shown.dice, damage_modifier=shown.modifier,
    ))
    return deal(state, step.target, step.kind, damage, step.side, out)


def deal(state: AcState, target: str, kind: TargetKind, damage: int, side: str, out: list[Event]) -> AcState:
    """One instance of damage to a stand, a solo or an objective square."""
    if kind == "stand":
        return damage_stand(state, target, damage, (), side, out) if damage > 0 else state
    if kind == "solo":
        solo = state.solo(target)
        if solo is None or solo.status in ("dead", "gone"):
            return state
        maximum = state.creature(solo.creature).hp
        after = take_damage(solo_condition(solo), damage, critical=False, maximum=maximum, pc=solo.pc)
        return solo_damaged(state, target, after, out)
    return damage_objective(state, target, damage, out)


def damage_stand(state: AcState, target: str, damage: int, chain: tuple[str, ...], side: str, out: list[Event]) -> AcState:
    """Damage to a stand; what its HP cannot take overflows to an adjacent stand of the same unit and creature, each
    stand once per instance; a casualty takes nothing and passes all on (AC-DMG-1..4)."""
    stand = state.stand(target)
    if stand is None:
        return state
    taken = min(stand.hp, damage)
    if taken:
        state = replace_stand(state, replace(stand, hp=stand.hp - taken))
        out.append(ev.Damaged(piece=target, damage=taken, hp=stand.hp - taken))
        if stand.hp - taken == 0:
            out.append(ev.BecameCasualty(piece=target))
    rest = damage - taken
    if rest <= 0:
        return state
    chain = chain + (target,)
    eligible = overflow_eligible(state, target, chain)
    if not eligible:
        return state
    if len(eligible) > 1:
        return push(state, ChooseOverflow(target, rest, chain, side))
    out.append(ev.Overflowed(source=target, piece=eligible[0].id, damage=rest))
    return damage_stand(state, eligible[0].id, rest, chain, side, out)


def overflow_eligible(state: AcState, source: str, chain: tuple[str, ...]) -> list[Stand]:
    """Adjacent stands of the same unit and creature not yet in the chain; engine default first: lowest HP above 0,
    then lowest id, casualties last (AC-DMG-2)."""
    s = state.stand_named(source)
    eligible = [
        t for t in state.stands
        if t.unit == s.unit and t.creature == s.creature and t.id not in chain and t.id != source and adjacent(t.footprint, s.footprint)
    ]
    return sorted(eligible, key=lambda t: (t.hp == 0, t.hp, t.id))


def overflow_options(state: AcState, step: ChooseOverflow) -> tuple[PassOn, ...]:
    return tuple(PassOn(s.id) for s in overflow_eligible(state, step.source, step.chain))


def overflow(state: AcState, step: ChooseOverflow, choice: PassOn, out: list[Event]) -> AcState:
    """The overflow goes on into the chosen stand (AC-DMG-2)."""
    out.append(ev.Overflowed(source=step.source, piece=choice.stand, damage=step.damage))
    return damage_stand(state, choice.stand, step.damage, step.chain, step.side, out)


def solo_damaged(state: AcState, target: str, after: Condition, out: list[Event]) -> AcState:
    """A solo's condition after damage, as the standard rules judged it (AC-SOLO-5, AC-DMG-5): the HP it lost, its
    fall (dying or killed), the failed death saves of a PC hurt while unconscious; a commander that falls stops
    commanding (AC-CMD-2)."""
    solo = state.solo_named(target)
    before = solo_condition(solo)
    if equal(after, before):
        return state
    if after.hp < before.hp:
        out.append(ev.Damaged(piece=target, damage=before.hp - after.hp, hp=after.hp))
    if after.status == "dead":
        out.append(ev.SoloDown(piece=target, how="killed"))
    elif before.status == "up" and after.status == "dying":
        out.append(ev.SoloDown(piece=target, how="dying"))
    if after.status == "dying" and after.failures > before.failures:
        out.append(ev.DeathSaveFailed(piece=target, failures=after.failures))
    successes = 0 if before.status == "up" else solo.successes  # the tallies start afresh with each fall
    state = replace_solo(state, replace(solo, hp=after.hp, status=after.status, successes=successes, failures=after.failures))
    for unit in state.units:
        if unit.commander == target:
            state = check_commander(state, unit.id, out)
    return state
