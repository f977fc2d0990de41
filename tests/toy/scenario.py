"""The toy's scenario file: ``ruleset = "toy"``, a ``name`` and the two ``sides``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from kessen.io.files import load_toml
from kessen.io.validation import StrictModel


class Scenario(StrictModel):
    """A race: its name and the two sides, in the order they dash."""

    ruleset: Literal["toy"] | None = None
    name: str = Field(default="A race", max_length=100, description="the race's name")
    description: str = Field(default="", max_length=500, description="one line about the race")
    sides: tuple[str, str] = Field(description="the two sides, the first dashes first")


def load_scenario(text: str, source: str) -> Scenario:
    """Parse and validate a scenario file's TOML text; errors name the file, the field and the value."""
    return load_toml(Scenario, text, source)


def swap_deployment(data: dict[str, Any]) -> None:
    """A sweep's ``swap_sides``: the other side dashes first."""
    sides = data.get("sides")
    if isinstance(sides, list):
        data["sides"] = sides[::-1]
