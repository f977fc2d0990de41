"""Issue 13 §4: a question asked again through ``kessen.odds`` is answered from a bounded cache of validated
questions, keyed by its JSON text, with exactly the answer and the errors of a first asking."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from kessen import InputError, odds
from kessen.io.validation import validate_data
from kessen.odds import QUESTIONS_CACHE_BYTES, answer
from kessen.rulesets import get_ruleset

SB = "song-of-blades"
AC = "armies-clash"
ATTACK = {"attacks": [{"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}], "target_ac": 13, "target_hp": 7}


def test_issue_13_4_a_repeated_question_gets_the_answer_of_a_first_asking() -> None:
    """The cached answer is the uncached one: the same normalised input, the same distribution object, for a dict
    and for JSON text alike."""
    procedure = get_ruleset(AC).procedure("attack")
    first = answer(AC, procedure, validate_data(procedure.input_model, ATTACK))
    for data in (ATTACK, dict(ATTACK), '{"attacks": [{"kind": "melee", "attack_bonus": 3, "damage": "1d8+1"}], '
                 '"target_ac": 13, "target_hp": 7}'):
        again = odds(AC, "attack", data)
        assert again.to_json_dict() == first.to_json_dict() and again.dist is odds(AC, "attack", data).dist


def test_issue_13_4_the_cache_tells_true_from_1_and_1_0_from_1() -> None:
    """JSON text is the key, so ``true`` and ``1.0`` (refused: not integers) are never taken for the accepted 1."""
    assert odds(SB, "activation", {"quality": 4, "dice": 1}).input == {"quality": 4, "dice": 1}
    for bad, reason in ((True, "must be an integer"), (1.0, "must be an integer")):
        for _ in range(2):
            with pytest.raises(InputError, match=reason) as refused:
                odds(SB, "activation", {"quality": 4, "dice": bad})
            assert refused.value.field == "dice"


@pytest.mark.parametrize(
    "data, message",
    [
        ({"quality": 7}, "quality: must be ≤ 6 (got 7)"),
        ('{"quality": 4, "quality": 4}', "quality: the key is given twice"),
        ({"quality": 2**70}, "quality: integer too large (more than 64 bits) (got 1180591620717411303424)"),
        ({"quality": {1, 2}}, "input: not representable as JSON"),
        ({"quality": float("nan")}, "quality: must be a finite number (got nan)"),
    ],
)
def test_issue_13_4_a_refused_question_is_refused_alike_every_time(data: Any, message: str) -> None:
    """Errors are never cached: asked twice, a bad question gives the same error (field, value, reason) both
    times."""
    errors = []
    for _ in range(2):
        with pytest.raises(InputError) as refused:
            odds(SB, "activation", data)
        errors.append(str(refused.value))
    assert errors[0] == errors[1] and message in errors[0]


def test_issue_13_4_a_caller_cannot_change_what_the_cache_holds() -> None:
    """The normalised input handed out is the caller's own copy, nested lists and dicts too."""
    first = odds(AC, "attack", ATTACK)
    first.input["attacks"][0]["attack_bonus"] = 99
    first.input["target_ac"] = 1
    again = odds(AC, "attack", ATTACK).input
    assert (again["attacks"][0]["attack_bonus"], again["target_ac"]) == (3, 13)


def test_issue_13_4_the_question_cache_is_bounded_by_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many distinct questions are asked, the cache of validated questions keeps at most its budget."""
    from kessen.dice.cache import BoundedCache

    module = importlib.import_module("kessen.odds")  # the module: the attribute kessen.odds is the function

    small: Any = BoundedCache(budget=30_000, cost=module._questions._cost_of)
    monkeypatch.setattr(module, "_questions", small)
    for attacker in range(13):
        for defender in range(13):
            odds(SB, "melee", {"attacker_combat": attacker, "defender_combat": defender})
            assert small.cost <= 30_000
    assert 0 < len(small) < 13 * 13 and QUESTIONS_CACHE_BYTES == 32 * 2**20
