"""The ``kessen`` commands as a typer app; :func:`kessen.cli.main.main` runs it (and a plain ``kessen odds`` without
it) and turns what it raises into one line on standard error and an exit status."""

from __future__ import annotations

import json
import re
import sys
from enum import Enum
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperCommand, TyperGroup

from kessen.cli.console import KessenConsole, err_console, out_console
from kessen.cli.exits import Interrupted, PipeClosed, UsageError
from kessen.cli.odds import OddsArguments, run_odds
from kessen.core.errors import KessenError
from kessen.dice import SEED_LIMIT


class KessenGroup(TyperGroup):
    """The command group, turning a closed pipe and Ctrl-C into exceptions of our own before typer turns them into
    exit status 1 and a silent 130."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:
            raise PipeClosed from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise PipeClosed from None
        except KeyboardInterrupt:
            raise Interrupted from None


_RANGE = re.compile(r"(?:; )?(?:-?[\d.]+<=?x(?:<=?-?[\d.]+)?|x[<>]=?-?[\d.]+)")
"""typer's range notation (``0<=x<=65535``, ``x>=1``): each help text says its range in words instead."""


class KessenCommand(TyperCommand):
    """A command whose help names values as a player reads them (issue 24 §7): each argument and option by its
    metavar (``SCENARIO``, ``SIDE``, ``N``), never by a Python type (``<str>``, ``<list[str]>``) or typer's range
    notation (``0<=x<=N``)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                pieces.append(_metavar(param) if param.required else f"[{_metavar(param)}]")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        rows: dict[str, list[tuple[str, str]]] = {"argument": [], "option": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            name, help = record
            if param.param_type_name == "argument":
                name = _metavar(param)  # typer writes the argument's Python type beside its name
            help = _RANGE.sub("", help).replace("[; ", "[").replace("  []", "")
            rows[param.param_type_name].append((name, help))
        for title, kind in (("Arguments", "argument"), ("Options", "option")):
            if rows[kind]:
                with formatter.section(title):
                    formatter.write_dl(rows[kind])


def _metavar(param: Any) -> str:
    return str(param.metavar or param.name.upper())


app = typer.Typer(
    name="kessen",
    cls=KessenGroup,
    help="kessen: exact odds, a referee for whole battles, and simulation for miniature wargames.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from kessen import __version__
        from kessen.bootstrap import CHOICE, describe

        print(f"kessen {__version__} ({describe(CHOICE)})")
        raise typer.Exit()


@app.callback()
def kessen(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True, help="print kessen's version and which engine runs (compiled or pure Python), and exit")] = False,
) -> None:
    """kessen: exact odds, a referee for whole battles, and simulation for miniature wargames."""
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())


class OddsFormat(str, Enum):
    json = "json"
    table = "table"


class Language(str, Enum):
    en = "en"
    ja = "ja"


SEED_HELP = "seed of the battle's random stream (0 to 2^64 - 1)"
MAX_SEED = SEED_LIMIT - 1
LANG_HELP = "language of the narration, prompts and results"
AI_HELP = "the AI level of every machine side (greedy, search, search:N, random, package.module:Name), or SIDE=LEVEL; repeat for each side"


def _levels(words: list[str] | None) -> str | dict[str, str] | None:
    from kessen.ai.levels import parse_assignments

    return parse_assignments(list(words or ()))


RULESET_HELP = "ruleset id (see kessen odds), when the scenario file names none"


@app.command(cls=KessenCommand)
def odds(
    ruleset: Annotated[Optional[str], typer.Argument(help="ruleset id; omit to list the rulesets")] = None,
    procedure: Annotated[Optional[str], typer.Argument(help="procedure; omit to list the procedures")] = None,
    input: Annotated[Optional[str], typer.Option("--input", metavar="FILE", help="input JSON file, or - for standard input")] = None,
    schema: Annotated[bool, typer.Option("--schema", help="print the input's JSON Schema")] = False,
    format: Annotated[OddsFormat, typer.Option("--format", metavar="json|table", help="json (the contract) or table")] = OddsFormat.json,
) -> None:
    """Exact odds of one procedure: kessen odds RULESET PROCEDURE --input FILE.json"""
    run_odds(OddsArguments(ruleset, procedure, input, schema, format.value))


@app.command(cls=KessenCommand)
def battle(
    scenario: Annotated[str, typer.Argument(help="scenario TOML file")],
    seed: Annotated[int, typer.Option("--seed", metavar="N", min=0, max=MAX_SEED, help=SEED_HELP)] = 1,
    runs: Annotated[int, typer.Option("--runs", metavar="N", min=1, max=1_000_000, help="play this many battles (1 to 1,000,000) and print win rates")] = 1,
    events: Annotated[Optional[str], typer.Option("--events", metavar="FILE", help="write the events as JSON lines to this file")] = None,
    lang: Annotated[Language, typer.Option("--lang", metavar="en|ja", help=LANG_HELP)] = Language.en,
    save: Annotated[Optional[str], typer.Option("--save", metavar="FILE", help="save the game (kessen-save/2: scenario, seed, every step) to this file")] = None,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", metavar="RULESET", help=RULESET_HELP)] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", metavar="N", min=1, help="processes for --runs, 1 or more (default: all cores)")] = None,
    ai: Annotated[Optional[list[str]], typer.Option("--ai", metavar="[SIDE=]LEVEL", help=AI_HELP)] = None,
) -> None:
    """Play a whole battle between the AI sides, narrated as it is played; or --runs N battles with win rates."""
    from kessen.cli.battles import run_battle

    run_battle(
        scenario, ruleset_id=ruleset, seed=seed, runs=runs, events_path=events, lang=lang.value, save_path=save, out=out_console(), err=err_console(),
        workers=workers, ai=_levels(ai),
    )


@app.command(cls=KessenCommand)
def sweep(
    sweep_file: Annotated[str, typer.Argument(help="sweep TOML file: scenarios, fields to vary, battles per cell")],
    workers: Annotated[Optional[int], typer.Option("--workers", metavar="N", min=1, help="local processes, 1 or more (default: all cores)")] = None,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", metavar="ADDRESS", help="Dask: local (a LocalCluster) or tcp://HOST:8786")] = None,
    db: Annotated[Optional[str], typer.Option("--db", metavar="FILE", help="SQLite results file (default: beside the sweep file)")] = None,
    plot: Annotated[Optional[str], typer.Option("--plot", metavar="FOLDER", help="write PNG plots into this folder")] = None,
    export: Annotated[Optional[str], typer.Option("--export", metavar="FILE", help="write one row per cell to FILE.csv or FILE.parquet")] = None,
    lang: Annotated[Language, typer.Option("--lang", metavar="en|ja", help="language of the table and the plot titles")] = Language.en,
    ai: Annotated[Optional[list[str]], typer.Option("--ai", metavar="[SIDE=]LEVEL", help=AI_HELP + "; instead of the sweep file's ai")] = None,
) -> None:
    """Battles over a grid of scenario fields: win rates per cell, kept in SQLite (a re-run reuses them), plots."""
    from kessen.cli.sweep import sweep_command

    out = KessenConsole(highlight=False, width=None if sys.stdout.isatty() else 160)  # a piped table keeps its columns
    sweep_command(
        sweep_file, workers=workers, scheduler=scheduler, db=db, plot=plot, export_path=export, lang=lang.value, out=out, err=err_console(),
        ai=_levels(ai),
    )


@app.command(cls=KessenCommand)
def resume(
    save_file: Annotated[str, typer.Argument(help="a file written by --save (or by q, Ctrl-D, Ctrl-C in kessen play)")],
    events: Annotated[Optional[str], typer.Option("--events", metavar="FILE", help="write the events as JSON lines to this file")] = None,
    lang: Annotated[Optional[Language], typer.Option("--lang", metavar="en|ja", help="language (default: the one the game was played in)")] = None,
    side: Annotated[Optional[list[str]], typer.Option("--side", metavar="SIDE", help="play on as this side yourself; repeat for more (default: the sides played before)")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="let the AI play every side to the end")] = False,
    ai: Annotated[Optional[list[str]], typer.Option("--ai", metavar="[SIDE=]LEVEL", help=AI_HELP + " (default: the levels the save recorded)")] = None,
    save: Annotated[Optional[str], typer.Option("--save", metavar="FILE", help="save again to this file when you stop or the game ends")] = None,
) -> None:
    """Resume a saved game: replay it exactly, then play on the way it was played (the same sides, the same language, the same AI)."""
    from kessen.cli.battles import resume as resume_game

    resume_game(
        save_file, events_path=events, lang=lang.value if lang else None, sides=tuple(side or ()), watch=watch, save_path=save, out=out_console(),
        ai=_levels(ai),
    )


@app.command(cls=KessenCommand)
def advise(
    save_file: Annotated[str, typer.Argument(help="a saved game: the advice is for its next decision")],
    playouts: Annotated[int, typer.Option("--playouts", metavar="N", min=1, max=100_000, help="playouts per option (1 to 100,000) where the rest of the battle is too big to work out exactly")] = 100,
    lang: Annotated[Optional[Language], typer.Option("--lang", metavar="en|ja", help="language (default: the one the game was played in)")] = None,
) -> None:
    """Each option of a saved game's next decision: the chance to win and to draw if it is taken and the save's AI then
    plays both sides; exact where the rest of the battle is small enough."""
    from kessen.cli.advice import advise_save

    advise_save(save_file, playouts, out_console(), lang.value if lang else None)


@app.command(cls=KessenCommand)
def play(
    scenario: Annotated[str, typer.Argument(help="scenario TOML file")],
    side: Annotated[Optional[list[str]], typer.Option("--side", metavar="SIDE", help="the side you play; repeat it to play more than one")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="N", min=0, max=MAX_SEED, help=SEED_HELP)] = 1,
    save: Annotated[Optional[str], typer.Option("--save", metavar="FILE", help="save file, written when you stop (q, Ctrl-D, Ctrl-C) or the game ends; default: a new file in the saved-games folder when you stop")] = None,
    events: Annotated[Optional[str], typer.Option("--events", metavar="FILE", help="write the events as JSON lines to this file")] = None,
    lang: Annotated[Language, typer.Option("--lang", metavar="en|ja", help=LANG_HELP)] = Language.en,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", metavar="RULESET", help=RULESET_HELP)] = None,
    ai: Annotated[Optional[list[str]], typer.Option("--ai", metavar="[SIDE=]LEVEL", help=AI_HELP)] = None,
) -> None:
    """Play a side yourself against the AI: type a suggested option's number or any legal move in notation; help,
    board, odds NOTATION, advise, undo, save [FILE] and q at every decision."""
    from kessen.cli.battles import play_interactive

    play_interactive(
        scenario, ruleset_id=ruleset, sides=tuple(side or ()), seed=seed, save_path=save, events_path=events,
        lang=lang.value, out=out_console(), err=err_console(), ai=_levels(ai),
    )


@app.command(cls=KessenCommand)
def board(
    scenario: Annotated[str, typer.Argument(help="scenario TOML file")],
    lang: Annotated[Language, typer.Option("--lang", metavar="en|ja", help="language of the board's words")] = Language.en,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", metavar="RULESET", help=RULESET_HELP)] = None,
) -> None:
    """Draw a scenario's battlefield and forces in the terminal."""
    from kessen.cli.battles import note_guess
    from kessen.io.scenarios import open_scenario

    opened = open_scenario(scenario, ruleset)
    note_guess(opened, lang.value, err_console())
    state = opened.ruleset.game.load_scenario(opened.text, scenario)
    out_console().print(opened.ruleset.game.show(state, lang.value))


