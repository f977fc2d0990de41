"""Cast a Spell and areas of effect on the battlefield: targets, templates and each target's roll (§5.16, §5.17)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from kessen.core.events import Event
from kessen.core.records import record
from kessen.dice import Dist
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.attack import (
    attack_dist,
    attack_question,
    attack_targets,
    in_reach,
    target_info,
)
from kessen.rulesets.armies_clash.referee.options import Cast, CastArea, Done
from kessen.rulesets.armies_clash.referee.pieces import (
    castable,
    kind_of,
    objectives_to_destroy,
    piece_footprint,
    solo_condition,
    spell_of,
    stats,
    unhide,
)
from kessen.rulesets.armies_clash.referee.state import AcState, PieceKind, push, replace_solo, replace_stand
from kessen.rulesets.armies_clash.referee.steps import AttackRoll, AutoDamage, MoreTargets, Pending, SaveRoll
from kessen.rulesets.armies_clash.rules.attack import Roll, TargetKind
from kessen.rulesets.armies_clash.rules.dice_strings import parse_dice
from kessen.rulesets.armies_clash.rules.grid import (
    DIRECTIONS,
    Footprint,
    Square,
    area_size,
    burst,
    clip,
    cone,
    coverage,
    distance,
    line,
    reach_squares,
    self_origins,
)
from kessen.rulesets.armies_clash.profiles import Attack
from kessen.rulesets.armies_clash.rules.spells import SaveQuestion, SpellEffect, automatic_damage, save, spend_spell
from kessen.rulesets.armies_clash.scenario import SpellRecord


def cast_options(state: AcState, piece: str) -> list[Cast | CastArea]:
    """Targeted spells at each legal target, area spells at each origin (AC-SPELL-3, AC-SPELL-4, AC-AOE-2)."""
    origin = piece_footprint(state, piece)
    is_stand = state.stand(piece) is not None
    out: list[Cast | CastArea] = []
    for sp in castable(state, piece):
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


def more_targets(state: AcState, step: MoreTargets) -> tuple[Cast | Done, ...]:
    """A multi-target spell's next target, any not yet chosen, or no more (AC-SPELL-3)."""
    sp = spell_of(state, step.caster, step.spell)
    origin = piece_footprint(state, step.caster)
    left = [t for t in _spell_targets(state, step.caster, sp, origin, state.stand(step.caster) is not None) if t not in step.chosen]
    return tuple(Cast(sp.id, t) for t in left) + (Done(),)


def _spend(state: AcState, piece: str, spell: str) -> AcState:
    stand = state.stand(piece)
    if stand is not None:
        return replace_stand(state, replace(stand, spells_used=spend_spell(stand.spells_used, spell)))
    solo = state.solo_named(piece)
    return replace_solo(state, replace(solo, spells_used=spend_spell(solo.spells_used, spell)))


def cast_targeted(state: AcState, piece: str, spell: str, target: str, out: list[Event], chosen: tuple[str, ...] = ()) -> AcState:
    """A targeted spell: the caster spends a use and comes out of hiding; a multi-target spell asks for its next
    target until it has them all or the caster is done (AC-SPELL-1, AC-SPELL-3, AC-HIDE-4)."""
    sp = spell_of(state, piece, spell)
    chosen = chosen + (target,)
    if not chosen[:-1]:
        state = unhide(_spend(state, piece, spell), piece, out)
    if len(chosen) < (sp.max_targets or 1):
        step = MoreTargets(piece, spell, chosen)
        if len(more_targets(state, step)) > 1:
            return push(state, step)
    return resolve_targets(state, MoreTargets(piece, spell, chosen), out)


def resolve_targets(state: AcState, step: MoreTargets, out: list[Event]) -> AcState:
    """Every target is chosen: each rolls against the spell, and so does each solo joined to a target stand
    (AC-SPELL-6: a joined solo is part of the stand for spells)."""
    sp = spell_of(state, step.caster, step.spell)
    out.append(ev.SpellCast(caster=step.caster, spell=step.spell, aim=",".join(step.chosen)))
    steps: list[Pending] = []
    for t in step.chosen:
        kind = kind_of(state, t)
        steps += spell_effects(state, step.caster, sp, t, kind, partial=False)
        if kind == "stand":
            steps += [s for solo in state.solos if solo.joined_to == t and solo.status != "dead"
                      for s in spell_effects(state, step.caster, sp, solo.id, "solo", partial=False)]
    return push(state, *steps)


