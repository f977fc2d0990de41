"""``kessen odds``: its work, and its arguments read without typer where they take the plain forms (issue 26: the
command starts in a fraction of the time the whole typer app and rich take to load).

:func:`plain_arguments` reads ``odds [RULESET [PROCEDURE]] [--input FILE] [--format json|table] [--schema]``, the
options before, between or after the arguments, each at most once, an option's value given as the next word or after
``=``. Anything else (``-h``, an unknown option, a missing value, a value typer would refuse) is left to the typer
app, which answers it with its help or its usage error; either way :func:`run_odds` does the work, so the output is
the same byte for byte.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from kessen.core.errors import InputError
from kessen.core.records import record
from kessen.io.files import ODDS_INPUT, load_json, read_input
from kessen.odds import answer
from kessen.rulesets import get_ruleset, ruleset_ids

if TYPE_CHECKING:
    from rich.console import Console

FORMATS = ("json", "table")
_VALUED = ("--input", "--format")


@record
class OddsArguments:
    """What ``kessen odds`` was asked: *format* json (the contract) or table (rich tables)."""

    ruleset: str | None
    procedure: str | None
    input: str | None
    schema: bool
    format: str


def run_odds(asked: OddsArguments) -> None:
    """Exact odds of one procedure; without a procedure, the procedures of the ruleset; without a ruleset, the
    rulesets."""
    ruleset, procedure, input = asked.ruleset, asked.procedure, asked.input
    if ruleset is None:
        out = _odds_console()
        for rid in ruleset_ids():
            out.print(f"{rid:16} {get_ruleset(rid).title}")
        return
    chosen = get_ruleset(ruleset)
    if procedure is None:
        out = _odds_console()
        for name, proc in chosen.procedures.items():
            out.print(f"{name:16} {proc.summary}")
        return
    proc = chosen.procedure(procedure)
    if asked.schema:
        print(json.dumps(proc.input_model.model_json_schema(), indent=2, ensure_ascii=False))
        return
    if input is None:
        raise InputError("--input", InputError.NOTHING, "give an input JSON file, or - for standard input")
    # standard input has no file to name: its errors name the field alone, as the odds contract has them
    value = load_json(proc.input_model, read_input(input, ODDS_INPUT), None if input == "-" else input)
    result = answer(chosen.id, proc, value)
    if asked.format == "table":
        from kessen.cli.output import print_odds_table

        print_odds_table(result, _odds_console())
    else:
        print(result.to_json())


def _odds_console() -> Console:
    """The console of the listings and the table: one written to a file or a pipe keeps its full column names."""
    from kessen.cli.console import KessenConsole

    return KessenConsole(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)


def plain_arguments(args: list[str]) -> OddsArguments | None:
    """What the command line *args* (``sys.argv[1:]``) asks when it is a ``kessen odds`` command of the plain forms
    (see the module's docstring), else None."""
    if not args or args[0] != "odds":
        return None
    words: list[str] = []
    given: dict[str, str] = {}
    schema = False
    rest = iter(args[1:])
    for word in rest:
        if not word.startswith("-"):
            words.append(word)
            continue
        name, equals, value = word.partition("=")
        if name == "--schema" and not equals and not schema:
            schema = True
            continue
        if name not in _VALUED or name in given:
            return None
        if not equals:
            following = next(rest, None)
            if following is None or following.startswith("-") and following != "-":
                return None  # no value, or what may be an option where the value should be
            value = following
        given[name] = value
    form = given.get("--format", "json")
    if len(words) > 2 or form not in FORMATS:
        return None
    ruleset, procedure = (*words, None, None)[:2]
    return OddsArguments(ruleset, procedure, given.get("--input"), schema, form)
