"""The rich console every command prints through, whose closed pipe is the CLI's quiet exit 0 (rich's own exits 1)."""

from __future__ import annotations

from rich.console import Console

from kessen.cli.exits import PipeClosed


class KessenConsole(Console):
    """A rich console whose closed pipe raises :class:`~kessen.cli.exits.PipeClosed`."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise PipeClosed


def out_console() -> Console:
    return KessenConsole(highlight=False, soft_wrap=True)


def err_console() -> Console:
    return KessenConsole(stderr=True, highlight=False, soft_wrap=True)
