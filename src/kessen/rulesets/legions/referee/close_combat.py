"""The Engagement stage's combats (§4.3, §4.5): which combat next, its fights, the combat result (LI-CC, LI-FIGHT,
LI-RESULT); the pairing off is ``referee.pairing``."""

from __future__ import annotations

from functools import partial

from kessen.core.engine import Chance, Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.dists import answer
from kessen.rulesets.legions.referee.battlefield import engaged_pairs, enemy_contacts, has_enemy_contact
from kessen.rulesets.legions.referee.state import CombatProgress, LiState, Model, progressed, push
from kessen.rulesets.legions.referee.steps import (
    ask,
    ChooseCombat,
    ChooseFight,
    ChoosePairing,
    CombatDone,
    FightRoll,
    FightsDone,
    MoraleRoll,
    RunCombat,
)
from kessen.rulesets.legions.rules.close_combat import (
    FightOutcome,
    FightQuestion,
    FightShown,
    FightSide,
    Winner,
    combat_winner,
    fight_dice,
    fight_faces,
)
from kessen.rulesets.legions.rules.pairing import Fight, default_pairing


def combat_decision(state: LiState, step: ChooseCombat) -> Decision:
    """The player with Initiative picks the next combat (LI-ENG-4)."""
    return ask(state.player_with_initiative(), "combat", step.combats)


def choose_combat(state: LiState, step: ChooseCombat, choice: tuple[str, ...], out: list[Event]) -> LiState:
    """The chosen combat is fought, then the next one is chosen from the rest."""
    rest = tuple(c for c in step.combats if c != choice)
    return push(state, RunCombat(choice), *((ChooseCombat(rest),) if rest else ()))


def run_combat(state: LiState, step: RunCombat, _: None, out: list[Event]) -> LiState:
    """The combat sequence: pair off, fights, result, Withdrawal (LI-CC-1).

    Every Detachment of the combat takes part in it, whether or not its models get to roll a fight: its Formation
    is checked at the end of the stage (LI-BREAK-4).
    """
    dets = step.detachments
    state = progressed(state, in_combat=state.in_combat | set(dets))
    first = state.player_with_initiative()
    edges = tuple(
        (a, b) if state.owner_of_model(a).owner == first else (b, a) for a, b in enemy_contacts(state, dets)
    )
    live_dets = tuple(d for d in dets if state.detachment(d).live)
    if not edges:
        return push(state, CombatDone(live_dets))
    out.append(ev.CombatStarted(detachments=", ".join(dets)))
    engaged = frozenset(p for p in engaged_pairs(state) if p <= set(dets))
    state = progressed(state, combat=CombatProgress(dets, engaged))
    return push(state, ChoosePairing(edges, default=default_pairing(edges)), FightsDone(dets), CombatDone(dets))


def fight_decision(state: LiState, step: ChooseFight) -> Decision | None:
    """The player with Initiative picks the next fight; none once no fight has both models left (LI-FIGHT-1)."""
    left = _fights_left(state)
    return ask(state.player_with_initiative(), "fight", left) if left else None


def choose_fight(state: LiState, step: ChooseFight, choice: Fight | None, out: list[Event]) -> LiState:
    """The chosen fight is rolled, then the next one is chosen."""
    if choice is None:
        return state
    assert state.combat is not None
    left = tuple(f for f in state.combat.fights if f != choice)
    return push(progressed(state, combat=evolve(state.combat, fights=left)), FightRoll(*choice), ChooseFight())


def _fights_left(state: LiState) -> tuple[Fight, ...]:
    assert state.combat is not None
    alive = {m.id for d in state.detachments for m in d.models if m.alive}
    return tuple(f for f in state.combat.fights if f[0] in alive and f[1] in alive)


def fight_roll(state: LiState, step: FightRoll) -> Chance | None:
    """The fight's ``fight`` distribution; none when a model of it is gone."""
    a, b = state.model(step.a), state.model(step.b)
    if not (a.alive and b.alive):
        return None  # LI-FIGHT-6: not fought, counts for nobody
    question = fight_question(state, a, b)
    return Chance(answer(question), "fight", dice=partial(fight_faces, question))


