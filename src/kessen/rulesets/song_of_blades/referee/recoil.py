"""Recoils in games: placing the loser, the free hack of a recoil into an enemy, and the follow-up
(SB-RECOIL-*, SB-FALL-1, SB-FOLLOW-*)."""

from __future__ import annotations

from kessen.core.events import Event
from kessen.core.records import evolve
from kessen.rulesets.song_of_blades import events as ev
from kessen.rulesets.song_of_blades.referee.battlefield import Figure, RecoilOption, sweep_is_clear
from kessen.rulesets.song_of_blades.referee.melee import recoil_hack
from kessen.rulesets.song_of_blades.referee.state import SobState, push, remove, replace_figure
from kessen.rulesets.song_of_blades.referee.steps import ChooseRecoilHacker, OfferFollowUp
from kessen.rulesets.song_of_blades.rules.disengaging import counts_as_free_disengage


def recoil(state: SobState, loser_id: str, winner_id: str, option: RecoilOption, out: list[Event]) -> SobState:
    """The loser recoils to the chosen candidate: over a drop edge it falls (SB-RECOIL-6, SB-FALL-1); into active
    enemies newly in contact it takes one free hack (SB-RECOIL-3); the winner may then follow up (SB-FOLLOW-1)."""
    loser, winner_ = state.get(loser_id), state.get(winner_id)
    before = {e.id for e in state.here.contacts(loser)}
    if option.kind == "drop":
        out.append(ev.Recoiled(model=loser.id, kind="drop", x=option.x, y=option.y))
        # SB-FALL-1: a drop of at least Short kills, a lower one leaves the model fallen where it lands
        if option.drop_mm >= state.table.stick("short"):
            return remove(state, loser, "falling", out)
        out.append(ev.Fell(model=loser.id))
        return replace_figure(state, evolve(loser.at(option.destination), state="fallen"))
    out.append(ev.Recoiled(model=loser.id, kind=option.kind, x=option.x, y=option.y))
    state = replace_figure(state, loser.at(option.destination))
    moved = state.get(loser_id)
    if state.follow_up and follow_up_allowed(state, winner_, moved):
        state = push(state, OfferFollowUp(winner_id, loser_id))
    new = tuple(e.id for e in state.here.contacts(moved) if e.is_active and e.id not in before)
    if len(new) == 1:
        return push(state, recoil_hack(state, new[0], loser_id))
    if new:
        return push(state, ChooseRecoilHacker(loser_id, new))
    return state


def follow_up_allowed(state: SobState, winner_: Figure, loser: Figure) -> bool:
    """SB-FOLLOW-2, SB-FOLLOW-4: not against Free Disengage (or counting as having it), nor while engaged."""
    if counts_as_free_disengage(
        free_disengage="free_disengage" in loser.special_rules, mounted=loser.mounted, flying=loser.flying,
        enemy_mounted=winner_.mounted, enemy_flying=winner_.flying,
    ):
        return False
    return not [e for e in state.here.contacts(winner_) if e.id != loser.id]


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
