"""Pairing off the models of a combat, fight by fight, by the player with Initiative (LI-PAIR-1..4)."""

from __future__ import annotations

from kessen.core.engine import Decision
from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.legions import events as ev
from kessen.rulesets.legions.referee.state import LiState, progressed, push
from kessen.rulesets.legions.referee.steps import ChooseFight, ChoosePairing, ask
from kessen.rulesets.legions.rules.pairing import Fight, is_valid_pairing, next_to_pair, ordered, pairing_options


def pairing_decision(state: LiState, step: ChoosePairing) -> Decision:
    """The player with Initiative pairs off the models, one-to-one wherever possible (LI-PAIR-3, LI-PAIR-4): the
    fight of the next model still in no fight, among those that leave the pairing completable. Each option is the
    tuple of fights it adds."""
    options = pairing_options(step.contacts, step.chosen, step.default)
    actor = next_to_pair(step.contacts, step.chosen) or ""
    return ask(state.player_with_initiative(), "pairing", tuple((f,) for f in options), actor=actor)


def pair_off(state: LiState, step: ChoosePairing, choice: tuple[Fight, ...], out: list[Event]) -> LiState:
    """The chosen fights join the pairing; once every touching model is in a fight, they are the combat's fights."""
    assert state.combat is not None
    chosen = step.chosen + choice
    if next_to_pair(step.contacts, chosen) is not None:
        return push(state, evolve(step, chosen=chosen))
    fights = ordered(step.contacts, chosen)
    assert is_valid_pairing(step.contacts, fights), fights  # each fight offered kept the pairing completable
    out.append(ev.Paired(fights=", ".join(f"{a}-{b}" for a, b in fights)))
    return push(progressed(state, combat=evolve(state.combat, fights=fights)), ChooseFight())
