"""kessen (決戦): a rules engine for tabletop miniature wargames.

Exact odds for any combat action, a referee for whole battles, and fast simulation.
"""

from kessen.core.errors import InputError, KessenError
from kessen.odds import OddsResult, odds
from kessen.rulesets import get_ruleset, ruleset_ids
from kessen.sim import simulate, sweep

__version__ = "0.1.0"

__all__ = ["InputError", "KessenError", "OddsResult", "get_ruleset", "odds", "ruleset_ids", "simulate", "sweep", "__version__"]
