"""The exact numbers shown beside a choice (``Game.odds``), each from the very distribution the engine draws from
when that choice is made; their labels are the catalogues' ``[odds]`` table.

- an attack: ``expected_damage`` (the mean damage of the action, a number) and the chance of its decisive effect,
  ``casualty`` (the target stand, or the stand a casualty passes it on to, goes to 0 HP), ``falls`` (a conscious solo
  goes down), ``killed`` (a dying solo dies) or ``destroyed`` (an objective square goes to 0 HP);
- a spell: ``expected_damage`` to enemies and objective squares, and ``expected_damage_friends`` when it hurts
  friends too;
- Rally: ``rallied``; Incite or Prepare: ``success`` of the commander's check;
- a stand activated in the Attack action, and a move of the piece that attacks: the odds of the best attack it
  would make (``referee.prospects``), as an attack's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kessen.core.engine import Decision
from kessen.rulesets.armies_clash.referee.attack import AttackOdds, attack_odds
from kessen.rulesets.armies_clash.referee.calculator import attack_input
from kessen.rulesets.armies_clash.referee.commanders import commander_question
from kessen.rulesets.armies_clash.referee.morale import rally_question
from kessen.rulesets.armies_clash.referee.options import Activate, AttackWith, Benefit, Cast, CastArea, Destination, Rally, Stay
from kessen.rulesets.armies_clash.referee.prospects import Prospect, attacking, best_attack, moved_to, reach_attack
from kessen.rulesets.armies_clash.referee.spells import cast_odds
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.referee.steps import PieceMove
from kessen.rulesets.armies_clash.rules.commanders import commander_check
from kessen.rulesets.armies_clash.rules.morale import morale


def choice_odds(state: AcState, decision: Decision, choice: Any) -> dict[str, Fraction] | None:
    """The exact odds of *choice* at *decision*, or None for a choice without dice."""
    piece = decision.actor
    if isinstance(choice, AttackWith):
        return _attack_numbers(attack_odds(state, piece, choice))
    prospect = leads_to(state, choice)
    if prospect is not None:
        return _attack_numbers(prospect.odds)
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


def _attack_numbers(found: AttackOdds) -> dict[str, Fraction]:
    numbers = {"expected_damage": found.mean_damage}
    if found.chance is not None:
        numbers[found.effect] = found.chance
    return numbers


def leads_to(state: AcState, choice: Any) -> Prospect | None:
    """The best attack an activation or a move in the Attack action leads to (``referee.prospects``), or None."""
    turn = state.turn
    if isinstance(choice, Activate) and turn is not None and turn.action == "attack":
        return reach_attack(state, choice)
    step = state.pending[0] if state.pending else None
    if isinstance(choice, Destination | Stay) and isinstance(step, PieceMove) and not step.second and attacking(turn):
        assert turn is not None  # a move after the action (``second``) leads to no attack of this turn
        at = moved_to(state, turn.piece, choice)
        return None if at is None else best_attack(at, turn.piece)
    return None


def odds_input(state: AcState, decision: Decision, choice: Any) -> tuple[str, dict[str, Any]] | None:
    """The procedure and JSON input whose odds :func:`choice_odds` shows beside *choice*: an attack's ``attack``, and
    so an activation's or a move's best attack (``referee.calculator``); None elsewhere."""
    if isinstance(choice, AttackWith):
        return attack_input(state, decision.actor, choice)
    prospect = leads_to(state, choice)
    if prospect is None:
        return None
    turn = prospect.at.turn
    return None if turn is None else attack_input(prospect.at, turn.piece, prospect.attack)
