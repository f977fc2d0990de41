"""The odds calculator's input for an attack whose odds the ``attack`` procedure gives (``Game.odds_input``, issue 24
§4): one stand's or solo's Attack action against a stand or an objective square (§6.3), and so the best attack an
activation or a move leads to.

[DECISION] An attack opens the calculator only where the ``attack`` input can ask its very question: every roll at
one response to damage and one range, no push, within the input's limits (4 rolls, a damage ceiling of 300). An
attack on a solo opens none: its odds come from the hit-by-hit ``solo_attack`` rule, which no procedure of the
contract asks alone.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from kessen.core.errors import InputError
from kessen.core.records import equal
from kessen.rulesets.armies_clash.procedures import PROCEDURES, AttackInput
from kessen.rulesets.armies_clash.referee.attack import attack_plan, routines
from kessen.rulesets.armies_clash.referee.options import AttackWith
from kessen.rulesets.armies_clash.referee.pieces import kind_of, stats
from kessen.rulesets.armies_clash.referee.state import AcState
from kessen.rulesets.armies_clash.rules.attack import AttackQuestion


def attack_input(state: AcState, piece: str, option: AttackWith) -> tuple[str, dict[str, Any]] | None:
    """The ``attack`` input that asks the question of *piece* making *option* on the battlefield *state*, or None
    where no input asks it (see the module's [DECISION])."""
    kind = kind_of(state, option.target)
    supported = state.turn is not None and piece in state.turn.supported
    question = attack_plan(state, piece, option.using, kind, option.target, supported=supported)
    if not isinstance(question, AttackQuestion) or question.target_unconscious:
        return None
    rolls = question.rolls
    if len({(r.resistance, r.long_range) for r in rolls}) != 1 or any(r.push_squares for r in rolls):
        return None
    routine = dict(routines(stats(state, piece)))[option.using]
    body = {
        "attacker": question.attacker, "action": question.action, "target": question.target,
        "attacks": [
            {"kind": r.kind, "attack_bonus": r.attack_bonus, "damage": r.damage, **({"reach_ft": r.reach_ft or 5} if r.kind == "melee" else {})}
            for r in routine
        ],
        "target_ac": question.target_ac, "target_hp": question.target_hp, "target_isolated": question.target_isolated,
        "target_defensive": question.target_defensive, "target_cover": question.target_cover,
        "resistance": rolls[0].resistance, "attacker_isolated": question.attacker_isolated,
        "attacker_formation": "support" if question.supported else "none", "supported": question.supported,
        "incited": question.incited, "higher_ground": question.higher_ground, "long_range": rolls[0].long_range,
        "adjacent_enemy": question.adjacent_enemy, "extra_advantage": question.extra_advantage,
        "extra_disadvantage": question.extra_disadvantage,
    }
    procedure = PROCEDURES["attack"]
    try:
        value = procedure.input_model.model_validate_json(json.dumps(body))
    except (ValidationError, InputError):
        return None
    assert isinstance(value, AttackInput)
    if not equal(value.question(), replace(question, attacker_adjacent=False)):
        raise ValueError(f"attack: {body} does not ask {question}")
    return "attack", procedure.normalised(value)
