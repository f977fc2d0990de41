"""Every tool of ``kessen mcp``: its input model (:mod:`kessen.mcp.inputs`), what it calls, and what it answers.

A tool's input is validated strictly by its model, as the web's and the command line's inputs are; any refusal is
the one line ``kessen`` prints on standard error (``kessen: error: seed: must be ...``), answered as the tool's
error, and the server goes on. Nothing here needs the SDK: :mod:`kessen.mcp.server` serves it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kessen import i18n
from kessen.ai.advisor import Chances
from kessen.ai.levels import check_served, level_table
from kessen.core.errors import InputError, KessenError, error_line
from kessen.core.events import Event
from kessen.io.scenarios import scenario_model
from kessen.io.validation import StrictModel, validate_data
from kessen.match import Match
from kessen.mcp import inputs
from kessen.mcp.matches import MAX_MATCHES, Matches
from kessen.mcp.scenarios import choose
from kessen.odds import odds
from kessen.rulesets import get_ruleset, ruleset_ids
from kessen.sim.report import result_view
from kessen.web.scenarios import shipped
from kessen.web.views import events_view, legend, match_view

MAX_EVENTS = 200
"""[DECISION] The events one answer narrates: the last 200 of those the call played (``events_left_out`` counts the
others); a whole AI battle has thousands."""

_log = logging.getLogger("kessen.mcp")


@dataclass(frozen=True)
class Tool:
    """A tool: its name, its input model (the schema and the description an assistant sees) and what it does."""

    name: str
    model: type[StrictModel]
    run: Callable[[Any], dict[str, Any]]

    @property
    def description(self) -> str:
        return " ".join((self.model.__doc__ or "").split())

    def schema(self) -> dict[str, Any]:
        return self.model.model_json_schema()


@dataclass(frozen=True)
class Reply:
    """A tool's answer: its JSON object, or the one error line."""

    data: dict[str, Any] | None
    error: str | None = None


class Toolbox:
    """The tools of one server, and the matches it holds."""

    def __init__(self, *, matches: int = MAX_MATCHES) -> None:
        self.matches = Matches(matches)
        made = [
            Tool("rulesets", inputs.RulesetList, _rulesets),
            Tool("scenarios", inputs.ShippedList, _scenarios),
            Tool("procedure_schema", inputs.ProcedureSchema, _procedure_schema),
            Tool("odds", inputs.OddsQuestion, _odds),
            Tool("scenario_schema", inputs.ScenarioSchema, _scenario_schema),
            Tool("check_scenario", inputs.ScenarioCheck, _check),
            Tool("open_match", inputs.OpenMatch, self._open),
            Tool("match", inputs.MatchQuery, self._match),
            Tool("board", inputs.BoardQuery, self._board),
            Tool("choose", inputs.Choice, self._choose),
            Tool("undo", inputs.Undo, self._undo),
            Tool("advise", inputs.Advice, self._advise),
            Tool("simulate", inputs.Simulation, _simulate),
        ]
        self.tools = {tool.name: tool for tool in made}

    def call(self, name: str, arguments: object) -> Reply:
        """Run tool *name* on *arguments*: its answer, or its refusal as one line (an unknown tool, bad input, an
        illegal choice); a fault of kessen itself is logged on standard error and answered as one line too."""
        try:
            tool = self.tools.get(name)
            if tool is None:
                raise InputError("tool", name, f"no such tool (the tools are {', '.join(self.tools)})")
            return Reply(tool.run(validate_data(tool.model, arguments)))
        except KessenError as error:
            return Reply(None, error_line(error))
        except RecursionError:  # a scenario's TOML nested past what its parser walks
            return Reply(None, error_line(InputError("input", InputError.NOTHING, "nested too deeply")))
        except Exception as error:
            _log.exception("tool %s failed", name)
            return Reply(None, error_line(f"{name}: kessen failed inside ({type(error).__name__}: {error}); the server goes on"))

    # --- matches ------------------------------------------------------------------------------------------------

    def _open(self, asked: inputs.OpenMatch) -> dict[str, Any]:
        chosen = choose(asked.scenario, asked.ruleset)
        check_served(asked.ai)
        match = Match(chosen.ruleset, chosen.text, chosen.source, seed=asked.seed, people=asked.people, lang=asked.lang, ai=asked.ai)
        played = _Played()
        match.run(played)
        match_id = self.matches.add(match)
        return {**played.view(match), **_view(match_id, match)}

    def _match(self, asked: inputs.MatchQuery) -> dict[str, Any]:
        return _view(asked.match, self.matches.get(asked.match))

    def _board(self, asked: inputs.BoardQuery) -> dict[str, Any]:
        match = self.matches.get(asked.match)
        lang = match.lang if asked.lang is None else asked.lang
        if lang not in i18n.LANGUAGES:
            raise InputError("lang", lang, f"must be one of {', '.join(i18n.LANGUAGES)}")
        board = match.board()
        return {
            "id": asked.match, "board": board, "legend": legend(match.ruleset.id, lang, board["terrain"], board["models"]),
            "drawing": match.show(lang),
        }

    def _choose(self, asked: inputs.Choice) -> dict[str, Any]:
        match = self.matches.get(asked.match)
        played = _Played()
        match.choose(asked.notation, played)
        return {**played.view(match), **_view(asked.match, match)}

    def _undo(self, asked: inputs.Undo) -> dict[str, Any]:
        match = self.matches.get(asked.match)
        match.undo()
        return _view(asked.match, match)

    def _advise(self, asked: inputs.Advice) -> dict[str, Any]:
        match = self.matches.get(asked.match)
        check_served(asked.ai)
        chances = match.advise(playouts=asked.playouts, ai=asked.ai)
        level = asked.ai or str(next(iter(match.ai.values()), "greedy"))
        return {"id": asked.match, "ai": level, "options": [_chances(c) for c in chances]}


