"""The ``kessen`` command line."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from kessen.core.errors import InputError, KessenError
from kessen.io.validation import validate_json
from kessen.odds import answer
from kessen.rulesets import get_ruleset, ruleset_ids

app = typer.Typer(
    name="kessen",
    help="kessen: exact odds, a referee for whole battles, and simulation for miniature wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@app.callback()
def kessen() -> None:
    """kessen: exact odds, a referee for whole battles, and simulation for miniature wargames."""


class OddsFormat(str, Enum):
    json = "json"
    table = "table"


@app.command()
def odds(
    ruleset: Annotated[Optional[str], typer.Argument(help="ruleset id; omit to list the rulesets")] = None,
    procedure: Annotated[Optional[str], typer.Argument(help="procedure; omit to list the procedures")] = None,
    input: Annotated[Optional[str], typer.Option("--input", help="input JSON file, or - for standard input")] = None,
    schema: Annotated[bool, typer.Option("--schema", help="print the input's JSON Schema")] = False,
    format: Annotated[OddsFormat, typer.Option("--format", help="json (the contract) or table")] = OddsFormat.json,
) -> None:
    """Exact odds of one procedure: kessen odds RULESET PROCEDURE --input FILE.json"""
    out = Console(highlight=False, soft_wrap=True)
    if ruleset is None:
        for rid in ruleset_ids():
            out.print(f"{rid:16} {get_ruleset(rid).title}")
        return
    chosen = get_ruleset(ruleset)
    if procedure is None:
        for name, proc in chosen.procedures.items():
            out.print(f"{name:16} {proc.summary}")
        return
    proc = chosen.procedure(procedure)
    if schema:
        print(json.dumps(proc.input_model.model_json_schema(), indent=2, ensure_ascii=False))
        return
    if input is None:
        raise InputError("--input", None, "give an input JSON file, or - for standard input")
    value = validate_json(proc.input_model, read_text(input, field="--input"))
    result = answer(chosen.id, proc, value)
    if format is OddsFormat.table:
        from kessen.cli.output import print_odds_table

        print_odds_table(result, out)
    else:
        print(result.to_json())


def read_text(path: str, *, field: str) -> str:
    """The text of a file, or of standard input for ``-``; a missing or unreadable file is an InputError."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(field, path, "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(field, path, f"cannot read the file ({error.__class__.__name__})") from None


def main() -> None:
    """Entry point: every error kessen raises on purpose becomes one stderr line and exit status 2."""
    try:
        app()  # typer reports its own usage errors (exit 2); ours arrive here
    except KessenError as error:
        print(f"kessen: error: {error}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("kessen: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
