"""The odds contract: a procedure's exact outcome distribution for a validated input."""

from __future__ import annotations

import json
import pickle
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias

from kessen.core.records import record
from kessen.dice import Dist
from kessen.dice.cache import BoundedCache, deep_bytes, dist_bytes
from kessen.io.bounds import check_tree
from kessen.io.files import load_json
from kessen.rulesets import Procedure, get_ruleset, outcome_fields

if TYPE_CHECKING:  # pydantic: loaded with a ruleset's procedures (the input models), not with ``import kessen``
    from kessen.io.validation import StrictModel


@record
class OddsResult:
    """The answer to one odds question: the normalised input and every outcome with its probability."""

    ruleset: str
    procedure: str
    input: dict[str, Any]
    dist: Dist[Any]

    @property
    def outcomes(self) -> list[tuple[dict[str, Any], Fraction]]:
        """Distinct outcomes as flat dicts with exact probabilities, sorted by their field values."""
        rows = [(outcome_fields(o), Fraction(w, self.dist.total)) for o, w in self.dist.items()]
        rows.sort(key=lambda row: tuple(_sort_key(v) for v in row[0].values()))
        return rows

    def probability(self, **where: Any) -> Fraction:
        """The total probability of the outcomes whose fields equal *where*."""
        return sum(
            (p for o, p in self.outcomes if all(o.get(k) == v for k, v in where.items())),
            Fraction(0),
        )

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON object of the odds contract."""
        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "input": self.input,
            "outcomes": [
                {"outcome": o, "probability": f"{p.numerator}/{p.denominator}", "p": float(p)}
                for o, p in self.outcomes
            ],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.to_json_dict(), indent=indent, ensure_ascii=False)


def odds(ruleset: str, procedure: str, data: Mapping[str, Any] | StrictModel | str) -> OddsResult:
    """Exact odds of *procedure* of *ruleset* for *data* (a dict, a JSON string or an input model).

    A JSON string is read the bounded way of every input file (:func:`kessen.io.files.parse_json`), and a dict is
    held to the same bounds of nesting and number size. A question asked again (the same JSON text, or a dict of
    the same JSON text) is answered from a bounded cache of validated questions: validation is a pure function of
    that text, so the answer and every error are the ones a first asking gives.

    >>> odds("song-of-blades", "activation", {"quality": 4}).probability(actions=1)
    Fraction(1, 2)
    """
    chosen = get_ruleset(ruleset).procedure(procedure)
    if not isinstance(data, str | dict):
        from kessen.io.validation import StrictModel, validate_data  # loaded already, with the procedure's model

        if isinstance(data, StrictModel):
            return answer(ruleset, chosen, validate_data(chosen.input_model, data))
    key = _question_key(ruleset, chosen, data)
    if key is None:
        return answer(ruleset, chosen, _validated(chosen, data))
    value, normalised, dist = _questions.get(key, lambda: _first_answer(chosen, data))
    return OddsResult(ruleset, chosen.name, pickle.loads(normalised), dist)  # the caller's own copy


def answer(ruleset: str, chosen: Procedure[Any], value: StrictModel) -> OddsResult:
    """The odds of an already validated input."""
    return OddsResult(ruleset, chosen.name, chosen.normalised(value), chosen.dist(value))


QUESTIONS_CACHE_BYTES = 32 * 2**20
"""The memory the validated questions answered through the API may keep (the text asked, the validated input, its
normalised form and its distribution, which the odds cache shares)."""

_Answer: TypeAlias = "tuple[StrictModel, bytes, Dist[Any]]"
"""The validated input, its normalised form pickled (unpickled anew for each caller, who may change it: a deep copy
faster than any walk in Python), and its distribution."""

_Key = tuple[str, str, bool, str]
"""Ruleset, procedure, whether the text is the caller's own JSON (else a dict's), the text."""

_questions: BoundedCache[_Key, _Answer] = BoundedCache(
    QUESTIONS_CACHE_BYTES, lambda key, found: deep_bytes(key) + deep_bytes(found[:2]) + dist_bytes(found[2])
)


_ENCODER = json.JSONEncoder()  # json.dumps with its defaults, without its per-call checks


def _question_key(ruleset: str, chosen: Procedure[Any], data: Mapping[str, Any] | str) -> _Key | None:
    """The cache key of a question: its JSON text as given, or a dict's JSON text (which tells ``true`` from
    ``1`` and ``1.0``); None for data that is no JSON (its error is the uncached path's)."""
    if isinstance(data, str):
        return (ruleset, chosen.name, True, data)
    try:
        return (ruleset, chosen.name, False, _ENCODER.encode(data))
    except (TypeError, ValueError, RecursionError):
        return None


def _validated(chosen: Procedure[Any], data: Mapping[str, Any] | str) -> StrictModel:
    from kessen.io.validation import validate_data

    model: type[StrictModel] = chosen.input_model
    if isinstance(data, str):
        return load_json(model, data, None)
    check_tree(data, None)
    return validate_data(model, data)


def _first_answer(chosen: Procedure[Any], data: Mapping[str, Any] | str) -> _Answer:
    value = _validated(chosen, data)
    return value, pickle.dumps(chosen.normalised(value), pickle.HIGHEST_PROTOCOL), chosen.dist(value)


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, int | float):
        return (2, value)
    return (3, str(value))