# --- kessen serve: the web page (kessen.web; the web engineer's block) -------------------------------------


@app.command(cls=KessenCommand)
def serve(
    host: Annotated[str, typer.Option("--host", metavar="ADDRESS", help="address to listen on (default: this machine only)")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="N", min=0, max=65535, help="port to listen on, 0 to 65535 (0: any free port)")] = 8000,
    db: Annotated[Optional[str], typer.Option("--db", metavar="FILE", help="SQLite file of matches and simulations (default: per-user data folder)")] = None,
) -> None:
    """Serve the web page (odds calculator) and its JSON API; prints the address to open."""
    try:
        from kessen.web.server import serve as serve_web
    except ImportError as missing:
        raise KessenError(f"serve: the web extra is not installed ({missing.name}); install kessen[web]") from None
    serve_web(host=host, port=port, db=db)


@app.command(cls=KessenCommand)
def mcp() -> None:
    """Serve kessen's tools (odds, schemas, matches, the advisor, simulations) to an assistant over the Model Context
    Protocol, on standard input and output."""
    try:
        from kessen.mcp.server import serve as serve_mcp
    except ImportError as missing:
        raise KessenError(f"mcp: the mcp extra is not installed ({missing.name}); install kessen[mcp]") from None
    serve_mcp()


@app.command(cls=KessenCommand)
def check(
    scenario: Annotated[str, typer.Argument(help="scenario TOML file")],
    lang: Annotated[Language, typer.Option("--lang", metavar="en|ja", help="language of the summary line")] = Language.en,
    ruleset: Annotated[Optional[str], typer.Option("--ruleset", metavar="RULESET", help=RULESET_HELP)] = None,
) -> None:
    """Check a scenario file without playing it: one "ok" line, or the error (exit 2)."""
    from kessen.cli.scenarios import check_scenario

    check_scenario(scenario, ruleset_id=ruleset, lang=lang.value, out=out_console(), err=err_console())


