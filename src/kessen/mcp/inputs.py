"""The input of every tool: a strict pydantic model whose JSON Schema is the tool's ``inputSchema`` and whose
docstring is the tool's description. The scenario, match and choice fields are the web API's own models
(:mod:`kessen.io.requests`); an odds input is the procedure's own model, validated by ``kessen.odds``."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from kessen.io.files import SCENARIO
from kessen.io.requests import AiField, ChoiceRequest, MatchRequest, ScenarioRequest
from kessen.io.validation import StrictModel

MAX_PLAYOUTS = 1_000
"""[DECISION] The playouts an advice may ask for per option: an answer within a tool call (an assistant waits for
it), where the web's and the terminal's advice take up to 100,000."""

MAX_RUNS = 1_000
"""[DECISION] The battles one ``simulate`` call may play (on one core, inside the call): a win rate to within about
±3% (95%) in seconds for the shipped scenarios; ``kessen battle --runs`` and the web page play more."""

ScenarioField = Annotated[
    str,
    Field(
        max_length=SCENARIO.limit,
        description="a shipped scenario's name (battlehost/doorway; the scenarios tool lists them), a scenario file's path "
        "on this machine (one line), or a scenario's TOML text (several lines)",
    ),
]
"""A scenario as a tool takes it: the web's two ways, and a file's path, as ``kessen play`` takes it (the server runs
as the user who started it)."""

MatchId = Annotated[str, Field(max_length=100, description="the match's id, as open_match gave it")]

Ruleset = Annotated[str, Field(max_length=100, description="a ruleset's id (the rulesets tool lists them)")]
Procedure = Annotated[str, Field(max_length=100, description="a procedure of the ruleset (the rulesets tool lists them)")]


class RulesetList(StrictModel):
    """The rulesets kessen plays: each one's id, title, rule-ID prefix, whether it plays whole battles, and its
    procedures (the odds it computes exactly) with a line on each."""


class ShippedList(StrictModel):
    """The scenarios kessen ships: each by the name the other tools take (battlehost/doorway), with its ruleset,
    title, description and sides."""


class ProcedureSchema(StrictModel):
    """The JSON Schema of a procedure's odds input (what the odds tool's input must be): every field, its limits
    and what it means; the same as `kessen odds RULESET PROCEDURE --schema`."""

    ruleset: Ruleset
    procedure: Procedure


class OddsQuestion(ProcedureSchema):
    """Exact odds of one procedure: every outcome with its probability as a fraction ("1/6") and a float, and the
    input as it was read (defaults filled). The same JSON object as `kessen odds RULESET PROCEDURE --input FILE`."""

    input: dict[str, Any] = Field(description="the procedure's input (its schema: the procedure_schema tool)")


class ScenarioSchema(StrictModel):
    """The JSON Schema of a ruleset's scenario files (every field, its limits and what it means); the same as
    `kessen schema RULESET`."""

    ruleset: Ruleset


class ScenarioCheck(ScenarioRequest):
    """Check a scenario without playing it, as `kessen check` does: its ruleset, name and sides, or the error."""

    scenario: ScenarioField


class OpenMatch(MatchRequest):
    """Open a match: the AI plays the sides no person plays (at the level asked: greedy, search, search:N up to
    20,000 positions, random) until a person must decide or the battle ends. Answers the match's id, the events so
    far and the match as the match tool shows it."""

    scenario: ScenarioField


class MatchQuery(StrictModel):
    """A match: its sides, who plays them, the pending decision (who decides, the question, each suggested option in
    notation with its words and exact odds), whether undo can go back, and the result once it is over."""

    match: MatchId


class BoardQuery(MatchQuery):
    """A match's board: the battlefield as data (size, terrain, every model with its position, base, side and
    status) and as the text drawing the terminal shows."""

    lang: str | None = Field(default=None, max_length=10, description="the drawing's language (en or ja); default the match's")


class Choice(ChoiceRequest):
    """Make the pending decision in notation (a suggested option's, or any legal one of a free decision); the AI
    sides then play until a person must decide again or the battle ends. Answers the events of the choice and after
    it, and the match. An illegal choice changes nothing and says which rule refuses it."""

    match: MatchId


class Undo(MatchQuery):
    """Go back to before the person's last decision: the same state and the same random stream as then."""


class Advice(MatchQuery):
    """Each suggested option of the pending decision: the chance to win and to draw if it is taken and the AI then
    plays every side; exact fractions where the rest of the battle is small enough to walk (with its worth under
    best play), else from seeded playouts with a 95% interval."""

    playouts: int = Field(default=100, ge=1, le=MAX_PLAYOUTS, description=f"playouts per option where it is not exact, 1 to {MAX_PLAYOUTS:,}")
    ai: str | None = Field(default=None, max_length=100, description="the AI level that plays every side after the option (default: the match's first AI side's level)")


class Simulation(ScenarioCheck):
    """Play N battles of a scenario between its AI sides, seeded: each side's wins and win rate with its 95% Wilson
    interval, the draws, and the distribution and mean of every number of the battle summary (casualties, ...)."""

    runs: int = Field(ge=1, le=MAX_RUNS, description=f"how many battles, 1 to {MAX_RUNS:,}")
    seed: int = Field(description="the seed the battles' own seeds are drawn from, 0 to 2^64 - 1")
    ai: AiField = Field(default=None, description="the AI level of every side (greedy, search, search:N, random), or side → level; default greedy")
