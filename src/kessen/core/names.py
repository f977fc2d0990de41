"""Names as a person types them (issue 24 §7): a side matched without regard to case, and "did you mean" on a near
miss. Shared by every boundary that takes a side's name (the command line, ``--ai SIDE=LEVEL``, a sweep file's
``ai`` table, ``Match(ai=...)``, the web API); :mod:`kessen.cli.names` builds the prompt's vocabulary on it.

[DECISION] Case never decides between two names: where a scenario has two sides that differ only in case, neither is
matched without its own case.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from kessen.core.errors import InputError

_CLOSE = 0.6
"""How alike a typed name and a known one must be (difflib's ratio) to be suggested."""


def did_you_mean(typed: str, known: Iterable[str]) -> str | None:
    """The known name closest to *typed* (ignoring case), or None when none is close."""
    folded = {name.casefold(): name for name in known}
    close = difflib.get_close_matches(typed.casefold(), list(folded), n=1, cutoff=_CLOSE)
    return folded[close[0]] if close else None


def find_side(typed: str, sides: Iterable[str], field: str) -> str:
    """The side *typed* names, in the scenario's own case; an InputError naming *field* with the sides and, on a near
    miss, the one meant."""
    sides = tuple(sides)
    if typed in sides:
        return typed
    same = [side for side in sides if side.casefold() == typed.casefold()]
    if len(same) == 1:
        return same[0]
    reason = f"not a side of this scenario (its sides are {', '.join(sides)})"
    close = did_you_mean(typed, sides)
    raise InputError(field, typed, reason + (f"; did you mean {close}?" if close else ""))