def area_squares(state: AcState, piece: str, choice: CastArea) -> frozenset[Square]:
    """The squares of an area spell on the grid (AC-AOE-1, AC-AOE-3..6)."""
    sp = spell_of(state, piece, choice.spell)
    n = area_size(sp.size_ft or 5)
    if sp.shape == "cone":
        return clip(state.grid, cone((choice.x, choice.y), (choice.dx, choice.dy), n, mirrored=choice.mirrored))
    if sp.shape == "line":
        return clip(state.grid, line((choice.x, choice.y), (choice.dx, choice.dy), n))
    squares = burst((choice.x, choice.y), n)
    if sp.range_ft == "self":  # a self-origin area never includes the caster (AC-AOE-2)
        own = set(piece_footprint(state, piece).squares())
        squares = tuple(s for s in squares if s not in own)
    return clip(state.grid, squares)


def area_targets(state: AcState, piece: str, area: frozenset[Square]) -> list[tuple[TargetKind, str, bool]]:
    """(kind, id, partly covered) of everything an area affects: stands with any square in it, unattached solos
    with any square in it, the solos joined to covered stands, and objective squares (AC-AOE-7, AC-SPELL-6)."""
    out: list[tuple[TargetKind, str, bool]] = []
    if not area:
        return out
    west, east = min(x for x, _ in area), max(x for x, _ in area)
    north, south = min(y for _, y in area), max(y for _, y in area)
    for s in state.stands:
        if s.x > east or s.y > south or s.x + s.size <= west or s.y + s.size <= north:
            continue  # no square of it can be in the area
        cover = coverage(area, s.footprint)
        if cover != "none":
            out.append(("stand", s.id, cover == "partial"))
            out += [("solo", solo.id, False) for solo in state.solos if solo.joined_to == s.id and solo.status != "dead"]
    out += [("solo", s.id, False) for s in state.solos if s.on_grid and coverage(area, s.footprint) != "none"]
    side = state.side_of(piece)
    out += [("objective", o.id, False) for o in objectives_to_destroy(state, side) if o.square in area]
    return out


def cast_area(state: AcState, piece: str, choice: CastArea, out: list[Event]) -> AcState:
    """An area spell: the caster spends a use and comes out of hiding; everything in the area rolls (AC-AOE-7)."""
    sp = spell_of(state, piece, choice.spell)
    state = unhide(_spend(state, piece, choice.spell), piece, out)
    out.append(ev.SpellCast(caster=piece, spell=sp.id, aim=f"({choice.x},{choice.y})"))
    area = area_squares(state, piece, choice)
    steps: list[Pending] = []
    for kind, target, partial in area_targets(state, piece, area):
        steps += spell_effects(state, piece, sp, target, kind, partial=partial)
    return push(state, *steps)


def spell_effects(state: AcState, piece: str, sp: SpellRecord, target: str, kind: TargetKind, *, partial: bool) -> list[Pending]:
    """The roll one spell makes against one target: a spell attack (``attack`` with action spell), a saving throw
    (``save``), or automatic damage (``automatic_damage``); none when the rules say the target is unaffected or an
    automatic effect deals no damage (AC-SPELL-*, AC-AOE-7..9, AC-OBJ-4)."""
    side = state.side_of(piece)
    caster: PieceKind = "stand" if state.stand(piece) is not None else "solo"
    t = target_info(state, kind, target)
    response = t.response(sp.damage_type)
    effect = SpellEffect(
        kind, sp.form, caster, None if sp.damage is None else parse_dice(sp.damage), response,
        target_isolated=t.isolated if kind == "solo" else False, partial_coverage=partial and kind == "stand",
    )
    if effect.unaffected:
        return []
    if sp.resolution == "attack":
        assert sp.kind is not None and sp.attack_bonus is not None
        attack = Attack(sp.kind, sp.attack_bonus, parse_dice(sp.damage or "0"), 5 if sp.kind == "melee" else None)
        question = attack_question(state, piece, kind, target, (Roll(attack, response),), action="spell")
        return [AttackRoll(piece, side, target, kind, sp.id, question)]
    if sp.resolution == "save":
        assert sp.save_ability is not None and sp.dc is not None
        target_stand = state.stand(target) if kind == "stand" else None
        target_solo = state.solo(target) if kind == "solo" else None
        save_question = SaveQuestion(
            sp.save_ability, t.creature.save(sp.save_ability) if t.creature is not None else 0, sp.dc, effect,
            on_success=sp.on_success,
            skirmisher=target_stand is not None and state.unit(target_stand.unit).type == "skirmisher",
            prepared=target_stand is not None and state.unit(target_stand.unit).prepared,
            target_unconscious=target_solo is not None and solo_condition(target_solo).unconscious,
        )
        return [SaveRoll(piece, side, sp.id, target, kind, save_question)]
    if effect.damage is None:
        return []
    return [AutoDamage(piece, side, sp.id, target, kind, effect)]


