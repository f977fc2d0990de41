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
    # a table written to a file or a pipe keeps its full column names
    out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
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


class Language(str, Enum):
    en = "en"
    ja = "ja"


@app.command()
def battle(
    scenario: Annotated[str, typer.Argument(help="scenario TOML file")],
    seed: Annotated[int, typer.Option("--seed", min=0, help="seed of the battle's random stream")] = 1,
    runs: Annotated[int, typer.Option("--runs", min=1, max=1_000_000, help="play this many battles and print win rates")] = 1,
    events: Annotated[Optional[str], typer.Option("--events", help="write the events as JSON lines to this file")] = None,
    lang: Annotated[Language, typer.Option("--lang", help="language of the narration")] = Language.en,
    save: Annotated[Optional[str], typer.Option("--save", help="save the game (scenario, seed, decisions) to this file")] = None,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", help="ruleset id (default: the examples/<ruleset>/ folder)")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", min=1, help="processes for --runs (default: all cores)")] = None,
) -> None:
    """Play a whole battle between two AI sides, narrated; or --runs N battles with win rates."""
    from kessen.cli.battles import run_battle

    run_battle(scenario, ruleset_id=ruleset, seed=seed, runs=runs, events_path=events, lang=lang.value, save_path=save, out=Console(highlight=False, soft_wrap=True), workers=workers)


@app.command()
def sweep(
    sweep_file: Annotated[str, typer.Argument(help="sweep TOML file: scenarios, fields to vary, battles per cell")],
    workers: Annotated[Optional[int], typer.Option("--workers", min=1, help="local processes (default: all cores)")] = None,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Dask: local (a LocalCluster) or tcp://HOST:8786")] = None,
    db: Annotated[Optional[str], typer.Option("--db", help="SQLite results file (default: beside the sweep file)")] = None,
    plot: Annotated[Optional[str], typer.Option("--plot", help="write PNG plots into this folder")] = None,
    export: Annotated[Optional[str], typer.Option("--export", help="write one row per cell to FILE.csv or FILE.parquet")] = None,
    lang: Annotated[Language, typer.Option("--lang", help="language of the table and the plot titles")] = Language.en,
) -> None:
    """Battles over a grid of scenario fields: win rates per cell, kept in SQLite (a re-run reuses them), plots."""
    from kessen.cli.sweep import sweep_command

    out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)  # a piped table keeps its columns
    sweep_command(sweep_file, workers=workers, scheduler=scheduler, db=db, plot=plot, export_path=export, lang=lang.value, out=out, err=Console(stderr=True, highlight=False, soft_wrap=True))


@app.command()
def resume(
    save_file: Annotated[str, typer.Argument(help="a file written by --save")],
    events: Annotated[Optional[str], typer.Option("--events", help="write the events as JSON lines to this file")] = None,
    lang: Annotated[Language, typer.Option("--lang", help="language of the narration")] = Language.en,
    side: Annotated[Optional[str], typer.Option("--side", help="play on as this side yourself (default: AI for both)")] = None,
    save: Annotated[Optional[str], typer.Option("--save", help="save again when you quit or the game ends")] = None,
) -> None:
    """Resume a saved game: replay its decisions exactly, then play on to the end."""
    from kessen.cli.battles import resume as resume_game

    resume_game(save_file, events_path=events, lang=lang.value, out=Console(highlight=False, soft_wrap=True), side=side, save_path=save)


@app.command()
def play(
    scenario: Annotated[str, typer.Argument(help="scenario TOML file")],
    side: Annotated[str, typer.Option("--side", help="the side you play")],
    seed: Annotated[int, typer.Option("--seed", min=0)] = 1,
    save: Annotated[Optional[str], typer.Option("--save", help="save file written when you quit or the game ends")] = None,
    lang: Annotated[Language, typer.Option("--lang")] = Language.en,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset")] = None,
) -> None:
    """Play one side yourself against the AI: the board, numbered legal decisions, exact odds of each attack."""
    from kessen.cli.battles import play_interactive

    play_interactive(scenario, ruleset_id=ruleset, side=side, seed=seed, save_path=save, lang=lang.value, out=Console(highlight=False, soft_wrap=True))


@app.command()
def board(
    scenario: Annotated[str, typer.Argument(help="scenario TOML file")],
    lang: Annotated[Language, typer.Option("--lang")] = Language.en,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset")] = None,
) -> None:
    """Draw a scenario's battlefield and forces in the terminal."""
    from kessen.io.scenarios import read_scenario, ruleset_for

    chosen = ruleset_for(scenario, ruleset)
    state = chosen.game.load_scenario(read_scenario(scenario), scenario)
    Console(highlight=False, soft_wrap=True).print(chosen.game.show(state, lang.value))


# --- kessen serve: the web page (kessen.web; the web engineer's block) -------------------------------------


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on (default: this machine only)")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="port to listen on (0: any free port)")] = 8000,
    db: Annotated[Optional[str], typer.Option("--db", help="SQLite file of matches and simulations (default: per-user data folder)")] = None,
) -> None:
    """Serve the web page (odds calculator) and its JSON API; prints the address to open."""
    try:
        from kessen.web.server import serve as serve_web
    except ImportError as missing:
        raise KessenError(f"serve: the web extra is not installed ({missing.name}); install kessen[web]") from None
    serve_web(host=host, port=port, db=db)


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
        print(f"kessen: error: {error}".replace("\r", "\\r").replace("\n", "\\n"), file=sys.stderr)  # one line
        sys.exit(2)
    except KeyboardInterrupt:
        print("kessen: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
