"""Swapping the sides' deployment in a scenario file (a sweep's ``swap_sides``).

[DECISION] Swapping deployment moves each side to where the other side stood: every piece's position is turned
half a turn about the centre of the table (x → width − x, y → height − y), so each force keeps its shape and
takes the other's ground, while the table itself (terrain, drops, walls, objectives) stays where it is. A
scenario's other asymmetries (who has priority or initiative first) are not deployment and stay as written.
Each ruleset knows its own scenario layout and turns it (``Ruleset.swap_deployment``, in its ``scenario.py``;
the formats are the players' documented ones, ``docs/scenarios/<ruleset>.md``); a swapped
position that is not legal (on terrain, off the table) is reported by the ruleset's own validation, naming the
cell and the field.
"""

from __future__ import annotations

from typing import Any

from kessen.core.errors import InputError

Data = dict[str, Any]


def swap_deployment(ruleset: str, data: Data) -> Data:
    """The scenario *data* (as parsed from TOML) with the sides' deployment swapped; *data* is changed in place."""
    from kessen.rulesets import get_ruleset

    swap = get_ruleset(ruleset).swap_deployment
    if swap is None:
        raise InputError("swap_sides", True, f"swapping deployment is not known for {ruleset} scenarios")
    swap(data)
    return data
