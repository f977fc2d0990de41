"""Dying solos at the end of the round: their death saving throws, from the tallies they carry (§5.24, AC-END-4)."""

from __future__ import annotations

from dataclasses import replace

from kessen.core.events import Event
from kessen.rulesets.armies_clash import events as ev
from kessen.rulesets.armies_clash.referee.state import AcState, push, replace_solo
from kessen.rulesets.armies_clash.referee.steps import DeathRoll
from kessen.rulesets.armies_clash.rules.dying import DeathSavesOutcome, DeathSavesQuestion


def death_steps(state: AcState) -> AcState:
    """Every dying solo rolls its death saves, in the order of their names (AC-END-4)."""
    return push(state, *(DeathRoll(s.id) for s in sorted(state.solos, key=lambda s: s.id) if s.status == "dying"))


def death_question(state: AcState, step: DeathRoll) -> DeathSavesQuestion:
    """The dying solo's death saves so far (AC-END-4)."""
    solo = state.solo_named(step.solo)
    return DeathSavesQuestion(successes=min(2, solo.successes), failures=min(2, solo.failures))


def death_result(state: AcState, ident: str, outcome: DeathSavesOutcome, out: list[Event]) -> AcState:
    """End-of-round death saves: dead, stable (unconscious at 0 HP) or revived with 1 HP (AC-END-4)."""
    solo = state.solo_named(ident)
    out.append(ev.DeathSaves(piece=ident, result=outcome.result, rolls=outcome.rolls, faces=outcome.dice))
    if outcome.result == "dead":
        return replace_solo(state, replace(solo, status="dead"))
    if outcome.result == "revived":
        return replace_solo(state, replace(solo, status="up", hp=1, successes=0, failures=0))
    return replace_solo(state, replace(solo, status="stable", successes=0, failures=0))
