"""The toy's odds registry: the input of each procedure, validated at the edge, turned into the rules' question."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from kessen.io.validation import StrictModel
from kessen.rulesets import Procedure
from tests.toy.rules.dash import DashQuestion, dash


class DashInput(StrictModel):
    """A dash's question (TOY-1)."""

    squares: int = Field(ge=1, le=6, description="the squares the racer dashes: a d6 of this or more makes it (TOY-1)")


PROCEDURES: dict[str, Procedure[Any]] = {
    "dash": Procedure("dash", "One dash: whether the racer makes it (TOY-1).", DashInput, lambda v: dash(DashQuestion(v.squares))),
}