@app.command(cls=KessenCommand)
def scenarios(
    lang: Annotated[Language, typer.Option("--lang", metavar="en|ja", help="language of the headings")] = Language.en,
) -> None:
    """List the scenarios kessen ships: ruleset, name, sides and what each is about."""
    from kessen.cli.scenarios import list_scenarios

    list_scenarios(lang=lang.value, out=out_console())


@app.command(cls=KessenCommand)
def schema(
    ruleset: Annotated[str, typer.Argument(help="ruleset id (see kessen odds)")],
) -> None:
    """Print the JSON Schema of a ruleset's scenario files (every field, its limits and what it means)."""
    from kessen.io.scenarios import scenario_model

    print(json.dumps(scenario_model(ruleset).model_json_schema(), indent=2, ensure_ascii=False))


def run() -> Any:
    """Run the app on ``sys.argv``: what the command returned; a usage error raised as :class:`UsageError`, typer's
    Abort (Ctrl-C in its prompt or while it parses) as :class:`Interrupted`."""
    try:
        return app(standalone_mode=False)
    except typer.TyperException as error:  # typer's usage errors: a bad option value, a missing argument
        context = getattr(error, "ctx", None)
        raise UsageError(f"{error.format_message()} (see {context.command_path if context else 'kessen'} -h)") from None
    except typer.Abort:
        raise Interrupted from None
