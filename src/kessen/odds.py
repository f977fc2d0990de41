"""The odds contract: a procedure's exact outcome distribution for a validated input."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kessen.dice import Dist
from kessen.io.bounds import check_tree
from kessen.io.files import load_json
from kessen.io.validation import StrictModel, validate_data
from kessen.rulesets import Procedure, get_ruleset, outcome_fields


@dataclass(frozen=True, slots=True)
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
    held to the same bounds of nesting and number size.

    >>> odds("song-of-blades", "activation", {"quality": 4}).probability(actions=1)
    Fraction(1, 2)
    """
    chosen = get_ruleset(ruleset).procedure(procedure)
    if isinstance(data, str):
        value = load_json(chosen.input_model, data, None)
    else:
        if not isinstance(data, StrictModel):
            check_tree(data, None)
        value = validate_data(chosen.input_model, data)
    return answer(ruleset, chosen, value)


def answer(ruleset: str, chosen: Procedure[Any], value: StrictModel) -> OddsResult:
    """The odds of an already validated input."""
    return OddsResult(ruleset, chosen.name, chosen.normalised(value), chosen.dist(value))


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, int | float):
        return (2, value)
    return (3, str(value))
