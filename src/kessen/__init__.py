"""kessen (決戦): a rules engine for tabletop miniature wargames.

Exact odds for any combat action, a referee for whole battles, and fast simulation.
"""

from kessen.core.errors import IllegalChoice, InputError, KessenError
from kessen.match import Match
from kessen.odds import OddsResult, odds
from kessen.rulesets import get_ruleset, ruleset_ids
from kessen.sim import simulate, sweep
from kessen.version import __version__

__all__ = [
    "IllegalChoice", "InputError", "KessenError", "Match", "OddsResult", "get_ruleset", "odds", "ruleset_ids", "simulate",
    "sweep", "__version__",
]
