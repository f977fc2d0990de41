"""Quality rolls in games: what an activation roll gives the model, and what a morale test makes it do
(SB-ACT-1, SB-ACT-2, SB-MOR-2, SB-MOR-3, SB-MOVE-4)."""

from __future__ import annotations

from kessen.core.events import Event
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.disengaging import disengage_setup, disengaging
from kessen.rulesets.song_of_blades.referee.moves import flee
from kessen.rulesets.song_of_blades.referee.state import Activation, SobState, push, remove, with_current
from kessen.rulesets.song_of_blades.referee.steps import ActivationRoll
from kessen.rulesets.song_of_blades.rules.quality import ActivationDice, MoraleDice, faces_text


def activation_rolled(state: SobState, step: ActivationRoll, rolled: ActivationDice, out: list[Event]) -> SobState:
    """The activated model gets one action per success; two failures or more mean a turnover after them."""
    o = rolled.outcome
    quality = state.get(step.model).quality
    out.append(ev.Activation(model=step.model, dice=step.dice, quality=quality, faces=faces_text(rolled.faces),
                             actions=o.actions, failures=o.failures, turnover=o.turnover))
    return with_current(state, Activation(step.model, o.actions, o.turnover))


def morale_result(state: SobState, model: str, rolled: MoraleDice, out: list[Event]) -> SobState:
    """A morale test drawn: the model stands, flees its 1 or 2 moves (disengaging first, with lethal hacks) or is
    destroyed (SB-MOR-2, SB-MOR-3, SB-MOVE-4)."""
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
