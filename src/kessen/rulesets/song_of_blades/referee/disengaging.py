"""Disengaging in games: a model leaving contact takes the free hacks of SB-DIS-* in the order its player chooses,
before it moves or flees (SB-DIS-*, SB-MOVE-3, SB-MOR-3)."""

from __future__ import annotations

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.dice import Dist
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.battlefield import Figure
from kessen.rulesets.song_of_blades.referee.recoiling import has_room
from kessen.rulesets.song_of_blades.referee.melee import reported, suffer
from kessen.rulesets.song_of_blades.referee.moves import finish_move, flee
from kessen.rulesets.song_of_blades.referee.options import Move
from kessen.rulesets.song_of_blades.referee.state import SobState, push
from kessen.rulesets.song_of_blades.referee.steps import Disengaging
from kessen.rulesets.song_of_blades.rules.disengaging import (
    Disengage,
    HackingEnemy,
    free_hack,
    hack_effect,
    hacks_free_of_charge,
)
from kessen.rulesets.song_of_blades.rules.melee import MeleeDice, melee_dice


def begin_move(state: SobState, f: Figure, move: Move, out: list[Event]) -> SobState:
    """A move that starts in contact disengages first (SB-MOVE-3, SB-DIS-*)."""
    setup = disengage_setup(state, f, failed_morale=False)
    if setup is None:
        return finish_move(state, f, move, out)
    step = disengaging(state, f, setup, then=move)
    if step is None:
        out.append(ev.Disengaged(model=f.id, free_hacks=0))
        return finish_move(state, f, move, out)
    return push(state, step)


def disengage_setup(state: SobState, f: Figure, *, failed_morale: bool) -> Disengage | None:
    """The disengage procedure's input for f leaving all its enemies in contact, or None when none.

    Each standing enemy's entry says whether f has room to recoil away from it (SB-RECOIL-5): the hack is rolled
    where f stands, before it moves.
    """
    contacts = state.here.contacts(f)
    if not contacts:
        return None
    enemies = tuple(
        HackingEnemy(
            combat=e.combat, state=e.state, size=e.size, mounted=e.mounted, flying=e.flying,
            high_ground=state.table.stands_higher(e.centre, f.centre),
            obstacle=state.table.across_obstacle(e.centre, f.centre),
            enemies_in_contact=len(state.here.contacts(e)),
            transfixed_in_contact=sum(1 for o in state.here.contacts(e) if o.state == "transfixed"),
            can_recoil=e.state != "standing" or has_room(state.figures, state.table, f, e),
        )
        for e in contacts
    )
    return Disengage(
        combat=f.combat, size=f.size, mounted=f.mounted, flying=f.flying,
        free_disengage="free_disengage" in f.special_rules, failed_morale=failed_morale, enemies=enemies,
    )


def disengaging(state: SobState, f: Figure, setup: Disengage, *, then: Move | None, flee_moves: int = 0) -> Disengaging | None:
    """The pending disengagement of f: its hackers (SB-DIS-1, SB-DIS-4), then its move or flight; None when nobody
    hacks."""
    contacts = state.here.contacts(f)
    positions = tuple(e.id for e in contacts)
    hackers = tuple(e.id for e, entry in zip(contacts, setup.enemies) if not hacks_free_of_charge(setup, entry))
    if not hackers:
        return None  # SB-DIS-1, SB-DIS-4
    return Disengaging(f.id, hackers, setup, positions, then, flee_moves)


def hack_dice(step: Disengaging) -> Dist[MeleeDice]:
    """The next hack's combat roll: the free hack of ``disengage`` for that hacker (SB-DIS-2, SB-DIS-3)."""
    hacker = step.hackers[0]
    return melee_dice(free_hack(step.setup, step.setup.enemies[step.positions.index(hacker)]))


def hack_result(state: SobState, step: Disengaging, rolled: MeleeDice, out: list[Event]) -> SobState:
    """A free hack rolled: its effect on the leaving model ends the sequence; after the last hack without effect the
    model completes its move or flight (SB-DIS-3, SB-DIS-6)."""
    hacker = step.hackers[0]
    leaver = state.get(step.model)
    out.append(reported("free_hack", hacker, leaver.id, rolled))
    o = rolled.outcome
    if hack_effect(o) is not None:  # SB-DIS-6: the sequence ends, and the move
        state = evolve(state, pending=tuple(p for p in state.pending if not (isinstance(p, Disengaging) and p.model == leaver.id)))
        return suffer(state, leaver.id, hacker, o.result, out)
    remaining = tuple(p for p in state.pending if isinstance(p, Disengaging) and p.model == leaver.id)
    if remaining and remaining[0].hackers:
        return state
    state = evolve(state, pending=tuple(p for p in state.pending if p not in remaining))
    hacks = sum(1 for e in step.setup.enemies if not hacks_free_of_charge(step.setup, e))
    out.append(ev.Disengaged(model=leaver.id, free_hacks=hacks))
    if step.then is not None:
        return finish_move(state, leaver, step.then, out)
    return flee(state, leaver, step.flee_moves, out)