@record
class CastOdds:
    """What ``kessen play`` shows beside a spell: the exact mean damage it deals to enemies (and objective squares)
    and to friends, summed over every target it affects, each from the procedure the engine will draw from."""

    enemies: Fraction
    friends: Fraction


def cast_odds(state: AcState, piece: str, option: Cast | CastArea) -> CastOdds:
    """The exact mean damage of casting *option* now, on each side (AC-SPELL-*, AC-AOE-*)."""
    sp = spell_of(state, piece, option.spell)
    if isinstance(option, Cast):
        kind = kind_of(state, option.target)
        hit = [(kind, option.target, False)]
        if kind == "stand":
            hit += [("solo", s.id, False) for s in state.solos if s.joined_to == option.target and s.status != "dead"]
    else:
        hit = area_targets(state, piece, area_squares(state, piece, option))
    side = state.side_of(piece)
    enemies = friends = Fraction(0)
    for kind, target, partial in hit:
        mean = sum((_mean_damage(step) for step in spell_effects(state, piece, sp, target, kind, partial=partial)), Fraction(0))
        if kind != "objective" and state.side_of(target) == side:
            friends += mean
        else:
            enemies += mean
    return CastOdds(enemies, friends)


def _mean_damage(step: Pending) -> Fraction:
    """The exact mean damage of one spell effect's roll."""
    if isinstance(step, AttackRoll):
        attack: Dist[Any] = attack_dist(step.question)  # one type for the lambda, as the compiled engine reads it
        mean = attack.map(lambda o: o.damage).mean()
    elif isinstance(step, SaveRoll):
        mean = save(step.question).map(lambda o: o.damage).mean()
    else:
        assert isinstance(step, AutoDamage)
        mean = automatic_damage(step.effect).mean()
    assert isinstance(mean, Fraction)
    return mean


def cast_refusal(
    state: AcState, piece: str, spell: str, target: str = "", at: Square | None = None, *, further: bool = False
) -> tuple[str, str]:
    """Why *piece* may not cast *spell* at *target* (a targeted spell; a *further* target of one being cast) or at the
    square *at* (an area), a cast ``cast_options`` does not hold: the first rule it breaks (AC-SPELL-1, AC-SPELL-3,
    AC-SPELL-4, AC-OBJ-4, AC-AOE-2, AC-AOE-6, AC-RANGE-1, AC-SPELL-2)."""
    sp = next((s for s in stats(state, piece).spells if s.id == spell), None)
    if sp is None:
        return "AC-SPELL-1", f"{piece} has no spell {spell}"
    if not further and sp not in castable(state, piece):
        return "AC-SPELL-1", f"{piece} has no use of {spell} left"
    if sp.form == "targeted" and not target:
        return "AC-SPELL-3", f"{spell} is cast at a target, not at a square"
    if sp.form != "targeted" and target:
        return "AC-AOE-2", f"{spell} is an area: it is cast at its origin square, not at a target"
    origin = piece_footprint(state, piece)
    not_now = ("AC-SPELL-2", f"{piece} is not casting {spell} now")
    if target:
        found = next(((kind, fp) for kind, t, fp in attack_targets(state, piece) if t == target), None)
        if found is None:
            return "AC-SPELL-3", f"{target} is not an enemy stand, unattached enemy solo or objective {piece} may aim at"
        kind, fp = found
        if kind == "stand" and state.stand(piece) is None and (sp.max_targets or 1) < 5:
            return "AC-SPELL-4", (
                f"a solo's targeted spell affects stands only if it could target 5 or more, and {spell} targets"
                f" {sp.max_targets or 1}"
            )
        if kind == "objective" and state.stand(piece) is None:
            return "AC-OBJ-4", "a solo's targeted spell does not damage an objective square"
        gap = distance(origin, fp)
        if in_reach(sp, gap, kind):
            return not_now
        return "AC-RANGE-1", f"{target} is {gap} squares from {piece}, beyond the reach of {spell}"
    assert at is not None
    if not state.grid.on_grid(at):
        return "AC-AOE-6", f"{at[0]},{at[1]} is off the grid"
    if sp.range_ft == "self":
        if any(sq == at for _, _, sq in self_origins(origin)):
            return not_now
        return "AC-AOE-2", f"{spell} starts just outside a side of {piece}'s footprint, and {at[0]},{at[1]} is not there"
    gap = distance(origin, Footprint(*at))
    if 0 < gap <= reach_squares(sp.range_ft):
        return not_now
    return "AC-RANGE-1", f"{at[0]},{at[1]} is {gap} squares from {piece}, and {spell} reaches {reach_squares(sp.range_ft)}"
