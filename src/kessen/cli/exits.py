"""How a command ends other than by finishing, raised where it happens and turned into an exit status by
:func:`kessen.cli.main.main`."""

from __future__ import annotations


class PipeClosed(Exception):
    """Standard output was closed by its reader (``kessen battle ... | head -1``): a quiet exit 0."""


class Interrupted(Exception):
    """Ctrl-C, after whatever had to be saved was saved."""


class UsageError(Exception):
    """A usage error of the typer app (a bad option value, a missing argument), as its one line: exit 2."""
