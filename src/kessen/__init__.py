"""kessen (決戦): a rules engine for tabletop miniature wargames.

Exact odds for any combat action, a referee for whole battles, and fast simulation.

The battle half (``Match``, ``simulate``, ``sweep`` and what they give back: ``PendingDecision``, ``Option``,
``BattleStats``) is imported the first time it is asked for (PEP 562), so that exact odds start without loading any
engine; ``odds`` is imported here, as its name is also its module's, and loads no pydantic: a ruleset's input models
do, with its procedures, the first time it is asked (issue 26, start-up). Before any of it, ``kessen.bootstrap`` chooses
the engine: the modules compiled with mypyc when they are built and current, else the Python source
(``KESSEN_ENGINE`` overrides).
"""

from __future__ import annotations

import kessen.bootstrap  # noqa: F401  first: it decides where every engine module below is loaded from
from importlib import import_module
from typing import TYPE_CHECKING, Any

from kessen.core.engine import Terminal
from kessen.core.errors import IllegalChoice, InputError, KessenError
from kessen.odds import OddsResult, odds
from kessen.rulesets import get_ruleset, ruleset_ids
from kessen.version import __version__

if TYPE_CHECKING:
    from kessen.match import Match, Option, PendingDecision
    from kessen.sim import simulate, sweep
    from kessen.sim.battles import BattleStats

__all__ = [
    "BattleStats", "IllegalChoice", "InputError", "KessenError", "Match", "OddsResult", "Option", "PendingDecision",
    "Terminal", "get_ruleset", "odds", "ruleset_ids", "simulate", "sweep", "__version__",
]

_LAZY = {
    "Match": "kessen.match", "Option": "kessen.match", "PendingDecision": "kessen.match", "simulate": "kessen.sim",
    "sweep": "kessen.sim", "BattleStats": "kessen.sim.battles",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kessen' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
