"""What a request to play names: a scenario, a new match, a choice. The web API (``kessen.web``) and the MCP server
(``kessen.mcp``) validate their input with these models, so both take the same fields with the same limits."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from kessen.io.files import SCENARIO
from kessen.io.validation import StrictModel

MAX_PEOPLE = 16

AiField = Annotated[str, Field(max_length=100)] | Annotated[dict[str, Annotated[str, Field(max_length=100)]], Field(max_length=MAX_PEOPLE)] | None
"""A request's ``ai``: one level for every machine side, or side → level (checked by ``kessen.ai.levels.check_served``)."""


class ScenarioRequest(StrictModel):
    """A scenario: a shipped one's name (``battlehost/doorway``) or a scenario's TOML text, and its ruleset unless
    the text names it."""

    scenario: str = Field(max_length=SCENARIO.limit, description="a shipped scenario's name, or a scenario's TOML text")
    ruleset: str | None = Field(default=None, max_length=100, description="the ruleset, unless the scenario names it")


class MatchRequest(ScenarioRequest):
    """A new match: its scenario, seed, the sides a person plays (none: the AI plays every side), and language."""

    seed: int = Field(description="the seed of the match's one random stream, 0 to 2^64 - 1")
    people: list[str] = Field(default=[], max_length=MAX_PEOPLE, description="the sides a person plays")
    lang: str = Field(default="en", max_length=10, description="the language of the match's words: en or ja")
    ai: AiField = Field(
        default=None,
        description="the AI level of every machine side (greedy, search, search:N, random), or side → level; default greedy",
    )


class ChoiceRequest(StrictModel):
    notation: str = Field(max_length=10_000, description="a suggested option's notation, or any legal notation of a free decision")