class _Played:
    """The events a call plays, as they happen."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, events: Iterable[Event]) -> None:
        self.events.extend(events)

    def view(self, match: Match) -> dict[str, Any]:
        shown = self.events[-MAX_EVENTS:]
        return {"events": events_view(match, shown), "events_left_out": len(self.events) - len(shown)}


def _view(match_id: str, match: Match) -> dict[str, Any]:
    """The match as the web page's match view gives it, without its board (the board tool's) and its whole history."""
    view = match_view(match_id, match)
    for key in ("board", "legend", "events"):
        del view[key]
    return view


def _chances(found: Chances) -> dict[str, Any]:
    return {
        "notation": found.notation, "win": float(found.win), "draw": float(found.draw), "exact": found.exact,
        "win_fraction": _fraction(found.win), "draw_fraction": _fraction(found.draw), "best": _fraction(found.best),
        "playouts": found.playouts, "low": found.low, "high": found.high,
    }


def _fraction(value: Fraction | float | None) -> str | None:
    return f"{value.numerator}/{value.denominator}" if isinstance(value, Fraction) else None


# --- rulesets, odds, scenarios, simulations ------------------------------------------------------------------------


def _rulesets(_asked: inputs.RulesetList) -> dict[str, Any]:
    listed = []
    for rid in ruleset_ids():
        ruleset = get_ruleset(rid)
        listed.append(
            {
                "id": rid, "title": ruleset.title, "prefix": ruleset.prefix, "plays_battles": ruleset.plays_battles,
                "procedures": [{"name": name, "summary": proc.summary} for name, proc in ruleset.procedures.items()],
            }
        )
    return {"rulesets": listed}


def _scenarios(_asked: inputs.ShippedList) -> dict[str, Any]:
    return {
        "scenarios": [
            {"name": s.name, "ruleset": s.ruleset, "title": s.title, "description": s.description, "sides": list(s.sides)}
            for s in shipped().values()
        ]
    }


def _procedure_schema(asked: inputs.ProcedureSchema) -> dict[str, Any]:
    model: type[StrictModel] = get_ruleset(asked.ruleset).procedure(asked.procedure).input_model
    return model.model_json_schema()


def _odds(asked: inputs.OddsQuestion) -> dict[str, Any]:
    return odds(asked.ruleset, asked.procedure, asked.input).to_json_dict()


def _scenario_schema(asked: inputs.ScenarioSchema) -> dict[str, Any]:
    return scenario_model(asked.ruleset).model_json_schema()


def _check(asked: inputs.ScenarioCheck) -> dict[str, Any]:
    chosen = choose(asked.scenario, asked.ruleset)
    state = chosen.ruleset.game.load_scenario(chosen.text, chosen.source)
    return {"ok": True, "ruleset": chosen.ruleset.id, "scenario": chosen.source, "sides": list(chosen.ruleset.game.sides(state))}


def _simulate(asked: inputs.Simulation) -> dict[str, Any]:
    from kessen.sim import simulate
    from kessen.sim.executors import InlineExecutor

    chosen = choose(asked.scenario, asked.ruleset)
    check_served(asked.ai)
    stats = simulate(
        chosen.source, text=chosen.text, ruleset=chosen.ruleset.id, runs=asked.runs, seed=asked.seed, ai=asked.ai, executor=InlineExecutor()
    )
    return {
        "ruleset": chosen.ruleset.id, "scenario": chosen.source, "runs": asked.runs, "seed": asked.seed,
        "ai": dict(level_table(asked.ai, stats.sides)), **result_view(chosen.ruleset.id, "en", list(stats.sides), stats.tally),
    }
