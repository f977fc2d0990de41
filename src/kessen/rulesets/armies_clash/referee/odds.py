"""The exact numbers shown beside a choice (``Game.odds``), each from the very distribution the engine draws from
when that choice is made; their labels are the catalogues' ``[odds]`` table.

- an attack: ``expected_damage`` (the mean damage of the action, a number) and the chance of its decisive effect,
  ``casualty`` (the target stand, or the stand a casualty passes it on to, goes to 0 HP), ``falls`` (a conscious solo
  goes down), ``killed`` (a dying solo dies) or ``destroyed`` (an objective square goes to 0 HP);
- a spell: ``expected_damage`` to enemies and objective squares, and ``expected_damage_friends`` when it hurts
  friends too;
- Rally: ``rallied``; Incite or Prepare: ``success`` of the commander's check.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.armies_clash.referee.attack import attack_odds
from kessen.rulesets.armies_clash.referee.commanders import commander_question
from kessen.rulesets.armies_clash.referee.morale import rally_question
from kessen.rulesets.armies_clash.referee.options import AttackWith, Benefit, Cast, CastArea, Rally
from kessen.rulesets.armies_clash.referee.spells import cast_odds
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.rules.commanders import commander_check
from kessen.rulesets.armies_clash.rules.morale import morale


def choice_odds(state: AcState, decision: Decision, choice: Any) -> dict[str, Fraction] | None:
    """The exact odds of *choice* at *decision*, or None for a choice without dice."""
    piece = decision.actor
    if isinstance(choice, AttackWith):
        found = attack_odds(state, piece, choice)
        numbers = {"expected_damage": found.mean_damage}
        if found.chance is not None:
            numbers[found.effect] = found.chance
        return numbers
    if isinstance(choice, Cast | CastArea):
        spell = cast_odds(state, piece, choice)
        numbers = {"expected_damage": spell.enemies}
        if spell.friends:
            numbers["expected_damage_friends"] = spell.friends
        return numbers
    turn = state.turn
    if isinstance(choice, Rally) and choice.rally and turn is not None:
        return {"rallied": morale(rally_question(state, turn.actor)).probability(lambda o: not o.routed)}
    if isinstance(choice, Benefit) and choice.name in ("incite", "prepare") and turn is not None:
        return {"success": commander_check(commander_question(state, turn.actor)).probability(lambda o: o.success)}
    return None
