"""Melee in games: combat rolls read off the table, results, recoils, follow-ups, free hacks and morale
(SB-MELEE-*, SB-MOD-* and SB-TERR-* from positions, SB-RECOIL-*, SB-FOLLOW-*, SB-MOR-*)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.battlefield import (
    Figure,
    RecoilOption,
    edge_distance,
    enemies_in_contact,
    recoil_options,
    sweep_is_clear,
)
from kessen.rulesets.song_of_blades.disengaging import hacks_free_of_charge
from kessen.rulesets.song_of_blades.inputs import MeleeInput
from kessen.rulesets.song_of_blades.melee import MeleeDice
from kessen.rulesets.song_of_blades.moves import (
    disengage_setup,
    disengaging,
    finish_move,
    flee,
)
from kessen.rulesets.song_of_blades.quality import MoraleDice, faces_text
from kessen.rulesets.song_of_blades.state import (
    ChooseRecoil,
    ChooseRecoilHacker,
    CombatRoll,
    Disengaging,
    MoraleTest,
    OfferFollowUp,
    SobState,
    push,
    remove,
    replace_figure,
)


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
        attacker_enemies_in_contact=len(a_contacts),
        attacker_transfixed_in_contact=sum(1 for e in a_contacts if e.state == "transfixed"),
        defender_enemies_in_contact=len(d_contacts),
        defender_transfixed_in_contact=sum(1 for e in d_contacts if e.state == "transfixed" and e.id != a.id),
        attacker_can_recoil=bool(recoil_options(state.figures, state.table, a, d)),
        defender_can_recoil=bool(recoil_options(state.figures, state.table, d, a)),
    )


def recoil_hack(state: SobState, hacker: str, victim: str) -> CombatRoll:
    """The one free hack on a model that recoiled into an active enemy; its roll is defensive (SB-RECOIL-3)."""
    return CombatRoll(hacker, victim, "recoil_hack", attack_roll(state, state.get(hacker), state.get(victim), free_hack=True))


def reported(kind: str, attacker: str, defender: str, rolled: MeleeDice) -> ev.CombatResult:
    """The report of a combat roll: its dice, its scores, who won and the result (SB-MELEE-3..6)."""
    o = rolled.outcome
    if o.winner == "none":
        verdict = "tie"  # SB-MELEE-5
    elif o.winner == "defender" and o.result == "nothing":
        verdict = "held"  # a defensive roll that wins (SB-MELEE-4)
    else:
        verdict = f"{o.winner}_wins"
    return ev.CombatResult(
        kind=kind, attacker=attacker, defender=defender, attacker_die=rolled.attacker_die, attacker_score=rolled.attacker_score,
        defender_die=rolled.defender_die, defender_score=rolled.defender_score, verdict=verdict, result=o.result,
    )


def combat_result(state: SobState, step: CombatRoll, rolled: MeleeDice, out: list[Event]) -> SobState:
    out.append(reported(step.kind, step.attacker, step.defender, rolled))
    o = rolled.outcome
    if o.result == "nothing":
        return state
    loser, winner_ = (step.defender, step.attacker) if o.affected == "defender" else (step.attacker, step.defender)
    return suffer(state, loser, winner_, o.result, out)


def suffer(state: SobState, loser_id: str, winner_id: str, result: str, out: list[Event]) -> SobState:
    """Apply a combat result to the loser (SB-MELEE-6, SB-MELEE-7, SB-DOWN-1, SB-RECOIL-*)."""
    loser = state.get(loser_id)
    if result == "fall":
        out.append(ev.Fell(model=loser.id))
        return replace_figure(state, replace(loser, state="fallen"))
    if result in ("kill", "gruesome_kill"):
        state = remove(state, loser, result, out)
        if result == "gruesome_kill":
            # SB-MELEE-7: every friend of the victim within Long of its last position tests morale
            reach = state.table.stick("long")
            testers = [f for f in state.side_figures(loser.side) if edge_distance(f, loser) <= reach]
            state = push(state, *(MoraleTest(f.id) for f in testers))
        return state
    assert result == "recoil"
    return push(state, ChooseRecoil(loser.id, winner_id))


def recoil(state: SobState, loser_id: str, winner_id: str, option: RecoilOption, out: list[Event]) -> SobState:
    loser, winner_ = state.get(loser_id), state.get(winner_id)
    before = {e.id for e in enemies_in_contact(state.figures, loser)}
    if option.kind == "drop":
        out.append(ev.Recoiled(model=loser.id, kind="drop", x=option.x, y=option.y))
        # SB-FALL-1: a drop of at least Short kills, a lower one leaves the model fallen where it lands
        if option.drop_mm >= state.table.stick("short"):
            return remove(state, loser, "falling", out)
        out.append(ev.Fell(model=loser.id))
        return replace_figure(state, replace(loser.at(option.destination), state="fallen"))
    out.append(ev.Recoiled(model=loser.id, kind=option.kind, x=option.x, y=option.y))
    state = replace_figure(state, loser.at(option.destination))
    moved = state.get(loser_id)
    if state.follow_up and follow_up_allowed(state, winner_, moved):
        state = push(state, OfferFollowUp(winner_id, loser_id))
    new = tuple(e.id for e in enemies_in_contact(state.figures, moved) if e.is_active and e.id not in before)
    if len(new) == 1:
        return push(state, recoil_hack(state, new[0], loser_id))
    if new:
        return push(state, ChooseRecoilHacker(loser_id, new))
    return state


def follow_up_allowed(state: SobState, winner_: Figure, loser: Figure) -> bool:
    """SB-FOLLOW-2, SB-FOLLOW-4: not against Free Disengage (or counting as having it), nor while engaged."""
    if "free_disengage" in loser.special_rules or (loser.mounted and not winner_.mounted) or (loser.flying and not winner_.flying):
        return False
    return not [e for e in enemies_in_contact(state.figures, winner_) if e.id != loser.id]


def follow_up(state: SobState, step: OfferFollowUp, follow: bool, out: list[Event]) -> SobState:
    """Move the winner straight back into contact, if the path is clear (SB-FOLLOW-1, SB-FOLLOW-3, SB-FOLLOW-4)."""
    w, l = state.figure(step.winner), state.figure(step.loser)
    if not follow or w is None or l is None or not follow_up_allowed(state, w, l):
        return state
    direction = (l.centre - w.centre).unit()
    dest = w.centre + direction.scaled((l.centre - w.centre).length() - w.r - l.r)
    if state.table.drop_entry(w.centre, dest) is not None or not sweep_is_clear(state.figures, state.table, w, dest):
        return state
    out.append(ev.FollowedUp(model=w.id, x=round(dest.x, 3), y=round(dest.y, 3)))
    return replace_figure(state, w.at(dest))


def hack_result(state: SobState, step: Disengaging, rolled: MeleeDice, out: list[Event]) -> SobState:
    hacker = step.hackers[0]
    leaver = state.get(step.model)
    out.append(reported("free_hack", hacker, leaver.id, rolled))
    o = rolled.outcome
    if o.result != "nothing":
        # SB-DIS-6: the first hack with an effect ends the sequence and the move
        state = replace(state, pending=tuple(p for p in state.pending if not (isinstance(p, Disengaging) and p.model == leaver.id)))
        return suffer(state, leaver.id, hacker, o.result, out)
    remaining = tuple(p for p in state.pending if isinstance(p, Disengaging) and p.model == leaver.id)
    if remaining and remaining[0].hackers:
        return state
    state = replace(state, pending=tuple(p for p in state.pending if p not in remaining))
    hacks = sum(1 for e in step.setup.enemies if not hacks_free_of_charge(step.setup, e))
    out.append(ev.Disengaged(model=leaver.id, free_hacks=hacks))
    if step.then is not None:
        return finish_move(state, leaver, step.then, out)
    return flee(state, leaver, step.flee_moves, out)


def morale_result(state: SobState, model: str, rolled: MoraleDice, out: list[Event]) -> SobState:
    f = state.figure(model)
    if f is None:
        return state
    o = rolled.outcome
    out.append(ev.MoraleTested(model=model, quality=f.quality, faces=faces_text(rolled.faces), failures=o.failures, result=o.result))
    if o.result == "destroyed":
        return remove(state, f, "destroyed", out)
    if o.result == "stands":
        return state
    if f.state != "standing":
        # SB-MOVE-1, SB-DOWN-3, SB-DOWN-7, SB-DOWN-8: a fallen or transfixed model cannot move, so it does not
        # flee and never disengages (no free hacks on it); it stays where it is. [DECISION: the spec is silent.]
        return state
    setup = disengage_setup(state, f, failed_morale=True)
    if setup is not None:
        step = disengaging(state, f, setup, then=None, flee_moves=o.flee_moves)
        if step is not None:
            return push(state, step)  # SB-MOR-3, SB-DIS-7: lethal hacks first
    return flee(state, f, o.flee_moves, out)
