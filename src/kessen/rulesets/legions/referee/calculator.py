"""The odds calculator's input for an option whose odds one procedure gives (``Game.odds_input``, issue 24 §4): a
volley's ``fire`` (an attack of one volley, LI-FIRE-2, §5.2), a fight's ``fight`` (§5.4), a charge's ``combat``
(§5.5). An attack of several volleys is rated as a whole, which no one procedure asks: it opens none."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from pydantic import ValidationError

from kessen.core.errors import InputError
from kessen.core.records import equal
from kessen.rulesets import question_input
from kessen.rulesets.legions.procedures import PROCEDURES, FireInput
from kessen.rulesets.legions.profiles import OBSCURATION_PENALTY
from kessen.rulesets.legions.referee.firing import volley_arc, volley_question, volleys
from kessen.rulesets.legions.referee.state import Detachment, LiState
from kessen.rulesets.legions.referee.steps import Volley
from kessen.rulesets.legions.referee.targeting import Fire
from kessen.rulesets.legions.rules.firing import FireQuestion
from kessen.rulesets.legions.rules.targeting import hit_modifier


def procedure_input(name: str, question: Any) -> tuple[str, dict[str, Any]] | None:
    """The JSON input of the procedure *name* that asks its rule's *question*, or None where the question is beyond
    what the calculator takes (more Wounds or models than its input allows)."""
    try:
        return name, question_input(PROCEDURES[name], question)
    except (ValidationError, InputError):
        return None


def attack_input(state: LiState, det: Detachment, attack: Fire) -> tuple[str, dict[str, Any]] | None:
    """The ``fire`` input of an attack of one volley, or None for an attack of several (rated as a whole) or one the
    calculator cannot ask (see :func:`volley_input`)."""
    found = volleys(state, det, attack)
    return volley_input(state, found[0]) if len(found) == 1 else None


def volley_input(state: LiState, v: Volley) -> tuple[str, dict[str, Any]] | None:
    """The ``fire`` input of a volley against the target as it stands, or None where the calculator cannot ask it."""
    try:
        return "fire", _fire_input(state, v)
    except (ValidationError, InputError):
        return None


def _fire_input(state: LiState, v: Volley) -> dict[str, Any]:
    """The ``fire`` input that asks the volley's question: each live model of the target an entry, the models it may
    hit eligible, hit from the one arc the volley sees them from (LI-ARC-1); a volley that sees them from both arcs
    has no such input (the input gives one arc to every model)."""
    question = volley_question(state, v)
    if question is None or volley_arc(question) == "mixed":
        raise InputError("fire", v.key, "a volley that sees its targets from one arc")
    target = state.detachment(v.target)
    rear = volley_arc(question) == "rear"
    models = [
        {
            "type": m.type, "wounds": m.wounds, "wounds_remaining": m.wounds_remaining, "armour_save": m.armour_save,
            "special_save": m.special_save, "cover_save": m.cover_save, "void_shields": m.void_shields,
            "eligible": ok, "obscured": m.obscured if ok else 0,
        }
        for m, ok in zip(target.live, question.allocatable, strict=True)
    ]
    penalty = max(OBSCURATION_PENALTY[m.obscured] for m, ok in zip(target.live, question.allocatable, strict=True) if ok)
    # the modifier of the penalty chosen for the whole attack, where no model this volley may hit shows that penalty
    other = question.modifier - hit_modifier(target_scale=target.scale, engaged_with_scales=v.engaged_with_scales, obscuration_penalty=penalty)
    body = {
        "firing_models": v.firing_models, "dice": v.profile.dice, "to_hit": v.profile.to_hit, "hit_modifier": other,
        "ap": question.attack.ap, "light_at": question.attack.light_at, "rear_arc": rear,
        "armour_save_modifier": question.attack.armour_save_modifier, "target_scale": target.scale,
        "target_engaged_with_scales": list(v.engaged_with_scales), "obscuration_penalty": penalty, "target_models": models,
    }
    procedure = PROCEDURES["fire"]
    value = procedure.input_model.model_validate_json(json.dumps(body))
    assert isinstance(value, FireInput)
    if not equal(_hits_alike(value.question()), _hits_alike(question)):
        raise ValueError(f"fire: {body} does not ask {question}")
    return procedure.normalised(value)


def _hits_alike(question: FireQuestion) -> FireQuestion:
    """The question with the arc of every model no hit may go to set aside (such a model is never saved for)."""
    models = tuple(m if ok else dataclasses.replace(m, rear_arc=False) for m, ok in zip(question.models, question.allocatable, strict=True))
    return dataclasses.replace(question, models=models)