def fight_question(state: LiState, a: Model, b: Model) -> FightQuestion:
    """One fight of the combat in progress: each model's CAF, charge bonus and fights fought so far (LI-FIGHT-2..4)."""
    combat = state.combat
    assert combat is not None

    def side(m: Model) -> FightSide:
        return FightSide(caf=m.caf, charged=state.owner_of_model(m.id).charged_and_moved, fight_number=combat.fights_of(m.id) + 1)

    return FightQuestion(a=side(a), b=side(b))


def fought(state: LiState, step: FightRoll, outcome: FightOutcome | None, out: list[Event]) -> LiState:
    """One fight: the loser loses one Wound, destroyed at 0, no save (LI-FIGHT-5)."""
    if outcome is None:
        return state  # LI-FIGHT-6: not fought
    winner_: Winner = outcome.winner
    combat = state.combat
    assert combat is not None
    a, b = state.model(step.a), state.model(step.b)
    a_dice = fight_dice(opponent_fights_before=combat.fights_of(b.id), extra_dice=0)
    b_dice = fight_dice(opponent_fights_before=combat.fights_of(a.id), extra_dice=0)
    shown = outcome.dice or FightShown((), (), 0, 0)
    out.append(ev.FightRolled(
        attacker=a.id, defender=b.id, attacker_dice=a_dice, defender_dice=b_dice, winner={"a": a.id, "b": b.id}.get(winner_, "draw"),
        attacker_faces=shown.a_dice, defender_faces=shown.b_dice, attacker_bonus=shown.a_bonus, defender_bonus=shown.b_bonus,
    ))
    fought = dict(combat.fought)
    fought[a.id], fought[b.id] = fought.get(a.id, 0) + 1, fought.get(b.id, 0) + 1
    won = dict(combat.won)
    if winner_ != "draw":
        loser = b if winner_ == "a" else a
        side = state.owner_of_model((a if winner_ == "a" else b).id).owner
        won[side] = won.get(side, 0) + 1
        hurt = evolve(loser, wounds_remaining=loser.wounds_remaining - 1)
        if not hurt.alive:
            hurt = evolve(hurt, void_shields=0)
            out.append(ev.Destroyed(model=loser.id, detachment=state.owner_of_model(loser.id).id, how="fight"))
        state = state.with_model(hurt)
    return progressed(state, combat=evolve(combat, fought=tuple(sorted(fought.items())), won=tuple(sorted(won.items()))))


def combat_result(state: LiState, step: FightsDone, _: None, out: list[Event]) -> LiState:
    """The combat result and the losing side's Morale checks (LI-RESULT-1..5)."""
    dets = step.detachments
    combat = state.combat
    assert combat is not None
    first = state.player_with_initiative()
    second = state.other(first)

    def gone(player: str) -> bool:
        return not any(state.detachment(d).live for d in dets if state.detachment(d).owner == player)

    result = combat_winner(
        a_fights_won=combat.won_by(first), b_fights_won=combat.won_by(second), a_all_destroyed=gone(first), b_all_destroyed=gone(second)
    )
    winner_ = {"a": first, "b": second}.get(result, "")
    out.append(ev.CombatResult(detachments=", ".join(dets), winner=winner_ or "draw", fights_won=f"{combat.won_by(first)}-{combat.won_by(second)}"))
    state = progressed(state, combat=None)
    if not winner_:
        return state  # LI-RESULT-5: a draw, nobody checks
    losers = [d for d in dets if state.detachment(d).owner != winner_ and state.detachment(d).live]
    return push(state, *(MoraleRoll(d, "combat", combat.engaged_with(d)) for d in losers))


def combat_done(state: LiState, step: CombatDone, _: None, out: list[Event]) -> LiState:
    """LI-ENG-5: a Detachment stays Engaged only while a model of it touches an enemy model."""
    for det_id in step.detachments:
        det = state.detachment(det_id)
        if det.engaged and not has_enemy_contact(state, det):
            out.append(ev.NoLongerEngaged(detachment=det_id))
            state = state.with_detachment(evolve(det, engaged=False, pinned=False))
        elif not det.engaged and has_enemy_contact(state, det):
            state = state.with_detachment(evolve(det, engaged=True))
    return state
