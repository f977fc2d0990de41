"""Melee in games: combat rolls read off the table and what their results do to the loser (SB-MELEE-*, SB-MOD-*,
SB-OUT-* and SB-TERR-* from the positions; SB-RECOIL-3, SB-MELEE-7)."""

from __future__ import annotations

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, edge_distance
from kessen.rulesets.song_of_blades.referee.recoiling import has_room
from kessen.rulesets.song_of_blades.referee.options import Attack
from kessen.rulesets.song_of_blades.referee.state import SobState, push, remove, replace_figure, spend
from kessen.rulesets.song_of_blades.referee.steps import ChooseRecoil, CombatRoll, MoraleTest
from kessen.rulesets.song_of_blades.rules.melee import Melee, MeleeDice


def attack_roll(
    state: SobState, a: Figure, d: Figure, *, power_blow: bool = False, ambush: bool = False, free_hack: bool = False
) -> Melee:
    """The combat roll of a melee attack, with every modifier read off the table (SB-MOD-*, SB-OUT-*, SB-TERR-*)."""
    a_contacts = state.here.contacts(a)
    d_contacts = state.here.contacts(d)
    return Melee(
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
        attacker_high_ground=state.table.stands_higher(a.centre, d.centre),
        defender_obstacle=state.table.across_obstacle(a.centre, d.centre),
        attacker_enemies_in_contact=len(a_contacts),
        attacker_transfixed_in_contact=sum(1 for e in a_contacts if e.state == "transfixed"),
        defender_enemies_in_contact=len(d_contacts),
        defender_transfixed_in_contact=sum(1 for e in d_contacts if e.state == "transfixed" and e.id != a.id),
        attacker_can_recoil=has_room(state.figures, state.table, a, d),
        defender_can_recoil=has_room(state.figures, state.table, d, a),
    )


def declare_attack(state: SobState, attack: Attack, out: list[Event]) -> SobState:
    """The activated model attacks (1 action) or makes a power blow (2); its first attack of the turn from hiding on
    a target outside its cover is an ambush (SB-ACTION-1, SB-MOD-2, SB-TERR-2); the combat roll comes next."""
    act = state.current
    assert act is not None
    state = spend(state, 2 if attack.power_blow else 1, attacked=True)
    f, target = state.get(act.model), state.get(attack.target)
    ambush = (f.id, target.id) in state.turn.hidden and f.id not in state.turn.ambushed
    out.append(ev.AttackDeclared(attacker=f.id, defender=target.id, power_blow=attack.power_blow, ambush=ambush))
    if ambush:
        state = evolve(state, turn=evolve(state.turn, ambushed=state.turn.ambushed | {f.id}))
    roll = attack_roll(state, f, target, power_blow=attack.power_blow, ambush=ambush)
    return push(state, CombatRoll(f.id, target.id, "attack", roll))


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
    """A combat roll drawn: report its dice and scores, then the loser suffers the result (SB-MELEE-4..6)."""
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
        return replace_figure(state, evolve(loser, state="fallen"))
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
