"""The ``kessen`` command line's entry point: every error one line on standard error, exit 2; a closed pipe a quiet
exit 0.

A ``kessen odds`` command of the plain forms runs without the typer app and rich (:mod:`kessen.cli.odds`: issue 26,
its start-up); every other command line is the typer app's (:mod:`kessen.cli.app`, loaded then, and importable
from here as ``app``).
"""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

from kessen.cli.exits import Interrupted, PipeClosed, UsageError
from kessen.cli.odds import plain_arguments, run_odds
from kessen.core.errors import KessenError, error_line


def main() -> None:
    """Entry point: every error kessen raises on purpose, and every usage error, becomes one stderr line and exit
    status 2; Ctrl-C exits 130 (after ``play`` saved the game), SIGTERM and SIGHUP to ``battle --runs`` and
    ``sweep`` 143 and 129 (:mod:`kessen.cli.stopping`); a closed standard output exits 0 quietly."""
    code: Any = None
    try:
        plain = plain_arguments(sys.argv[1:])
        if plain is None:
            from kessen.cli.app import run

            code = run()
        else:
            run_odds(plain)
    except (PipeClosed, BrokenPipeError):
        _quiet_exit()
    except KessenError as error:
        _fail(error)
    except UsageError as error:
        _fail(str(error))
    except (Interrupted, KeyboardInterrupt):
        from kessen.cli.stopping import stopped_by

        name, status = stopped_by()
        print("kessen: interrupted" if name == "SIGINT" else f"kessen: stopped by {name}", file=sys.stderr)
        sys.exit(status)
    sys.exit(code if isinstance(code, int) else 0)


def _fail(message: BaseException | str) -> NoReturn:
    print(error_line(message), file=sys.stderr)
    sys.exit(2)


def _quiet_exit() -> NoReturn:
    """Exit 0 once the reader of standard output has gone, without Python's own complaint when it flushes."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(0)


def __getattr__(name: str) -> Any:
    """``app``, the typer app, loaded the first time it is asked for."""
    if name == "app":
        from kessen.cli.app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
